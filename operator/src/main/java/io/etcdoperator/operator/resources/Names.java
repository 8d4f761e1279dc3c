package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** Every name and DNS name the operator generates, in one place. */
public final class Names {

    public static final int CLIENT_PORT = 2379;
    public static final int PEER_PORT = 2380;
    public static final int METRICS_PORT = 2381;
    /** Kubernetes' limit on names that are DNS labels: Service names, Pod host names, label values. */
    public static final int DNS_LABEL = 63;
    /** How many characters the API server appends to a generateName prefix. */
    static final int GENERATED_SUFFIX = 5;

    private static final String CLIENT_SUFFIX = "-client";

    private static final int MAX_LABEL = 63;

    private Names() {}

    public static String headlessService(EtcdCluster cluster) {
        return cluster.getMetadata().getName();
    }

    public static String clientService(EtcdCluster cluster) {
        return cluster.getMetadata().getName() + CLIENT_SUFFIX;
    }

    public static String disruptionBudget(EtcdCluster cluster) {
        return cluster.getMetadata().getName();
    }

    public static String memberPrefix(EtcdCluster cluster) {
        return cluster.getMetadata().getName() + "-";
    }

    /**
     * Every name made from a cluster's that must be a DNS label, keyed by what it names. A member's generated name is
     * shown with x for the random characters; past 63 the API server would cut the prefix and lose the cluster name.
     */
    public static Map<String, String> dnsLabelsOf(String cluster) {
        Map<String, String> names = new LinkedHashMap<>();
        names.put("headless Service", cluster);
        names.put("client Service", cluster + CLIENT_SUFFIX);
        names.put("member (Pod host name)", cluster + "-" + "x".repeat(GENERATED_SUFFIX));
        return names;
    }

    /** The operator's copy of the root password etcd has (auth on): what it dials with while the user's changes. */
    public static String appliedRootSecret(String cluster) {
        return cluster + "-root-applied";
    }

    public static String dataPvc(String member) {
        return "data-" + member;
    }

    /** The Service a member's DNS name hangs off: the adoption annotation, else the cluster's headless Service. */
    public static String memberService(EtcdMember member) {
        Map<String, String> annotations = member.getMetadata().getAnnotations();
        String adopted = annotations == null ? null : annotations.get(EtcdOperatorApi.ANNOTATION_HEADLESS_SERVICE_NAME);
        return adopted != null && !adopted.isBlank()
                ? adopted
                : member.getSpec().getClusterName();
    }

    public static String memberHost(String member, String service, String namespace) {
        return member + "." + service + "." + namespace + ".svc";
    }

    public static URI peerUrl(String member, String service, String namespace, boolean tls) {
        return URI.create((tls ? "https" : "http") + "://" + memberHost(member, service, namespace) + ":" + PEER_PORT);
    }

    public static URI clientUrl(String member, String service, String namespace, boolean tls) {
        return URI.create(
                (tls ? "https" : "http") + "://" + memberHost(member, service, namespace) + ":" + CLIENT_PORT);
    }

    public static URI peerUrl(EtcdMember member) {
        return peerUrl(
                member.getMetadata().getName(),
                memberService(member),
                member.getMetadata().getNamespace(),
                MemberTlsView.of(member).peerTls());
    }

    public static URI clientUrl(EtcdMember member) {
        return clientUrl(
                member.getMetadata().getName(),
                memberService(member),
                member.getMetadata().getNamespace(),
                MemberTlsView.of(member).clientTls());
    }

    public static String clusterToken(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace() + "-"
                + cluster.getMetadata().getName() + "-" + cluster.getMetadata().getUid();
    }

    /** An object's name as a label value: one longer than a label allows keeps a prefix and gains a hash. */
    public static String labelOf(HasMetadata object) {
        return shorten(object.getMetadata().getName(), "");
    }

    /** A name that ends up in a label value (at most 63 characters): a long one keeps a prefix and gains a hash. */
    public static String shorten(String base, String suffix) {
        if (base.length() + suffix.length() <= MAX_LABEL) {
            return base + suffix;
        }
        String hash = HexFormat.of().formatHex(sha256(base)).substring(0, 8);
        String head = base.substring(0, MAX_LABEL - suffix.length() - hash.length() - 1);
        return head + "-" + hash + suffix;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
