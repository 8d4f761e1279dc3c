package io.etcdoperator.snapshot;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Streams Maintenance Snapshot from one healthy voter into a store: the bytes pass through once, never whole. */
public final class SnapshotSave {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotSave.class);

  private final EtcdAdmin.Factory etcd;
  private final EtcdConnection connection;
  private final Duration within;

  /** @param within bound on the whole stream (a 2 GiB database takes minutes, not the per-call timeout) */
  public SnapshotSave(EtcdAdmin.Factory etcd, EtcdConnection connection, Duration within) {
    this.etcd = etcd;
    this.connection = connection;
    this.within = within;
  }

  public StoredSnapshot run(SnapshotStore store, String key, SnapshotIdentity owner) {
    try (EtcdAdmin admin = etcd.open(connection)) {
      URI voter = healthyVoterWithRetries(admin);
      LOG.atInfo().addKeyValue("endpoint", voter).addKeyValue("key", key).addKeyValue("snapshot", owner.name())
          .log("streaming snapshot");
      StoredSnapshot stored = store.save(key, owner, out -> {
        try {
          admin.snapshot(voter, out, within);
        } catch (EtcdException e) {
          throw EtcdFailures.translate(e);
        }
      });
      LOG.atInfo().addKeyValue("uri", stored.uri()).addKeyValue("sizeBytes", stored.sizeBytes())
          .addKeyValue("checksum", stored.checksum()).log("snapshot stored");
      return stored;
    }
  }

  /** A busy member (a large database, a loaded node) may miss one Status deadline; three tries before giving up. */
  private URI healthyVoterWithRetries(EtcdAdmin admin) {
    for (int attempt = 1; ; attempt++) {
      try {
        return healthyVoter(admin);
      } catch (SnapshotFailure e) {
        if (attempt == 3 || e.reason() == SnapshotFailure.Reason.ETCD_AUTH_REJECTED
            || e.reason() == SnapshotFailure.Reason.ETCD_TLS_REJECTED) {
          throw e;
        }
        LOG.atWarn().addKeyValue("attempt", attempt).log("no healthy voter yet: " + e.getMessage());
      }
    }
  }

  /** The first endpoint that answers Status as a voter without errors (a learner or an alarmed member is skipped). */
  URI healthyVoter(EtcdAdmin admin) {
    List<String> skipped = new ArrayList<>();
    EtcdException last = null;
    for (URI endpoint : connection.endpoints()) {
      try {
        EndpointStatus status = admin.status(endpoint);
        if (!status.learner() && status.errors().isEmpty()) {
          return endpoint;
        }
        skipped.add(endpoint + (status.learner() ? " is a learner" : " reports " + status.errors()));
      } catch (EtcdException e) {
        last = e;
        skipped.add(endpoint + ": " + e.getMessage());
      }
    }
    if (last != null && skipped.stream().noneMatch(s -> s.contains(" is a learner") || s.contains(" reports "))) {
      throw EtcdFailures.translate(last);
    }
    throw new SnapshotFailure(SnapshotFailure.Reason.NO_HEALTHY_VOTER, "no healthy voter to snapshot: " + skipped);
  }
}
