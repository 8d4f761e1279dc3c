package io.etcdoperator.operator.planner;

/** Majority arithmetic for a voting membership of a given size. */
public final class Quorum {

    private Quorum() {}

    /** Votes needed to commit with {@code voters} voting members: n/2+1 (1→1, 3→2, 4→3, 5→3). */
    public static int majorityOf(int voters) {
        return voters <= 0 ? 0 : voters / 2 + 1;
    }

    /** Whether {@code healthy} members can still commit in a membership of {@code voters}. */
    public static boolean holds(int healthy, int voters) {
        return voters > 0 && healthy >= majorityOf(voters);
    }

    /** PodDisruptionBudget minAvailable for the voters: a majority of max(voters, target), so drains never break quorum. */
    public static int minAvailable(int voters, int target) {
        return majorityOf(Math.max(voters, target));
    }
}
