package io.etcdoperator.etcd;

/** The outcome of compacting the keyspace: the revision compacted to, or that etcd had already compacted past it. */
public record Compaction(long revision, boolean alreadyCompacted) {}
