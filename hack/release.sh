#!/usr/bin/env bash
# Builds a release and pushes it to an OCI registry: the operator image, an SBOM of its Java dependencies attached to
# the image, and the Helm chart; writes the install manifest that names the pushed image.
#
# Usage: hack/release.sh VERSION [--registry PREFIX] [--out DIR] [--allow-dirty] [--no-rebuild] [--no-push]
#   VERSION     x.y.z or x.y.z-pre: the image tag, the chart's version and appVersion
#   --registry  where to push (default ghcr.io/etcd-operator-java, the name the chart and dist/install.yaml carry):
#               image PREFIX/etcd-operator:VERSION, chart oci://PREFIX/charts/etcd-operator VERSION. A loopback
#               registry (127.*, localhost) is spoken to over plain HTTP; any other over HTTPS, with the
#               credentials of `skopeo login` and `helm registry login`.
#   --out       release output (default target/release/VERSION): install.yaml, the chart .tgz, the SBOM, the image
#               layout, release.txt
#   --allow-dirty  release a tree with uncommitted changes (the image's revision label is still HEAD); for tests
#   --no-rebuild   take operator/target's jars as they are instead of `mvn package` (tests, after the reactor
#                  built them)
#   --no-push      build and check everything, push nothing
#
# Built and checked before anything is pushed, the chart first (cheap; the dist/install.yaml check fails fast): the
# chart with version/appVersion VERSION and image.repository PREFIX/etcd-operator, install.yaml rendered from it
# exactly as ChartTest renders dist/install.yaml (for the default registry the release is refused unless
# dist/install.yaml already is that file: bump Chart.yaml, regenerate, commit), the image (hack/image.sh, labels
# org.opencontainers.image.version/source/licenses/revision), and the SBOM (CycloneDX JSON of the operator module's
# compile and runtime dependencies, the jars of the image's /opt/etcd-operator/lib, by cyclonedx-maven-plugin).
# The SBOM is an OCI artifact (artifactType application/vnd.cyclonedx+json) whose subject is the image manifest,
# tagged sha256-<image digest>.sbom: registries without the OCI 1.1 referrers API (docker-registry 2.8) find it so.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEFAULT_REGISTRY=ghcr.io/etcd-operator-java
CYCLONEDX=org.cyclonedx:cyclonedx-maven-plugin:2.9.3
NAMESPACE=etcd-operator-system

say() { echo "release: $*" >&2; }
die() { say "error: $*"; exit 1; }
usage() {
  echo "usage: $0 VERSION [--registry PREFIX] [--out DIR] [--allow-dirty] [--no-rebuild] [--no-push]" >&2
  exit 2
}

[ $# -ge 1 ] || usage
VERSION=$1
shift
REGISTRY=$DEFAULT_REGISTRY
OUT=
ALLOW_DIRTY=false
REBUILD=--rebuild
PUSH=true
while [ $# -gt 0 ]; do
  case "$1" in
    --registry) [ $# -ge 2 ] || usage; REGISTRY=${2%/}; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; OUT=$2; shift 2 ;;
    --allow-dirty) ALLOW_DIRTY=true; shift ;;
    --no-rebuild) REBUILD=; shift ;;
    --no-push) PUSH=false; shift ;;
    *) usage ;;
  esac
done
# SemVer for Helm, and no "+" (build metadata): an image tag cannot hold it
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "VERSION must be x.y.z or x.y.z-pre, not $VERSION"
OUT=${OUT:-$ROOT/target/release/$VERSION}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  [ "$ALLOW_DIRTY" = true ] || die "uncommitted changes; commit them (the image is labelled with HEAD) or --allow-dirty"
  say "warning: uncommitted changes; the image is labelled with HEAD $(git rev-parse --short HEAD) all the same"
fi

host=${REGISTRY%%/*}
PLAIN_HTTP=false
if [[ ${host%:*} =~ ^127\.[0-9]+\.[0-9]+\.[0-9]+$ || ${host%:*} == localhost || ${host%:*} == '[::1]' ]]; then
  PLAIN_HTTP=true
fi
# a published release is built from a clean checkout: the test-only flags are for a registry on this machine
if [ "$PLAIN_HTTP" = false ] && { [ "$ALLOW_DIRTY" = true ] || [ -z "$REBUILD" ]; }; then
  die "--allow-dirty and --no-rebuild are for a loopback registry only, not $host"
fi
IMAGE=$REGISTRY/etcd-operator
CHART_REPO=oci://$REGISTRY/charts
started=$SECONDS

source hack/jdk.sh
command -v skopeo >/dev/null || die "skopeo is missing: apt-get install skopeo"
HELM=$(hack/helm.sh --path)
# only what an earlier run of this script wrote: --out may name a directory holding other files
rm -rf "$OUT/image" "$OUT/chart-src" "$OUT/sbom-oci" "$OUT/etcd-operator-$VERSION.tgz" \
  "$OUT/etcd-operator-$VERSION.cdx.json" "$OUT/install.yaml" "$OUT/release.txt"

say "chart $VERSION"
mkdir -p "$OUT/chart-src"
cp -r charts/etcd-operator "$OUT/chart-src/"
chart=$OUT/chart-src/etcd-operator
sed -i -e "s/^version: .*/version: $VERSION/" -e "s/^appVersion: .*/appVersion: \"$VERSION\"/" "$chart/Chart.yaml"
sed -i "s|^  repository: ghcr.io/etcd-operator-java/etcd-operator\$|  repository: $IMAGE|" "$chart/values.yaml"
grep -q "^  repository: $IMAGE\$" "$chart/values.yaml" || die "values.yaml: image.repository not found to replace"
"$HELM" lint --strict "$chart" >&2
"$HELM" package "$chart" --destination "$OUT" >&2
CHART_TGZ=$OUT/etcd-operator-$VERSION.tgz

say "install.yaml"
{
  echo "# Rendered from charts/etcd-operator (tests.enabled=false) by ChartTest (-Dgolden.update=true); do not edit."
  printf -- '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n' "$NAMESPACE"
  "$HELM" template etcd-operator "$CHART_TGZ" -n "$NAMESPACE" --set tests.enabled=false
} >"$OUT/install.yaml"
grep -q "image: $IMAGE:$VERSION\$" "$OUT/install.yaml" || die "install.yaml does not name $IMAGE:$VERSION"
if [ "$REGISTRY" = "$DEFAULT_REGISTRY" ] && ! cmp -s "$OUT/install.yaml" dist/install.yaml; then
  die "dist/install.yaml is not this release's ($OUT/install.yaml): set version and appVersion in" \
    "charts/etcd-operator/Chart.yaml to $VERSION, run mvn -pl charts test -Dgolden.update=true, commit, release again"
fi

say "image $IMAGE:$VERSION (hack/image.sh)"
layout=$(IMAGE_TAG=$VERSION IMAGE_OUT="$OUT/image" hack/image.sh ${REBUILD:+"$REBUILD"})
# buildah's vfs storage and the staged rootfs are several hundred MiB; the OCI layout is the image
rm -rf "$OUT/image/storage" "$OUT/image/run" "$OUT/image/context"

say "SBOM ($CYCLONEDX makeBom, operator module)"
EPOCH=$(git log -1 --format=%ct)
mvn -B -q -pl operator -am "$CYCLONEDX:makeBom" -DoutputFormat=json -Dcyclonedx.skipAttach=true \
  -Dproject.build.outputTimestamp="$EPOCH" >&2
SBOM=$OUT/etcd-operator-$VERSION.cdx.json
cp operator/target/bom.json "$SBOM"

if [ "$PUSH" = false ]; then
  say "built in $((SECONDS - started)) s; --no-push: nothing pushed"
  echo "$OUT"
  exit 0
fi
tls=()
plain=()
if [ "$PLAIN_HTTP" = true ]; then
  tls=(--dest-tls-verify=false)
  plain=(--plain-http)
fi
if [ "$PLAIN_HTTP" = false ] && skopeo inspect --raw "docker://$IMAGE:$VERSION" >/dev/null 2>&1; then
  die "$IMAGE:$VERSION is already published: a release is never pushed over (choose a new VERSION)"
fi
say "pushing $IMAGE:$VERSION"
# --preserve-digests: the registry holds the manifest hack/image.sh built (same commit, same digest)
skopeo copy --quiet --preserve-digests "${tls[@]}" "oci:$layout:$VERSION" "docker://$IMAGE:$VERSION" >&2
read -r image_digest image_size < <(python3 - "$layout" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1] + '/index.json'))['manifests'][0]
print(m['digest'], m['size'])
EOF
)

say "attaching the SBOM to $IMAGE@$image_digest"
sbom_tag=${image_digest/:/-}.sbom
python3 - "$SBOM" "$OUT/sbom-oci" "$image_digest" "$image_size" "$VERSION" <<'EOF'
import hashlib, json, os, sys
sbom, out, subject, subject_size, version = sys.argv[1:]
os.makedirs(out + '/blobs/sha256')
def blob(data):
    digest = hashlib.sha256(data).hexdigest()
    with open(f'{out}/blobs/sha256/{digest}', 'wb') as f:
        f.write(data)
    return {'digest': 'sha256:' + digest, 'size': len(data)}
manifest = {
    'schemaVersion': 2, 'mediaType': 'application/vnd.oci.image.manifest.v1+json',
    'artifactType': 'application/vnd.cyclonedx+json',
    'config': {'mediaType': 'application/vnd.oci.empty.v1+json', **blob(b'{}')},
    'layers': [{'mediaType': 'application/vnd.cyclonedx+json', **blob(open(sbom, 'rb').read()),
                'annotations': {'org.opencontainers.image.title': os.path.basename(sbom)}}],
    'subject': {'mediaType': 'application/vnd.oci.image.manifest.v1+json', 'digest': subject,
                'size': int(subject_size)},
    'annotations': {'org.opencontainers.image.version': version}}
ref = {'mediaType': manifest['mediaType'], **blob(json.dumps(manifest, indent=2).encode()),
       'annotations': {'org.opencontainers.image.ref.name': 'sbom'}}
with open(out + '/index.json', 'w') as f:
    json.dump({'schemaVersion': 2, 'manifests': [ref]}, f)
with open(out + '/oci-layout', 'w') as f:
    json.dump({'imageLayoutVersion': '1.0.0'}, f)
EOF
skopeo copy --quiet --preserve-digests "${tls[@]}" "oci:$OUT/sbom-oci:sbom" "docker://$IMAGE:$sbom_tag" >&2

say "pushing the chart to $CHART_REPO"
"$HELM" push "$CHART_TGZ" "$CHART_REPO" "${plain[@]}" >&2

image_bytes=$(python3 - "$layout" "$image_digest" <<'EOF'
import json, os, sys
layout, digest = sys.argv[1:]
m = json.load(open(os.path.join(layout, 'blobs', *digest.split(':'))))
print(sum(l['size'] for l in m['layers']) + m['config']['size'])
EOF
)
components=$(python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))['components']))" "$SBOM")
cat >"$OUT/release.txt" <<EOF
version: $VERSION
revision: $(git rev-parse HEAD)
image: $IMAGE:$VERSION
image digest: $image_digest
image compressed bytes: $image_bytes
sbom: $IMAGE:$sbom_tag ($(stat -c %s "$SBOM") bytes, $components components)
chart: $CHART_REPO/etcd-operator --version $VERSION
install: $OUT/install.yaml
seconds: $((SECONDS - started))
EOF
sed 's/^/release: /' "$OUT/release.txt" >&2
echo "$OUT"
