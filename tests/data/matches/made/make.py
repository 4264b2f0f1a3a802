"""Builds the three Jellyfish records of made/ from quirks/match1267.mat's one game
(a gammon, cube never turned); run from the repository root: python tests/data/matches/made/make.py."""
import re
from pathlib import Path
src = Path("tests/data/matches/quirks/match1267.mat").read_text().splitlines()
start = next(i for i, l in enumerate(src) if l.strip() == "Game 1")
lines = [l for l in src[start + 2:] if re.match(r"\s*\d+\)", l)]
# half-moves in order: (player, text)
half = []
for l in lines:
    m = re.match(r"\s*\d+\)(.{0,29})(.*)$", l)
    left, right = m.group(1).strip(), m.group(2).strip()
    if left:
        half.append((1, left))
    if right:
        half.append((2, right))
assert half[0][0] == 2

def layout(moves, winner, points, match_won):
    out, n, i = [], 1, 0
    if moves[0][0] == 2:
        out.append(f"{n:3d}) {'':28s}{moves[0][1]}")
        i, n = 1, 2
    while i < len(moves):
        left = moves[i][1] if moves[i][0] == 1 else ""
        j = i + 1 if moves[i][0] == 1 else i
        right = moves[j][1] if j < len(moves) and moves[j][0] == 2 else ""
        out.append(f"{n:3d}) {left:28s}{right}".rstrip())
        i, n = (j + 1 if right else j), n + 1
    won = f"Wins {points} point{'s' if points > 1 else ''}{' and the match' if match_won else ''}"
    out.append(f"{'':34s}{won}" if winner == 2 else f"{'':6s}{won}")
    return out

mirror = [(3 - p, t) for p, t in half]

def game(number, score, moves, winner, points, match_won):
    return ["", f" Game {number}", f" PlayerA : {score[0]:<18d} PlayerB : {score[1]}",
            *layout(moves, winner, points, match_won)]

def write(name, length, games):
    head = [l for l in src[:start] if l.startswith(";")]
    text = "\n".join([*head, "", f" {length} point match", *sum(games, []), "", ""])
    Path(f"tests/data/matches/made/{name}").write_text(text)

Path("tests/data/matches/made").mkdir(exist_ok=True)
write("jf_1point_gammon.mat", 1, [game(1, (0, 0), half, 2, 1, True)])
write("jf_3point_crawford_gammon.mat", 3, [game(1, (0, 0), half, 2, 2, False),
                                           game(2, (0, 2), half, 2, 1, True)])
write("jf_3point_post_crawford_gammon.mat", 3, [game(1, (0, 0), half, 2, 2, False),
                                                game(2, (0, 2), mirror, 1, 2, False),
                                                game(3, (2, 2), half, 2, 1, True)])
