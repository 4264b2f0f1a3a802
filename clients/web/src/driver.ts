// The game driver: the one module that talks to the engine. The board UI (main.ts) reads
// `driver.state` and calls these methods; nothing else knows which RPCs exist.
//
// Today it drives the stateless match RPCs (StartGame, RollDice, ListLegalSteps, ApplyMove,
// ListCubeActions, ApplyCubeAction, OfferResignation, AnswerResignation, UpdateMatch,
// AdvanceClock) and keeps the match state in the page. When the signed game-state API
// (NewMatch / ListActions / Act) is available, a second implementation of the same methods will
// hold only the signed state the server returns (docs/web.md).
import {
  ClockEvent,
  ClockPreset,
  CubeAction,
  GameEnding,
  MatchStateSchema,
  PositionSchema,
  ResultKind,
  Side,
  create,
  engineError,
  type CheckerMove,
  type ClockState,
  type EngineClient,
  type GameOutcome,
  type MatchState,
  type Position,
  type RollName,
} from "@tavla-engine/client/web";

export type Preset = "turkish" | "international";

/** Where a game is. */
export type Phase =
  | "to-roll" // the side on roll may double (when allowed) or roll
  | "double-offered" // the opponent must take or drop
  | "moving" // dice rolled; steps being made
  | "resign-offered" // the opponent must accept or reject a resignation
  | "game-over"
  | "match-over";

export interface GameState {
  preset: Preset;
  match: MatchState;
  /** The position at the start of the turn (the one sent with every step request). */
  turnStart: Position;
  /** The position shown: after the steps made so far. */
  position: Position;
  phase: Phase;
  dice: number[];
  diceName?: RollName;
  diceLeft: number[];
  gele: boolean;
  steps: CheckerMove[];
  nextSteps: CheckerMove[];
  complete: boolean;
  canDouble: boolean;
  clock?: ClockState;
  clockPreset: ClockPreset;
  /** Milliseconds each side may still use on its next move (AdvanceClock's time_left_ms). */
  timeLeftMs: Record<number, number>;
  resignation?: { side: Side; kind: ResultKind; points: number };
  outcome?: GameOutcome;
  pointsScored: number;
  matchWinner: Side;
  /** One line per event, newest last. */
  log: string[];
}

export const sideName = (s: Side): string => (s === Side.WHITE ? "White" : s === Side.BLACK ? "Black" : "-");
export const other = (s: Side): Side => (s === Side.WHITE ? Side.BLACK : Side.WHITE);

export class GameDriver {
  state!: GameState;
  private turnBegan = 0;

  constructor(private readonly engine: EngineClient) {}

  private get ruleset() {
    return { preset: this.state.preset };
  }

  /** A new match: `length` points under `preset`, and the first game started. */
  async newMatch(preset: Preset, length: number, clockPreset: ClockPreset = ClockPreset.RESERVE): Promise<void> {
    const empty = create(PositionSchema, { onRoll: Side.WHITE });
    this.state = {
      preset, match: create(MatchStateSchema, { length }), turnStart: empty, position: empty, phase: "to-roll", dice: [],
      diceLeft: [], gele: false, steps: [], nextSteps: [], complete: false, canDouble: false, clockPreset,
      timeLeftMs: {}, pointsScored: 0, matchWinner: Side.UNSPECIFIED, log: [],
    };
    await this.startGame();
  }

  /** StartGame: who starts (R3) and the first dice; the starter then moves at once. */
  async startGame(): Promise<void> {
    const s = this.state;
    const r = await this.engine.rpc.startGame({ ruleset: this.ruleset, match: s.match });
    s.outcome = undefined;
    s.resignation = undefined;
    s.pointsScored = 0;
    const rollOff = r.rollOff.map((t) => `${t.whiteDie}-${t.blackDie}`).join(", ");
    s.log.push(`Game ${s.match.gamesPlayed + 1}: ${sideName(r.starter)} starts` + (rollOff ? ` (roll-off ${rollOff})` : ""));
    if (s.clockPreset !== ClockPreset.UNSPECIFIED) await this.clockEvent(r.starter, ClockEvent.NEW_GAME, 0);
    await this.beginMove(r.position!, r.dice, r.diceName);
  }

  side(): Side {
    return this.state.position.onRoll;
  }

  /** Before rolling: may the side on roll double now (ListCubeActions)? */
  private async toRoll(position: Position): Promise<void> {
    const s = this.state;
    Object.assign(s, { turnStart: position, position, phase: "to-roll", dice: [], diceLeft: [], steps: [], nextSteps: [],
      complete: false, gele: false, diceName: undefined });
    const actions = await this.engine.rpc.listCubeActions({ ruleset: this.ruleset, match: s.match, side: position.onRoll });
    s.canDouble = actions.actions.includes(CubeAction.DOUBLE);
    this.turnBegan = performance.now();
  }

  /** RollDice for the side on roll, then its legal first steps. */
  async roll(): Promise<void> {
    const r = await this.engine.rpc.rollDice({ position: this.state.turnStart });
    await this.beginMove(this.state.turnStart, r.dice, r.name);
  }

  private async beginMove(position: Position, dice: number[], name?: RollName): Promise<void> {
    const s = this.state;
    Object.assign(s, { turnStart: position, position, dice, diceName: name, steps: [], phase: "moving", canDouble: false });
    if (!this.turnBegan) this.turnBegan = performance.now();
    s.log.push(`${sideName(position.onRoll)} rolls ${dice.join("-")}` + (name ? ` (${name.turkish})` : ""));
    await this.refreshSteps();
    if (s.gele) s.log.push(`${sideName(position.onRoll)}: gele — no die enters from the bar`);
  }

  /** ListLegalSteps for the steps made so far: the position after them and the next steps. */
  private async refreshSteps(): Promise<void> {
    const s = this.state;
    const r = await this.engine.rpc.listLegalSteps({
      ruleset: this.ruleset, position: s.turnStart, dice: s.dice, steps: s.steps,
    });
    s.steps = r.steps;
    s.nextSteps = r.nextSteps;
    s.complete = r.complete;
    s.diceLeft = r.diceLeft;
    s.gele = r.gele;
    s.position = r.position ?? s.turnStart;
  }

  /** Play one checker from `from` to `to` (the mover's numbering; 25 = bar, 0 = off). */
  async step(from: number, to: number): Promise<void> {
    const s = this.state;
    const options = s.nextSteps.filter((st) => st.fromPoint === from && st.toPoint === to);
    if (!options.length) throw new Error(`${from}/${to} is not a legal step`);
    // two dice can bear the same checker off only when the choice matters: take the first offered
    s.steps = [...s.steps, { ...options[0] }];
    await this.refreshSteps();
  }

  /** Take the last step back (the dice are not lifted yet). */
  async undo(): Promise<void> {
    if (!this.state.steps.length) return;
    this.state.steps = this.state.steps.slice(0, -1);
    await this.refreshSteps();
  }

  /** Confirm the move: ApplyMove with the steps, the clock, then the opponent's turn or game over. */
  async confirm(): Promise<void> {
    const s = this.state;
    const mover = s.turnStart.onRoll;
    const r = await this.engine.rpc.applyMove({
      ruleset: this.ruleset, position: s.turnStart, dice: s.dice, move: { checkerMoves: s.steps },
    });
    s.log.push(`${sideName(mover)} plays ${r.move?.notation || "nothing"}`);
    if (await this.chargeClock(mover)) return;
    if (r.gameOver && r.result) {
      s.position = r.position!;
      await this.endGame({ winner: r.result.winner, ending: GameEnding.BORNE_OFF, kind: r.result.kind } as GameOutcome);
      return;
    }
    await this.toRoll(r.position!);
  }

  /** Play a whole move at once (the bot): one of ListLegalMoves' moves, at random. */
  async playRandomMove(): Promise<void> {
    const s = this.state;
    const moves = await this.engine.rpc.listLegalMoves({ ruleset: this.ruleset, position: s.turnStart, dice: s.dice });
    const move = moves.moves[Math.floor(Math.random() * moves.moves.length)];
    s.steps = move.checkerMoves;
    await this.refreshSteps();
    await this.confirm();
  }

  /** The side on roll doubles (R19); the opponent must answer. */
  async double(): Promise<void> {
    const s = this.state;
    const side = this.side();
    const r = await this.engine.rpc.applyCubeAction({ ruleset: this.ruleset, match: s.match, side, action: CubeAction.DOUBLE });
    s.match = r.match!;
    s.phase = "double-offered";
    s.log.push(`${sideName(side)} doubles to ${s.match.cube!.value * 2}`);
  }

  /** The doubled side takes (the cube doubles and is theirs) or drops (the game ends). */
  async answerDouble(take: boolean): Promise<void> {
    const s = this.state;
    const side = other(this.side());
    const r = await this.engine.rpc.applyCubeAction({
      ruleset: this.ruleset, match: s.match, side, action: take ? CubeAction.TAKE : CubeAction.DROP,
    });
    s.match = r.match!;
    s.log.push(`${sideName(side)} ${take ? "takes" : "drops"}`);
    if (r.gameOver && r.outcome) {
      await this.endGame(r.outcome);
      return;
    }
    s.phase = "to-roll";
    s.canDouble = false;
  }

  /** The side to act offers to resign a game of `kind`; the opponent must answer. */
  async offerResignation(side: Side, kind: ResultKind = ResultKind.SINGLE): Promise<void> {
    const s = this.state;
    const r = await this.engine.rpc.offerResignation({ ruleset: this.ruleset, match: s.match, offer: { side, kind } });
    s.resignation = { side, kind, points: r.outcome?.points ?? 0, };
    s.log.push(`${sideName(side)} offers to resign (${r.outcome?.points ?? "?"} point(s))`);
    (s as { resumePhase?: Phase }).resumePhase = s.phase;
    s.phase = "resign-offered";
  }

  async answerResignation(accept: boolean): Promise<void> {
    const s = this.state;
    const offer = s.resignation!;
    const r = await this.engine.rpc.answerResignation({
      ruleset: this.ruleset, match: s.match, offer: { side: offer.side, kind: offer.kind }, accept,
    });
    s.log.push(`${sideName(other(offer.side))} ${accept ? "accepts" : "rejects"} the resignation`);
    s.resignation = undefined;
    if (r.gameOver && r.outcome) {
      await this.endGame(r.outcome);
      return;
    }
    s.phase = (s as { resumePhase?: Phase }).resumePhase ?? "to-roll";
  }

  /** AdvanceClock for the move just made; true when it ended the game (a forfeit). */
  private async chargeClock(side: Side): Promise<boolean> {
    const elapsed = Math.max(0, Math.round(performance.now() - this.turnBegan));
    this.turnBegan = 0;
    if (this.state.clockPreset === ClockPreset.UNSPECIFIED) return false;
    const forfeit = await this.clockEvent(side, ClockEvent.MOVE, elapsed);
    if (forfeit) {
      this.state.log.push(`${sideName(side)} runs out of time`);
      await this.endGame(forfeit);
      return true;
    }
    return false;
  }

  private async clockEvent(side: Side, event: ClockEvent, elapsedMs: number): Promise<GameOutcome | undefined> {
    const s = this.state;
    const r = await this.engine.rpc.advanceClock({
      settings: { preset: s.clockPreset }, state: s.clock, side, event, elapsedMs,
    });
    s.clock = r.state;
    s.timeLeftMs[side] = r.timeLeftMs;
    return r.forfeit?.outcome;
  }

  /** UpdateMatch with the game's outcome: the new score, Crawford, the match winner. */
  private async endGame(outcome: GameOutcome): Promise<void> {
    const s = this.state;
    const r = await this.engine.rpc.updateMatch({ ruleset: this.ruleset, match: s.match, outcome });
    s.outcome = r.outcome;
    s.pointsScored = r.pointsScored;
    s.match = r.match!;
    s.matchWinner = r.winner;
    s.phase = r.matchOver ? "match-over" : "game-over";
    s.nextSteps = [];
    s.log.push(`${sideName(outcome.winner)} wins ${r.pointsScored} point(s)` + (r.matchOver ? " and the match" : ""));
  }
}

/** The message of a failed call, with the rule's reason when the engine gave one. */
export function describeError(e: unknown): string {
  const err = engineError(e);
  return err.reason ? `${err.message} [${err.reason}]` : `${err.code}: ${err.message}`;
}
