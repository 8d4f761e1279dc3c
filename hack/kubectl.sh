#!/usr/bin/env bash
# Provides a kubectl for the sandbox: the one on PATH if any, else Debian trixie's (package kubectl), unpacked
# without installing into ${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/kubectl/. Idempotent.
# Usage: hack/kubectl.sh [--path]   (--path: print only the kubectl path on stdout)
set -euo pipefail

CACHE_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/etcd-operator/kubectl"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

log() { echo "kubectl: $*" >&2; }
die() { log "error: $*"; exit 1; }

locate() {
  if command -v kubectl >/dev/null; then
    command -v kubectl
  elif [ -x "$CACHE_DIR/kubectl" ]; then
    echo "$CACHE_DIR/kubectl"
  else
    return 1
  fi
}

fetch() {
  local work
  work=$(mktemp -d)
  trap "rm -rf '$work'" EXIT
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/x"
  echo "deb [signed-by=$KEYRING] http://deb.debian.org/debian trixie main" >"$work/sources.list"
  local opts=(-q -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o Debug::NoLocking=1
    -o "APT::Sandbox::User=$(id -un)")
  log "fetching Debian trixie's kubectl package into $CACHE_DIR"
  apt-get "${opts[@]}" update >&2 || die "apt-get update of the trixie index failed"
  # name trixie's version: a kubectl installed from elsewhere (e.g. a cloud SDK) would otherwise be the candidate
  local version
  version=$(apt-cache "${opts[@]}" madison kubectl | awk -F'|' '/trixie/ {gsub(/ /, "", $2); print $2; exit}')
  [ -n "$version" ] || die "trixie has no kubectl package"
  (cd "$work" && apt-get "${opts[@]}" download "kubectl=$version" >&2) || die "download of kubectl=$version failed"
  dpkg -x "$work"/kubectl_*.deb "$work/x"
  local bin
  bin=$(find "$work/x" -type f -name kubectl | head -n1)
  [ -n "$bin" ] || die "the kubectl package holds no kubectl binary"
  mkdir -p "$CACHE_DIR"
  cp "$bin" "$CACHE_DIR/kubectl.tmp" && mv -f "$CACHE_DIR/kubectl.tmp" "$CACHE_DIR/kubectl"
}

path=$(locate || { fetch; locate; })
if [ "${1:-}" = "--path" ]; then
  echo "$path"
else
  log "$path ($("$path" version --client 2>/dev/null | head -n1))"
fi
