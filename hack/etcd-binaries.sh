#!/usr/bin/env bash
# Makes sure the etcd versions the integration tests run against are on this machine, then prints
#   export ETCD34_BIN=<dir>     (etcd 3.4.23 + etcdctl, Debian bookworm's etcd-server/etcd-client)
#   export ETCD35_BIN=<dir>     (etcd 3.5.16 + etcdutl [+ etcdctl], Debian trixie's .debs unpacked into a cache dir)
#   export ETCD3530_BIN=<dir>   (etcd 3.5.30 + etcdutl [+ etcdctl], Debian sid's .debs unpacked into a cache dir)
# Idempotent: a second run only checks versions. Progress goes to stderr, the export lines to stdout, so
#   eval "$(hack/etcd-binaries.sh --env)"
# sets the variables in the calling shell. The machine's apt configuration is never changed: the trixie and sid
# packages are fetched with a private, throw-away apt state directory.
set -euo pipefail

ETCD34_VERSION=3.4.23
ETCD35_VERSION=3.5.16
ETCD3530_VERSION=3.5.30
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator"
ETCD35_DIR="$CACHE_ROOT/etcd-$ETCD35_VERSION"
ETCD3530_DIR="$CACHE_ROOT/etcd-$ETCD3530_VERSION"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

usage() {
  echo "usage: $0 [--env]   (--env: print only the export lines on stdout, for eval)" >&2
}

quiet_hint=0
case "${1:-}" in
  --env) quiet_hint=1 ;;
  "") ;;
  -h|--help) usage; exit 0 ;;
  *) usage; exit 2 ;;
esac

log() { echo "etcd-binaries: $*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root for: $*"; fi
}

# Prints the "etcd Version: X" of a binary, or nothing when it does not run.
etcd_version() {
  "$1" --version 2>/dev/null | awk -F': ' '/^etcd Version/ {print $2; exit}'
}

ensure_etcd34() {
  if [ -x /usr/bin/etcd ] && [ "$(etcd_version /usr/bin/etcd)" = "$ETCD34_VERSION" ] && [ -x /usr/bin/etcdctl ]; then
    log "etcd $ETCD34_VERSION already installed in /usr/bin"
    return
  fi
  log "installing etcd-server and etcd-client ($ETCD34_VERSION) with apt-get"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server etcd-client >&2
  local got
  got=$(etcd_version /usr/bin/etcd)
  [ "$got" = "$ETCD34_VERSION" ] || die "apt installed etcd '$got' in /usr/bin, expected $ETCD34_VERSION"
  log "etcd $ETCD34_VERSION installed in /usr/bin"
}

# The Debian archive this machine already uses (first non-security URI), so no mirror is hard-coded here.
debian_archive_uri() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' | grep '/debian/\?$' | head -n1 || true)
  if [ -z "$uri" ]; then
    uri=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
      | awk '{for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) {print $i; exit}}' \
      | grep -v -- '-security' | grep '/debian/\?$' | head -n1 || true)
  fi
  [ -n "$uri" ] || die "no Debian archive found in /etc/apt sources; cannot fetch etcd from $1"
  echo "${uri%/}"
}

# Whether DIR holds etcd and etcdutl, and etcd reports VERSION.
unpacked_ready() {
  local dir=$1 version=$2
  [ -x "$dir/etcd" ] && [ -x "$dir/etcdutl" ] && [ "$(etcd_version "$dir/etcd")" = "$version" ]
}

# Newest version of a package in the private index whose upstream part is VERSION (3.5.30-2, 3.5.30+ds-1, ...).
suite_version_of() {
  local pkg=$1 version=$2
  apt-cache "${APT_OPTS[@]}" madison "$pkg" 2>/dev/null \
    | awk -F'|' -v want="$version" '{gsub(/ /, "", $2); if (index($2, want "-") == 1 || index($2, want "+") == 1) {print $2; exit}}'
}

# ensure_unpacked VERSION SUITE DIR: Debian SUITE's etcd-server (and etcd-client, for etcdctl) VERSION-*, unpacked
# with dpkg -x into DIR. Nothing is installed; a cached DIR that reports VERSION is kept as it is.
ensure_unpacked() {
  local version=$1 suite=$2 dir=$3
  if unpacked_ready "$dir" "$version"; then
    log "etcd $version already unpacked in $dir"
    return
  fi
  command -v dpkg >/dev/null || die "dpkg is needed to unpack the $suite packages"
  local work archive
  work=$(mktemp -d)
  trap "rm -rf '$work'" EXIT
  archive=$(debian_archive_uri "$suite")
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$work/x"
  echo "deb [signed-by=$KEYRING] $archive $suite main" >"$work/sources.list"
  APT_OPTS=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o Debug::NoLocking=1)
  # The private dirs belong to the caller; apt's _apt download sandbox could not write into them.
  APT_OPTS+=(-o "APT::Sandbox::User=$(id -un)")
  log "fetching the $suite package index into a private apt state ($work)"
  apt-get "${APT_OPTS[@]}" update -qq >&2 || die "apt-get update of the $suite index failed"

  local server_version client_version
  server_version=$(suite_version_of etcd-server "$version")
  [ -n "$server_version" ] || die "$suite has no etcd-server $version-* (apt-cache madison etcd-server)"
  log "downloading etcd-server=$server_version from $suite"
  (cd "$work/debs" && apt-get "${APT_OPTS[@]}" download -qq "etcd-server=$server_version" >&2) \
    || die "download of etcd-server=$server_version failed"
  client_version=$(suite_version_of etcd-client "$version")
  if [ -n "$client_version" ]; then
    log "downloading etcd-client=$client_version from $suite (for etcdctl)"
    (cd "$work/debs" && apt-get "${APT_OPTS[@]}" download -qq "etcd-client=$client_version" >&2) \
      || log "warning: etcd-client=$client_version could not be downloaded; continuing without etcdctl $version"
  else
    log "warning: $suite has no etcd-client $version-*; continuing without etcdctl $version"
  fi

  local deb
  for deb in "$work"/debs/*.deb; do
    log "unpacking $(basename "$deb")"
    dpkg -x "$deb" "$work/x"
  done
  # Assemble next to the final dir and rename, so an interrupted run never leaves a half-filled cache.
  mkdir -p "$CACHE_ROOT"
  local staging="$dir.partial.$$"
  rm -rf "$staging"
  mkdir -p "$staging"
  local bin
  for bin in etcd etcdutl etcdctl; do
    if [ -x "$work/x/usr/bin/$bin" ]; then
      cp "$work/x/usr/bin/$bin" "$staging/$bin"
    fi
  done
  rm -rf "$dir"
  mv "$staging" "$dir"
  rm -rf "$work"
  trap - EXIT
  unpacked_ready "$dir" "$version" || die "unpacked etcd in $dir does not report version $version (or lacks etcdutl)"
  log "etcd $version ready in $dir ($(cd "$dir" && echo *))"
}

ensure_etcd34
ensure_unpacked "$ETCD35_VERSION" trixie "$ETCD35_DIR"
ensure_unpacked "$ETCD3530_VERSION" sid "$ETCD3530_DIR"

echo "export ETCD34_BIN=/usr/bin"
echo "export ETCD35_BIN=$ETCD35_DIR"
echo "export ETCD3530_BIN=$ETCD3530_DIR"
if [ "$quiet_hint" -eq 0 ]; then
  log "done; to use these in your shell: eval \"\$($0 --env)\""
fi
