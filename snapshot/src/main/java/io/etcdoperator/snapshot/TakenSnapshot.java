package io.etcdoperator.snapshot;

import java.util.Optional;

/**
 * A save's result: the stored object and the member it streamed from. No source when the store already held this
 * snapshot's complete object and nothing was streamed (a retried Job).
 */
public record TakenSnapshot(StoredSnapshot stored, Optional<SnapshotSource> source) {}
