// The conformance scenarios of clients/conformance, run through a client (conformance.test.ts: the
// Node gRPC transport; web.test.ts: the browser transports against the HTTP port).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";

import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";

import { SERVICES, engineError, type EngineClient } from "../src/engine.js";
import { repoRoot } from "./live-server.js";
import { match } from "./match.js";

export interface Scenario {
  name: string;
  service: keyof typeof SERVICES;
  rpc: string;
  request: JsonValue;
  response?: JsonValue;
  error?: { code: string; reason?: string; domain?: string; metadata?: Record<string, string>; field?: string };
}

const dir = join(repoRoot, "clients", "conformance", "scenarios");
export const scenarios: Scenario[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .flatMap((f) => (JSON.parse(readFileSync(join(dir, f), "utf8")) as { scenarios: Scenario[] }).scenarios);

/** The EngineClient field holding each service's generated client. */
const stubOf = { RulesService: "rules", MatchService: "match", RefereeService: "referee", RecordsService: "records", AnalysisService: "analysis" } as const;

/** The method a scenario calls: its `rpc` in its `service`. */
export function methodOf(sc: Scenario) {
  const service = SERVICES[sc.service];
  assert.ok(service, `no service ${sc.service}`);
  const method = service.methods.find((m) => m.name === sc.rpc);
  assert.ok(method, `no RPC ${sc.rpc} in ${sc.service}`);
  return method;
}

/** One test per scenario, calling the RPC through `client()`. */
export function runScenarios(title: string, client: () => EngineClient): void {
  describe(title, () => {
    test("scenarios were found", () => assert.ok(scenarios.length > 0));
    for (const sc of scenarios) {
      test(sc.name, async () => {
        const method = methodOf(sc);
        const request = fromJson(method.input, sc.request);
        // the RPC is called by name through the generated client of its service (client.rules, ...)
        const stub = client()[stubOf[sc.service]] as unknown as Record<string, (r: unknown) => Promise<never>>;
        const call = stub[method.localName];
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
}
