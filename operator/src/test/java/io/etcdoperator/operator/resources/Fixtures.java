package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Input objects for the golden tests, read from {@code src/test/resources/fixtures/<name>.yaml}. */
public final class Fixtures {

    private Fixtures() {}

    public static EtcdCluster cluster(String name) {
        return load(name, EtcdCluster.class);
    }

    public static EtcdMember member(String name) {
        return load(name, EtcdMember.class);
    }

    private static <T> T load(String name, Class<T> type) {
        String resource = "/fixtures/" + name + ".yaml";
        try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + resource);
            }
            return Serialization.unmarshal(in, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
