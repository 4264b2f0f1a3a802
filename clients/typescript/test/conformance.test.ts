// The conformance scenarios of clients/conformance, run through this client against a live
// server (clients/conformance/README.md has the format and the matching rules).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { createEngineClient, type EngineClient } from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";
import { match } from "./match.js";
import { runScenarios } from "./scenarios.js";

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

test("matcher rules", () => {
  const actual = JSON.parse(
    '{"moves": [{"notation": "24/23 13/8", "result": {"position_id": "x"}}, {"notation": "13/7"}], "dice_used": 2, "win": 0.30000000000000004}',
  );
  const ok = (expected: string) => match(JSON.parse(expected), actual).length === 0;
  assert.ok(ok('{"moves": {"$len": 2, "$contains": [{"notation": "13/7"}]}}'));
  assert.ok(!ok('{"moves": {"$len": 3}}'));
  assert.ok(!ok('{"moves": {"$contains": [{"notation": "8/2"}]}}'));
  assert.ok(ok('{"dice_used": 2, "game_over": false, "result": {"$absent": true}, "win": 0.3}'));
  assert.ok(!ok('{"dice_used": 4}'));
  assert.ok(!ok('{"moves": [{"notation": "24/23 13/8"}]}'));
  assert.ok(ok('{"checker_moves": [], "notation": "", "on_roll": "SIDE_UNSPECIFIED"}'));
  assert.ok(ok('{"moves": [{"notation": {"$regex": "^24/"}}, {"notation": {"$regex": "7$"}}]}'));
  assert.ok(!ok('{"moves": {"$contains": [{"notation": {"$regex": "^8/"}}]}}'));
});
