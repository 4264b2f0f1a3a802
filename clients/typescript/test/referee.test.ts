// The referee API from TypeScript (docs/game-state.md): a whole Turkish 3-point match through
// newMatch / listActions / act only, against the live server, checking every state on the way.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ActionKind, createEngineClient, GamePhase, Side, type ActionRecord, type GameAction } from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";

let server: LiveServer;

before(async () => {
  server = await startLiveServer();
});

after(async () => {
  await server.stop();
});

function choose(actions: GameAction[], turn: number): GameAction {
  const first = (kind: ActionKind) => actions.find((a) => a.kind === kind);
  const steps = actions.filter((a) => a.kind === ActionKind.STEP);
  return (
    first(ActionKind.START_GAME) ??
    first(ActionKind.CONFIRM_MOVE) ??
    first(ActionKind.ROLL) ??
    (steps.length ? steps[turn % steps.length] : undefined) ??
    actions[0]
  );
}

test("a Turkish 3-point match through the referee", { timeout: 120_000 }, async () => {
  const client = createEngineClient(server.target, { ruleset: "turkish" });
  // One call per action: each answer carries the next state, its view and its legal actions.
  let { state, view, actions } = await client.newMatch(3);
  assert.equal(view?.phase, GamePhase.START);
  const record: ActionRecord[] = [];
  for (let turn = 0; turn < 20_000 && actions.length > 0; turn++) {
    const answer = await client.act(state!, choose(actions, turn));
    assert.equal(answer.view!.sequence, view!.sequence + 1n);
    record.push(...answer.events!.records);
    ({ state, view, actions } = answer);
  }
  assert.equal(view?.phase, GamePhase.MATCH_OVER);
  assert.ok(view!.match!.whiteScore === 3 || view!.match!.blackScore === 3);
  // The record kept from the events: numbered in order, the last entry ends the match.
  for (let i = 1; i < record.length; i++) assert.ok(record[i].sequence > record[i - 1].sequence, `entry ${i} out of order`);
  assert.ok(record.length > 0 && record[record.length - 1].outcome !== undefined);
  // ListActions answers the same as the last Act.
  assert.deepEqual((await client.listActions(state!)).actions, []);
});

test("a test server takes the dice of START_GAME by metadata (testDice)", async () => {
  const client = createEngineClient(server.target, { ruleset: "international" });
  const opened = await client.newMatch(1);
  const started = await client.act(opened.state!, opened.actions[0], { testDice: [6, 1] });
  // the roll-off 6-1: white starts and plays the roll-off dice (R3)
  assert.deepEqual([started.view!.sideToAct, started.view!.dice], [Side.WHITE, [6, 1]]);
  assert.equal(started.events!.records[0].rollTag, "given");
});
