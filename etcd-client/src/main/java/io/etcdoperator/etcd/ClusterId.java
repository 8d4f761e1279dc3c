package io.etcdoperator.etcd;

/** An etcd cluster id; written as 16 lower-case hex digits (status.clusterID). */
public record ClusterId(long value) {

    public static ClusterId parse(String hex) {
        return new ClusterId(Long.parseUnsignedLong(hex, 16));
    }

    public String hex() {
        return String.format("%016x", value);
    }

    @Override
    public String toString() {
        return hex();
    }
}
