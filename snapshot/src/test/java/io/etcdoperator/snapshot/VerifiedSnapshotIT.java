package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real etcd 3.5.16 and etcdutl: the agent saves a snapshot recording its status, verifies it (passes), then the
 * stored file's bytes are flipped and verification fails, first on the sha256, then (with the record forged to
 * match) on etcd's own hash inside the restore.
 */
class VerifiedSnapshotIT {

    private static final EtcdRelease RELEASE = EtcdRelease.V3_5_16;

    @TempDir
    Path tmp;

    @Test
    void aStoredSnapshotVerifiesAndAFlippedOneDoesNot() throws Exception {
        AgentRun saved = save(300, 1024, List.of());
        assertThat(saved.exitCode()).as(saved.json()).isZero();
        assertThat(Long.parseLong(saved.field("dbRevision"))).isEqualTo(Long.parseLong(saved.field("revision")));
        assertThat(Long.parseLong(saved.field("dbTotalKeys"))).isGreaterThanOrEqualTo(300);
        assertThat(Files.list(tmp.resolve("scratch-save")).toList())
                .as("the save's copy is deleted")
                .isEmpty();

        AgentRun verified = verify(saved, List.of());
        assertThat(verified.exitCode()).as(verified.json()).isZero();
        assertThat(verified.field("result")).isEqualTo("verified");
        assertThat(verified.field("dbHash")).isEqualTo(saved.field("dbHash"));
        assertThat(Long.parseLong(verified.field("restoredRevision")))
                .isEqualTo(Long.parseLong(saved.field("dbRevision")) + RestoreTool.REVISION_BUMP);
        assertThat(Files.list(tmp.resolve("scratch-verify")).toList())
                .as("scratch emptied")
                .isEmpty();

        Path stored = tmp.resolve("pvc").resolve("nightly.db");
        flip(stored, Files.size(stored) / 2);
        AgentRun tampered = verify(saved, List.of());
        assertThat(tampered.exitCode()).isEqualTo(1);
        assertThat(tampered.field("reason")).isEqualTo("ChecksumMismatch");

        // the bytes and the record altered together: only etcd's own checks are left to notice
        Files.writeString(
                tmp.resolve("pvc").resolve("nightly.db.sha256"),
                "sha256:" + Sha256.of(Files.readAllBytes(stored)) + " " + Files.size(stored));
        AgentRun forged = verify(saved, List.of());
        assertThat(forged.exitCode()).as(forged.json()).isEqualTo(1);
        assertThat(forged.field("reason")).isEqualTo("RestoreToolFailed");
        assertThat(Files.list(tmp.resolve("scratch-verify")).toList())
                .as("scratch emptied after a failure")
                .isEmpty();
    }

    @Test
    void anEncryptedSnapshotVerifiesWithItsKeyAndNamesTheNumbersItWasGiven() throws Exception {
        Path keys = Files.createDirectories(tmp.resolve("keys"));
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.writeString(keys.resolve("2025-01"), Base64.getEncoder().encodeToString(key));
        AgentRun saved =
                save(50, 256, List.of("--encryption-key-dir", keys.toString(), "--encryption-key-id", "2025-01"));
        assertThat(saved.exitCode()).as(saved.json()).isZero();

        assertThat(verify(saved, List.of("--encryption-key-dir", keys.toString()))
                        .exitCode())
                .isZero();
        AgentRun wrongNumbers = AgentRun.of(
                Map.of(),
                concat(
                                verifyArgs(List.of("--encryption-key-dir", keys.toString())),
                                List.of(
                                        "--expect-hash",
                                        "1",
                                        "--expect-revision",
                                        saved.field("dbRevision"),
                                        "--expect-total-keys",
                                        saved.field("dbTotalKeys")))
                        .toArray(String[]::new));
        assertThat(wrongNumbers.field("reason")).isEqualTo("VerificationFailed");
        assertThat(wrongNumbers.field("message")).contains("but the save recorded 1");
    }

    /** One run of the documented measurement, encrypted: -Dverify.large.mib=1024 (skipped without it). */
    @Test
    void measureTheVerifyOfALargeSnapshot() throws Exception {
        int mib = Integer.getInteger("verify.large.mib", 0);
        Assumptions.assumeTrue(mib > 0, "set -Dverify.large.mib to measure");
        var member = EtcdServer.Member.reserve("big");
        List<String> saveArgs;
        try (var etcd = EtcdServer.start(
                        RELEASE,
                        member,
                        tmp.resolve("big"),
                        "big-token",
                        "--quota-backend-bytes",
                        Long.toString(4L << 30));
                var keys = new Keys(etcd.clientUrl())) {
            keys.fill("/big/", mib * 64, 16 * 1024);
            Path keyDir = Files.createDirectories(tmp.resolve("keys"));
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            Files.writeString(keyDir.resolve("2025-01"), Base64.getEncoder().encodeToString(key));
            saveArgs = saveArgs(
                    etcd, List.of("--encryption-key-dir", keyDir.toString(), "--encryption-key-id", "2025-01"));
            AgentProcess save = AgentProcess.run("128m", Map.of(), saveArgs);
            assertThat(save.exitCode()).as(save.output()).isZero();
            AgentRun saved = new AgentRun(0, save.json());
            AgentProcess verify = AgentProcess.run(
                    "128m", Map.of(), verifyArgs(saved, List.of("--encryption-key-dir", keyDir.toString())));
            assertThat(verify.exitCode()).as(verify.output()).isZero();
            String line = String.format(
                    "encrypted save of a %d MiB snapshot (%s keys, status recorded): %.1f s wall, peak RSS %d MiB; "
                            + "its verify (fetch, decrypt, restore, compare): %.1f s wall, agent says %s ms, peak "
                            + "RSS %d MiB; agent heap -Xmx128m",
                    Files.size(tmp.resolve("pvc").resolve("nightly.db")) >> 20,
                    saved.field("dbTotalKeys"),
                    save.elapsed().toMillis() / 1e3,
                    save.peakRssBytes() >> 20,
                    verify.elapsed().toMillis() / 1e3,
                    new AgentRun(0, verify.json()).field("tookMillis"),
                    verify.peakRssBytes() >> 20);
            System.out.println(line);
            Files.writeString(Path.of("target", "verify-size-" + mib + ".txt"), line + "\n");
        }
    }

    private AgentRun save(int count, int valueBytes, List<String> extra) {
        var member = EtcdServer.Member.reserve("source");
        try (var etcd = EtcdServer.start(RELEASE, member, tmp.resolve("source"), "old-token");
                var keys = new Keys(etcd.clientUrl())) {
            keys.fill("/k/", count, valueBytes);
            return AgentRun.of(Map.of(), saveArgs(etcd, extra).toArray(String[]::new));
        }
    }

    private List<String> saveArgs(EtcdServer etcd, List<String> extra) {
        return concat(
                List.of(
                        "snapshot",
                        "save",
                        "--endpoints",
                        etcd.clientUrl().toString(),
                        "--name",
                        "nightly",
                        "--uid",
                        "u1",
                        "--dir",
                        tmp.resolve("pvc").toString(),
                        "--tool",
                        RELEASE.restoreTool().toString(),
                        "--status-scratch-dir",
                        tmp.resolve("scratch-save").toString(),
                        "--termination-log",
                        tmp.resolve("no-log").toString()),
                extra);
    }

    private AgentRun verify(AgentRun saved, List<String> extra) {
        return AgentRun.of(Map.of(), verifyArgs(saved, extra).toArray(String[]::new));
    }

    private List<String> verifyArgs(AgentRun saved, List<String> extra) {
        return concat(
                verifyArgs(extra),
                List.of(
                        "--expect-hash",
                        saved.field("dbHash"),
                        "--expect-revision",
                        saved.field("dbRevision"),
                        "--expect-total-keys",
                        saved.field("dbTotalKeys")));
    }

    private List<String> verifyArgs(List<String> extra) {
        return concat(
                List.of(
                        "snapshot",
                        "verify",
                        "--key",
                        "nightly.db",
                        "--dir",
                        tmp.resolve("pvc").toString(),
                        "--tool",
                        RELEASE.restoreTool().toString(),
                        "--scratch-dir",
                        tmp.resolve("scratch-verify").toString(),
                        "--termination-log",
                        tmp.resolve("no-log").toString()),
                extra);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void flip(Path file, long at) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.allocate(16);
            channel.read(bytes, at);
            for (int i = 0; i < bytes.limit(); i++) {
                bytes.put(i, (byte) ~bytes.get(i));
            }
            bytes.rewind();
            channel.write(bytes, at);
        }
    }
}
