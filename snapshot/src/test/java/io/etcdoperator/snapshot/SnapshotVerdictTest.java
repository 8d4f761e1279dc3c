package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SnapshotVerdictTest {

    private static final long BUMP = RestoreTool.REVISION_BUMP;
    private static final DbStatus STORED = new DbStatus(0x79851ed4L, 22, 27);
    private static final DbStatus RESTORED = new DbStatus(0x2c80f3a3L, 22 + BUMP, 30);

    @Test
    void numbersThatMatchTheSaveVerify() {
        var verdict = SnapshotVerdict.judge(recorded(STORED), STORED, RESTORED, BUMP);
        assertThat(verdict.verified()).isTrue();
        assertThat(verdict.message()).isEqualTo("revision 22, 27 keys, hash 79851ed4; restores to revision 1000000022");
    }

    @Test
    void everyDifferingNumberIsNamed() {
        var verdict = SnapshotVerdict.judge(recorded(new DbStatus(0x1L, 21, 26)), STORED, RESTORED, BUMP);
        assertThat(verdict.verified()).isFalse();
        assertThat(verdict.mismatches())
                .containsExactly(
                        "hash 79851ed4 but the save recorded 1",
                        "revision 22 but the save recorded 21",
                        "27 keys but the save recorded 26");
    }

    @Test
    void aRestoreThatLostTheRevisionFails() {
        var verdict = SnapshotVerdict.judge(recorded(STORED), STORED, new DbStatus(1, 5, 30), BUMP);
        assertThat(verdict.verified()).isFalse();
        assertThat(verdict.message()).contains("the restore holds revision 5, not 1000000022");
    }

    @Test
    void withoutARecordedStatusOnlyTheSourceRevisionBoundsIt() {
        var older = new SnapshotVerdict.Recorded(Optional.empty(), Optional.of(23L));
        assertThat(SnapshotVerdict.judge(older, STORED, RESTORED, BUMP).mismatches())
                .containsExactly("revision 22 is older than the 23 its source reported");
        var bound = new SnapshotVerdict.Recorded(Optional.empty(), Optional.of(22L));
        assertThat(SnapshotVerdict.judge(bound, STORED, RESTORED, BUMP).verified())
                .isTrue();
    }

    @Test
    void etcdctl34RestoresKeepTheRevision() {
        assertThat(SnapshotVerdict.judge(recorded(STORED), STORED, new DbStatus(9, 22, 27), 0)
                        .verified())
                .isTrue();
    }

    @Test
    void parsesTheToolsJsonAmongLogLines() {
        String output = "2026-11-27T07:08:47Z\tinfo\tsomething\n{\"hash\":2038767316,\"revision\":22,\"totalKey\":27,"
                + "\"totalSize\":20480}";
        assertThat(DbStatus.parse(output)).contains(STORED);
        assertThat(DbStatus.parse("panic: runtime error")).isEmpty();
        assertThat(DbStatus.parseHashHex(STORED.hashHex())).isEqualTo(STORED.hash());
    }

    private static SnapshotVerdict.Recorded recorded(DbStatus status) {
        return new SnapshotVerdict.Recorded(Optional.of(status), Optional.of(20L));
    }
}
