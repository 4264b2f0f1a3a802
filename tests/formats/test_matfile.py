"""Tests for the Jellyfish .mat parser, against the 79 real records in tests/data/matches."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from tavla.formats.matreader import (
    Double,
    Drop,
    Loss,
    MatParseError,
    Roll,
    Take,
    Win,
    parse_match,
    read_match,
)

DATA = Path(__file__).parent.parent / "data" / "matches"
FILES = sorted(DATA.glob("*.mat"))


def _match(name: str):
    return read_match(DATA / name)


def _wins(game) -> list[Win]:
    return [a for a in game.actions if isinstance(a, Win)]


def test_all_records_present():
    assert len(FILES) == 79


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_record_parses(path):
    match = read_match(path)
    assert match.source == str(path)
    assert match.length in (5, 7, 9, 11, 13)
    assert match.players == ("PlayerA", "PlayerB")
    assert [g.number for g in match.games] == list(range(1, len(match.games) + 1))
    for game in match.games:
        assert {a.player for a in game.actions} <= {1, 2}
        assert len(_wins(game)) == 1  # every game ends with one recorded winner
        # Column assignment is right if turns alternate and the other side answers the cube.
        rollers = [a.player for a in game.actions if isinstance(a, Roll)]
        assert all(p != q for p, q in zip(rollers, rollers[1:]))
        for offer, answer in zip(game.actions, game.actions[1:]):
            if isinstance(offer, Double):
                assert isinstance(answer, (Take, Drop)) and answer.player != offer.player


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_wins_add_up_to_next_recorded_score(path):
    games = read_match(path).games
    assert games[0].score == (0, 0)
    for game, nxt in zip(games, games[1:]):
        score = list(game.score)
        for win in _wins(game):
            score[win.player - 1] += win.points
        assert tuple(score) == nxt.score, f"game {game.number} -> {nxt.number}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_last_game_reaches_match_length(path):
    match = read_match(path)
    last = match.games[-1]
    (win,) = _wins(last)
    assert last.score[win.player - 1] + win.points >= match.length


def test_match0000_header_and_games():
    match = _match("match0000.mat")
    assert match.length == 7
    assert match.headers["Match ID"] == "3188437"
    assert match.headers["Crawford"] == "On"
    assert match.headers["ClockType"] == "Speed 168/6"
    assert [g.score for g in match.games] == [(0, 0), (4, 0), (4, 2)]
    with pytest.raises(TypeError):
        match.headers["Crawford"] = "Off"  # type: ignore[index]


def test_match0000_game1():
    game = _match("match0000.mat").games[0]
    assert (game.number, game.line, game.score) == (1, 18, (0, 0))
    assert len(game.actions) == 46
    assert game.actions[:4] == (
        Roll(1, 20, (5, 1), "24/23 13/8"),
        Roll(2, 20, (4, 2), "8/4 6/4"),
        Roll(1, 21, (6, 5), "24/18 23/18"),
        Roll(2, 21, (2, 2), "24/22(2) 13/11(2)"),
    )
    # 9) 41: 9/5 7/6  Doubles => 2 / 10) Takes  64: 10/6 10/4
    assert game.actions[16:20] == (
        Roll(1, 28, (4, 1), "9/5 7/6"),
        Double(2, 28, 2),
        Take(1, 29),
        Roll(2, 29, (6, 4), "10/6 10/4"),
    )
    # 15) Doubles => 4  Takes
    assert game.actions[28:30] == (Double(1, 34, 4), Take(2, 34))
    assert game.actions[-2:] == (Roll(1, 42, (5, 4), "1/off(2)"), Win(1, 43, 4, False))


def test_match0000_game2():
    game = _match("match0000.mat").games[1]
    assert (game.number, game.line, game.score) == (2, 45, (4, 0))
    assert len(game.actions) == 45
    assert game.actions[3] == Roll(2, 48, (4, 4), "24/16* 8/4*(2)")
    assert game.actions[4:8] == (
        Roll(1, 49, (6, 1), "bar/24"),
        Double(2, 49, 2),
        Take(1, 50),
        Roll(2, 50, (6, 1), "16/9"),
    )
    assert game.actions[8] == Roll(1, 51, (5, 5), "bar/20 13/8 6/1*(2)")
    # 23) (empty left side)  Wins 2 point
    assert game.actions[-2:] == (Roll(2, 68, (4, 1), "1/off(2)"), Win(2, 69, 2, False))


def test_player2_opens_with_empty_left_side():
    game = _match("match0000.mat").games[2]
    assert game.actions[0] == Roll(2, 74, (5, 3), "8/3 6/3")


def test_cannot_move_is_empty_play():
    game = _match("match0000.mat").games[2]
    assert Roll(1, 84, (6, 3), "") in game.actions


def test_galaxy_plays_keep_25_and_0():
    games = _match("match0069.mat").games
    assert games[0].actions[3] == Roll(2, 17, (6, 3), "25/22")
    assert Roll(2, 64, (2, 2), "8/6 8/6 2/0 2/0") in games[1].actions
    assert Roll(1, 29, (6, 4), "") in games[0].actions  # "64:" with no play


def test_far_right_wins_and_left_losses_on_one_line():
    # 28)  Losses 1 point      ...far right...      Wins 1 point and the match
    last = _match("match0069.mat").games[-1]
    assert last.score == (6, 6)
    assert last.actions[-3:] == (
        Roll(2, 253, (4, 4), "5/1 5/1 4/0 4/0"),
        Loss(1, 254, 1),
        Win(2, 254, 1, True),
    )


def test_losses_in_right_column_then_unnumbered_wins():
    # 15) 21: 5/4 4/2   Losses 1 point / blank / "      Wins 1 point and the match"
    last = _match("match0073.mat").games[-1]
    assert last.score == (4, 3)
    assert last.actions[-3:] == (
        Roll(1, 131, (2, 1), "5/4 4/2"),
        Loss(2, 131, 1),
        Win(1, 133, 1, True),
    )


def test_unnumbered_wins_lines_use_the_column():
    games = _match("match0069.mat").games
    assert games[1].actions[-1] == Win(2, 71, 2, False)  # column 34: right
    assert games[2].actions[-2:] == (Drop(2, 94), Win(1, 95, 1, False))  # column 6: left
    assert _match("match0066.mat").games[-1].actions[-1] == Win(1, 69, 8, True)


def test_right_column_left_of_the_score_line_name():
    # Anonymised names moved "PlayerB" to column 43 while the moves stay at column 40.
    game = _match("match0010.mat").games[0]
    assert game.actions[:2] == (Roll(1, 20, (4, 2), "8/4 6/4"), Roll(2, 20, (5, 1), "24/23 13/8"))


def test_unplayed_roll_before_resignation_is_kept():
    game = _match("match0006.mat").games[-1]
    assert game.actions[-2:] == (Roll(1, 367, (6, 3), "????"), Win(2, 367, 2, False))


def test_forfeit_points_kept_as_recorded():
    # The site wrote "Wins 4016 point" for the final game (3-11 in a 13-point match).
    last = _match("match0045.mat").games[-1]
    assert last.score == (3, 11)
    assert last.actions[-1] == Win(2, 220, 4016, False)


SAMPLE = """\
; [Player 1 "Ann"]
; [Player 2 "Bob"]

3 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                42: 8/4 6/4
  2)  Doubles => 2               Takes
  3) 66: 24/18(2) 13/7*(2)      21: 25/23 2/0
  4)  Wins 2 points and the match
"""


def _replace_line(lineno: int, text: str) -> str:
    lines = SAMPLE.splitlines()
    lines[lineno - 1] = text
    return "\n".join(lines) + "\n"


def test_sample_parses():
    match = parse_match(SAMPLE)
    assert match.source == "<string>"
    assert (match.length, match.players) == (3, ("Ann", "Bob"))
    (game,) = match.games
    assert game.actions == (
        Roll(1, 8, (3, 1), "8/5 6/5"),
        Roll(2, 8, (4, 2), "8/4 6/4"),
        Double(1, 9, 2),
        Take(2, 9),
        Roll(1, 10, (6, 6), "24/18(2) 13/7*(2)"),
        Roll(2, 10, (2, 1), "25/23 2/0"),
        Win(1, 11, 2, True),
    )
    assert hash(match) == hash(parse_match(SAMPLE))


def test_money_play_and_names_from_score_line():
    text = SAMPLE.replace('; [Player 1 "Ann"]\n; [Player 2 "Bob"]\n', "")
    assert parse_match(text.replace("3 point match", "")).length == 0
    match = parse_match(text.replace("3 point match", "0 point match"))
    assert (match.length, match.players, dict(match.headers)) == (0, ("Ann", "Bob"), {})


@pytest.mark.parametrize(
    ("lineno", "text", "reason"),
    [
        (10, "  3) hello world", "unexpected text"),
        (10, "hello world", "unexpected text"),
        (8, "  1) 72: 8/1                    42: 8/4 6/4", "bad dice '72'"),
        (8, "  1) 31: 8/5 6/5 42: 8/4 6/4", "two actions in one column"),
        (8, "  1) 31: 8/5 six/5             42: 8/4 6/4", "bad play '8/5 six/5'"),
        (9, "  2)  Doubles => two            Takes", "unknown action 'Doubles => two'"),
        (11, "     21: 8/6 8/7", "unnumbered line that is not a result"),
        (11, '; [Late "header"]', "unexpected text"),
        (3, "garbage before the games", "unexpected line before the first game"),
        (7, "  1) 31: 8/5 6/5", "expected the score line"),
    ],
)
def test_malformed_line_is_reported(lineno, text, reason):
    with pytest.raises(MatParseError) as info:
        parse_match(_replace_line(lineno, text), "bad.mat")
    err = info.value
    assert (err.source, err.line, err.text, err.reason) == ("bad.mat", lineno, text, reason)
    assert str(err) == f"bad.mat:{lineno}: {reason}: {text}"


@pytest.mark.parametrize("text", ["", "\n  \n"])
def test_empty_text(text):
    with pytest.raises(MatParseError) as info:
        parse_match(text, "empty.mat")
    assert (info.value.source, info.value.line) == ("empty.mat", 1)
    assert isinstance(info.value, ValueError)


def test_record_without_games():
    with pytest.raises(MatParseError) as info:
        parse_match('; [Player 1 "Ann"]\n\n7 point match\n')
    assert info.value.line == 3


def test_error_survives_pickling():
    err = MatParseError("x.mat", 4, "unexpected text", "junk")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.source, copy.line, copy.reason, copy.text, str(copy)) == (
        "x.mat", 4, "unexpected text", "junk", str(err))


def test_read_match_falls_back_to_latin1(tmp_path):
    path = tmp_path / "latin1.mat"
    path.write_bytes(SAMPLE.replace("Ann", "Ren\xe9").encode("latin-1"))
    assert read_match(path).players == ("Ren\xe9", "Bob")


def test_what_gnubgs_importer_also_reads():
    # import.c: keywords in any case and singular, "???" plays, a byte order mark, free comment
    # lines before the first game (gnubg keeps them as the match comment; we note them)
    text = ("\ufeff; exported by some program\n# another comment\n" + SAMPLE)
    text = text.replace("Doubles => 2               Takes", "double => 2                take")
    text = text.replace("21: 25/23 2/0", "21: ???")
    match = parse_match(text)
    game = match.games[0]
    assert game.actions[2:4] == (Double(1, 11, 2), Take(2, 11))
    assert game.actions[5] == Roll(2, 12, (2, 1), "????")
    assert match.players == ("Ann", "Bob")
    assert match.notes == ("2 comment line(s) before the first game not kept",)
