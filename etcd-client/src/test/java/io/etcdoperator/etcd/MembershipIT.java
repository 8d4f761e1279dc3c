package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Member list, learner add/start/promote, promote refusal and remove, against each supported etcd release. */
class MembershipIT {

    private static final Duration PROMOTE_WITHIN = Duration.ofSeconds(30);

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void listsTheOnlyMemberOfANewCluster(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = adminOf(first)) {
                Membership membership = admin.members();

                assertThat(membership.clusterId().value()).isNotZero();
                assertThat(membership.members()).singleElement().satisfies(m -> {
                    assertThat(m.name()).isEqualTo("m1");
                    assertThat(m.peerUrls()).containsExactly(first.peerUrl());
                    assertThat(m.clientUrls()).containsExactly(first.clientUrl());
                    assertThat(m.learner()).isFalse();
                    assertThat(m.started()).isTrue();
                    assertThat(m.id()).isEqualTo(admin.status(first.clientUrl()).memberId());
                });
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void addedLearnerStartsJoinsAsLearnerAndIsPromotedToVoter(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = adminOf(first)) {
                LocalEtcd.Peer peer = etcd.reserve("m2");
                Membership afterAdd = admin.addLearner(peer.peerUrl());
                Member added = afterAdd.byPeerUrl(peer.peerUrl()).orElseThrow();
                assertThat(added.learner()).isTrue();
                assertThat(added.started()).isFalse();
                assertThat(afterAdd.clusterId()).isEqualTo(admin.members().clusterId());

                etcd.startJoining(peer, afterAdd);
                Member joined = admin.members().byId(added.id()).orElseThrow();
                assertThat(joined.name()).isEqualTo("m2");
                assertThat(joined.learner()).isTrue();
                assertThat(joined.clientUrls()).containsExactly(peer.clientUrl());

                int attempts = MembershipChanges.promote(admin, added.id(), PROMOTE_WITHIN);
                System.out.printf("%s: learner promoted after %d attempt(s)%n", version, attempts);

                Membership promoted = admin.members();
                assertThat(promoted.byId(added.id()).orElseThrow().learner()).isFalse();
                assertThat(promoted.voters()).hasSize(2);
                assertThat(promoted.learners()).isEmpty();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void promoteIsRefusedWhileTheLearnerProcessHasNotStarted(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = adminOf(first)) {
                LocalEtcd.Peer peer = etcd.reserve("m2");
                MemberId learner = admin.addLearner(peer.peerUrl())
                        .byPeerUrl(peer.peerUrl())
                        .orElseThrow()
                        .id();

                assertThatThrownBy(() -> admin.promote(learner))
                        .isInstanceOf(EtcdException.LearnerNotReady.class)
                        .hasMessageContaining(learner.hex());
                assertThat(admin.members().byId(learner).orElseThrow().learner())
                        .isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void removedMemberShutsItselfDownAndAnUnknownIdIsNotFound(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = adminOf(first)) {
                LocalEtcd.Peer peer = etcd.reserve("m2");
                Membership afterAdd = admin.addLearner(peer.peerUrl());
                MemberId second =
                        afterAdd.byPeerUrl(peer.peerUrl()).orElseThrow().id();
                EtcdProcess secondProcess = etcd.startJoining(peer, afterAdd);
                MembershipChanges.promote(admin, second, PROMOTE_WITHIN);

                int attempts = MembershipChanges.remove(admin, second, Duration.ofSeconds(30));
                System.out.printf("%s: voter removed after %d attempt(s)%n", version, attempts);

                assertThat(secondProcess.awaitExit(Duration.ofSeconds(20)))
                        .as("removed member exits")
                        .isTrue();
                assertThat(admin.members().members()).extracting(Member::id).doesNotContain(second);
                assertThatThrownBy(() -> admin.remove(second)).isInstanceOf(EtcdException.MemberNotFound.class);
                assertThatThrownBy(() -> admin.promote(second)).isInstanceOf(EtcdException.MemberNotFound.class);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(EtcdVersion.class)
    void statusOfALearnerAndOfTheLeader(EtcdVersion version) {
        try (LocalEtcd etcd = new LocalEtcd(version)) {
            EtcdProcess first = etcd.startFirst("m1");
            try (EtcdAdmin admin = adminOf(first)) {
                LocalEtcd.Peer peer = etcd.reserve("m2");
                Membership afterAdd = admin.addLearner(peer.peerUrl());
                MemberId learnerId =
                        afterAdd.byPeerUrl(peer.peerUrl()).orElseThrow().id();
                etcd.startJoining(peer, afterAdd);
                MemberId leaderId = admin.members().byName("m1").orElseThrow().id();

                EndpointStatus voter = admin.status(first.clientUrl());
                EndpointStatus learner = admin.status(peer.clientUrl());

                assertThat(voter.version()).isEqualTo(version.release());
                assertThat(voter.memberId()).isEqualTo(leaderId);
                assertThat(voter.isLeader()).isTrue();
                assertThat(voter.learner()).isFalse();
                assertThat(voter.raftIndex()).isPositive();
                assertThat(voter.raftAppliedIndex()).isPositive();
                assertThat(voter.raftTerm()).isPositive();
                assertThat(voter.dbSize()).isPositive();
                assertThat(voter.errors()).isEmpty();

                assertThat(learner.version()).isEqualTo(version.release());
                assertThat(learner.memberId()).isEqualTo(learnerId);
                assertThat(learner.leader()).isEqualTo(leaderId);
                assertThat(learner.isLeader()).isFalse();
                assertThat(learner.learner()).isTrue();
                assertThat(learner.raftIndex()).isPositive();
            }
        }
    }

    static EtcdAdmin adminOf(EtcdProcess... voters) {
        return JetcdEtcdAdmin.FACTORY.open(EtcdConnection.plaintext(
                Arrays.stream(voters).map(EtcdProcess::clientUrl).toList()));
    }

    static EtcdAdmin adminOf(List<EtcdProcess> voters) {
        return adminOf(voters.toArray(EtcdProcess[]::new));
    }
}
