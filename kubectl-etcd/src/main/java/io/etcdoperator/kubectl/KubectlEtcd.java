package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.EtcdException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl etcd}: day-2 commands against one member of an etcd cluster, reached through the API server with a
 * port forward. Exit codes: 0 done, 1 failed (the message says why), 2 wrong usage.
 */
@Command(
        name = "kubectl-etcd",
        mixinStandardHelpOptions = true,
        versionProvider = KubectlEtcd.Version.class,
        subcommands = {
            MaintenanceCommands.Status.class,
            MaintenanceCommands.Endpoints.class,
            MemberCommands.Members.class,
            MaintenanceCommands.Defrag.class,
            MaintenanceCommands.Compact.class,
            AlarmCommands.class,
            MemberCommands.ForfeitLeadership.class,
            MemberCommands.Leave.class,
            MemberCommands.RemoveMember.class,
            MemberCommands.AddMember.class,
            MemberCommands.Promote.class,
            MaintenanceCommands.Snapshot.class,
            VersionCommand.class,
            Completion.class,
            CommandLine.HelpCommand.class
        },
        description = "Day-2 work on an etcd member through the API server (kubectl etcd ... -p POD).")
public final class KubectlEtcd {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-n", "--namespace"},
            scope = ScopeType.INHERIT,
            description = "Namespace of the pod (default: the kubeconfig context's, else default).")
    String namespace;

    @Option(
            names = {"-p", "--pod"},
            scope = ScopeType.INHERIT,
            description = "The etcd member pod (required).")
    String pod;

    @Option(
            names = {"-k", "--kubeconfig"},
            scope = ScopeType.INHERIT,
            description = "Path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config).")
    String kubeconfig;

    @Option(names = "--context", scope = ScopeType.INHERIT, description = "The kubeconfig context to use.")
    String context;

    @Option(
            names = {"-s", "--credentials-secret"},
            scope = ScopeType.INHERIT,
            description =
                    "Basic-auth Secret NAME or NAMESPACE/NAME with the etcd user (default user root) and password "
                            + "(default: the cluster's spec.auth.rootCredentialsSecretRef when auth is enabled).")
    String credentialsSecret;

    @Option(
            names = "--timeout",
            scope = ScopeType.INHERIT,
            converter = DurationConverter.class,
            description = "Give up after this long, e.g. 30s, 2m (default: 30s; defrag 2m; snapshot 5m).")
    Duration timeout;

    /** Builds the client from the flags; a test seam, since tests hand in their own cluster's client. */
    Function<KubectlEtcd, KubernetesClient> kubeClients = KubectlEtcd::kubeClient;

    private boolean ownsClient = true;

    public static void main(String[] args) {
        // a CLI prints its own messages; library warnings (jetcd retries, port-forward closes) only with -D...=warn
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        }
        CommandLine line = commandLine(new KubectlEtcd());
        // kubectl's completion protocol, not a command: its words are partial and must not be parsed as flags
        int code = args.length > 0 && args[0].equals(Completion.COMPLETE)
                ? Completion.complete(line, Arrays.asList(args).subList(1, args.length), line.getOut())
                : line.execute(args);
        line.getOut().flush(); // System.exit does not flush what print() left in the writers
        line.getErr().flush();
        System.exit(code);
    }

    /** Runs one command line in this JVM against a client the caller keeps (end-to-end tests); returns the exit code. */
    public static int execute(KubernetesClient kube, PrintWriter out, PrintWriter err, String... args) {
        KubectlEtcd root = new KubectlEtcd();
        root.kubeClients = flags -> kube;
        root.ownsClient = false;
        CommandLine line = commandLine(root);
        line.setOut(out);
        line.setErr(err);
        return line.execute(args);
    }

    static CommandLine commandLine(KubectlEtcd root) {
        CommandLine line = new CommandLine(root);
        line.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + message(e));
            cmd.getErr().flush();
            return 1;
        });
        return line;
    }

    /** Opens the session to the {@code -p} pod and runs the action within the timeout; the session is always closed. */
    int run(String command, Duration defaultTimeout, SessionAction action) {
        if (pod == null || pod.isBlank()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "you must specify the pod with -p/--pod");
        }
        Duration limit = timeout != null ? timeout : defaultTimeout;
        return within(command, limit, () -> {
            KubernetesClient kube = kubeClients.apply(this);
            try (MemberSession session = MemberSession.open(kube, namespace(kube), pod, credentialsSecret, limit)) {
                return action.run(session);
            } finally {
                if (ownsClient) {
                    kube.close();
                }
            }
        });
    }

    /** Runs the work on its own thread and stops waiting after the limit (a blocked RPC may ignore interrupts). */
    static int within(String command, Duration limit, Callable<Integer> work) {
        FutureTask<Integer> task = new FutureTask<>(work);
        Thread worker = Thread.ofVirtual().name("kubectl-etcd " + command).start(task);
        try {
            return task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            worker.interrupt();
            throw new PluginException(command + " did not finish within " + text(limit)
                    + " (raise it with --timeout, or check the member and the API server)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new PluginException(message(e.getCause()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.interrupt();
            throw new PluginException(command + " was interrupted", e);
        }
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    private String namespace(KubernetesClient kube) {
        if (namespace != null) {
            return namespace;
        }
        String fromContext = kube.getConfiguration().getNamespace();
        return fromContext == null || fromContext.isBlank() ? "default" : fromContext;
    }

    private static KubernetesClient kubeClient(KubectlEtcd flags) {
        if (flags.kubeconfig != null) {
            if (!Files.isReadable(Path.of(flags.kubeconfig))) {
                throw new PluginException("kubeconfig " + flags.kubeconfig + " does not exist or cannot be read");
            }
            System.setProperty(Config.KUBERNETES_KUBECONFIG_FILE, flags.kubeconfig);
        }
        return new KubernetesClientBuilder()
                .withConfig(Config.autoConfigure(flags.context))
                .build();
    }

    static String message(Throwable e) {
        if (e instanceof KubernetesClientException k) {
            return "Kubernetes API: " + MemberSession.reason(k);
        }
        if (e instanceof EtcdException || e instanceof PluginException) {
            return e.getMessage();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    static String text(Duration duration) {
        return duration.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    /** One command's work on an open session; returns the exit code. */
    @FunctionalInterface
    interface SessionAction {
        int run(MemberSession session) throws Exception;
    }

    /** 30s, 2m, 1h, 500ms, or an ISO-8601 duration. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            Duration d;
            if (v.startsWith("pt")) {
                d = Duration.parse(v);
            } else if (v.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("h")) {
                d = Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            } else {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration like 30s, 2m or 1h");
            }
            if (d.isNegative() || d.isZero()) {
                throw new CommandLine.TypeConversionException("the timeout must be positive, not " + value);
            }
            return d;
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = KubectlEtcd.class.getPackage().getImplementationVersion();
            return new String[] {"kubectl-etcd " + (v == null ? "(development build)" : v)};
        }
    }
}
