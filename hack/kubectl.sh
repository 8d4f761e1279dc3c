#!/usr/bin/env bash
# Provides kubectl 1.36 for the sandbox and the tests: the one hack/apiext-binaries.sh cached next to the 1.36
# apiextensions-apiserver if present, else Debian sid's package kubectl 1.36.x, unpacked without installing into
# ${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/kubectl-1.36/. Only if sid cannot be reached, a kubectl on PATH.
# The machine's apt configuration is never changed (private apt state). Idempotent.
# Usage: hack/kubectl.sh [--path]   (--path: print only the kubectl path on stdout)
set -euo pipefail

readonly MINOR=1.36
readonly CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator"
readonly CACHE_DIR="$CACHE_ROOT/kubectl-$MINOR"
readonly KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

log() { echo "kubectl: $*" >&2; }

# Prints "1.36.4" for a kubectl 1.36.4, nothing if it does not run.
client_version() {
  "$1" version --client 2>/dev/null | awk '/^Client Version:/ {sub(/^v/, "", $3); print $3; exit}'
}

is_wanted() {
  [ -x "$1" ] && case "$(client_version "$1")" in "$MINOR".*) true ;; *) false ;; esac
}

locate() {
  local candidate
  for candidate in "$CACHE_ROOT"/apiext-"$MINOR".*/kubectl "$CACHE_DIR/kubectl"; do
    if is_wanted "$candidate"; then
      echo "$candidate"
      return
    fi
  done
  return 1
}

debian_archive_uri() {
  local uri
  uri=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v -- '-security' \
    | grep '/debian/\?$' | head -n1 || true)
  echo "${uri:-http://deb.debian.org/debian}" | sed 's:/*$::'
}

fetch() {
  local work
  work=$(mktemp -d)
  trap "rm -rf '$work'" EXIT
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/x"
  echo "deb [signed-by=$KEYRING] $(debian_archive_uri) sid main" >"$work/sources.list"
  local opts=(-q -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o Debug::NoLocking=1
    -o "APT::Sandbox::User=$(id -un)")
  log "fetching Debian sid's kubectl $MINOR into $CACHE_DIR"
  apt-get "${opts[@]}" update >&2 || return 1
  # pin the version: a kubectl from elsewhere (e.g. a cloud SDK, with a higher epoch) may be known to apt
  local version
  version=$(apt-cache "${opts[@]}" madison kubectl \
    | awk -F'|' -v want="$MINOR." '{gsub(/ /, "", $2); if (index($2, want) == 1) {print $2; exit}}')
  [ -n "$version" ] || { log "sid has no kubectl $MINOR.*"; return 1; }
  (cd "$work" && apt-get "${opts[@]}" download "kubectl=$version" >&2) || return 1
  dpkg -x "$work"/kubectl_*.deb "$work/x"
  [ -x "$work/x/usr/bin/kubectl" ] || { log "the kubectl package holds no usr/bin/kubectl"; return 1; }
  mkdir -p "$CACHE_DIR"
  cp "$work/x/usr/bin/kubectl" "$CACHE_DIR/kubectl.tmp" && mv -f "$CACHE_DIR/kubectl.tmp" "$CACHE_DIR/kubectl"
}

path=$(locate || { fetch && locate; } || true)
if [ -z "$path" ]; then
  path=$(command -v kubectl || true)
  [ -n "$path" ] || { log "error: no kubectl $MINOR could be fetched and none is on PATH"; exit 1; }
  log "warning: using $path ($(client_version "$path")), not $MINOR"
fi
if [ "${1:-}" = "--path" ]; then
  echo "$path"
else
  log "$path ($("$path" version --client 2>/dev/null | head -n1))"
fi
