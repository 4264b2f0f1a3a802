// The computer opponent, in one module. It asks the service's analysis
// (tavla.v1.AnalysisService/SuggestAction: the signed state as ListActions takes it and a level;
// the answer's `action` is a GameAction for Act) and falls back to a random legal action when
// the service does not answer that RPC (UNIMPLEMENTED or NOT_FOUND: an engine without the
// analysis), so the page works with either. SuggestAction is called over Connect JSON with
// fetch, so the page needs no generated code for AnalysisService.
//
// Whatever the level, the bot claims a timeout as soon as it may (R23, R24).
import { ActionKind, Side, SignedGameStateSchema, toJson, type GameAction } from "@tavla-engine/client/web";

import { actionFromJson, type GameState } from "./driver.js";

/** The levels the setup offers (AnalysisLevel's); "random" never asks the analysis. */
export type Level = "random" | "beginner" | "intermediate" | "advanced" | "expert";
export const LEVELS: Level[] = ["random", "beginner", "intermediate", "advanced", "expert"];

/** The AnalysisLevel enum value (its JSON name) sent for each level. */
const LEVEL_VALUES: Record<Exclude<Level, "random">, string> = {
  beginner: "ANALYSIS_LEVEL_BEGINNER", intermediate: "ANALYSIS_LEVEL_INTERMEDIATE",
  advanced: "ANALYSIS_LEVEL_ADVANCED", expert: "ANALYSIS_LEVEL_EXPERT",
};

export class Bot {
  /** undefined: not asked yet; false: the engine has no analysis (UNIMPLEMENTED / NOT_FOUND). */
  analysis?: boolean;
  /** How many actions SuggestAction chose, and how many calls failed otherwise (then a random action); for tests. */
  readonly counts = { suggested: 0, failed: 0 };

  /**
   * @param baseUrl the engine's HTTP port (the page's origin by default)
   * @param headers the headers every call carries (the locale)
   */
  constructor(private readonly baseUrl: string, private readonly headers: () => Record<string, string>) {}

  /** The action `side` takes in `s` (one of `s.actions`, or the analysis's choice). */
  async choose(s: GameState, side: Side, level: Level): Promise<GameAction> {
    const mine = s.actions.filter((a) => a.side === side || a.side === Side.UNSPECIFIED);
    const claim = mine.find((a) => a.kind === ActionKind.CLAIM_TIMEOUT);
    if (claim) return claim;
    if (level !== "random" && this.analysis !== false) {
      const suggested = await this.suggest(s, level);
      if (suggested) return suggested;
    }
    return randomAction(mine, side);
  }

  /** SuggestAction's answer, or undefined when the engine has no analysis or the call failed. */
  private async suggest(s: GameState, level: Exclude<Level, "random">): Promise<GameAction | undefined> {
    try {
      const r = await fetch(`${this.baseUrl.replace(/\/+$/, "")}/tavla.v1.AnalysisService/SuggestAction`, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.headers() },
        body: JSON.stringify({ state: toJson(SignedGameStateSchema, s.signed), level: LEVEL_VALUES[level] }),
      });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) {
        if (body?.code === "unimplemented" || body?.code === "not_found" || r.status === 404 || r.status === 501) this.analysis = false;
        else this.counts.failed++;
        return undefined;
      }
      this.analysis = true;
      if (body.action) this.counts.suggested++;
      return body.action ? actionFromJson(body.action) : undefined;
    } catch {
      return undefined; // a network hiccup: this action is random, the next one asks again
    }
  }
}

/**
 * The random bot: a random next step until the move is whole, then the confirmation; it never
 * doubles or resigns, takes every double and accepts every resignation.
 */
export function randomAction(mine: GameAction[], side: Side): GameAction {
  const first = (...kinds: ActionKind[]) => mine.find((a) => kinds.includes(a.kind));
  const pick = first(ActionKind.TAKE, ActionKind.ACCEPT_RESIGNATION, ActionKind.CONFIRM_MOVE, ActionKind.ROLL, ActionKind.START_GAME);
  const steps = mine.filter((a) => a.kind === ActionKind.STEP);
  const action = pick ?? steps[Math.floor(Math.random() * steps.length)]
    ?? mine.find((a) => a.kind !== ActionKind.RESIGN && a.kind !== ActionKind.DOUBLE);
  if (!action) throw new Error(`no action for side ${side}`);
  return action;
}
