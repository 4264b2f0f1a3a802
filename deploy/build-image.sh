#!/usr/bin/env bash
# Build the tavla-engine OCI image from the top-level Containerfile without a container engine,
# then run the server inside it and health-check it from outside. `make test-image` runs this.
#
#   1. Tools: mmdebstrap, umoci, skopeo and eatmydata from Debian when missing
#      (deploy/apt-install-missing.sh: installs them, never upgrades an installed package; these
#      four install on Debian 12 and 13 without an upgrade, which buildah does not: its uidmap
#      wants a newer login and passwd on Debian 12).
#   2. Base: mmdebstrap makes a slim Debian ($SUITE, minbase, no docs/man/locales) with python3
#      and python3-venv, the same kind of base as python:3.x-slim, from the package lock; umoci
#      turns the tarball into an OCI image (tag `base`) in $CACHE/image/oci.
#   3. Image: deploy/oci_build.py carries out the Containerfile itself (the file docker and podman
#      build): each stage's RUN in a chroot of the unpacked base, COPY from the context
#      (.dockerignore) or from the build stage, and the final stage repacked by umoci as one
#      layer with the Containerfile's LABEL, ENV, USER, EXPOSE, ENTRYPOINT and CMD. skopeo writes
#      build/image/tavla-engine.oci.tar (an oci-archive); the RUN output goes to build/image/build.log
#      (progress every 15 s); build/image/report.txt has sizes and times.
#   4. Checks: skopeo reads the archive's config (non-root user, no healthcheck, labels, entry
#      point); umoci unpacks the archive and, in a chroot as the image's user with the image's
#      environment: no compiler and no pip; `tavla-engine serve` starts and grpc_health_check.py
#      asks it for health ("" and every service it registers SERVING), calls GetInitialPosition,
#      reads /metrics, checks that it runs the compiled accelerator (service/accel, built in the
#      Containerfile's build stage), then SIGTERM must stop it cleanly.
#   5. Cleanup: the scratch trees are removed; only the archive, the report and the base cache stay.
#
# Needs root (apt-get, chroot, mount). Environment:
#   HEALTH_PYTHON  python with grpcio and grpcio-health-checking (default .venv-test/bin/python)
#   CACHE          cache directory (default .cache); the base tarball is kept there 7 days
#   SUITE          Debian suite of the base (default trixie: Python 3.13)
#   MIRROR         Debian mirror (default http://deb.debian.org/debian)
#   KEEP_STORAGE=1 keep the unpacked image ($CACHE/image/run) for a look inside afterwards
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
BASE_MAX_AGE_DAYS=7

mkdir -p "$CACHE/image" "$OUT"
[ -f "$CACHE/.gitignore" ] || echo '*' > "$CACHE/.gitignore"
CACHE=$(cd "$CACHE" && pwd)
LAYOUT=$CACHE/image/oci
WORK=$CACHE/image/work
RUN_BUNDLE=$CACHE/image/run

t0=$(date +%s)
step() { printf '\n== %s (%ds)\n' "$*" $(( $(date +%s) - t0 )); }
die() { echo "build-image: $*" >&2; exit 1; }

# --- 1. tools --------------------------------------------------------------------------------
step "tools"
[ "$(id -u)" = 0 ] || die "needs root (apt-get, chroot, mount)"
missing=()
for tool in mmdebstrap umoci skopeo eatmydata; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    # only the missing tools, never an upgrade of an installed package (see the script)
    deploy/apt-install-missing.sh "${missing[@]}"
fi
echo "umoci $(umoci --version | awk '{print $NF}'), $(skopeo --version), mmdebstrap $(mmdebstrap --version | awk '{print $NF}')"
[ -n "${WRITE_BASE_LOCK:-}" ] || [ -x "$HEALTH_PYTHON" ] || die "$HEALTH_PYTHON missing (make .venv-test/.installed)"

# Leftovers of an interrupted run: its server, mounts and scratch trees.
unmount_under() { findmnt -rn -o TARGET | grep -F "$1/" | sort -r | xargs -r umount -l 2>/dev/null || true; }
cleanup() (  # a subshell: its `set +e` stays in it
    set +e
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && sleep 1
    unmount_under "$WORK"; unmount_under "$RUN_BUNDLE"
    rm -rf --one-file-system "$WORK" "$CACHE/image/run-layout" "$LAYOUT"  # the archive has it all
    [ -n "${KEEP_STORAGE:-}" ] || rm -rf --one-file-system "$RUN_BUNDLE"
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

step "base: OCI image (umoci)"
rm -rf "$LAYOUT"
umoci init --layout "$LAYOUT"
umoci new --image "$LAYOUT:base"
umoci raw add-layer --image "$LAYOUT:base" "$base_tar"
umoci config --image "$LAYOUT:base" --config.cmd /bin/bash \
    --config.env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --config.env LANG=C.UTF-8 \
    --config.label "org.opencontainers.image.description=Debian $SUITE minbase + python3 (mmdebstrap)"

# --- 3. image --------------------------------------------------------------------------------
step "image: the Containerfile, stage by stage in chroots (deploy/oci_build.py)"
build_start=$(date +%s)
secret=()
# Hosts whose HTTPS goes through an intercepting proxy trust its CA in the system bundle; pip and
# cargo in the build stage get that bundle as a build secret (never stored in the image).
[ -f /etc/ssl/certs/ca-certificates.crt ] &&
    secret=(--secret id=ca-certificates,src=/etc/ssl/certs/ca-certificates.crt)
version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -1)
revision=$(git rev-parse --verify --quiet HEAD 2>/dev/null || echo unknown)
python3 deploy/oci_build.py --containerfile Containerfile --context . \
    --base "$LAYOUT:base" --base-arg PYTHON_BASE --tag image --work "$WORK" --log "$OUT/build.log" \
    --cache-mounts "$CACHE/image/mount-cache" \
    "${secret[@]}" \
    --build-arg PYTHON_BASE="localhost/tavla-python-base:$SUITE" \
    --build-arg VERSION="$version" \
    --build-arg REVISION="$revision" \
    --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
build_secs=$(( $(date +%s) - build_start ))

archive=$OUT/tavla-engine.oci.tar
rm -f "$archive"
skopeo copy --quiet "oci:$LAYOUT:image" "oci-archive:$archive:tavla-engine:$version"

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
if not env.get("PATH", "").startswith("/opt/tavla/bin:"):
    problems.append(f"PATH is {env.get('PATH')!r}, not /opt/tavla/bin first")
if problems:
    sys.exit("image config: " + "; ".join(problems))
print("user", config["User"], "| entry point", config["Entrypoint"] + config["Cmd"],
      "| ports", sorted(config.get("ExposedPorts", {})), "| no healthcheck")
EOF

step "check: run the archive (umoci unpack, chroot as the image's user)"
archive_layout=$CACHE/image/run-layout
skopeo copy --quiet "oci-archive:$archive" "oci:$archive_layout:image"
umoci unpack --image "$archive_layout:image" "$RUN_BUNDLE" >/dev/null
rm -rf "$archive_layout"
rootfs=$RUN_BUNDLE/rootfs
mount -t proc proc "$rootfs/proc"
mount --rbind /dev "$rootfs/dev" && mount --make-rslave "$rootfs/dev"
# The image's user and environment, as an engine starts it (the archive's config).
user=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["User"])' "$OUT/config.json")
mapfile -t image_env < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))["config"]["Env"]))' "$OUT/config.json")
in_image() { exec chroot --userspec="$user" "$rootfs" /usr/bin/env -i "${image_env[@]}" "$@"; }
(in_image sh -ec '
    echo "runs as $(id -u):$(id -g), python $(python3 -c "import sys; print(sys.version.split()[0])")"
    for tool in gcc cc c++ make rustc cargo pip pip3; do
        if command -v "$tool" >/dev/null; then echo "build tool in the image: $tool"; exit 1; fi
    done
    test -w /var/cache/tavla
    tavla-engine version')
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
metrics_port=$(free_port)
while [ "$metrics_port" = "$port" ]; do metrics_port=$(free_port); done
log=$OUT/serve.log
# The subshell, chroot and env exec the server: $! is the server itself, which gets the SIGTERM.
in_image TAVLA_HOST=127.0.0.1 TAVLA_PORT="$port" TAVLA_METRICS_PORT="$metrics_port" \
    TAVLA_DRAIN_SECONDS=1 TAVLA_GRACE_SECONDS=2 TAVLA_WORKERS=1 tavla-engine serve > "$log" 2>&1 &
server_pid=$!
if ! "$HEALTH_PYTHON" deploy/grpc_health_check.py "127.0.0.1:$port" --wait 60 --call-engine \
        --pid "$server_pid" --metrics "http://127.0.0.1:$metrics_port/metrics"; then
    cat "$log"; die "health check failed"
fi
# The image runs the compiled accelerator (TAVLA_ACCEL=1 in the image; the startup log says so).
grep -Eq '"accelerator": ?"rust"' "$log" || { cat "$log"; die "the server in the image does not use the accelerator"; }
echo "accelerator: rust (tavla_accel)"
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
rss_kib=$(awk '/VmRSS/ {print $2}' "/proc/$server_pid/status")
for p in $(descendants "$server_pid"); do
    rss_kib=$(( rss_kib + $(awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0) ))
done

step "check: SIGTERM stops the server"
kill -TERM "$server_pid"
stopped=
for _ in $(seq 200); do
    kill -0 "$server_pid" 2>/dev/null || { stopped=1; break; }
    sleep 0.1
done
[ -n "$stopped" ] || { cat "$log"; die "still running 20 s after SIGTERM"; }
rc=0
wait "$server_pid" || rc=$?
server_pid=
[ "$rc" = 0 ] || { cat "$log"; die "the server exited with status $rc after SIGTERM"; }
echo "stopped cleanly; its log: $log"
unmount_under "$RUN_BUNDLE"

# --- report ----------------------------------------------------------------------------------
layers=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rootfs"]["diff_ids"]))' "$OUT/config.json")
uncompressed=$(du -b --apparent-size -s "$rootfs" | cut -f1)
compressed=$(stat -c %s "$archive")
base_size=$(stat -c %s "$base_tar")
total_secs=$(( $(date +%s) - t0 ))
{
    echo "image            tavla-engine:$version ($revision)"
    echo "base             Debian $SUITE minbase + python3 (mmdebstrap), tarball $(numfmt --to=iec "$base_size")"
    echo "uncompressed     $(numfmt --to=iec "$uncompressed") ($uncompressed bytes, root filesystem)"
    echo "compressed       $(numfmt --to=iec "$compressed") (oci-archive, gzip layers: $layers)"
    echo "server RSS       $(( rss_kib / 1024 )) MiB after the health check (1 worker)"
    echo "time             base ${base_secs}s, Containerfile build ${build_secs}s, all ${total_secs}s"
} | tee "$OUT/report.txt"
