package io.etcdoperator.operator.informer;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The JSON of the operator's client, which informers and every read share: short strings interned
 * ({@link InternedStrings}), and the API's kinds read straight into their classes. Unregistered, each watch event of
 * an EtcdCluster or EtcdMember was read as a generic map and then converted: two reads of every object, 3 % of the
 * operator's CPU while a fleet formed (docs/benchmarks.md).
 */
public final class ClientSerialization {

    private ClientSerialization() {}

    public static KubernetesSerialization create() {
        KubernetesSerialization json =
                new KubernetesSerialization(new ObjectMapper().registerModule(new InternedStrings()), true);
        EtcdOperatorApi.KINDS.forEach(json::registerKubernetesResource);
        return json;
    }
}
