package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuorumTest {

    @ParameterizedTest
    @CsvSource({"0,0", "1,1", "2,2", "3,2", "4,3", "5,3", "7,4"})
    void majority(int voters, int majority) {
        assertThat(Quorum.majorityOf(voters)).isEqualTo(majority);
    }

    @ParameterizedTest
    @CsvSource({"1,3,2", "3,3,2", "4,3,3", "5,3,3", "0,0,0", "3,7,4"})
    void pdbMinAvailableCoversTheLargerOfVotersAndTarget(int voters, int target, int minAvailable) {
        assertThat(Quorum.minAvailable(voters, target)).isEqualTo(minAvailable);
    }

    @ParameterizedTest
    @CsvSource({"2,3,true", "1,3,false", "0,0,false", "3,5,true", "2,4,false"})
    void holds(int healthy, int voters, boolean holds) {
        assertThat(Quorum.holds(healthy, voters)).isEqualTo(holds);
    }
}
