#!/usr/bin/env bash
# Provides a Kubernetes 1.36 apiextensions-apiserver (CEL-enforcing storage for our CRDs) and kubectl 1.36, both
# from Debian sid, for the CRD admission and CEL cross-check tests. Idempotent: the binaries are cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/apiext-1.36.4/ and a second run returns at once.
#
# Usage: hack/apiext-binaries.sh          provision, progress on stderr
#        hack/apiext-binaries.sh --env    provision, then print `export APIEXT_BIN=<dir>` on stdout (for eval)
#
# How: sid ships Kubernetes 1.36's staging libraries (k8s.io/apiextensions-apiserver with its main.go, apiserver,
# client-go, cel-go, ...) as Go source packages, and Go 1.27. Their .debs are fetched through a private apt state
# (the machine's sources, lists and dpkg database are never touched), unpacked with `dpkg -x` (never installed),
# and the server is built offline in GOPATH mode, about 3.5 minutes on 2 cores. kubectl is sid's package, pinned to
# 1.36.x (a machine may know another package named kubectl with a higher epoch).
set -euo pipefail

readonly KUBE_VERSION=1.36.4
readonly SUITE=sid
readonly ROOT_PKG=golang-k8s-apiextensions-apiserver-dev
readonly GO_PKGS=(golang-1.27-go golang-1.27-src)
readonly CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/apiext-${KUBE_VERSION}"
# The stamp is written last, so a cache without it is an interrupted run and is redone.
readonly STAMP="$CACHE_DIR/.complete"
readonly STAMP_CONTENT="apiextensions-apiserver + kubectl ${KUBE_VERSION} from debian ${SUITE}, CRD OpenAPI served, v2 without its own group"
readonly KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

log() { printf '[apiext-binaries] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

print_env=false
case "${1:-}" in
  "") ;;
  --env) print_env=true ;;
  *) sed -n '6,7s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

cache_is_complete() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_CONTENT" ] \
    && [ -x "$CACHE_DIR/apiextensions-apiserver" ] && [ -x "$CACHE_DIR/kubectl" ]
}

# The Debian archive this machine already uses (first non-security URI), so no mirror is hard-coded here.
debian_archive_uri() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' \
    | grep '/debian/\?$' | head -n1 || true)
  if [ -z "$uri" ]; then
    uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
      | awk '{for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) {print $i; exit}}' \
      | grep -v -- '-security' | grep '/debian/\?$' | head -n1 || true)
  fi
  echo "${uri:-http://deb.debian.org/debian}" | sed 's:/*$::'
}

fetch() {
  local work=$1
  mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/debs" "$work/root"
  echo "deb [signed-by=$KEYRING] $(debian_archive_uri) $SUITE main" >"$work/apt/sources.list"
  APT_OPTS=(-q -o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o Debug::NoLocking=1
    -o "APT::Sandbox::User=$(id -un)")
  log "fetching the $SUITE package index into a private apt state"
  apt-get "${APT_OPTS[@]}" update >&2 || die "apt-get update of the $SUITE index failed"
  # Every Go source package the server's sources may import: the dependency closure of the -dev package, keeping
  # golang-*-dev (all arch:all). It lists alternatives too, so it is wider than needed (~300 packages, ~230 MB).
  apt-cache "${APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "$ROOT_PKG" 2>/dev/null | grep -E '^golang-.*-dev$' | sort -u >"$work/godev.txt"
  grep -qx "$ROOT_PKG" "$work/godev.txt" || die "$SUITE has no $ROOT_PKG"
  local dev_version kubectl_version
  dev_version=$(apt-cache "${APT_OPTS[@]}" madison "$ROOT_PKG" | awk -F'|' '{gsub(/ /, "", $2); print $2; exit}')
  case "$dev_version" in
    0.${KUBE_VERSION#1.}*) ;;
    *) die "$SUITE's $ROOT_PKG is $dev_version, expected 0.${KUBE_VERSION#1.}-* (update KUBE_VERSION here)" ;;
  esac
  kubectl_version=$(apt-cache "${APT_OPTS[@]}" madison kubectl \
    | awk -F'|' -v want="${KUBE_VERSION}" '{gsub(/ /, "", $2); if (index($2, want) == 1) {print $2; exit}}')
  [ -n "$kubectl_version" ] || die "$SUITE has no kubectl ${KUBE_VERSION}*"
  log "downloading $(wc -l <"$work/godev.txt") Go source packages ($ROOT_PKG $dev_version), Go 1.27 and kubectl=$kubectl_version"
  # shellcheck disable=SC2046
  (cd "$work/debs" && apt-get "${APT_OPTS[@]}" download "${GO_PKGS[@]}" "kubectl=$kubectl_version" \
    $(cat "$work/godev.txt") >"$work/download.log" 2>&1) || { tail -n 20 "$work/download.log" >&2; die "download failed"; }
  log "unpacking $(ls "$work"/debs/*.deb | wc -l) packages with dpkg -x (nothing is installed)"
  local deb
  for deb in "$work"/debs/*.deb; do
    nice -n 10 dpkg -x "$deb" "$work/root"
  done
  [ -x "$work/root/usr/lib/go-1.27/bin/go" ] || die "the unpacked Go toolchain has no go binary"
  [ -x "$work/root/usr/bin/kubectl" ] || die "the kubectl package holds no usr/bin/kubectl"
}

# The standalone server sets only an OpenAPI v3 config, and runs its CRD OpenAPI controllers only with a v2 one
# (StaticOpenAPISpec): without it no CRD is in /openapi/v2 or v3 and `kubectl explain` knows none. One line sets
# the v2 config as kube-apiserver does; its own group stays out of v2, which a 1.20 aggregator in front refuses to
# merge (the path is its own too) and so drops our group with it.
serve_crd_openapi() {
  local options="$1/root/usr/share/gocode/src/k8s.io/apiextensions-apiserver/pkg/cmd/server/options/options.go"
  local v3='serverConfig.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config('
  grep -qF "$v3" "$options" || die "$options: the OpenAPI v3 config line to follow is gone (update serve_crd_openapi)"
  sed -i '/serverConfig.OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config/{p;s/OpenAPIV3Config = genericapiserver.DefaultOpenAPIV3Config/OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig/;p;s/OpenAPIConfig = .*/OpenAPIConfig.IgnorePrefixes = []string{"\/apis\/apiextensions.k8s.io"}/}' "$options"
  grep -qF 'serverConfig.OpenAPIConfig = genericapiserver.DefaultOpenAPIConfig(' "$options" || die "$options: patch failed"
}

build() {
  local work=$1 started=$SECONDS
  local goroot="$work/root/usr/lib/go-1.27"
  serve_crd_openapi "$work"
  # Without a stamped version the server reports v0.0.0-master, which kubectl cannot parse.
  local ldflags="-s -w" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=v${KUBE_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=$(echo "$KUBE_VERSION" | cut -d. -f2)"
    ldflags+=" -X $pkg.gitCommit=debian-${SUITE}-$ROOT_PKG -X $pkg.gitTreeState=clean"
    ldflags+=" -X $pkg.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  done
  mkdir -p "$work/gocache" "$work/gotmp" "$work/home"
  log "building k8s.io/apiextensions-apiserver with $("$goroot/bin/go" version | awk '{print $3}'), offline (minutes on 2 cores)"
  (cd "$work" && nice -n 10 env -u GOFLAGS GOROOT="$goroot" GOPATH="$work/root/usr/share/gocode" \
    PATH="$goroot/bin:$PATH" GO111MODULE=off GOTOOLCHAIN=local GOPROXY=off CGO_ENABLED=0 \
    GOCACHE="$work/gocache" GOTMPDIR="$work/gotmp" HOME="$work/home" \
    go build -trimpath -ldflags "$ldflags" -o "$work/apiextensions-apiserver" k8s.io/apiextensions-apiserver >&2)
  log "build finished in $((SECONDS - started)) s"
}

install() {
  local work=$1 bin
  mkdir -p "$CACHE_DIR"
  rm -f "$STAMP"
  cp "$work/apiextensions-apiserver" "$CACHE_DIR/apiextensions-apiserver.tmp"
  cp "$work/root/usr/bin/kubectl" "$CACHE_DIR/kubectl.tmp"
  for bin in apiextensions-apiserver kubectl; do
    mv -f "$CACHE_DIR/$bin.tmp" "$CACHE_DIR/$bin"
  done
  "$CACHE_DIR/apiextensions-apiserver" --help >/dev/null 2>&1 || die "the built server does not run"
  "$CACHE_DIR/kubectl" version --client >&2 || die "the unpacked kubectl does not run"
  echo "$STAMP_CONTENT" >"$STAMP"
}

provision() {
  local started=$SECONDS work
  command -v dpkg >/dev/null || die "dpkg is needed to unpack the $SUITE packages"
  mkdir -p "$(dirname "$CACHE_DIR")"
  work=$(mktemp -d "$(dirname "$CACHE_DIR")/apiext-build.XXXXXX")
  # Go leaves read-only files in its cache; make them writable so the cleanup removes everything.
  trap 'chmod -R u+w "'"$work"'" 2>/dev/null; rm -rf "'"$work"'"' EXIT
  fetch "$work"
  build "$work"
  install "$work"
  log "provisioned in $((SECONDS - started)) s; removing the build tree"
}

main() {
  if ! cache_is_complete; then
    mkdir -p "$(dirname "$CACHE_DIR")"
    # One build per machine even when several checkouts run this at once.
    exec 9>"$(dirname "$CACHE_DIR")/apiext-${KUBE_VERSION}.lock"
    if ! flock -n 9; then
      log "another run is building; waiting for it"
      flock 9
    fi
    cache_is_complete || provision
  fi
  log "apiextensions-apiserver and kubectl ${KUBE_VERSION} are in $CACHE_DIR"
  if $print_env; then
    echo "export APIEXT_BIN=$CACHE_DIR"
  fi
}

# One line, so that bash has read all of it before running: editing the file mid-run cannot derail it.
main "$@"; exit $?
