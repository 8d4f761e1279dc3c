package io.etcdoperator.snapshot.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.snapshot.SnapshotFailure;
import io.etcdoperator.snapshot.SnapshotSource;
import io.etcdoperator.snapshot.StoredSnapshot;
import io.etcdoperator.snapshot.TakenSnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentResultTest {

    private static final String HEX = "ab".repeat(32);

    @Test
    void aStoredSnapshotIsOneJsonLine() {
        var stored = new StoredSnapshot(URI.create("s3://b/k/n.db"), 1234, HEX);
        assertThat(AgentResult.stored(stored).toJson())
                .isEqualTo("{\"result\":\"stored\",\"uri\":\"s3://b/k/n.db\",\"sizeBytes\":1234,\"checksum\":\"sha256:"
                        + HEX + "\"}");
    }

    @Test
    void aStreamedSnapshotNamesItsMemberAndRevision() {
        var stored = new StoredSnapshot(URI.create("s3://b/k/n.db"), 1234, HEX);
        var status = new EndpointStatus(
                "3.5.16", new MemberId(0xc), new MemberId(0xc), 9, 9, 2, 1, 1, 4711, false, List.of());
        var source = new SnapshotSource(URI.create("https://prod-x.prod.db.svc:2379"), status);
        assertThat(AgentResult.stored(new TakenSnapshot(stored, Optional.of(source)))
                        .toJson())
                .isEqualTo("{\"result\":\"stored\",\"uri\":\"s3://b/k/n.db\",\"sizeBytes\":1234,\"checksum\":\"sha256:"
                        + HEX
                        + "\",\"endpoint\":\"https://prod-x.prod.db.svc:2379\",\"memberID\":\"000000000000000c\","
                        + "\"leader\":true,\"revision\":4711}");
        assertThat(AgentResult.stored(new TakenSnapshot(stored, Optional.empty()))
                        .toJson())
                .isEqualTo(AgentResult.stored(stored).toJson());
    }

    @Test
    void failuresCarryTheReasonWordAndAnEscapedMessage() {
        var failure = new SnapshotFailure(SnapshotFailure.Reason.BUCKET_NOT_FOUND, "bucket \"x\"\nmissing\\");
        assertThat(AgentResult.failed(failure).toJson())
                .isEqualTo(
                        "{\"result\":\"failed\",\"reason\":\"BucketNotFound\",\"message\":\"bucket \\\"x\\\"\\nmissing\\\\\"}");
        assertThat(AgentResult.failed(failure).success()).isFalse();
    }

    @Test
    void longMessagesAreCutToFitTheTerminationMessage() {
        var failure = new SnapshotFailure(SnapshotFailure.Reason.STORAGE_ERROR, "x".repeat(10_000));
        assertThat(AgentResult.failed(failure).toJson().getBytes(StandardCharsets.UTF_8))
                .hasSizeLessThanOrEqualTo(AgentResult.TERMINATION_MESSAGE_LIMIT);
    }

    @Test
    void theTerminationLogIsWrittenOnlyWhenItExists(@TempDir Path tmp) throws IOException {
        Path log = Files.createFile(tmp.resolve("termination-log"));
        var out = new StringWriter();

        AgentResult.skipped("member present").report(new PrintWriter(out), log);
        AgentResult.skipped("member present").report(new PrintWriter(new StringWriter()), tmp.resolve("absent"));

        assertThat(Files.readString(log)).isEqualTo(out.toString().strip());
        assertThat(tmp.resolve("absent")).doesNotExist();
    }
}
