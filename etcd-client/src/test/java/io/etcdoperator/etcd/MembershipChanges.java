package io.etcdoperator.etcd;

import java.time.Duration;
import java.time.Instant;

/**
 * Promote and remove the way a reconciler would: retry only on the refusal etcd gives while it is not safe yet, up to a
 * deadline. etcd refuses promotion until the learner caught up, and removal of a voter until every other voter has
 * been connected for its health interval (5 s), so right after a join a removal is refused as "unhealthy cluster".
 */
final class MembershipChanges {

  private static final Duration PAUSE = Duration.ofMillis(100);

  private MembershipChanges() {}

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
