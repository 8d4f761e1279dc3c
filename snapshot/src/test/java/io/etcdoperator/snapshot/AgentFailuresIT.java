package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The failures the operator shows in status, as the agent CLI reports them (exit code 1 plus the JSON reason). */
class AgentFailuresIT {

    @TempDir
    Path tmp;

    @Test
    void anUnreachableClusterIsNamedInTheTerminationMessage() throws Exception {
        Path terminationLog = Files.createFile(tmp.resolve("termination-log"));
        String dead = "http://127.0.0.1:" + EtcdServer.freePort();

        AgentRun run = AgentRun.of(
                Map.of(),
                "snapshot",
                "save",
                "--endpoints",
                dead,
                "--dial-timeout",
                "PT2S",
                "--name",
                "nightly",
                "--uid",
                "u1",
                "--dir",
                tmp.resolve("pvc").toString(),
                "--termination-log",
                terminationLog.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.field("reason")).isEqualTo("ClusterUnreachable");
        assertThat(Files.readString(terminationLog)).isEqualTo(run.json());
        assertThat(tmp.resolve("pvc")).doesNotExist();
    }

    @Test
    void etcdAuthIsHonouredAndAWrongPasswordIsNamed() throws Exception {
        var member = EtcdServer.Member.reserve("auth");
        try (var etcd = EtcdServer.start(EtcdRelease.V3_5_16, member, tmp.resolve("auth"), "auth-token")) {
            try (var admin = JetcdEtcdAdmin.open(EtcdConnection.plaintext(List.of(etcd.clientUrl())))) {
                admin.enableAuth("root-password");
            }
            Files.writeString(tmp.resolve("good"), "root-password\n");
            Files.writeString(tmp.resolve("bad"), "not-the-password\n");

            AgentRun anonymous =
                    save(etcd.clientUrl(), "anon", "--dir", tmp.resolve("pvc").toString());
            AgentRun wrong = save(
                    etcd.clientUrl(),
                    "wrong",
                    "--user",
                    "root",
                    "--password-file",
                    tmp.resolve("bad").toString(),
                    "--dir",
                    tmp.resolve("pvc").toString());
            AgentRun right = save(
                    etcd.clientUrl(),
                    "right",
                    "--user",
                    "root",
                    "--password-file",
                    tmp.resolve("good").toString(),
                    "--dir",
                    tmp.resolve("pvc").toString());

            assertThat(anonymous.field("reason")).isEqualTo("EtcdAuthRejected");
            assertThat(wrong.field("reason")).isEqualTo("EtcdAuthRejected");
            assertThat(wrong.json()).doesNotContain("not-the-password");
            assertThat(right.exitCode()).as(right.json()).isZero();
            assertThat(Files.size(tmp.resolve("pvc/right.db"))).isEqualTo(Long.parseLong(right.field("sizeBytes")));
        }
    }

    @Test
    void aMissingRestoreToolFailsBeforeAnyDownload() {
        AgentRun run = AgentRun.of(
                Map.of("AWS_ACCESS_KEY_ID", "a", "AWS_SECRET_ACCESS_KEY", "b"),
                "snapshot",
                "restore",
                "--s3-endpoint",
                "http://127.0.0.1:" + EtcdServer.freePort(),
                "--s3-bucket",
                "b",
                "--key",
                "k.db",
                "--data-dir",
                tmp.resolve("data").toString(),
                "--member-name",
                "m",
                "--initial-cluster",
                "m=http://127.0.0.1:1",
                "--initial-cluster-token",
                "t",
                "--initial-advertise-peer-urls",
                "http://127.0.0.1:1",
                "--etcd-version",
                "3.5.16",
                "--etcd-tools-dir",
                tmp.toString(),
                "--termination-log",
                tmp.resolve("x").toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.field("reason"))
                .as("the tool is checked before any download")
                .isEqualTo("RestoreToolFailed");
    }

    private AgentRun save(URI endpoint, String name, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "snapshot",
                "save",
                "--endpoints",
                endpoint.toString(),
                "--name",
                name,
                "--uid",
                "u-" + name,
                "--termination-log",
                tmp.resolve("x").toString()));
        args.addAll(List.of(more));
        return AgentRun.of(Map.of(), args.toArray(String[]::new));
    }
}
