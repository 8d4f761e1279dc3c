package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code -o table|json|yaml} on fake members, statuses and alarms: the same data in every format. */
class OutputFormatTest {

    private static final Member C0 = new Member(
            new MemberId(0xa1),
            "c-0",
            List.of(URI.create("https://c-0.c.ns.svc:2380")),
            List.of(URI.create("https://c-0.c.ns.svc:2379")),
            false);
    private static final Member UNSTARTED =
            new Member(new MemberId(0xc3), "", List.of(URI.create("https://c-3.c.ns.svc:2380")), List.of(), true);
    private static final Membership MEMBERSHIP = new Membership(new ClusterId(0x77), List.of(C0, UNSTARTED));
    private static final EndpointStatus STATUS = new EndpointStatus(
            "3.5.16",
            new MemberId(0xa1),
            new MemberId(0xa1),
            1227,
            1226,
            2,
            2_244_608,
            40_960,
            402,
            false,
            List.of("NOSPACE"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    private static String render(String format, String table, Object document) {
        OutputFormat output = new OutputFormat();
        new CommandLine(new Holder(output)).parseArgs(format == null ? new String[0] : new String[] {"-o", format});
        return output.render(() -> table, document);
    }

    @Test
    void tableStaysTheDefault() {
        assertThat(render(null, "THE TABLE\n", Map.of("a", 1))).isEqualTo("THE TABLE\n");
        assertThat(render("table", "THE TABLE\n", Map.of("a", 1))).isEqualTo("THE TABLE\n");
    }

    @Test
    void statusAsJsonHasRawNumbersAndHexIds() throws Exception {
        String json = render("json", "unused", MaintenanceCommands.statusDocument("c-0", STATUS));
        JsonNode doc = JSON.readTree(json);
        assertThat(doc.get("member").asText()).isEqualTo("c-0");
        assertThat(doc.get("id").asText()).isEqualTo("00000000000000a1");
        assertThat(doc.get("dbSize").asLong()).isEqualTo(2_244_608);
        assertThat(doc.get("isLeader").asBoolean()).isTrue();
        assertThat(doc.get("revision").asLong()).isEqualTo(402);
        assertThat(doc.get("errors").get(0).asText()).isEqualTo("NOSPACE");
        assertThat(json)
                .as("indented for people too")
                .contains("\n  \"member\" : \"c-0\"")
                .endsWith("}\n");
    }

    @Test
    void statusAsYamlHasTheSameFields() throws Exception {
        String yaml = render("YAML", "unused", MaintenanceCommands.statusDocument("c-0", STATUS));
        assertThat(yaml)
                .startsWith("member: c-0\n")
                .contains("dbSizeInUse: 40960\n")
                .doesNotContain("---");
        assertThat(YAML.readTree(yaml))
                .isEqualTo(JSON.readTree(render("json", "unused", MaintenanceCommands.statusDocument("c-0", STATUS))));
    }

    @Test
    void statusTableIsUnchanged() {
        assertThat(MaintenanceCommands.statusTable("c-0", STATUS)).isEqualTo("""
        MEMBER   ID                 VERSION   DB SIZE   IN USE            LEADER   RAFT TERM   RAFT INDEX   \
        APPLIED INDEX   LEARNER   ERRORS
        c-0      00000000000000a1   3.5.16    2.2 MB    41.0 kB (1.82%)   true     2           1227         \
        1226            false     NOSPACE
        """);
    }

    @Test
    void membersAsJsonListUrlsAndRoles() throws Exception {
        JsonNode doc = JSON.readTree(render("json", "unused", MemberCommands.document(MEMBERSHIP)));
        assertThat(doc.get("clusterId").asText()).isEqualTo("0000000000000077");
        JsonNode members = doc.get("members");
        assertThat(members).hasSize(2);
        assertThat(members.get(0).get("peerURLs").get(0).asText()).isEqualTo("https://c-0.c.ns.svc:2380");
        assertThat(members.get(1).get("started").asBoolean()).isFalse();
        assertThat(members.get(1).get("isLearner").asBoolean()).isTrue();
        assertThat(members.get(1).get("clientURLs")).isEmpty();
    }

    @Test
    void endpointsCarryStatusOrTheReasonThereIsNone() throws Exception {
        List<MaintenanceCommands.Endpoint> endpoints = List.of(
                new MaintenanceCommands.Endpoint(C0, "healthy", STATUS, null),
                new MaintenanceCommands.Endpoint(UNSTARTED, "unstarted", null, "added, never started"));
        JsonNode doc = YAML.readTree(render("yaml", "unused", MaintenanceCommands.endpointsDocument(endpoints)));
        assertThat(doc.get("healthy").asBoolean()).isFalse();
        assertThat(doc.get("endpoints").get(0).get("status").get("raftIndex").asLong())
                .isEqualTo(1227);
        assertThat(doc.get("endpoints").get(0).has("error")).isFalse();
        assertThat(doc.get("endpoints").get(1).get("error").asText()).isEqualTo("added, never started");
        assertThat(doc.get("endpoints").get(1).has("status")).isFalse();
        assertThat(MaintenanceCommands.endpointsTable(endpoints)).isEqualTo("""
        NAME   ID                 HEALTH      LEADER   VERSION   DB SIZE   IN USE            RAFT TERM   \
        RAFT INDEX   LEARNER   ERROR
        c-0    00000000000000a1   healthy     true     3.5.16    2.2 MB    41.0 kB (1.82%)   2           \
        1227         false     NOSPACE
        -      00000000000000c3   unstarted   -        -         -         -                 -           \
        -            true      added, never started
        """);
    }

    @Test
    void alarmsAsJsonNameTheMemberOrNull() throws Exception {
        JsonNode doc = JSON.readTree(render(
                "json",
                "unused",
                AlarmCommands.document(
                        List.of(
                                new Alarm(new MemberId(0xa1), Alarm.Kind.NOSPACE),
                                new Alarm(new MemberId(0xff), Alarm.Kind.CORRUPT)),
                        MEMBERSHIP)));
        assertThat(doc.get("alarms").get(0).get("member").asText()).isEqualTo("c-0");
        assertThat(doc.get("alarms").get(1).get("alarm").asText()).isEqualTo("CORRUPT");
        assertThat(doc.get("alarms").get(1).get("member").isNull()).isTrue();
        assertThat(render("json", "no alarms\n", AlarmCommands.document(List.of(), null)))
                .as("no alarms is an empty list, not a sentence")
                .contains("\"alarms\" : [ ]");
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        var err = new StringWriter();
        CommandLine line = KubectlEtcd.commandLine(new KubectlEtcd());
        line.setErr(new PrintWriter(err, true));
        assertThat(line.execute("members", "-p", "c-0", "-o", "wide")).isEqualTo(2);
        assertThat(err.toString()).contains("'wide' is not an output format");
    }

    @CommandLine.Command(name = "holder")
    static final class Holder {
        @CommandLine.Mixin
        OutputFormat output;

        Holder(OutputFormat output) {
            this.output = output;
        }
    }
}
