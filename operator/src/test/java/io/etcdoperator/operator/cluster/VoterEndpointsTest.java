package io.etcdoperator.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdMemberStatus;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who the operator dials: voters with a Pod; the seed even when a crash inside CreateSeed left isVoter unwritten. */
class VoterEndpointsTest {

    private static EtcdMember member(String name, boolean seed, Boolean voter) {
        EtcdMember m = new EtcdMember();
        m.getMetadata().setName(name);
        m.getMetadata().setNamespace("default");
        EtcdMemberSpec spec = new EtcdMemberSpec();
        spec.setClusterName("demo");
        spec.setBootstrap(seed);
        m.setSpec(spec);
        EtcdMemberStatus status = new EtcdMemberStatus();
        status.setPodName(name);
        status.setIsVoter(voter);
        m.setStatus(status);
        return m;
    }

    @Test
    void theSeedIsDialledWithoutItsVoterMarkAndALearnerIsNot() {
        var urls = VoterEndpoints.of(
                List.of(
                        member("demo-seed1", true, null),
                        member("demo-lrn01", false, false),
                        member("demo-vot01", false, true)),
                Set.of("demo-seed1", "demo-lrn01", "demo-vot01"),
                true);
        assertThat(urls).extracting(u -> u.getHost().split("\\.")[0]).containsExactly("demo-seed1", "demo-vot01");
    }

    @Test
    void aVoterWhosePodThePassDidNotSeeIsLeftOutWhileAnotherIsThere() {
        List<EtcdMember> members = List.of(
                member("demo-seed1", true, true), member("demo-vot01", false, true), member("demo-vot02", false, true));

        var urls = VoterEndpoints.of(members, Set.of("demo-seed1", "demo-vot02"), true);

        assertThat(urls).extracting(u -> u.getHost().split("\\.")[0]).containsExactly("demo-seed1", "demo-vot02");
    }

    @Test
    void withNoVotersPodSeenEveryVoterIsDialledSoThePassSaysWhyNoneAnswers() {
        List<EtcdMember> members = List.of(member("demo-seed1", true, true), member("demo-vot01", false, true));

        var urls = VoterEndpoints.of(members, Set.of("demo-lrn01"), true);

        assertThat(urls).extracting(u -> u.getHost().split("\\.")[0]).containsExactly("demo-seed1", "demo-vot01");
    }
}
