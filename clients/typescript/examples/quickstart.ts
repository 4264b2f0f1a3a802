// Quickstart: the starting position, the legal moves of 5-1, the first one played.
// With a server on localhost:50051 (`make serve`): npm run example [-- target]
import { createEngineClient } from "@tavla-engine/client";

const engine = createEngineClient(process.argv[2] ?? "localhost:50051");
const start = await engine.getInitialPosition(); // white on roll
const moves = await engine.listLegalMoves(start, [5, 1]); // every legal play of 5-1
console.log(moves.length, "legal moves; playing", moves[0].notation);
const after = await engine.applyMove(start, [5, 1], moves[0]);
console.log(after.move?.result?.ids?.positionId); // black on roll now
