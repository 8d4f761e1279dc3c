package io.etcdoperator.kubectl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Shell completion two ways. {@code kubectl etcd completion bash|zsh} prints picocli's script for the
 * {@code kubectl-etcd} command itself. For {@code kubectl etcd <TAB>} (kubectl 1.26+), kubectl runs
 * {@code kubectl_complete-etcd WORDS...}, which calls {@code kubectl-etcd __complete WORDS...}: that answers in
 * kubectl's (Cobra's) protocol, one candidate a line and a last line {@code :DIRECTIVE}.
 */
@Command(
        name = "completion",
        description = "Print a bash or zsh completion script for kubectl-etcd "
                + "(for `kubectl etcd <TAB>` install kubectl_complete-etcd instead, see the docs).")
final class Completion implements Callable<Integer> {

    static final String COMPLETE = "__complete";
    /** Cobra's ShellCompDirectiveDefault: the shell may fall back to file names (snapshot PATH). */
    static final int DIRECTIVE_DEFAULT = 0;
    /** Cobra's ShellCompDirectiveNoFileComp: only our candidates. */
    static final int DIRECTIVE_NO_FILES = 4;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh")
    String shell;

    @Override
    public Integer call() {
        String which = shell.toLowerCase(Locale.ROOT);
        if (!which.equals("bash") && !which.equals("zsh")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "SHELL must be bash or zsh, not " + shell);
        }
        // picocli's script serves both: under zsh it loads bashcompinit itself
        spec.commandLine()
                .getOut()
                .print(AutoComplete.bash("kubectl-etcd", spec.root().commandLine()));
        return 0;
    }

    /** Answers {@code __complete WORDS...}: the last word is the one being completed (empty after a space). */
    static int complete(CommandLine root, List<String> words, PrintWriter out) {
        List<String> args = words.isEmpty() ? List.of("") : words;
        String current = args.getLast();
        List<CharSequence> suffixes = new ArrayList<>();
        AutoComplete.complete(
                root.getCommandSpec(), args.toArray(String[]::new), args.size() - 1, current.length(), 0, suffixes);
        // picocli hands back what follows the typed prefix; kubectl wants whole words
        suffixes.forEach(suffix -> out.println(current + suffix));
        out.println(":" + (suffixes.isEmpty() ? DIRECTIVE_DEFAULT : DIRECTIVE_NO_FILES));
        out.flush();
        return 0;
    }
}
