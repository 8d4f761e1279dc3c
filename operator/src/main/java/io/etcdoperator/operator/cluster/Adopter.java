package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.AdoptionSteps;
import io.etcdoperator.operator.planner.Step;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Carries out the steps of an adoption ({@link AdoptionSteps}); each is one status write or one etcd call. */
final class Adopter {

    private static final Logger LOG = LoggerFactory.getLogger(Adopter.class);

    private final EventRecorder events;
    private final LeaseCheck lease;
    private final Clock clock;

    Adopter(EventRecorder events, LeaseCheck lease, Clock clock) {
        this.events = events;
        this.lease = lease;
        this.clock = clock;
    }

    Outcome perform(EtcdCluster cluster, Step.Adopting step, Optional<EtcdAdmin> etcd) {
        return switch (step) {
            case AdoptionSteps.Adopt s -> adopt(cluster, s);
            case AdoptionSteps.HandOverLeadership s -> {
                etcd.orElseThrow().moveLeader(s.leaderClientUrl(), s.transfereeId());
                yield Outcome.reported(
                        events,
                        cluster,
                        s.reason(),
                        "moved leadership from external member " + s.leader() + " to " + s.transferee() + " ("
                                + s.transfereeId() + ")");
            }
            case AdoptionSteps.RemoveExternal s -> remove(cluster, s, etcd.orElseThrow());
            case AdoptionSteps.Finish s -> {
                cluster.getStatus().setExternalMembers(List.of());
                yield Outcome.reported(
                        events, cluster, s.reason(), "adoption complete: etcd lists none of the external members");
            }
        };
    }

    /** The report's status write records both: the cluster id (the outcome's latch) and the external members. */
    private Outcome adopt(EtcdCluster cluster, AdoptionSteps.Adopt s) {
        cluster.getStatus()
                .setExternalMembers(s.external().stream().map(MemberId::hex).toList());
        // the joins get a deadline of their own, not what the refusals before the latch left of the first one
        cluster.getStatus().setProgressDeadline(ClusterReport.deadline(cluster, clock.instant()));
        String message = "adopting running etcd cluster " + s.clusterId() + " with "
                + s.external().size() + " external member(s) (" + s.summary()
                + "); the operator's members join as learners one at a time";
        events.normal(cluster, s.reason(), message);
        LOG.atInfo().addKeyValue("clusterID", s.clusterId()).log(message);
        return new Outcome(s.reason(), message, StepExecutor.SOON, Optional.of(s.clusterId()), false, false);
    }

    private Outcome remove(EtcdCluster cluster, AdoptionSteps.RemoveExternal s, EtcdAdmin etcd) {
        lease.ensureHeld();
        try {
            etcd.remove(s.id());
        } catch (EtcdException.MemberNotFound e) {
            // already gone: the goal holds
        }
        return Outcome.reported(
                events,
                cluster,
                s.reason(),
                "removed external member " + s.name() + " (" + s.id() + ") as asked; " + s.left() + " left");
    }
}
