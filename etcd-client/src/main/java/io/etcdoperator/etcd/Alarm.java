package io.etcdoperator.etcd;

/** An alarm etcd raised for one member; it stays until disarmed, and while NOSPACE is up every write is refused. */
public record Alarm(MemberId member, Kind kind) {

    /** etcd's alarm types. CORRUPT means members disagree on their data: never disarm it without a person. */
    public enum Kind {
        NOSPACE,
        CORRUPT
    }

    @Override
    public String toString() {
        return kind + "@" + member;
    }
}
