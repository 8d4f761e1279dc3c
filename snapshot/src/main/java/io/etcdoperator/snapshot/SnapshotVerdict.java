package io.etcdoperator.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a stored snapshot is the one the save took, pure: its status must equal the one recorded at save time,
 * and the restore made from it must hold the same revision (plus the restore's bump). The restored key count is not
 * compared: the restore rewrites the membership and meta entries, so it differs by an amount that depends on them.
 */
public record SnapshotVerdict(List<String> mismatches, DbStatus stored, DbStatus restored) {

    /**
     * What the save recorded: the stored file's status (when the save ran the tool), else only the revision its
     * source member reported before streaming, which the snapshot holds at least.
     */
    public record Recorded(Optional<DbStatus> status, Optional<Long> minRevision) {}

    public static SnapshotVerdict judge(Recorded recorded, DbStatus stored, DbStatus restored, long revisionBump) {
        List<String> mismatches = new ArrayList<>();
        recorded.status()
                .ifPresentOrElse(
                        saved -> {
                            if (saved.hash() != stored.hash()) {
                                mismatches.add(
                                        "hash " + stored.hashHex() + " but the save recorded " + saved.hashHex());
                            }
                            if (saved.revision() != stored.revision()) {
                                mismatches.add(
                                        "revision " + stored.revision() + " but the save recorded " + saved.revision());
                            }
                            if (saved.totalKeys() != stored.totalKeys()) {
                                mismatches.add(stored.totalKeys() + " keys but the save recorded " + saved.totalKeys());
                            }
                        },
                        () -> recorded.minRevision()
                                .filter(min -> stored.revision() < min)
                                .ifPresent(min -> mismatches.add("revision " + stored.revision() + " is older than the "
                                        + min + " its source reported")));
        if (restored.revision() != stored.revision() + revisionBump) {
            mismatches.add("the restore holds revision " + restored.revision() + ", not "
                    + (stored.revision() + revisionBump));
        }
        return new SnapshotVerdict(List.copyOf(mismatches), stored, restored);
    }

    public boolean verified() {
        return mismatches.isEmpty();
    }

    /** For a verified snapshot the numbers, else every mismatch. */
    public String message() {
        return verified()
                ? stored + "; restores to revision " + restored.revision()
                : "stored snapshot does not match: " + String.join("; ", mismatches);
    }
}
