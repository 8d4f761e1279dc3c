#!/usr/bin/env bash
# Builds the operator image (hack/image/Containerfile) into a local OCI layout, without a Docker daemon or registry.
#
# Usage: hack/image.sh [--rebuild]   build (--rebuild: rebuild the jars first), print the layout path on stdout
#        hack/image.sh --path        print the OCI layout path (target/image/oci, tag "dev") without building
# Environment: IMAGE_TAG (default dev, also the org.opencontainers.image.version label), IMAGE_OUT (default
# target/image: hack/release.sh builds elsewhere so the tests' "dev" layout stays as it is).
#
# The rootfs is staged here: a jlink'd runtime from the JDK (Temurin 25), the operator jar and its lib/, etcdctl 3.4
# and etcdutl/etcdctl 3.5 from hack/etcd-binaries.sh, the shared libraries they link (ldd), and passwd/group with
# the non-root user 65532. Every file gets the timestamp of the last commit, and buildah --timestamp pins the image
# dates, so the same commit and binaries give the same image digest. Needs root (buildah) and buildah from Debian.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${IMAGE_OUT:-$ROOT/target/image}
LAYOUT=$OUT/oci
TAG=${IMAGE_TAG:-dev}
NAME=ghcr.io/etcd-operator-java/etcd-operator
# java.xml.crypto, java.smartcardio, jdk.security.jgss and jdk.crypto.cryptoki hold JCA providers that java.security
# names (XMLDSig, SunPCSC, JdkSASL, SunPKCS11): without them the JDK instantiates every provider on the class path to
# look for those names, BouncyCastle's two among them (634 classes; the operator at rest 150 -> 139 MiB RSS; 2 MB of
# image).
MODULES=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.security.sasl,java.smartcardio,java.sql,java.xml,java.xml.crypto,jdk.crypto.cryptoki,jdk.crypto.ec,jdk.httpserver,jdk.management,jdk.naming.dns,jdk.net,jdk.security.jgss,jdk.unsupported,jdk.zipfs

say() { echo "image: $*" >&2; }
die() { say "error: $*"; exit 1; }

case "${1:-}" in
  --path) echo "$LAYOUT"; exit 0 ;;
  --rebuild|"") ;;
  *) echo "usage: $0 [--rebuild|--path]" >&2; exit 2 ;;
esac

started=$SECONDS
source hack/jdk.sh
# buildah builds; umoci, runc and iptables are what the simulated nodes need to run the image (InstallIT, sandbox)
PACKAGES=(buildah umoci runc iptables)
if ! command -v buildah >/dev/null || ! command -v umoci >/dev/null || ! command -v runc >/dev/null \
    || ! command -v iptables >/dev/null; then
  [ "$(id -u)" -eq 0 ] || die "missing tools; install them: apt-get install ${PACKAGES[*]}"
  say "installing ${PACKAGES[*]} with apt-get (Debian bookworm packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}" >&2 \
    || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PACKAGES[@]}" >&2; }
fi
EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 0)
REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)
SOURCE=https://github.com/etcd-operator-java/etcd-operator

jar=$(ls operator/target/etcd-operator-*.jar 2>/dev/null | grep -v -- '-tests.jar' | head -n1 || true)
if [ -z "$jar" ] || [ "${1:-}" = "--rebuild" ]; then
  say "building the operator jar (mvn package, tests skipped)"
  mvn -B -q package -DskipTests -Dcrd.bases.skipSync=true -Dproject.build.outputTimestamp="$EPOCH" -pl operator -am >&2
  jar=$(ls operator/target/etcd-operator-*.jar | grep -v -- '-tests.jar' | head -n1)
fi
eval "$(hack/etcd-binaries.sh --env)"

rootfs=$OUT/context/rootfs
rm -rf "$OUT/context" "$LAYOUT"
mkdir -p "$rootfs"/{etc,tmp,opt/etcd-operator,opt/etcd-tools/v3.4,opt/etcd-tools/v3.5}
chmod 1777 "$rootfs/tmp"

say "jlink runtime ($MODULES)"
"$JAVA_HOME/bin/jlink" --add-modules "$MODULES" --strip-debug --no-header-files --no-man-pages \
  --compress zip-6 --output "$rootfs/opt/java" >&2
# The class-data-sharing archive for the flags the image runs with: compact object headers need their own archive
# (lib/server/classes_coh.jsa), and jlink's --generate-cds-archive writes only the plain ones.
"$rootfs/opt/java/bin/java" -XX:+UseCompactObjectHeaders -Xshare:dump -Xlog:cds=off >&2

cp "$jar" "$rootfs/opt/etcd-operator/etcd-operator.jar"
# the image's JVM flags, an argument file of the entrypoint (see the Containerfile)
cp hack/image/jvm.options "$rootfs/opt/etcd-operator/jvm.options"
# the member Pods' pre-start check (operator/src/main/c/etcd-guard.c), static: etcd images have no libc
guard=operator/target/etcd-guard
[ -x "$guard" ] || gcc -static -Os -s -Wall -Wextra -Werror -o "$guard" operator/src/main/c/etcd-guard.c >&2
install -D -m 0755 "$guard" "$rootfs/opt/etcd-operator/bin/etcd-guard"
cp -r "$(dirname "$jar")/lib" "$rootfs/opt/etcd-operator/lib"
# netty's ALPN wrapper instantiates BouncyCastle's JCA provider on every first TLS dial whenever its class is there,
# only to compare engine classes (682 classes loaded; docs/benchmarks.md). pki builds certificates with bcpkix and
# never uses the provider, so the image's bcprov goes without that class: netty then finds BouncyCastle unavailable.
"$JAVA_HOME/bin/java" hack/image/JarWithout.java "$rootfs"/opt/etcd-operator/lib/bcprov-*.jar \
  org/bouncycastle/jce/provider/BouncyCastleProvider >&2
install -m 0755 "$ETCD34_BIN/etcdctl" "$rootfs/opt/etcd-tools/v3.4/etcdctl"
install -m 0755 "$ETCD35_BIN/etcdutl" "$rootfs/opt/etcd-tools/v3.5/etcdutl"
install -m 0755 "$ETCD35_BIN/etcdctl" "$rootfs/opt/etcd-tools/v3.5/etcdctl"

# The shared libraries every ELF file links, at the paths the dynamic loader looks them up (etcd-guard is static).
find "$rootfs" -type f \( -perm -u+x -o -name '*.so*' \) -not -name etcd-guard -exec sh -c 'head -c4 "$1" | grep -q ELF' _ {} \; -print \
  | xargs -r ldd 2>/dev/null | awk '/=> \// {print $3} /^\t\/lib/ {print $1}' | sort -u | while read -r lib; do
    mkdir -p "$rootfs$(dirname "$lib")"
    cp -L "$lib" "$rootfs$lib"
  done
[ -e "$rootfs/lib64" ] || { mkdir -p "$rootfs/lib64"; cp -L /lib64/ld-linux-x86-64.so.2 "$rootfs/lib64/"; }

printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' \
  >"$rootfs/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' >"$rootfs/etc/group"
printf 'hosts: files dns\n' >"$rootfs/etc/nsswitch.conf"
mkdir -p "$rootfs/home/nonroot" && chown 65532:65532 "$rootfs/home/nonroot"
cp hack/image/Containerfile "$OUT/context/Containerfile"
find "$OUT/context" -exec touch -h -d "@$EPOCH" {} +

say "buildah bud (storage in ${OUT#"$ROOT/"}/storage)"
storage=(--root "$OUT/storage" --runroot "$OUT/run" --storage-driver vfs)
buildah "${storage[@]}" rmi -f "$NAME:$TAG" >/dev/null 2>&1 || true
buildah "${storage[@]}" bud --quiet --timestamp "$EPOCH" --layers=false -f "$OUT/context/Containerfile" \
  --label "org.opencontainers.image.version=$TAG" --label "org.opencontainers.image.source=$SOURCE" \
  --label "org.opencontainers.image.licenses=Apache-2.0" --label "org.opencontainers.image.revision=$REVISION" \
  --label "org.opencontainers.image.title=etcd-operator" -t "$NAME:$TAG" "$OUT/context" >&2
buildah "${storage[@]}" push --quiet "$NAME:$TAG" "oci:$LAYOUT:$TAG" >&2

manifest=$(python3 -c "import json,sys;print(json.load(open('$LAYOUT/index.json'))['manifests'][0]['digest'])")
size=$(python3 - "$LAYOUT" "$manifest" <<'EOF'
import json, sys, os
layout, digest = sys.argv[1], sys.argv[2]
blob = lambda d: os.path.join(layout, 'blobs', *d.split(':'))
m = json.load(open(blob(digest)))
print(sum(l['size'] for l in m['layers']) + m['config']['size'])
EOF
)
say "built $NAME:$TAG in $((SECONDS - started)) s: manifest $manifest, compressed size $((size / 1024 / 1024)) MiB, rootfs $(du -sm "$rootfs" | cut -f1) MiB"
echo "$LAYOUT"
