#!/usr/bin/env bash
# The whole test run: installs what the tests need (idempotent), then `mvn -B verify`.
# Unit tests, CEL rule tests, golden files, integration tests against real etcd 3.4.23, 3.5.16 and 3.5.30 processes, and
# end-to-end tests of the operator on a local Kubernetes (real kube-apiserver 1.20.2 + simulated nodes), and the CRDs
# and CEL cases checked on a real Kubernetes 1.36 apiextensions-apiserver.
set -euo pipefail
cd "$(dirname "$0")/.."
source hack/jdk.sh
echo "==> JDK: $JAVA_HOME" >&2
echo "==> etcd binaries (3.4.23 from bookworm, 3.5.16 from trixie, 3.5.30 from sid)" >&2
eval "$(hack/etcd-binaries.sh --env)"
export ETCD34_BIN ETCD35_BIN ETCD3530_BIN
echo "==> kube-apiserver and kube-controller-manager 1.20.2 (built once per machine, cached)" >&2
eval "$(hack/kube-binaries.sh --env)"
export KUBE_BIN
echo "==> apiextensions-apiserver and kubectl 1.36.4 (CEL-enforcing CRD server, built once per machine, cached)" >&2
eval "$(hack/apiext-binaries.sh --env)"
export APIEXT_BIN
# etcd-guard (operator/src/main/c) is linked static: the C library's headers and libc.a
if [ ! -f /usr/lib/x86_64-linux-gnu/libc.a ] && [ ! -f /usr/lib/libc.a ]; then
  echo "==> libc6-dev (static C library for etcd-guard)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libc6-dev >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libc6-dev >&2; }
fi
# promtool (Debian's prometheus package; its service is not started) runs the alert rules' unit tests
if ! command -v promtool >/dev/null; then
  echo "==> promtool (alert rule tests)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq prometheus >&2; }
fi
# ReleaseIT pushes a release with skopeo and helm to a real registry (Debian's docker-registry, run by the test as
# its own child process on 127.0.0.1; the package's service is not used)
if ! command -v skopeo >/dev/null || [ ! -x /usr/bin/docker-registry ]; then
  echo "==> docker-registry and skopeo (release test)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry skopeo >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-registry skopeo >&2; }
  # the package starts an unauthenticated registry on :5000 of every interface where systemd runs: not wanted here
  systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi
# the simulated nodes run Pods in runc containers from unpacked images (local-kube's RuncContainersIT comes before
# any image is built), and hack/image.sh builds the operator's image with buildah: all four from Debian
if ! command -v runc >/dev/null || ! command -v umoci >/dev/null || ! command -v buildah >/dev/null \
    || ! command -v iptables >/dev/null; then
  echo "==> runc, umoci, buildah and iptables (simulated nodes, operator image)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runc umoci buildah iptables >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runc umoci buildah iptables >&2; }
fi
# The e2e run keeps every PVC member's data (64 MiB WAL segments) until it ends: about 9 GiB on its own. A full disk
# shows up only as "No space left on device" deep in a 50-minute run, so say so at the start.
free_gib=$(df -P -BG . | awk 'NR==2 { sub("G", "", $4); print $4 }')
echo "==> ${free_gib} GiB free on the file system of $(pwd)" >&2
if [ "${free_gib:-0}" -lt 15 ]; then
  echo "warning: the run needs about 15 GiB free (e2e volumes, Maven, images); expect 'No space left on device'" >&2
fi
echo "==> mvn -B verify" >&2
# crd.bases.skipSync: the committed config/crd/bases must already match the generated CRDs (drift fails the build).
exec mvn -B verify -Dcrd.bases.skipSync=true "$@"
