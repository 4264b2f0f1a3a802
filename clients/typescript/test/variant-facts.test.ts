// Each variant's facts read from ListRulesets against the live server (variantFacts, kept per
// client) and used: the checkers a side starts with, where the other side's head stands (the
// direction); and rollDice reads its position under the ruleset it sends.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";

import { START_POSITION_ID, createEngineClient, engineError, sameDirection, variantKey } from "../src/index.js";
import { startLiveServer, type LiveServer } from "./live-server.js";

let server: LiveServer;

before(async () => {
  server = await startLiveServer();
});

after(async () => {
  await server.stop();
});

/** Point `p` of one side's numbering in the other's (docs/variants.md). */
const otherPoint = (p: number, same: boolean) => (same ? ((p + 11) % 24) + 1 : 25 - p);

test("a variant's facts are read by any of its names, once", async () => {
  const client = createEngineClient(server.target);
  const plakoto = await client.variantFacts("Mahbusa");
  assert.deepEqual(
    [plakoto.name, plakoto.direction, plakoto.contact, plakoto.bar, plakoto.checkers, plakoto.home],
    ["plakoto", "opposite", "pin", false, 15, 6],
  );
  const gulBara = await client.variantFacts("gul-bara");
  assert.deepEqual([gulBara.name, sameDirection(gulBara), gulBara.doublesCascade], ["gul_bara", true, true]);
  assert.equal((await client.variantFacts("international")).name, "backgammon"); // a preset's name
  assert.equal((await client.variantFacts("hyper")).checkers, 3);
  assert.deepEqual((await client.variantFacts("fevga")).options.map((o) => [o.name, o.defaultValue]), [["prime_rule", true]]);
  assert.equal(await client.variants(), await client.variants()); // one ListRulesets call, kept
  await assert.rejects(client.variantFacts("chess"), /unknown variant "chess": ListRulesets lists backgammon, .*plakoto/);
  assert.equal(variantKey("  Long-Nardy "), "long_nardy");
});

for (const preset of ["plakoto", "fevga", "gul_bara", "long_nardy"]) {
  test(`${preset}: the direction says where black's head stands for white`, async () => {
    // every checker starts on its side's 24 point; 6-6 takes white's head to its 12 point
    // unless black's head, black's 24 read in white's numbering by the direction, stands there
    const client = createEngineClient(server.target, { ruleset: preset });
    const facts = await client.variantFacts(preset);
    const start = await client.getInitialPosition();
    const board = start.checkers.case === "board" ? start.checkers.value : undefined;
    assert.deepEqual([board?.white?.points[23], board?.black?.points[23]], [facts.checkers, facts.checkers]);
    const moves = await client.listLegalMoves(start, [6, 6]);
    const reached = moves.some((m) => m.checkerMoves.some((c) => c.toPoint === 12));
    assert.equal(reached, otherPoint(24, sameDirection(facts)) !== 12);
  });
}

test("rollDice reads its position under the ruleset, the client's or the call's", async () => {
  const client = createEngineClient(server.target);
  assert.equal((await client.rollDice({ position: START_POSITION_ID })).dice.length, 2);
  const refused = (e: unknown) => {
    const err = engineError(e);
    assert.equal(err.code, "INVALID_ARGUMENT"); // 15 checkers a side: not a hypergammon position
    assert.match(err.message, /position/);
    return true;
  };
  await assert.rejects(client.rollDice({ position: START_POSITION_ID, ruleset: "hypergammon" }), refused);
  const hyper = createEngineClient(server.target, { ruleset: "hypergammon" });
  await assert.rejects(hyper.rollDice({ position: START_POSITION_ID }), refused);
  assert.equal((await hyper.rollDice()).dice.length, 2); // no position: no ruleset read
});
