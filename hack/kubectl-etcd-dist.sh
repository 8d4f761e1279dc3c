#!/usr/bin/env bash
# Builds the kubectl-etcd release archive for this machine's platform (linux-amd64): a jlink'd Java runtime, the
# plugin jar and its dependencies, and the launchers from hack/kubectl-etcd-dist/; no JDK is needed to run it.
#
# Usage: hack/kubectl-etcd-dist.sh VERSION     prints the archive path on stdout, its size on stderr
#
# Writes into KUBECTL_ETCD_DIST_OUT (default target/kubectl-etcd-dist):
#   kubectl-etcd-VERSION-linux-amd64.tar.gz   one directory kubectl-etcd-VERSION-linux-amd64/ with kubectl-etcd,
#                                             kubectl_complete-etcd, runtime/, lib/, LICENSE
#   etcd.yaml                                 dist/krew/etcd.yaml.tmpl with version, URI and sha256 filled in
# The archive URI in etcd.yaml is KUBECTL_ETCD_RELEASE_URL (default: the GitHub release vVERSION) + the file name.
#
# A script, not a Maven profile: jdeps and jlink are JDK commands, and hack/image.sh builds the operator's runtime
# the same way. By default it packages `mvn -pl kubectl-etcd -am package` (kubectl-etcd/target/*.jar and lib/);
# KUBECTL_ETCD_CLASSPATH (the plugin's classes or jar first, then its runtime class path; directories are jarred)
# packages that instead, which is how DistributionTest builds it during `mvn test` without packaging.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VERSION=${1:-}
[[ $VERSION =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]] || { echo "usage: $0 VERSION (e.g. 0.1.0)" >&2; exit 2; }
PLATFORM=linux-amd64
OUT=${KUBECTL_ETCD_DIST_OUT:-$ROOT/target/kubectl-etcd-dist}
NAME=kubectl-etcd-$VERSION-$PLATFORM
RELEASE_URL=${KUBECTL_ETCD_RELEASE_URL:-https://github.com/etcd-operator-java/etcd-operator/releases/download/v$VERSION}
# Loaded through ServiceLoader or reflection, so jdeps cannot see them: EC keys and TLS curves, JNDI's DNS lookups
# (netty's resolver), the JVM's management beans (netty reads its flags from them).
EXTRA_MODULES=jdk.crypto.ec,jdk.naming.dns,java.management

say() { echo "kubectl-etcd-dist: $*" >&2; }
die() { say "error: $*"; exit 1; }

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || die "builds $PLATFORM only, on a $PLATFORM machine"
started=$SECONDS
source hack/jdk.sh
for tool in jdeps jlink jar; do
  [ -x "$JAVA_HOME/bin/$tool" ] || die "$JAVA_HOME has no $tool: a full JDK is needed"
done
EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 0)

classpath=${KUBECTL_ETCD_CLASSPATH:-}
if [ -z "$classpath" ]; then
  say "building the plugin (mvn package, tests skipped)"
  mvn -B -q package -DskipTests -pl kubectl-etcd -am >&2
  jar=$(ls kubectl-etcd/target/kubectl-etcd-*.jar | grep -v -e '-sources' -e '-tests' | head -n1)
  classpath=$jar$(printf ':%s' kubectl-etcd/target/lib/*.jar)
fi

stage=$OUT/stage/$NAME
rm -rf "$OUT/stage" "$OUT/$NAME.tar.gz"
mkdir -p "$stage/lib" "$OUT/stage/plugin"

# The plugin's own jar is rebuilt with VERSION in its manifest: `kubectl etcd version` reads it from there.
IFS=: read -r -a entries <<<"$classpath"
plugin=${entries[0]}
if [ -d "$plugin" ]; then
  cp -r "$plugin/." "$OUT/stage/plugin/"
else
  plugin=$(realpath "$plugin")
  (cd "$OUT/stage/plugin" && "$JAVA_HOME/bin/jar" --extract --file "$plugin")
  rm -rf "$OUT/stage/plugin/META-INF/MANIFEST.MF"
fi
printf 'Implementation-Title: kubectl-etcd\nImplementation-Version: %s\n' "$VERSION" >"$OUT/stage/manifest.txt"
dated=()
[ "$EPOCH" -gt 315532800 ] && dated=(--date "$(date -u -d "@$EPOCH" +%Y-%m-%dT%H:%M:%SZ)") # jar refuses pre-1980
"$JAVA_HOME/bin/jar" --create --file "$stage/lib/kubectl-etcd-$VERSION.jar" --manifest "$OUT/stage/manifest.txt" \
  --main-class io.etcdoperator.kubectl.KubectlEtcd "${dated[@]}" -C "$OUT/stage/plugin" .
for entry in "${entries[@]:1}"; do
  if [ -d "$entry" ]; then
    # a reactor module's target/classes (e.g. etcd-client during `mvn test`): named after its module directory
    module=$(basename "$(dirname "$(dirname "$(realpath "$entry")")")")
    "$JAVA_HOME/bin/jar" --create --file "$stage/lib/$module.jar" -C "$entry" .
  elif [ -f "$entry" ]; then
    cp "$entry" "$stage/lib/"
  fi
done

say "jdeps over $(ls "$stage/lib" | wc -l) jars"
# every jar is a root (no --class-path): the whole class path is what runs; multi-release as the runtime will read it
feature=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$JAVA_HOME/release")
modules=$("$JAVA_HOME/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release "$feature" "$stage"/lib/*.jar)
modules=$modules,$EXTRA_MODULES
say "jlink runtime ($modules)"
# As hack/image.sh: no debug attributes, headers or man pages, compressed. Plus the default CDS archive (--help
# starts ~0.1 s sooner); its variant for heaps over 32 GB (classes_nocoops.jsa, 14 MB) is dropped, a CLI never
# gets there.
"$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress zip-6 --generate-cds-archive --output "$stage/runtime" >&2
rm -f "$stage/runtime/lib/server/classes_nocoops.jsa"

install -m 0755 hack/kubectl-etcd-dist/kubectl-etcd hack/kubectl-etcd-dist/kubectl_complete-etcd "$stage/"
cp LICENSE "$stage/LICENSE"
tar --sort=name --mtime="@$EPOCH" --owner=0 --group=0 --numeric-owner -C "$OUT/stage" -cf - "$NAME" \
  | gzip -n >"$OUT/$NAME.tar.gz"
rm -rf "$OUT/stage"

sha256=$(sha256sum "$OUT/$NAME.tar.gz" | cut -d' ' -f1)
sed -e "s|{{VERSION}}|$VERSION|g" -e "s|{{LINUX_AMD64_URI}}|$RELEASE_URL/$NAME.tar.gz|g" \
  -e "s|{{LINUX_AMD64_SHA256}}|$sha256|g" dist/krew/etcd.yaml.tmpl >"$OUT/etcd.yaml"
size=$(stat -c %s "$OUT/$NAME.tar.gz")
say "built $NAME.tar.gz in $((SECONDS - started)) s: $((size / 1024 / 1024)) MiB ($size bytes), sha256 $sha256"
say "krew manifest: $OUT/etcd.yaml"
echo "$OUT/$NAME.tar.gz"
