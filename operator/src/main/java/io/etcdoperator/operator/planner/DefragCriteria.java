package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.EndpointStatus;
import java.util.OptionalInt;

/**
 * An EtcdDefrag rule in bytes: {@code all}, or reclaimable space (dbSize - dbSizeInUse) above freeSpaceAbove; under
 * quota pressure (dbSize at or above quotaUsageAbove percent of the quota) the bar drops to minReclaim.
 */
public record DefragCriteria(boolean all, long freeSpaceAbove, OptionalInt quotaUsagePercent, long minReclaim) {

    public static final long DEFAULT_FREE_SPACE_ABOVE = 200L * 1024 * 1024;
    public static final long DEFAULT_MIN_RECLAIM = 32L * 1024 * 1024;
    public static final DefragCriteria ALL = new DefragCriteria(true, 0, OptionalInt.empty(), 0);

    public boolean wants(EndpointStatus status, long quotaBytes) {
        if (all) {
            return true;
        }
        long reclaimable = status.dbSize() - status.dbSizeInUse();
        return reclaimable > threshold(status.dbSize(), quotaBytes);
    }

    long threshold(long dbSize, long quotaBytes) {
        boolean pressure = quotaUsagePercent.isPresent()
                && quotaBytes > 0
                && dbSize * 100 >= (long) quotaUsagePercent.getAsInt() * quotaBytes;
        return pressure ? minReclaim : freeSpaceAbove;
    }
}
