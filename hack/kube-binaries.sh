#!/usr/bin/env bash
# Provides kube-apiserver and kube-controller-manager 1.20.2 (built from Debian bookworm's `kubernetes` source
# package) and etcd 3.4 for the local control plane used by integration tests. Idempotent: the binaries are cached
# under ${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/kube-1.20.2/ and a second run returns at once.
#
# Usage: hack/kube-binaries.sh          provision, progress on stderr
#        hack/kube-binaries.sh --env    provision, then print KUBE_BIN=<dir> on stdout
set -euo pipefail

readonly KUBE_VERSION=1.20.2
readonly SUITE=bookworm
readonly BINARIES=(kube-apiserver kube-controller-manager)
readonly CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/kube-${KUBE_VERSION}"
# The stamp is written last, so a cache without it is an interrupted build and is rebuilt.
readonly STAMP="$CACHE_DIR/.complete"
readonly STAMP_CONTENT="kubernetes ${KUBE_VERSION} from debian ${SUITE}, reflect2 1.0.2, openapi zero-value fix"

log() { printf '[kube-binaries] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
  sed -n '6,7s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

print_env=false
case "${1:-}" in
  "") ;;
  --env) print_env=true ;;
  -h|--help) usage ;;
  *) usage ;;
esac

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    die "need root to run: $*"
  fi
}

apt_install() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]} from Debian"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 || {
    log "apt-get install failed; refreshing package lists once"
    as_root apt-get update -q >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
  }
}

ensure_etcd() {
  if [ -x /usr/bin/etcd ]; then
    return 0
  fi
  apt_install etcd-server etcd-client
}

cache_is_complete() {
  [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_CONTENT" ] || return 1
  local bin
  for bin in "${BINARIES[@]}"; do
    [ -x "$CACHE_DIR/$bin" ] || return 1
  done
}

# Fetches the source package through a private apt state dir, so the machine's sources and lists stay untouched.
fetch_source() {
  local work=$1 apt_dir="$1/apt"
  mkdir -p "$apt_dir/lists/partial" "$work/src"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian ${SUITE} main" \
    >"$apt_dir/sources.list"
  local opts=(-q -o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
  # apt's _apt sandbox user cannot write into a private dir under root's home.
  [ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
  log "fetching Debian ${SUITE} source package 'kubernetes'"
  apt-get "${opts[@]}" update >&2
  (cd "$work/src" && apt-get "${opts[@]}" source --download-only kubernetes >&2)
  local orig
  orig=$(ls "$work"/src/kubernetes_*.orig.tar.gz 2>/dev/null | head -n1)
  [ -n "$orig" ] || die "no kubernetes orig tarball was downloaded"
  log "unpacking $(basename "$orig")"
  tar -xzf "$orig" -C "$work/src"
  [ -d "$work/src/kubernetes-${KUBE_VERSION}" ] || die "tarball does not contain kubernetes-${KUBE_VERSION}"
}

# Kubernetes 1.20.2 vendors reflect2 1.0.1, whose runtime linkname is wrong for Go >= 1.18: the apiserver would
# crash on the first custom-resource write. Debian ships 1.0.2, which is fixed.
replace_reflect2() {
  local tree=$1 fixed=/usr/share/gocode/src/github.com/modern-go/reflect2
  [ -d "$fixed" ] || die "$fixed is missing (package golang-github-modern-go-reflect2-dev)"
  log "replacing vendored modern-go/reflect2 with Debian's 1.0.2"
  rm -rf "$tree/vendor/github.com/modern-go/reflect2"
  cp -r "$fixed" "$tree/vendor/github.com/modern-go/"
  rm -f "$tree/vendor/github.com/modern-go/reflect2/go.mod"
}

# go-openapi's type validator treats any value equal to its type's zero value as null by comparing reflect.Value
# structs. Built with Go >= 1.19 that comparison becomes true for "", 0 and false, so the apiserver would refuse
# `initialCluster: ""` or `replicas: 0` in custom resources. Only a real nil is null.
patch_openapi_zero_values() {
  local tree=$1 files
  files=$(grep -rl --include=type.go 'reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))' \
    "$tree/vendor" "$tree/staging" || true)
  [ -n "$files" ] || die "found no go-openapi type validator to patch"
  log "patching the zero-value-is-null check in: $(echo "$files" | sed "s|$tree/||" | tr '\n' ' ')"
  echo "$files" | xargs perl -pi -e \
    's/\Q || reflect.DeepEqual(reflect.Zero(reflect.TypeOf(data)), reflect.ValueOf(data))\E//'
}

build_binaries() {
  local work=$1 tree="$1/src/kubernetes-${KUBE_VERSION}" started=$SECONDS
  mkdir -p "$tree/.go/src/k8s.io" "$work/home" "$work/gocache"
  ln -sfn ../../.. "$tree/.go/src/k8s.io/kubernetes"
  log "building ${BINARIES[*]} with $(go version | awk '{print $3}') (takes minutes on 2 cores)"
  # The tarball has no .git; without a version file the binaries would report a placeholder version.
  local minor=${KUBE_VERSION#*.}
  printf "KUBE_GIT_VERSION='v%s'\nKUBE_GIT_MAJOR='1'\nKUBE_GIT_MINOR='%s'\nKUBE_GIT_TREE_STATE='clean'\n" \
    "$KUBE_VERSION" "${minor%%.*}" >"$work/version.env"
  (cd "$tree" && nice -n 10 env GOPATH="$tree/.go" GOCACHE="$work/gocache" HOME="$work/home" CGO_ENABLED=0 \
    KUBE_GIT_VERSION_FILE="$work/version.env" \
    make WHAT="cmd/kube-apiserver cmd/kube-controller-manager" >&2)
  log "build finished in $((SECONDS - started)) s"
}

install_binaries() {
  local out=$1/src/kubernetes-${KUBE_VERSION}/_output/local/bin/linux/amd64 bin
  mkdir -p "$CACHE_DIR"
  rm -f "$STAMP"
  for bin in "${BINARIES[@]}"; do
    [ -x "$out/$bin" ] || die "build produced no $out/$bin"
    cp "$out/$bin" "$CACHE_DIR/$bin.tmp"
    mv -f "$CACHE_DIR/$bin.tmp" "$CACHE_DIR/$bin"
  done
  echo "$STAMP_CONTENT" >"$STAMP"
  log "installed ${BINARIES[*]} into $CACHE_DIR"
}

provision() {
  local started=$SECONDS work
  apt_install golang-go rsync golang-github-modern-go-reflect2-dev
  mkdir -p "$(dirname "$CACHE_DIR")"
  work=$(mktemp -d "$(dirname "$CACHE_DIR")/kube-build.XXXXXX")
  # Go can leave read-only files behind; make them writable so the cleanup removes everything.
  trap 'chmod -R u+w "'"$work"'" 2>/dev/null; rm -rf "'"$work"'"' EXIT
  fetch_source "$work"
  replace_reflect2 "$work/src/kubernetes-${KUBE_VERSION}"
  patch_openapi_zero_values "$work/src/kubernetes-${KUBE_VERSION}"
  build_binaries "$work"
  install_binaries "$work"
  log "provisioned in $((SECONDS - started)) s; removing the build tree"
}

main() {
  ensure_etcd
  if ! cache_is_complete; then
    mkdir -p "$(dirname "$CACHE_DIR")"
    # One build per machine even when several checkouts run this at once.
    exec 9>"$(dirname "$CACHE_DIR")/kube-${KUBE_VERSION}.lock"
    if ! flock -n 9; then
      log "another run is building; waiting for it"
      flock 9
    fi
    cache_is_complete || provision
  fi
  /usr/bin/etcd --version 2>/dev/null | head -n1 | sed 's/^/[kube-binaries] /' >&2 || true
  log "kube-apiserver and kube-controller-manager ${KUBE_VERSION} are in $CACHE_DIR"
  if $print_env; then
    echo "KUBE_BIN=$CACHE_DIR"
  fi
}

# One line, so that bash has read all of it before running: editing the file mid-run cannot derail it.
main "$@"; exit $?
