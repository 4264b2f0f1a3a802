// Every variant through the referee from TypeScript: one whole 3-point match of each
// preset ListRulesets lists, by newMatch / act only against the live server, random legal
// actions (seeded), checking that it ends with a winner (a plakoto game may end drawn,
// GAME_ENDING_DRAW, and the match goes on) and that the score adds up: each won game adds its
// points capped at what the winner needed (R18), a draw nothing.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ActionKind, createEngineClient, GameEnding, GamePhase, Side, type GameAction } from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";

const PRESETS = ["international", "turkish", "portes", "nackgammon", "hypergammon", "plakoto", "fevga", "long_nardy"];
const WITH_CUBE = new Set(["international", "nackgammon", "hypergammon"]);
// a random player plays on: it never resigns or doubles, so the match is played out
const PLAYING = new Set([ActionKind.START_GAME, ActionKind.ROLL, ActionKind.STEP, ActionKind.CONFIRM_MOVE, ActionKind.TAKE]);
const MAX_ACTIONS = 20_000; // a guard against a match that never ends

let server: LiveServer;

before(async () => {
  server = await startLiveServer();
});

after(async () => {
  await server.stop();
});

/** A seeded generator (mulberry32), so a failure replays. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("every variant is a ListRulesets preset", async () => {
  const client = createEngineClient(server.target);
  const listed = new Map((await client.listRulesets()).presets.map((p) => [p.name, p.ruleset?.variant]));
  for (const p of PRESETS) assert.ok(listed.has(p), `${p} missing from ${[...listed.keys()]}`);
  assert.equal(listed.get("long_nardy"), "long_nardy");
  assert.equal(listed.get("plakoto"), "plakoto");
});

for (const [i, preset] of PRESETS.entries()) {
  test(`a whole 3-point ${preset} match through the referee`, { timeout: 60_000 }, async () => {
    const random = seeded(20 + i);
    const client = createEngineClient(server.target, { ruleset: preset });
    let { state, view, actions } = await client.newMatch(3);
    assert.equal(view!.ruleset!.preset, preset);
    assert.equal(view!.ruleset!.cube, WITH_CUBE.has(preset));
    const length = view!.match!.length;
    const scores = { [Side.WHITE]: 0, [Side.BLACK]: 0 } as Record<number, number>;
    let won = 0;
    for (let n = 0; n < MAX_ACTIONS && actions.length > 0; n++) {
      const playing = actions.filter((a) => PLAYING.has(a.kind));
      const pool: GameAction[] = playing.length ? playing : actions;
      const answer = await client.act(state!, pool[Math.floor(random() * pool.length)]);
      ({ state, view, actions } = answer);
      const out = answer.events?.outcome;
      if (!out) continue;
      if (out.winner === Side.UNSPECIFIED) {
        // only plakoto draws (both mothers pinned); nothing is scored
        assert.equal(preset, "plakoto");
        assert.equal(out.ending, GameEnding.DRAW);
      } else {
        won++;
        scores[out.winner] += Math.min(out.points, length - scores[out.winner]);
      }
      assert.deepEqual([view!.match!.whiteScore, view!.match!.blackScore], [scores[Side.WHITE], scores[Side.BLACK]]);
    }
    assert.equal(view!.phase, GamePhase.MATCH_OVER);
    assert.deepEqual(actions, []);
    const winner = view!.match!.winner;
    assert.ok(winner === Side.WHITE || winner === Side.BLACK);
    assert.equal(scores[winner], length);
    assert.ok(scores[winner === Side.WHITE ? Side.BLACK : Side.WHITE] < length);
    assert.ok(won >= 1 && won <= 2 * length - 1);
  });
}
