package io.etcdoperator.snapshot.cli;

import io.etcdoperator.snapshot.SnapshotFailure;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
        name = "snapshot",
        mixinStandardHelpOptions = true,
        subcommands = {SaveCommand.class, RestoreCommand.class, VerifyCommand.class, DeleteCommand.class},
        description = "Save, restore, verify or delete one etcd snapshot.")
final class SnapshotCommand {

    @ParentCommand
    AgentCommand agent;

    /** Shared by the three commands: run, turn a failure into its JSON line, report, pick the exit code. */
    abstract static class Run implements Callable<Integer> {

        @ParentCommand
        SnapshotCommand parent;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--termination-log",
                defaultValue = "/dev/termination-log",
                description = "Also write the result here when the file exists (Kubernetes termination message).")
        Path terminationLog;

        @Override
        public Integer call() {
            AgentResult result;
            try {
                result = run();
            } catch (SnapshotFailure failure) {
                result = AgentResult.failed(failure);
            } catch (RuntimeException unexpected) {
                unexpected.printStackTrace(spec.commandLine().getErr());
                result = AgentResult.failed(new SnapshotFailure(
                        SnapshotFailure.Reason.INTERNAL_ERROR,
                        unexpected.getClass().getSimpleName()
                                + (unexpected.getMessage() == null ? "" : ": " + unexpected.getMessage()),
                        unexpected));
            }
            result.report(spec.commandLine().getOut(), terminationLog);
            return result.success() ? 0 : 1;
        }

        abstract AgentResult run();

        AgentCommand agent() {
            return parent.agent;
        }
    }
}
