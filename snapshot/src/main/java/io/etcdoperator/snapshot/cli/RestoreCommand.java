package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.KeyRing;
import io.etcdoperator.snapshot.RestoreTarget;
import io.etcdoperator.snapshot.RestoreTool;
import io.etcdoperator.snapshot.SnapshotRestore;
import io.etcdoperator.snapshot.SnapshotStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = "Restore the snapshot at exactly --key into an empty --data-dir (no-op when it holds a member).")
final class RestoreCommand extends SnapshotCommand.Run {

    @Mixin
    StoreOptions store;

    @Option(names = "--key", required = true, description = "Exact S3 key or path below --dir of the snapshot.")
    String key;

    @Option(names = "--checksum", description = "sha256:<hex> the snapshot must have (default: the recorded one).")
    String checksum;

    @Option(names = "--data-dir", required = true, description = "The member's etcd data directory.")
    Path dataDir;

    @Option(names = "--member-name", required = true)
    String memberName;

    @Option(names = "--initial-cluster", required = true)
    String initialCluster;

    @Option(names = "--initial-cluster-token", required = true, description = "Must differ from the source cluster's.")
    String clusterToken;

    @Option(names = "--initial-advertise-peer-urls", required = true)
    String peerUrls;

    @Mixin
    ToolOptions tools;

    @Option(names = "--timeout", defaultValue = "PT30M", description = "Bound on running the restore tool (ISO-8601).")
    Duration timeout;

    @Option(
            names = "--encryption-key-dir",
            description = "Mounted key Secret (one file per key id); the snapshot names the id it needs.")
    Path keyDir;

    @Override
    AgentResult run() {
        RestoreTool tool = tools.tool();
        var target = new RestoreTarget(dataDir, memberName, initialCluster, clusterToken, peerUrls);
        try (SnapshotStore source = store.open(agent().env)) {
            var outcome = new SnapshotRestore(
                            tool, timeout, Optional.ofNullable(keyDir).map(KeyRing::new))
                    .run(source, key, Optional.ofNullable(checksum), target);
            return outcome.restored()
                    ? AgentResult.restored(
                                    outcome.snapshot().orElseThrow(), outcome.verifiedAgainst(), outcome.revisionBump())
                            .encryptedWith(outcome.encryptionKeyId())
                    : AgentResult.skipped("data directory " + dataDir + " already holds a member");
        }
    }
}
