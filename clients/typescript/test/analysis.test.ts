// The AnalysisService helpers against the live server (bgsage's net, in .venv-test), at the cheap
// 1-ply levels: the start's 3-1 ranked, its prospects and cube, a 3-game .mat reviewed, and the
// computer's first two actions of a refereed match, each sent to act.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";

import {
  ActionKind,
  AnalysisLevel,
  createEngineClient,
  CubeAdvice,
  Evaluator,
  Side,
  START_POSITION_ID,
  type EngineClient,
} from "../src/index.js";
import { repoRoot, startLiveServer, type LiveServer } from "./live-server.js";

let server: LiveServer;
let client: EngineClient;

before(async () => {
  server = await startLiveServer();
  client = createEngineClient(server.target);
});

after(async () => {
  await server.stop();
});

test("suggestMove ranks the start's 3-1, evaluatePosition and suggestCubeAction judge the start", async () => {
  const ranked = await client.suggestMove(START_POSITION_ID, [3, 1], { level: "intermediate", maxMoves: 3 });
  assert.equal(ranked.moves.length, 3);
  assert.deepEqual([ranked.info?.level, ranked.info?.evaluator, ranked.info?.ply], [AnalysisLevel.INTERMEDIATE, Evaluator.NEURAL_NET, 1]);
  const best = ranked.moves.find((m) => m.equityLoss === 0);
  assert.equal(best?.move?.notation, "8/5 6/5"); // the point-making play
  for (const m of ranked.moves) {
    assert.ok(Math.abs(best!.equity - m.equity - m.equityLoss) < 1e-9, `${m.move?.notation}: ${m.equity}, loss ${m.equityLoss}`);
  }
  const evaluated = await client.evaluatePosition(START_POSITION_ID, { level: "intermediate" });
  const win = evaluated.probabilities!.win;
  assert.ok(win > 0.5 && win < 0.56, `win ${win}`);
  assert.ok(evaluated.probabilities!.winGammon < win);
  const cube = await client.suggestCubeAction(START_POSITION_ID, { level: AnalysisLevel.INTERMEDIATE });
  assert.deepEqual([cube.advice, cube.doubleAvailable, cube.shouldDouble], [CubeAdvice.NO_DOUBLE, true, false]);
});

test("analyzeMatch reviews a 3-game .mat record", async () => {
  const mat = readFileSync(join(repoRoot, "tests", "data", "matches", "match0000.mat"), "utf8");
  const review = await client.analyzeMatch(mat, { level: "beginner" });
  assert.equal(review.games, 3);
  assert.deepEqual(review.players.map((p) => p.side), [Side.WHITE, Side.BLACK]);
  assert.ok(review.players.every((p) => p.moves > 0 && p.performanceRating > 0));
  assert.ok(review.decisions.length > 0);
});

test("suggestAction: the computer starts the game, then steps white's 5-1, and act takes both", async () => {
  const opened = await client.newMatch(1);
  const first = await client.suggestAction(opened.state!, "beginner");
  assert.equal(first.action?.kind, ActionKind.START_GAME);
  const started = await client.act(opened.state!, first.action!, { testDice: [5, 1] });
  const step = await client.suggestAction(started.state!, "beginner");
  assert.deepEqual([step.action?.kind, step.action?.side], [ActionKind.STEP, Side.WHITE]);
  const stepped = await client.act(started.state!, step.action!);
  assert.equal(stepped.view!.sequence, started.view!.sequence + 1n);
});
