// The client beyond the conformance scenarios: its default service config (the one every client
// shares), retries of UNAVAILABLE and CANCELLED and nothing else, the helpers, and the README example.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { after, before, describe, test } from "node:test";

import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";

import {
  byId,
  codeName,
  createEngineClient,
  RulesService,
  engineError,
  ResultKind,
  SERVICE_CONFIG,
  Side,
  START_POSITION_ID,
} from "../src/index.js";
import { repoRoot, startLiveServer, type LiveServer } from "./live-server.js";

test("engine.ts (and so index.ts and web.ts) re-exports every generated file", () => {
  const index = readFileSync(join(repoRoot, "clients", "typescript", "src", "engine.ts"), "utf8");
  const gen = readdirSync(join(repoRoot, "clients", "typescript", "src", "gen", "tavla", "v1")).filter((f) => f.endsWith("_pb.ts"));
  for (const f of gen) {
    assert.ok(index.includes(`export * from "./gen/tavla/v1/${f.replace(/\.ts$/, ".js")}";`), `src/engine.ts does not export ${f}`);
  }
});

test("the service config is the shared one", () => {
  const shared = JSON.parse(readFileSync(join(repoRoot, "clients", "service_config.json"), "utf8"));
  assert.deepEqual(JSON.parse(JSON.stringify(SERVICE_CONFIG)), shared);
});

async function flakyServer(code: Code, failures: number) {
  const state = { calls: 0 };
  const server = http2.createServer(
    connectNodeAdapter({
      routes: (router) =>
        router.service(RulesService, {
          getInitialPosition() {
            state.calls++;
            if (state.calls <= failures) throw new ConnectError("failing on purpose", code);
            return { position: byId(START_POSITION_ID) };
          },
        }),
    }),
  );
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => sessions.add(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    target: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sessions) s.destroy(); // the client keeps its HTTP/2 session open
      }),
  };
}

describe("retries", () => {
  const cases: [Code, number, number, string][] = [
    [Code.Unavailable, 2, 3, "OK"],
    [Code.Unavailable, 10, 5, "UNAVAILABLE"],
    [Code.Canceled, 2, 3, "OK"],
    [Code.InvalidArgument, 1, 1, "INVALID_ARGUMENT"],
    [Code.Internal, 1, 1, "INTERNAL"],
  ];
  for (const [code, failures, calls, outcome] of cases) {
    test(`${codeName(code)} failing ${failures} times`, async () => {
      const server = await flakyServer(code, failures);
      try {
        const client = createEngineClient(server.target);
        let got = "OK";
        try {
          await client.getInitialPosition();
        } catch (e) {
          got = engineError(e).code;
        }
        assert.equal(got, outcome);
        assert.equal(server.state.calls, calls);
      } finally {
        await server.close();
      }
    });
  }
});

describe("against the live server", () => {
  let server: LiveServer;
  before(async () => {
    server = await startLiveServer();
  });
  after(async () => {
    await server.stop();
  });

  test("validateMatch streams a .mat record and answers a verdict per game, then the record's", async () => {
    const client = createEngineClient(server.target);
    const text = readFileSync(join(repoRoot, "tests", "data", "matches", "match0000.mat"), "utf8");
    const verdicts = [];
    for await (const answer of client.validateMatch(text, { rules: "auto", source: "match0000.mat", chunkBytes: 1000 })) {
      verdicts.push(answer.verdict);
    }
    const games = verdicts.filter((v) => v.case === "game");
    assert.ok(games.length > 0);
    const last = verdicts[verdicts.length - 1];
    assert.equal(last.case, "record");
    assert.equal(last.value.whiteScore + last.value.blackScore, 9); // the record's final score, 7-2
  });

  test("helpers and error details", async () => {
    const client = createEngineClient(server.target);
    const start = await client.getInitialPosition(Side.BLACK);
    assert.equal(start.ids?.positionId, START_POSITION_ID);
    assert.equal(start.onRoll, Side.BLACK);
    const moves = await client.listLegalMoves(START_POSITION_ID, [5, 1]);
    assert.equal(moves.length, 8);
    const played = await client.applyMove(START_POSITION_ID, [5, 1], "24/23 13/8");
    assert.equal(played.move?.result?.ids?.positionId, "4PPgASjgc/ABMA");
    assert.equal((await client.scoreGame(START_POSITION_ID)).outcome, undefined);
    assert.equal((await client.bearOff(START_POSITION_ID)).white?.pipCount, 167);
    await assert.rejects(client.applyMove(START_POSITION_ID, [5, 1], "13/8"), (e) => {
      const err = engineError(e);
      assert.deepEqual(
        [err.code, err.reason, err.domain, err.metadata, err.fields],
        ["INVALID_ARGUMENT", "MUST_USE_BOTH_DICE", "tavla.v1", { move: "13/8", dice: "5-1" }, []],
      );
      return true;
    });
    await assert.rejects(client.listLegalMoves(START_POSITION_ID, [7, 1]), (e) => {
      assert.deepEqual(engineError(e).fields, ["dice"]);
      return true;
    });
    const turkish = createEngineClient(server.target, { ruleset: "turkish" });
    const score = await turkish.scoreGame("APD/A0AAAAAAAA"); // katmerli mars pays 2 in the turkish preset
    assert.equal(score.outcome?.kind, ResultKind.BACKGAMMON);
    assert.equal(score.outcome?.points, 2);
  });

  test("the README example is the quickstart and runs", async () => {
    const dir = join(repoRoot, "clients", "typescript");
    const quickstart = readFileSync(join(dir, "examples", "quickstart.ts"), "utf8");
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    assert.equal(/```ts\n([\s\S]*?)```/.exec(readme)?.[1], quickstart, "README.md's example must be examples/quickstart.ts");
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "dist", "examples", "quickstart.js"), server.target]);
    assert.equal(stdout.trim().split("\n").at(-1), "4PPgASjgc/ABMA");
  });
});
