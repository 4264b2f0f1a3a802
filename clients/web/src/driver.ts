// The game driver: the one module that talks to the referee. The board UI (main.ts) reads
// `driver.state` and calls these methods; the computer opponent is bot.ts.
//
// It uses the referee (RefereeService: NewMatch / Act, docs/game-state.md), one round trip per
// action: the page holds only the SignedGameState the server last returned (sent back unchanged
// with every call), the GameView beside it (display only) and the legal actions the same answer
// listed; it keeps the game's record from each answer's events.records. The server rolls the
// dice, measures the clock and checks every action; the page offers exactly the actions listed.
// ListActions is called to refresh a state (a timeout may have become claimable) and to resume
// a saved one. The one other call is NameRoll, a lookup of a roll's Turkish name (R26), which
// the view does not carry.
import {
  ActionKind,
  ActionRecordSchema,
  ClockPreset,
  GameActionSchema,
  GameViewSchema,
  GamePhase,
  PositionSchema,
  ResultKind,
  Side,
  SignedGameStateSchema,
  boardOf,
  create,
  fromJson,
  sameDirection,
  toJson,
  type ActResponse,
  type ActionRecord,
  type CheckerMove,
  type ClockState,
  type GameAction,
  type GameEvents,
  type GameOutcome,
  type GameView,
  type MatchState,
  type Position,
  type RollName,
  type SignedGameState,
  type EngineClient,
  type VariantFacts,
} from "@tavla-engine/client/web";

import { otherPoint } from "./board.js";
import type { Key } from "./i18n.js";

/** Where a game is. */
export type Phase =
  | "start" // a new game is to be started (roll-off)
  | "to-roll" // the side on roll may double (when allowed) or roll
  | "double-offered" // the opponent must take or drop
  | "moving" // dice rolled; steps being made
  | "resign-offered" // the opponent must accept or reject a resignation
  | "game-over"
  | "match-over";

const PHASES: Record<number, Phase> = {
  [GamePhase.START]: "start",
  [GamePhase.ROLL_OR_DOUBLE]: "to-roll",
  [GamePhase.CUBE_DECISION]: "double-offered",
  [GamePhase.MOVING]: "moving",
  [GamePhase.RESIGNATION_DECISION]: "resign-offered",
  [GamePhase.GAME_OVER]: "game-over",
  [GamePhase.MATCH_OVER]: "match-over",
};

/**
 * One log line, kept as a catalogue key and its parameters so it is shown in the page's language;
 * `side` is the actor (drawn as a name), `move` a play in the mover's numbering (shown in the
 * numbering the board's labels use), `kind` a result kind (a name).
 */
export interface LogEntry {
  key: Key;
  side?: Side;
  params?: Record<string, string | number>;
  move?: string;
  kind?: ResultKind;
  /** Appended: another entry's text (e.g. the roll-off after "starts"). */
  tail?: LogEntry;
}

/** One checker step just made (mover's numbering), for the board to slide it. */
export interface LastStep {
  side: Side;
  from: number;
  to: number;
  hit: boolean;
  /** Checkers on the origin before the step. */
  countBefore: number;
  /** An opponent's checker was pinned under them there (plakoto): drawn at the base, under the stack. */
  pinnedUnder: boolean;
}

/** What the page shows, all derived from the last answer: its signed state, view and actions. */
export interface GameState {
  /** The ruleset preset's name (ListRulesets), e.g. "turkish". */
  preset: string;
  /** The state to send back with the next call, unchanged. */
  signed: SignedGameState;
  /** What it shows (display only, not signed). */
  game: GameView;
  /** The facts of the match's variant (ListRulesets, read once a page): direction, contact, bar, checkers. */
  variant: VariantFacts;
  /** The legal actions the same answer listed for `signed`. */
  actions: GameAction[];
  /** The match's record so far, kept from each answer's events.records (it extends the state's record_digest). */
  record: ActionRecord[];
  match: MatchState;
  /** Whether the rules have a doubling cube (the view's ruleset). */
  cubeInPlay: boolean;
  /** Who must act now (unset between games). */
  sideToAct: Side;
  /** The position at the start of the turn. */
  turnStart: Position;
  /** The position shown: after the steps made so far. */
  position: Position;
  phase: Phase;
  dice: number[];
  diceName?: RollName;
  diceLeft: number[];
  gele: boolean;
  steps: CheckerMove[];
  /** The legal next steps (the answer's STEP actions). */
  nextSteps: CheckerMove[];
  /** CONFIRM_MOVE is listed. */
  complete: boolean;
  /** The roll has no legal step (confirm the empty move, R7). */
  noMove: boolean;
  /** The rest of the turn is forced: `forcedSteps` plays it. */
  forced: boolean;
  forcedSteps: CheckerMove[];
  canDouble: boolean;
  clock?: ClockState;
  clockPreset: ClockPreset;
  /** When the side to act got the turn (server time, ms since the epoch). */
  turnStartedMs: number;
  resignation?: { side: Side; kind: ResultKind };
  outcome?: GameOutcome;
  /** What the last game added to the winner's score (its worth capped at the match length, R18). */
  pointsScored: number;
  /** The cube of the game that just ended (the view's is the next game's, centred at 1). */
  endCube?: { value: number; owner: Side };
  /** The side that lost on time, whose clock shows as run out. */
  timedOut?: Side;
  matchWinner: Side;
  lastStep?: LastStep;
  log: LogEntry[];
}

/** What the browser keeps of a match (storage.ts): enough to resume it with ListActions. */
export interface SavedMatch {
  signed: JsonValue;
  record: JsonValue[];
  log: LogEntry[];
  preset: string;
  clockPreset: number;
  pointsScored: number;
  endCube?: { value: number; owner: Side };
  timedOut?: Side;
}

/** An action to send: GameAction's fields (the listed steps carry die and hit). */
export interface ActionInit {
  kind: ActionKind;
  side?: Side;
  detail?:
    | { case: "step"; value: { fromPoint: number; toPoint: number; die?: number } }
    | { case: "resignKind"; value: ResultKind };
}

/** The parts of an answer the page reads: NewMatch, Act and ListActions all give them. */
interface Answer {
  state?: SignedGameState;
  view?: GameView;
  actions: GameAction[];
}

/** Connect JSON (protobuf's JSON mapping) of a message. */
export type JsonValue = ReturnType<typeof toJson>;

export const other = (s: Side): Side => (s === Side.WHITE ? Side.BLACK : Side.WHITE);

/** A listed action as Act's action (the same fields). */
export function actionInit(a: GameAction): ActionInit {
  const d = a.detail;
  const detail: ActionInit["detail"] =
    d.case === "step" ? { case: "step", value: { fromPoint: d.value.fromPoint, toPoint: d.value.toPoint, die: d.value.die } }
    : d.case === "resignKind" ? d : undefined;
  return { kind: a.kind, side: a.side, detail };
}

export class GameDriver {
  state!: GameState;
  private readonly names = new Map<string, RollName>();

  constructor(private readonly engine: EngineClient) {}

  /** A new match: `length` points under `preset` (a ListRulesets name), and the first game started. */
  async newMatch(preset: string, length: number, clockPreset: ClockPreset = ClockPreset.RESERVE,
                 clock?: Record<string, unknown>): Promise<void> {
    const r = await this.engine.referee.newMatch({
      ruleset: { preset }, length,
      clock: clock ?? (clockPreset === ClockPreset.UNSPECIFIED ? undefined : { preset: clockPreset }),
    });
    // a clock given whole (the browser test's short ones) names its own preset
    const used = (clock?.preset as ClockPreset | undefined) ?? clockPreset;
    this.state = { preset, clockPreset: used, log: [], record: [], pointsScored: 0 } as unknown as GameState;
    await this.load(r);
    await this.startGame();
  }

  /** Resume a saved match: its signed state asked again with ListActions (the clock has run meanwhile). */
  async resume(saved: SavedMatch): Promise<void> {
    const signed = fromJson(SignedGameStateSchema, saved.signed);
    this.state = {
      preset: saved.preset, clockPreset: saved.clockPreset, log: saved.log, pointsScored: saved.pointsScored,
      record: saved.record.map((r) => fromJson(ActionRecordSchema, r)), endCube: saved.endCube, timedOut: saved.timedOut,
    } as unknown as GameState;
    await this.load({ ...(await this.engine.referee.listActions({ state: signed })), state: signed });
  }

  /** What to keep in the browser to resume the match. */
  saved(): SavedMatch {
    const s = this.state;
    return {
      signed: toJson(SignedGameStateSchema, s.signed), record: s.record.map((r) => toJson(ActionRecordSchema, r)),
      log: s.log, preset: s.preset, clockPreset: s.clockPreset, pointsScored: s.pointsScored, endCube: s.endCube,
      timedOut: s.timedOut,
    };
  }

  /** The signed state as Connect JSON (what a game server would store; for tests and debugging). */
  signedJson(): string {
    return JSON.stringify(toJson(SignedGameStateSchema, this.state.signed));
  }

  /** The GameView of the last answer as Connect JSON (for tests). */
  viewJson(): string {
    return JSON.stringify(toJson(GameViewSchema, this.state.game));
  }

  /** The record kept so far as Connect JSON (what a game server would store or export; for tests). */
  recordJson(): string {
    return JSON.stringify(this.state.record.map((r) => toJson(ActionRecordSchema, r)));
  }

  /** Whether `kind` is listed for `side` (default: the side to act). */
  can(kind: ActionKind, side?: Side): boolean {
    return this.state.actions.some((a) => a.kind === kind && (side === undefined || a.side === side));
  }

  /** START_GAME: the roll-off (R3) and the starter's first dice. */
  async startGame(): Promise<void> {
    await this.act({ kind: ActionKind.START_GAME });
  }

  async roll(): Promise<void> {
    await this.act({ kind: ActionKind.ROLL });
  }

  /** Play one checker from `from` to `to` (the mover's numbering; 25 = bar, 0 = off). */
  async step(from: number, to: number): Promise<void> {
    const option = this.state.nextSteps.find((st) => st.fromPoint === from && st.toPoint === to);
    if (!option) throw new Error(`${from}/${to} is not a legal step`);
    // two dice can bear the same checker off only when the choice matters: take the first listed
    await this.act({ kind: ActionKind.STEP, detail: { case: "step", value: { fromPoint: from, toPoint: to, die: option.die } } });
  }

  /**
   * Send a step the page does not list, to have the referee say why it is illegal: the call
   * fails with the rule's reason (its LocalizedMessage in the page's language, R4-R14).
   */
  async tryStep(from: number, to: number): Promise<void> {
    await this.act(this.tried(from, to));
  }

  /**
   * The same step asked again, its answer not taken (the page keeps its state): a refused
   * step's reason in the language the page now speaks.
   */
  async explainStep(from: number, to: number): Promise<void> {
    await this.engine.referee.act({ state: this.state.signed, action: this.tried(from, to) });
  }

  private tried(from: number, to: number): ActionInit {
    // with the die the distance names, the referee's reason is the point's (a kapı), not the dice's
    const die = this.state.diceLeft.includes(from - to) ? from - to : undefined;
    return { kind: ActionKind.STEP, detail: { case: "step", value: { fromPoint: from, toPoint: to, die } } };
  }

  /** Take the last step back. */
  async undo(): Promise<void> {
    await this.act({ kind: ActionKind.UNDO });
  }

  /** Confirm the steps as the move (or pass when no die can be played, R7). */
  async confirm(): Promise<void> {
    await this.act({ kind: ActionKind.CONFIRM_MOVE });
  }

  /** The side on roll doubles (R19); the opponent must answer. */
  async double(): Promise<void> {
    await this.act({ kind: ActionKind.DOUBLE });
  }

  /** The doubled side takes (the cube doubles and is theirs) or drops (the game ends). */
  async answerDouble(take: boolean): Promise<void> {
    await this.act({ kind: take ? ActionKind.TAKE : ActionKind.DROP });
  }

  /** The side to act offers to resign a game of `kind`; the opponent must answer. */
  async offerResignation(kind: ResultKind = ResultKind.SINGLE): Promise<void> {
    await this.act({ kind: ActionKind.RESIGN, detail: { case: "resignKind", value: kind } });
  }

  async answerResignation(accept: boolean): Promise<void> {
    await this.act({ kind: accept ? ActionKind.ACCEPT_RESIGNATION : ActionKind.REJECT_RESIGNATION });
  }

  /** `side` claims that the side to act has run out of time (R23, R24). */
  async claimTimeout(side: Side): Promise<void> {
    await this.act({ kind: ActionKind.CLAIM_TIMEOUT, side });
  }

  /** Send a listed action (or one the analysis suggested) as it is. */
  async perform(action: GameAction | ActionInit): Promise<void> {
    await this.act("$typeName" in action ? actionInit(action) : action);
  }

  /** ListActions for the same state (a timeout may have become claimable). */
  async refresh(): Promise<void> {
    const signed = this.state.signed;
    await this.load({ ...(await this.engine.referee.listActions({ state: signed })), state: signed });
  }

  /** Act on the signed state (one round trip: the answer has the next state, view and actions), keep its record entries and log what happened. */
  private async act(action: ActionInit): Promise<void> {
    const before = this.state.game;
    const beforePosition = this.state.position;
    const r = await this.engine.referee.act({ state: this.state.signed, action });
    this.state.record.push(...(r.events?.records ?? []));
    this.state.lastStep = undefined;
    if (action.kind === ActionKind.START_GAME) {
      this.state.endCube = undefined;
      this.state.timedOut = undefined;
    }
    await this.load(r);
    const won = this.state.outcome;
    if (r.events?.outcome && won) {
      // what the score moved by: outcome.points is the game's worth, capped at what the winner needed (R18)
      const score = (m?: MatchState) => (won.winner === Side.WHITE ? m?.whiteScore : m?.blackScore) ?? 0;
      this.state.pointsScored = score(this.state.match) - score(before.match);
      // the view already holds the next game's cube (centred at 1): show the one the game ended with
      const cube = before.match?.cube;
      this.state.endCube = { value: Math.max(cube?.value ?? 1, 1), owner: cube?.owner ?? Side.UNSPECIFIED };
    }
    if (r.events?.forfeit) this.state.timedOut = r.events.forfeit.side;
    if (action.kind === ActionKind.STEP && action.detail?.case === "step") {
      const mover = beforePosition.onRoll;
      const bars = (p: Position) => (other(mover) === Side.WHITE ? boardOf(p)?.white?.bar : boardOf(p)?.black?.bar) ?? 0;
      const from = action.detail.value.fromPoint;
      const mine = mover === Side.WHITE ? boardOf(beforePosition)?.white : boardOf(beforePosition)?.black;
      const countBefore = from === 25 ? (mine?.bar ?? 1) : (mine?.points[from - 1] ?? 1);
      const theirs = mover === Side.WHITE ? boardOf(beforePosition)?.black : boardOf(beforePosition)?.white;
      const same = sameDirection(this.state.variant);
      const pinnedUnder = from !== 25 && !!theirs?.pinned.includes(otherPoint(from, same));
      this.state.lastStep = {
        side: mover, from, to: action.detail.value.toPoint, hit: bars(this.state.position) > bars(beforePosition), countBefore, pinnedUnder,
      };
    }
    this.logAction(action, before, r);
  }

  private async load(list: Answer): Promise<void> {
    const signed = list.state!;
    const g = list.view!;
    const s = this.state;
    const phase = PHASES[g.phase] ?? "start";
    const moving = phase === "moving";
    const position = (moving ? g.current : undefined) ?? g.position ?? create(PositionSchema, { onRoll: Side.WHITE });
    const nextSteps = list.actions.flatMap((a) => (a.kind === ActionKind.STEP && a.detail.case === "step" ? [a.detail.value] : []));
    const board = boardOf(position);
    const bar = position.onRoll === Side.WHITE ? board?.white?.bar : board?.black?.bar;
    // an unknown variant is an error shown, never drawn with another variant's facts
    const variant = await this.engine.variantFacts(g.ruleset?.variant ?? "");
    Object.assign(s, {
      signed, game: g, variant, actions: list.actions, match: g.match!, sideToAct: g.sideToAct, turnStart: g.position ?? position, position,
      cubeInPlay: g.ruleset?.cube ?? variant.cube,
      phase, dice: moving ? g.dice : [], diceLeft: moving ? g.diceLeft : [], steps: moving ? g.steps : [], nextSteps,
      complete: list.actions.some((a) => a.kind === ActionKind.CONFIRM_MOVE),
      noMove: moving && g.noLegalMove,
      forced: moving && (g.forcedMove || g.noLegalMove),
      forcedSteps: moving ? g.forcedSteps : [],
      canDouble: list.actions.some((a) => a.kind === ActionKind.DOUBLE),
      gele: moving && !!bar && !nextSteps.some((st) => st.fromPoint === 25) && g.steps.length === 0,
      clock: g.clock?.state, turnStartedMs: timeMs(g.clock?.turnStartTime),
      resignation: g.resignation && g.resignation.side ? { side: g.resignation.side, kind: g.resignation.kind } : undefined,
      outcome: phase === "game-over" || phase === "match-over" ? g.outcome : undefined,
      matchWinner: g.match?.winner ?? Side.UNSPECIFIED,
      diceName: moving ? await this.name(g.dice) : undefined,
    });
  }

  /** The roll's Turkish name (NameRoll, cached: 21 rolls). */
  private async name(dice: number[]): Promise<RollName | undefined> {
    if (dice.length !== 2) return undefined;
    const key = [...dice].sort().join("-");
    if (!this.names.has(key)) {
      const r = await this.engine.rules.nameRoll({ dice });
      if (r.name) this.names.set(key, r.name);
    }
    return this.names.get(key);
  }

  private logAction(action: ActionInit, before: GameView, r: ActResponse): void {
    const s = this.state;
    const g = s.game;
    const ev: GameEvents | undefined = r.events;
    const who = action.side || before.sideToAct;
    const log = (e: LogEntry) => s.log.push(e);
    const rolled = (): LogEntry => ({
      key: "logRoll", side: g.sideToAct,
      params: { dice: g.dice.join("-") + (s.diceName ? ` (${s.diceName.turkish})` : "") },
    });
    switch (action.kind) {
      case ActionKind.START_GAME: {
        const throws = (ev?.rollOff ?? []).map((t) => `${t.whiteDie}-${t.blackDie}`).join(", ");
        log({ key: "logStart", side: g.sideToAct, params: { n: g.match!.gamesPlayed + 1 },
              tail: throws ? { key: "logRollOff", params: { throws } } : undefined });
        log(rolled());
        break;
      }
      case ActionKind.ROLL:
        log(rolled());
        break;
      case ActionKind.CONFIRM_MOVE: {
        const rec = (ev?.records ?? []).find((x) => x.kind === ActionKind.CONFIRM_MOVE);
        log(rec?.notation ? { key: "logPlay", side: who, move: rec.notation } : { key: "logNoPlay", side: who });
        break;
      }
      case ActionKind.DOUBLE:
        log({ key: "logDouble", side: who, params: { value: Math.max(before.match?.cube?.value ?? 1, 1) * 2 } });
        break;
      case ActionKind.TAKE:
        log({ key: "logTake", side: who });
        break;
      case ActionKind.DROP:
        log({ key: "logDrop", side: who });
        break;
      case ActionKind.RESIGN:
        log({ key: "logResign", side: who, kind: action.detail?.case === "resignKind" ? action.detail.value : ResultKind.SINGLE });
        break;
      case ActionKind.ACCEPT_RESIGNATION:
        log({ key: "logAcceptResign", side: who });
        break;
      case ActionKind.REJECT_RESIGNATION:
        log({ key: "logRejectResign", side: who });
        break;
      case ActionKind.CLAIM_TIMEOUT:
        log({ key: "logClaim", side: who });
        break;
      default:
        break;
    }
    if (ev?.forfeit) log({ key: "logForfeit", side: ev.forfeit.side });
    if (s.gele && (action.kind === ActionKind.ROLL || action.kind === ActionKind.START_GAME)) log({ key: "logGele", side: g.sideToAct });
    if (ev?.outcome && g.outcome) {
      const matchWon = g.match?.winner !== undefined && g.match.winner !== Side.UNSPECIFIED;
      if (!g.outcome.winner) log({ key: "logDraw" }); // plakoto: both mothers pinned, no winner
      else log({ key: matchWon ? "logWinMatch" : "logWin", side: g.outcome.winner, params: { points: s.pointsScored } });
    }
  }
}

/** A google.protobuf.Timestamp as milliseconds since the epoch; 0 when unset. */
function timeMs(t?: { seconds: bigint; nanos: number }): number {
  return t ? Number(t.seconds) * 1000 + Math.round(t.nanos / 1e6) : 0;
}

/** A listed action from Connect JSON (SuggestAction's answer, read without its generated types). */
export function actionFromJson(json: JsonValue): GameAction {
  return fromJson(GameActionSchema, json, { ignoreUnknownFields: true });
}
