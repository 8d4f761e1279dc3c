package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.EtcdConnection;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a member serves clients, read from its Pod the way a person would: no {@code --cert-file} means plaintext;
 * otherwise the Secret mounted where the certificate lives holds {@code ca.crt}, and when etcd checks client
 * certificates ({@code --client-cert-auth} or {@code --trusted-ca-file}) its {@code tls.crt}/{@code tls.key} (a
 * server key pair that also allows clientAuth) are presented as the client certificate.
 */
record MemberTls(String secretName, String mountPath, boolean mutual) {

    static final String ETCD_CONTAINER = "etcd";

    /** Empty for a plaintext member. Throws when the certificate is not on a mounted Secret we could read. */
    static Optional<MemberTls> of(Pod pod) {
        Container etcd = etcdContainer(pod);
        List<String> words = new ArrayList<>();
        Optional.ofNullable(etcd.getCommand()).ifPresent(words::addAll);
        Optional.ofNullable(etcd.getArgs()).ifPresent(words::addAll);
        Optional<String> certFile = flag(words, "--cert-file");
        if (certFile.isEmpty()) {
            return Optional.empty();
        }
        boolean mutual = flag(words, "--trusted-ca-file").isPresent()
                || flag(words, "--client-cert-auth")
                        .map(v -> !"false".equals(v))
                        .orElse(false);
        VolumeMount mount = Optional.ofNullable(etcd.getVolumeMounts()).orElse(List.of()).stream()
                .filter(m -> certFile.get()
                        .startsWith(m.getMountPath().endsWith("/") ? m.getMountPath() : m.getMountPath() + "/"))
                .max((a, b) -> Integer.compare(
                        a.getMountPath().length(), b.getMountPath().length()))
                .orElseThrow(() -> new PluginException("pod " + name(pod) + " serves TLS with " + certFile.get()
                        + ", but no volume is mounted there; use a pod of an operator-managed cluster"));
        Volume volume = pod.getSpec().getVolumes().stream()
                .filter(v -> v.getName().equals(mount.getName()))
                .findFirst()
                .orElseThrow(
                        () -> new PluginException("pod " + name(pod) + " mounts unknown volume " + mount.getName()));
        if (volume.getSecret() == null) {
            throw new PluginException("pod " + name(pod) + " reads its certificate from volume " + volume.getName()
                    + ", which is not a Secret; cannot find the CA");
        }
        return Optional.of(new MemberTls(volume.getSecret().getSecretName(), mount.getMountPath(), mutual));
    }

    /** The client TLS material from the member's Secret; {@code ca.crt} is required. */
    EtcdConnection.ClientTls load(Secret secret) {
        Map<String, String> data = Optional.ofNullable(secret.getData()).orElse(Map.of());
        byte[] ca = decode(data, "ca.crt")
                .orElseThrow(() -> new PluginException(
                        "Secret " + secretName + " has no ca.crt; cannot verify the member's certificate"));
        if (!mutual) {
            return new EtcdConnection.ClientTls(ca, null, null);
        }
        byte[] cert = decode(data, "tls.crt").orElseThrow(() -> missing("tls.crt"));
        byte[] key = decode(data, "tls.key").orElseThrow(() -> missing("tls.key"));
        return new EtcdConnection.ClientTls(ca, cert, key);
    }

    static Container etcdContainer(Pod pod) {
        List<Container> containers = pod.getSpec().getContainers();
        return containers.stream()
                .filter(c -> ETCD_CONTAINER.equals(c.getName()))
                .findFirst()
                .orElse(containers.getFirst());
    }

    /** The value of {@code --flag=value} or {@code --flag value}; a bare boolean flag reads as "true". */
    static Optional<String> flag(List<String> words, String flag) {
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (word.startsWith(flag + "=")) {
                return Optional.of(word.substring(flag.length() + 1));
            }
            if (word.equals(flag)) {
                boolean valueFollows = i + 1 < words.size() && !words.get(i + 1).startsWith("-");
                return Optional.of(valueFollows ? words.get(i + 1) : "true");
            }
        }
        return Optional.empty();
    }

    private PluginException missing(String key) {
        return new PluginException("Secret " + secretName + " has no " + key + ", needed for the member's mTLS");
    }

    private static Optional<byte[]> decode(Map<String, String> data, String key) {
        return Optional.ofNullable(data.get(key)).map(Base64.getDecoder()::decode);
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }
}
