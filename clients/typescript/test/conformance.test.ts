// The conformance scenarios of clients/conformance, run through this client against a live
// server (clients/conformance/README.md has the format and the matching rules).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { create, fromJson, toJson } from "@bufbuild/protobuf";

import {
  createEngineClient,
  SERVICES,
  engineError,
  HELPERS,
  ListLegalMovesResponseSchema,
  GetInitialPositionResponseSchema,
  PositionSchema,
  SignedGameStateSchema,
  type EngineClient,
} from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";
import { match } from "./match.js";
import { methodOf, runScenarios, scenarios } from "./scenarios.js";

let server: LiveServer;
let client: EngineClient;

before(async () => {
  server = await startLiveServer();
  client = createEngineClient(server.target);
});

after(async () => {
  await server.stop();
});

runScenarios("conformance", () => client);

// Each RPC called through its typed helper, from the scenario's request message: the helpers'
// arguments are the request's fields (the two helpers that unwrap their answer are wrapped back).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Req = any;
const viaHelper: Record<keyof typeof HELPERS, (c: EngineClient, r: Req) => Promise<unknown>> = {
  GetInitialPosition: async (c, r) => create(GetInitialPositionResponseSchema, { position: await c.getInitialPosition(r.onRoll, { ruleset: r.ruleset }) }),
  ListLegalMoves: async (c, r) => {
    const moves = await c.listLegalMoves(r.position ?? create(PositionSchema), r.dice, { ruleset: r.ruleset, view: r.view });
    // the helper answers the moves; dice_used comes with the RPC's answer
    return create(ListLegalMovesResponseSchema, { moves, diceUsed: (await c.rules.listLegalMoves(r)).diceUsed });
  },
  ApplyMove: (c, r) => c.applyMove(r.position ?? create(PositionSchema), r.dice, r.move ?? "", { ruleset: r.ruleset, match: r.match }),
  ScoreGame: (c, r) => c.scoreGame(r.position ?? create(PositionSchema), { ruleset: r.ruleset, match: r.match }),
  BearOff: (c, r) => c.bearOff(r.position ?? create(PositionSchema), r.dice, { ruleset: r.ruleset }),
  ListLegalSteps: (c, r) => c.listLegalSteps(r.position ?? create(PositionSchema), r.dice, r.steps, { ruleset: r.ruleset, match: r.match }),
  StartGame: (c, r) => c.startGame({
    ruleset: r.ruleset,
    match: r.match,
    ...(r.diceSource.case === "given" ? { rollOff: r.diceSource.value.rollOff, dice: r.diceSource.value.dice } : {}),
    ...(r.diceSource.case === "seed" ? { seed: r.diceSource.value } : {}),
  }),
  CommitDice: (c, r) => c.commitDice({ clientSeedSha256: r.clientSeedSha256 }),
  RollDice: (c, r) => c.rollDice({ seed: r.seed, position: r.position, ruleset: r.ruleset }),
  NameRoll: (c, r) => c.nameRoll(r.dice),
  ListCubeActions: (c, r) => c.listCubeActions(r.match ?? {}, r.side, { ruleset: r.ruleset }),
  ApplyCubeAction: (c, r) => c.applyCubeAction(r.match ?? {}, r.side, r.action, { ruleset: r.ruleset }),
  OfferResignation: (c, r) => c.offerResignation(r.match ?? {}, r.offer ?? {}, { ruleset: r.ruleset }),
  AnswerResignation: (c, r) => c.answerResignation(r.match ?? {}, r.offer ?? {}, r.accept, { ruleset: r.ruleset }),
  UpdateMatch: (c, r) => c.updateMatch(r.match ?? {}, r.outcome ?? {}, { ruleset: r.ruleset }),
  AdvanceClock: (c, r) => c.advanceClock(r.side, Number(r.elapsed?.seconds ?? 0n) * 1000 + (r.elapsed?.nanos ?? 0) / 1e6, { settings: r.settings, state: r.state, event: r.event }),
  ResolveRuleset: (c, r) => c.resolveRuleset(r.ruleset),
  ListRulesets: (c) => c.listRulesets(),
  NewMatch: (c, r) => c.newMatch(r.length, { ruleset: r.ruleset, clock: r.clock, matchId: r.matchId }),
  ListActions: (c, r) => c.listActions(r.state),
  Act: (c, r) => c.act(r.state, r.action),
  ValidateMatch: () => Promise.reject(new Error("a stream: no scenario")),
  ExportMatch: (c, r) => c.exportMatch(r.state ?? create(SignedGameStateSchema), r.records, { format: r.format, whitePlayer: r.whitePlayer, blackPlayer: r.blackPlayer, headers: r.headers }),
  SuggestMove: (c, r) => c.suggestMove(r.position ?? create(PositionSchema), r.dice, { ruleset: r.ruleset, match: r.match, level: r.level, maxMoves: r.maxMoves }),
  EvaluatePosition: (c, r) => c.evaluatePosition(r.position ?? create(PositionSchema), { ruleset: r.ruleset, match: r.match, level: r.level }),
  SuggestCubeAction: (c, r) => c.suggestCubeAction(r.position ?? create(PositionSchema), { ruleset: r.ruleset, match: r.match, level: r.level }),
  AnalyzeMatch: (c, r) => c.analyzeMatch(r.record.value ?? "", { ruleset: r.ruleset, level: r.level }),
  StreamAnalyzeMatch: () => Promise.reject(new Error("a stream: no scenario")),
  SuggestAction: (c, r) => c.suggestAction(r.state ?? create(SignedGameStateSchema), r.level),
  RenderPosition: (c, r) => c.renderPosition(r.position ?? create(PositionSchema), { ruleset: r.ruleset, dice: r.dice, match: r.match, render: r.options }),
};

describe("conformance through the helpers", () => {
  test("every RPC has a helper", () => {
    assert.deepEqual(Object.keys(HELPERS).sort(), Object.values(SERVICES).flatMap((s) => s.methods.map((m) => m.name)).sort());
    for (const name of Object.values(HELPERS)) assert.equal(typeof client[name], "function");
  });
  for (const sc of scenarios) {
    test(sc.name, async () => {
      const method = methodOf(sc);
      const request = fromJson(method.input, sc.request);
      let response;
      try {
        response = await viaHelper[sc.rpc as keyof typeof HELPERS](client, request);
      } catch (e) {
        assert.ok(sc.error, `expected OK, got ${e}`);
        const err = engineError(e);
        assert.equal(err.code, sc.error.code, err.message);
        if (sc.error.reason !== undefined) assert.equal(err.reason, sc.error.reason, err.message);
        if (sc.error.field !== undefined) assert.ok(err.fields.includes(sc.error.field), `field ${sc.error.field} not in ${err.fields}`);
        return;
      }
      assert.ok(!sc.error, `expected ${JSON.stringify(sc.error)}, got OK`);
      const actual = toJson(method.output, response as never, { useProtoFieldName: true });
      assert.deepEqual(match(sc.response!, actual), []);
    });
  }
});

test("matcher rules", () => {
  const actual = JSON.parse(
    '{"moves": [{"notation": "24/23 13/8", "result": {"position_id": "x"}}, {"notation": "13/7"}], "dice_used": 2, "win": 0.30000000000000004}',
  );
  const ok = (expected: string) => match(JSON.parse(expected), actual).length === 0;
  assert.ok(ok('{"moves": {"$len": 2, "$contains": [{"notation": "13/7"}]}}'));
  assert.ok(!ok('{"moves": {"$len": 3}}'));
  assert.ok(!ok('{"moves": {"$contains": [{"notation": "8/2"}]}}'));
  assert.ok(ok('{"dice_used": 2, "forced": false, "result": {"$absent": true}, "win": 0.3}'));
  assert.ok(!ok('{"dice_used": 4}'));
  assert.ok(!ok('{"moves": [{"notation": "24/23 13/8"}]}'));
  assert.ok(ok('{"checker_moves": [], "notation": "", "on_roll": "SIDE_UNSPECIFIED"}'));
  assert.ok(ok('{"moves": [{"notation": {"$regex": "^24/"}}, {"notation": {"$regex": "7$"}}]}'));
  assert.ok(!ok('{"moves": {"$contains": [{"notation": {"$regex": "^8/"}}]}}'));
});
