package io.etcdoperator.kubectl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds the release archive with hack/kubectl-etcd-dist.sh (about 25 s, most of it jlink), unpacks it and runs the
 * launchers where no java is on PATH: what someone without a JDK gets. The class path packaged is the plugin's
 * target/classes plus the runtime class path Maven wrote to target/runtime-classpath.txt.
 */
class DistributionTest {

    private static final String VERSION = "0.0.0-test";
    private static final String NAME = "kubectl-etcd-" + VERSION + "-linux-amd64";

    @TempDir
    static Path unpacked;

    private static Path archive;
    private static Path out;
    private static Path home;
    private static String buildLog;

    @BeforeAll
    static void buildAndUnpack() throws Exception {
        assumeTrue(
                System.getProperty("os.name").equals("Linux")
                        && System.getProperty("os.arch").equals("amd64"),
                "the archive is built for linux-amd64 on linux-amd64");
        Path module = Path.of("").toAbsolutePath();
        Path classpathFile = module.resolve("target/runtime-classpath.txt");
        assumeTrue(Files.exists(classpathFile), "run through Maven: it writes target/runtime-classpath.txt");
        out = module.resolve("target/dist-test");
        String classpath = module.resolve("target/classes") + ":"
                + Files.readString(classpathFile).strip();
        Result build = run(
                module.getParent(),
                env -> env.putAll(Map.of(
                        "KUBECTL_ETCD_CLASSPATH",
                        classpath,
                        "KUBECTL_ETCD_DIST_OUT",
                        out.toString(),
                        "JAVA_HOME",
                        System.getProperty("java.home"))),
                300,
                "bash",
                "hack/kubectl-etcd-dist.sh",
                VERSION);
        buildLog = build.err();
        assertThat(build.code()).as(build.err()).isZero();
        archive = out.resolve(NAME + ".tar.gz");
        assertThat(build.out().strip()).isEqualTo(archive.toString());
        assertThat(run(unpacked, env -> {}, 60, "tar", "-xzf", archive.toString())
                        .code())
                .isZero();
        home = unpacked.toRealPath().resolve(NAME);
    }

    @Test
    void theBuildSaysHowBigTheArchiveIs() throws IOException {
        assertThat(buildLog)
                .containsPattern(
                        "built " + NAME + "\\.tar\\.gz in \\d+ s: \\d+ MiB \\(" + Files.size(archive) + " bytes\\)");
    }

    @Test
    void theArchiveHoldsAMinimalRuntimeTheJarsAndTheLaunchers() {
        assertThat(home.resolve("runtime/bin/java")).isExecutable();
        assertThat(home.resolve("runtime/include")).as("--no-header-files").doesNotExist();
        assertThat(home.resolve("runtime/man")).as("--no-man-pages").doesNotExist();
        assertThat(home.resolve("runtime/jmods")).doesNotExist();
        assertThat(home.resolve("lib/kubectl-etcd-" + VERSION + ".jar")).isRegularFile();
        // the reactor module: its classes jarred as etcd-client.jar (mvn test), or its own jar (mvn verify, as in CI)
        assertThat(home.resolve("lib").toFile().list())
                .as("the etcd-client module in lib/")
                .anyMatch(f -> f.equals("etcd-client.jar") || f.matches("etcd-operator-etcd-client-.*\\.jar"));
        assertThat(home.resolve("kubectl-etcd")).isExecutable();
        assertThat(home.resolve("kubectl_complete-etcd")).isExecutable();
        assertThat(home.resolve("LICENSE")).isRegularFile();
    }

    @Test
    void helpRunsWithoutAJavaOnPath() throws Exception {
        assertThat(run(home, DistributionTest::withoutJava, 30, "sh", "-c", "command -v java")
                        .code())
                .as("no java to fall back on")
                .isNotZero();
        // from another directory, so a launcher that fell back to the working directory would fail
        Result help = run(unpacked, DistributionTest::withoutJava, 60, NAME + "/kubectl-etcd", "--help");
        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).startsWith("Usage: kubectl-etcd").contains("status", "members", "completion", "version");
    }

    @Test
    void versionNamesTheArchiveVersionAndTheBundledRuntime() throws Exception {
        Result version = run(unpacked, DistributionTest::withoutJava, 60, NAME + "/kubectl-etcd", "version");
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out())
                .startsWith("kubectl-etcd " + VERSION + "\njava ")
                .endsWith("(" + home.resolve("runtime") + ")\n");
    }

    @Test
    void aLinkOnPathFindsTheRuntimeNextToTheTarget() throws Exception {
        // krew and `ln -s` put a link on PATH; the launcher must follow it to runtime/ and lib/
        Path bin = Files.createDirectories(unpacked.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("kubectl-etcd"), home.resolve("kubectl-etcd"));
        Result version = run(
                unpacked,
                env -> {
                    withoutJava(env);
                    env.put("PATH", bin + ":" + env.get("PATH"));
                },
                60,
                "sh",
                "-c",
                "kubectl-etcd version"); // the shell, not this JVM, looks the name up on PATH
        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("kubectl-etcd " + VERSION);
    }

    @Test
    void kubectlsCompletionHelperAnswersInItsProtocol() throws Exception {
        Result completion = run(unpacked, DistributionTest::withoutJava, 60, NAME + "/kubectl_complete-etcd", "st");
        assertThat(completion.code()).as(completion.err()).isZero();
        assertThat(completion.out()).isEqualTo("status\n:4\n");
    }

    @Test
    void theKrewManifestPointsAtThisArchive() throws Exception {
        String manifest = Files.readString(out.resolve("etcd.yaml"));
        String sha256 =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(archive)));
        assertThat(manifest)
                .contains(
                        "kind: Plugin",
                        "version: v" + VERSION,
                        "sha256: " + sha256,
                        "/v" + VERSION + "/" + NAME + ".tar.gz",
                        "from: " + NAME + "/*")
                .doesNotContain("{{");
    }

    /**
     * No JAVA_HOME, and every PATH directory that holds a java replaced by a copy of it (links) without the java:
     * /usr/bin has the machine's java and also sh, readlink and the rest a launcher may need.
     */
    private static void withoutJava(Map<String, String> env) {
        env.keySet().removeAll(List.of("JAVA_HOME", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"));
        env.put(
                "PATH",
                Arrays.stream(env.getOrDefault("PATH", "/usr/bin:/bin").split(":"))
                        .filter(d -> !d.isEmpty())
                        .map(d -> Files.exists(Path.of(d, "java"))
                                ? withoutJava(Path.of(d)).toString()
                                : d)
                        .collect(Collectors.joining(":")));
    }

    private static Path withoutJava(Path dir) {
        Path copy = unpacked.resolve("path" + dir.toString().replace('/', '_'));
        if (Files.exists(copy)) {
            return copy;
        }
        try (var files = Files.list(dir)) {
            Files.createDirectories(copy);
            for (Path file : files.filter(f -> !f.getFileName().toString().equals("java"))
                    .toList()) {
                Files.createSymbolicLink(copy.resolve(file.getFileName()), file);
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private record Result(int code, String out, String err) {}

    /** Runs the command in dir with this JVM's environment as {@code environment} changes it. */
    private static Result run(Path dir, Consumer<Map<String, String>> environment, int seconds, String... command)
            throws Exception {
        ProcessBuilder builder = new ProcessBuilder(List.of(command)).directory(dir.toFile());
        environment.accept(builder.environment());
        Path stdout = Files.createTempFile("dist", ".out");
        Path stderr = Files.createTempFile("dist", ".err");
        Process process = builder.redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within " + seconds + " s");
        }
        try {
            return new Result(
                    process.exitValue(),
                    Files.readString(stdout, StandardCharsets.UTF_8),
                    Files.readString(stderr, StandardCharsets.UTF_8));
        } finally {
            Files.delete(stdout);
            Files.delete(stderr);
        }
    }
}
