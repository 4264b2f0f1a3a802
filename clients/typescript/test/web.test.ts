// The browser client (`@tavla-engine/client/web`) against the server's HTTP port: every
// conformance scenario over Connect (JSON and binary) and gRPC-Web, through Node's own fetch
// (the same API a browser has). The server is started with TAVLA_HTTP_PORT; with TAVLA_TARGET
// (a running server) set, TAVLA_HTTP_TARGET ("http://host:port") names its HTTP port.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, test } from "node:test";

import { Side, createWebEngineClient, engineError, type EngineClient } from "../src/web.js";
import { startLiveServer, type LiveServer } from "./live-server.js";
import { runScenarios } from "./scenarios.js";

let server: LiveServer;
let baseUrl: string;
const clients: Record<string, EngineClient> = {};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  const port = await freePort();
  server = await startLiveServer({ TAVLA_HTTP_PORT: String(port) });
  baseUrl = process.env.TAVLA_TARGET ? (process.env.TAVLA_HTTP_TARGET ?? "") : `http://127.0.0.1:${port}`;
  assert.ok(baseUrl, "set TAVLA_HTTP_TARGET with TAVLA_TARGET");
  clients.json = createWebEngineClient(baseUrl);
  clients.binary = createWebEngineClient(baseUrl, { useBinaryFormat: true });
  clients.grpcWeb = createWebEngineClient(baseUrl, { protocol: "grpc-web" });
});

after(async () => {
  await server.stop();
});

runScenarios("conformance over Connect JSON", () => clients.json);
runScenarios("conformance over Connect binary", () => clients.binary);
runScenarios("conformance over gRPC-Web", () => clients.grpcWeb);

test("helpers and error details over every web protocol", async () => {
  for (const [name, client] of Object.entries(clients)) {
    const start = await client.getInitialPosition(Side.BLACK);
    assert.equal(start.onRoll, Side.BLACK, name);
    const moves = await client.listLegalMoves(start.ids!.positionId, [5, 1]);
    assert.equal(moves.length, 8, name);
    await assert.rejects(client.applyMove(start.ids!.positionId, [5, 1], "24/23"), (e) => {
      const err = engineError(e);
      assert.equal(err.code, "INVALID_ARGUMENT", name);
      assert.equal(err.reason, "MUST_USE_BOTH_DICE", name); // R7
      assert.equal(err.domain, "tavla.v1", name);
      return true;
    });
  }
});
