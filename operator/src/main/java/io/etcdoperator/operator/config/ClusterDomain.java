package io.etcdoperator.operator.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The cluster DNS suffix: from the flag, else the kubelet-written resolv.conf search list, else cluster.local. */
public final class ClusterDomain {

    public static final String FALLBACK = "cluster.local";

    private ClusterDomain() {}

    public static String resolve(Optional<String> flag, Path resolvConf) {
        return flag.filter(s -> !s.isBlank())
                .orElseGet(() -> fromResolvConf(resolvConf).orElse(FALLBACK));
    }

    static Optional<String> fromResolvConf(Path resolvConf) {
        List<String> lines;
        try {
            lines = Files.readAllLines(resolvConf);
        } catch (IOException e) {
            return Optional.empty();
        }
        return lines.stream()
                .map(l -> List.of(l.trim().split("\\s+")))
                .filter(words -> words.size() > 1 && words.get(0).equals("search"))
                .flatMap(words -> words.subList(1, words.size()).stream())
                .filter(s -> s.startsWith("svc."))
                .map(s -> s.substring("svc.".length()))
                .findFirst();
    }
}
