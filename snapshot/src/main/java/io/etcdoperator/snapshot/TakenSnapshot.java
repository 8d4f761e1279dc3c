package io.etcdoperator.snapshot;

import java.util.Optional;

/**
 * A save's result: the stored object and the member it streamed from. No source when the store already held this
 * snapshot's complete object and nothing was streamed (a retried Job). {@code status} is the streamed database's
 * {@code snapshot status}, when the save was asked to record it (a verified snapshot).
 */
public record TakenSnapshot(StoredSnapshot stored, Optional<SnapshotSource> source, Optional<DbStatus> status) {

    public TakenSnapshot(StoredSnapshot stored, Optional<SnapshotSource> source) {
        this(stored, source, Optional.empty());
    }
}
