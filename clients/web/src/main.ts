// The page: setup, board, side panel. It reads the driver's state and turns taps, drags and
// keys into driver calls (each one an Act on the signed state); the computer (bot.ts) plays
// black when chosen, or two players share the device (the board turned to the side on roll when
// asked). The hint and the review ask the analysis (analysis.ts). Every string comes from i18n.ts; the match is kept in localStorage
// (storage.ts) after every answer and resumed on load.
//
// The engine is the page's own origin (tavla-engine serve --http-port 8080 --web-dir ...), or
// `?engine=https://engine.example.com` (that server must list this page's origin in
// --cors-origins). `?delay=ms` sets the computer's pause between actions (default 350),
// `?pause=ms` the pause before a forced move or pass (default 700), `?slide=ms` how long a
// checker slides (default 320), `?debug=1` exposes `window.tavlaDebug` for the browser test.
import {
  ActionKind,
  ClockPreset,
  GameEnding,
  PositionSchema,
  ResultKind,
  Side,
  boardOf,
  createWebEngineClient,
  engineError,
  fromJson,
  sameDirection,
  type ReviewedDecision,
  type RulesetPreset,
  type VariantTable,
} from "@tavla-engine/client/web";

import { decisionView, hint, review, reviewable, type Hint, type Review, type ReviewProgress, type ShownDecision } from "./analysis.js";
import { Board, otherPoint, spotOf as spotIn, type Arrow, type Highlights } from "./board.js";
import { Bot, type Level } from "./bot.js";
import { clockLines } from "./clock.js";
import { GameDriver, type JsonValue, type LogEntry } from "./driver.js";
import { lang, setLang, t, type Key, type Lang } from "./i18n.js";
import { exportMat, type MatFile } from "./matfile.js";
import * as storage from "./storage.js";

const params = new URLSearchParams(location.search);
const engineUrl = params.get("engine") ?? location.origin;
const num = (name: string, fallback: number) => (params.has(name) ? Number(params.get(name)) : fallback);
const botDelay = num("delay", 350);
const forcedPause = num("pause", 700);
// the locale of the service's player messages (google.rpc.LocalizedMessage) follows the page
type Interceptor = NonNullable<NonNullable<Parameters<typeof createWebEngineClient>[1]>["interceptors"]>[number];
const localeHeader: Interceptor = (next) => (req) => {
  req.header.set("x-tavla-locale", lang());
  return next(req);
};
const protocol = params.get("protocol") === "grpc-web" ? "grpc-web" : "connect";
const engine = createWebEngineClient(engineUrl, { protocol, interceptors: [localeHeader] });
// ExportMatch sends the whole record: in binary it is about a quarter of its JSON, so a long
// match stays under the server's request limit (--max-request-bytes, 64 KiB by default)
const exportEngine = createWebEngineClient(engineUrl, { protocol, useBinaryFormat: true, interceptors: [localeHeader] });

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const board = new Board($("board-area"));
board.slideMs = num("slide", 320);
const driver = new GameDriver(engine);
const bot = new Bot(engineUrl, () => ({ "x-tavla-locale": lang() }));
let started = false;
let botPlays = true; // black is the computer
let level: Level = "intermediate"; // a real opponent by default (AnalysisService's middle level)
let forcedOn = true;
let flipOn = true; // two players: the board turned to the side on roll
/** The hint shown: for the turn whose signed state it was asked in (gone with the next action). */
let hintShown: { state: string; hint?: Hint; error?: unknown } | undefined;
/** The review: running, done or failed, and the decision whose position the board shows. */
let reviewState: { progress?: ReviewProgress; abort: AbortController; result?: Review; error?: unknown; variant?: boolean; shown?: ShownDecision } | undefined;
let selected: string | undefined;
let busy = false;
let note: Key | undefined; // a passing status line ("playing the forced move…")
let notice: Key | undefined; // a notice that stays NOTICE_MS whatever else happens ("match resumed")
let noticeTimer: ReturnType<typeof setTimeout> | undefined;
/** How long a notice stays up: long enough to be read. */
const NOTICE_MS = 4000;
let announced = 0; // log lines already announced to a screen reader
let humanStepped = false; // the human made a step this turn (then nothing is played for them)
let presets: readonly RulesetPreset[] = [];
/** Every variant's facts (ListRulesets, read once at boot; the driver reads the same kept table). */
let variants: VariantTable | undefined;

const CLOCKS: Record<string, ClockPreset> = {
  reserve: ClockPreset.RESERVE, extensions: ClockPreset.EXTENSIONS, none: ClockPreset.UNSPECIFIED,
};
const CLOCK_HELP: Record<string, Key> = { reserve: "clockHelpReserve", extensions: "clockHelpExtensions", none: "clockHelpNone" };

/** A side's name; against the computer with "(you)" / "(computer)". */
const sideName = (s: Side): string => (s === Side.WHITE ? t("white") : s === Side.BLACK ? t("black") : "-");
// The match result reads as players say it: the winner's score first ("wins the match 7-3").
const wonMatchWords = (winner: Side, white: number, black: number): Record<string, string | number> =>
  ({ side: sideName(winner), won: winner === Side.BLACK ? black : white, lost: winner === Side.BLACK ? white : black });
const who = (s: Side): string => sideName(s) + (botPlays ? ` (${t(isBot(s) ? "computer" : "you")})` : "");

/** The side whose decision the game waits for (the state's side_to_act; unset between games). */
const actor = (): Side => driver.state.sideToAct;
const mover = (): Side => driver.state.position.onRoll;
// `?bots=2` (tests, demos): the computer plays white too
const bothBots = params.get("bots") === "2";
const isBot = (side: Side) => botPlays && (side === Side.BLACK || bothBots);
// the browser test holds the computer between actions (tavlaDebug.hold) to look at a position
const hold = { on: false, waiting: false }; // waiting: the computer stands at the hold
/** The facts of the variant called `name`; throws for a name ListRulesets did not list, or before it answered. */
function factsOf(name: string) {
  if (!variants) throw new Error(`no facts of variant ${JSON.stringify(name)}: ListRulesets has not answered`);
  return variants.facts(name);
}
/** Whether both sides move the same way round the board (the variant's direction, ListRulesets). */
const same = (): boolean => started && !!driver.state.variant && sameDirection(driver.state.variant);
/** The spot of point `p` in `side`'s numbering, in the match's variant. */
const spotOf = (side: Side, p: number): string => spotIn(side, p, same());
const over = () => driver.state.phase === "game-over" || driver.state.phase === "match-over";
/** The numbering the point labels use: white's against the computer, the mover's between two players. */
const labels = (): Side => (botPlays ? Side.WHITE : driver.state.position.onRoll);
/** The numbering a move of `side` is written in once played (the log, the review): the labels it
 * was played under, so that a line reads the same whoever is to move later. */
const playedIn = (side: Side): Side => (botPlays ? Side.WHITE : side);
/** Two players with the flip on: the board is drawn from black's side while black is to act (or on roll). */
const flipFor = (side: Side): boolean => !botPlays && flipOn && side === Side.BLACK;
const flipped = (): boolean => started && flipFor(actor() || mover());
/** A human side that may claim the other side's timeout (ListActions lists it once time is up). */
const claimant = (): Side | undefined =>
  [Side.WHITE, Side.BLACK].find((side) => !isBot(side) && driver.can(ActionKind.CLAIM_TIMEOUT, side));

/**
 * The error shown: the failed call's error, and for a refusal whose reason is the service's, a
 * way to ask the same question again (nothing taken from the answer) in another language.
 */
interface ShownError {
  e: unknown;
  again?: () => Promise<void>;
}
let shownError: ShownError | undefined;

/** The codes of a call that never got the engine's answer (network down, server gone, too slow). */
const NO_ANSWER = new Set(["UNAVAILABLE", "UNKNOWN", "DEADLINE_EXCEEDED", "CANCELED"]);

/**
 * The message of a failed call in the page's language: the service's player message
 * (LocalizedMessage) when it is in this language, the page's own words for a call that got no
 * answer (never the browser's "Failed to fetch"), else the page's word for a refusal.
 */
function describeError(e: unknown): string {
  const err = engineError(e);
  if (err.localized && (!err.locale || err.locale.toLowerCase().startsWith(lang()))) return err.localized;
  if (NO_ANSWER.has(err.code)) return t("engineDown");
  return t("refused");
}

function showError(e: unknown, again?: () => Promise<void>): void {
  shownError = { e, again };
  renderError();
}

function clearError(): void {
  shownError = undefined;
  renderError();
}

function renderError(): void {
  const box = $("error");
  box.hidden = !shownError;
  box.textContent = shownError ? describeError(shownError.e) : "";
  box.dataset.code = shownError ? engineError(shownError.e).code : ""; // the raw failure, for debugging
}

/** After a language switch: a refusal whose reason is the service's is asked again in the new language. */
async function relocaliseError(): Promise<void> {
  const shown = shownError;
  if (!shown?.again || !engineError(shown.e).localized) return;
  try {
    await shown.again();
  } catch (e) {
    if (shownError === shown) shownError = { e, again: shown.again };
  }
  renderError();
}

/** A notice that stays up NOTICE_MS (a status line would be gone with the next answer). */
function showNotice(key: Key): void {
  notice = key;
  const now = Date.now(); // before the timer: it cannot end before now + NOTICE_MS
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    notice = undefined;
    render();
  }, NOTICE_MS);
  document.body.dataset.noticeShown = String(now); // for tests: when, and until when
  document.body.dataset.noticeUntil = String(now + NOTICE_MS);
}

/** Run one user action: guard against double clicks, show errors, redraw, then let the computer and forced play act. */
async function act(action: () => Promise<void>, again?: () => Promise<void>): Promise<boolean> {
  if (busy) return false;
  busy = true;
  document.body.dataset.busy = "1";
  clearError();
  hintShown = undefined; // the hint was for the turn as it stood
  if (reviewState) reviewState.shown = undefined; // back to the game's board
  let ok = true;
  try {
    await action();
    answered();
    await autoTurns();
  } catch (e) {
    ok = false;
    showError(e, again);
  } finally {
    busy = false;
    note = undefined;
    document.body.dataset.busy = "0";
    render();
  }
  return ok;
}

/** After every answer: redraw, slide the checker that moved, keep the match. */
function answered(slide = true): void {
  render();
  const step = driver.state.lastStep;
  if (slide && step) {
    board.slide({
      side: step.side, from: spotOf(step.side, step.from), to: spotOf(step.side, step.to),
      hit: step.hit ? `bar-${step.side === Side.WHITE ? "black" : "white"}` : undefined, under: step.pinnedUnder ? 1 : 0,
    }, step.countBefore);
  }
  storage.save({ match: driver.saved(), botPlays, level, forced: forcedOn, flip: flipOn, savedAt: Date.now() });
  announce();
}

/**
 * The log's new lines for a screen reader (an aria-live region): every roll (with its Turkish
 * name, R26), the computer's plays, doubles, resignations and results; not the plays the
 * player just made on the board.
 */
function announce(): void {
  const log = driver.state.log;
  const fresh = log.slice(announced).filter((e) => !(botPlays && !isBot(e.side ?? Side.UNSPECIFIED)
    && (e.key === "logPlay" || e.key === "logNoPlay")));
  announced = log.length;
  if (fresh.length) $("announce").textContent = fresh.map(logText).join(". ");
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The computer's turns, and the human's forced moves and passes when the option is on. */
async function autoTurns(): Promise<void> {
  for (;;) {
    const s = driver.state;
    if (!started || over()) return;
    const botClaims = botPlays && driver.can(ActionKind.CLAIM_TIMEOUT, Side.BLACK);
    if (isBot(actor()) || botClaims) {
      note = "statusBot";
      render();
      await pause(botDelay);
      while (hold.on) {
        hold.waiting = true;
        await pause(20);
      }
      hold.waiting = false;
      const side = botClaims ? Side.BLACK : actor();
      await driver.perform(await bot.choose(driver.state, side, level));
      answered();
      continue;
    }
    if (!forcedOn || s.phase !== "moving" || humanStepped || !s.forced) return;
    note = s.noMove ? "statusPassing" : "statusForced";
    render();
    document.body.dataset.autoPlayed = String(Number(document.body.dataset.autoPlayed ?? 0) + 1); // for tests
    await pause(forcedPause);
    if (s.complete && !s.nextSteps.length) {
      await driver.confirm();
      humanStepped = false;
    } else {
      const next = s.forcedSteps.find((f) => s.nextSteps.some((n) => n.fromPoint === f.fromPoint && n.toPoint === f.toPoint))
        ?? s.nextSteps[0];
      await driver.step(next.fromPoint, next.toPoint);
    }
    answered();
  }
}

/** A spot's point in `side`'s numbering (25 = bar, 0 = off). */
function pointOf(spot: string, side: Side): number {
  if (spot.startsWith("bar-")) return 25;
  if (spot.startsWith("off-")) return 0;
  const q = Number(spot);
  return side === Side.WHITE ? q : otherPoint(q, same());
}

const humanMoving = () => started && !busy && !reviewState?.shown && driver.state.phase === "moving" && !isBot(actor());

function highlights(sel = selected): Highlights {
  const s = driver.state;
  const hl: Highlights = { movable: new Set(), targets: new Set(), selected: sel };
  if (!started || s.phase !== "moving" || isBot(actor()) || reviewState?.shown) return hl;
  for (const st of s.nextSteps) {
    const from = spotOf(mover(), st.fromPoint);
    hl.movable.add(from);
    if (from === sel) hl.targets.add(spotOf(mover(), st.toPoint));
  }
  return hl;
}

function humanStep(from: string, to: string, slide: boolean): void {
  selected = undefined;
  humanStepped = true;
  void act(async () => {
    await driver.step(pointOf(from, mover()), pointOf(to, mover()));
    if (!slide) driver.state.lastStep = undefined; // the dragged checker is already there
  });
}

board.onTap = (spot) => {
  if (!humanMoving()) return;
  const hl = highlights();
  if (selected && hl.targets.has(spot)) return humanStep(selected, spot, true);
  selected = spot && hl.movable.has(spot) && selected !== spot ? spot : undefined;
  render();
};
board.canDrag = (spot) => humanMoving() && highlights().movable.has(spot);
board.onDragStart = (spot) => {
  selected = spot;
  render();
};
board.onDrop = (from, to) => {
  const legal = to !== undefined && highlights(from).targets.has(to);
  if (legal) return humanStep(from, to!, false);
  selected = undefined;
  render();
  board.snapBack(from);
  if (to === undefined || to === from) return;
  // the referee says why: the step is sent and refused with its reason (kapı, kırık pul, ...)
  const [a, b] = [pointOf(from, mover()), pointOf(to, mover())];
  void act(() => driver.tryStep(a, b), () => driver.explainStep(a, b)).then((ok) => {
    if (ok || $("error").hidden) return;
    document.body.dataset.illegal = `${from}>${to}`;
  });
};

// --- the panel ----------------------------------------------------------------------------

/** A move in the mover's numbering shown in the board's: points 1-24 become the other side's number (25 - p, or ((p + 11) mod 24) + 1 when both sides move the same way) when they differ. */
function inLabels(move: string, moverSide: Side, labelSide: Side = labels()): string {
  if (moverSide === labelSide || moverSide === Side.UNSPECIFIED) return move;
  const sameWay = same();
  return move.replace(/(^|[\s/])(\d+)(?=[/*\s(]|$)/g, (m, pre: string, p: string) => {
    const n = Number(p);
    return n >= 1 && n <= 24 ? `${pre}${otherPoint(n, sameWay)}` : m;
  });
}

const KIND_KEYS: Record<number, Key> = { [ResultKind.SINGLE]: "single", [ResultKind.GAMMON]: "gammon", [ResultKind.BACKGAMMON]: "backgammon" };

/** A result kind's name: in Turkish always mars / katmerli mars; in English the Turkish names for Turkish tavla. */
function kindName(kind: ResultKind): string {
  if (lang() === "en" && driver.state?.preset === "turkish") {
    if (kind === ResultKind.GAMMON) return t("gammonMars");
    if (kind === ResultKind.BACKGAMMON) return t("backgammonKatmerli");
  }
  return t(KIND_KEYS[kind] ?? "single");
}

/** The match lengths the setup offers: the preset's (ListRulesets) or, where any goes, these (R18). */
const LENGTHS = [1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25];

function logText(e: LogEntry): string {
  const p: Record<string, string | number> = { ...e.params };
  if (e.kind !== undefined && e.key === "logResign") p.kind = kindName(e.kind);
  if (e.side !== undefined) p.side = sideName(e.side);
  if (e.move !== undefined) p.move = e.side === undefined ? e.move : inLabels(e.move, e.side, playedIn(e.side));
  else if (e.kind !== undefined) p.kind = t(KIND_KEYS[e.kind] ?? "single");
  return t(e.key, p) + (e.tail ? logText(e.tail) : "");
}

function presetLabel(name: string): string {
  if (name === "turkish") return t("presetTurkish");
  if (name === "international") return t("presetInternational");
  const p = presets.find((x) => x.name === name);
  // the variant's display name (ListRulesets); in Turkish with the international name beside
  // a Turkish one that does not say it ("Mahbusa (Plakoto)")
  if (p && lang() === "tr" && p.titleTr) return p.titleTr.includes("(") || !p.title ? p.titleTr : `${p.titleTr} (${p.title})`;
  if (p?.title) return p.title;
  return p ? p.name.charAt(0).toUpperCase() + p.name.slice(1).replace(/[_-]/g, " ") : name;
}

/** The setup's variant picker: what ListRulesets lists (new presets appear by themselves). */
function fillPresets(): void {
  const select = $<HTMLSelectElement>("preset");
  if (!presets.length) return;
  const value = select.value;
  select.replaceChildren(...presets.map((p) => {
    const o = document.createElement("option");
    o.value = p.name;
    o.textContent = presetLabel(p.name);
    o.title = p.description;
    return o;
  }));
  select.value = presets.some((p) => p.name === value) ? value : presets[0].name;
  fillLengths();
}

/** The setup's lengths: those the selected preset allows (Turkish tavla 1-11, R18), else LENGTHS. */
function fillLengths(): void {
  const select = $<HTMLSelectElement>("length");
  const p = presets.find((x) => x.name === $<HTMLSelectElement>("preset").value);
  const allowed = p?.ruleset?.matchLengths?.lengths.length ? [...p.ruleset.matchLengths.lengths] : LENGTHS;
  const have = [...select.options].map((o) => Number(o.value));
  if (have.join() === allowed.join()) return;
  const value = Number(select.value) || 3;
  select.replaceChildren(...allowed.map((n) => Object.assign(document.createElement("option"), { value: String(n), textContent: String(n) })));
  select.value = String(allowed.includes(value) ? value : allowed.includes(3) ? 3 : allowed[0]);
}

/** The page's fixed strings in the current language. */
function applyStatic(): void {
  document.documentElement.lang = lang();
  document.title = t("title");
  for (const e of document.querySelectorAll<HTMLElement>("[data-i18n]")) e.textContent = t(e.dataset.i18n as Key);
  $<HTMLSelectElement>("lang").value = lang();
  $("log").setAttribute("aria-label", t("logLabel"));
  fillPresets();
  $("clock-help").textContent = t(CLOCK_HELP[$<HTMLSelectElement>("clock").value]);
  $("level-box").hidden = $<HTMLSelectElement>("opponent").value !== "bot";
  renderLevelNote();
  $("flip-box").hidden = $<HTMLSelectElement>("opponent").value !== "human";
}

/** Beside the level picker, for a variant the server plays with its search player
 * (ListRulesets' `VariantFacts.analysis`, docs/analysis.md#variants-without-a-net): the search
 * player, its depth at the level, its measured strength. */
function renderLevelNote(): void {
  const note = $("level-note");
  const p = presets.find((x) => x.name === $<HTMLSelectElement>("preset").value);
  const lv = $<HTMLSelectElement>("level").value;
  const bot = $<HTMLSelectElement>("opponent").value === "bot" && lv !== "random";
  const searched = p && bot && p.variant?.analysis === "search" ? p : undefined;
  note.hidden = !searched;
  note.textContent = searched ? t(lv === "expert" ? "levelSearchDeep" : "levelSearch", { rules: presetLabel(searched.name) }) : "";
}

function show(id: string, visible: boolean, enabled = true): void {
  const b = $<HTMLButtonElement>(id);
  b.hidden = !visible;
  b.disabled = !enabled || busy;
}

function renderClock(): void {
  const c = clockLines(driver.state, Date.now(), who);
  $("clock-white").textContent = c.white;
  $("clock-black").textContent = c.black;
  $("clock-line").hidden = !c.white;
  const warn = $("clock-warn");
  warn.hidden = !c.warning;
  $("clock-warn-text").textContent = c.warning ?? "";
  // a screen reader hears the warning once when it appears, not every second of the countdown
  const sr = $("clock-warn-sr");
  if (!c.warning) sr.textContent = "";
  else if (!sr.textContent) sr.textContent = c.warning;
  document.body.dataset.clockWarning = c.warning ? "1" : "0";
}

/** The resign picker: the kinds the referee lists for the side to act (single, gammon/mars, backgammon/katmerli mars). */
function renderResignKinds(kinds: ResultKind[]): void {
  const select = $<HTMLSelectElement>("resign-kind");
  select.hidden = kinds.length < 2;
  select.disabled = busy;
  select.setAttribute("aria-label", t("resignKind"));
  const value = select.value;
  select.replaceChildren(...kinds.map((k) => Object.assign(document.createElement("option"), { value: String(k), textContent: kindName(k) })));
  if (kinds.map(String).includes(value)) select.value = value;
}

function render(): void {
  applyStatic();
  for (const id of ["score", "info", "actions", "log"]) $(id).hidden = !started;
  if (!started) {
    board.render({ hl: { movable: new Set(), targets: new Set() }, dice: { values: [], left: [] }, labels: Side.WHITE });
    $("status").textContent = t("intro");
    $("status").hidden = false;
    $("clock-warn").hidden = true;
    return;
  }
  const s = driver.state;
  const m = s.match;
  const cube: { value: number; owner: Side; offeredBy?: Side } = s.endCube ?? m.cube ?? { value: 1, owner: Side.UNSPECIFIED };
  document.body.dataset.phase = s.phase;
  document.body.dataset.side = s.sideToAct === Side.WHITE ? "white" : s.sideToAct === Side.BLACK ? "black" : "-";
  // for tests and debugging: what the engine is asked about this turn
  document.body.dataset.positionId = s.turnStart.ids?.positionId ?? "";
  document.body.dataset.onRoll = s.turnStart.onRoll === Side.BLACK ? "black" : "white";
  document.body.dataset.dice = s.dice.join(",");
  document.body.dataset.diceLeft = s.diceLeft.join(",");
  document.body.dataset.state = driver.signedJson();
  document.body.dataset.record = driver.recordJson(); // the match's record, kept from Act's events
  document.body.dataset.steps = JSON.stringify(s.steps.map((st) => ({ from_point: st.fromPoint, to_point: st.toPoint, die: st.die })));
  const shown = reviewState?.shown;
  if (shown) {
    // a reviewed decision, read-only: its position, its roll, the played move red, the better green
    const d = shown.decision;
    const arrows = [...movesAsArrows(d.side, shown.played, "played"), ...movesAsArrows(d.side, shown.best, "best")];
    board.render({
      position: shown.position, hl: highlights(), dice: { values: d.dice.length === 2 ? [...d.dice] : [], left: [...d.dice] },
      labels: botPlays ? Side.WHITE : d.side, same: same(), flip: flipFor(d.side), arrows,
    });
  } else {
    const best = hintShown?.hint?.moves[0];
    board.render({
      position: s.position, hl: highlights(), dice: { values: s.phase === "moving" ? s.dice : [], left: s.diceLeft },
      cube: s.cubeInPlay ? {
        value: Math.max(cube.value, 1), owner: cube.owner, offered: s.phase === "double-offered" ? Math.max(cube.value, 1) * 2 : undefined,
      } : undefined,
      labels: labels(), same: same(), flip: flipped(),
      arrows: best && s.phase === "moving" ? movesAsArrows(mover(), best.checkerMoves, "best") : undefined,
    });
  }
  document.body.dataset.reviewShown = shown ? `${shown.decision.game}/${shown.decision.moveNumber}/${shown.decision.side}` : "";
  const extra = [m.crawford ? t("crawford") : "", m.postCrawford ? t("postCrawford") : ""].filter(Boolean).join(", ");
  $("score").replaceChildren(
    t("score", { white: sideName(Side.WHITE), ws: m.whiteScore, black: sideName(Side.BLACK), bs: m.blackScore }),
    Object.assign(document.createElement("small"), {
      textContent: t("matchLine", { preset: presetLabel(s.preset), length: m.length }) + (extra ? ` (${extra})` : ""),
    }));
  const turn: Record<string, string> = {
    start: t("turnNew"), "to-roll": t("turnRoll", { side: who(actor()) }), moving: t("turnMove", { side: who(actor()) }),
    "double-offered": t("turnDouble", { side: who(actor()) }), "resign-offered": t("turnResign", { side: who(actor()) }),
    "game-over": t("gameOver"), "match-over": t("matchOver"),
  };
  $("turn").textContent = turn[s.phase];
  const moving = s.phase === "moving";
  $("dice").textContent = moving ? t("dice", { dice: s.dice.join("-") }) : "";
  $("dice-name").textContent = moving && s.diceName ? `“${s.diceName.turkish}”` : "";
  $("gele").textContent = moving && s.gele ? t("gele") : "";
  $("dice-line").hidden = !moving;
  const pips = (side: Side) => t("pips", { side: sideName(side), n: (side === Side.WHITE ? boardOf(s.position)?.white : boardOf(s.position)?.black)?.pipCount ?? "-" });
  $("pips").textContent = `${pips(Side.WHITE)} · ${pips(Side.BLACK)}`;
  const value = Math.max(cube.value, 1);
  $("cube-line").textContent = !s.cubeInPlay ? (s.preset === "turkish" ? t("noCube") : t("noCubeVariant", { rules: presetLabel(s.preset) }))
    : s.endCube ? t("cubeEnded", { value })
    : (cube.owner ? t("cubeOwned", { value, side: sideName(cube.owner) }) : t("cubeCentred", { value }))
      + (cube.offeredBy ? ` — ${t("cubeOffered", { side: sideName(cube.offeredBy), value: value * 2 })}` : "");
  renderClock();

  const human = !isBot(actor()) && !note;
  show("roll", s.phase === "to-roll" && human);
  show("double", s.phase === "to-roll" && human && s.cubeInPlay, s.canDouble);
  show("take", s.phase === "double-offered" && human);
  show("drop", s.phase === "double-offered" && human);
  show("undo", moving && human, s.steps.length > 0);
  show("confirm", moving && human && !(forcedOn && s.noMove), s.complete);
  $("confirm").textContent = s.complete && s.steps.length === 0 ? t("pass") : t("confirm");
  const kinds = [...new Set(s.actions.filter((a) => a.kind === ActionKind.RESIGN && a.side === actor() && a.detail.case === "resignKind")
    .map((a) => a.detail.value as ResultKind))];
  show("resign", human && kinds.length > 0);
  renderResignKinds(human ? kinds : []);
  show("accept-resign", s.phase === "resign-offered" && human);
  show("reject-resign", s.phase === "resign-offered" && human);
  show("next-game", s.phase === "game-over" || s.phase === "start");
  show("download", s.phase === "match-over");
  // the hint: before the turn's first step, when the page does not play the turn by itself
  show("hint", moving && human && !shown && !(forcedOn && s.forced) && s.nextSteps.length > 0 && s.steps.length === 0
    && hintShown?.state !== driver.signedJson());
  show("review", over() && !(reviewState && !reviewState.result && !reviewState.error && !reviewState.variant));
  renderHint();
  renderReview();
  const claimer = claimant();
  show("claim-timeout", claimer !== undefined);
  if (claimer !== undefined) $("claim-timeout").textContent = t("claimTimeout", { side: sideName(claimer) });
  // no empty box: the actions panel shows only with a button in it
  $("actions").hidden = ![...$("actions").querySelectorAll("button")].some((b) => !b.hidden);

  const status = $("status");
  status.classList.toggle("over", over());
  if (s.outcome && over()) {
    // Turkish says mars and katmerli mars whatever the variant; English for Turkish tavla too
    const turkish = s.preset === "turkish" || lang() === "tr";
    const kind = s.outcome.kind === ResultKind.GAMMON ? t(turkish ? "kindMars" : "kindGammon")
      : s.outcome.kind === ResultKind.BACKGAMMON ? t(turkish ? "kindKatmerli" : "kindBackgammon") : "";
    const loser = sideName(s.outcome.winner === Side.WHITE ? Side.BLACK : Side.WHITE);
    const drawn = !s.outcome.winner; // plakoto: both mothers pinned (GAME_ENDING_DRAW)
    const how = s.outcome.ending === GameEnding.DROP ? t("howDrop", { side: loser })
      : s.outcome.ending === GameEnding.RESIGNATION ? t("howResign", { side: loser })
      : s.outcome.ending === GameEnding.FORFEIT_GAME || s.outcome.ending === GameEnding.FORFEIT_MATCH ? t("howTime", { side: loser })
      : s.outcome.ending === GameEnding.MOTHER_PINNED ? t("howMother", { side: loser }) : "";
    // a mars worth more than the match still needed: say so, not "1 point (mars)" (R18)
    const capped = !drawn && s.outcome.kind !== ResultKind.SINGLE && s.outcome.kind !== ResultKind.UNSPECIFIED
      && s.outcome.points > s.pointsScored && s.phase === "match-over";
    const won = capped ? t("wonCapped", { side: sideName(s.outcome.winner), points: s.pointsScored, kind: kindName(s.outcome.kind), how })
      : t("won", { side: sideName(s.outcome.winner), points: s.pointsScored, kind, how });
    status.textContent = (drawn ? t("draw") : won) +
      (s.phase === "match-over" ? t("wonMatch", wonMatchWords(s.matchWinner, m.whiteScore, m.blackScore)) : "");
  } else if (note) {
    status.textContent = t(note);
  } else if (isBot(actor())) {
    status.textContent = t("statusBot");
  } else if (moving) {
    status.textContent = s.gele ? t("statusGele") : s.complete
      ? (s.steps.length ? t("statusComplete") : t("statusNoMove"))
      : selected ? t("statusTarget") : t("statusPick");
  } else if (s.phase === "resign-offered") {
    status.textContent = t("statusResign", { side: sideName(s.resignation!.side), kind: kindName(s.resignation!.kind) });
  } else {
    status.textContent = "";
  }
  status.hidden = !status.textContent;
  $("notice").textContent = notice ? t(notice) : "";
  $("notice").hidden = !notice;
  const log = $<HTMLOListElement>("log");
  log.start = Math.max(1, s.log.length - 39); // the lines keep their numbers when the oldest go
  log.replaceChildren(...s.log.slice(-40).map((e) => Object.assign(document.createElement("li"), { textContent: logText(e) })));
  log.hidden = !s.log.length;
  log.scrollTop = log.scrollHeight;
}

// --- the hint and the review ---------------------------------------------------------------

/** A move's checker moves (the mover's numbering) as board arrows. */
function movesAsArrows(side: Side, moves: { fromPoint: number; toPoint: number }[], tone: Arrow["tone"]): Arrow[] {
  return moves.map((m) => ({ side, from: spotOf(side, m.fromPoint), to: spotOf(side, m.toPoint), tone }));
}

const number = (x: number, digits: number) =>
  new Intl.NumberFormat(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
const signed = (x: number) => (x > 0 ? "+" : x < 0 ? "−" : "") + number(Math.abs(x), 3);
const percent = (x: number) => new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 1 }).format(x);
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...kids: (Node | string)[]) => {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...kids);
  return e;
};

/** The hint box: the top three moves with equity and chances (the best drawn on the board), or why there is none. */
function renderHint(): void {
  const box = $("hint-box");
  const h = hintShown;
  box.hidden = !h || !started || driver.state.phase !== "moving";
  if (box.hidden || !h) return box.replaceChildren();
  const close = el("button", { type: "button", className: "close", textContent: "×", title: t("hintClose"), ariaLabel: t("hintClose") });
  close.onclick = () => { hintShown = { state: h.state }; render(); };
  if (!h.hint && !h.error) return box.replaceChildren(el("p", { textContent: t("hintAsking") }));
  if (h.error) {
    const code = engineError(h.error).code;
    return box.replaceChildren(close, el("p", { textContent: code === "UNIMPLEMENTED" || code === "NOT_FOUND" ? t("hintNone") : describeError(h.error) }));
  }
  const hnt = h.hint!;
  const items = hnt.moves.map((m, i) => el("li", { className: i === 0 ? "best" : "" },
    el("strong", { textContent: inLabels(m.notation, mover()) || "—" }), " ",
    el("span", { className: "figures", textContent: hnt.search
      ? t("hintFiguresSearch", { equity: signed(m.equity), win: percent(m.win) })
      : t("hintFigures", { equity: signed(m.equity), win: percent(m.win), gammon: percent(m.gammon) }) })));
  box.replaceChildren(close, el("h2", { textContent: t("hintTitle", { dice: hnt.dice.join("-") }) }), el("ol", {}, ...items),
    ...(hnt.search ? [el("p", { className: "note", textContent: t("hintSearch", { rules: presetLabel(driver.state.preset) }) })] : []));
  box.dataset.moves = String(hnt.moves.length);
}

async function askHint(): Promise<void> {
  const state = driver.signedJson();
  hintShown = { state };
  render();
  try {
    const h = await hint(engine, driver.state);
    if (hintShown?.state === state) hintShown.hint = h;
  } catch (e) {
    if (hintShown?.state === state) hintShown.error = e;
  }
  render();
}

/** AnalyzeMatch's words for a cube decision, in the page's language. */
const CUBE_WORDS: Record<string, Key> = { double: "reviewDouble", "no double": "reviewNoDouble", take: "reviewTake", drop: "reviewDrop" };

/** The review box: the server's progress (decisions judged of all) while the review runs, then each side's figures and worst moves (each opens its position). */
function renderReview(): void {
  const box = $("review-box");
  const r = reviewState;
  box.hidden = !r || !started;
  document.body.dataset.review = !r ? "" : r.result ? "done" : r.error || r.variant ? "failed" : "running";
  if (!r || !started) return box.replaceChildren();
  const close = el("button", { type: "button", id: "review-close", textContent: t("reviewClose") });
  close.onclick = () => closeReview();
  if (r.variant) {
    box.dataset.code = "VARIANT";
    return box.replaceChildren(el("p", { className: "review-error", textContent: t("reviewVariant", { rules: presetLabel(driver.state.preset) }) }), close);
  }
  if (!r.result && !r.error) {
    // the server's own count of decisions judged; before its first message, no number at all
    const p = r.progress;
    const text = p ? t("reviewProgress", { n: p.done, total: p.total, game: p.game, games: p.games }) : t("reviewRunning");
    const bar = el("progress", { ariaLabel: text });
    if (p) Object.assign(bar, { max: p.total, value: p.done });
    return box.replaceChildren(el("p", { id: "review-progress", textContent: text }), bar);
  }
  if (r.error) {
    const code = engineError(r.error).code;
    const text = code === "DEADLINE_EXCEEDED" ? t("reviewTimeout") : code === "RESOURCE_EXHAUSTED" ? t("reviewBusy") : describeError(r.error);
    box.dataset.code = code;
    return box.replaceChildren(el("p", { className: "review-error", role: "alert", textContent: text }), close);
  }
  const res = r.result!;
  const kids: Node[] = [el("h2", { textContent: t("reviewTitle", { games: res.games }) })];
  for (const side of res.sides) {
    kids.push(el("h3", { textContent: t("reviewSide", { side: who(side.side), rate: number(side.errorRate, 1), pr: number(side.pr, 1), moves: side.moves }) }));
    if (!side.worst.length) {
      kids.push(el("p", { className: "note", textContent: t("reviewNoErrors") }));
      continue;
    }
    const said = (text: string, d: ReviewedDecision) => CUBE_WORDS[text] ? t(CUBE_WORDS[text]) : inLabels(text, d.side, playedIn(d.side));
    kids.push(el("ol", { className: "worst", ariaLabel: t("reviewWorst") }, ...side.worst.map((d) => {
      const params = { game: d.game, n: d.moveNumber, dice: d.dice.join("-"), played: said(d.played, d) || "—",
        best: said(d.best, d), error: number(d.error, 3) };
      const b = el("button", { type: "button", textContent: t(d.dice.length ? "reviewItem" : "reviewCubeItem", params) });
      b.dataset.decision = `${d.game}/${d.moveNumber}/${d.side}`;
      const open = r.shown?.decision === d;
      b.classList.toggle("open", open);
      b.setAttribute("aria-pressed", String(open));
      b.onclick = () => void showDecision(d);
      return el("li", {}, b);
    })));
  }
  if (r.shown) {
    const d = r.shown.decision;
    const ls = playedIn(d.side);
    kids.push(el("p", { id: "review-showing", textContent: t(d.dice.length ? "reviewShowing" : "reviewShowingCube", {
      game: d.game, n: d.moveNumber, side: sideName(d.side), dice: d.dice.join("-"),
      played: (CUBE_WORDS[d.played] ? t(CUBE_WORDS[d.played]) : inLabels(d.played, d.side, ls)) || "—",
      best: CUBE_WORDS[d.best] ? t(CUBE_WORDS[d.best]) : inLabels(d.best, d.side, ls) }) }));
    const back = el("button", { type: "button", id: "review-back", textContent: t("reviewBack") });
    back.onclick = () => { if (reviewState) reviewState.shown = undefined; render(); };
    kids.push(back);
  }
  kids.push(close);
  box.replaceChildren(...kids);
}

function closeReview(): void {
  reviewState?.abort.abort(); // a review still running stops on the server too
  reviewState = undefined;
  render();
}

async function startReview(): Promise<void> {
  reviewState?.abort.abort();
  const mine: NonNullable<typeof reviewState> = { abort: new AbortController() };
  reviewState = mine;
  render();
  const progress = (p: ReviewProgress) => {
    mine.progress = p;
    if (reviewState === mine) renderReview();
  };
  try {
    if (!reviewable(driver.state)) mine.variant = true; // plakoto, fevga, long nardy: no GNU Position IDs
    else mine.result = await review(engine, driver.state.game.ruleset, (await matFile()).text, progress, mine.abort.signal); // the .mat the page downloads
  } catch (e) {
    if (reviewState !== mine) return; // closed: its cancellation is no error to show
    mine.error = e;
  }
  if (reviewState === mine) render();
  if (mine.result) $("review-box").scrollIntoView({ block: "nearest" });
}

async function showDecision(d: ShownDecision["decision"]): Promise<void> {
  const r = reviewState;
  if (!r) return;
  try {
    const shown = await decisionView(engine, driver.state.game.ruleset, d);
    if (reviewState === r) r.shown = shown;
  } catch (e) {
    showError(e);
  }
  render();
}

// --- setup, buttons, storage -------------------------------------------------------------

async function startMatch(clock?: Record<string, unknown>): Promise<void> {
  const preset = $<HTMLSelectElement>("preset").value;
  const length = Number($<HTMLSelectElement>("length").value);
  botPlays = $<HTMLSelectElement>("opponent").value === "bot";
  level = $<HTMLSelectElement>("level").value as Level;
  forcedOn = $<HTMLInputElement>("forced").checked;
  flipOn = $<HTMLInputElement>("flip").checked;
  hintShown = undefined;
  closeReview();
  selected = undefined;
  humanStepped = false;
  announced = 0;
  storage.clear();
  await act(async () => {
    await driver.newMatch(preset, length, CLOCKS[$<HTMLSelectElement>("clock").value], clock);
    started = true;
    $<HTMLDetailsElement>("setup-box").open = false; // the board gets the screen
  });
}

$("setup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (started && !(driver.state.phase === "match-over")) {
    // a new match never silently discards the one in progress
    const dialog = $<HTMLDialogElement>("discard");
    dialog.returnValue = "";
    dialog.showModal();
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "yes") void startMatch();
    }, { once: true });
    return;
  }
  void startMatch();
});
$("lang").addEventListener("change", () => {
  setLang($<HTMLSelectElement>("lang").value as Lang);
  render();
  renderError();
  void relocaliseError();
});
$("preset").addEventListener("change", () => { fillLengths(); renderLevelNote(); });
$("level").addEventListener("change", () => renderLevelNote());
$("clock").addEventListener("change", () => render());
$("opponent").addEventListener("change", () => render());
$("flip").addEventListener("change", () => {
  flipOn = $<HTMLInputElement>("flip").checked;
  if (started) storage.save({ match: driver.saved(), botPlays, level, forced: forcedOn, flip: flipOn, savedAt: Date.now() });
  render();
});
$("forced").addEventListener("change", () => {
  forcedOn = $<HTMLInputElement>("forced").checked;
  if (started) void act(async () => {});
});
$("roll").onclick = () => { humanStepped = false; void act(() => driver.roll()); };
$("double").onclick = () => void act(() => driver.double());
$("take").onclick = () => void act(() => driver.answerDouble(true));
$("drop").onclick = () => void act(() => driver.answerDouble(false));
$("undo").onclick = () => { selected = undefined; void act(() => driver.undo()); };
$("confirm").onclick = () => { selected = undefined; humanStepped = false; void act(() => driver.confirm()); };
$("resign").onclick = () => {
  const kind = Number($<HTMLSelectElement>("resign-kind").value) as ResultKind;
  void act(() => driver.offerResignation(kind || ResultKind.SINGLE));
};
$("claim-timeout").onclick = () => void act(() => driver.claimTimeout(claimant()!));
$("accept-resign").onclick = () => void act(() => driver.answerResignation(true));
$("reject-resign").onclick = () => void act(() => driver.answerResignation(false));
$("next-game").onclick = () => { humanStepped = false; void act(() => driver.startGame()); };
$("hint").onclick = () => void askHint();
$("review").onclick = () => void startReview();
$("download").onclick = () => {
  clearError();
  downloadMat().catch((e) => showError(e));
};

/** The match as a .mat file, from the service's ExportMatch (matfile.ts; ValidateMatch and gnubg read it). */
async function matFile(): Promise<MatFile> {
  const s = driver.state;
  const rules = s.game.ruleset;
  // the server writes the rules' headers (Variation, Crawford, CubeLimit) from the signed state
  const headers: Record<string, string> = {
    Site: "tavla-engine web board", EventDate: new Date().toISOString().slice(0, 10).replace(/-/g, "."),
  };
  const ruleHeaders: Record<string, string> = { Variation: s.preset, Crawford: rules?.crawford ? "On" : "Off" };
  if (rules?.cube) ruleHeaders.CubeLimit = String(rules.cubeLimit || 64);
  const name = `tavla-${new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-")}.mat`;
  return exportMat(exportEngine, s.signed, s.record, s.match.length, headers, ruleHeaders, [t("white"), t("black")], name);
}

async function downloadMat(): Promise<void> {
  const file = await matFile();
  document.body.dataset.matBy = file.writtenBy; // for the browser test: the service wrote it
  const url = URL.createObjectURL(new Blob([file.text], { type: "text/plain;charset=utf-8" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: file.fileName });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The codes of an engine that answered and refused a kept state. */
const REFUSED = new Set(["INVALID_ARGUMENT", "FAILED_PRECONDITION", "PERMISSION_DENIED", "UNAUTHENTICATED"]);

async function boot(): Promise<void> {
  document.body.dataset.busy = "1";
  setLang(lang());
  try {
    variants = await engine.variants();
    presets = variants.presets;
    if (lang() === "tr" && presets.some((p) => p.name === "turkish")) $<HTMLSelectElement>("preset").value = "turkish";
  } catch (e) {
    showError(e); // the engine did not answer: say so now, not at the first move (the static list stays)
  }
  fillPresets();
  if (lang() === "tr" && presets.some((p) => p.name === "turkish")) $<HTMLSelectElement>("preset").value = "turkish";
  const kept = storage.load();
  if (kept) {
    botPlays = kept.botPlays;
    level = kept.level as Level;
    forcedOn = kept.forced;
    flipOn = kept.flip ?? true;
    $<HTMLInputElement>("flip").checked = flipOn;
    $<HTMLSelectElement>("opponent").value = botPlays ? "bot" : "human";
    $<HTMLSelectElement>("level").value = level;
    $<HTMLInputElement>("forced").checked = forcedOn;
    try {
      await driver.resume(kept.match);
      started = true;
      $<HTMLDetailsElement>("setup-box").open = false;
      $<HTMLSelectElement>("preset").value = driver.state.preset;
      fillLengths();
      announced = driver.state.log.length;
      showNotice("statusResumed");
    } catch (e) {
      // only a state the engine refused (new keys, another version) is dropped; a call cut off
      // (a reload while booting, the engine down) keeps the match for the next load
      if (REFUSED.has(engineError(e).code)) storage.clear();
      showError(e);
    }
  }
  document.body.dataset.busy = "0";
  render();
  document.body.dataset.ready = "1";
  document.body.dataset.readyMs = String(Math.round(performance.now())); // time to first interaction (bench-web)
  if (started) void act(async () => {}); // the computer goes on if it is its turn
}

// for the browser test: the driver, and a match with any clock (short ones, to see the warning)
if (params.get("debug") === "1") {
  Object.assign(window, {
    tavlaDebug: {
      driver, board, bot, matFile, hold,
      newMatch: (clock: Record<string, unknown>) => startMatch(clock),
      renderPosition: (position: JsonValue, cube: { value: number; owner: Side }, variant?: string) => board.render({
        position: fromJson(PositionSchema, position), hl: { movable: new Set(), targets: new Set() },
        dice: { values: [], left: [] }, cube, labels: Side.WHITE,
        same: variant !== undefined && sameDirection(factsOf(variant)),
      }),
    },
  });
}

void boot();
// The clock ticks. A turn past its move time may have run out: ask ListActions again every
// 5 s, which then offers the other side CLAIM_TIMEOUT (R23, R24; the computer claims at once).
let ticks = 0;
setInterval(() => {
  if (!started || busy) return;
  renderClock();
  const s = driver.state;
  if (++ticks % 5 || s.clockPreset === ClockPreset.UNSPECIFIED || !s.turnStartedMs || over()) return;
  if (Date.now() - s.turnStartedMs < clockFreeMs()) return;
  if (claimant() !== undefined) return;
  void act(() => driver.refresh());
}, 1000);

function clockFreeMs(): number {
  const d = driver.state.game.clock?.settings?.moveTime;
  return d ? Number(d.seconds) * 1000 + Math.round(d.nanos / 1e6) : 0;
}
