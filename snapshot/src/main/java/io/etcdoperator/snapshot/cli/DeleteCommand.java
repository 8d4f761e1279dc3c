package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.SnapshotIdentity;
import io.etcdoperator.snapshot.SnapshotStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "delete",
        mixinStandardHelpOptions = true,
        description = "Delete <prefix>/<name>.db and its records, only if the snapshot with --uid wrote it.")
final class DeleteCommand extends SnapshotCommand.Run {

    @Mixin
    StoreOptions store;

    @Option(names = "--name", required = true)
    String name;

    @Option(names = "--uid", required = true)
    String uid;

    @Option(names = "--prefix", defaultValue = "")
    String prefix;

    @Override
    AgentResult run() {
        SnapshotIdentity owner = new SnapshotIdentity(name, uid);
        String key = SnapshotStore.key(prefix, owner.fileName());
        try (SnapshotStore target = store.open(agent().env)) {
            boolean existed = target.delete(key, owner);
            return AgentResult.deleted(key, existed);
        }
    }
}
