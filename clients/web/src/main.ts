// The page: setup form, board, side panel. It reads the driver's state and turns clicks into
// driver calls (each one an Act on the signed state); the bot (a random legal action from
// ListActions) plays black when chosen.
//
// The engine is the page's own origin (tavla-engine serve --http-port 8080 --web-dir ...), or
// `?engine=https://engine.example.com` (that server must list this page's origin in
// --cors-origins). `?delay=ms` sets the bot's pause between actions (default 350).
import { ActionKind, ClockPreset, GameEnding, ResultKind, Side, boardOf, createWebEngineClient } from "@tavla-engine/client/web";

import { Board, spotOf, type Highlights } from "./board.js";
import { GameDriver, describeError, sideName, type Preset } from "./driver.js";

const params = new URLSearchParams(location.search);
const engine = createWebEngineClient(params.get("engine") ?? location.origin, {
  protocol: params.get("protocol") === "grpc-web" ? "grpc-web" : "connect",
});
const botDelay = Number(params.get("delay") ?? 350);

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const board = new Board($("board-area"));
const driver = new GameDriver(engine);
let started = false;
let botPlays = true; // black is the bot
let selected: string | undefined;
let busy = false;

const CLOCKS: Record<string, ClockPreset> = {
  reserve: ClockPreset.RESERVE, extensions: ClockPreset.EXTENSIONS, none: ClockPreset.UNSPECIFIED,
};

/** The side whose decision the game waits for (the state's side_to_act; unset between games). */
const actor = (): Side => driver.state.sideToAct;
const mover = (): Side => driver.state.position.onRoll;

const isBot = (side: Side) => botPlays && side === Side.BLACK;
/** A human side that may claim the other side's timeout (ListActions lists it once time is up). */
const claimant = (): Side | undefined =>
  [Side.WHITE, Side.BLACK].find((side) => !isBot(side) && driver.can(ActionKind.CLAIM_TIMEOUT, side));

/** Run one user action: guard against double clicks, show errors, redraw, then let the bot play. */
async function act(action: () => Promise<void>): Promise<void> {
  if (busy) return;
  busy = true;
  document.body.dataset.busy = "1";
  $("error").hidden = true;
  try {
    await action();
    render();
    await botTurns();
  } catch (e) {
    $("error").textContent = describeError(e);
    $("error").hidden = false;
  } finally {
    busy = false;
    document.body.dataset.busy = "0";
    render();
  }
}

async function botTurns(): Promise<void> {
  for (;;) {
    const s = driver.state;
    if (!started || s.phase === "game-over" || s.phase === "match-over") return;
    const botClaims = botPlays && driver.can(ActionKind.CLAIM_TIMEOUT, Side.BLACK);
    if (!isBot(actor()) && !botClaims) return;
    await pause();
    await driver.botAction(botClaims ? Side.BLACK : actor());
    render();
  }
}

const pause = () => new Promise((r) => setTimeout(r, botDelay));

function onSpot(spot: string): void {
  const s = driver.state;
  if (!started || busy || s.phase !== "moving" || isBot(actor())) return;
  const hl = highlights();
  if (selected && hl.targets.has(spot)) {
    const from = pointOf(selected, mover());
    const to = pointOf(spot, mover());
    selected = undefined;
    void act(() => driver.step(from, to));
    return;
  }
  selected = hl.movable.has(spot) && selected !== spot ? spot : undefined;
  render();
}

/** A spot's point in `mover`'s numbering (25 = bar, 0 = off). */
function pointOf(spot: string, mover: Side): number {
  if (spot.startsWith("bar-")) return 25;
  if (spot.startsWith("off-")) return 0;
  const q = Number(spot);
  return mover === Side.WHITE ? q : 25 - q;
}

function highlights(): Highlights {
  const s = driver.state;
  const hl: Highlights = { movable: new Set(), targets: new Set(), selected };
  if (!started || s.phase !== "moving" || isBot(actor())) return hl;
  for (const st of s.nextSteps) {
    const from = spotOf(mover(), st.fromPoint);
    hl.movable.add(from);
    if (from === selected) hl.targets.add(spotOf(mover(), st.toPoint));
  }
  return hl;
}

/** Milliseconds the side to act has used on this turn (the server measures from the view's clock.turn_start_time). */
function turnElapsedMs(side: Side): number {
  const s = driver.state;
  return side === actor() && s.turnStartedMs ? Math.max(0, Date.now() - s.turnStartedMs) : 0;
}

/** A protobuf Duration (clock settings and reserves are whole milliseconds) in milliseconds. */
const durationMs = (d?: { seconds: bigint; nanos: number }) => (d ? Number(d.seconds) * 1000 + Math.round(d.nanos / 1e6) : 0);

const minSec = (ms: number) => {
  const secs = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
};

/** One side's clock as the state has it, running for the side to act (R23, R24). */
function clockText(side: Side): string {
  const s = driver.state;
  const c = side === Side.WHITE ? s.clock?.white : s.clock?.black;
  const settings = s.game?.clock?.settings;
  if (s.clockPreset === ClockPreset.UNSPECIFIED || !c || !settings) return `${sideName(side)}: no clock`;
  const elapsed = turnElapsedMs(side);
  const over = elapsed - durationMs(settings.moveTime); // < 0: the move's own time is still running
  // a move may take at most move_cap (the reserve preset: 1 min) whatever is left
  const capLeft = durationMs(settings.moveCap) ? durationMs(settings.moveCap) - elapsed : Infinity;
  const cap = (left: number) => (side === actor() && over > 0 && capLeft < left ? `, move ${minSec(capLeft)}` : "");
  if (s.clockPreset === ClockPreset.RESERVE) {
    const delay = side === actor() && over < 0 ? ` +${Math.ceil(-over / 1000)} s` : "";
    const left = durationMs(c.reserve) - Math.max(0, over);
    return `${sideName(side)} ${minSec(left)}${delay}${cap(left - Math.min(0, over))}`;
  }
  const ext = durationMs(settings.extensionTime) || 1;
  const used = over > 0 ? Math.ceil(over / ext) : 0;
  const now = side === actor() ? ` ${Math.ceil((over < 0 ? -over : used * ext - over) / 1000)} s +` : "";
  return `${sideName(side)}${now} ${Math.max(0, c.extensionsLeft - used)} ext.${cap((c.extensionsLeft - used) * ext - over)}`;
}

function render(): void {
  if (!started) {
    board.render(undefined, { movable: new Set(), targets: new Set() }, { values: [], left: [] }, undefined);
    for (const b of document.querySelectorAll<HTMLButtonElement>("#actions button")) b.hidden = true;
    $("status").textContent = "Choose the rules and a match length, then New match.";
    return;
  }
  const s = driver.state;
  const m = s.match;
  const cube = m.cube ?? { value: 1, owner: Side.UNSPECIFIED, offeredBy: Side.UNSPECIFIED };
  document.body.dataset.phase = s.phase;
  document.body.dataset.side = sideName(actor()).toLowerCase();
  // for tests and debugging: what the engine is asked about this turn
  document.body.dataset.positionId = s.turnStart.ids?.positionId ?? "";
  document.body.dataset.onRoll = sideName(s.turnStart.onRoll).toLowerCase();
  document.body.dataset.dice = s.dice.join(",");
  document.body.dataset.state = driver.signedJson();
  document.body.dataset.record = driver.recordJson(); // the match's record, kept from Act's events
  document.body.dataset.steps = JSON.stringify(s.steps.map((st) => ({ from_point: st.fromPoint, to_point: st.toPoint, die: st.die })));
  // labels in the player's numbering: white's against the bot, the mover's between two players
  board.render(s.position, highlights(), { values: s.phase === "moving" ? s.dice : [], left: s.diceLeft },
    s.preset === "turkish" ? undefined : { value: Math.max(cube.value, 1), owner: cube.owner },
    botPlays ? Side.WHITE : s.position.onRoll);
  $("score").innerHTML = `White ${m.whiteScore} – Black ${m.blackScore}<small>${s.preset === "turkish" ? "Turkish tavla" : "International"}, match to ${m.length}${m.crawford ? " · Crawford game" : ""}${m.postCrawford ? " · post-Crawford" : ""}</small>`;
  const you = (side: Side) => (botPlays ? (side === Side.WHITE ? " (you)" : " (bot)") : "");
  const turn: Record<string, string> = {
    start: "New game",
    "to-roll": `${sideName(actor())}${you(actor())} to roll`,
    moving: `${sideName(actor())}${you(actor())} to move`,
    "double-offered": `${sideName(actor())}${you(actor())}: take or drop?`,
    "resign-offered": `${sideName(actor())}${you(actor())}: accept the resignation?`,
    "game-over": "Game over",
    "match-over": "Match over",
  };
  $("turn").textContent = turn[s.phase];
  $("dice").textContent = s.phase === "moving" ? `Dice ${s.dice.join("-")}` : "";
  $("dice-name").textContent = s.phase === "moving" && s.diceName ? `“${s.diceName.turkish}”` : "";
  $("gele").textContent = s.phase === "moving" && s.gele ? "gele!" : "";
  const wb = boardOf(s.position)?.white;
  const bb = boardOf(s.position)?.black;
  $("pips-white").textContent = `White pips ${wb?.pipCount ?? "-"}`;
  $("pips-black").textContent = `Black pips ${bb?.pipCount ?? "-"}`;
  $("cube-line").textContent = s.preset === "turkish"
    ? "No cube (Turkish rules)"
    : `Cube ${Math.max(cube.value, 1)}${cube.owner ? `, ${sideName(cube.owner)}'s` : ", centred"}${cube.offeredBy ? ` — ${sideName(cube.offeredBy)} doubles to ${Math.max(cube.value, 1) * 2}` : ""}`;
  $("clock-white").textContent = clockText(Side.WHITE);
  $("clock-black").textContent = clockText(Side.BLACK);

  const human = !isBot(actor());
  const show = (id: string, visible: boolean, enabled = true) => {
    const b = $<HTMLButtonElement>(id);
    b.hidden = !visible;
    b.disabled = !enabled || busy;
  };
  show("roll", s.phase === "to-roll" && human);
  show("double", s.phase === "to-roll" && human && s.preset === "international", s.canDouble);
  show("take", s.phase === "double-offered" && human);
  show("drop", s.phase === "double-offered" && human);
  show("undo", s.phase === "moving" && human, s.steps.length > 0);
  show("confirm", s.phase === "moving" && human, s.complete);
  $("confirm").textContent = s.complete && s.steps.length === 0 ? "Pass (no move)" : "Confirm move";
  show("resign", human && driver.can(ActionKind.RESIGN));
  show("accept-resign", s.phase === "resign-offered" && human);
  show("reject-resign", s.phase === "resign-offered" && human);
  show("next-game", s.phase === "game-over" || s.phase === "start");
  const claimer = claimant();
  show("claim-timeout", claimer !== undefined);
  if (claimer !== undefined) $("claim-timeout").textContent = `${sideName(claimer)}: claim timeout`;

  $("actions").hidden = false;
  const status = $("status");
  status.classList.toggle("over", s.phase === "game-over" || s.phase === "match-over");
  if (s.outcome && (s.phase === "game-over" || s.phase === "match-over")) {
    const kind = s.outcome.kind === ResultKind.GAMMON ? (s.preset === "turkish" ? " (mars)" : " (gammon)")
      : s.outcome.kind === ResultKind.BACKGAMMON ? (s.preset === "turkish" ? " (katmerli mars)" : " (backgammon)") : "";
    const loser = sideName(s.outcome.winner === Side.WHITE ? Side.BLACK : Side.WHITE);
    const how = s.outcome.ending === GameEnding.DROP ? ` (${loser} drops)`
      : s.outcome.ending === GameEnding.RESIGNATION ? ` (${loser} resigns)`
      : s.outcome.ending === GameEnding.FORFEIT_GAME || s.outcome.ending === GameEnding.FORFEIT_MATCH ? ` (${loser} ran out of time)` : "";
    status.textContent = `${sideName(s.outcome.winner)} wins ${s.pointsScored} point${s.pointsScored === 1 ? "" : "s"}${kind}${how}` +
      (s.phase === "match-over" ? ` — ${sideName(s.matchWinner)} wins the match ${m.whiteScore}-${m.blackScore}` : "");
    $("actions").hidden = s.phase === "match-over";
  } else if (s.phase === "moving") {
    status.textContent = s.gele ? "Gele: no die enters from the bar." : s.complete
      ? (s.steps.length ? "Move complete: confirm it or undo a step." : "No legal move: pass.")
      : selected ? "Pick a highlighted destination." : "Pick a checker to move.";
  } else if (s.phase === "resign-offered") {
    const kind = s.resignation!.kind === ResultKind.GAMMON ? "a gammon" : s.resignation!.kind === ResultKind.BACKGAMMON ? "a backgammon" : "a single game";
    status.textContent = `${sideName(s.resignation!.side)} offers to resign ${kind}.`;
  } else {
    status.textContent = "";
  }
  status.hidden = !status.textContent;
  const log = $("log");
  log.replaceChildren(...s.log.slice(-40).map((line) => Object.assign(document.createElement("li"), { textContent: line })));
  log.scrollTop = log.scrollHeight;
}

board.onClick = onSpot;
$("setup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const preset = $<HTMLSelectElement>("preset").value as Preset;
  const length = Number($<HTMLSelectElement>("length").value);
  botPlays = $<HTMLSelectElement>("opponent").value === "bot";
  selected = undefined;
  void act(async () => {
    await driver.newMatch(preset, length, CLOCKS[$<HTMLSelectElement>("clock").value]);
    started = true;
  });
});
$("roll").onclick = () => void act(() => driver.roll());
$("double").onclick = () => void act(() => driver.double());
$("take").onclick = () => void act(() => driver.answerDouble(true));
$("drop").onclick = () => void act(() => driver.answerDouble(false));
$("undo").onclick = () => { selected = undefined; void act(() => driver.undo()); };
$("confirm").onclick = () => { selected = undefined; void act(() => driver.confirm()); };
$("resign").onclick = () => void act(() => driver.offerResignation(ResultKind.SINGLE));
$("claim-timeout").onclick = () => void act(() => driver.claimTimeout(claimant()!));
$("accept-resign").onclick = () => void act(() => driver.answerResignation(true));
$("reject-resign").onclick = () => void act(() => driver.answerResignation(false));
$("next-game").onclick = () => void act(() => driver.startGame());
document.body.dataset.busy = "0";
render();
// The clock line ticks. A turn past its move time may have run out: ask ListActions again every
// 5 s, which then offers the other side CLAIM_TIMEOUT (R23, R24; the bot claims at once).
let ticks = 0;
setInterval(() => {
  if (!started || busy) return;
  $("clock-white").textContent = clockText(Side.WHITE);
  $("clock-black").textContent = clockText(Side.BLACK);
  const s = driver.state;
  if (++ticks % 5 || s.clockPreset === ClockPreset.UNSPECIFIED || !s.turnStartedMs || Date.now() - s.turnStartedMs < durationMs(s.game.clock?.settings?.moveTime)) return;
  if (s.phase === "game-over" || s.phase === "match-over" || claimant() !== undefined) return;
  void act(() => driver.refresh());
}, 1000);
