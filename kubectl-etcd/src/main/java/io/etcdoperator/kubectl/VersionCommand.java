package io.etcdoperator.kubectl;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code kubectl etcd version}: the plugin's version and the Java runtime running it, so a bug report says whether
 * the bundled runtime of a release archive or a local JDK ran the plugin.
 */
@Command(name = "version", description = "Print the plugin's version and the Java runtime it runs on.")
final class VersionCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(text(System.getProperty("java.version"), System.getProperty("java.home")));
        return 0;
    }

    static String text(String javaVersion, String javaHome) {
        return new KubectlEtcd.Version().getVersion()[0] + "\njava " + javaVersion + " (" + javaHome + ")\n";
    }
}
