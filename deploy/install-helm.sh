#!/usr/bin/env bash
# Build helm VERSION from source through the Go module proxy and put the binary at OUT:
#   deploy/install-helm.sh v3.22.0 .cache/bin/helm-v3.22.0
# ldflags as helm's own Makefile sets them: its version, and the Kubernetes version it assumes
# by default (the client-go it is built with: v0.37.x -> 1.37), so `helm version`,
# .Capabilities and `helm lint`'s deprecation checks are right. Go's module and build caches
# are the user's (go env GOMODCACHE GOCACHE): cold on 2 cores this takes about 2.5-4 minutes,
# with them warm a few seconds.
set -euo pipefail
version=${1:?usage: install-helm.sh VERSION OUT}
out=${2:?usage: install-helm.sh VERSION OUT}
command -v go >/dev/null || { echo "install-helm: needs Go (https://go.dev/dl/)" >&2; exit 1; }

module=helm.sh/helm/v3
gomod=$(go mod download -json "$module@$version" | python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')
client_go=$(awk '$1 == "k8s.io/client-go" {print $2}' "$gomod")  # v0.37.0
k8s_minor=$(echo "$client_go" | cut -d. -f2)
[ -n "$k8s_minor" ] || { echo "install-helm: no k8s.io/client-go in $gomod" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
GOBIN=$tmp CGO_ENABLED=0 go install -trimpath -ldflags "-s -w \
    -X $module/internal/version.version=$version \
    -X $module/pkg/lint/rules.k8sVersionMajor=1 -X $module/pkg/lint/rules.k8sVersionMinor=$k8s_minor \
    -X $module/pkg/chartutil.k8sVersionMajor=1 -X $module/pkg/chartutil.k8sVersionMinor=$k8s_minor" \
    "$module/cmd/helm@$version"
mkdir -p "$(dirname "$out")"
mv "$tmp/helm" "$out"
echo "helm $version (Kubernetes 1.$k8s_minor by default) built in $(( $(date +%s) - start ))s: $out"
