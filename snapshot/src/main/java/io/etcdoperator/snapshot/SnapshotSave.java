package io.etcdoperator.snapshot;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams Maintenance Snapshot from the leader (else the voter furthest along) into a store: the bytes pass through
 * once, never whole.
 */
public final class SnapshotSave {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotSave.class);

    private final EtcdAdmin.Factory etcd;
    private final EtcdConnection connection;
    private final Duration within;
    private final Optional<EncryptionKey> encryption;
    private final Optional<DbStatusRecorder> recorder;

    /** @param within bound on the whole stream (a 2 GiB database takes minutes, not the per-call timeout) */
    public SnapshotSave(EtcdAdmin.Factory etcd, EtcdConnection connection, Duration within) {
        this(etcd, connection, within, Optional.empty());
    }

    /** @param encryption the key the stored bytes are encrypted with, chunk by chunk on their way to the store */
    public SnapshotSave(
            EtcdAdmin.Factory etcd, EtcdConnection connection, Duration within, Optional<EncryptionKey> encryption) {
        this(etcd, connection, within, encryption, Optional.empty());
    }

    /** @param recorder when present, the streamed database's status is recorded (for a later verification) */
    public SnapshotSave(
            EtcdAdmin.Factory etcd,
            EtcdConnection connection,
            Duration within,
            Optional<EncryptionKey> encryption,
            Optional<DbStatusRecorder> recorder) {
        this.etcd = etcd;
        this.connection = connection;
        this.within = within;
        this.encryption = encryption;
        this.recorder = recorder;
    }

    public TakenSnapshot run(SnapshotStore store, String key, SnapshotIdentity owner) {
        try (EtcdAdmin admin = etcd.open(connection)) {
            SnapshotSource source = sourceWithRetries(admin);
            LOG.atInfo()
                    .addKeyValue("endpoint", source.endpoint())
                    .addKeyValue("member", source.status().memberId())
                    .addKeyValue("leader", source.leader())
                    .addKeyValue("revision", source.revision())
                    .addKeyValue("key", key)
                    .addKeyValue("snapshot", owner.name())
                    .addKeyValue(
                            "encryptionKeyId", encryption.map(EncryptionKey::id).orElse("none"))
                    .log("streaming snapshot");
            AtomicBoolean streamed = new AtomicBoolean();
            StoredSnapshot stored = store.save(key, owner, out -> {
                streamed.set(true);
                var encrypting = encryption.map(k -> new EncryptingOutputStream(out, k));
                OutputStream plain = encrypting.isPresent() ? encrypting.get() : out;
                try (OutputStream copying =
                        recorder.isPresent() ? recorder.get().tee(plain) : OutputStream.nullOutputStream()) {
                    admin.snapshot(source.endpoint(), recorder.isPresent() ? copying : plain, within);
                } catch (EtcdException e) {
                    throw EtcdFailures.translate(e);
                }
                if (encrypting.isPresent()) {
                    encrypting.get().finish();
                }
            });
            Optional<DbStatus> status = streamed.get() ? recorder.flatMap(DbStatusRecorder::read) : Optional.empty();
            LOG.atInfo()
                    .addKeyValue("uri", stored.uri())
                    .addKeyValue("sizeBytes", stored.sizeBytes())
                    .addKeyValue("checksum", stored.checksum())
                    .addKeyValue("streamed", streamed.get())
                    .addKeyValue("status", status.map(DbStatus::toString).orElse("not recorded"))
                    .log("snapshot stored");
            return new TakenSnapshot(stored, streamed.get() ? Optional.of(source) : Optional.empty(), status);
        }
    }

    /** A busy member (a large database, a loaded node) may miss one Status deadline; three tries before giving up. */
    private SnapshotSource sourceWithRetries(EtcdAdmin admin) {
        for (int attempt = 1; ; attempt++) {
            try {
                return source(admin);
            } catch (SnapshotFailure e) {
                if (attempt == 3
                        || e.reason() == SnapshotFailure.Reason.ETCD_AUTH_REJECTED
                        || e.reason() == SnapshotFailure.Reason.ETCD_TLS_REJECTED) {
                    throw e;
                }
                LOG.atWarn().addKeyValue("attempt", attempt).log("no healthy voter yet: " + e.getMessage());
            }
        }
    }

    /**
     * Asks every endpoint's Status, then takes {@link SnapshotSource#choose}: the leader, else the voter furthest
     * along. Not the first that answers: a lagging follower would give an old snapshot that looks successful.
     */
    SnapshotSource source(EtcdAdmin admin) {
        List<SnapshotSource> answered = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        EtcdException last = null;
        for (URI endpoint : connection.endpoints()) {
            try {
                SnapshotSource answer = new SnapshotSource(endpoint, admin.status(endpoint));
                answered.add(answer);
                if (!answer.healthyVoter()) {
                    skipped.add(endpoint
                            + (answer.status().learner()
                                    ? " is a learner"
                                    : " reports " + answer.status().errors()));
                }
            } catch (EtcdException e) {
                last = e;
                skipped.add(endpoint + ": " + e.getMessage());
            }
        }
        Optional<SnapshotSource> chosen = SnapshotSource.choose(answered);
        if (chosen.isPresent()) {
            return chosen.get();
        }
        if (last != null && answered.isEmpty()) {
            throw EtcdFailures.translate(last);
        }
        throw new SnapshotFailure(SnapshotFailure.Reason.NO_HEALTHY_VOTER, "no healthy voter to snapshot: " + skipped);
    }
}
