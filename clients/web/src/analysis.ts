// What the board asks the analysis for a player (docs/analysis.md), in one module: the hint
// (AnalysisService.SuggestMove for the position, dice, match and ruleset of the turn) and the
// review of a game or match played (StreamAnalyzeMatch over the .mat the page exports, its
// progress shown as it comes, then, for a
// decision picked, its position and its played and better moves from RulesService:
// RenderPosition gives the board of the decision's Position ID, ApplyMove the checker moves of
// each notation). The page draws what these return; nothing here touches the DOM.
import {
  AnalysisLevel,
  DecisionKind,
  Evaluator,
  Side,
  byId,
  notation,
  type AnalyzeMatchResponse,
  type CheckerMove,
  type EngineClient,
  type Position,
  type ReviewedDecision,
  type Ruleset,
} from "@tavla-engine/client/web";

import type { GameState } from "./driver.js";

/** The hint's answer: the top moves, best first. */
export interface Hint {
  moves: HintMove[];
  /** Evaluated by the search player (a variant without a net): heuristic scores, no gammon chances. */
  search: boolean;
  dice: number[];
}

export interface HintMove {
  /** In the mover's numbering. */
  notation: string;
  checkerMoves: CheckerMove[];
  equity: number;
  win: number;
  gammon: number;
}

/** How long a hint may take: the expert's 2 ply is at most a few hundred ms; the server drops to 1 ply when short of time. */
const HINT_TIMEOUT_MS = 15_000;
/** How long a review may take here; the server's own budget (--analysis-call-seconds, 30 s by default) is usually shorter. */
const REVIEW_TIMEOUT_MS = 60_000;

/** The best three moves of the turn being played (before its first step), at the expert level. */
export async function hint(engine: EngineClient, s: GameState, count = 3): Promise<Hint> {
  const r = await engine.analysis.suggestMove({
    ruleset: s.game.ruleset, position: s.turnStart, dice: s.dice, match: s.match,
    level: AnalysisLevel.EXPERT, maxMoves: count,
  }, { timeoutMs: HINT_TIMEOUT_MS });
  return {
    dice: [...s.dice],
    search: r.info?.evaluator === Evaluator.SEARCH,
    moves: r.moves.map((m) => ({
      notation: m.move?.notation ?? "", checkerMoves: m.move?.checkerMoves ?? [], equity: m.equity,
      win: m.probabilities?.win ?? 0, gammon: m.probabilities?.winGammon ?? 0,
    })),
  };
}

/** Whether the match can be reviewed: AnalyzeMatch reads .mat positions as GNU Position IDs, which plakoto, fevga and long nardy lack. */
export function reviewable(s: GameState): boolean {
  return !!(s.game.position?.ids?.positionId || s.turnStart?.ids?.positionId);
}

/** One side's figures and its worst decisions. */
export interface SideReview {
  side: Side;
  errorRate: number;
  pr: number;
  moves: number;
  worst: ReviewedDecision[];
}

export interface Review {
  games: number;
  sides: SideReview[];
}

/** How far the server's review has come: decisions judged of all, and the game (StreamAnalyzeMatch's progress). */
export interface ReviewProgress {
  done: number;
  total: number;
  game: number;
  games: number;
}

/**
 * StreamAnalyzeMatch over `mat` (the match so far, as the page exports it) under the match's rules, at the default
 * level (advanced, 1 ply): `onProgress` with each progress message as it comes, then the review. `signal` cancels it
 * (the server stops its analysis).
 */
export async function review(engine: EngineClient, ruleset: Ruleset | undefined, mat: string,
  onProgress: (p: ReviewProgress) => void = () => {}, signal?: AbortSignal, worst = 5): Promise<Review> {
  let r: AnalyzeMatchResponse | undefined;
  for await (const m of engine.analysis.streamAnalyzeMatch({ record: { case: "mat", value: mat }, ruleset },
    { timeoutMs: REVIEW_TIMEOUT_MS, signal })) {
    if (m.event.case === "progress") {
      const p = m.event.value;
      onProgress({ done: p.decisionsDone, total: p.decisionsTotal, game: p.game, games: p.games });
    } else if (m.event.case === "result") r = m.event.value;
  }
  if (!r) throw new Error("the review stream ended without its result");
  return {
    games: r.games,
    sides: r.players.map((p) => ({
      side: p.side, errorRate: p.errorRate, pr: p.performanceRating, moves: p.moves + p.cubeDecisions,
      worst: r.decisions.filter((d) => d.side === p.side && d.error >= 0.001)
        .sort((a, b) => b.error - a.error).slice(0, worst),
    })),
  };
}

/** A reviewed decision to show: its position (with the board) and the played and better moves' checker moves (the mover's numbering). */
export interface ShownDecision {
  decision: ReviewedDecision;
  position: Position;
  played: CheckerMove[];
  best: CheckerMove[];
}

/** The position of `d` and its two moves, asked of RulesService (three small calls at once). */
export async function decisionView(engine: EngineClient, ruleset: Ruleset | undefined, d: ReviewedDecision): Promise<ShownDecision> {
  const position = byId(d.positionId, d.side);
  const move = async (text: string): Promise<CheckerMove[]> => {
    if (d.kind !== DecisionKind.MOVE || !text || d.dice.length !== 2) return [];
    const r = await engine.rules.applyMove({ ruleset, position, dice: d.dice, move: notation(text) });
    return r.move?.checkerMoves ?? [];
  };
  const [drawn, played, best] = await Promise.all([
    engine.rules.renderPosition({ ruleset, position }), move(d.played), move(d.best),
  ]);
  return { decision: d, position: drawn.position ?? position, played, best };
}
