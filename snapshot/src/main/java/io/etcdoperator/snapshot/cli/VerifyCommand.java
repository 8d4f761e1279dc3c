package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.DbStatus;
import io.etcdoperator.snapshot.KeyRing;
import io.etcdoperator.snapshot.SnapshotFailure;
import io.etcdoperator.snapshot.SnapshotStore;
import io.etcdoperator.snapshot.SnapshotVerdict;
import io.etcdoperator.snapshot.SnapshotVerify;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description =
                "Fetch the snapshot at exactly --key as a restore would, restore it into --scratch-dir, and check "
                        + "its hash, revision and keys against what the save recorded.")
final class VerifyCommand extends SnapshotCommand.Run {

    @Mixin
    StoreOptions store;

    @Mixin
    ToolOptions tools;

    @Option(names = "--key", required = true, description = "Exact S3 key or path below --dir of the snapshot.")
    String key;

    @Option(names = "--checksum", description = "sha256:<hex> the snapshot must have (default: the recorded one).")
    String checksum;

    @Option(names = "--scratch-dir", required = true, description = "Emptied afterwards; needs 2x the snapshot's size.")
    Path scratch;

    @Option(
            names = "--encryption-key-dir",
            description = "Mounted key Secret (one file per key id); the snapshot names the id it needs.")
    Path keyDir;

    @Option(names = "--expect-hash", description = "snapshot status hash (hex) recorded at save time.")
    String expectHash;

    @Option(names = "--expect-revision", description = "snapshot status revision recorded at save time.")
    Long expectRevision;

    @Option(names = "--expect-total-keys", description = "snapshot status total keys recorded at save time.")
    Long expectTotalKeys;

    @Option(names = "--min-revision", description = "Without the three above: the revision the source reported.")
    Long minRevision;

    @Option(names = "--timeout", defaultValue = "PT30M", description = "Bound on each run of the tool (ISO-8601).")
    Duration timeout;

    @Override
    AgentResult run() {
        var verify = new SnapshotVerify(
                tools.tool(), timeout, Optional.ofNullable(keyDir).map(KeyRing::new));
        try (SnapshotStore source = store.open(agent().env)) {
            return AgentResult.verified(verify.run(source, key, Optional.ofNullable(checksum), recorded(), scratch));
        }
    }

    private SnapshotVerdict.Recorded recorded() {
        int given = (expectHash == null ? 0 : 1) + (expectRevision == null ? 0 : 1) + (expectTotalKeys == null ? 0 : 1);
        if (given != 0 && given != 3) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST,
                    "--expect-hash, --expect-revision and --expect-total-keys go together");
        }
        Optional<DbStatus> status = given == 0
                ? Optional.empty()
                : Optional.of(new DbStatus(DbStatus.parseHashHex(expectHash), expectRevision, expectTotalKeys));
        return new SnapshotVerdict.Recorded(status, Optional.ofNullable(minRevision));
    }
}
