"""How many CPUs this process may use: the smaller of its CPU affinity and its cgroup quota.

``os.cpu_count()`` reports the host's CPUs, so a container limited to 2 CPUs on a 64-core node
would start 64 workers. Kubernetes expresses ``resources.limits.cpu`` as a CFS quota: cgroup v2
``cpu.max`` (``"200000 100000"`` = 2 CPUs, ``"max 100000"`` = unlimited) or cgroup v1
``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``. A fractional quota rounds up (1.5 CPUs: 2).
"""

from __future__ import annotations

import math
import os
from pathlib import Path


def available(root: Path = Path("/")) -> int:
    """CPUs usable by this process, at least 1.

    :param root: filesystem root to read ``proc`` and ``sys`` under (tests pass a fake one).
    """
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        count = os.cpu_count() or 1
    quota = cgroup_quota(root)
    if quota is not None:
        count = min(count, max(1, math.ceil(quota)))
    return max(1, count)


def cgroup_quota(root: Path = Path("/")) -> float | None:
    """The CFS quota in CPUs (2.0 = two CPUs), or ``None`` when there is none or no cgroup."""
    for directory in _cgroup_dirs(root):
        v2 = _read(directory / "cpu.max")
        if v2 is not None:
            parts = v2.split()
            if len(parts) == 2 and parts[0] != "max":
                return _ratio(parts[0], parts[1])
            return None
        v1_quota, v1_period = _read(directory / "cpu.cfs_quota_us"), _read(directory / "cpu.cfs_period_us")
        if v1_quota is not None and v1_period is not None:
            return None if v1_quota.strip() == "-1" else _ratio(v1_quota, v1_period)
    return None


def _cgroup_dirs(root: Path) -> list[Path]:
    """Candidate cgroup directories: this process's own (from /proc/self/cgroup), then the
    mount root, which is the container's own cgroup under a cgroup namespace."""
    base = root / "sys" / "fs" / "cgroup"
    dirs: list[Path] = []
    for line in (_read(root / "proc" / "self" / "cgroup") or "").splitlines():
        _, controllers, path = (line.split(":", 2) + ["", ""])[:3]
        relative = path.strip().lstrip("/")
        if controllers == "":  # v2: "0::/path"
            dirs.append(base / relative)
        elif "cpu" in controllers.split(","):  # v1: "4:cpu,cpuacct:/path"
            dirs.append(base / controllers / relative)
            dirs.append(base / "cpu" / relative)
    dirs += [base, base / "cpu", base / "cpu,cpuacct"]
    return dirs


def _ratio(quota: str, period: str) -> float | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    return q / p if q > 0 and p > 0 else None


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None
