package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.Compaction;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.etcd.Member;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** Status of one member or all of them, and the maintenance calls: defragment, compact, snapshot. */
final class MaintenanceCommands {

    static final Duration DEFRAG_TIMEOUT = Duration.ofMinutes(2);
    static final Duration SNAPSHOT_TIMEOUT = Duration.ofMinutes(5);
    /** Per member in `endpoints`, so one unreachable member does not use up the whole command's time. */
    static final Duration ENDPOINT_TIMEOUT = Duration.ofSeconds(5);

    private MaintenanceCommands() {}

    @Command(name = "status", description = "Maintenance status of the pod's member: size, leader, raft indexes.")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Mixin
        OutputFormat output;

        @Override
        public Integer call() {
            return root.run("status", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                EndpointStatus s = session.etcd().status(session.endpoint());
                root.out()
                        .print(output.render(
                                () -> statusTable(session.podName(), s), statusDocument(session.podName(), s)));
                return 0;
            });
        }
    }

    static String statusTable(String pod, EndpointStatus s) {
        return new Table(
                        "MEMBER",
                        "ID",
                        "VERSION",
                        "DB SIZE",
                        "IN USE",
                        "LEADER",
                        "RAFT TERM",
                        "RAFT INDEX",
                        "APPLIED INDEX",
                        "LEARNER",
                        "ERRORS")
                .row(
                        pod,
                        s.memberId(),
                        s.version(),
                        Table.bytes(s.dbSize()),
                        inUse(s),
                        s.isLeader(),
                        s.raftTerm(),
                        s.raftIndex(),
                        s.raftAppliedIndex(),
                        s.learner(),
                        errors(s))
                .render();
    }

    static Map<String, Object> statusDocument(String pod, EndpointStatus s) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("member", pod);
        doc.putAll(statusFields(s));
        return doc;
    }

    /** Raw numbers, hex member IDs as the tables show them (etcdctl's decimal uint64 IDs overflow JSON numbers). */
    static Map<String, Object> statusFields(EndpointStatus s) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", s.memberId().hex());
        doc.put("version", s.version());
        doc.put("dbSize", s.dbSize());
        doc.put("dbSizeInUse", s.dbSizeInUse());
        doc.put("leader", s.leader().hex());
        doc.put("isLeader", s.isLeader());
        doc.put("raftTerm", s.raftTerm());
        doc.put("raftIndex", s.raftIndex());
        doc.put("raftAppliedIndex", s.raftAppliedIndex());
        doc.put("revision", s.revision());
        doc.put("isLearner", s.learner());
        doc.put("errors", s.errors());
        return doc;
    }

    @Command(
            name = "endpoints",
            description = "Health and status of every member, each through its own pod; "
                    + "exits 1 if any member is not healthy.")
    static final class Endpoints implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Mixin
        OutputFormat output;

        @Override
        public Integer call() {
            return root.run("endpoints", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                List<Endpoint> endpoints = session.etcd().members().members().stream()
                        .map(m -> probe(session, m))
                        .toList();
                root.out().print(output.render(() -> endpointsTable(endpoints), endpointsDocument(endpoints)));
                return endpoints.stream().allMatch(Endpoint::healthy) ? 0 : 1;
            });
        }

        private static Endpoint probe(MemberSession session, Member m) {
            if (!m.started()) {
                return new Endpoint(m, "unstarted", null, "added, never started");
            }
            Optional<URI> endpoint = session.sibling(m.name());
            if (endpoint.isEmpty()) {
                return new Endpoint(m, "no pod", null, "no running pod " + m.name());
            }
            try (var etcd =
                    JetcdEtcdAdmin.open(session.connectionTo(endpoint.get()).withTimeout(ENDPOINT_TIMEOUT))) {
                EndpointStatus s = etcd.status(endpoint.get());
                return new Endpoint(m, s.errors().isEmpty() ? "healthy" : "unhealthy", s, null);
            } catch (EtcdException e) {
                return new Endpoint(m, "unreachable", null, e.getMessage());
            }
        }
    }

    /** One member's line in {@code endpoints}: its health, its status when it answered, else why not. */
    record Endpoint(Member member, String health, EndpointStatus status, String error) {
        boolean healthy() {
            return health.equals("healthy");
        }
    }

    static String endpointsTable(List<Endpoint> endpoints) {
        Table table = new Table(
                "NAME",
                "ID",
                "HEALTH",
                "LEADER",
                "VERSION",
                "DB SIZE",
                "IN USE",
                "RAFT TERM",
                "RAFT INDEX",
                "LEARNER",
                "ERROR");
        for (Endpoint e : endpoints) {
            Member m = e.member();
            String name = m.started() ? m.name() : "-";
            EndpointStatus s = e.status();
            if (s == null) {
                table.row(name, m.id(), e.health(), "-", "-", "-", "-", "-", "-", m.learner(), e.error());
            } else {
                table.row(
                        name,
                        m.id(),
                        e.health(),
                        s.isLeader(),
                        s.version(),
                        Table.bytes(s.dbSize()),
                        inUse(s),
                        s.raftTerm(),
                        s.raftIndex(),
                        s.learner(),
                        errors(s));
            }
        }
        return table.render();
    }

    static Map<String, Object> endpointsDocument(List<Endpoint> endpoints) {
        List<Map<String, Object>> list = endpoints.stream()
                .map(e -> {
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("name", e.member().name());
                    doc.put("id", e.member().id().hex());
                    doc.put("health", e.health());
                    doc.put("isLearner", e.member().learner());
                    if (e.status() != null) {
                        doc.put("status", statusFields(e.status()));
                    }
                    if (e.error() != null) {
                        doc.put("error", e.error());
                    }
                    return doc;
                })
                .toList();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("healthy", endpoints.stream().allMatch(Endpoint::healthy));
        doc.put("endpoints", list);
        return doc;
    }

    @Command(
            name = "defrag",
            description = "Defragment the pod's member (it serves nothing meanwhile; on the "
                    + "leader the cluster's writes stall). Default timeout 2m.")
    static final class Defrag implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Override
        public Integer call() {
            return root.run("defrag", DEFRAG_TIMEOUT, session -> {
                long before = session.etcd().status(session.endpoint()).dbSize();
                session.etcd().defragment(session.endpoint(), root.timeout != null ? root.timeout : DEFRAG_TIMEOUT);
                long after = session.etcd().status(session.endpoint()).dbSize();
                root.out()
                        .printf(
                                "defragmented %s: database %d -> %d bytes (%s reclaimed)%n",
                                session.podName(), before, after, Table.bytes(Math.max(0, before - after)));
                return 0;
            });
        }
    }

    @Command(name = "compact", description = "Compact the keyspace to its current revision (cluster-wide).")
    static final class Compact implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Override
        public Integer call() {
            return root.run("compact", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                Compaction c = session.etcd().compact();
                if (c.alreadyCompacted()) {
                    root.out().println("already compacted at the current revision; nothing to do");
                } else {
                    root.out().printf("compacted to revision %d%n", c.revision());
                }
                return 0;
            });
        }
    }

    @Command(
            name = "snapshot",
            description = "Save a snapshot of the pod's member to a local file. Default timeout 5m.")
    static final class Snapshot implements Callable<Integer> {
        @ParentCommand
        KubectlEtcd root;

        @Parameters(index = "0", paramLabel = "PATH", description = "the file to write (replaced only when complete)")
        Path path;

        @Override
        public Integer call() {
            return root.run("snapshot", SNAPSHOT_TIMEOUT, session -> {
                Path target = path.toAbsolutePath();
                Path partial = target.resolveSibling(target.getFileName() + ".part");
                MessageDigest sha256 = sha256();
                long bytes;
                try (OutputStream file = new DigestOutputStream(Files.newOutputStream(partial), sha256)) {
                    bytes = session.etcd()
                            .snapshot(session.endpoint(), file, root.timeout != null ? root.timeout : SNAPSHOT_TIMEOUT);
                } catch (IOException | RuntimeException e) {
                    Files.deleteIfExists(partial);
                    throw e instanceof IOException io
                            ? new UncheckedIOException("cannot write " + partial, io)
                            : (RuntimeException) e;
                }
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                root.out()
                        .printf(
                                "saved snapshot of %s to %s: %d bytes, sha256 %s%n",
                                session.podName(), target, bytes, HexFormat.of().formatHex(sha256.digest()));
                return 0;
            });
        }

        private static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JDK", e);
            }
        }
    }

    static String inUse(EndpointStatus s) {
        return Table.bytes(s.dbSizeInUse()) + " (" + Table.percent(s.dbSizeInUse(), s.dbSize()) + ")";
    }

    static String errors(EndpointStatus s) {
        return s.errors().isEmpty() ? "-" : String.join("; ", s.errors());
    }
}
