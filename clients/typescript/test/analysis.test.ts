// The AnalysisService helpers against the live server, at the cheap 1-ply levels: the start's 3-1
// ranked among its legal moves, its prospects and cube, a 3-game .mat reviewed, the computer's
// first two actions of a refereed match, each sent to act, and bad input refused; these hold
// whichever evaluator the server has. What only bgsage's net judges is skipped where the server
// analyses by its search player (no bgsage there; TAVLA_TEST_WITHOUT_BGSAGE=1 makes such a server).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";

import {
  ActionKind,
  AnalysisLevel,
  createEngineClient,
  CubeAdvice,
  engineError,
  Evaluator,
  Side,
  START_POSITION_ID,
  type EngineClient,
} from "../src/index.js";
import { repoRoot, startLiveServer, type LiveServer } from "./live-server.js";

let server: LiveServer;
let client: EngineClient;
// What evaluates backgammon on the server, asked once (a cheap 1-ply call): bgsage's net
// (NEURAL_NET, in .venv-test) or, where bgsage is not installed (no Linux aarch64 wheel,
// docs/analysis.md), the search player (SEARCH).
let evaluator: Evaluator;

before(async () => {
  server = await startLiveServer();
  client = createEngineClient(server.target);
  evaluator = (await client.evaluatePosition(START_POSITION_ID, { level: "beginner" })).info!.evaluator;
  assert.ok([Evaluator.NEURAL_NET, Evaluator.SEARCH].includes(evaluator), `evaluator ${evaluator}`);
});

after(async () => {
  await server.stop();
});

test("suggestMove ranks legal 3-1s at the start, evaluatePosition and suggestCubeAction judge it (any evaluator)", async () => {
  const ranked = await client.suggestMove(START_POSITION_ID, [3, 1], { level: "intermediate", maxMoves: 3 });
  assert.equal(ranked.moves.length, 3);
  assert.deepEqual([ranked.info?.level, ranked.info?.evaluator, ranked.info?.ply], [AnalysisLevel.INTERMEDIATE, evaluator, 1]);
  const legal = new Set((await client.listLegalMoves(START_POSITION_ID, [3, 1])).map((m) => m.notation));
  // The level's noise orders them, so the best need not be among the 3: the losses differ as the equities do.
  const first = ranked.moves[0];
  for (const m of ranked.moves) {
    assert.ok(legal.has(m.move!.notation), `${m.move?.notation} is not a legal 3-1`);
    assert.ok(m.equityLoss >= 0);
    assert.ok(Math.abs(first.equity - m.equity - (m.equityLoss - first.equityLoss)) < 1e-9, `${m.move?.notation}: ${m.equity}, loss ${m.equityLoss}`);
  }
  const evaluated = await client.evaluatePosition(START_POSITION_ID, { level: "intermediate" });
  const win = evaluated.probabilities!.win;
  assert.ok(win > 0 && win < 1, `win ${win}`);
  assert.ok(evaluated.probabilities!.winGammon <= win);
  assert.equal(evaluated.info?.evaluator, evaluator);
  // No evaluator doubles at the start (a centered cube, money play).
  const cube = await client.suggestCubeAction(START_POSITION_ID, { level: AnalysisLevel.INTERMEDIATE });
  assert.deepEqual([cube.advice, cube.doubleAvailable, cube.shouldDouble], [CubeAdvice.NO_DOUBLE, true, false]);
});

test("bgsage's net: 8/5 6/5 the best 3-1 at the start, the side on roll just over even", async (t) => {
  if (evaluator !== Evaluator.NEURAL_NET) {
    t.skip(`the server analyses by ${Evaluator[evaluator]}, not bgsage's net (bgsage not installed there)`);
    return;
  }
  const ranked = await client.suggestMove(START_POSITION_ID, [3, 1], { level: "intermediate", maxMoves: 3 });
  const best = ranked.moves.find((m) => m.equityLoss === 0);
  assert.equal(best?.move?.notation, "8/5 6/5"); // the point-making play
  const p = (await client.evaluatePosition(START_POSITION_ID, { level: "intermediate" })).probabilities!;
  assert.ok(p.win > 0.5 && p.win < 0.56, `win ${p.win}`);
  assert.ok(p.winGammon > 0 && p.winGammon < p.win, `gammon ${p.winGammon}`);
});

test("bad input: INVALID_ARGUMENT naming the field (any evaluator)", async () => {
  await assert.rejects(client.suggestMove(START_POSITION_ID, [7, 1], { level: "intermediate" }), (e) => {
    assert.deepEqual([engineError(e).code, engineError(e).fields], ["INVALID_ARGUMENT", ["dice"]]);
    return true;
  });
  await assert.rejects(client.analyzeMatch("not a match", { level: "beginner" }), (e) => {
    assert.deepEqual([engineError(e).code, engineError(e).fields], ["INVALID_ARGUMENT", ["mat"]]);
    return true;
  });
});

test("analyzeMatch reviews a 3-game .mat record", async () => {
  const mat = readFileSync(join(repoRoot, "tests", "data", "matches", "match0000.mat"), "utf8");
  const review = await client.analyzeMatch(mat, { level: "beginner" });
  assert.equal(review.games, 3);
  assert.deepEqual(review.players.map((p) => p.side), [Side.WHITE, Side.BLACK]);
  assert.ok(review.players.every((p) => p.moves > 0 && p.performanceRating > 0));
  assert.ok(review.decisions.length > 0);
});

test("streamAnalyzeMatch: progress counts up to its total, then analyzeMatch's review", async () => {
  const mat = readFileSync(join(repoRoot, "tests", "data", "matches", "match0000.mat"), "utf8");
  const done: number[] = [];
  let result;
  for await (const message of client.streamAnalyzeMatch(mat, { level: "advanced" })) {
    assert.equal(result, undefined, "nothing after the result");
    if (message.event.case === "progress") {
      const p = message.event.value;
      assert.ok(p.decisionsDone > (done.at(-1) ?? 0) && p.decisionsDone <= p.decisionsTotal && p.games === 3);
      done.push(p.decisionsDone);
    } else if (message.event.case === "result") {
      result = message.event.value;
    }
  }
  assert.ok(done.length > 100 && result !== undefined);
  const unary = await client.analyzeMatch(mat, { level: "advanced" });
  assert.equal(result.games, 3);
  assert.deepEqual(result.decisions.map((d) => d.error), unary.decisions.map((d) => d.error));
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
