package io.etcdoperator.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The project's CRDs (config/crd/bases) installed on the fabric8 CRUD mock, so typed clients resolve the kinds. */
public final class MockCrds {

    private MockCrds() {}

    public static void install(KubernetesClient client) {
        try (Stream<Path> crds = Files.list(Path.of("..", "config", "crd", "bases"))) {
            for (Path crd : crds.toList()) {
                try (var in = new FileInputStream(crd.toFile())) {
                    client.load(in).createOrReplace();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
