"""`tavla-engine replay` in process (--local): directories, --shard K/N (the chart's indexed
validate Job runs one shard per pod), --no-fail, --rules, and the notes of the quirk files
(tests/data/matches, provenance in its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavla.cli import main
from tavla.replay.cli import expand

DATA = Path(__file__).parent.parent / "data" / "matches"


def test_a_directory_stands_for_its_records():
    files = expand([str(DATA)])
    assert len(files) == 79 + 4 + 3 and files == sorted(files)  # real, quirks, made
    assert all(f.endswith(".mat") for f in files)


def test_shards_split_the_files_without_overlap():
    every = expand([str(DATA)])
    shards = [expand([str(DATA)], (k, 4)) for k in range(4)]
    assert sorted(f for s in shards for f in s) == every
    assert [len(s) for s in shards] == [22, 22, 21, 21]


def test_bad_shard_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--local", "--shard", "4/4", str(DATA)])
    assert "K/N needs 0 <= K < N" in capsys.readouterr().err


def test_one_shard_locally(capsys):
    # sorted: match0000.mat, quirks/match0121, 0444, 0551, 1267
    assert main(["replay", "--local", "--quiet", "--shard", "3/40", str(DATA / "quirks"), str(DATA / "match0000.mat")]) == 0
    assert "replayed 1 file(s), 97 plays: 1 agree" in capsys.readouterr().out  # match0551
    assert main(["replay", "--local", "--quiet", "--shard", "7/40", str(DATA / "quirks")]) == 0
    assert "replayed 0 file(s), 0 plays" in capsys.readouterr().out
    assert main(["replay", "--local", "--shard", "1/5", str(DATA / "quirks"), str(DATA / "match0000.mat")]) == 0
    out = capsys.readouterr().out
    assert out.count(": OK") == 1 and "quirks/match0121.mat" in out
    assert "  note: unfinished: the record ends after game 1 at 2-0; the match is to 8 points" in out


def test_rules_and_no_fail(capsys):
    jacoby = str(DATA / "quirks" / "match1267.mat")
    assert main(["replay", "--local", "--rules", "match", jacoby]) == 1
    assert "player 2 wins 1, the engine scores player 2 2 x cube 1 = 2" in capsys.readouterr().out
    assert main(["replay", "--local", "--rules", "match", "--no-fail", jacoby]) == 0
    assert main(["replay", "--local", "--rules", "money-jacoby", jacoby]) == 0
    assert "rules assumed: money session, Jacoby on" in capsys.readouterr().out


def test_unreadable_file(tmp_path, capsys):
    bad = tmp_path / "garbled.mat"
    bad.write_text(" 7 point match\n Game 1\n PlayerA : 0   PlayerB : 0\n  1) 72: 24/23\n", encoding="utf-8")
    assert main(["replay", "--local", str(bad)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}: cannot read: {bad}:4: bad dice '72'" in captured.err
    assert "0 disagree, 1 unreadable" in captured.out


def test_convert_mat_to_sgf_and_back(tmp_path, capsys):
    from tavla.formats import content
    from tavla.formats.sgfreader import read_sgf
    from tavla.formats.matreader import read_match

    source = DATA / "match0069.mat"
    sgf, mat = tmp_path / "m.sgf", tmp_path / "m.mat"
    assert main(["convert", str(source), str(sgf)]) == 0
    assert main(["convert", str(sgf), str(mat)]) == 0
    assert content(read_match(mat)) == content(read_sgf(sgf))
    assert main(["convert", str(sgf), str(mat), "--dialect", "jellyfish"]) == 0
    assert "bar/" in mat.read_text() and "/off" in mat.read_text() and "25/" not in mat.read_text()
    assert main(["convert", str(source), "-", "--dialect", "galaxy"]) == 0
    assert capsys.readouterr().out.startswith('; [Site "BackgammonGalaxy"]')
    assert main(["convert", str(tmp_path / "missing.mat"), str(mat)]) == 2
    assert "cannot convert" in capsys.readouterr().err


def test_unwritable_outputs_are_a_message_and_exit_2(tmp_path, capsys):
    """show --svg and convert to a path that cannot be written: one line on stderr, no traceback."""
    missing = tmp_path / "no-such-dir"
    assert main(["show", "--svg", str(missing / "board.svg"), "4HPwATDgc/ABMA"]) == 2
    assert main(["convert", str(DATA / "match0000.mat"), str(missing / "out.sgf")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err and err.count("\n") == 2


def test_help_texts_are_whole_sentences(capsys):
    for command in ("replay", "convert"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "``" not in text
        assert ("against a running service" in text) if command == "replay" else ("(.mat or .sgf, by file" in text)


def test_a_record_file_larger_than_the_request_limit_replays_through_the_server(server_address, tmp_path):
    """ValidateMatch messages stay under --max-request-bytes (64 KiB): a 100+ KiB file of ten
    records goes through in pieces (a trial found 64 KiB chunks refused)."""
    joined = tmp_path / "ten.mat"
    joined.write_bytes(b"\n".join((DATA / f"match000{i}.mat").read_bytes() for i in range(10)))
    assert joined.stat().st_size > 100_000
    assert main(["replay", "--target", server_address, "--quiet", str(joined)]) == 0
