package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.planner.Maintenance;
import java.util.OptionalLong;

/**
 * The backend quota a member runs with. Unset, etcd's 2 GiB default would let a small volume fill up before the
 * NOSPACE alarm fires (a full disk crashes etcd; an alarm is recoverable), so a volume under 4 GiB gets half its size:
 * the other half holds the defragment copy, WAL segments and snapshots (docs/operations.md, Space alarms).
 */
public final class BackendQuota {

    public static final long ETCD_DEFAULT = Maintenance.DEFAULT_QUOTA;

    private BackendQuota() {}

    /** The value for {@code --quota-backend-bytes}, or empty to leave etcd's default. */
    public static OptionalLong flag(EtcdOptions options, StorageSpec storage) {
        if (options != null && options.getQuotaBackendBytes() != null && options.getQuotaBackendBytes() > 0) {
            return OptionalLong.of(options.getQuotaBackendBytes());
        }
        if (storage == null || storage.getSize() == null) {
            return OptionalLong.empty();
        }
        long half = storage.getSize().getNumericalAmount().longValue() / 2;
        return half > 0 && half < ETCD_DEFAULT ? OptionalLong.of(half) : OptionalLong.empty();
    }

    /** The quota in effect. */
    public static long bytes(EtcdOptions options, StorageSpec storage) {
        return flag(options, storage).orElse(ETCD_DEFAULT);
    }
}
