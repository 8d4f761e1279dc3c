#!/usr/bin/env bash
# Operator benchmarks on local Kubernetes (real kube-apiserver 1.20.2 + simulated nodes): prints a Markdown table of
# median and min–max over N runs to stdout; everything else (provisioning, Maven, progress) goes to stderr.
#   hack/bench.sh [--runs N] [--idle-seconds S] [--fleet C] [--settle-seconds S] [--quick]
# Defaults: 3 runs, 60 s idle window, 20 three-member clusters, 15 s settling. A full run takes 30-60 min on 2 cores.
# --quick: only etcd's floor, READY=3, the Pod loss and 3 -> 5 (a few minutes; for work on join times).
set -euo pipefail
cd "$(dirname "$0")/.."

# hack/bench.sh --simulated N [--idle-seconds S] [--settle-seconds S] [--jvm "FLAGS"] [--profile-idle] [--profile-formation]: only SimulatedFleetBench, N three-member clusters on
# simulated etcd (docs/benchmarks.md, "1000 simulated clusters"); the operator runs as a host JVM with FLAGS (default
# -Xmx512m); builds through the reactor, prints bench/target/bench/simulated.md. --profile-idle records the idle window
# with JFR, which itself costs about 40 % of the idle CPU: quote idle CPU from a run without it. --profile-formation
# records from the first create to the last READY=3 (simulated-formation-profile.txt); quote no times from such a run.
if [ "${1:-}" = "--simulated" ]; then
  sim_clusters=${2:?--simulated needs a number of clusters}
  sim_idle=60 sim_settle=15 sim_jvm=-Xmx512m sim_profile=false sim_profile_formation=false
  shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      --idle-seconds) sim_idle=$2; shift 2 ;;
      --settle-seconds) sim_settle=$2; shift 2 ;;
      --jvm) sim_jvm=$2; shift 2 ;;
      --profile-idle) sim_profile=true; shift ;;
      --profile-formation) sim_profile_formation=true; shift ;;
      *) echo "error: unknown argument '$1'" >&2; exit 2 ;;
    esac
  done
  source hack/jdk.sh
  eval "$(hack/etcd-binaries.sh --env)"; export ETCD34_BIN ETCD35_BIN ETCD3530_BIN
  eval "$(hack/kube-binaries.sh --env)"; export KUBE_BIN
  eval "$(hack/apiext-binaries.sh --env)"; export APIEXT_BIN
  rm -f bench/target/bench/simulated.md
  mvn -B verify -pl bench -am -Pbench -Dcrd.bases.skipSync=true -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=SimulatedFleetBench -Dfailsafe.failIfNoSpecifiedTests=false -Dbench.simulated.clusters="$sim_clusters" \
    -Dbench.simulated.idle.seconds="$sim_idle" -Dbench.settle.seconds="$sim_settle" -De2e.operator.jvm="$sim_jvm" \
    -Dbench.simulated.profile="$sim_profile" -Dbench.simulated.profile.formation="$sim_profile_formation" >&2 \
    || sim_status=$?
  [ -s bench/target/bench/simulated.md ] && cat bench/target/bench/simulated.md
  exit "${sim_status:-0}"
fi

runs=3 idle=60 fleet=20 settle=15 quick=false
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --idle-seconds) idle=$2; shift 2 ;;
    --fleet) fleet=$2; shift 2 ;;
    --settle-seconds) settle=$2; shift 2 ;;
    --quick) quick=true; shift ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

source hack/jdk.sh
echo "==> JDK: $JAVA_HOME" >&2
echo "==> etcd binaries (3.4.23 from bookworm, 3.5.16 from trixie, 3.5.30 from sid)" >&2
eval "$(hack/etcd-binaries.sh --env)"
export ETCD34_BIN ETCD35_BIN ETCD3530_BIN
echo "==> kube-apiserver and kube-controller-manager 1.20.2 (built once per machine, cached)" >&2
eval "$(hack/kube-binaries.sh --env)"
export KUBE_BIN

# e2e too: its test-jar is the harness the bench module runs on
echo "==> building the operator, local-kube and the e2e harness (no tests)" >&2
mvn -B -q install -DskipTests -Dcrd.bases.skipSync=true -pl api,etcd-client,pki,snapshot,operator,local-kube,kubectl-etcd,e2e -am >&2

table=bench/target/bench/table.md
progress=bench/target/bench/progress.log
rm -f "$table" "$progress"
mkdir -p "$(dirname "$progress")"
touch "$progress"
tail -n +1 -F "$progress" >&2 2>/dev/null &
tail_pid=$!
trap 'kill "$tail_pid" 2>/dev/null || true' EXIT

echo "==> mvn -Pbench verify -pl bench (runs=$runs idle=${idle}s fleet=$fleet settle=${settle}s)" >&2
status=0
mvn -B -pl bench verify -Pbench -Dcrd.bases.skipSync=true -Dit.test=OperatorBench -Dbench.runs="$runs" -Dbench.idle.seconds="$idle" \
  -Dbench.fleet="$fleet" -Dbench.settle.seconds="$settle" -Dbench.quick="$quick" >&2 || status=$?

if [ -s "$table" ]; then
  cat "$table"
fi
if [ "$status" -ne 0 ]; then
  echo "error: the benchmark failed (exit $status); the table above holds the runs that completed." \
    "Logs: bench/target/failsafe-reports/, bench/target/e2e-<pid>/ (operator, control plane, Pods)" >&2
fi
exit "$status"
