package io.etcdoperator.api.v1alpha2;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * config/crd/bases must hold exactly the CRDs this build generated. The build refreshes that copy itself; with
 * -Dcrd.bases.skipSync=true (as in CI) a stale committed copy fails here instead.
 */
class CrdBasesInSyncTest {

    private static final Path GENERATED = Path.of("target/classes/META-INF/fabric8");
    private static final Path COMMITTED = Path.of(System.getProperty("crd.bases.dir", "../config/crd/bases"));

    @Test
    void committedCrdsEqualTheGeneratedOnes() throws IOException {
        List<String> generated = names(GENERATED, "-v1.yml");

        assertThat(names(COMMITTED, ".yaml"))
                .as("CRD files in " + COMMITTED)
                .isEqualTo(generated)
                .hasSize(6);
        for (String name : generated) {
            assertThat(Files.readString(COMMITTED.resolve(name + ".yaml")))
                    .as(name + ".yaml is stale; rebuild the api module and commit config/crd/bases")
                    .isEqualTo(Files.readString(GENERATED.resolve(name + "-v1.yml")));
        }
    }

    private static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.endsWith(suffix))
                    .map(f -> f.substring(0, f.length() - suffix.length()))
                    .sorted()
                    .toList();
        }
    }
}
