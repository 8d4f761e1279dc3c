package io.etcdoperator.operator.informer;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeanCollectionsTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: demo-1
              namespace: ns
              labels: {etcd-operator.cozystack.io/cluster: demo, app.kubernetes.io/name: etcd}
              ownerReferences: [{apiVersion: etcd-operator.cozystack.io/v1alpha2, kind: EtcdMember, name: demo-1, uid: u1, controller: true}]
            spec:
              nodeName: node-1
              containers:
              - name: etcd
                image: registry.k8s.io/etcd:3.5.16-0
                command: [etcd, --name=demo-1]
                ports: [{name: client, containerPort: 2379}]
                resources: {requests: {cpu: 100m, memory: 128Mi}}
                volumeMounts: [{name: data, mountPath: /var/lib/etcd}]
              volumes: [{name: data, emptyDir: {medium: Memory}}]
            status:
              phase: Running
              podIP: 10.0.0.7
              conditions:
              - {type: Ready, status: "True"}
              - {type: ContainersReady, status: "True"}
              containerStatuses:
              - name: etcd
                ready: true
                restartCount: 0
                image: registry.k8s.io/etcd:3.5.16-0
                state: {running: {startedAt: "2026-12-07T10:00:00Z"}}
            """;

    @Test
    void emptyListsAndMapsBecomeTheSharedImmutableOnes() {
        Pod pod = JSON.unmarshal(POD, Pod.class);
        int before = mutableEmpties(pod);

        LeanCollections.compact(pod);

        assertThat(before)
                .as("fabric8 makes one per list field and additionalProperties")
                .isGreaterThan(20);
        assertThat(mutableEmpties(pod)).isZero();
        assertThat(pod.getSpec().getContainers().get(0).getCommand()).containsExactly("etcd", "--name=demo-1");
    }

    @Test
    void theCompactedObjectIsEqualAndSerializesTheSame() {
        Pod pod = JSON.unmarshal(POD, Pod.class);
        Pod original = JSON.unmarshal(POD, Pod.class);

        LeanCollections.compact(pod);

        assertThat(pod).isEqualTo(original);
        assertThat(JSON.asJson(pod)).isEqualTo(JSON.asJson(original));
        assertThat(pod.getMetadata().getLabels())
                .as("a map with entries keeps its order")
                .containsExactly(
                        Map.entry("etcd-operator.cozystack.io/cluster", "demo"),
                        Map.entry("app.kubernetes.io/name", "etcd"));
    }

    @Test
    void copiesOfACompactedObjectCanBeChanged() {
        Pod pod = JSON.unmarshal(POD, Pod.class);
        LeanCollections.compact(pod);

        Pod copy = new PodBuilder(pod)
                .editMetadata()
                .addToLabels("extra", "1")
                .addToAnnotations("a", "b")
                .endMetadata()
                .editSpec()
                .addToContainers(new ContainerBuilder().withName("sidecar").build())
                .endSpec()
                .build();
        copy.getSpec().getVolumes().clear();

        assertThat(copy.getMetadata().getLabels()).containsKey("extra");
        assertThat(copy.getSpec().getContainers()).hasSize(2);
        assertThat(pod.getSpec().getContainers()).hasSize(1);
        assertThat(pod.getSpec().getVolumes()).hasSize(1);
    }

    @Test
    void theOperatorsOwnKindsAreCompactedAndTheirCopiesCanBeChanged() {
        EtcdMember member = JSON.unmarshal("""
                apiVersion: etcd-operator.cozystack.io/v1alpha2
                kind: EtcdMember
                metadata: {name: demo-1, namespace: ns}
                spec: {clusterName: demo}
                status:
                  conditions: [{type: Ready, status: "True", reason: Serving, lastTransitionTime: "2026-12-07T10:00:00Z"}]
                """, EtcdMember.class);
        LeanCollections.compact(member);
        assertThat(mutableEmpties(member)).isZero();

        EtcdMember copy = ObjectCopies.of(member);
        copy.getStatus()
                .getConditions()
                .add(new ConditionBuilder().withType("Learner").build());

        assertThat(copy.getStatus().getConditions()).hasSize(2);
        assertThat(member.getStatus().getConditions()).hasSize(1);
    }

    @Test
    void aListHoldingNullIsLeftAsItIs() {
        Pod pod = JSON.unmarshal(POD, Pod.class);
        List<String> args = new ArrayList<>(Arrays.asList("a", null));
        pod.getSpec().getContainers().get(0).setArgs(args);

        LeanCollections.compact(pod);

        assertThat(pod.getSpec().getContainers().get(0).getArgs()).isSameAs(args);
    }

    /** Empty ArrayLists and LinkedHashMaps (the mutable kinds Jackson and fabric8 make) anywhere in the model. */
    private static int mutableEmpties(Object root) {
        return count(root, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static int count(Object o, Set<Object> seen) {
        if (o == null || !seen.add(o)) {
            return 0;
        }
        if (o instanceof Collection<?> c) {
            int n = c.isEmpty() && c instanceof ArrayList<?> ? 1 : 0;
            return n + c.stream().mapToInt(e -> count(e, seen)).sum();
        }
        if (o instanceof Map<?, ?> m) {
            int n = m.isEmpty() && m instanceof LinkedHashMap<?, ?> ? 1 : 0;
            return n + m.values().stream().mapToInt(v -> count(v, seen)).sum();
        }
        if (!o.getClass().getName().startsWith("io.")) {
            return 0;
        }
        int n = 0;
        for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
                    f.setAccessible(true);
                    try {
                        n += count(f.get(o), seen);
                    } catch (IllegalAccessException e) {
                        throw new AssertionError(e);
                    }
                }
            }
        }
        return n;
    }
}
