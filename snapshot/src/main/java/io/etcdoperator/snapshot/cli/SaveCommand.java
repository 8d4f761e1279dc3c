package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.DbStatusRecorder;
import io.etcdoperator.snapshot.EncryptionKey;
import io.etcdoperator.snapshot.KeyRing;
import io.etcdoperator.snapshot.SnapshotFailure;
import io.etcdoperator.snapshot.SnapshotIdentity;
import io.etcdoperator.snapshot.SnapshotSave;
import io.etcdoperator.snapshot.SnapshotStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "save",
        mixinStandardHelpOptions = true,
        description =
                "Stream a snapshot from the leader (else the voter furthest along) to <prefix>/<name>.db in the store.")
final class SaveCommand extends SnapshotCommand.Run {

    @Mixin
    EtcdClientOptions etcd;

    @Mixin
    StoreOptions store;

    @Option(names = "--name", required = true, description = "EtcdSnapshot name; the file is <name>.db.")
    String name;

    @Option(names = "--uid", required = true, description = "EtcdSnapshot uid, recorded as the object's owner.")
    String uid;

    @Option(names = "--prefix", defaultValue = "", description = "S3 key prefix or directory below --dir.")
    String prefix;

    @Option(names = "--timeout", defaultValue = "PT25M", description = "Bound on the whole transfer (ISO-8601).")
    Duration timeout;

    @Option(names = "--encryption-key-dir", description = "Mounted key Secret: one file per key id.")
    Path keyDir;

    @Option(names = "--encryption-key-id", description = "Encrypt with the key in this file of --encryption-key-dir.")
    String keyId;

    @Mixin
    ToolOptions tools;

    @Option(
            names = "--status-scratch-dir",
            description = "Record the snapshot's status (hash, revision, keys) with "
                    + "the tool, from a copy kept here (needs the snapshot's size free).")
    Path statusScratch;

    @Override
    AgentResult run() {
        SnapshotIdentity owner = new SnapshotIdentity(name, uid);
        Optional<EncryptionKey> key = key();
        try (SnapshotStore target = store.open(agent().env)) {
            var save = new SnapshotSave(agent().etcd, etcd.connection(), timeout, key, recorder());
            return AgentResult.stored(save.run(target, SnapshotStore.key(prefix, owner.fileName()), owner))
                    .encryptedWith(key.map(EncryptionKey::id));
        }
    }

    private Optional<DbStatusRecorder> recorder() {
        if (statusScratch == null) {
            return Optional.empty();
        }
        return Optional.of(new DbStatusRecorder(tools.tool(), statusScratch, timeout));
    }

    private Optional<EncryptionKey> key() {
        if ((keyDir == null) != (keyId == null)) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "--encryption-key-dir and --encryption-key-id go together");
        }
        return keyDir == null ? Optional.empty() : Optional.of(new KeyRing(keyDir).require(keyId));
    }
}
