"""The offline vulnerability audit (mk/audit.mk, deploy/osv_audit.py, docs/reliability.md).

No advisory data is in git: the only advisory committed is our synthetic TAVLA-TEST-0001
(tests/data/audit), for a made-up package; the tests write any other advisory they need
themselves. Checked: the self-test reports exactly it (so the scan can fail), advisories vendored
from an osv.dev-style zip or a PyPA-style git database keep only the locked packages and build
osv-scanner's offline layout, a lock with an affected version fails the scan and a clean one
passes, a package never looked up fails, and without advisories the scan says loudly that the
locks were NOT audited -- and fails with AUDIT_REQUIRED=1.

The scanner tests run osv-scanner when it has been built (`make test-audit` builds it and runs the
same self-test itself, so `make test` never skips it); they run it without network (``--offline``,
and in a network namespace of its own when the test runs as root).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))
import osv_audit  # noqa: E402

LOCKS = [str(ROOT / "requirements.lock"), str(ROOT / "requirements-test.lock")]
DATA = ROOT / "tests/data/audit"
FIXTURE = str(DATA / "vulnerable.lock")
CANARY = str(DATA / "TAVLA-TEST-0001.json")
SCANNER = os.environ.get("OSV_SCANNER", str(ROOT / ".cache/tools/osv-scanner-v2.6.0/osv-scanner"))
SCRIPT = str(ROOT / "deploy/osv_audit.py")


def advisory(id_: str, name: str, fixed: str = "2.0", ecosystem: str = "PyPI") -> dict:  # type: ignore[type-arg]
    """A synthetic OSV 1.6 advisory: ``name`` affected from 0 up to ``fixed``."""
    return {"schema_version": "1.6.0", "id": id_, "modified": "2026-12-01T00:00:00Z",
            "affected": [{"package": {"name": name, "ecosystem": ecosystem},
                          "ranges": [{"type": "ECOSYSTEM",
                                      "events": [{"introduced": "0"}, {"fixed": fixed}]}]}]}


def vendored(tmp_path: Path, *advisories: dict, locks: list[str] = LOCKS) -> Path:  # type: ignore[type-arg]
    """An advisories directory as `make audit-refresh OSV_ZIP=...` writes it, from ``advisories``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    archive = tmp_path / "all.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for a in advisories:
            z.writestr(f"{a['id']}.json", json.dumps(a))
    out = tmp_path / "advisories"
    osv_audit.main(["vendor", "--advisories", str(out), "--zip", str(archive),
                    "--source-note", "synthetic zip of the test", *locks])
    return out


def test_the_only_committed_advisory_is_our_synthetic_one():
    assert not (ROOT / "deploy/osv").exists()
    files = sorted(p.name for p in DATA.rglob("*.json"))
    assert files == ["TAVLA-TEST-0001.json"]
    canary = json.loads(Path(CANARY).read_text())
    assert canary["schema_version"] == "1.6.0"
    assert canary["affected"][0]["package"] == {"ecosystem": "PyPI", "name": "tavla-audit-canary"}
    assert osv_audit.expected_ids(FIXTURE) == {"TAVLA-TEST-0001"}


def test_lock_names_are_normalised():
    assert osv_audit.normalise("PyYAML") == "pyyaml"
    assert osv_audit.normalise("typing_extensions") == "typing-extensions"
    assert osv_audit.locked_names([FIXTURE]) == {"tavla-audit-canary", "tavla-audit-canary-ok"}
    assert {"grpcio", "protobuf", "pyyaml"} <= osv_audit.locked_names(LOCKS)


def test_vendoring_from_osv_dev_zip_keeps_only_advisories_of_locked_packages(tmp_path):
    out = vendored(tmp_path, advisory("GHSA-aaaa", "PyYAML"), advisory("PYSEC-1", "django"),
                   advisory("GHSA-bbbb", "pyyaml", ecosystem="npm"))
    assert [p.name for p in (out / "PyPI").glob("*.json")] == ["GHSA-aaaa.json"]
    assert set((out / "packages.txt").read_text().split()) == osv_audit.locked_names(LOCKS)
    assert (out / "SOURCE").read_text() == "synthetic zip of the test\n"
    assert osv_audit.present(str(out))
    target = osv_audit.build(str(tmp_path / "db"), LOCKS, str(out))
    assert target == tmp_path / "db" / "osv-scalibr" / "PyPI" / "all.zip"  # osv-scanner 2.x's layout
    with zipfile.ZipFile(target) as z:
        assert z.namelist() == ["GHSA-aaaa.json"]
        assert json.loads(z.read("GHSA-aaaa.json"))["affected"][0]["package"]["name"] == "PyYAML"


def test_a_refresh_replaces_the_previous_advisories(tmp_path):
    vendored(tmp_path, advisory("GHSA-old", "grpcio"))
    out = vendored(tmp_path, advisory("GHSA-new", "protobuf"))
    assert [p.name for p in (out / "PyPI").glob("*.json")] == ["GHSA-new.json"]
    assert not (tmp_path / "advisories.new").exists()


def test_vendoring_from_a_pypa_style_git_database(tmp_path):
    pytest.importorskip("yaml")
    if not shutil.which("git"):
        pytest.skip("git not installed")
    repo = tmp_path / "db"
    (repo / "vulns/pyyaml").mkdir(parents=True)
    (repo / "vulns/django").mkdir(parents=True)
    (repo / "vulns/pyyaml/TAVLA-TEST-0100.yaml").write_text(
        "id: TAVLA-TEST-0100\nmodified: '2026-12-01T00:00:00Z'\naffected:\n"
        "- package: {name: PyYAML, ecosystem: PyPI}\n")
    (repo / "vulns/django/TAVLA-TEST-0101.yaml").write_text(
        "id: TAVLA-TEST-0101\naffected:\n- package: {name: django, ecosystem: PyPI}\n")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "synthetic"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env, capture_output=True)
    advisories, note = osv_audit._from_git(str(repo), "HEAD", {"pyyaml", "grpcio"})
    assert [a["id"] for a in advisories] == ["TAVLA-TEST-0100"]
    assert "commit" in note and "CC-BY 4.0" in note


def test_a_package_never_looked_up_fails_the_audit(tmp_path):
    out = vendored(tmp_path)
    osv_audit.build(str(tmp_path / "db"), LOCKS, str(out))  # every locked package was looked up
    lock = tmp_path / "new.lock"
    lock.write_text(Path(LOCKS[0]).read_text() + "brand-new-package==1.0\n")
    with pytest.raises(SystemExit, match="brand-new-package"):
        osv_audit.build(str(tmp_path / "db"), [str(lock)], str(out))


def _scan(advisories: Path, db: Path, locks: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, SCRIPT, "scan", "--scanner", SCANNER, "--db", str(db),
               "--advisories", str(advisories), *locks]
    # neither the caller's AUDIT_REQUIRED nor its RUN_PARTS_SKIPPED (`make test` running this file)
    environ = {k: v for k, v in os.environ.items() if k not in ("AUDIT_REQUIRED", "RUN_PARTS_SKIPPED")} | env
    return subprocess.run(_offline(command), capture_output=True, text=True, timeout=300, env=environ)


def test_without_advisories_the_scan_says_loudly_the_locks_were_not_audited(tmp_path):
    empty = tmp_path / "advisories"
    empty.mkdir()
    result = _scan(empty, tmp_path / "db", LOCKS)
    assert result.returncode == 0
    assert "LOCKS NOT AUDITED: no vulnerability database reachable here" in result.stderr
    assert "were NOT checked" in result.stderr and "make audit-refresh" in result.stderr
    assert "OSV_ZIP=" in result.stderr
    assert not (tmp_path / "db").exists()  # nothing scanned


def test_without_advisories_make_test_shows_the_audit_skipped_not_passed(tmp_path):
    # under `make test` (deploy/run_parts.py sets RUN_PARTS_SKIPPED) the scan reports itself skipped
    marker = tmp_path / "skipped"
    result = _scan(tmp_path / "missing", tmp_path / "db", LOCKS, RUN_PARTS_SKIPPED=str(marker))
    assert result.returncode == 0
    assert "not audited" in marker.read_text() and "make audit-refresh" in marker.read_text()


def test_without_advisories_audit_required_fails(tmp_path):
    result = _scan(tmp_path / "missing", tmp_path / "db", LOCKS, AUDIT_REQUIRED="1")
    assert result.returncode == 1
    assert "LOCKS NOT AUDITED" in result.stderr and "AUDIT_REQUIRED=1" in result.stderr
    flag = subprocess.run([sys.executable, SCRIPT, "scan", "--scanner", SCANNER, "--db",
                           str(tmp_path / "db"), "--advisories", str(tmp_path / "missing"),
                           "--required", *LOCKS], capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "RUN_PARTS_SKIPPED"})
    assert flag.returncode == 1


needs_scanner = pytest.mark.skipif(not Path(SCANNER).is_file(),
                                   reason="osv-scanner not built (make test-audit builds and runs it)")


def _offline(command: list[str]) -> list[str]:
    # a network namespace of its own: proves the scan needs no network (root only)
    if os.geteuid() == 0 and shutil.which("unshare"):
        return ["unshare", "-n", *command]
    return command


@needs_scanner
def test_the_self_test_reports_exactly_the_synthetic_advisory(tmp_path):
    assert osv_audit.selftest(SCANNER, str(tmp_path), [CANARY], FIXTURE) == {"TAVLA-TEST-0001"}
    status, ids = osv_audit.run_scanner(SCANNER, str(tmp_path), [FIXTURE])
    table = osv_audit.scanner_table(SCANNER, str(tmp_path), [FIXTURE])
    assert (status, ids) == (1, {"TAVLA-TEST-0001"})
    assert "tavla-audit-canary " in table and "2.0" in table  # the fixed version
    assert "tavla-audit-canary-ok" not in table
    fixed = tmp_path / "fixed.lock"
    fixed.write_text("# expect: TAVLA-TEST-0001\ntavla-audit-canary==2.0\n")
    with pytest.raises(SystemExit, match="self-test failed"):  # 2.0 is fixed: nothing reported
        osv_audit.selftest(SCANNER, str(tmp_path), [CANARY], str(fixed))


@needs_scanner
def test_the_scan_fails_on_an_affected_locked_version_and_passes_otherwise(tmp_path):
    bad = vendored(tmp_path / "bad", advisory("TAVLA-TEST-9001", "grpcio", fixed="999"),
                   advisory("TAVLA-TEST-9002", "protobuf", fixed="1.0"))
    result = _scan(bad, tmp_path / "db", LOCKS)
    assert result.returncode == 1
    assert "known vulnerabilities" in result.stderr and "TAVLA-TEST-9001" in result.stderr
    assert "TAVLA-TEST-9002" not in result.stderr  # protobuf 1.0 is long fixed
    good = vendored(tmp_path / "good", advisory("TAVLA-TEST-9002", "protobuf", fixed="1.0"))
    result = _scan(good, tmp_path / "db", LOCKS, AUDIT_REQUIRED="1")
    assert result.returncode == 0, result.stderr
    assert "no known vulnerability" in result.stdout and "synthetic zip of the test" in result.stdout
