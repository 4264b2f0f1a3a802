#!/usr/bin/env bash
# Install the given Debian packages (callers pass only the missing ones) without touching anything
# else: never an upgrade of an installed package. apt-get would otherwise upgrade installed
# packages a new one depends on (a fresh `make test` once upgraded login and passwd for buildah's
# uidmap); the install is simulated first, and when it would upgrade anything this stops and
# names the packages, unless ALLOW_APT_UPGRADES=1.
#
#   deploy/apt-install-missing.sh buildah skopeo      (as root; APT_GET overrides the command)
set -euo pipefail
[ $# -gt 0 ] || exit 0
APT_GET=${APT_GET:-apt-get}
export DEBIAN_FRONTEND=noninteractive
"$APT_GET" update -qq
plan=$("$APT_GET" -s install --no-install-recommends --no-upgrade "$@")
# simulated lines: "Inst NAME (NEW ...)" installs, "Inst NAME [OLD] (NEW ...)" upgrades
upgrades=$(printf '%s\n' "$plan" | awk '/^Inst [^ ]+ \[/ {print $2}' | tr '\n' ' ')
if [ -n "$upgrades" ] && [ -z "${ALLOW_APT_UPGRADES:-}" ]; then
    echo "apt-install-missing: installing $* would upgrade installed packages: ${upgrades% }." >&2
    echo "Install the tools yourself, or set ALLOW_APT_UPGRADES=1 to let apt-get upgrade them." >&2
    exit 1
fi
echo "installing from Debian: $*"
"$APT_GET" install -y -qq --no-install-recommends --no-upgrade "$@" >/dev/null
