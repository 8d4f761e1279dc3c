package io.etcdoperator.snapshot.cli;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The agent the operator runs in Jobs and init containers ({@code etcd-operator agent snapshot save|restore|delete}).
 * It talks to etcd and to the snapshot store only, never to the Kubernetes API; its outcome is one JSON line.
 */
@Command(
        name = "agent",
        mixinStandardHelpOptions = true,
        subcommands = SnapshotCommand.class,
        description = "Snapshot agent: save etcd snapshots to S3 or a directory, restore them into a data directory.")
public final class AgentCommand {

    final EtcdAdmin.Factory etcd;
    final Map<String, String> env;

    public AgentCommand(EtcdAdmin.Factory etcd, Map<String, String> env) {
        this.etcd = etcd;
        this.env = Map.copyOf(env);
    }

    public static void main(String[] args) {
        System.exit(execute(
                JetcdEtcdAdmin.FACTORY,
                System.getenv(),
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                args));
    }

    /** Runs one agent command line; 0 on success, 1 when the run failed (see the JSON line), 2 on a usage error. */
    public static int execute(EtcdAdmin.Factory etcd, Map<String, String> env, PrintWriter out, String... args) {
        return commandLine(etcd, env).setOut(out).execute(args);
    }

    public static CommandLine commandLine(EtcdAdmin.Factory etcd, Map<String, String> env) {
        return new CommandLine(new AgentCommand(etcd, env));
    }
}
