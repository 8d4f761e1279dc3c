package io.etcdoperator.snapshot;

import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.etcdoperator.snapshot.cli.AgentCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One in-process run of the agent CLI, with its exit code and the fields of its JSON line. */
record AgentRun(int exitCode, String json) {

    static AgentRun of(Map<String, String> env, String... args) {
        var out = new StringWriter();
        int code = AgentCommand.execute(JetcdEtcdAdmin.FACTORY, env, new PrintWriter(out), args);
        return new AgentRun(code, out.toString().strip());
    }

    String field(String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\"((?:[^\"\\\\]|\\\\.)*)\"|(\\d+))")
                .matcher(json);
        if (!m.find()) {
            throw new AssertionError("no " + name + " in " + json);
        }
        return m.group(2) != null ? m.group(2) : m.group(3);
    }
}
