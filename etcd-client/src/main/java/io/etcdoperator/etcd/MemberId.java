package io.etcdoperator.etcd;

/** An etcd member id; written as 16 lower-case hex digits, the way etcdctl and status.memberID show it. */
public record MemberId(long value) {

    public static MemberId parse(String hex) {
        return new MemberId(Long.parseUnsignedLong(hex, 16));
    }

    public String hex() {
        return String.format("%016x", value);
    }

    @Override
    public String toString() {
        return hex();
    }
}
