package io.etcdoperator.operator.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** A short, stable hash of objects' JSON (map keys sorted), used to tell whether a Pod was built from the same input. */
final class Revision {

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private Revision() {}

    static String of(Object... parts) {
        try {
            byte[] json = JSON.writeValueAsBytes(Arrays.asList(parts));
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(json);
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash a Pod template", e);
        }
    }

    /**
     * What etcd runs with (its container's image, command, args, env, mounts, resources; the volumes), the scheduling
     * and the user's labels and annotations. Probes, init containers and security contexts are left out: an operator
     * upgrade that renders them differently restarts no member, and new Pods get them anyway.
     */
    static String ofMemberPod(Pod pod, String container, Set<String> operatorLabels) {
        PodSpec spec = pod.getSpec();
        Container etcd = spec.getContainers().stream()
                .filter(c -> container.equals(c.getName()))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no container " + container + " in Pod template"));
        Map<String, Object> parts = new LinkedHashMap<>();
        parts.put("image", etcd.getImage());
        parts.put("command", etcd.getCommand());
        parts.put("args", etcd.getArgs());
        parts.put("env", etcd.getEnv());
        parts.put("envFrom", etcd.getEnvFrom());
        parts.put("volumeMounts", etcd.getVolumeMounts());
        parts.put("resources", etcd.getResources());
        parts.put("volumes", spec.getVolumes());
        parts.put("affinity", spec.getAffinity());
        parts.put("topologySpreadConstraints", spec.getTopologySpreadConstraints());
        parts.put("imagePullSecrets", spec.getImagePullSecrets());
        Map<String, String> labels = new LinkedHashMap<>(pod.getMetadata().getLabels());
        labels.keySet().removeAll(operatorLabels);
        parts.put("labels", labels);
        parts.put("annotations", pod.getMetadata().getAnnotations());
        return of(parts);
    }
}
