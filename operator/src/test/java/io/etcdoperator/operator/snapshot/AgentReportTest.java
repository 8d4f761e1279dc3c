package io.etcdoperator.operator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.snapshot.StoredSnapshot;
import io.etcdoperator.snapshot.cli.AgentResult;
import java.net.URI;
import org.junit.jupiter.api.Test;

class AgentReportTest {

  @Test
  void readsWhatTheAgentWrites() {
    String hex = "9f2c".repeat(16);
    String line = AgentResult.stored(new StoredSnapshot(URI.create("s3://b/prod/a.db"), 58_417_184L, hex)).toJson();

    AgentReport report = AgentReport.parse(line).orElseThrow();

    assertThat(report.stored()).isTrue();
    assertThat(report.uri()).contains("s3://b/prod/a.db");
    assertThat(report.sizeBytes()).contains(58_417_184L);
    assertThat(report.checksum()).contains("sha256:" + hex);
  }

  @Test
  void readsAFailure() {
    AgentReport report = AgentReport.parse("{\"result\":\"failed\",\"reason\":\"OverwriteRefused\",\"message\":\"x\"}")
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
