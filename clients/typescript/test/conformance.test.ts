// The conformance scenarios of clients/conformance, run through this client against a live
// server (clients/conformance/README.md has the format and the matching rules).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";

import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";

import { createEngineClient, EngineService, engineError, type EngineClient } from "../src/index.js";
import { startLiveServer, repoRoot, type LiveServer } from "./live-server.js";
import { match } from "./match.js";

interface Scenario {
  name: string;
  rpc: string;
  request: JsonValue;
  response?: JsonValue;
  error?: { code: string; reason?: string; domain?: string; metadata?: Record<string, string>; field?: string };
}

const dir = join(repoRoot, "clients", "conformance", "scenarios");
const scenarios: Scenario[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { scenarios: Scenario[] }).scenarios);

let server: LiveServer;
let client: EngineClient;

before(async () => {
  server = await startLiveServer();
  client = createEngineClient(server.target);
});

after(async () => {
  await server.stop();
});

describe("conformance", () => {
  test("scenarios were found", () => assert.ok(scenarios.length > 0));
  for (const sc of scenarios) {
    test(sc.name, async () => {
      const method = EngineService.methods.find((m) => m.name === sc.rpc);
      assert.ok(method, `no RPC ${sc.rpc} in EngineService`);
      const request = fromJson(method.input, sc.request);
      // the RPC is called by name through the client's generated method
      const call = (client.rpc as unknown as Record<string, (r: unknown) => Promise<never>>)[method.localName];
      let response;
      try {
        response = await call(request);
      } catch (e) {
        assert.ok(sc.error, `expected OK, got ${e}`);
        const err = engineError(e);
        const want = sc.error;
        assert.equal(err.code, want.code, err.message);
        if (want.reason !== undefined) assert.equal(err.reason, want.reason, err.message);
        if (want.domain !== undefined) assert.equal(err.domain, want.domain);
        for (const [k, v] of Object.entries(want.metadata ?? {})) assert.equal(err.metadata[k], v, `metadata.${k}`);
        if (want.field !== undefined) assert.ok(err.fields.includes(want.field), `field ${want.field} not in ${err.fields} (${err.message})`);
        return;
      }
      assert.ok(!sc.error, `expected ${JSON.stringify(sc.error)}, got OK`);
      const actual = toJson(method.output, response, { useProtoFieldName: true });
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
  assert.ok(ok('{"dice_used": 2, "game_over": false, "result": {"$absent": true}, "win": 0.3}'));
  assert.ok(!ok('{"dice_used": 4}'));
  assert.ok(!ok('{"moves": [{"notation": "24/23 13/8"}]}'));
  assert.ok(ok('{"checker_moves": [], "notation": "", "on_roll": "SIDE_UNSPECIFIED"}'));
  assert.ok(ok('{"moves": [{"notation": {"$regex": "^24/"}}, {"notation": {"$regex": "7$"}}]}'));
  assert.ok(!ok('{"moves": {"$contains": [{"notation": {"$regex": "^8/"}}]}}'));
});
