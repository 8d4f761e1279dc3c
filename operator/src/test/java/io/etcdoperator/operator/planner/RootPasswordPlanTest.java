package io.etcdoperator.operator.planner;

import static io.etcdoperator.operator.planner.Observations.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.ObservedCluster.RootPassword;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Root's password follows the user's Secret once auth latched: recorded, changed in etcd, a cut-short change finished. */
class RootPasswordPlanTest {

    private final ClusterPlanner planner = new ClusterPlanner();

    private static Observations healthy(boolean latched, RootPassword password) {
        return cluster()
                .voter("a")
                .voter("b")
                .voter("c")
                .leader("a")
                .auth(new ObservedCluster.AuthView(true, latched, Optional.empty(), password));
    }

    @Test
    void eachStateOfThePasswordIsOneStep() {
        assertThat(planner.next(healthy(true, RootPassword.UNRECORDED).build(), 3))
                .isEqualTo(new Step.RecordRootPassword());
        assertThat(planner.next(healthy(true, RootPassword.CHANGED).build(), 3))
                .isEqualTo(new Step.RotateRootPassword());
        assertThat(planner.next(healthy(true, RootPassword.ETCD_HAS_NEXT).build(), 3))
                .isEqualTo(new Step.FinishRootPasswordChange(RootPassword.ETCD_HAS_NEXT));
        assertThat(planner.next(healthy(true, RootPassword.IN_STEP).build(), 3)).isInstanceOf(Step.Converged.class);
    }

    @Test
    void nothingBeforeAuthLatched() {
        assertThat(planner.next(healthy(false, RootPassword.CHANGED).build(), 3))
                .isInstanceOf(Step.EnableAuth.class);
    }
}
