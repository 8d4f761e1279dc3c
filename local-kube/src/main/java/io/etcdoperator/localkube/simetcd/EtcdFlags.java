package io.etcdoperator.localkube.simetcd;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The etcd flags a simulated member is started with: who it is and whether it forms a new cluster. */
public record EtcdFlags(String name, String peerUrl, String clientUrl, boolean newCluster, String version) {

    /** Reads {@code --flag=value} arguments and the version from the image tag ({@code ...:v3.5.16}). */
    public static Optional<EtcdFlags> parse(List<String> args, String image) {
        Map<String, String> flags = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                flags.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        String name = flags.get("name");
        String peerUrl = flags.get("initial-advertise-peer-urls");
        String clientUrl = flags.get("advertise-client-urls");
        if (name == null || peerUrl == null || clientUrl == null) {
            return Optional.empty();
        }
        int colon = image.lastIndexOf(':');
        String tag = colon < 0 ? "" : image.substring(colon + 1);
        String version = tag.startsWith("v") ? tag.substring(1) : tag;
        return Optional.of(new EtcdFlags(
                name,
                peerUrl.split(",")[0],
                clientUrl.split(",")[0],
                "new".equals(flags.getOrDefault("initial-cluster-state", "new")),
                version));
    }
}
