package io.etcdoperator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.e2e.LoopbackEtcd.Member;
import io.etcdoperator.e2e.LoopbackEtcd.Release;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.localkube.ControlPlane;
import io.etcdoperator.snapshot.RestoreTool;
import io.etcdoperator.snapshot.cli.AgentCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 with a real kube-apiserver 1.20 as etcd's client: a watch open since before the snapshot, across a restore
 * by the agent and the apiserver's restart on the restored cluster, ends with 410 Gone after the etcdutl restore (the
 * revision bump), and resumes silently, missing the restored cluster's changes, after an etcdctl 3.4 one (no bump).
 */
class KubernetesRestoreIT {

    private static final String NAMESPACE = "restore-proof";
    private static final String LABEL = "restore-proof";
    private static final int BEFORE = 10;
    private static final int AFTER = 30;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Pattern TOO_OLD = Pattern.compile("too old resource version: (\\d+) \\((\\d+)\\)");

    @TempDir
    Path tmp;

    @Test
    void etcdutlRestoreEndsTheOldWatchWithGoneAndARelistShowsTheSnapshot() throws Exception {
        try (var a = LoopbackEtcd.start(Release.V3_5_16, Member.reserve("a"), tmp.resolve("a"), "cluster-a");
                var plane = ControlPlane.startOn(a.clientUrl(), tmp.resolve("kube"));
                var client = client(plane);
                var watched = new Watched()) {
            SeenOnA seen = writeSaveAndWriteMore(client, a, watched);
            Member restored = Member.reserve("b"); // late: ports the apiserver holds are not handed out
            assertThat(restore(Release.V3_5_16, restored)).contains("\"revisionBump\":" + RestoreTool.REVISION_BUMP);
            try (var b = LoopbackEtcd.start(Release.V3_5_16, restored, tmp.resolve("b"), "cluster-b")) {
                a.close();
                plane.restartApiServer(b.clientUrl());
                long firstOnB =
                        Long.parseLong(configMaps(client).list().getMetadata().getResourceVersion());
                assertThat(firstOnB)
                        .isGreaterThanOrEqualTo(seen.atSnapshot() + RestoreTool.REVISION_BUMP)
                        .isGreaterThan(seen.lastOnA())
                        .isGreaterThan(seen.watchedUpTo());

                WatcherException ended = watched.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(ended.isHttpGone())
                        .as("410 Gone, not a silent resume: %s", ended)
                        .isTrue();
                Matcher tooOld = TOO_OLD.matcher(ended.getMessage());
                assertThat(tooOld.find()).as(ended.getMessage()).isTrue();
                assertThat(Long.parseLong(tooOld.group(1)))
                        .as("where it resumed")
                        .isEqualTo(watched.upTo());
                assertThat(watched.events).as("nothing delivered from B").hasSize(seen.events());
                ConfigMapList relist = configMaps(client).list();
                assertExactlyTheSnapshot(relist);
                report("etcdutl 3.5.16", seen, firstOnB, "the watch ended with 410 \"" + tooOld.group() + "\"");
            }
        }
    }

    @Test
    void etcdctl34RestoreLetsTheOldWatchResumeAndMissBsChanges() throws Exception {
        try (var a = LoopbackEtcd.start(Release.V3_4_23, Member.reserve("a"), tmp.resolve("a"), "cluster-a");
                var plane = ControlPlane.startOn(a.clientUrl(), tmp.resolve("kube"));
                var client = client(plane);
                var watched = new Watched()) {
            SeenOnA seen = writeSaveAndWriteMore(client, a, watched);
            Member restored = Member.reserve("b"); // late: ports the apiserver holds are not handed out
            assertThat(restore(Release.V3_4_23, restored)).contains("\"revisionBump\":0");
            try (var b = LoopbackEtcd.start(Release.V3_4_23, restored, tmp.resolve("b"), "cluster-b")) {
                a.close();
                plane.restartApiServer(b.clientUrl());

                ConfigMapList relist = configMaps(client).list();
                long firstOnB = Long.parseLong(relist.getMetadata().getResourceVersion());
                assertExactlyTheSnapshot(relist);
                assertThat(firstOnB).as("B hands out A's revisions again").isLessThan(seen.watchedUpTo());

                List<ConfigMap> onB = writeUntilPast(client, watched.upTo());
                String last = onB.getLast().getMetadata().getName();
                Await.until(
                        "the watch to deliver " + last,
                        WAIT,
                        () -> watched.names().contains("ADDED " + last));
                assertThat(watched.closed)
                        .as("no 410: the watch resumed silently")
                        .isNotDone();
                assertThat(watched.events.subList(seen.events(), watched.events.size()))
                        .as("of %d ConfigMaps created on B only those past the old revision arrive", onB.size())
                        .extracting(Event::name)
                        .containsExactly("ADDED " + last);
                assertThat(onB)
                        .as("ConfigMaps created on B that the watch never saw")
                        .hasSizeGreaterThan(1);
                report(
                        "etcdctl 3.4.23",
                        seen,
                        firstOnB,
                        "no 410; of " + onB.size() + " ConfigMaps created on B the watch got only the last");
            }
        }
    }

    /** What the watch and the cluster showed on A: revisions at the snapshot and at the end, events delivered. */
    record SeenOnA(long atSnapshot, long lastOnA, long watchedUpTo, int events) {}

    private SeenOnA writeSaveAndWriteMore(KubernetesClient client, LoopbackEtcd a, Watched watched) {
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
        IntStream.range(0, BEFORE).forEach(i -> create(client, "before-%02d".formatted(i), "1"));
        String listed = configMaps(client).list().getMetadata().getResourceVersion();
        watched.start(configMaps(client), listed);

        String saved = agent(
                "snapshot",
                "save",
                "--endpoints",
                a.clientUrl().toString(),
                "--name",
                "nightly",
                "--uid",
                "u1",
                "--dir",
                tmp.resolve("pvc").toString(),
                "--termination-log",
                tmp.resolve("no-log").toString());
        long atSnapshot = Long.parseLong(field(saved, "revision"));

        client.configMaps().inNamespace(NAMESPACE).withName("before-00").edit(cm -> {
            cm.getData().put("v", "2");
            return cm;
        });
        IntStream.range(0, AFTER).forEach(i -> create(client, "after-%02d".formatted(i), "1"));
        String lastName = "after-%02d".formatted(AFTER - 1);
        Await.until(
                "the watch to deliver " + lastName, WAIT, () -> watched.names().contains("ADDED " + lastName));
        long lastOnA = Long.parseLong(configMaps(client).list().getMetadata().getResourceVersion());
        assertThat(watched.names()).contains("MODIFIED before-00").hasSize(AFTER + 1);
        return new SeenOnA(atSnapshot, lastOnA, watched.upTo(), watched.events.size());
    }

    /** The agent's restore command (SnapshotRestore, RestoreTool) into B's data dir, as the init container runs it. */
    private String restore(Release release, Member member) {
        return agent(
                "snapshot",
                "restore",
                "--key",
                "nightly.db",
                "--dir",
                tmp.resolve("pvc").toString(),
                "--data-dir",
                tmp.resolve("b").toString(),
                "--member-name",
                member.name(),
                "--initial-cluster",
                member.initialCluster(),
                "--initial-cluster-token",
                "cluster-b",
                "--initial-advertise-peer-urls",
                member.peerUrl().toString(),
                "--tool",
                release.restoreTool().toString(),
                "--termination-log",
                tmp.resolve("no-log").toString());
    }

    /** Writes on B until one gets a revision beyond what the watch saw on A; the others reuse A's revisions. */
    private static List<ConfigMap> writeUntilPast(KubernetesClient client, long revision) {
        List<ConfigMap> created = new ArrayList<>();
        while (created.isEmpty() || resourceVersion(created.getLast()) <= revision) {
            created.add(create(client, "on-b-%03d".formatted(created.size()), "1"));
            assertThat(created).as("writes on B to pass revision %d", revision).hasSizeLessThan(AFTER * 3);
        }
        return created;
    }

    private static void assertExactlyTheSnapshot(ConfigMapList relist) {
        List<String> names = relist.getItems().stream()
                .map(cm -> cm.getMetadata().getName())
                .sorted()
                .toList();
        assertThat(names)
                .as("exactly what the snapshot held")
                .containsExactlyElementsOf(IntStream.range(0, BEFORE)
                        .mapToObj("before-%02d"::formatted)
                        .toList());
        assertThat(relist.getItems())
                .filteredOn(cm -> cm.getMetadata().getName().equals("before-00"))
                .singleElement()
                .satisfies(cm -> assertThat(cm.getData())
                        .as("the change after the snapshot is gone")
                        .containsEntry("v", "1"));
    }

    private static void report(String restoredWith, SeenOnA seen, long firstOnB, String watch) {
        System.out.printf(
                "KubernetesRestoreIT %s: revision at snapshot %d, last on A %d (watch at %d), first on B %d, "
                        + "jump %d from the snapshot, %d past A's last; %s%n",
                restoredWith,
                seen.atSnapshot(),
                seen.lastOnA(),
                seen.watchedUpTo(),
                firstOnB,
                firstOnB - seen.atSnapshot(),
                firstOnB - seen.lastOnA(),
                watch);
    }

    private static ConfigMap create(KubernetesClient client, String name, String value) {
        return client.configMaps()
                .inNamespace(NAMESPACE)
                .resource(new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels(LABEL, "yes")
                        .endMetadata()
                        .addToData("v", value)
                        .build())
                .create();
    }

    private static FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>> configMaps(
            KubernetesClient client) {
        return client.configMaps().inNamespace(NAMESPACE).withLabel(LABEL, "yes");
    }

    private static long resourceVersion(ConfigMap cm) {
        return Long.parseLong(cm.getMetadata().getResourceVersion());
    }

    /** Reconnects quickly (0.2 s doubling to 6.4 s) and for ever, so the watch outlives the apiserver's restart. */
    private static KubernetesClient client(ControlPlane plane) {
        Config config = plane.clientConfig();
        config.setWatchReconnectInterval(200);
        config.setWatchReconnectLimit(-1);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static String agent(String... args) {
        var out = new StringWriter();
        int code = AgentCommand.execute(JetcdEtcdAdmin.FACTORY, Map.of(), new PrintWriter(out), args);
        String json = out.toString().strip();
        assertThat(code).as(json).isZero();
        return json;
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return m.group(1);
    }

    record Event(String name, long resourceVersion) {}

    /** A watch's deliveries in order, bookmarks included (they move the resourceVersion it resumes from). */
    static final class Watched implements Watcher<ConfigMap>, AutoCloseable {

        final List<Event> events = new CopyOnWriteArrayList<>();
        final CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        private volatile long upTo;
        private Watch watch;

        void start(FilterWatchListDeletable<ConfigMap, ConfigMapList, Resource<ConfigMap>> source, String from) {
            upTo = Long.parseLong(from);
            watch = source.watch(
                    new ListOptionsBuilder()
                            .withResourceVersion(from)
                            .withAllowWatchBookmarks(true)
                            .build(),
                    this);
        }

        @Override
        public void eventReceived(Action action, ConfigMap cm) {
            upTo = Long.parseLong(cm.getMetadata().getResourceVersion());
            if (action != Action.BOOKMARK) {
                events.add(new Event(action + " " + cm.getMetadata().getName(), upTo));
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            closed.complete(cause);
        }

        /** The resourceVersion fabric8 resumes from when it reconnects: the last one delivered. */
        long upTo() {
            return upTo;
        }

        List<String> names() {
            return events.stream().map(Event::name).toList();
        }

        @Override
        public void close() {
            if (watch != null) {
                watch.close();
            }
        }
    }
}
