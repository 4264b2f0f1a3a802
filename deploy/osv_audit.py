"""The offline vulnerability audit of the Python locks (mk/audit.mk, docs/reliability.md).

No advisory data is kept in git: the advisories live in a directory outside it (default
``.cache/osv-advisories``, git-ignored), filled by ``vendor`` where a database can be reached.

``vendor``    copy, from an OSV source, the advisories that name a package of the given locks into
              ``<advisories>/PyPI/<ID>.json`` (OSV JSON), and write ``<advisories>/packages.txt``
              (every package name looked up, found or not) and ``<advisories>/SOURCE`` (where they
              came from, when). Sources: osv.dev's ``PyPI/all.zip`` (OSV JSON: PYSEC, GHSA and
              others), or the PyPA advisory database as a git directory (OSV YAML under
              ``vulns/<package>/``).
``build``     zip ``<advisories>/PyPI/*.json`` into ``<db>/osv-scalibr/PyPI/all.zip``, the layout
              osv-scanner 2.x reads with ``--offline --local-db-path <db>``; and check that every
              package of the locks is in ``packages.txt`` (a package added to a lock after the last
              vendoring was never looked up: that must fail, not pass silently).
``selftest``  build a database from the given advisories only (ours, synthetic:
              tests/data/audit/) and scan a fixture lock with it: exactly the ids on its
              ``# expect:`` line must be reported, else the scanner proves nothing.
``scan``      when advisories are present: ``build``, then scan the locks, which must have none.
              When absent: a loud notice that the locks were NOT audited, exit status 0 (and, under
              `make test`, the part reported as skipped: deploy/run_parts.py), or 1 with
              ``--required`` (or ``AUDIT_REQUIRED=1`` in the environment).

Usage (mk/audit.mk)::

    python deploy/osv_audit.py vendor --advisories DIR --zip all.zip --source-note TEXT LOCK...
    python deploy/osv_audit.py vendor --advisories DIR --git DIR [--ref REV] LOCK...
    python deploy/osv_audit.py build --advisories DIR --db DIR LOCK...
    python deploy/osv_audit.py selftest --scanner PATH --db DIR --advisory JSON... --fixture LOCK
    python deploy/osv_audit.py scan --scanner PATH --db DIR --advisories DIR [--required] LOCK...
    python deploy/osv_audit.py present --advisories DIR     # exit status 0 when vendored

Exit status 1 with a message on any problem.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from run_parts import report_skipped  # deploy/, beside this file

ADVISORIES_DIR = ".cache/osv-advisories"
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==", re.M)

NO_DATABASE = """\
################################################################################
##  LOCKS NOT AUDITED: no vulnerability database reachable here
##  ({advisories} holds no advisories; osv.dev's PyPI database could not be
##  downloaded). Only the scanner's self-test ran; {locks}
##  were NOT checked for known vulnerabilities.
##  Run `make audit-refresh` where the network is available, or pass
##  OSV_ZIP=/path/to/PyPI-all.zip (osv.dev's PyPI/all.zip carried in) or
##  PYPA_ADVISORY_DB=/path/to/advisory-database; AUDIT_REQUIRED=1 makes this fail.
################################################################################"""


def normalise(name: str) -> str:
    """PEP 503 name: ``PyYAML`` -> ``pyyaml``, ``typing_extensions`` -> ``typing-extensions``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_names(locks: list[str]) -> set[str]:
    """The normalised names of every ``name==version`` pin in the lock files."""
    names: set[str] = set()
    for lock in locks:
        names.update(normalise(m.group(1)) for m in _PIN.finditer(Path(lock).read_text()))
    if not names:
        raise SystemExit(f"no pinned package in {' '.join(locks)}")
    return names


def _affects(advisory: dict, names: set[str]) -> bool:  # type: ignore[type-arg]
    return any(a.get("package", {}).get("ecosystem") == "PyPI"
               and normalise(a.get("package", {}).get("name", "")) in names
               for a in advisory.get("affected", []))


def _from_git(git_dir: str, ref: str, names: set[str]) -> tuple[list[dict], str]:  # type: ignore[type-arg]
    import yaml  # PyYAML: only for vendoring from the YAML database

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", git_dir, *args], check=True, capture_output=True,
                              text=True).stdout

    commit = git("rev-parse", ref).strip()
    date = git("log", "-1", "--format=%cI", commit).strip()
    advisories = []
    for path in git("ls-tree", "-r", "--name-only", commit, "vulns/").splitlines():
        if not path.endswith((".yaml", ".yml")) or normalise(path.split("/")[1]) not in names:
            continue
        advisory = yaml.safe_load(git("show", f"{commit}:{path}"))
        if _affects(advisory, names):
            advisories.append(advisory)
    note = (f"PyPA advisory database (https://github.com/pypa/advisory-database), commit {commit} "
            f"of {date}, licence CC-BY 4.0")
    return advisories, note


def _from_zip(path: str, names: set[str]) -> list[dict]:  # type: ignore[type-arg]
    advisories = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.filename.endswith(".json"):
                advisory = json.loads(archive.read(info))
                if _affects(advisory, names):
                    advisories.append(advisory)
    return advisories


def vendor(args: argparse.Namespace) -> None:
    names = locked_names(args.locks)
    if args.git:
        advisories, note = _from_git(args.git, args.ref, names)
    else:
        advisories, note = _from_zip(args.zip, names), args.source_note
    # written beside the target, then swapped in: an interrupted refresh leaves the old set whole
    target = Path(args.advisories)
    staging = target.with_name(target.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "PyPI").mkdir(parents=True)
    for advisory in advisories:
        (staging / "PyPI" / f"{advisory['id']}.json").write_text(
            json.dumps(advisory, indent=1, sort_keys=True, default=str) + "\n")
    (staging / "packages.txt").write_text("".join(f"{n}\n" for n in sorted(names)))
    (staging / "SOURCE").write_text(note + "\n")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    print(f"osv: {len(advisories)} advisories for {len(names)} packages -> {target} (from: {note})")


def present(advisories: str) -> bool:
    """Whether ``vendor`` has filled ``advisories`` (its packages.txt and SOURCE exist)."""
    return all((Path(advisories) / f).is_file() for f in ("packages.txt", "SOURCE"))


def _write_db(db: str, files: list[Path]) -> Path:
    target = Path(db) / "osv-scalibr" / "PyPI" / "all.zip"
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for f in files:
            archive.writestr(zipfile.ZipInfo(f.name, (1980, 1, 1, 0, 0, 0)), f.read_bytes())
    target.write_bytes(buffer.getvalue())
    return target


def build(db: str, locks: list[str], advisories: str = ADVISORIES_DIR) -> Path:
    """Zip the vendored advisories into osv-scanner's offline layout under ``db``.

    :returns: the ``all.zip`` written.
    :raises SystemExit: a locked package was not looked up when the advisories were vendored.
    """
    vendor_dir = Path(advisories)
    covered = set((vendor_dir / "packages.txt").read_text().split())
    missing = sorted(locked_names(locks) - covered)
    if missing:
        raise SystemExit(f"osv: no advisories were looked up for {', '.join(missing)} (added to a "
                         f"lock since the last `make audit-refresh`): refresh {vendor_dir}")
    files = sorted((vendor_dir / "PyPI").glob("*.json"))
    target = _write_db(db, files)
    print(f"osv: {len(files)} advisories -> {target} ({(vendor_dir / 'SOURCE').read_text().strip()})")
    return target


def _command(scanner: str, db: str, locks: list[str]) -> list[str]:
    command = [scanner, "scan", "source", "--offline", "--local-db-path", db]
    for lock in locks:
        command += ["--lockfile", f"requirements.txt:{lock}"]
    return command


def run_scanner(scanner: str, db: str, locks: list[str]) -> tuple[int, set[str]]:
    """osv-scanner, offline, on ``locks`` (read as requirements.txt): its exit status (0 none found,
    1 vulnerabilities found, others: errors) and the advisory ids it reported."""
    found = subprocess.run([*_command(scanner, db, locks), "--format", "json"], capture_output=True,
                           text=True, timeout=300)
    ids: set[str] = set()
    if found.stdout.strip():
        for result in json.loads(found.stdout).get("results") or []:
            for package in result.get("packages") or []:
                ids.update(v["id"] for v in package.get("vulnerabilities") or [])
    return found.returncode, ids


def scanner_table(scanner: str, db: str, locks: list[str]) -> str:
    """osv-scanner's own table for ``locks``, for a failure's message (a second scan: only then)."""
    return subprocess.run(_command(scanner, db, locks), capture_output=True, text=True, timeout=300).stdout


def expected_ids(fixture: str) -> set[str]:
    """The ids a fixture lock names on its ``# expect:`` line."""
    for line in Path(fixture).read_text().splitlines():
        if line.startswith("# expect:"):
            return set(line.split(":", 1)[1].split())
    raise SystemExit(f"{fixture}: no '# expect: ID...' line")


def selftest(scanner: str, db: str, advisory_files: list[str], fixture: str) -> set[str]:
    """Scan ``fixture`` against a database of ``advisory_files`` only.

    :returns: the ids reported, exactly those of the fixture's ``# expect:`` line.
    :raises SystemExit: anything else reported, or exit status other than 1 (found).
    """
    _write_db(db, [Path(f) for f in advisory_files])
    status, ids = run_scanner(scanner, db, [fixture])
    want = expected_ids(fixture)
    if status != 1 or ids != want:
        raise SystemExit(f"osv: self-test failed: {fixture} should report {sorted(want)}, "
                         f"got {sorted(ids)} (exit status {status}):\n{scanner_table(scanner, db, [fixture])}")
    print(f"osv: self-test: {fixture} reports {', '.join(sorted(ids))} as it should")
    return ids


def scan(args: argparse.Namespace) -> None:
    if not present(args.advisories):
        print(NO_DATABASE.format(advisories=args.advisories, locks=" and ".join(args.locks)),
              file=sys.stderr)
        if args.required:
            raise SystemExit("osv: AUDIT_REQUIRED=1: the locks must be audited, and cannot be here")
        report_skipped("no advisories, locks not audited (make audit-refresh)")
        return
    build(args.db, args.locks, args.advisories)
    status, ids = run_scanner(args.scanner, args.db, args.locks)
    if status != 0 or ids:
        table = scanner_table(args.scanner, args.db, args.locks)
        raise SystemExit(f"osv: known vulnerabilities in {' '.join(args.locks)}: {', '.join(sorted(ids))} "
                         f"(exit status {status}; upgrade them in pyproject.toml and `make lock`):\n{table}")
    source = (Path(args.advisories) / "SOURCE").read_text().strip()
    print(f"osv: no known vulnerability in {' '.join(args.locks)} (advisories: {source}; "
          "refresh them with `make audit-refresh`)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("vendor")
    v.add_argument("--advisories", default=ADVISORIES_DIR)
    source = v.add_mutually_exclusive_group(required=True)
    source.add_argument("--git", help="a clone (or bare git dir) of pypa/advisory-database")
    source.add_argument("--zip", help="osv.dev's PyPI/all.zip")
    v.add_argument("--ref", default="HEAD")
    v.add_argument("--source-note", default="osv.dev PyPI/all.zip")
    v.add_argument("locks", nargs="+")
    b = sub.add_parser("build")
    b.add_argument("--advisories", default=ADVISORIES_DIR)
    b.add_argument("--db", required=True)
    b.add_argument("locks", nargs="+")
    t = sub.add_parser("selftest")
    t.add_argument("--scanner", required=True)
    t.add_argument("--db", required=True)
    t.add_argument("--advisory", action="append", required=True)
    t.add_argument("--fixture", required=True)
    s = sub.add_parser("scan")
    s.add_argument("--scanner", required=True)
    s.add_argument("--db", required=True)
    s.add_argument("--advisories", default=ADVISORIES_DIR)
    s.add_argument("--required", action="store_true",
                   default=os.environ.get("AUDIT_REQUIRED") == "1",
                   help="fail when no advisories are present (default: AUDIT_REQUIRED=1)")
    s.add_argument("locks", nargs="+")
    p = sub.add_parser("present")
    p.add_argument("--advisories", default=ADVISORIES_DIR)
    args = parser.parse_args(argv)
    if args.command == "vendor":
        vendor(args)
    elif args.command == "build":
        build(args.db, args.locks, args.advisories)
    elif args.command == "selftest":
        selftest(args.scanner, args.db, args.advisory, args.fixture)
    elif args.command == "present":
        raise SystemExit(0 if present(args.advisories) else 1)
    else:
        scan(args)


if __name__ == "__main__":
    sys.exit(main())
