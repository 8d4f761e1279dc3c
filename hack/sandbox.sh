#!/usr/bin/env bash
# The no-cluster quick start: a local Kubernetes (real kube-apiserver + kube-controller-manager 1.20.2, simulated
# nodes), the operator, and a 3-member EtcdCluster from config/samples.
# Our API group is served by a Kubernetes 1.36 apiextensions-apiserver behind 1.20's aggregator, so the CRDs' CEL
# rules are enforced; SANDBOX_CEL=false keeps the CRDs in kube-apiserver 1.20 (no CEL, as on clusters before 1.25).
# Pods run from images in runc containers. The operator is released as a user gets it: hack/release.sh pushes the
# image and the chart to a real registry on 127.0.0.1 (Debian's docker-registry), `helm install oci://…` installs the
# chart into etcd-operator-system, and the nodes pull the image from that registry. SANDBOX_HOST_PROCESSES=1: the old
# way (Pods as host processes, the operator as a JVM on the host).
#
# Usage: hack/sandbox.sh up       start everything, wait for READY=3, print how to use it (keeps running)
#        hack/sandbox.sh status   what runs, and the clusters
#        hack/sandbox.sh down     stop every process the sandbox started and remove .sandbox/
# Needs root (network namespaces, tmpfs mounts). Everything lives in .sandbox/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SANDBOX=$ROOT/.sandbox
KUBECONFIG_FILE=$SANDBOX/kubeconfig
OPERATOR_IMAGE=ghcr.io/etcd-operator-java/etcd-operator:dev
RELEASE_VERSION=0.0.0-sandbox
REGISTRY=
LOCALKUBE_MAIN=io.etcdoperator.localkube.Main
SAMPLE=config/samples/etcdcluster.yaml
READY_TIMEOUT=${SANDBOX_READY_TIMEOUT:-300}
CEL=${SANDBOX_CEL:-true}

say() { printf '[sandbox] %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

provision() {
  source hack/jdk.sh
  say "JDK: $JAVA_HOME"
  say "etcd binaries (3.4.23, 3.5.16, 3.5.30)"
  eval "$(hack/etcd-binaries.sh --env)"
  export ETCD34_BIN ETCD35_BIN ETCD3530_BIN
  say "kube-apiserver and kube-controller-manager 1.20.2 (the first run builds them: about 15 minutes)"
  eval "$(hack/kube-binaries.sh --env)"
  export KUBE_BIN
  if [ "$CEL" = true ]; then
    say "apiextensions-apiserver and kubectl 1.36.4 (the first run builds them: about 4 minutes)"
    eval "$(hack/apiext-binaries.sh --env)"
    export APIEXT_BIN
  fi
  KUBECTL=$(hack/kubectl.sh --path)
  OPERATOR_JAR=$(ls operator/target/etcd-operator-*.jar 2>/dev/null | grep -v -- '-tests.jar' | head -n1 || true)
  LOCALKUBE_JAR=$(ls local-kube/target/etcd-operator-local-kube-*.jar 2>/dev/null | grep -v -- '-tests.jar' | head -n1 || true)
  if [ -z "$OPERATOR_JAR" ] || [ -z "$LOCALKUBE_JAR" ] || [ -n "${SANDBOX_REBUILD:-}" ]; then
    say "building the operator and local-kube jars (mvn package, tests skipped)"
    mvn -B -q package -DskipTests -Dcrd.bases.skipSync=true -pl operator,local-kube -am >&2
    OPERATOR_JAR=$(ls operator/target/etcd-operator-*.jar | grep -v -- '-tests.jar' | head -n1)
    LOCALKUBE_JAR=$(ls local-kube/target/etcd-operator-local-kube-*.jar | grep -v -- '-tests.jar' | head -n1)
  fi
  if [ -z "${SANDBOX_HOST_PROCESSES:-}" ]; then
    command -v skopeo >/dev/null && [ -x /usr/bin/docker-registry ] \
      || die "the release needs skopeo and docker-registry: apt-get install skopeo docker-registry"
    HELM=$(hack/helm.sh --path)
  fi
  if ! ls kubectl-etcd/target/kubectl-etcd-*.jar >/dev/null 2>&1 || [ -n "${SANDBOX_REBUILD:-}" ]; then
    say "building the kubectl-etcd plugin (mvn package, tests skipped)"
    mvn -B -q package -DskipTests -Dcrd.bases.skipSync=true -pl kubectl-etcd -am >&2
  fi
  mkdir -p "$SANDBOX/bin"
  ln -sf "$ROOT/hack/kubectl-etcd" "$SANDBOX/bin/kubectl-etcd"
}

await() { # await <seconds> <description> <command...>
  local seconds=$1 what=$2 started=$SECONDS
  shift 2
  until "$@" >/dev/null 2>&1; do
    [ $((SECONDS - started)) -lt "$seconds" ] || die "timed out after ${seconds}s waiting for $what"
    sleep 1
  done
  say "$what ($((SECONDS - started)) s)"
}

kube() { "$KUBECTL" --kubeconfig "$KUBECONFIG_FILE" "$@"; }

# helm's cache, config and registry logins stay in .sandbox
sandbox_helm_env() { env HELM_CACHE_HOME="$SANDBOX/helm/cache" HELM_CONFIG_HOME="$SANDBOX/helm/config" \
  HELM_DATA_HOME="$SANDBOX/helm/data" "$@"; }

# Debian's docker-registry on a port of 127.0.0.1 it picks itself (and logs), storage in .sandbox
start_registry() {
  mkdir -p "$SANDBOX/registry/storage" "$SANDBOX/logs"
  cat >"$SANDBOX/registry/config.yml" <<CONFIG
version: 0.1
log:
  level: info
storage:
  filesystem:
    rootdirectory: $SANDBOX/registry/storage
http:
  addr: 127.0.0.1:0
CONFIG
  nohup /usr/bin/docker-registry serve "$SANDBOX/registry/config.yml" >"$SANDBOX/logs/registry.log" 2>&1 &
  echo $! >"$SANDBOX/registry.pid"
  await 30 "registry listening" grep -q 'listening on 127\.0\.0\.1:' "$SANDBOX/logs/registry.log"
  REGISTRY=127.0.0.1:$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$SANDBOX/logs/registry.log" | head -n1)
  OPERATOR_IMAGE=$REGISTRY/etcd-operator:$RELEASE_VERSION
  say "registry at $REGISTRY (log: .sandbox/logs/registry.log)"
}

# the image (hack/image.sh), its SBOM and the chart, pushed to the sandbox's registry
release() {
  say "hack/release.sh $RELEASE_VERSION --registry $REGISTRY (log: .sandbox/logs/release.log)"
  local started=$SECONDS
  sandbox_helm_env hack/release.sh "$RELEASE_VERSION" --registry "$REGISTRY" --out "$SANDBOX/release" \
    --allow-dirty --no-rebuild >"$SANDBOX/logs/release.log" 2>&1 \
    || { tail -n 30 "$SANDBOX/logs/release.log" >&2; die "hack/release.sh failed"; }
  say "released and pushed ($((SECONDS - started)) s): $(grep -m1 '^release: image digest' "$SANDBOX/logs/release.log")"
}

start_kube() {
  mkdir -p "$SANDBOX/logs"
  # in containers the nodes pull the operator image from the registry; as host processes they run the jar
  local image_flags=(--operator-jar "$ROOT/$OPERATOR_JAR" --operator-image "$OPERATOR_IMAGE")
  [ -z "$REGISTRY" ] || image_flags=(--containers true --registry "$REGISTRY")
  local cel_flags=()
  if [ "$CEL" = true ]; then
    # created on the 1.36 server itself: through kube-apiserver they would land in 1.20's own CRD store
    cel_flags=(--crds-on-1.36 "$ROOT/config/crd/bases")
    say "starting local Kubernetes: control plane + 3 nodes + apiextensions-apiserver 1.36 serving config/crd/bases"
  else
    say "starting local Kubernetes: control plane + 3 nodes (log: .sandbox/logs/local-kube.log)"
  fi
  nohup "$JAVA_HOME/bin/java" -cp "$LOCALKUBE_JAR:$(dirname "$LOCALKUBE_JAR")/lib/*" "$LOCALKUBE_MAIN" \
    --work-dir "$SANDBOX/kube" --nodes 3 --kubeconfig "$KUBECONFIG_FILE" \
    "${cel_flags[@]}" "${image_flags[@]}" \
    >"$SANDBOX/logs/local-kube.log" 2>&1 &
  echo $! >"$SANDBOX/local-kube.pid"
  local started=$SECONDS
  until grep -q '^ready' "$SANDBOX/logs/local-kube.log" 2>/dev/null; do
    alive "$SANDBOX/local-kube.pid" || { tail -n 30 "$SANDBOX/logs/local-kube.log" >&2; die "local Kubernetes exited"; }
    [ $((SECONDS - started)) -lt 180 ] || die "local Kubernetes not ready after 180 s (see .sandbox/logs/local-kube.log)"
    sleep 1
  done
  say "local Kubernetes ready ($((SECONDS - started)) s): $(grep '^ready' "$SANDBOX/logs/local-kube.log" | head -n1)"
}

hosts_file() {
  sed -n 's/^ready.*hosts=\([^ ]*\).*/\1/p' "$SANDBOX/logs/local-kube.log" | head -n1
}

# The way users install it: the CRDs, then the released chart from the registry into etcd-operator-system
# (Deployment etcd-operator, in-cluster config, leader election, probes), run by the nodes from the image they pull
# from the registry, in runc containers. crds.install=false:
# install_crds put them in (kube-apiserver 1.20 refuses their CEL fields under Helm's strict field validation, and
# Helm cannot adopt CRDs it did not create).
install_chart() {
  install_crds
  local chart=oci://$REGISTRY/charts/etcd-operator
  say "helm install etcd-operator $chart --version $RELEASE_VERSION --plain-http --namespace etcd-operator-system"
  local started=$SECONDS
  sandbox_helm_env "$HELM" install etcd-operator "$chart" --version "$RELEASE_VERSION" --plain-http \
    --kubeconfig "$KUBECONFIG_FILE" --namespace etcd-operator-system --create-namespace --set crds.install=false \
    --wait --timeout 180s >/dev/null
  say "Deployment etcd-operator available ($((SECONDS - started)) s)"
}

install_crds() {
  if [ "$CEL" = true ]; then
    say "CRDs served by the 1.36 server: $(sed -n 's/^local-kube: serving \(.*\) from it.*/\1/p' "$SANDBOX/logs/local-kube.log")"
    return
  fi
  say "installing the CRDs from config/crd/bases into kube-apiserver 1.20 (which drops their CEL rules)"
  kube create -f config/crd/bases/ --validate=false >/dev/null 2>&1 || kube replace -f config/crd/bases/ --validate=false >/dev/null
  await 60 "CRDs established" kube wait --for condition=established --timeout=5s crd --all
}

start_operator() {
  install_crds
  say "starting the operator (log: .sandbox/logs/operator.log)"
  # The operator dials members by their DNS names; on the host those resolve through the nodes' hosts file.
  KUBECONFIG=$KUBECONFIG_FILE nohup "$JAVA_HOME/bin/java" -Djdk.net.hosts.file="$(hosts_file)" \
    -Dsun.net.inetaddr.ttl=1 -Dsun.net.inetaddr.negative.ttl=0 -jar "$ROOT/$OPERATOR_JAR" \
    --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 \
    --cluster-domain cluster.local --operator-image "$OPERATOR_IMAGE" \
    >"$SANDBOX/logs/operator.log" 2>&1 &
  echo $! >"$SANDBOX/operator.pid"
  await 60 "operator started" grep -q "etcd-operator started" "$SANDBOX/logs/operator.log"
}

ready_members() {
  [ "$(kube get etcdcluster my-etcd -o jsonpath='{.status.readyMembers}' 2>/dev/null)" = "3" ]
}

up() {
  if alive "$SANDBOX/local-kube.pid"; then
    say "already up; 'hack/sandbox.sh status' shows it, 'hack/sandbox.sh down' stops it"
    exit 0
  fi
  [ "$(id -u)" -eq 0 ] || die "the simulated nodes need root (network namespaces, tmpfs mounts)"
  rm -rf "$SANDBOX"
  mkdir -p "$SANDBOX"
  local started=$SECONDS
  provision
  if [ -z "${SANDBOX_HOST_PROCESSES:-}" ]; then start_registry; release; fi
  start_kube
  if [ -n "${SANDBOX_HOST_PROCESSES:-}" ]; then start_operator; else install_chart; fi
  say "applying $SAMPLE (3 members on PVCs)"
  kube apply --server-side -f "$SAMPLE" $([ "$CEL" = true ] || echo --validate=false) >/dev/null
  await "$READY_TIMEOUT" "EtcdCluster my-etcd READY=3" ready_members
  say "sandbox up in $((SECONDS - started)) s"
  local pod ip etcdctl
  pod=$(kube get pods -l etcd-operator.cozystack.io/cluster=my-etcd -o jsonpath='{.items[0].metadata.name}')
  ip=$(kube get pod "$pod" -o jsonpath='{.status.podIP}')
  etcdctl=${ETCD35_BIN:-/usr/bin}/etcdctl
  [ -x "$etcdctl" ] || etcdctl=/usr/bin/etcdctl
  "$etcdctl" --endpoints="http://$ip:2379" member list -w table >&2 || true
  cat <<INFO

The sandbox is running. Try:
  export KUBECONFIG=$KUBECONFIG_FILE
  $KUBECTL get etcdclusters,etcdmembers,pods,pvc
  $KUBECTL logs $pod
  $etcdctl --endpoints=http://$ip:2379 member list -w table
  $etcdctl --endpoints=http://$ip:2379 put hello world
  $KUBECTL apply --server-side -f config/samples/etcdcluster-memory.yaml
  $KUBECTL patch etcdcluster my-etcd --type merge -p '{"spec":{"replicas":5}}'
  $KUBECTL patch etcdcluster my-etcd --type merge -p '{"spec":{"storage":{"size":"1Mi"}}}'  # refused: CEL
  PATH=$SANDBOX/bin:\$PATH $KUBECTL etcd endpoints -p $pod    # the kubectl-etcd plugin (docs/kubectl-etcd.md)
Logs: .sandbox/logs/. Stop everything with: hack/sandbox.sh down
INFO
}

status() {
  local name
  for name in local-kube registry operator; do
    [ "$name" = local-kube ] || [ -f "$SANDBOX/$name.pid" ] || continue   # the chart's Deployment runs the operator
    if alive "$SANDBOX/$name.pid"; then say "$name: running (pid $(cat "$SANDBOX/$name.pid"))"; else say "$name: not running"; fi
  done
  if alive "$SANDBOX/local-kube.pid"; then
    KUBECTL=$(hack/kubectl.sh --path)
    kube get etcdclusters -A 2>&1 || true
    kube get pods -A -o wide 2>&1 || true
  fi
}

stop_pid() { # stop_pid <pidfile> <name> <grace seconds>
  local file=$1 name=$2 grace=$3 pid
  alive "$file" || return 0
  pid=$(cat "$file")
  say "stopping $name (pid $pid)"
  kill -TERM "$pid"
  local waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$grace" ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    say "$name still running after ${grace}s; sending SIGKILL"
    kill -KILL "$pid"
  fi
}

down() {
  stop_pid "$SANDBOX/operator.pid" operator 30
  # local Kubernetes stops its Pods' processes and removes its namespaces, links and mounts on SIGTERM
  stop_pid "$SANDBOX/local-kube.pid" "local Kubernetes" 90
  stop_pid "$SANDBOX/registry.pid" registry 10
  rm -rf "$SANDBOX"
  say "down; .sandbox removed"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) sed -n '10,13s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
