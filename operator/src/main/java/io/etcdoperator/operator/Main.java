package io.etcdoperator.operator;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.operator.admission.WebhookOptions;
import io.etcdoperator.operator.cluster.ClusterReconcile;
import io.etcdoperator.operator.cluster.EtcdClusterReconciler;
import io.etcdoperator.operator.cluster.EtcdDialer;
import io.etcdoperator.operator.cluster.LeaseCheck;
import io.etcdoperator.operator.config.ClusterDomain;
import io.etcdoperator.operator.config.OperatorConfig;
import io.etcdoperator.operator.defrag.DefragReconcile;
import io.etcdoperator.operator.defrag.DefragScheduleReconcile;
import io.etcdoperator.operator.defrag.EtcdDefragReconciler;
import io.etcdoperator.operator.defrag.EtcdDefragScheduleReconciler;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.informer.ClientSerialization;
import io.etcdoperator.operator.informer.LeanItemStore;
import io.etcdoperator.operator.informer.PrimaryCopies;
import io.etcdoperator.operator.logs.LogConfiguration;
import io.etcdoperator.operator.member.EtcdMemberReconciler;
import io.etcdoperator.operator.member.MemberReconcile;
import io.etcdoperator.operator.metrics.ClusterMetrics;
import io.etcdoperator.operator.metrics.OperatorMeters;
import io.etcdoperator.operator.reads.CachePass;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.snapshot.EtcdSnapshotReconciler;
import io.etcdoperator.operator.snapshot.EtcdSnapshotScheduleReconciler;
import io.etcdoperator.operator.snapshot.ScheduleMetrics;
import io.etcdoperator.operator.snapshot.ScheduleReconcile;
import io.etcdoperator.operator.snapshot.SnapshotReconcile;
import io.etcdoperator.operator.snapshot.VerifyMetrics;
import io.etcdoperator.operator.threads.VirtualThreads;
import io.etcdoperator.operator.tls.CertManagerDiscovery;
import io.etcdoperator.snapshot.cli.AgentCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.Security;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The operator binary: configuration, clients, reconcilers, leader election, metrics and probes. No logic. */
@Command(
        name = "etcd-operator",
        mixinStandardHelpOptions = true,
        description = "Runs etcd clusters declared as etcd-operator.cozystack.io/v1alpha2 EtcdCluster resources.")
public final class Main implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    static final int LOST_LEASE_EXIT = 3;
    private static final AtomicBoolean SHUTTING_DOWN = new AtomicBoolean();

    @Option(names = "--metrics-bind-address", defaultValue = ":8080", description = "Prometheus /metrics address.")
    String metricsAddress;

    @Option(
            names = "--health-probe-bind-address",
            defaultValue = ":8081",
            description = "/healthz and /readyz address.")
    String probeAddress;

    @Option(names = "--leader-elect", description = "Elect a leader through a coordination.k8s.io Lease.")
    boolean leaderElect;

    @Option(
            names = "--leader-election-namespace",
            defaultValue = "${env:POD_NAMESPACE:-default}",
            description = "Namespace of the leader Lease (default: $POD_NAMESPACE, else default).")
    String leaseNamespace;

    @Option(
            names = "--cluster-domain",
            description = "Cluster DNS suffix (default: from /etc/resolv.conf, else cluster.local).")
    String clusterDomain;

    @Option(
            names = "--operator-image",
            defaultValue = "${env:OPERATOR_IMAGE}",
            description = "Image for agent Jobs and init containers.")
    String operatorImage;

    @Option(
            names = "--etcd-tools-dir",
            defaultValue = "${env:ETCD_TOOLS_DIR:-" + AgentImage.DEFAULT_TOOLS_DIR + "}",
            description =
                    "Directory of v<major.minor>/etcdctl|etcdutl inside the operator image, for restore init containers.")
    String etcdToolsDir;

    @Option(
            names = "--etcd-image-repository",
            defaultValue = "${env:ETCD_IMAGE_REPOSITORY:-quay.io/coreos/etcd}",
            description = "Repository of etcd images; the tag is v<spec.version>.")
    String etcdImageRepository;

    @Option(
            names = "--watch-namespace",
            defaultValue = "${env:WATCH_NAMESPACE}",
            description = "Comma-separated namespaces to watch (default: all).")
    String watchNamespace;

    @Option(
            names = "--member-min-ready-seconds",
            defaultValue = "10",
            description =
                    "How long a restarted member must " + "stay Ready before a roll restarts or removes the next one.")
    long memberMinReadySeconds;

    @CommandLine.Mixin
    WebhookOptions webhook = new WebhookOptions();

    @Option(
            names = "--log-format",
            defaultValue = "text",
            description = "Log lines as text or json (one object a line).")
    String logFormat;

    @Option(
            names = "--log-level",
            defaultValue = "info",
            description = "error, warn, info, debug or trace; libraries stay at warn unless debug or trace.")
    String logLevel;

    public static void main(String[] args) {
        // our LogContext names the resource of a reconcile; JOSDK's own seven resource.* MDC entries would repeat it on
        // every line. Read once, when JOSDK's MDCUtils loads: before any operator class.
        System.setProperty("JAVA_OPERATOR_SDK_USE_MDC", "false");
        // a new member's DNS name appears only once its Pod has an IP: the JDK's default 10 s negative cache (a
        // security
        // property, so -Dsun.net.inetaddr.negative.ttl cannot lower it) made every first dial of a new seed wait 10 s
        Security.setProperty("networkaddress.cache.negative.ttl", "0");
        System.exit(commandLine(System.getenv()).execute(args));
    }

    /** The operator, and the snapshot agent of Jobs and init containers as {@code etcd-operator agent snapshot ...}. */
    static CommandLine commandLine(Map<String, String> env) {
        return new CommandLine(new Main())
                .addSubcommand("agent", AgentCommand.commandLine(JetcdEtcdAdmin.FACTORY, env))
                .setExecutionExceptionHandler((ex, cmd, parsed) -> {
                    if (ex instanceof OperatorConfig.InvalidConfigException) {
                        cmd.getErr().println("etcd-operator: invalid configuration: " + ex.getMessage());
                        return 2;
                    }
                    throw ex;
                });
    }

    OperatorConfig config() {
        return new OperatorConfig(
                OperatorConfig.bindAddress("--metrics-bind-address", metricsAddress),
                OperatorConfig.bindAddress("--health-probe-bind-address", probeAddress),
                leaderElect,
                leaseNamespace,
                identity(),
                ClusterDomain.resolve(Optional.ofNullable(clusterDomain), Path.of("/etc/resolv.conf")),
                Optional.ofNullable(operatorImage).filter(s -> !s.isBlank()),
                etcdImageRepository,
                OperatorConfig.namespaces(watchNamespace),
                Duration.ofSeconds(memberMinReadySeconds));
    }

    /** The User-Agent of every request the operator sends to the API server. */
    public static final String USER_AGENT = "etcd-operator/"
            + Optional.ofNullable(Main.class.getPackage().getImplementationVersion())
                    .orElse("dev");

    /** JOSDK's settings: our client, metrics, virtual-thread reconcilers, the primaries' copies, the Lease. */
    private static void configure(
            ConfigurationServiceOverrider o,
            KubernetesClient client,
            PrometheusMeterRegistry registry,
            OperatorConfig config) {
        o.withKubernetesClient(client)
                .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
                .withCloseClientOnStop(false)
                .withResourceCloner(new PrimaryCopies())
                .withExecutorService(
                        VirtualThreads.reconcilers(ConfigurationService.DEFAULT_RECONCILIATION_THREADS_NUMBER));
        if (config.leaderElection()) {
            o.withLeaderElectionConfiguration(LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(
                            OperatorConfig.LEASE_NAME)
                    .withLeaseNamespace(config.leaseNamespace())
                    .withIdentity(config.identity())
                    .withExitOnStopLeading(false) // JOSDK's exit would block inside our shutdown hook; see lostLease
                    .withLeaderCallbacks(new LeaderCallbacks(() -> {}, Main::lostLease, leader -> {}))
                    .build());
        }
    }

    @Override
    public Integer call() throws Exception {
        LogConfiguration.of(logFormat, logLevel).apply();
        OperatorConfig config = config();
        // its own user agent: audit logs and API priority rules can tell its requests from any other fabric8 client's
        Config kubeConfig = new ConfigBuilder(Config.autoConfigure(null))
                .withUserAgent(USER_AGENT)
                .build();
        KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(kubeConfig)
                .withHttpClientFactory(new KubernetesHttp(kubeConfig.getTlsVersions()))
                .withKubernetesSerialization(ClientSerialization.create())
                .withHttpClientBuilderConsumer(CachePass::guard)
                .build();
        var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        OperatorMeters.bindTo(registry);
        var running = new Operator(o -> configure(o, client, registry, config));
        register(
                running,
                client,
                config,
                new ClusterMetrics(registry.getPrometheusRegistry()),
                JetcdEtcdAdmin.FACTORY,
                registry,
                config.operatorImage().map(image -> new AgentImage(image, etcdToolsDir)));
        var stopped = new CountDownLatch(1);
        try (var endpoints = new OperatorEndpoints(
                        config.metricsAddress(),
                        config.probeAddress(),
                        registry,
                        () -> Liveness.of(running.getRuntimeInfo()),
                        () -> running.getRuntimeInfo().isStarted());
                var webhookServer =
                        webhook.start(client, config.watchNamespaces()).orElse(null)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                SHUTTING_DOWN.set(true);
                LOG.atInfo().log(
                        "etcd-operator is shutting down"); // our own line: JOSDK's is below the libraries' level
                running.stop();
                stopped.countDown();
            }));
            running.start();
            LOG.atInfo()
                    .addKeyValue("leaderElection", config.leaderElection())
                    .addKeyValue("namespaces", config.watchNamespaces().isEmpty() ? "all" : config.watchNamespaces())
                    .addKeyValue("metricsPort", endpoints.metricsPort())
                    .addKeyValue("probePort", endpoints.probePort())
                    .addKeyValue("webhookPort", webhookServer == null ? "off" : webhookServer.port())
                    .log("etcd-operator started");
            stopped.await();
        }
        return 0;
    }

    /**
     * Leadership lost while running (the Lease was taken or could not be renewed): stop at once, before another
     * replica's passes and ours write side by side. A Lease released by our own shutdown is no loss.
     */
    private static void lostLease() {
        if (SHUTTING_DOWN.get()) {
            return;
        }
        LOG.atError().addKeyValue("exitCode", LOST_LEASE_EXIT).log("lost the leader Lease; exiting at once");
        Runtime.getRuntime().halt(LOST_LEASE_EXIT);
    }

    /** Registers the controllers with throwaway snapshot metrics and the default tools directory. */
    public static void register(
            Operator operator,
            KubernetesClient client,
            OperatorConfig config,
            ClusterMetrics metrics,
            EtcdAdmin.Factory etcd) {
        register(
                operator,
                client,
                config,
                metrics,
                etcd,
                new SimpleMeterRegistry(),
                config.operatorImage().map(image -> new AgentImage(image, AgentImage.DEFAULT_TOOLS_DIR)));
    }

    /** Registers every controller; shared with tests that run the operator in-process. */
    public static void register(
            Operator operator,
            KubernetesClient client,
            OperatorConfig config,
            ClusterMetrics metrics,
            EtcdAdmin.Factory etcd,
            MeterRegistry registry,
            Optional<AgentImage> agent) {
        Clock clock = Clock.systemUTC();
        var events = new EventRecorder(client, config.identity(), clock);
        var dialer = new EtcdDialer(client, etcd, Duration.ofSeconds(5));
        Set<String> namespaces = config.watchNamespaces().isEmpty()
                ? Set.of(Constants.WATCH_ALL_NAMESPACES)
                : Set.copyOf(config.watchNamespaces());
        var lease = config.leaderElection()
                ? LeaseCheck.of(client, config.leaseNamespace(), OperatorConfig.LEASE_NAME, config.identity(), clock)
                : LeaseCheck.NONE;
        var cachePass = CachePass.on(client, registry);
        var clusterPass = new ClusterReconcile(
                client,
                dialer,
                events,
                metrics,
                clock,
                CertManagerDiscovery.installed(client),
                config.clusterDomain(),
                lease,
                cachePass,
                config.memberMinReady());
        register(operator, new EtcdClusterReconciler(clusterPass, client, events, clock), namespaces);
        register(
                operator,
                new EtcdMemberReconciler(
                        new MemberReconcile(client, dialer, events, config, clock, agent),
                        clusterPass::caches,
                        clusterPass::readMembersFrom,
                        cachePass),
                namespaces);
        Optional<String> image = agent.map(AgentImage::image);
        register(
                operator,
                new EtcdSnapshotReconciler(
                        new SnapshotReconcile(client, agent, events, clock, new VerifyMetrics(registry))),
                namespaces);
        register(
                operator,
                new EtcdSnapshotScheduleReconciler(
                        new ScheduleReconcile(client, image, events, new ScheduleMetrics(registry), clock)),
                namespaces);
        register(operator, new EtcdDefragReconciler(new DefragReconcile(client, events, clock)), namespaces);
        register(
                operator,
                new EtcdDefragScheduleReconciler(new DefragScheduleReconcile(client, events, clock)),
                namespaces);
    }

    private static <R extends HasMetadata> void register(
            Operator operator, Reconciler<R> reconciler, Set<String> namespaces) {
        operator.register(reconciler, o -> o.settingNamespaces(namespaces).withItemStore(new LeanItemStore<>()));
    }

    private static String identity() {
        String pod = System.getenv("POD_NAME");
        if (pod != null && !pod.isBlank()) {
            return pod;
        }
        try {
            return InetAddress.getLocalHost().getHostName() + "-"
                    + ProcessHandle.current().pid();
        } catch (UnknownHostException e) {
            return "etcd-operator-" + ProcessHandle.current().pid();
        }
    }
}
