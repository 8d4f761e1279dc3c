package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.reason.RestartReason;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pass that takes a step which stops a member's etcd reports that member not ready (ClusterReconcile). */
class StepStopsTest {

    @Test
    void stepsThatDeleteAPodOrRestartEtcdNameTheMember() {
        assertThat(new Step.RestartMember("m-1", RestartReason.VERSION_CHANGED).stops())
                .contains("m-1");
        assertThat(new QuorumLossSteps.ForceNewCluster("m-1", false).stops()).contains("m-1");
        assertThat(new Step.Pause("m-1").stops()).as("parked: its Pod goes").contains("m-1");
        assertThat(new QuorumLossSteps.ForceNewCluster("m-1", true).stops())
                .as("etcd-guard restarts etcd in the Pod")
                .contains("m-1");
        assertThat(new QuorumLossSteps.EndForceNewCluster("m-1", false).stops())
                .as("the survivor's Pod is deleted")
                .contains("m-1");
    }

    @Test
    void stepsThatLeaveEtcdRunningNameNoMember() {
        assertThat(new QuorumLossSteps.EndForceNewCluster("m-1", true).stops())
                .as("in place, only the annotation goes")
                .isEmpty();
        assertThat(new QuorumLossSteps.DiscardMembers(List.of("m-2", "m-3"), "m-1").stops())
                .isEmpty();
        assertThat(new Step.CreateMember().stops()).isEmpty();
        assertThat(new Step.Wake("m-1").stops()).isEmpty();
    }
}
