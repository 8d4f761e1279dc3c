package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Test fixture: "a cluster with these EtcdMembers, and etcd saying this". */
final class Observations {

  static final ClusterId CLUSTER = new ClusterId(0xc1L);
  private final List<ObservedMember> members = new ArrayList<>();
  private final List<Member> etcd = new ArrayList<>();
  private Optional<ClusterId> clusterId = Optional.of(CLUSTER);
  private EtcdView view;
  private int clock;

  static Observations cluster() {
    return new Observations();
  }

  static URI peer(String name) {
    return URI.create("http://" + name + ".demo.default.svc:2380");
  }

  static MemberId id(String name) {
    return new MemberId(Math.abs(name.hashCode()) + 1L);
  }

  Observations notFormed() {
    clusterId = Optional.empty();
    return this;
  }

  /** A running, ready EtcdMember that etcd knows as a voter. */
  Observations voter(String name) {
    add(name, false, false, false, false, true, true, true, true);
    etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
    return this;
  }

  Observations unreadyVoter(String name) {
    add(name, false, false, false, false, false, true, true, true);
    etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
    return this;
  }

  Observations seed(String name, boolean pending, boolean hasPod) {
    add(name, true, pending, false, false, false, hasPod, true, true);
    return this;
  }

  Observations pending(String name) {
    add(name, false, true, false, false, false, false, false, true);
    return this;
  }

  /** An EtcdMember whose learner add happened (etcd knows its peer URL) and whose Pod has or has not started. */
  Observations learner(String name, boolean started) {
    add(name, false, false, false, false, false, started, false, true);
    etcd.add(new Member(id(name), started ? name : "", List.of(peer(name)), List.of(), true));
    return this;
  }

  Observations addedButUnwritten(String name) {
    add(name, false, true, false, false, false, false, false, true);
    etcd.add(new Member(id(name), "", List.of(peer(name)), List.of(), true));
    return this;
  }

  Observations dormant(String name) {
    add(name, false, false, true, false, false, false, true, true);
    return this;
  }

  Observations deleting(String name) {
    add(name, false, false, false, true, true, true, true, true);
    etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
    return this;
  }

  Observations foreign(String name) {
    add(name, false, false, false, false, true, true, true, false);
    etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
    return this;
  }

  Observations orphanInEtcd(String name, boolean learner) {
    etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), learner));
    return this;
  }

  Observations etcdView(EtcdView v) {
    view = v;
    return this;
  }

  ObservedCluster build() {
    EtcdView v = view != null ? view : new EtcdView.Reached(new Membership(CLUSTER, etcd));
    return new ObservedCluster(clusterId, members, v);
  }

  private void add(String name, boolean seed, boolean pending, boolean dormant, boolean deleting, boolean ready,
      boolean hasPod, boolean voterMark, boolean controlled) {
    members.add(new ObservedMember(name, Instant.EPOCH.plusSeconds(clock++), seed, pending, dormant, deleting, ready,
        hasPod, voterMark, ready ? Optional.of(id(name)) : Optional.empty(), peer(name), controlled));
  }
}
