"""``tavla-engine analyze``: a real match reviewed end to end in process, and through a live
server's AnalyzeMatch; the progress bar only when asked (stderr is not a terminal here)."""

from __future__ import annotations

import re

import pytest

from tavla.cli import main

pytest.importorskip("bgsage")
MAT = "tests/data/matches/match0000.mat"


def _rates(out: str) -> list[tuple[str, float, float]]:
    return [(m[1], float(m[2]), float(m[3])) for m in
            re.finditer(r"^  (\w+) \(\w+\): error rate ([\d.]+) mEMG per decision, PR ([\d.]+)", out, re.M)]


def test_analyze_prints_each_sides_error_rate_and_pr(capsys):
    assert main(["analyze", MAT, "--worst", "2"]) == 0
    out, err = capsys.readouterr()
    assert "3 games, level advanced (1-ply)" in out
    rates = _rates(out)
    assert [r[0] for r in rates] == ["PlayerA", "PlayerB"]
    for _, er, pr in rates:
        assert er > 0 and pr == pytest.approx(er / 2, abs=0.06)  # both printed rounded
    assert len(re.findall(r"^    game \d+ move \d+ ", out, re.M)) == 2
    assert err == ""  # no terminal, no --progress: no bar


def test_the_progress_bar_on_request_and_the_same_figures_through_a_server(capsys, server_address):
    assert main(["analyze", MAT, "--progress", "--worst", "0"]) == 0
    local, err = capsys.readouterr()
    assert "3/3 games" in err
    assert main(["analyze", MAT, "--target", server_address, "--worst", "0"]) == 0
    remote, _ = capsys.readouterr()
    assert _rates(remote) == _rates(local)


def test_a_record_that_is_not_a_mat_is_refused_with_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.mat"
    bad.write_text("7 point match\n Game 1\n what is this\n")
    assert main(["analyze", str(bad)]) == 1
    assert "bad.mat" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing.mat")]) == 2


def test_an_sgf_record_gives_the_same_figures(tmp_path, capsys):
    from tavla.formats.matreader import read_match
    from tavla.formats.sgfwriter import write_sgf

    (tmp_path / "match0000.sgf").write_text(write_sgf(read_match(MAT)))
    assert main(["analyze", str(tmp_path), "--worst", "0"]) == 0  # a directory: its .sgf
    from_sgf, _ = capsys.readouterr()
    assert main(["analyze", MAT, "--worst", "0"]) == 0
    from_mat, _ = capsys.readouterr()
    assert _rates(from_sgf) == _rates(from_mat) and len(_rates(from_sgf)) == 2
