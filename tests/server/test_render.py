"""Board pictures: the SVG and text boards (tavla.render), the RenderPosition RPC and
``tavla-engine show``. The SVG must parse as XML and carry the counts, pips, cube and dice."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from statuses import field_violations, rich_status
from tavla.core import Cube, MatchState, Position, Side, SideView
from tavla.core.ids import xgid
from tavla.render import BoardPicture, svg, text
import rpc_api as api
from tavla.v1 import match_pb2, render_pb2
from tavla.v1 import types_pb2 as pb

TIMEOUT = 10
NS = {"s": "http://www.w3.org/2000/svg"}
# white on roll, 7-point match; each side has a checker on the bar, stacks of 7
MIDGAME = "XGID=aCGB-------a-------AA-dbgA:1:-1:-1:64:1:5:0:7:10"


def _view(points: dict[int, int], bar: int = 0) -> SideView:
    pts = [0] * 24
    for p, n in points.items():
        pts[p - 1] = n
    return SideView(tuple(pts), bar, 15 - sum(pts) - bar)


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{NS['s']}}}g") if g.get("class") == cls]


def _points(root: ET.Element) -> dict[int, tuple[str, int]]:
    return {int(g.get("data-point")): (g.get("data-side"), int(g.get("data-count"))) for g in _groups(root, "point")}


def _pips(root: ET.Element) -> dict[str, int]:
    return {t.get("data-side"): int(t.text) for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == "pips"}


def test_start_position_svg():
    root = ET.fromstring(svg.render(BoardPicture(Position.initial())))
    assert root.get("width") == "720" and root.get("height") == "450"
    points = _points(root)
    assert len(points) == 24
    # numbered from white's (on roll) view: 2 on 24, 5 on 13, 3 on 8, 5 on 6; black on 1, 12, 17, 19
    assert {p: v for p, v in points.items() if v[0] == "white"} == {
        24: ("white", 2), 13: ("white", 5), 8: ("white", 3), 6: ("white", 5)}
    assert {p: v for p, v in points.items() if v[0] == "black"} == {
        1: ("black", 2), 12: ("black", 5), 17: ("black", 3), 19: ("black", 5)}
    assert _pips(root) == {"white": 167, "black": 167}
    cube = _groups(root, "cube")[0]
    assert (cube.get("data-value"), cube.get("data-owner")) == ("1", "centre")
    assert not _groups(root, "dice")
    assert [int(g.get("data-count")) for g in _groups(root, "off")] == [0, 0]


def test_midgame_with_bar_stacks_cube_dice_and_score():
    x = xgid.decode(MIDGAME)
    match = MatchState(length=7, scores=(5, 1), cube=Cube(2, Side.WHITE))
    doc = svg.render(BoardPicture(x.position, match, x.dice), width=400, title="a & b")
    root = ET.fromstring(doc)
    assert root.get("width") == "400" and root.get("height") == "250"
    assert root.find("s:title", NS).text == "a & b"
    points = _points(root)
    assert points[23] == ("black", 7) and points[1] == ("white", 7)  # stacks past 5
    assert {g.get("data-side"): int(g.get("data-count")) for g in _groups(root, "bar")} == {"white": 1, "black": 1}
    assert _pips(root) == {"white": 62, "black": 87}
    cube = _groups(root, "cube")[0]
    assert (cube.get("data-value"), cube.get("data-owner")) == ("2", "white")
    assert _groups(root, "dice")[0].get("data-dice") == "64"
    scores = {t.get("data-side"): t.text for t in root.iter(f"{{{NS['s']}}}text") if t.get("class") == "score"}
    assert scores == {"white": "5/7", "black": "1/7"}
    labels = [t.text for t in root.iter(f"{{{NS['s']}}}text")]
    assert "7" in labels  # the stack count is written on the fifth checker


def test_offered_double_and_borne_off():
    pos = Position.from_sides(Side.BLACK, _view({1: 2, 2: 3}), _view({1: 4, 3: 2}))
    match = MatchState(length=9, scores=(2, 4), cube=Cube(2, Side.BLACK, Side.BLACK))
    root = ET.fromstring(svg.render(BoardPicture(pos, match)))
    offered = _groups(root, "offered")[0]
    assert (offered.get("data-value"), offered.get("data-by")) == ("4", "black")
    assert {g.get("data-side"): int(g.get("data-count")) for g in _groups(root, "off")} == {"white": 10, "black": 9}
    assert _pips(root) == {"white": 8, "black": 10}
    # black on roll: numbers from black's view, black's 4 checkers on its point 1
    assert _points(root)[1] == ("black", 4)


def test_bottom_and_home_left_options_move_points_not_numbers():
    pos = Position.initial(Side.WHITE)
    default = BoardPicture(pos)
    flipped = BoardPicture(pos, bottom=Side.BLACK, home_left=True)
    assert {s.label: (s.side, s.count) for s in default.slots()} == {s.label: (s.side, s.count) for s in flipped.slots()}
    # white's 1 point is bottom-right by default; with black at the bottom, home left, it is top-left
    assert [(s.column, s.top) for s in default.slots() if s.label == 1] == [(11, False)]
    assert [(s.column, s.top) for s in flipped.slots() if s.label == 1] == [(0, True)]


def test_text_board():
    x = xgid.decode(MIDGAME)
    board = text.render(BoardPicture(x.position, MatchState(length=7, scores=(5, 1)), x.dice))
    lines = board.splitlines()
    assert len(lines) == 13
    assert lines[0].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    assert lines[-1].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert "X: black  pips  87" in lines[0] and "score 1/7" in lines[0]
    assert "O: white  pips  62" in lines[-1] and "on roll" in lines[-1]
    assert "rolled 64" in lines[6] and "BAR" in lines[6]
    assert lines[5][21:24] == " O " and lines[7][21:24] == " X "  # bar checkers next to the middle
    assert " 7 " in lines[5] and " 7 " in lines[7]  # stacks of seven show their count


# ---------------------------------------------------------------------------------------------
# RenderPosition over gRPC


def test_render_position_rpc(engine):
    request = api.RenderPositionRequest(
        position=pb.Position(xgid=MIDGAME), match=match_pb2.MatchState(xgid=MIDGAME), dice=[6, 4],
        options=render_pb2.RenderOptions(width=360, bottom=pb.SIDE_BLACK))
    response = engine.RenderPosition(request, timeout=TIMEOUT)
    root = ET.fromstring(response.svg)
    assert root.get("width") == "360"
    assert _pips(root) == {"white": 62, "black": 87}
    assert _points(root)[1] == ("white", 7)  # white on roll: its numbering
    assert _groups(root, "cube")[0].get("data-owner") == "white"
    assert response.position.ids.xgid == "XGID=aCGB-------a-------AA-dbgA:0:0:-1:00:0:0:0:0:10"
    assert response.position.board.black.pip_count == 87
    assert response.text.splitlines()[0].endswith("on roll")  # white at the top now
    assert "score 5/7" in response.text


def test_render_position_defaults(engine):
    response = engine.RenderPosition(api.RenderPositionRequest(position=pb.Position(position_id="4HPwATDgc/ABMA")),
                                     timeout=TIMEOUT)
    root = ET.fromstring(response.svg)
    assert root.get("width") == "720" and _pips(root) == {"white": 167, "black": 167}
    assert response.position.ids.gnubg_id == "4HPwATDgc/ABMA:MAEAAAAAAAAE"


@pytest.mark.parametrize("request_, field", [
    (api.RenderPositionRequest(), "position"),
    (api.RenderPositionRequest(position=pb.Position(xgid="XGID=x")), "position.xgid"),
    (api.RenderPositionRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"), dice=[7, 1]), "dice"),
    (api.RenderPositionRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                               options=render_pb2.RenderOptions(width=50)), "options.width"),
    (api.RenderPositionRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                               options=render_pb2.RenderOptions(bottom=7)), "options.bottom"),
    (api.RenderPositionRequest(position=pb.Position(position_id="4HPwATDgc/ABMA"),
                               match=match_pb2.MatchState(cube=match_pb2.CubeState(value=3))), "match.cube.value"),
])
def test_render_position_bad_input(engine, request_, field):
    assert [f for f, _ in field_violations(rich_status(engine, "RenderPosition", request_))] == [field]


# ---------------------------------------------------------------------------------------------
# tavla-engine show


def _show(args, env):
    return subprocess.run([sys.executable, "-m", "tavla", "show", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_show_prints_the_board_and_every_id(subprocess_env, tmp_path):
    out = _show([MIDGAME, "--svg", str(tmp_path / "b.svg")], subprocess_env)
    assert out.returncode == 0, out.stderr
    assert "O: white  pips  62" in out.stdout
    assert "GNUBG ID:    9zcAQEF/ewAEQA:" in out.stdout
    assert f"XGID:        {MIDGAME}" in out.stdout  # the XGID round-trips
    assert ET.fromstring((tmp_path / "b.svg").read_text()).get("width") == "720"
    by_gnubg = _show(["9zcAQEF/ewAEQA:AQHzAFAACAAE"], subprocess_env)
    assert by_gnubg.returncode == 0 and f"XGID:        {MIDGAME}" in by_gnubg.stdout
    by_pid = _show(["4HPwATDgc/ABMA", "--on-roll", "black"], subprocess_env)
    assert "(black on roll)" in by_pid.stdout and "X: black  pips 167  off  0  on roll" in by_pid.stdout


def test_show_refuses_a_bad_id(subprocess_env):
    out = _show(["nonsense"], subprocess_env)
    assert out.returncode == 2 and "not a Position ID, GNUBG ID or XGID" in out.stderr


def _checker_totals(root: ET.Element) -> dict[str, int]:
    totals = {"white": 0, "black": 0}
    for cls in ("point", "bar", "off"):
        for g in _groups(root, cls):
            if g.get("data-side") in totals:
                totals[g.get("data-side")] += int(g.get("data-count"))
    return totals


def test_every_checker_is_drawn_on_random_and_extreme_positions():
    import random

    from tavla.core import legal_moves

    rng = random.Random(7)
    pictures = [
        BoardPicture(Position.from_sides(Side.WHITE, _view({}, bar=15), _view({}))),  # 15 on the bar, 15 off
        BoardPicture(Position.from_sides(Side.BLACK, _view({6: 15}), _view({24: 15})), dice=(6, 6)),
    ]
    pos = Position.initial()
    for _ in range(300):
        pos = rng.choice(legal_moves(pos, (rng.randint(1, 6), rng.randint(1, 6)))).result
        if pos.winner is not None:
            pos = Position.initial(rng.choice([Side.WHITE, Side.BLACK]))
        if rng.random() < 0.2:
            pictures.append(BoardPicture(pos, bottom=rng.choice([None, Side.WHITE, Side.BLACK]),
                                         home_left=rng.random() < 0.5))
    for picture in pictures:
        root = ET.fromstring(svg.render(picture))
        assert _checker_totals(root) == {"white": 15, "black": 15}
        assert len(text.render(picture).splitlines()) == 13
