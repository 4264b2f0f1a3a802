import sys

from tavla.client import Client

target = sys.argv[1] if len(sys.argv) > 1 else "localhost:50051"
with Client(target) as engine:
    start = engine.get_initial_position()              # white on roll
    moves = engine.list_legal_moves(start, (5, 1))     # every legal play of 5-1
    print(len(moves), "legal moves; playing", moves[0].notation)
    after = engine.apply_move(start, (5, 1), moves[0])
    print(after.move.result.ids.position_id)           # black on roll now
