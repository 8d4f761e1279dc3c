package io.etcdoperator.operator.member;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.MockCrds;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The member's report writes what the observer found out from etcd; it asks etcd nothing itself. */
@EnableKubernetesMockClient(crud = true)
class MemberReportMockTest {

    static KubernetesClient client;
    private static final String NS = "default";
    private MemberReport report;

    @BeforeEach
    void setUp() {
        MockCrds.install(client);
        Clock clock = Clock.systemUTC();
        report = new MemberReport(client, new EventRecorder(client, "test", clock), clock);
    }

    private EtcdMember member(String name) {
        EtcdMember member = new EtcdMember();
        member.getMetadata().setName(name);
        member.getMetadata().setNamespace(NS);
        member.getMetadata().setLabels(Map.of(EtcdOperatorApi.LABEL_CLUSTER, "demo"));
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        spec.setVersion("3.5.16");
        spec.setInitialCluster(name + "=http://" + name + ".demo.default.svc:2380");
        member.setSpec(spec);
        return client.resource(member).create();
    }

    private static Pod readyPod(String name) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid("uid-" + name)
                .endMetadata()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    private EtcdMember read(String name) {
        return client.resources(EtcdMember.class).inNamespace(NS).withName(name).get();
    }

    private static Condition ready(EtcdMember m) {
        return Conditions.find(m.getStatus().getConditions(), Conditions.READY).orElseThrow();
    }

    @Test
    void aFoundEntryRecordsTheIdAndTheVersionAndTheMemberIsReady() {
        EtcdMember m = member("demo-a");
        report.report(
                m,
                readyPod("demo-a"),
                Optional.empty(),
                Optional.of(new MemberIdentity.Found("8e9e05c52164694d", Optional.of("3.5.16"))));
        EtcdMember after = read("demo-a");
        assertThat(after.getStatus().getMemberID()).isEqualTo("8e9e05c52164694d");
        assertThat(after.getStatus().getVersion()).isEqualTo("3.5.16");
        assertThat(ready(after).getStatus()).isEqualTo("True");
    }

    @Test
    void anEntryNotFoundYetSaysWhyAndTheMemberIsNotReady() {
        EtcdMember m = member("demo-b");
        report.report(
                m,
                readyPod("demo-b"),
                Optional.empty(),
                Optional.of(new MemberIdentity.NotYet("not in etcd's member list yet")));
        EtcdMember after = read("demo-b");
        assertThat(after.getStatus().getMemberID()).isNull();
        assertThat(ready(after).getStatus()).isEqualTo("False");
        assertThat(ready(after).getReason()).isEqualTo("DiscoveringMemberID");
        assertThat(ready(after).getMessage()).isEqualTo("waiting for memberID: not in etcd's member list yet");
    }
}
