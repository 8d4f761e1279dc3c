package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.MemberTls;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EtcdCommandLineTest {

    @ParameterizedTest
    @ValueSource(strings = {"default.etcd", "member_1-a", "A", "0", "data.v2"})
    void validSubPathBecomesTheDataDir(String subPath) {
        assertThat(EtcdCommandLine.dataDir(member(subPath))).isEqualTo("/var/lib/etcd/" + subPath);
    }

    /** A hostile or mistyped annotation must never point etcd outside its volume or at a surprising place. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " ",
                "..",
                "../etc",
                "a/../b",
                "a/b",
                "/abs",
                "a..b",
                ".hidden",
                "-flag",
                "_x",
                "a b",
                "a\nb",
                "dir/",
                "é",
                "a;rm",
                "a$b",
                "~",
                "a\\b",
                "default.etcd "
            })
    void suspiciousSubPathFallsBackToTheVolumeRoot(String subPath) {
        assertThat(EtcdCommandLine.dataDir(member(subPath))).isEqualTo("/var/lib/etcd");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.4.23", "3.5.16", "3.5.30", "3.5.33"})
    void upTo35TheExperimentalSpellingsAreRendered(String version) {
        assertThat(EtcdCommandLine.versioned(version))
                .containsExactly(
                        "--experimental-watch-progress-notify-interval=5s",
                        "--experimental-initial-corrupt-check=true");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.6.0", "3.6.14", "3.7.1"})
    void from36TheRenamedFlagAndTheFeatureGateAreRendered(String version) {
        assertThat(EtcdCommandLine.versioned(version))
                .containsExactly("--watch-progress-notify-interval=5s", "--feature-gates=InitialCorruptCheck=true")
                .noneMatch(flag -> flag.startsWith("--experimental-"));
    }

    /** A survivor killed without a clean stop may have applied entries its WAL does not count as committed. */
    @Test
    void forceNewClusterMakesJoinersCopyTheSurvivorsDatabaseWhereEtcdCan() {
        assertThat(EtcdCommandLine.forceNewCluster("3.5.16"))
                .containsExactly(
                        "--force-new-cluster", "--snapshot-count=1", "--experimental-snapshot-catchup-entries=1");
        assertThat(EtcdCommandLine.forceNewCluster("3.6.4"))
                .containsExactly("--force-new-cluster", "--snapshot-count=1", "--snapshot-catchup-entries=1");
        assertThat(EtcdCommandLine.forceNewCluster("3.5.13")).containsExactly("--force-new-cluster");
        assertThat(EtcdCommandLine.forceNewCluster("3.4.23")).containsExactly("--force-new-cluster");
    }

    @Test
    void noAnnotationsMeansTheVolumeRoot() {
        EtcdMember member = member(null);
        member.getMetadata().setAnnotations(null);
        assertThat(EtcdCommandLine.dataDir(member)).isEqualTo("/var/lib/etcd");
    }

    @Test
    void clientTlsWithoutMtlsDoesNotAskForClientCertificates() {
        EtcdMember member = member(null);
        MemberTls tls = new MemberTls();
        tls.setClientServerSecretRef(new LocalObjectReference("srv"));
        member.getSpec().setTls(tls);
        List<String> args = EtcdCommandLine.args(member, true);
        assertThat(args)
                .contains(
                        "--cert-file=/etc/etcd/tls/client/tls.crt",
                        "--key-file=/etc/etcd/tls/client/tls.key",
                        "--listen-client-urls=https://0.0.0.0:2379",
                        "--listen-peer-urls=http://0.0.0.0:2380")
                .noneMatch(a -> a.startsWith("--client-cert-auth")
                        || a.startsWith("--trusted-ca-file")
                        || a.startsWith("--peer-"));
    }

    @Test
    void peerSecretTakesPrecedenceOverAutoTls() {
        EtcdMember member = member(null);
        MemberTls tls = new MemberTls();
        tls.setPeerSecretRef(new LocalObjectReference("peer"));
        tls.setPeerAutoTLS(true);
        member.getSpec().setTls(tls);
        assertThat(EtcdCommandLine.args(member, true))
                .contains("--peer-client-cert-auth=true")
                .doesNotContain("--peer-auto-tls");
    }

    @Test
    void metricsListenerIsPlaintextEvenWithTls() {
        EtcdMember member = member(null);
        MemberTls tls = new MemberTls();
        tls.setClientServerSecretRef(new LocalObjectReference("srv"));
        tls.setClientMTLS(true);
        tls.setPeerSecretRef(new LocalObjectReference("peer"));
        member.getSpec().setTls(tls);
        assertThat(EtcdCommandLine.args(member, false)).contains("--listen-metrics-urls=http://0.0.0.0:2381");
    }

    static EtcdMember member(String subPath) {
        EtcdMember member = new EtcdMember();
        var meta = new ObjectMetaBuilder().withName("demo-a").withNamespace("prod");
        if (subPath != null) {
            meta.withAnnotations(Map.of(EtcdOperatorApi.ANNOTATION_DATA_DIR_SUBPATH, subPath));
        }
        member.setMetadata(meta.build());
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        spec.setInitialCluster("demo-a=http://demo-a.demo.prod.svc:2380");
        spec.setClusterToken("prod-demo-uid");
        member.setSpec(spec);
        return member;
    }
}
