// The referee API from TypeScript (docs/game-state.md): a whole Turkish 3-point match through
// newMatch / listActions / act only, against the live server, checking every state on the way.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { ActionKind, createEngineClient, GamePhase, type GameAction } from "../src/index.js";
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
  let { state, game } = await client.newMatch(3);
  assert.equal(game?.phase, GamePhase.START);
  for (let turn = 0; turn < 20_000; turn++) {
    const listed = await client.listActions(state!);
    if (listed.actions.length === 0) break;
    const answer = await client.act(state!, choose(listed.actions, turn));
    assert.equal(answer.game!.sequence, game!.sequence + 1n);
    ({ state, game } = answer);
  }
  assert.equal(game?.phase, GamePhase.MATCH_OVER);
  assert.ok(game!.match!.whiteScore === 3 || game!.match!.blackScore === 3);
});
