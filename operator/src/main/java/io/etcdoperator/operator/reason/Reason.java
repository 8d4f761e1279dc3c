package io.etcdoperator.operator.reason;

/**
 * Every "not yet" and "cannot" the operator reports. The condition reason, the event reason and the log key all use
 * {@link #reason()}, so one name follows a problem everywhere it shows up.
 */
public enum Reason {
    INITIAL_SNAPSHOT("InitialSnapshot", "target latched from spec for the first time"),
    SPEC_CHANGED("SpecChanged", "new spec latched as target"),
    RETRY_AFTER_DEADLINE("RetryAfterDeadline", "spec changed after the deadline; new target latched"),
    INVALID_SPEC("InvalidSpec", "spec change refused; the latched target is kept"),
    RECONCILE_FAILED("ReconcileFailed", "a pass failed with an error; it is retried with back-off"),
    PAUSED("Paused", "cluster is paused (replicas: 0)"),
    PAUSED_FROM_START("Paused", "cluster declared paused from the start; not bootstrapping"),
    BOOTSTRAPPING("Bootstrapping", "creating the seed member"),
    WAITING_FOR_SEED("WaitingForSeed", "waiting for the seed member to form the cluster"),
    CLUSTER_DISCOVERED("ClusterDiscovered", "etcd cluster discovered"),
    CLUSTER_UNREACHABLE("ClusterUnreachable", "etcd cluster cannot be reached"),
    CLUSTER_ADOPTED("ClusterAdopted", "a running etcd cluster is taken over: its id latched, its members external"),
    IMMUTABLES_ADOPTED(
            "ImmutablesAdopted",
            "a cluster cozystack's operator made: spec.tls, spec.auth and spec.bootstrap latched as they are, once"),
    ADOPTION_REFUSED("AdoptionRefused", "the running etcd cannot be taken over safely as it is; nothing is changed"),
    ADOPTION_AWAITING_REMOVAL(
            "AdoptionAwaitingRemoval",
            "the operator's members vote and lead; the external members stay until a person allows their removal"),
    EXTERNAL_MEMBER_REMOVED("ExternalMemberRemoved", "one member of the adopted etcd removed, as a person asked"),
    ADOPTION_COMPLETE("AdoptionComplete", "etcd lists none of the adopted cluster's members; managed like any other"),
    AUTH_REQUIRED_NOT_CONFIGURED(
            "AuthRequiredNotConfigured", "etcd requires authentication but spec.auth is not enabled"),
    AUTH_CREDENTIALS_REJECTED("AuthCredentialsRejected", "etcd rejected the root credentials"),
    AUTH_ENABLED("AuthEnabled", "etcd authentication is on; the operator dials as root"),
    AUTH_SECRET_INVALID("AuthSecretInvalid", "the root credentials Secret is missing or has an empty password"),
    ROOT_PASSWORD_RECORDED("RootPasswordRecorded", "the operator keeps a copy of the root password etcd has"),
    ROOT_PASSWORD_CHANGED("RootPasswordChanged", "etcd's root password changed to the one in the user's Secret"),
    AUTH_ENABLE_FAILED("AuthEnableFailed", "etcd refused to enable authentication for now"),
    MEMBER_CREATED("MemberCreated", "member created for scale-up"),
    LEARNER_ADDED("LearnerAdded", "member added to etcd as a learner"),
    MEMBER_JOINING("MemberJoining", "member's initial cluster written; waiting for it to start"),
    LEARNER_CATCHING_UP("LearnerCatchingUp", "learner not yet in sync with the leader"),
    LEARNER_STUCK(
            "LearnerStuck",
            "a learner's Pod did not come up within 10 minutes; it is removed so a new member can join"),
    LEARNER_PROMOTED("LearnerPromoted", "learner promoted to voter"),
    MEMBERS_NOT_READY("MembersNotReady", "waiting for existing members to become Ready before the next step"),
    MEMBER_REMOVAL_IN_PROGRESS("MemberRemovalInProgress", "waiting for an in-flight member removal"),
    MEMBER_REMOVED("MemberRemoved", "member deleted for scale-down"),
    ORPHAN_REMOVED("OrphanMemberRemoved", "etcd member without an EtcdMember removed"),
    QUORUM_AT_RISK("QuorumAtRisk", "removing a member now would lose quorum"),
    MEMBERSHIP_CHANGE_REFUSED("MembershipChangeRefused", "etcd refused the membership change for now"),
    ETCD_CALL_FAILED(
            "EtcdCallFailed",
            "etcd refused or failed the step's call (a leader move, a defragment, auth) "
                    + "for now; it is tried again"),
    WAKING_DORMANT("WakingDormantMember", "waking the dormant member"),
    PAUSING("Pausing", "parking the last member (dormant)"),
    FOREIGN_MEMBER("ForeignMember", "a member is not controlled by this cluster; refusing to adopt it"),
    ALL_MEMBERS_LOST("AllMembersLost", "every member is gone; the data cannot be recovered in place"),
    CLUSTER_RESET("ClusterReset", "every member had lost its data; an empty cluster is bootstrapped as a person asked"),
    POD_UNSCHEDULABLE(
            "PodUnschedulable",
            "a voter's Pod cannot be scheduled; it is replaced after progressDeadlineSeconds while quorum allows"),
    LABELS_RESTORED("LabelsRestored", "the operator's labels on a member Pod were edited away and are restored"),
    RETAINED_VOLUME_DELETED(
            "RetainedVolumeDeleted", "a released volume outlived spec.retainedVolumeSeconds and was deleted"),
    VOLUME_RETAINED("VolumeRetained", "a replaced member's volume is released and kept until a person deletes it"),
    DEADLINE_EXCEEDED("DeadlineExceeded", "could not reach the target within the progress deadline"),
    BOOTSTRAP_FAILED("BootstrapFailed", "could not bootstrap within the progress deadline"),
    RECONCILED("Reconciled", "actual state matches status.observed"),
    QUORUM_HEALTHY("QuorumHealthy", "all members are ready"),
    QUORUM_AVAILABLE("QuorumAvailable", "quorum available"),
    MEMBERS_UNHEALTHY("MembersUnhealthy", "some members are not ready"),
    QUORUM_LOST("QuorumLost", "quorum lost"),
    CERT_MANAGER_NOT_INSTALLED(
            "CertManagerNotInstalled",
            "spec.tls uses cert-manager but the cert-manager.io/v1 Certificate API is not served"),
    CERTIFICATE_CREATED("CertificateCreated", "cert-manager Certificate created"),
    TLS_CA_CREATED("TlsCaCreated", "operator-issued CA created"),
    TLS_CERTIFICATE_ISSUED("TlsCertificateIssued", "operator-issued certificate written"),
    TLS_TRUST_SYNCED("TlsTrustSynced", "trust bundle copied into a certificate Secret"),
    TLS_CA_ROTATION_STARTED("TlsCaRotationStarted", "new CA signs; old and new CA trusted together"),
    TLS_OLD_CA_RETIRED("TlsOldCaRetired", "only the new CA is trusted now"),
    TLS_WAITING_FOR_HEALTH("TlsWaitingForHealth", "TLS roll waits until every member is healthy"),
    MEMBER_ROLLING("MemberRolling", "a member is restarted onto the latched spec"),
    MEMBER_REPLACING("MemberReplacing", "a memory-backed member is replaced by a new one on the latched spec"),
    LEADER_MOVED("LeaderMoved", "leadership moved to an up-to-date voter before the old leader restarts"),
    ROLL_WAITING_FOR_HEALTH("RollWaitingForHealth", "the roll waits until every other voter is healthy"),
    UPGRADE_STALLED("UpgradeStalled", "a member did not come back on the new version within the progress deadline"),
    UNSUPPORTED_UPGRADE("UnsupportedUpgrade", "the version change is not an upgrade path etcd supports"),
    UNSUPPORTED_VERSION("UnsupportedVersion", "the operator does not know how to run this etcd version"),
    VOLUME_EXPANDING("VolumeExpanding", "a member's data volume is grown to the new storage.size"),
    VOLUME_EXPANSION_UNSUPPORTED(
            "VolumeExpansionUnsupported",
            "the StorageClass does not allow volume expansion; storage.size cannot grow in place"),
    POD_FAILED("PodFailed", "the member's Pod failed for good (evicted, say) and is recreated on the same volume"),
    CLUSTER_ID_MISMATCH(
            "ClusterIDMismatch",
            "etcd answers with another cluster id than the latched one; every membership change is stopped"),
    DATA_LOST(
            "DataLost",
            "etcd found no raft log for a member that had joined (its data directory was lost); it is replaced, never restarted"),
    MEMBER_CRASH_LOOPING(
            "MemberCrashLooping",
            "the member's etcd crash-loops; it is not replaced (a new member would fail the same way): fix the cause"),
    MEMBER_LEFT(
            "MemberLeft",
            "etcd removed the member (by hand, or another tool); its member id cannot come back, so "
                    + "it is replaced"),
    MEMBER_LOST("MemberLost", "a memory-backed member lost its Pod and with it its data; it is replaced"),
    NODE_NOT_READY(
            "NodeNotReady",
            "a member's node is not Ready; after a grace time the member is replaced while quorum allows"),
    POD_FORCE_DELETED(
            "PodForceDeleted",
            "a removed member's Pod stayed on a node that is not Ready; it was deleted without waiting for its kubelet"),
    ARTIFACT_UNREADABLE("ArtifactUnreadable", "the snapshot's stored artifact could not be read back"),
    AUTH_LATCH_TIMEOUT("AuthLatchTimeout", "the cluster did not latch authentication in time for the snapshot"),
    BLOCKED("Blocked", "the member waits for something it needs (a Secret, its PVC, its Pod's owner)"),
    CLUSTER_NOT_FOUND("ClusterNotFound", "the EtcdCluster named by the snapshot does not exist"),
    CLUSTER_NOT_READY("ClusterNotReady", "the cluster has no healthy voter to take a snapshot from"),
    DISCOVERING_MEMBER_ID("DiscoveringMemberID", "the member's Pod is ready; its etcd member id is being looked up"),
    INVALID_DESTINATION("InvalidDestination", "the snapshot destination is not usable"),
    INVALID_SCHEDULE("InvalidSchedule", "the cron schedule cannot be parsed"),
    JOB_CONFLICT("JobConflict", "a Job of the snapshot's name belongs to something else"),
    JOB_CREATED("JobCreated", "the snapshot Job was created"),
    JOB_FAILED("JobFailed", "the snapshot Job failed"),
    JOB_RUNNING("JobRunning", "the snapshot Job is running"),
    OPERATOR_IMAGE_NOT_CONFIGURED(
            "OperatorImageNotConfigured",
            "snapshots need the operator image as agent; start the operator with --operator-image"),
    PENDING("Pending", "accepted, not started yet"),
    POD_NOT_READY("PodNotReady", "the member's Pod is not ready"),
    POD_READY("PodReady", "the member's Pod is ready and its member id known"),
    PRUNE_BLOCKED("PruneBlocked", "old snapshots could not be pruned"),
    READING_ARTIFACT("ReadingArtifact", "the snapshot's artifact is being read back"),
    SCHEDULED("Scheduled", "the schedule waits for its next firing"),
    SNAPSHOT_CREATED("SnapshotCreated", "the schedule created a snapshot"),
    SNAPSHOT_JOB_LOST("SnapshotJobLost", "the snapshot Job disappeared before it reported"),
    SNAPSHOT_PRUNED("SnapshotPruned", "the schedule pruned an old snapshot"),
    SNAPSHOT_SKIPPED("SnapshotSkipped", "a firing was skipped because the previous snapshot had not finished"),
    SNAPSHOT_STARTED("SnapshotStarted", "the snapshot started"),
    SNAPSHOT_STORED("SnapshotStored", "the snapshot is stored"),
    SNAPSHOT_VERIFIED("SnapshotVerified", "the stored snapshot restored and matched the numbers recorded at save time"),
    VERIFYING("Verifying", "the verify Job restores the stored snapshot into a scratch directory"),
    VERIFICATION_FAILED(
            "VerificationFailed",
            "the stored snapshot did not restore, or its hash, revision or key count differ from those recorded at save time"),
    VERIFY_JOB_LOST("VerifyJobLost", "the verify Job disappeared before it reported"),
    SUSPENDED("Suspended", "the schedule is suspended"),
    VERSION_DRIFTED("VersionDrifted", "the member runs another etcd version than its spec asks for (condition type)"),
    VERSION_MATCHED("VersionMatched", "the member runs the etcd version its spec asks for"),
    VERSION_MISMATCH("VersionMismatch", "the member runs another etcd version than its spec asks for"),
    WAITING_FOR_AUTH("WaitingForAuth", "the snapshot waits until the cluster latched authentication"),
    WAITING_FOR_CLUSTER("WaitingForCluster", "the snapshot waits for the cluster to become available"),
    QUORUM_RECOVERY(
            "QuorumRecovery",
            "restarting from one member's data with --force-new-cluster, as the force-new-cluster-from annotation asks"),
    QUORUM_RECOVERY_REFUSED("QuorumRecoveryRefused", "the force-new-cluster-from annotation cannot be carried out"),
    QUORUM_RECOVERED("QuorumRecovered", "the cluster runs again from the chosen member; new members join as learners"),
    RESOURCE_CONFLICT(
            "ResourceConflict",
            "an object the cluster needs (a Service) exists and is not controlled by it; it is never taken over"),
    DATA_CORRUPTED(
            "DataCorrupted",
            "etcd raised a CORRUPT alarm: every disruptive step is stopped; a person must inspect and disarm it"),
    SPACE_QUOTA_EXCEEDED(
            "SpaceQuotaExceeded",
            "etcd raised NOSPACE: the keyspace is compacted, members defragmented and the alarm disarmed once there is room"),
    SPACE_QUOTA_FULL(
            "SpaceQuotaFull",
            "NOSPACE persists after compaction and defragmentation: the data itself fills the quota; delete keys or raise it"),
    KEYSPACE_COMPACTED("KeyspaceCompacted", "the keyspace was compacted to its current revision"),
    ALARM_DISARMED("AlarmDisarmed", "a NOSPACE alarm was disarmed after space was reclaimed"),
    DEFRAG_STARTED("DefragStarted", "a defragmentation run started; each member's outcome is decided by its rule"),
    MEMBER_DEFRAGMENTED("MemberDefragmented", "a member was defragmented"),
    DEFRAG_FAILED("DefragFailed", "a member's defragmentation failed"),
    DEFRAG_FINISHED("DefragFinished", "the defragmentation run finished"),
    BELOW_THRESHOLD("BelowThreshold", "the member has less reclaimable space than the rule asks for"),
    RPC_ERROR("RPCError", "etcd refused or did not answer the defragment call"),
    WAITING_FOR_RUN("WaitingForRun", "an earlier defragmentation of the same cluster runs first"),
    RESTORING_SNAPSHOT("RestoringSnapshot", "the seed restores the bootstrap snapshot before etcd first starts"),
    RESTORE_FAILED("RestoreFailed", "the seed's snapshot restore failed; the kubelet retries it"),
    RESTORE_NEEDS_OPERATOR_IMAGE(
            "RestoreNeedsOperatorImage",
            "spec.bootstrap.restore needs the operator image as restore agent; start the operator with --operator-image");

    private final String reason;
    private final String description;

    Reason(String reason, String description) {
        this.reason = reason;
        this.description = description;
    }

    /** The CamelCase name used as condition reason and event reason. */
    public String reason() {
        return reason;
    }

    public String description() {
        return description;
    }
}
