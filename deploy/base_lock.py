"""The Debian package lock of the CI image base (deploy/base-packages.lock), for build-image.sh.

The base is made by mmdebstrap from a Debian mirror, which carries only the current version of
each package: the lock cannot make an old set appear again, but it makes the build install exactly
the locked versions (``--include=name=version`` for every package) and fail, naming the packages,
when the base it made differs from the lock in any package or version. Then `make base-lock`
(root and the mirror needed) writes the lock again from a fresh base, and the change is reviewed
like any other.

Commands (exit status 1 with a message on any problem):

``includes LOCK``       print mmdebstrap's ``--include`` list: ``name=version,...``
``check LOCK TARBALL``  compare the packages installed in the base tarball with the lock
``write LOCK TARBALL``  write the lock from the packages installed in the tarball

Lock format: ``#`` comments (suite, date, mirror), then one ``name version architecture`` a line,
sorted by name.
"""

from __future__ import annotations

import sys
import tarfile
import time
from pathlib import Path

STATUS = ("var/lib/dpkg/status", "./var/lib/dpkg/status")


def read_lock(path: str) -> dict[str, tuple[str, str]]:
    """``{name: (version, architecture)}`` from a lock file.

    :raises SystemExit: a line that is not ``name version architecture``, or no package.
    """
    packages = {}
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 3:
            raise SystemExit(f"{path}:{number}: expected 'name version architecture', got {line!r}")
        packages[fields[0]] = (fields[1], fields[2])
    if not packages:
        raise SystemExit(f"{path}: no package in the lock")
    return packages


def installed(tarball: str) -> dict[str, tuple[str, str]]:
    """``{name: (version, architecture)}`` of the packages dpkg lists as installed in the tarball."""
    with tarfile.open(tarball) as archive:
        for name in STATUS:
            try:
                member = archive.extractfile(name)
            except KeyError:
                continue
            if member is not None:
                text = member.read().decode("utf-8")
                break
        else:
            raise SystemExit(f"{tarball}: no var/lib/dpkg/status in it")
    packages = {}
    for stanza in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in stanza.splitlines()
                      if ": " in line and not line.startswith(" "))
        if fields.get("Status", "").endswith(" installed") and "Package" in fields:
            packages[fields["Package"]] = (fields["Version"], fields.get("Architecture", "all"))
    return packages


def differences(lock: dict[str, tuple[str, str]], base: dict[str, tuple[str, str]]) -> list[str]:
    """Every way the base differs from the lock, one line each (empty: they agree)."""
    lines = []
    for name in sorted(lock.keys() | base.keys()):
        want, got = lock.get(name), base.get(name)
        if want is None:
            lines.append(f"  + {name} {got[0]} (installed, not in the lock)")  # type: ignore[index]
        elif got is None:
            lines.append(f"  - {name} {want[0]} (locked, not installed)")
        elif want != got:
            lines.append(f"  ~ {name}: locked {want[0]} ({want[1]}), installed {got[0]} ({got[1]})")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "includes":
        print(",".join(f"{name}={version}" for name, (version, _) in sorted(read_lock(argv[1]).items())))
    elif len(argv) == 3 and argv[0] == "check":
        problems = differences(read_lock(argv[1]), installed(argv[2]))
        if problems:
            print(f"base-lock: the base made from the mirror differs from {argv[1]}:\n" + "\n".join(problems)
                  + "\n(the mirror has moved on: review and refresh the lock with `make base-lock`)",
                  file=sys.stderr)
            return 1
        print(f"base-lock: {len(read_lock(argv[1]))} packages as locked in {argv[1]}")
    elif len(argv) >= 3 and argv[0] == "write":
        base = installed(argv[2])
        header = " ".join(argv[3:]) or "mmdebstrap base"
        lines = [f"# Debian packages of the CI image base ({header}), written by `make base-lock`",
                 f"# on {time.strftime('%Y-%m-%d', time.gmtime())} from a base made on "
                 f"{time.strftime('%Y-%m-%d', time.gmtime(Path(argv[2]).stat().st_mtime))}; "
                 "deploy/build-image.sh installs exactly these (deploy/base_lock.py).",
                 *(f"{name} {version} {arch}" for name, (version, arch) in sorted(base.items()))]
        Path(argv[1]).write_text("\n".join(lines) + "\n")
        print(f"base-lock: wrote {len(base)} packages to {argv[1]}")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
