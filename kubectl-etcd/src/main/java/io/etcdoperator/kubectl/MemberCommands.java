package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** The membership commands: list, add (a learner by default), promote, remove, leave, and hand leadership over. */
final class MemberCommands {

    private MemberCommands() {}

    @Command(name = "members", description = "List the cluster's members as the pod's member sees them.")
    static final class Members implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Mixin
        OutputFormat output;

        @Override
        public Integer call() {
            return root.run("members", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                Membership membership = session.etcd().members();
                root.out().print(output.render(() -> table(membership), document(membership)));
                return 0;
            });
        }
    }

    static String table(Membership membership) {
        Table table = new Table("ID", "NAME", "STATUS", "PEER URLS", "CLIENT URLS", "LEARNER");
        for (Member m : membership.members()) {
            table.row(
                    m.id(),
                    m.started() ? m.name() : "-",
                    m.started() ? "started" : "unstarted",
                    urls(m.peerUrls()),
                    urls(m.clientUrls()),
                    m.learner());
        }
        return table.render();
    }

    static Map<String, Object> document(Membership membership) {
        List<Map<String, Object>> members = membership.members().stream()
                .map(m -> {
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("id", m.id().hex());
                    doc.put("name", m.name());
                    doc.put("started", m.started());
                    doc.put("peerURLs", m.peerUrls().stream().map(URI::toString).toList());
                    doc.put(
                            "clientURLs",
                            m.clientUrls().stream().map(URI::toString).toList());
                    doc.put("isLearner", m.learner());
                    return doc;
                })
                .toList();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("clusterId", membership.clusterId().hex());
        doc.put("members", members);
        return doc;
    }

    private static String urls(List<URI> urls) {
        return urls.isEmpty() ? "-" : urls.stream().map(URI::toString).collect(Collectors.joining(","));
    }

    @Command(
            name = "add-member",
            description = "Add a member with this peer URL: a learner (the safe default: it "
                    + "does not count for quorum until promoted), or a voter with --voter.")
    static final class AddMember implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Parameters(index = "0", paramLabel = "PEER_URL", description = "e.g. https://etcd-3.etcd.ns.svc:2380")
        URI peerUrl;

        @Option(names = "--voter", description = "Add a voting member right away (the quorum grows before it starts).")
        boolean voter;

        @Override
        public Integer call() {
            if (peerUrl.getScheme() == null || peerUrl.getHost() == null || peerUrl.getPort() < 0) {
                throw new PluginException("PEER_URL must look like https://HOST:2380, not " + peerUrl);
            }
            return root.run("add-member", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                EtcdAdmin etcd = session.etcd();
                Membership after = voter ? etcd.addVoter(peerUrl) : etcd.addLearner(peerUrl);
                Member added = after.byPeerUrl(peerUrl)
                        .orElseThrow(
                                () -> new PluginException("etcd accepted the member but does not list " + peerUrl));
                root.out().printf("added %s %s with peer URL %s%n", voter ? "voter" : "learner", added.id(), peerUrl);
                root.out()
                        .printf(
                                "start it with --initial-cluster-state=existing%s%n",
                                voter
                                        ? ""
                                        : ", then promote it once it has caught up: kubectl etcd promote " + added.id()
                                                + " -p " + root.pod);
                return 0;
            });
        }
    }

    @Command(name = "promote", description = "Promote a learner (hex ID) to a voter once it has caught up.")
    static final class Promote implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Parameters(index = "0", paramLabel = "MEMBER_ID", description = "hex member ID, as `members` shows it")
        String id;

        @Override
        public Integer call() {
            MemberId member = memberId(id);
            return root.run("promote", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                session.etcd().promote(member);
                root.out().printf("promoted member %s to a voter%n", member);
                return 0;
            });
        }
    }

    @Command(name = "remove-member", description = "Remove a member by hex ID.")
    static final class RemoveMember implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Parameters(index = "0", paramLabel = "MEMBER_ID", description = "hex member ID, as `members` shows it")
        String id;

        @Override
        public Integer call() {
            MemberId member = memberId(id);
            return root.run("remove-member", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                remove(session, member);
                root.out().printf("removed member %s%n", member);
                return 0;
            });
        }
    }

    @Command(name = "leave", description = "Remove the pod's own member from the cluster.")
    static final class Leave implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Override
        public Integer call() {
            return root.run("leave", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                Member self = session.etcd()
                        .members()
                        .byName(session.podName())
                        .orElseThrow(() -> new PluginException("pod " + session.podName()
                                + " is not a member of its cluster (no member of that name)"));
                remove(session, self.id());
                root.out().printf("member %s (%s) left the cluster%n", self.name(), self.id());
                return 0;
            });
        }
    }

    /**
     * MemberRemove, sent through another started voter when it removes the member we are connected to: that member
     * stops serving as soon as it applies its own removal, and the answer could be lost with it.
     */
    static void remove(MemberSession session, MemberId member) {
        Membership membership = session.etcd().members();
        boolean self = membership
                .byName(session.podName())
                .map(m -> m.id().equals(member))
                .orElse(false);
        if (membership.byId(member).isEmpty()) {
            throw new PluginException("no member with ID " + member + " (see `kubectl etcd members`)");
        }
        if (!self) {
            session.etcd().remove(member);
            return;
        }
        Member relay = membership.voters().stream()
                .filter(m -> m.started() && !m.id().equals(member))
                .filter(m -> session.sibling(m.name()).isPresent())
                .findFirst()
                .orElseThrow(() -> new PluginException("no other running voter to remove " + member + " through"));
        URI through = session.sibling(relay.name()).orElseThrow();
        try (EtcdAdmin other = JetcdEtcdAdmin.open(session.connectionTo(through))) {
            other.remove(member);
        }
    }

    @Command(name = "forfeit-leadership", description = "If the pod's member leads, hand leadership to another voter.")
    static final class ForfeitLeadership implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Option(
                names = "--to",
                paramLabel = "MEMBER",
                description = "the member name or hex ID to lead next " + "(default: the first started voter)")
        String to;

        @Override
        public Integer call() {
            return root.run("forfeit-leadership", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                EndpointStatus status = session.etcd().status(session.endpoint());
                if (!status.isLeader()) {
                    root.out()
                            .printf(
                                    "%s is not the leader (member %s leads); nothing to do%n",
                                    session.podName(), status.leader());
                    return 0;
                }
                Member target = transferee(session.etcd().members(), status.memberId(), to);
                session.etcd().moveLeader(session.endpoint(), target.id());
                root.out()
                        .printf("leadership moved from %s to %s (%s)%n", session.podName(), target.name(), target.id());
                return 0;
            });
        }
    }

    /** The next leader: the named one, else the first started voter other than the current leader. */
    static Member transferee(Membership membership, MemberId leader, String wanted) {
        List<Member> candidates = membership.voters().stream()
                .filter(m -> m.started() && !m.id().equals(leader))
                .toList();
        if (wanted == null) {
            return candidates.stream()
                    .findFirst()
                    .orElseThrow(() -> new PluginException("no other started voter to take the leadership"));
        }
        Optional<Member> named = candidates.stream()
                .filter(m -> m.name().equals(wanted) || m.id().hex().equals(wanted.toLowerCase(Locale.ROOT)))
                .findFirst();
        return named.orElseThrow(() -> new PluginException(wanted + " is not a started voter other than the leader"));
    }

    static MemberId memberId(String hex) {
        try {
            return MemberId.parse(hex.strip());
        } catch (NumberFormatException e) {
            throw new PluginException("member ID must be hex as `members` prints it, not " + hex);
        }
    }
}
