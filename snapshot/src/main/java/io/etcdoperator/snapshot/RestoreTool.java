package io.etcdoperator.snapshot;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The etcd binary that turns a snapshot file into a data directory: {@code etcdctl snapshot restore} up to etcd 3.4,
 * {@code etcdutl snapshot restore} from 3.5 (where etcdctl's variant is deprecated). The tool must match the target
 * minor version, since it writes that version's on-disk format.
 */
public record RestoreTool(Path executable, Kind kind) {

    public enum Kind {
        ETCDCTL,
        ETCDUTL
    }

    /**
     * Added to the restored revision, with the new revision marked compacted: Kubernetes watchers that saw revisions
     * written after the snapshot must get "compacted" and re-list, not silently miss events (kubernetes#118501). A
     * billion covers 1000 writes/s for 11 days; revisions are int64, so 9e9 restores still fit.
     */
    public static final long REVISION_BUMP = 1_000_000_000L;

    private static final Pattern VERSION = Pattern.compile("v?(\\d+)\\.(\\d+)(\\.\\d+)?");
    private static final int OUTPUT_LIMIT = 4096;

    /** The tool for an etcd version below a tools directory laid out as {@code <dir>/v<major>.<minor>/<tool>}. */
    public static RestoreTool forVersion(String etcdVersion, Path toolsDir) {
        Matcher m = VERSION.matcher(etcdVersion == null ? "" : etcdVersion.strip());
        if (!m.matches()) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.INVALID_REQUEST, "not an etcd version: '" + etcdVersion + "'");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        Kind kind = major > 3 || (major == 3 && minor >= 5) ? Kind.ETCDUTL : Kind.ETCDCTL;
        return new RestoreTool(toolsDir.resolve("v" + major + "." + minor).resolve(fileName(kind)), kind);
    }

    /** A tool named by path; etcdutl if the file is called so, else etcdctl. */
    public static RestoreTool at(Path executable) {
        return new RestoreTool(
                executable, executable.getFileName().toString().startsWith("etcdutl") ? Kind.ETCDUTL : Kind.ETCDCTL);
    }

    /** Fails before any download when the tool is missing: a bad image should not cost a 2 GiB transfer first. */
    public void requireExecutable() {
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.RESTORE_TOOL_FAILED,
                    "restore tool " + executable + " is missing or not executable");
        }
    }

    public List<String> command(Path snapshot, Path outputDir, RestoreTarget target) {
        List<String> command = new ArrayList<>(List.of(
                executable.toString(),
                "snapshot",
                "restore",
                snapshot.toString(),
                "--name",
                target.memberName(),
                "--data-dir",
                outputDir.toString(),
                "--initial-cluster",
                target.initialCluster(),
                "--initial-cluster-token",
                target.clusterToken(),
                "--initial-advertise-peer-urls",
                target.peerUrls()));
        if (revisionBump() > 0) {
            command.addAll(List.of("--bump-revision", Long.toString(revisionBump()), "--mark-compacted"));
        }
        return command;
    }

    /** etcdctl 3.4 has no --bump-revision (etcdutl 3.5.8+ does): a 3.4 restore keeps the snapshot's revision. */
    public long revisionBump() {
        return kind == Kind.ETCDUTL ? REVISION_BUMP : 0;
    }

    void run(Path snapshot, Path outputDir, RestoreTarget target, Duration within) {
        exec(command(snapshot, outputDir, target), within);
    }

    /** {@code snapshot status -w json} of a snapshot file or a data dir's {@code member/snap/db}. */
    public DbStatus status(Path db, Duration within) {
        String output = exec(List.of(executable.toString(), "snapshot", "status", db.toString(), "-w", "json"), within);
        return DbStatus.parse(output)
                .orElseThrow(() -> new SnapshotFailure(
                        SnapshotFailure.Reason.RESTORE_TOOL_FAILED,
                        executable + " snapshot status printed no hash, revision and totalKey: " + output.strip()));
    }

    /** Runs the tool; returns the first 4 KiB of its output, which is also what a failure's message carries. */
    private String exec(List<String> command, Duration within) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ETCDCTL_API", "3");
        try {
            Process process = builder.start();
            // read beside the wait: a tool that hangs with its output open must still meet the deadline
            FutureTask<byte[]> reading = new FutureTask<>(() -> drain(process));
            Thread.ofVirtual().start(reading);
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new SnapshotFailure(
                        SnapshotFailure.Reason.RESTORE_TOOL_FAILED, executable + " did not finish within " + within);
            }
            String text = new String(output(reading), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new SnapshotFailure(
                        SnapshotFailure.Reason.RESTORE_TOOL_FAILED,
                        executable + " exited with " + process.exitValue() + ": " + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.RESTORE_TOOL_FAILED, "cannot run " + executable + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SnapshotFailure(
                    SnapshotFailure.Reason.RESTORE_TOOL_FAILED, "interrupted while running " + executable, e);
        }
    }

    private static byte[] drain(Process process) throws IOException {
        byte[] output = process.getInputStream().readNBytes(OUTPUT_LIMIT);
        process.getInputStream().transferTo(OutputStream.nullOutputStream());
        return output;
    }

    private static byte[] output(FutureTask<byte[]> reading) throws IOException, InterruptedException {
        try {
            return reading.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    private static String fileName(Kind kind) {
        return kind == Kind.ETCDUTL ? "etcdutl" : "etcdctl";
    }
}
