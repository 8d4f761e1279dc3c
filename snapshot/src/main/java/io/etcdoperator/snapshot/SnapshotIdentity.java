package io.etcdoperator.snapshot;

/**
 * Which EtcdSnapshot a stored object belongs to. The uid is written next to every object the agent stores, so a
 * retry of the same snapshot may replace its own object while any other object at that place is left alone.
 */
public record SnapshotIdentity(String name, String uid) {

    public SnapshotIdentity {
        if (name == null || name.isBlank() || uid == null || uid.isBlank()) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "a snapshot needs a name and a uid");
        }
        if (name.contains("/")) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "snapshot name must not contain '/': " + name);
        }
    }

    /** The stored file name: {@code <name>.db}. */
    public String fileName() {
        return name + ".db";
    }
}
