// The TypeScript client plays whole matches with its helpers only: an international
// 3-point match (cube, checker-by-checker steps for white, whole moves for black, the clock) and a
// Turkish 3-point match opened by a resignation; each answer's outcome goes to updateMatch
// unchanged, and enums are read by name.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import {
  asJson,
  ClockPresetSchema,
  createEngineClient,
  CubeActionSchema,
  enumName,
  enumValue,
  engineError,
  GameEndingSchema,
  GameOutcomeSchema,
  matchState,
  MatchStateSchema,
  ResultKindSchema,
  SideSchema,
  type ClockState,
  type EngineClient,
  type GameOutcome,
  type MatchState,
  type Position,
} from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";

const MAX_TURNS = 3000; // a game ends with probability 1; this only stops a bug

async function playGame(engine: EngineClient, start: MatchState, clockIn?: ClockState) {
  let match = start;
  let clock = clockIn;
  const opening = await engine.startGame({ match });
  assert.deepEqual([...opening.dice], [...opening.dice].sort((a, b) => b - a)); // larger first
  let position: Position = opening.position!;
  let dice: number[] = [...opening.dice];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const side = enumName(SideSchema, position.onRoll) === "SIDE_WHITE" ? "white" : "black";
    if (dice.length === 0) {
      const options = await engine.listCubeActions(match, side);
      const names = options.actions.map((a) => enumName(CubeActionSchema, a));
      if (names.includes("CUBE_ACTION_DOUBLE") && (match.cube?.value ?? 1) <= 1) {
        match = (await engine.applyCubeAction(match, side, "double")).match!;
        match = (await engine.applyCubeAction(match, side === "white" ? "black" : "white", "take")).match!;
      }
      const roll = await engine.rollDice({ position });
      assert.equal(roll.name?.numbers, `${roll.dice[0]}-${roll.dice[1]}`);
      dice = [...roll.dice];
    }
    let over: boolean;
    let outcome: GameOutcome | undefined;
    if (side === "white") {
      const steps: [number, number, number][] = [];
      let answer = await engine.listLegalSteps(position, dice, steps, { match });
      while (!answer.complete) {
        const step = answer.nextSteps[0];
        steps.push([step.fromPoint, step.toPoint, step.die]);
        answer = await engine.listLegalSteps(position, dice, steps, { match });
      }
      position = answer.move!.result!;
      [over, outcome] = [answer.outcome !== undefined, answer.outcome];
    } else {
      const moves = await engine.listLegalMoves(position, dice);
      const played = await engine.applyMove(position, dice, moves[0], { match });
      position = played.move!.result!;
      [over, outcome] = [played.outcome !== undefined, played.outcome];
    }
    const ticked = await engine.advanceClock(side, 1500, { settings: { preset: enumValue(ClockPresetSchema, "reserve") }, state: clock });
    assert.equal(ticked.forfeit, undefined);
    clock = ticked.state;
    dice = [];
    if (over) {
      const scored = await engine.scoreGame(position, { match });
      // the same end of the game from both RPCs, as JSON with enum names
      assert.deepEqual(asJson(GameOutcomeSchema, scored.outcome!), asJson(GameOutcomeSchema, outcome!));
      assert.equal((asJson(GameOutcomeSchema, outcome!) as { ending: string }).ending, "GAME_ENDING_BORNE_OFF");
      return { match, outcome: outcome!, clock };
    }
  }
  throw new Error("the game did not end");
}

describe("whole matches with helpers only", () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    await server.stop();
  });

  test("an international 3-point match", async () => {
    const engine = createEngineClient(server.target, { ruleset: "international" });
    assert.equal((await engine.resolveRuleset()).ruleset?.crawford, true);
    // the two first, then the variants' presets
    assert.deepEqual((await engine.listRulesets()).presets.map((p) => p.name).slice(0, 2), ["international", "turkish"]);
    let match = matchState(3);
    let clock: ClockState | undefined;
    let games = 0;
    for (;;) {
      const game = await playGame(engine, match, clock);
      clock = game.clock;
      assert.equal(enumName(GameEndingSchema, game.outcome.ending), "GAME_ENDING_BORNE_OFF");
      const update = await engine.updateMatch(game.match, game.outcome);
      games++;
      match = update.match!;
      if (update.match!.winner !== SideSchema.values[0].number) break;
    }
    assert.equal(Math.max(match.whiteScore, match.blackScore), 3);
    assert.equal(match.gamesPlayed, games);
    await assert.rejects(engine.startGame({ match }), (e) => engineError(e).reason === "MATCH_OVER");
  });

  test("a Turkish 3-point match, in Turkish", async () => {
    const engine = createEngineClient(server.target, { ruleset: "tavla", locale: "tr" });
    let match = matchState(3);
    const name = (await engine.nameRoll([6, 5])).name!;
    assert.deepEqual([name.turkish, name.numbers], ["şeşbeş", "6-5"]);
    const commitment = await engine.commitDice({ clientSeed: "ali:1 ayşe:2" });
    const start = await engine.startGame({ match, seed: { token: commitment.token, clientSeed: "ali:1 ayşe:2" } });
    assert.equal(start.proof?.commitment, commitment.commitment);
    // the starter resigns a mars at once; the other side accepts: 2 points (R16)
    const loser = enumName(SideSchema, start.starter) === "SIDE_WHITE" ? "white" : "black";
    assert.equal((await engine.offerResignation(match, [loser, "mars"])).outcome?.points, 2);
    const answer = await engine.answerResignation(match, [loser, "mars"], true);
    assert.equal(enumName(ResultKindSchema, answer.outcome!.kind), "RESULT_KIND_GAMMON");
    let update = await engine.updateMatch(match, answer.outcome!);
    match = update.match!;
    assert.equal((asJson(MatchStateSchema, match) as { previousWinner: string }).previousWinner, enumName(SideSchema, update.nextStarter));
    while (update.match!.winner === SideSchema.values[0].number) {
      const game = await playGame(engine, match);
      update = await engine.updateMatch(game.match, game.outcome);
      match = update.match!;
    }
    assert.ok(["SIDE_WHITE", "SIDE_BLACK"].includes(enumName(SideSchema, update.match!.winner)));
    await assert.rejects(engine.applyMove("4HPwATDgc/ABMA", [5, 1], "13/8"), (e) => {
      const err = engineError(e);
      assert.equal(err.locale, "tr");
      assert.equal(err.localized, "Penç yek (5-1) attın; iki zar da oynanabiliyor, ikisini de oynamak zorundasın.");
      return true;
    });
  });
});
