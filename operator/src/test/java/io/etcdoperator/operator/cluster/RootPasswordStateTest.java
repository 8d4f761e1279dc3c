package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.operator.planner.ObservedCluster.RootPassword;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RootPasswordStateTest {

    private static RootPasswords.View view(String wanted, String applied) {
        return new RootPasswords.View(Optional.ofNullable(wanted), Optional.ofNullable(applied), Optional.empty());
    }

    @Test
    void theUsersPasswordAgainstTheOperatorsCopy() {
        assertThat(RootPasswordState.of(view("a", "a"))).isEqualTo(RootPassword.IN_STEP);
        assertThat(RootPasswordState.of(view("b", "a"))).isEqualTo(RootPassword.CHANGED);
        assertThat(RootPasswordState.of(view("a", null))).isEqualTo(RootPassword.UNRECORDED);
        assertThat(RootPasswordState.of(view(null, "a")))
                .as("the user's Secret is being fixed")
                .isEqualTo(RootPassword.IN_STEP);
    }

    @Test
    void aViewNeverPrintsAPassword() {
        assertThat(new RootPasswords.View(Optional.of("s3cret"), Optional.of("0ld"), Optional.of("n3xt")).toString())
                .doesNotContain("s3cret")
                .doesNotContain("0ld")
                .doesNotContain("n3xt");
    }
}
