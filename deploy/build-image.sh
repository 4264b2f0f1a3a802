#!/usr/bin/env bash
# Build the tavla-engine OCI image from the top-level Containerfile without a Docker engine,
# then run the server inside it and health-check it from outside. `make test-image` runs this.
#
#   1. Tools: buildah, mmdebstrap, umoci, skopeo and eatmydata from Debian when missing
#      (deploy/apt-install-missing.sh: installs them, never upgrades an installed package).
#   2. Base: mmdebstrap makes a slim Debian ($SUITE, minbase, no docs/man/locales) with python3
#      and python3-venv, the same kind of base as python:3.x-slim; umoci turns the tarball into
#      an OCI image and buildah pulls it as localhost/tavla-python-base:$SUITE.
#   3. Image: `buildah build` runs the Containerfile itself (chroot isolation) with
#      PYTHON_BASE=localhost/tavla-python-base:$SUITE; `buildah push` writes
#      build/image/tavla-engine.oci.tar (an oci-archive) and build/image/report.txt (sizes, times).
#   4. Checks: skopeo reads the archive's config (non-root user, no healthcheck, labels, entry
#      point); the image holds no compiler and no pip; `buildah run` (chroot isolation) starts
#      `tavla-engine serve` from the archive as the image's user, and grpc_health_check.py
#      asks it for health ("" and each tavla.v1 service SERVING), calls GetInitialPosition,
#      reads /metrics when the server has metrics, checks that it runs the compiled accelerator
#      (service/accel, built in the Containerfile's build stage), then SIGTERM must stop it cleanly.
#   5. Cleanup: the build storage is removed; only the archive, the report and the base cache stay.
#
# Needs root (apt-get, buildah's chroot isolation). Environment:
#   HEALTH_PYTHON  python with grpcio and grpcio-health-checking (default .venv-test/bin/python)
#   CACHE          cache directory (default .cache); the base tarball is kept there 7 days
#   SUITE          Debian suite of the base (default trixie: Python 3.13)
#   MIRROR         Debian mirror (default http://deb.debian.org/debian)
#   KEEP_STORAGE=1 keep buildah's storage ($CACHE/image/storage) for a look inside afterwards
#   BASE_LOCK      Debian package lock of the base (default deploy/base-packages.lock): mmdebstrap
#                  installs exactly its versions and the build fails if the base differs from it
#                  (deploy/base_lock.py); "none" resolves the newest packages instead
#   WRITE_BASE_LOCK=FILE  only make the base (BASE_LOCK=none) and write its lock to FILE
#                  (`make base-lock`)
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE=${SUITE:-trixie}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CACHE=${CACHE:-.cache}
HEALTH_PYTHON=${HEALTH_PYTHON:-.venv-test/bin/python}
OUT=build/image
IMAGE=localhost/tavla-engine:ci
BASE_IMAGE=localhost/tavla-python-base:$SUITE
BASE_MAX_AGE_DAYS=7

mkdir -p "$CACHE/image" "$OUT"
[ -f "$CACHE/.gitignore" ] || echo '*' > "$CACHE/.gitignore"
CACHE=$(cd "$CACHE" && pwd)
STORAGE=$CACHE/image/storage
RUNROOT=$CACHE/image/run
B=(buildah --root "$STORAGE" --runroot "$RUNROOT" --storage-driver "${STORAGE_DRIVER:-overlay}")

t0=$(date +%s)
step() { printf '\n== %s (%ds)\n' "$*" $(( $(date +%s) - t0 )); }
die() { echo "build-image: $*" >&2; exit 1; }

# --- 1. tools --------------------------------------------------------------------------------
step "tools"
[ "$(id -u)" = 0 ] || die "needs root (apt-get, buildah chroot isolation)"
missing=()
for tool in buildah mmdebstrap umoci skopeo eatmydata; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    # only the missing tools, never an upgrade of an installed package (see the script)
    deploy/apt-install-missing.sh "${missing[@]}"
fi
buildah --version
[ -n "${WRITE_BASE_LOCK:-}" ] || [ -x "$HEALTH_PYTHON" ] || die "$HEALTH_PYTHON missing (make .venv-test/.installed)"

# Leftovers of an interrupted run: its working containers and overlay mounts.
cleanup() (  # a subshell: its `set +e` stays in it
    set +e
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null
    [ -n "${buildah_pid:-}" ] && kill "$buildah_pid" 2>/dev/null && sleep 1
    if [ -d "$STORAGE" ] && [ -z "${KEEP_STORAGE:-}" ]; then
        "${B[@]}" rm --all >/dev/null 2>&1
        "${B[@]}" rmi --all --force >/dev/null 2>&1
        findmnt -rn -o TARGET | grep -F "$STORAGE" | sort -r | xargs -r umount -l 2>/dev/null
        rm -rf "$STORAGE" "$RUNROOT"
    fi
)
trap cleanup EXIT
cleanup

# --- 2. base ---------------------------------------------------------------------------------
BASE_LOCK=${BASE_LOCK:-deploy/base-packages.lock}
[ -z "${WRITE_BASE_LOCK:-}" ] || BASE_LOCK=none
includes=python3,python3-venv
if [ "$BASE_LOCK" != none ]; then
    # every package of the base at its locked version (the lock holds python3 and python3-venv)
    includes=$(python3 deploy/base_lock.py includes "$BASE_LOCK")
fi
MM_ARGS=(--variant=minbase --include="$includes"
         --aptopt='Acquire::Languages "none"'
         --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*'
         --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright'
         --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*'
         "$SUITE")
key=$(printf '%s\n' "${MM_ARGS[@]}" "$MIRROR" | sha256sum | cut -c1-12)
base_tar=$CACHE/image/base-$SUITE-$key.tar
if [ -f "$base_tar" ] && [ -z "$(find "$base_tar" -mtime +$BASE_MAX_AGE_DAYS)" ]; then
    step "base: cached $base_tar"
else
    step "base: mmdebstrap $SUITE"
    rm -rf "$CACHE"/image/base-*.tar
    mmdebstrap --quiet --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata "${MM_ARGS[@]}" \
        "$base_tar.part.tar" "$MIRROR"  # the name's .tar makes mmdebstrap write a tarball
    mv "$base_tar.part.tar" "$base_tar"
fi
if [ -n "${WRITE_BASE_LOCK:-}" ]; then
    python3 deploy/base_lock.py write "$WRITE_BASE_LOCK" "$base_tar" \
        "Debian $SUITE minbase + python3 python3-venv, $MIRROR"
    exit 0
fi
if [ "$BASE_LOCK" != none ]; then
    python3 deploy/base_lock.py check "$BASE_LOCK" "$base_tar" || { rm -f "$base_tar"; exit 1; }
fi
base_secs=$(( $(date +%s) - t0 ))

step "base: OCI image (umoci), copied into buildah's storage (skopeo)"
layout=$CACHE/image/base-oci
rm -rf "$layout"
umoci init --layout "$layout"
umoci new --image "$layout:$SUITE"
umoci raw add-layer --image "$layout:$SUITE" "$base_tar"
umoci config --image "$layout:$SUITE" --config.cmd /bin/bash \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.env LANG=C.UTF-8 \
    --config.label "org.opencontainers.image.description=Debian $SUITE minbase + python3 (mmdebstrap)"
skopeo copy --quiet "oci:$layout:$SUITE" \
    "containers-storage:[${STORAGE_DRIVER:-overlay}@$STORAGE+$RUNROOT]$BASE_IMAGE"
rm -rf "$layout"
"${B[@]}" run --isolation chroot "$("${B[@]}" from --quiet --pull-never "$BASE_IMAGE")" -- \
    python3 -c 'import sys; assert sys.version_info >= (3, 11), sys.version; print("base python", sys.version.split()[0])'

# --- 3. image --------------------------------------------------------------------------------
step "image: buildah build -f Containerfile"
build_start=$(date +%s)
secret=()
# Hosts whose HTTPS goes through an intercepting proxy trust its CA in the system bundle; pip in
# the build stage gets that bundle as a build secret (never stored in the image).
[ -f /etc/ssl/certs/ca-certificates.crt ] &&
    secret=(--secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -1)
revision=$(git rev-parse --verify --quiet HEAD 2>/dev/null || echo unknown)
"${B[@]}" build --quiet --isolation chroot --pull=never --format oci --layers=false \
    "${secret[@]}" \
    --build-arg PYTHON_BASE="$BASE_IMAGE" \
    --build-arg VERSION="$version" \
    --build-arg REVISION="$revision" \
    --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    -t "$IMAGE" -f Containerfile . >/dev/null
build_secs=$(( $(date +%s) - build_start ))

archive=$OUT/tavla-engine.oci.tar
rm -f "$archive"
"${B[@]}" push --quiet "$IMAGE" "oci-archive:$archive:tavla-engine:$version" >/dev/null

# --- 4. checks -------------------------------------------------------------------------------
step "check: image config (skopeo inspect)"
skopeo inspect --config "oci-archive:$archive" > "$OUT/config.json"
python3 - "$OUT/config.json" <<'EOF'
import json, sys
config = json.load(open(sys.argv[1]))["config"]
problems = []
if config.get("User") != "10001:10001":
    problems.append(f"User is {config.get('User')!r}, not 10001:10001")
if "Healthcheck" in config:
    problems.append("a HEALTHCHECK is set")
if config.get("Entrypoint") != ["tavla-engine"] or config.get("Cmd") != ["serve"]:
    problems.append(f"entry point {config.get('Entrypoint')} {config.get('Cmd')}")
labels = config.get("Labels") or {}
for name in ("title", "version", "revision", "created", "licenses", "description"):
    if not labels.get(f"org.opencontainers.image.{name}"):
        problems.append(f"label org.opencontainers.image.{name} missing")
env = dict(item.split("=", 1) for item in config.get("Env", []))
if env.get("TAVLA_CACHE_DIR") != "/var/cache/tavla":
    problems.append("TAVLA_CACHE_DIR is not /var/cache/tavla")
if problems:
    sys.exit("image config: " + "; ".join(problems))
print("user", config["User"], "| entry point", config["Entrypoint"] + config["Cmd"],
      "| ports", sorted(config.get("ExposedPorts", {})), "| no healthcheck")
EOF

step "check: run the archive (buildah run, chroot isolation)"
"${B[@]}" rmi --all --force >/dev/null
ctr=$("${B[@]}" from --quiet --pull-never "oci-archive:$archive")
"${B[@]}" run --isolation chroot "$ctr" -- sh -ec '
    echo "runs as $(id -u):$(id -g), python $(python3 -c "import sys; print(sys.version.split()[0])")"
    for tool in gcc cc c++ make pip pip3; do
        if command -v "$tool" >/dev/null; then echo "build tool in the image: $tool"; exit 1; fi
    done
    test -w /var/cache/tavla
    tavla-engine version'
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
metrics_port=$(free_port)
while [ "$metrics_port" = "$port" ]; do metrics_port=$(free_port); done
has_metrics=
"${B[@]}" run --isolation chroot "$ctr" -- tavla-engine serve --help 2>/dev/null | grep -q -- --metrics-port &&
    has_metrics=1
log=$OUT/serve.log
"${B[@]}" run --isolation chroot \
    --env TAVLA_HOST=127.0.0.1 --env TAVLA_PORT="$port" --env TAVLA_METRICS_PORT="$metrics_port" \
    --env TAVLA_DRAIN_SECONDS=1 --env TAVLA_GRACE_SECONDS=2 --env TAVLA_WORKERS=1 \
    "$ctr" -- tavla-engine serve > "$log" 2>&1 &
buildah_pid=$!
# buildah kills (rather than forwards SIGTERM to) its child, so find the server process itself.
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
server_pid=
for _ in $(seq 100); do
    for p in $(descendants "$buildah_pid"); do
        # (buildah-chroot-exec, the parent, carries the same command line)
        if tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -v '^buildah' | grep -q 'tavla-engine serve'; then
            server_pid=$p; break 2
        fi
    done
    kill -0 "$buildah_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$server_pid" ] || { cat "$log"; die "the server did not start"; }
metrics_args=()
[ -n "$has_metrics" ] && metrics_args=(--metrics "http://127.0.0.1:$metrics_port/metrics")
if ! "$HEALTH_PYTHON" deploy/grpc_health_check.py "127.0.0.1:$port" --wait 60 --call-engine \
        --pid "$server_pid" "${metrics_args[@]}"; then
    cat "$log"; die "health check failed"
fi
[ -n "$has_metrics" ] || echo "metrics: this server has no --metrics-port yet; /metrics not checked"
# The image runs the compiled accelerator (TAVLA_ACCEL=1 in the image; the startup log says so).
grep -Eq '"accelerator": ?"rust"' "$log" || { cat "$log"; die "the server in the image does not use the accelerator"; }
echo "accelerator: rust (tavla_accel)"
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")
for p in $(descendants "$server_pid"); do
    rss_kib=$(( rss_kib + $(awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0) ))
done

step "check: SIGTERM stops the server"
kill -TERM "$server_pid"
stopped=
for _ in $(seq 200); do
    kill -0 "$buildah_pid" 2>/dev/null || { stopped=1; break; }
    sleep 0.1
done
server_pid=
[ -n "$stopped" ] || { cat "$log"; die "still running 20 s after SIGTERM"; }
rc=0
wait "$buildah_pid" || rc=$?
buildah_pid=
[ "$rc" = 0 ] || { cat "$log"; die "the server exited with status $rc after SIGTERM"; }
echo "stopped cleanly; its log: $log"

# --- report ----------------------------------------------------------------------------------
image_id=$("${B[@]}" pull --quiet "oci-archive:$archive")
layers=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rootfs"]["diff_ids"]))' "$OUT/config.json")
uncompressed=$(du -b --apparent-size -s "$("${B[@]}" mount "$("${B[@]}" from --quiet --pull-never "$image_id")")" | cut -f1)
compressed=$(stat -c %s "$archive")
base_size=$(stat -c %s "$base_tar")
total_secs=$(( $(date +%s) - t0 ))
{
    echo "image            $IMAGE ($version, $revision)"
    echo "base             Debian $SUITE minbase + python3 (mmdebstrap), tarball $(numfmt --to=iec "$base_size")"
    echo "uncompressed     $(numfmt --to=iec "$uncompressed") ($uncompressed bytes, root filesystem)"
    echo "compressed       $(numfmt --to=iec "$compressed") (oci-archive, gzip layers: $layers)"
    echo "server RSS       $(( rss_kib / 1024 )) MiB after the health check (1 worker)"
    echo "time             base ${base_secs}s, buildah build ${build_secs}s, all ${total_secs}s"
} | tee "$OUT/report.txt"
