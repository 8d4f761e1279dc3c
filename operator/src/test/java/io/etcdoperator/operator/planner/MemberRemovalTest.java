package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.MemberRemoval.EtcdAnswer;
import io.etcdoperator.operator.planner.MemberRemoval.Facts;
import io.etcdoperator.operator.planner.MemberRemoval.Peers;
import io.etcdoperator.operator.planner.MemberRemoval.RemovalStep;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The finalizer's table: MemberRemove only for the entry etcd lists, release only with nothing left to remove from. */
class MemberRemovalTest {

    private static final URI PEER = URI.create("https://demo-a.demo.default.svc:2380");
    private static final MemberId ID = MemberId.parse("00000000000000aa");

    /** A live cluster with another voter to dial, and no id recorded for the member. */
    private static Facts live() {
        return cluster(Optional.empty(), false, false).withPeers(new Peers(true, true));
    }

    private static Facts cluster(Optional<MemberId> recorded, boolean deleting, boolean externalVoting) {
        return new Facts("demo-a", recorded, PEER, true, deleting, externalVoting, false, Optional.empty());
    }

    private static Facts with(
            Facts f, boolean clusterDeleting, boolean externalVoting, boolean dialable, boolean others) {
        return new Facts(
                        f.member(),
                        f.recordedId(),
                        f.peerUrl(),
                        f.clusterPresent(),
                        clusterDeleting,
                        externalVoting,
                        f.resetAsked(),
                        Optional.empty())
                .withPeers(new Peers(dialable, others));
    }

    private static EtcdAnswer listing(Member... members) {
        return new EtcdAnswer.Listed(new Membership(ClusterId.parse("00000000000000c1"), List.of(members)));
    }

    private static Member entry(String id, String name, URI peer) {
        return new Member(MemberId.parse(id), name, List.of(peer), List.of(), false);
    }

    @Test
    void aClusterGoneOrBeingDeletedReleasesWithoutReadingItsMembersOrAskingEtcd() {
        Facts gone = new Facts("demo-a", Optional.empty(), PEER, false, false, false, false, Optional.empty());
        assertThat(MemberRemoval.next(gone)).isInstanceOf(RemovalStep.Release.class);
        assertThat(MemberRemoval.next(cluster(Optional.empty(), true, false)))
                .isEqualTo(new RemovalStep.Release("cluster is being deleted; MemberRemove skipped"));
        assertThat(MemberRemoval.next(cluster(Optional.empty(), false, false)))
                .as("a live cluster: its members decide next")
                .isEqualTo(new RemovalStep.ReadMembers());
        assertThat(MemberRemoval.next(cluster(Optional.empty(), true, true))).isEqualTo(new RemovalStep.ReadMembers());
        assertThat(MemberRemoval.next(with(live(), true, false, true, true)))
                .isEqualTo(new RemovalStep.Release("cluster is being deleted; MemberRemove skipped"));
        assertThat(MemberRemoval.next(with(live(), true, true, true, true)))
                .as("an adopted etcd's own members outlive the cluster: the member still leaves their etcd")
                .isEqualTo(new RemovalStep.AskEtcd());
    }

    @Test
    void aClusterResetToEmptyHasNoEtcdToRemoveFrom() {
        Facts reset = new Facts("demo-a", Optional.empty(), PEER, true, false, false, true, Optional.empty());
        assertThat(MemberRemoval.next(reset)).isInstanceOf(RemovalStep.Release.class);
    }

    @Test
    void withNoVoterToDialTheFinalizerWaitsUnlessThisIsTheLastMember() {
        assertThat(MemberRemoval.next(with(live(), false, false, false, true)))
                .isEqualTo(new RemovalStep.Hold("no reachable voter to remove this member through"));
        assertThat(MemberRemoval.next(with(live(), false, false, false, false)))
                .isEqualTo(new RemovalStep.Release("last member; nothing to remove it from"));
    }

    @Test
    void etcdsAnswerDecides() {
        assertThat(MemberRemoval.next(live(), listing(entry("00000000000000aa", "demo-a", PEER))))
                .isEqualTo(new RemovalStep.RemoveFromEtcd(ID));
        assertThat(MemberRemoval.next(live(), listing(entry("00000000000000aa", "", PEER))))
                .as("a learner that never started has no name yet: found by its peer URL")
                .isEqualTo(new RemovalStep.RemoveFromEtcd(ID));
        assertThat(MemberRemoval.next(
                        live(), listing(entry("00000000000000bb", "demo-b", URI.create("https://b:2380")))))
                .isEqualTo(new RemovalStep.Release("not in etcd's member list"));
        assertThat(MemberRemoval.next(live(), new EtcdAnswer.Unreachable("deadline exceeded")))
                .as("a voter that does not answer may still list the member")
                .isEqualTo(new RemovalStep.Hold("deadline exceeded"));
    }

    @Test
    void aRecordedIdNamesTheEntryAndNothingElseDoes() {
        Facts recorded = cluster(Optional.of(ID), false, false).withPeers(new Peers(true, true));
        assertThat(MemberRemoval.next(
                        recorded, listing(entry("00000000000000aa", "renamed", URI.create("https://x:2380")))))
                .isEqualTo(new RemovalStep.RemoveFromEtcd(ID));
        assertThat(MemberRemoval.next(recorded, listing(entry("00000000000000cc", "demo-a", PEER))))
                .as("another entry under the same name is another member (this one was removed and replaced)")
                .isEqualTo(new RemovalStep.Release("not in etcd's member list"));
    }

    @Test
    void aDecisionBeforeEtcdIsKeptWhateverEtcdSays() {
        Facts last = with(live(), false, false, false, false);
        assertThat(MemberRemoval.next(last, listing(entry("00000000000000aa", "demo-a", PEER))))
                .isEqualTo(new RemovalStep.Release("last member; nothing to remove it from"));
    }
}
