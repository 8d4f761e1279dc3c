package io.etcdoperator.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterDomainTest {

    private static final String KUBELET_RESOLV_CONF = """
      search ns.svc.cozy.local svc.cozy.local cozy.local
      nameserver 10.96.0.10
      options ndots:5
      """;

    @TempDir
    Path dir;

    private Path resolvConf(String content) throws IOException {
        return Files.writeString(dir.resolve("resolv.conf"), content);
    }

    @Test
    void domainComesFromTheSvcSearchEntry() throws IOException {
        assertThat(ClusterDomain.resolve(Optional.empty(), resolvConf(KUBELET_RESOLV_CONF)))
                .isEqualTo("cozy.local");
    }

    @Test
    void missingFileFallsBack() {
        assertThat(ClusterDomain.resolve(Optional.empty(), dir.resolve("absent")))
                .isEqualTo("cluster.local");
    }

    @Test
    void flagWins() throws IOException {
        assertThat(ClusterDomain.resolve(Optional.of("corp.example"), resolvConf(KUBELET_RESOLV_CONF)))
                .isEqualTo("corp.example");
    }

    @Test
    void blankFlagCountsAsUnset() throws IOException {
        assertThat(ClusterDomain.resolve(Optional.of(" "), resolvConf(KUBELET_RESOLV_CONF)))
                .isEqualTo("cozy.local");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "'nameserver 10.96.0.10'                              | cluster.local",
                "'search example.test corp.example'                   | cluster.local",
                "''                                                   | cluster.local",
                "'search   svc.k8s.example   '                        | k8s.example",
                "'  search ns.svc.a.b svc.a.b a.b'                    | a.b",
                "'domain svc.wrong.example'                           | cluster.local",
                "'# search svc.commented.example'                     | cluster.local"
            })
    void resolvConfVariants(String content, String domain) throws IOException {
        assertThat(ClusterDomain.resolve(Optional.empty(), resolvConf(content + "\n")))
                .isEqualTo(domain);
    }

    @Test
    void searchSeparatedByATab() throws IOException {
        assertThat(ClusterDomain.resolve(Optional.empty(), resolvConf("search\tsvc.cozy.local cozy.local\n")))
                .isEqualTo("cozy.local");
    }
}
