// The game driver: the one module that talks to the engine. The board UI (main.ts) reads
// `driver.state` and calls these methods; nothing else knows which RPCs exist.
//
// It uses the referee (RefereeService: NewMatch / Act, docs/game-state.md), one round trip per
// click: the page holds only the SignedGameState the server last returned (sent back unchanged
// with every call), the GameView beside it (display only) and the legal actions the same answer
// listed; it keeps the game's record from each answer's events.records. The server rolls the
// dice, measures the clock and checks every action; the page offers exactly the actions listed.
// ListActions is called only to refresh a state (a timeout may have become claimable). The one
// other call is NameRoll, a pure lookup of a roll's Turkish name (R26), which the view does not
// carry.
import {
  ActionKind,
  ActionRecordSchema,
  ClockPreset,
  GamePhase,
  PositionSchema,
  ResultKind,
  Side,
  SignedGameStateSchema,
  boardOf,
  create,
  engineError,
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
} from "@tavla-engine/client/web";

export type Preset = "turkish" | "international";

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

/** What the page shows, all derived from the last answer: its signed state, view and actions. */
export interface GameState {
  preset: Preset;
  /** The state to send back with the next call, unchanged. */
  signed: SignedGameState;
  /** What it shows (display only, not signed). */
  game: GameView;
  /** The legal actions the same answer listed for `signed`. */
  actions: GameAction[];
  /** The match's record so far, kept from each answer's events.records (it extends the state's record_digest). */
  record: ActionRecord[];
  match: MatchState;
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
  /** The legal next steps (ListActions' STEP actions). */
  nextSteps: CheckerMove[];
  /** CONFIRM_MOVE is listed. */
  complete: boolean;
  canDouble: boolean;
  clock?: ClockState;
  clockPreset: ClockPreset;
  /** When the side to act got the turn (server time, ms since the epoch). */
  turnStartedMs: number;
  resignation?: { side: Side; kind: ResultKind };
  outcome?: GameOutcome;
  /** What the last game added to the winner's score (its worth capped at the match length, R18). */
  pointsScored: number;
  matchWinner: Side;
  /** One line per event, newest last. */
  log: string[];
}

/** An action to send: GameAction's fields (the listed steps carry die and hit). */
interface ActionInit {
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

export const sideName = (s: Side): string => (s === Side.WHITE ? "White" : s === Side.BLACK ? "Black" : "-");
export const other = (s: Side): Side => (s === Side.WHITE ? Side.BLACK : Side.WHITE);
const KIND_NAMES: Record<number, string> = {
  [ResultKind.SINGLE]: "a single game", [ResultKind.GAMMON]: "a gammon", [ResultKind.BACKGAMMON]: "a backgammon",
};

export class GameDriver {
  state!: GameState;
  private readonly names = new Map<string, RollName>();

  constructor(private readonly engine: EngineClient) {}

  /** A new match: `length` points under `preset`, and the first game started. */
  async newMatch(preset: Preset, length: number, clockPreset: ClockPreset = ClockPreset.RESERVE): Promise<void> {
    const r = await this.engine.referee.newMatch({
      ruleset: { preset }, length, clock: clockPreset === ClockPreset.UNSPECIFIED ? undefined : { preset: clockPreset },
    });
    this.state = { preset, clockPreset, log: [], record: [], pointsScored: 0 } as unknown as GameState;
    await this.load(r);
    await this.startGame();
  }

  /** The signed state as Connect JSON (what a game server would store; for tests and debugging). */
  signedJson(): string {
    return JSON.stringify(toJson(SignedGameStateSchema, this.state.signed));
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

  /**
   * The bot's turn for `side`: one legal action from ListActions, at random among the plays
   * (a random next step, or the confirmation once the move is whole). It never doubles or
   * resigns, takes every double, accepts every resignation and claims a timeout when it can.
   */
  async botAction(side: Side): Promise<void> {
    const mine = this.state.actions.filter((a) => a.side === side || a.side === Side.UNSPECIFIED);
    const first = (...kinds: ActionKind[]) => mine.find((a) => kinds.includes(a.kind));
    const pick = first(ActionKind.CLAIM_TIMEOUT, ActionKind.TAKE, ActionKind.ACCEPT_RESIGNATION, ActionKind.CONFIRM_MOVE,
      ActionKind.ROLL, ActionKind.START_GAME);
    const steps = mine.filter((a) => a.kind === ActionKind.STEP);
    const action = pick ?? steps[Math.floor(Math.random() * steps.length)] ?? mine.find((a) => a.kind !== ActionKind.RESIGN);
    if (!action) throw new Error(`no action for ${sideName(side)}`);
    const d = action.detail;
    const detail: ActionInit["detail"] =
      d.case === "step" ? { case: "step", value: { fromPoint: d.value.fromPoint, toPoint: d.value.toPoint, die: d.value.die } }
      : d.case === "resignKind" ? d : undefined;
    await this.act({ kind: action.kind, side: action.side, detail });
  }

  /** ListActions for the same state (a timeout may have become claimable). */
  async refresh(): Promise<void> {
    const signed = this.state.signed;
    await this.load({ ...(await this.engine.referee.listActions({ state: signed })), state: signed });
  }

  /** Act on the signed state (one round trip: the answer has the next state, view and actions), keep its record entries and log what happened. */
  private async act(action: ActionInit): Promise<void> {
    const before = this.state.game;
    const r = await this.engine.referee.act({ state: this.state.signed, action });
    this.state.record.push(...(r.events?.records ?? []));
    await this.load(r);
    const won = this.state.outcome;
    if (r.events?.outcome && won) {
      // what the score moved by: outcome.points is the game's worth, capped at what the winner needed (R18)
      const score = (m?: MatchState) => (won.winner === Side.WHITE ? m?.whiteScore : m?.blackScore) ?? 0;
      this.state.pointsScored = score(this.state.match) - score(before.match);
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
    Object.assign(s, {
      signed, game: g, actions: list.actions, match: g.match!, sideToAct: g.sideToAct, turnStart: g.position ?? position, position,
      phase, dice: moving ? g.dice : [], diceLeft: moving ? g.diceLeft : [], steps: moving ? g.steps : [], nextSteps,
      complete: list.actions.some((a) => a.kind === ActionKind.CONFIRM_MOVE),
      canDouble: list.actions.some((a) => a.kind === ActionKind.DOUBLE),
      gele: moving && !!bar && !nextSteps.some((st) => st.fromPoint === 25),
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
    const who = sideName(action.side || before.sideToAct);
    const rolled = () => `${sideName(g.sideToAct)} rolls ${g.dice.join("-")}` + (s.diceName ? ` (${s.diceName.turkish})` : "");
    switch (action.kind) {
      case ActionKind.START_GAME: {
        const rollOff = (ev?.rollOff ?? []).map((t) => `${t.whiteDie}-${t.blackDie}`).join(", ");
        s.log.push(`Game ${g.match!.gamesPlayed + 1}: ${sideName(g.sideToAct)} starts` + (rollOff ? ` (roll-off ${rollOff})` : ""));
        s.log.push(rolled());
        break;
      }
      case ActionKind.ROLL:
        s.log.push(rolled());
        break;
      case ActionKind.CONFIRM_MOVE: {
        const rec = (ev?.records ?? []).find((x) => x.kind === ActionKind.CONFIRM_MOVE);
        s.log.push(`${who} plays ${rec?.notation || "nothing"}`);
        break;
      }
      case ActionKind.DOUBLE:
        s.log.push(`${who} doubles to ${g.match!.cube!.value * 2}`);
        break;
      case ActionKind.TAKE:
      case ActionKind.DROP:
        s.log.push(`${who} ${action.kind === ActionKind.TAKE ? "takes" : "drops"}`);
        break;
      case ActionKind.RESIGN:
        s.log.push(`${who} offers to resign ${KIND_NAMES[action.detail?.case === "resignKind" ? action.detail.value : ResultKind.SINGLE]}`);
        break;
      case ActionKind.ACCEPT_RESIGNATION:
      case ActionKind.REJECT_RESIGNATION:
        s.log.push(`${who} ${action.kind === ActionKind.ACCEPT_RESIGNATION ? "accepts" : "rejects"} the resignation`);
        break;
      case ActionKind.CLAIM_TIMEOUT:
        s.log.push(`${who} claims a timeout`);
        break;
      default:
        break;
    }
    if (ev?.forfeit) s.log.push(`${sideName(ev.forfeit.side)} runs out of time`);
    if (s.gele && (action.kind === ActionKind.ROLL || action.kind === ActionKind.START_GAME)) s.log.push(`${sideName(g.sideToAct)}: gele — no die enters from the bar`);
    if (ev?.outcome && g.outcome) {
      const matchWon = g.match?.winner !== undefined && g.match.winner !== Side.UNSPECIFIED;
      s.log.push(`${sideName(g.outcome.winner)} wins ${s.pointsScored} point(s)` + (matchWon ? " and the match" : ""));
    }
  }
}

/** A google.protobuf.Timestamp as milliseconds since the epoch; 0 when unset. */
function timeMs(t?: { seconds: bigint; nanos: number }): number {
  return t ? Number(t.seconds) * 1000 + Math.round(t.nanos / 1e6) : 0;
}

/** The message of a failed call, with the rule's reason when the engine gave one. */
export function describeError(e: unknown): string {
  const err = engineError(e);
  return err.reason ? `${err.message} [${err.reason}]` : `${err.code}: ${err.message}`;
}
