package io.etcdoperator.etcd;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * Membership changes the way a reconciler makes them: retry only on the refusal etcd gives while the change is not
 * safe yet, up to a deadline. etcd promotes a learner only once it caught up, and adds or removes a member only when
 * every voter has been connected for its health interval (5 s): right after a join it answers "unhealthy cluster".
 */
final class MembershipChanges {

    private static final Duration PAUSE = Duration.ofMillis(100);

    private MembershipChanges() {}

    static Membership addLearner(EtcdAdmin admin, URI peerUrl, Duration within) {
        Membership[] result = new Membership[1];
        retry(() -> result[0] = admin.addLearner(peerUrl), EtcdException.MembershipRefused.class, within);
        return result[0];
    }

    /** Returns how many promote calls it took. */
    static int promote(EtcdAdmin admin, MemberId learner, Duration within) {
        return retry(() -> admin.promote(learner), EtcdException.LearnerNotReady.class, within);
    }

    /** Returns how many remove calls it took. */
    static int remove(EtcdAdmin admin, MemberId member, Duration within) {
        return retry(() -> admin.remove(member), EtcdException.MembershipRefused.class, within);
    }

    private static int retry(Runnable change, Class<? extends EtcdException> notYet, Duration within) {
        Instant deadline = Instant.now().plus(within);
        for (int attempt = 1; ; attempt++) {
            try {
                change.run();
                return attempt;
            } catch (EtcdException e) {
                if (!notYet.isInstance(e) || Instant.now().isAfter(deadline)) {
                    throw e;
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
