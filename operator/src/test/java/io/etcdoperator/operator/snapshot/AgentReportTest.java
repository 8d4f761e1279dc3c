package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.snapshot.SnapshotSource;
import io.etcdoperator.snapshot.StoredSnapshot;
import io.etcdoperator.snapshot.TakenSnapshot;
import io.etcdoperator.snapshot.cli.AgentResult;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentReportTest {

    @Test
    void readsWhatTheAgentWrites() {
        String hex = "9f2c".repeat(16);
        String line = AgentResult.stored(new StoredSnapshot(URI.create("s3://b/prod/a.db"), 58_417_184L, hex))
                .toJson();

        AgentReport report = AgentReport.parse(line).orElseThrow();

        assertThat(report.stored()).isTrue();
        assertThat(report.uri()).contains("s3://b/prod/a.db");
        assertThat(report.sizeBytes()).contains(58_417_184L);
        assertThat(report.checksum()).contains("sha256:" + hex);
    }

    @Test
    void readsTheSourceMemberTheAgentStreamedFrom() {
        String hex = "9f2c".repeat(16);
        var status = new EndpointStatus(
                "3.5.16", new MemberId(0x2a), new MemberId(0x2b), 90, 90, 3, 1, 1, 77, false, List.of());
        var source = new SnapshotSource(URI.create("https://prod-b.prod.db.svc:2379"), status);
        var stored = new StoredSnapshot(URI.create("s3://b/prod/a.db"), 10, hex);
        String line = AgentResult.stored(new TakenSnapshot(stored, Optional.of(source)))
                .toJson();

        AgentReport report = AgentReport.parse(line).orElseThrow();

        assertThat(report.source())
                .contains(new AgentReport.Source(
                        "https://prod-b.prod.db.svc:2379", Optional.of("000000000000002a"), false, Optional.of(77L)));
        assertThat(AgentReport.parse(AgentResult.stored(stored).toJson())
                        .orElseThrow()
                        .source())
                .isEmpty();
    }

    @Test
    void readsAFailure() {
        AgentReport report = AgentReport.parse(
                        "{\"result\":\"failed\",\"reason\":\"OverwriteRefused\",\"message\":\"x\"}")
                .orElseThrow();

        assertThat(report.failed()).isTrue();
        assertThat(report.stored()).isFalse();
        assertThat(report.reason()).contains("OverwriteRefused");
    }

    @Test
    void findsTheLineAtTheEndOfALogTail() {
        String tail = "Exception in thread main ...\n{\"result\":\"absent\",\"uri\":\"prod/a.db\"}\n";

        assertThat(AgentReport.parse(tail)).map(AgentReport::result).contains("absent");
    }

    @Test
    void noJsonIsNoReport() {
        assertThat(AgentReport.parse("OOMKilled")).isEmpty();
        assertThat(AgentReport.parse("{\"result\":")).isEmpty();
        assertThat(AgentReport.parse(null)).isEmpty();
    }
}
