package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.Alarm;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.Membership;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code alarm list} and {@code alarm disarm}: etcd's NOSPACE and CORRUPT alarms, cluster-wide. */
@Command(
        name = "alarm",
        description = "List or disarm the cluster's alarms.",
        subcommands = {AlarmCommands.ListAlarms.class, AlarmCommands.Disarm.class})
final class AlarmCommands {

    @ParentCommand
    KubectlEtcd root;

    @Command(name = "list", description = "List the cluster's alarms (NOSPACE, CORRUPT).")
    static final class ListAlarms implements Callable<Integer> {
        @ParentCommand
        AlarmCommands alarm;

        @Mixin
        OutputFormat output;

        @Override
        public Integer call() {
            KubectlEtcd root = alarm.root;
            return root.run("alarm list", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                List<Alarm> alarms = session.etcd().alarms();
                // the member names are only looked up when there is an alarm to name
                Membership membership = alarms.isEmpty() ? null : session.etcd().members();
                root.out()
                        .print(output.render(
                                () -> alarms.isEmpty() ? "no alarms\n" : table(alarms, membership),
                                document(alarms, membership)));
                return 0;
            });
        }
    }

    static String table(List<Alarm> alarms, Membership membership) {
        Table table = new Table("ALARM", "MEMBER ID", "MEMBER");
        for (Alarm a : alarms) {
            table.row(a.kind(), a.member(), memberName(a, membership).orElse("-"));
        }
        return table.render();
    }

    /** Every alarm with its member's name, null when the member is gone or never started; an empty list if none. */
    static Map<String, Object> document(List<Alarm> alarms, Membership membership) {
        List<Map<String, Object>> list = alarms.stream()
                .map(a -> {
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("alarm", a.kind().name());
                    doc.put("memberId", a.member().hex());
                    doc.put("member", memberName(a, membership).orElse(null));
                    return doc;
                })
                .toList();
        return Map.of("alarms", list);
    }

    private static Optional<String> memberName(Alarm a, Membership membership) {
        return membership.byId(a.member()).map(Member::name).filter(n -> !n.isEmpty());
    }

    @Command(
            name = "disarm",
            description = "Disarm NOSPACE alarms (after compact and defrag made room). CORRUPT "
                    + "alarms stay unless --corrupt: members disagree on their data, find out why first.")
    static final class Disarm implements Callable<Integer> {
        @ParentCommand
        AlarmCommands alarm;

        @Option(names = "--corrupt", description = "Also disarm CORRUPT alarms.")
        boolean corrupt;

        @Override
        public Integer call() {
            KubectlEtcd root = alarm.root;
            return root.run("alarm disarm", KubectlEtcd.DEFAULT_TIMEOUT, session -> {
                List<Alarm> alarms = session.etcd().alarms();
                int kept = 0;
                for (Alarm a : alarms) {
                    if (a.kind() == Alarm.Kind.CORRUPT && !corrupt) {
                        root.err()
                                .printf(
                                        "kept CORRUPT alarm of member %s: members disagree on their data; pass --corrupt "
                                                + "to disarm it anyway%n",
                                        a.member());
                        kept++;
                        continue;
                    }
                    session.etcd().disarm(a);
                    root.out().printf("disarmed %s alarm of member %s%n", a.kind(), a.member());
                }
                if (alarms.isEmpty()) {
                    root.out().println("no alarms to disarm");
                }
                return kept == 0 ? 0 : 1;
            });
        }
    }
}
