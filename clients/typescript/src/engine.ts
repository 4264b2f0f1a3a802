/**
 * The transport-independent part of the client of the tavla.v1 services (RulesService,
 * MatchService, RefereeService, RecordsService, AnalysisService): the typed helpers
 * (EngineClient, a helper for every RPC: HELPERS), the default service config, retries, the
 * locale of player messages and the rich error details. It imports nothing from Node.js, so it
 * runs in browsers too: `index.ts` adds the Node gRPC transport, `web.ts` the browser transports
 * (Connect, gRPC-Web).
 *
 * Enums: `enumName(SideSchema, Side.WHITE) === "SIDE_WHITE"`, `enumValue(...)` reads
 * "white", "double", "mars"; `asJson(schema, message)` is the proto JSON form (enums as names).
 * `engineError(err)` reads the rich error details (ErrorInfo reason, BadRequest fields, and the
 * player's message in the client's locale).
 */
import {
  create,
  toJson,
  type DescEnum,
  type DescMessage,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { Code, ConnectError, createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";

import { ClockEventSchema, type ClockSettingsSchema, type ClockStateSchema } from "./gen/tavla/v1/clock_pb.js";
import { RollOffThrowSchema, type DiceSeedSchema } from "./gen/tavla/v1/dice_pb.js";
import {
  RulesService,
  MoveViewSchema,
  type ApplyMoveResponse,
  type BearOffResponse,
  type NameRollResponse,
  type RenderPositionResponse,
  type ScoreGameResponse,
} from "./gen/tavla/v1/rules_service_pb.js";
import {
  MatchService,
  type AdvanceClockResponse,
  type AnswerResignationResponse,
  type ApplyCubeActionResponse,
  type CommitDiceResponse,
  type ListCubeActionsResponse,
  type ListLegalStepsResponse,
  type ListRulesetsResponse,
  type OfferResignationResponse,
  type ResolveRulesetResponse,
  type RollDiceResponse,
  type StartGameResponse,
  type UpdateMatchResponse,
} from "./gen/tavla/v1/match_service_pb.js";
import {
  RefereeService,
  type ActResponse,
  type ListActionsResponse,
  type NewMatchResponse,
} from "./gen/tavla/v1/referee_service_pb.js";
import { ExportFormatSchema, RecordsService, type ExportMatchResponse } from "./gen/tavla/v1/records_service_pb.js";
import {
  AnalysisLevelSchema,
  AnalysisService,
  type AnalyzeMatchResponse,
  type StreamAnalyzeMatchResponse,
  type EvaluatePositionResponse,
  type SuggestActionResponse,
  type SuggestCubeActionResponse,
  type SuggestMoveResponse,
} from "./gen/tavla/v1/analysis_service_pb.js";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { VariantTable } from "./variants.js";
import {
  CubeActionSchema,
  GameEndingSchema,
  GameOutcomeSchema,
  MatchStateSchema,
  ResignationOfferSchema,
  type GameOutcome,
  type MatchState,
  type ResignationOffer,
  type VariantFacts,
} from "./gen/tavla/v1/match_pb.js";
import {
  CheckerMoveSchema,
  MoveSchema,
  PositionSchema,
  ResultKindSchema,
  RulesetSchema,
  Side,
  SideSchema,
  type Board,
  type CheckerMove,
  type Move,
  type Position,
  type Ruleset,
} from "./gen/tavla/v1/types_pb.js";

/** protobuf-es's `create(Schema, init)`, for building messages without importing @bufbuild/protobuf. */
export { create, fromJson, toJson } from "@bufbuild/protobuf";

// Every generated file of tavla.v1 (a test checks none is missing).
export * from "./gen/tavla/v1/analysis_service_pb.js";
export * from "./gen/tavla/v1/bearoff_pb.js";
export * from "./gen/tavla/v1/bounds_pb.js";
export * from "./gen/tavla/v1/clock_pb.js";
export * from "./gen/tavla/v1/dice_pb.js";
export * from "./gen/tavla/v1/error_reason_pb.js";
export * from "./gen/tavla/v1/game_pb.js";
export * from "./gen/tavla/v1/match_pb.js";
import type { RenderOptionsSchema } from "./gen/tavla/v1/render_pb.js";
import type { ActionRecord, GameAction, SignedGameState } from "./gen/tavla/v1/game_pb.js";
import {
  RecordFormatSchema,
  ValidateMatchRequestSchema,
  ValidationRulesSchema,
  type ValidateMatchResponse,
} from "./gen/tavla/v1/validate_pb.js";
export * from "./gen/tavla/v1/match_service_pb.js";
export * from "./gen/tavla/v1/records_service_pb.js";
export * from "./gen/tavla/v1/referee_service_pb.js";
export * from "./gen/tavla/v1/render_pb.js";
export * from "./gen/tavla/v1/rules_service_pb.js";
export * from "./gen/tavla/v1/types_pb.js";
export * from "./gen/tavla/v1/validate_pb.js";
export * from "./variants.js";

/** The five services by their short name, as the conformance scenarios name them. */
export const SERVICES = { RulesService, MatchService, RefereeService, RecordsService, AnalysisService } as const;

/** Where `make serve` listens. */
export const DEFAULT_TARGET = "localhost:50051";

/** The Position ID of the starting position (R2), for either side on roll. */
export const START_POSITION_ID = "4HPwATDgc/ABMA";

/**
 * The default service config of every tavla client (clients/service_config.json; a test checks
 * they agree). gRPC-js style channels read it directly; here it drives the transport's default
 * timeout and {@link retryInterceptor}. Every RPC is stateless, so retrying is always safe.
 */
export const SERVICE_CONFIG = {
  methodConfig: [
    {
      name: [
        { service: "tavla.v1.RulesService" },
        { service: "tavla.v1.MatchService" },
        { service: "tavla.v1.RefereeService" },
        { service: "tavla.v1.RecordsService" },
        { service: "tavla.v1.AnalysisService" },
      ],
      timeout: "30s",
      retryPolicy: {
        maxAttempts: 5,
        initialBackoff: "0.1s",
        maxBackoff: "2s",
        backoffMultiplier: 2,
        retryableStatusCodes: ["UNAVAILABLE", "CANCELLED"],
      },
    },
    // ValidateMatch streams a whole archive: no timeout and no retry (a retry would send it again).
    { name: [{ service: "tavla.v1.RecordsService", method: "ValidateMatch" }] },
  ],
} as const;

/** A gRPC retry policy (gRFC A6), durations in milliseconds. */
export interface RetryPolicy {
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  backoffMultiplier: number;
  retryableCodes: Code[];
}

const CODE_NAMES = [
  "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
  "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",
  "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
];

/** The canonical gRPC name of a status code: `codeName(Code.InvalidArgument) === "INVALID_ARGUMENT"`. */
export function codeName(code: Code): string {
  return CODE_NAMES[code] ?? `CODE_${code}`;
}

function durationMs(text: string): number {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Math.round(parseFloat(m[1]) * 1000);
}

const method = SERVICE_CONFIG.methodConfig[0];

/** The default timeout of every call, from {@link SERVICE_CONFIG}. */
export const DEFAULT_TIMEOUT_MS = durationMs(method.timeout);

/** The retry policy of {@link SERVICE_CONFIG}. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: method.retryPolicy.maxAttempts,
  initialBackoffMs: durationMs(method.retryPolicy.initialBackoff),
  maxBackoffMs: durationMs(method.retryPolicy.maxBackoff),
  backoffMultiplier: method.retryPolicy.backoffMultiplier,
  retryableCodes: method.retryPolicy.retryableStatusCodes.map((name) => CODE_NAMES.indexOf(name) as Code),
};

/**
 * Retries a unary call that fails with a retryable code, as gRPC's retry policy does: attempt n+1
 * waits a random time up to min(initial x multiplier^(n-1), max). The call's deadline covers all
 * attempts; a cancelled call is not retried.
 */
export function retryInterceptor(policy: RetryPolicy = DEFAULT_RETRY_POLICY): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(req);
      } catch (e) {
        const err = ConnectError.from(e);
        if (attempt >= policy.maxAttempts || !policy.retryableCodes.includes(err.code) || req.signal.aborted) {
          throw e;
        }
        const cap = Math.min(policy.initialBackoffMs * policy.backoffMultiplier ** (attempt - 1), policy.maxBackoffMs);
        await sleep(Math.random() * cap, req.signal);
      }
    }
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** Options shared by every transport of {@link EngineClient}. */
export interface EngineOptions {
  /** `false` for no retries; default {@link DEFAULT_RETRY_POLICY}. */
  retry?: RetryPolicy | false;
  /** The ruleset of every helper call: a preset name or a Ruleset; default the server's (international). */
  ruleset?: string | Ruleset;
  /** The language of the player messages of errors ("en", "tr"), sent as `x-tavla-locale`. */
  locale?: string;
}

/** The interceptors {@link EngineOptions} ask for (locale, retries), then `extra`. */
export function engineInterceptors(options: EngineOptions, extra: Interceptor[] = []): Interceptor[] {
  return [
    ...(options.locale ? [localeInterceptor(options.locale)] : []),
    ...(options.retry === false ? [] : [retryInterceptor(options.retry ?? DEFAULT_RETRY_POLICY)]),
    ...extra,
  ];
}

/** The request metadata (HTTP/2 header) that picks the language of the player messages. */
export const LOCALE_HEADER = "x-tavla-locale";

/** Every RPC and its helper on {@link EngineClient}; a new RPC is one entry and one short method. */
export const HELPERS = {
  GetInitialPosition: "getInitialPosition",
  ListLegalMoves: "listLegalMoves",
  ApplyMove: "applyMove",
  ScoreGame: "scoreGame",
  BearOff: "bearOff",
  ListLegalSteps: "listLegalSteps",
  StartGame: "startGame",
  CommitDice: "commitDice",
  RollDice: "rollDice",
  NameRoll: "nameRoll",
  ListCubeActions: "listCubeActions",
  ApplyCubeAction: "applyCubeAction",
  OfferResignation: "offerResignation",
  AnswerResignation: "answerResignation",
  UpdateMatch: "updateMatch",
  AdvanceClock: "advanceClock",
  ResolveRuleset: "resolveRuleset",
  ListRulesets: "listRulesets",
  RenderPosition: "renderPosition",
  NewMatch: "newMatch",
  ListActions: "listActions",
  Act: "act",
  ValidateMatch: "validateMatch",
  ExportMatch: "exportMatch",
  SuggestMove: "suggestMove",
  EvaluatePosition: "evaluatePosition",
  SuggestCubeAction: "suggestCubeAction",
  AnalyzeMatch: "analyzeMatch",
  SuggestAction: "suggestAction",
  StreamAnalyzeMatch: "streamAnalyzeMatch",
} as const;

/**
 * The proto name of an enum value: `enumName(SideSchema, Side.WHITE) === "SIDE_WHITE"`,
 * `enumName(CubeActionSchema, r.actions[0]) === "CUBE_ACTION_DOUBLE"`; `"<n>"` for an unknown number.
 */
export function enumName(schema: DescEnum, value: number): string {
  return schema.value[value]?.name ?? String(value);
}

// The Turkish names of the result kinds (tavla.core.i18n.names), read wherever a kind is.
const KIND_ALIASES: Record<string, string> = { MARS: "GAMMON", KATMERLI_MARS: "BACKGAMMON" };

/**
 * The number of an enum value given as a number, its proto name, or its name without the enum's
 * prefix in any case: `enumValue(SideSchema, "white") === Side.WHITE`,
 * `enumValue(ResultKindSchema, "mars") === ResultKind.GAMMON`. Throws on an unknown name.
 */
export function enumValue(schema: DescEnum, value: number | string | undefined): number {
  if (value === undefined) return 0;
  if (typeof value === "number") return value;
  let key = value.trim().toUpperCase().replace(/[ -]/g, "_").replace(/İ/g, "I");
  key = KIND_ALIASES[key] ?? key;
  const prefix = schema.sharedPrefix?.toUpperCase() ?? "";
  const found = schema.values.find((v) => v.name === key || v.name === prefix + key);
  if (!found) throw new Error(`${value} is not one of ${schema.values.map((v) => v.name).join(", ")}`);
  return found.number;
}

/** The proto JSON form of a message: enums as names ("SIDE_WHITE"), camelCase field names. */
export function asJson<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonValue {
  return toJson(schema, message);
}

/** A new match of `length` points (0: money play), or any MatchState field set. */
export function matchState(length = 0, init: MessageInitShape<typeof MatchStateSchema> = {}): MatchState {
  return create(MatchStateSchema, { length, ...init });
}

/** An enum value by number or name (see {@link enumValue}). */
export type EnumLike = number | string;
/** A position, or its Position ID. */
export type PositionLike = Position | string;
/** A message or a plain object of its fields. */
type Init<Desc extends DescMessage> = MessageShape<Desc> | MessageInitShape<Desc>;
/** A step: a CheckerMove, or [from, to] / [from, to, die]. */
export type StepLike = CheckerMove | MessageInitShape<typeof CheckerMoveSchema> | [number, number] | [number, number, number];
/** A resignation offer: the message, or [side, kind], e.g. ["black", "mars"]. */
export type OfferLike = ResignationOffer | [EnumLike, EnumLike] | { side?: EnumLike; kind?: EnumLike };
/** How a game ended: the message any answer gave, or its fields with enum names. */
export type OutcomeLike = GameOutcome | { winner?: EnumLike; ending?: EnumLike; kind?: EnumLike; points?: number };
/** Per-call options of the helpers. */
export interface CallOptions {
  /** Override the client's ruleset for this call. */
  ruleset?: string | Ruleset;
}
/**
 * Options of the analysis helpers: the match (score, Crawford, cube; unset: money play with the
 * cube centred, a 1-point match for a ruleset without money play) and the level, an
 * AnalysisLevel name or number ("beginner", "intermediate", "advanced", "expert"; unset: expert).
 */
export interface AnalysisOptions extends CallOptions {
  match?: Init<typeof MatchStateSchema>;
  level?: EnumLike;
}

/** A position given by its Position ID; on roll unset means white. */
export function byId(positionId: string, onRoll: Side = Side.UNSPECIFIED): Position {
  return create(PositionSchema, { checkers: { case: "positionId", value: positionId }, onRoll });
}

/** The board of a position whose checkers are given as a board (every position the server returns, but under MOVE_VIEW_BASIC), else undefined. */
export function boardOf(position: Position | undefined): Board | undefined {
  return position?.checkers.case === "board" ? position.checkers.value : undefined;
}

/** A move given by its notation, e.g. "24/23 13/8". */
export function notation(text: string): Move {
  return create(MoveSchema, { notation: text });
}

/**
 * A client of the tavla.v1 services over one transport: the generated Connect client of each
 * service (`rules`, `match`, `referee`, `records`, `analysis`: every RPC with its full request
 * and response), and a typed helper for every RPC (HELPERS).
 */
export class EngineClient {
  /** RulesService: positions, legal moves, scoring, bear-off, pictures, roll names. */
  readonly rules: Client<typeof RulesService>;
  /** MatchService: steps, the start of a game, dice, the cube, resignations, score, clocks, rulesets. */
  readonly match: Client<typeof MatchService>;
  /** RefereeService: NewMatch, ListActions and Act over one signed state. */
  readonly referee: Client<typeof RefereeService>;
  /** RecordsService: ValidateMatch, ExportMatch. */
  readonly records: Client<typeof RecordsService>;
  /** AnalysisService: move, position, cube and match analysis and the computer opponent (docs/analysis.md). */
  readonly analysis: Client<typeof AnalysisService>;
  /** The ruleset sent with every helper call. */
  ruleset: Ruleset | undefined;
  /** The first ListRulesets answer's facts ({@link variants}), kept. */
  private variantTable: Promise<VariantTable> | undefined;

  constructor(readonly transport: Transport, ruleset?: string | Ruleset) {
    this.rules = createClient(RulesService, transport);
    this.match = createClient(MatchService, transport);
    this.referee = createClient(RefereeService, transport);
    this.records = createClient(RecordsService, transport);
    this.analysis = createClient(AnalysisService, transport);
    this.ruleset = asRuleset(ruleset);
  }

  private rulesetOf(options?: CallOptions): Ruleset | undefined {
    return options?.ruleset !== undefined ? asRuleset(options.ruleset) : this.ruleset;
  }

  /** The starting position with `onRoll` on roll (default white). */
  async getInitialPosition(onRoll: EnumLike = Side.WHITE, options?: CallOptions): Promise<Position> {
    const side = enumValue(SideSchema, onRoll);
    const r = await this.rules.getInitialPosition({ ruleset: this.rulesetOf(options), onRoll: side });
    return r.position ?? byId(START_POSITION_ID, side);
  }

  /** Every legal move for the roll; never empty (one empty move when no die can be played). */
  async listLegalMoves(position: PositionLike, dice: number[], options?: CallOptions & { view?: EnumLike }): Promise<Move[]> {
    const view = enumValue(MoveViewSchema, options?.view);
    const r = await this.rules.listLegalMoves({ ruleset: this.rulesetOf(options), position: asPosition(position), dice, view });
    return r.moves;
  }

  /** Play `move` (one of {@link listLegalMoves}, or its notation): the next position, and `outcome` when the game ends (its points with `match`'s cube). */
  applyMove(
    position: PositionLike,
    dice: number[],
    move: Move | string,
    options?: CallOptions & { match?: Init<typeof MatchStateSchema> },
  ): Promise<ApplyMoveResponse> {
    return this.rules.applyMove({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      dice,
      move: typeof move === "string" ? notation(move) : move,
      match: options?.match,
    });
  }

  /** The `outcome` when one side has borne off all its checkers (15; hypergammon 3; R15-R17), else unset; its points with `match`'s cube. */
  scoreGame(position: PositionLike, options?: CallOptions & { match?: Init<typeof MatchStateSchema> }): Promise<ScoreGameResponse> {
    return this.rules.scoreGame({ ruleset: this.rulesetOf(options), position: asPosition(position), match: options?.match });
  }

  /** Bear-off figures of both sides, race odds, and with dice the ranked moves. */
  bearOff(position: PositionLike, dice: number[] = [], options?: CallOptions): Promise<BearOffResponse> {
    return this.rules.bearOff({ ruleset: this.rulesetOf(options), position: asPosition(position), dice });
  }

  /** The legal next steps after `steps` (drag-friendly), whether they make a complete `move`, and its `outcome` when it ends the game. */
  listLegalSteps(
    position: PositionLike,
    dice: number[],
    steps: StepLike[] = [],
    options?: CallOptions & { match?: Init<typeof MatchStateSchema> },
  ): Promise<ListLegalStepsResponse> {
    return this.match.listLegalSteps({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      dice,
      steps: steps.map(asStep),
      match: options?.match,
    });
  }

  /**
   * Who starts, the first dice (larger first) and every roll-off throw (R3). Dice rolled
   * elsewhere (`rollOff`, and under the Turkish rule the starter's `dice`) are sent as the
   * request's `given`; a committed `seed` instead; neither: the server rolls. Throws an Error
   * when both are given (the request's oneof holds one).
   */
  startGame(
    options: CallOptions & {
      match?: Init<typeof MatchStateSchema>;
      rollOff?: ([number, number] | MessageInitShape<typeof RollOffThrowSchema>)[];
      dice?: number[];
      seed?: Init<typeof DiceSeedSchema>;
    } = {},
  ): Promise<StartGameResponse> {
    const rollOff = (options.rollOff ?? []).map((t) =>
      create(RollOffThrowSchema, Array.isArray(t) ? { whiteDie: t[0], blackDie: t[1] } : t),
    );
    const dice = options.dice ?? [];
    const given = rollOff.length > 0 || dice.length > 0;
    if (given && options.seed !== undefined) {
      throw new Error("startGame: give dice rolled elsewhere (rollOff, dice) or a seed, not both");
    }
    return this.match.startGame({
      ruleset: this.rulesetOf(options),
      match: options.match,
      diceSource: given
        ? { case: "given", value: { rollOff, dice } }
        : options.seed !== undefined
          ? { case: "seed", value: options.seed }
          : { case: undefined },
    });
  }

  /** A commitment and a token to roll verifiable dice with (docs/dice.md). */
  async commitDice(options: { clientSeed?: string; clientSeedSha256?: string } = {}): Promise<CommitDiceResponse> {
    let digest = options.clientSeedSha256 ?? "";
    if (options.clientSeed !== undefined) {
      const bytes = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(options.clientSeed));
      digest = Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
    }
    return this.match.commitDice({ clientSeedSha256: digest });
  }

  /** Two dice, larger first, with their Turkish name; `gele` with a position (read under the ruleset, default the client's), `proof` with a seed. */
  rollDice(options: CallOptions & { seed?: Init<typeof DiceSeedSchema>; position?: PositionLike } = {}): Promise<RollDiceResponse> {
    const position = options.position === undefined ? undefined : asPosition(options.position);
    return this.match.rollDice({
      seed: options.seed,
      position,
      // the server reads the ruleset only with a position
      ruleset: position === undefined ? undefined : this.rulesetOf(options),
    });
  }

  /** The Turkish name of a roll (R26). */
  nameRoll(dice: number[]): Promise<NameRollResponse> {
    return this.rules.nameRoll({ dice });
  }

  /** The cube actions `side` may take now, and why it may not double (R19-R21). */
  listCubeActions(match: Init<typeof MatchStateSchema>, side: EnumLike, options?: CallOptions): Promise<ListCubeActionsResponse> {
    return this.match.listCubeActions({ ruleset: this.rulesetOf(options), match, side: enumValue(SideSchema, side) });
  }

  /** The match after `action` ("double", "take", "drop", "beaver"); a drop ends the game with `outcome`. */
  applyCubeAction(
    match: Init<typeof MatchStateSchema>,
    side: EnumLike,
    action: EnumLike,
    options?: CallOptions,
  ): Promise<ApplyCubeActionResponse> {
    return this.match.applyCubeAction({
      ruleset: this.rulesetOf(options),
      match,
      side: enumValue(SideSchema, side),
      action: enumValue(CubeActionSchema, action),
    });
  }

  /** What `offer` (e.g. ["black", "mars"]) pays if accepted. */
  offerResignation(match: Init<typeof MatchStateSchema>, offer: OfferLike, options?: CallOptions): Promise<OfferResignationResponse> {
    return this.match.offerResignation({ ruleset: this.rulesetOf(options), match, offer: asOffer(offer) });
  }

  /** Accept (the game ends with `outcome`) or reject `offer`. */
  answerResignation(
    match: Init<typeof MatchStateSchema>,
    offer: OfferLike,
    accept: boolean,
    options?: CallOptions,
  ): Promise<AnswerResignationResponse> {
    return this.match.answerResignation({ ruleset: this.rulesetOf(options), match, offer: asOffer(offer), accept });
  }

  /** The match after a game ended with `outcome` (any answer's `outcome`, unchanged). */
  updateMatch(match: Init<typeof MatchStateSchema>, outcome: OutcomeLike, options?: CallOptions): Promise<UpdateMatchResponse> {
    return this.match.updateMatch({ ruleset: this.rulesetOf(options), match, outcome: asOutcome(outcome) });
  }

  /** The clock after `side` used `elapsedMs` (whole milliseconds) on `event` (default a move), or a forfeit (R23-R25). */
  advanceClock(
    side: EnumLike,
    elapsedMs = 0,
    options: {
      settings?: Init<typeof ClockSettingsSchema>;
      state?: Init<typeof ClockStateSchema>;
      event?: EnumLike;
    } = {},
  ): Promise<AdvanceClockResponse> {
    return this.match.advanceClock({
      settings: options.settings,
      state: options.state,
      side: enumValue(SideSchema, side),
      event: enumValue(ClockEventSchema, options.event),
      elapsed: durationOfMs(elapsedMs),
    });
  }

  /** The ruleset (default the client's) with its preset and every option resolved. */
  resolveRuleset(ruleset?: string | Ruleset): Promise<ResolveRulesetResponse> {
    return this.match.resolveRuleset({ ruleset: ruleset === undefined ? this.ruleset : asRuleset(ruleset) });
  }

  /** The named presets with their options. */
  listRulesets(): Promise<ListRulesetsResponse> {
    return this.match.listRulesets({});
  }

  /** Every variant's facts (direction, contact, bar, checkers, home, options), from one ListRulesets call made the first time and kept for the client's life (a failed call is not kept). */
  variants(): Promise<VariantTable> {
    this.variantTable ??= this.listRulesets().then(
      (r) => new VariantTable(r.presets),
      (e: unknown) => {
        this.variantTable = undefined;
        throw e;
      },
    );
    return this.variantTable;
  }

  /** The facts of the variant or preset called `name` (any alias; case, spaces and hyphens ignored); rejects with an Error naming the known ones for an unknown name. */
  async variantFacts(name: string): Promise<VariantFacts> {
    return (await this.variants()).facts(name);
  }

  /** The referee API (docs/game-state.md): the first signed state of a match (`length` 0: money play). */
  newMatch(
    length = 0,
    options?: CallOptions & { clock?: Init<typeof ClockSettingsSchema>; matchId?: string },
  ): Promise<NewMatchResponse> {
    return this.referee.newMatch({ ruleset: this.rulesetOf(options), length, clock: options?.clock, matchId: options?.matchId ?? "" });
  }

  /** The legal actions of the side to act (`actions`) and what the state shows (`view`): what the answer that returned `state` gave. */
  listActions(state: SignedGameState): Promise<ListActionsResponse> {
    return this.referee.listActions({ state });
  }

  /**
   * One round trip per action: the next signed `state` after `action` (one of the last answer's
   * `actions`), its `view`, its legal `actions`, and `events` with the record entries it added
   * (`events.records`: append them to keep the record). `testDice` only for a test server
   * (`--test-inputs`, state mode off): the dice of a START_GAME or ROLL, sent as the
   * `x-tavla-test-dice` metadata.
   */
  act(state: SignedGameState, action: GameAction, options?: { testDice?: number[] }): Promise<ActResponse> {
    const headers = options?.testDice?.length ? { [TEST_DICE_HEADER]: options.testDice.join(",") } : undefined;
    return this.referee.act({ state, action }, { headers });
  }

  /**
   * Check whole match records on the server (ValidateMatch, a stream; docs/match-files.md): one
   * response per game as it completes, then one per record. `record` is the text or bytes of
   * .mat/.sgf records, or an (async) iterable of byte chunks; `format` and `rules` take
   * RecordFormat and ValidationRules names or numbers ("mat", "money_jacoby"). Needs a transport
   * with client streaming (the Node gRPC one; not Connect or gRPC-Web in a browser).
   */
  validateMatch(
    record: string | Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    options: { format?: EnumLike; rules?: EnumLike; source?: string; chunkBytes?: number } = {},
  ): AsyncIterable<ValidateMatchResponse> {
    const chunkBytes = options.chunkBytes ?? 32 << 10; // with its framing, below the server's 64 KiB request limit
    const bytes = typeof record === "string" ? new TextEncoder().encode(record) : record;
    const settings = {
      format: enumValue(RecordFormatSchema, options.format),
      rules: enumValue(ValidationRulesSchema, options.rules),
      source: options.source ?? "",
    };
    async function* requests() {
      let first = true;
      const pieces: Iterable<Uint8Array> | AsyncIterable<Uint8Array> =
        bytes instanceof Uint8Array
          ? Array.from({ length: Math.ceil(bytes.length / chunkBytes) }, (_, i) => bytes.subarray(i * chunkBytes, (i + 1) * chunkBytes))
          : bytes;
      for await (const chunk of pieces) {
        yield create(ValidateMatchRequestSchema, { ...(first ? settings : {}), piece: { case: "chunk", value: chunk } });
        first = false;
      }
    }
    return this.records.validateMatch(requests());
  }

  /**
   * A refereed match as a file (ExportMatch; docs/match-files.md): `state` its latest state,
   * `records` every entry of the `events.records` the Act answers gave, in order (they must lead
   * to the state's record digest). `format` "mat" (default) or "sgf" (ExportFormat names or
   * numbers). The answer's `content` is the file, `fileName` a name for it; a match in play gives
   * its games so far.
   */
  exportMatch(
    state: SignedGameState,
    records: ActionRecord[],
    options: { format?: EnumLike; whitePlayer?: string; blackPlayer?: string; headers?: Record<string, string> } = {},
  ): Promise<ExportMatchResponse> {
    return this.records.exportMatch({
      state, records, format: enumValue(ExportFormatSchema, options.format),
      whitePlayer: options.whitePlayer ?? "", blackPlayer: options.blackPlayer ?? "", headers: options.headers ?? {},
    });
  }

  /**
   * The legal moves of the roll ranked for the side on roll (SuggestMove, docs/analysis.md):
   * `moves` in the level's order of preference (the first is the one the level plays; with the
   * noise of the levels below expert not always the best equity), each with its `equity` per
   * unit of the cube, its `equityLoss` against the best and the mover's `probabilities`.
   * `maxMoves` 0 (the default) returns every legal move.
   */
  suggestMove(position: PositionLike, dice: number[], options?: AnalysisOptions & { maxMoves?: number }): Promise<SuggestMoveResponse> {
    return this.analysis.suggestMove({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      dice,
      match: options?.match,
      level: enumValue(AnalysisLevelSchema, options?.level),
      maxMoves: options?.maxMoves ?? 0,
    });
  }

  /** The side on roll's chances (`probabilities`, each 0-1) and equity before it rolls (`cubelessEquity`, `equity` with the cube). */
  evaluatePosition(position: PositionLike, options?: AnalysisOptions): Promise<EvaluatePositionResponse> {
    return this.analysis.evaluatePosition({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      match: options?.match,
      level: enumValue(AnalysisLevelSchema, options?.level),
    });
  }

  /**
   * Whether the side on roll should double and the other side take (R19-R21; SuggestCubeAction):
   * `advice`, `doubleAvailable` (else `doubleDeniedReason`, an ErrorReason name) and the
   * no-double, double/take and double/pass equities.
   */
  suggestCubeAction(position: PositionLike, options?: AnalysisOptions): Promise<SuggestCubeActionResponse> {
    return this.analysis.suggestCubeAction({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      match: options?.match,
      level: enumValue(AnalysisLevelSchema, options?.level),
    });
  }

  /**
   * A match record reviewed (AnalyzeMatch; docs/match-files.md): a .mat record as text, or an
   * .sgf record as bytes. `players` holds white's (player 1's) and black's error rates and
   * performance ratings, `decisions` every decision's error. The ruleset (unset: the
   * international rules with the record's headers) is the rules it was played by; the level
   * unset is advanced.
   */
  analyzeMatch(record: string | Uint8Array, options?: CallOptions & { level?: EnumLike }): Promise<AnalyzeMatchResponse> {
    return this.analysis.analyzeMatch({
      record: typeof record === "string" ? { case: "mat", value: record } : { case: "sgf", value: record },
      ruleset: this.rulesetOf(options),
      level: enumValue(AnalysisLevelSchema, options?.level),
    });
  }

  /**
   * {@link analyzeMatch} with its progress, for a frontend to show while it waits
   * (StreamAnalyzeMatch, a server stream): `progress` messages (`decisionsDone` of
   * `decisionsTotal`, in `game` of `games`) as the review goes, then `result`, the
   * AnalyzeMatchResponse, last. Any transport serves it (gRPC, Connect, gRPC-Web); breaking off
   * the iteration cancels the call and stops the server's analysis.
   */
  streamAnalyzeMatch(record: string | Uint8Array, options?: CallOptions & { level?: EnumLike }): AsyncIterable<StreamAnalyzeMatchResponse> {
    return this.analysis.streamAnalyzeMatch({
      record: typeof record === "string" ? { case: "mat", value: record } : { case: "sgf", value: record },
      ruleset: this.rulesetOf(options),
      level: enumValue(AnalysisLevelSchema, options?.level),
    });
  }

  /**
   * The computer's `action` for the side to act in a referee state (SuggestAction): pass it to
   * {@link act} with the same state, two calls per action. It never resigns and never claims a
   * timeout; `level` unset is expert.
   */
  suggestAction(state: SignedGameState, level?: EnumLike): Promise<SuggestActionResponse> {
    return this.analysis.suggestAction({ state, level: enumValue(AnalysisLevelSchema, level) });
  }

  /** The board as an SVG document and as text (`svg`, `text`); `dice`, `match` and drawing `options` optional. */
  renderPosition(
    position: PositionLike,
    options?: CallOptions & { dice?: number[]; match?: Init<typeof MatchStateSchema>; render?: Init<typeof RenderOptionsSchema> },
  ): Promise<RenderPositionResponse> {
    return this.rules.renderPosition({
      ruleset: this.rulesetOf(options),
      position: asPosition(position),
      dice: options?.dice ?? [],
      match: options?.match,
      options: options?.render,
    });
  }
}

/** The request metadata a test server (--test-inputs) reads the dice of an Act from, e.g. "6,1". */
export const TEST_DICE_HEADER = "x-tavla-test-dice";

function durationOfMs(ms: number) {
  return create(DurationSchema, { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 });
}

function asRuleset(ruleset: string | Ruleset | undefined): Ruleset | undefined {
  return typeof ruleset === "string" ? create(RulesetSchema, { preset: ruleset }) : ruleset;
}

function asPosition(position: PositionLike): Position {
  return typeof position === "string" ? byId(position) : position;
}

function asStep(step: StepLike): CheckerMove {
  if (Array.isArray(step)) return create(CheckerMoveSchema, { fromPoint: step[0], toPoint: step[1], die: step[2] ?? 0 });
  return create(CheckerMoveSchema, step as MessageInitShape<typeof CheckerMoveSchema>);
}

function asOffer(offer: OfferLike): ResignationOffer {
  const [side, kind] = Array.isArray(offer) ? offer : [offer.side, offer.kind];
  return create(ResignationOfferSchema, { side: enumValue(SideSchema, side), kind: enumValue(ResultKindSchema, kind) });
}

function asOutcome(outcome: OutcomeLike): GameOutcome {
  return create(GameOutcomeSchema, {
    winner: enumValue(SideSchema, outcome.winner),
    ending: enumValue(GameEndingSchema, outcome.ending ?? "borne_off"),
    kind: enumValue(ResultKindSchema, outcome.kind),
    points: outcome.points ?? 0,
  });
}

/** Sends `locale` as the {@link LOCALE_HEADER} of every call (the language of player messages). */
export function localeInterceptor(locale: string): Interceptor {
  return (next) => (req) => {
    req.header.set(LOCALE_HEADER, locale);
    return next(req);
  };
}

/** A failed call with the rich details the engine sends (AIP-193). */
export interface EngineError {
  /** The canonical status code name: "INVALID_ARGUMENT", "UNAVAILABLE", ... */
  code: string;
  /** The status message. */
  message: string;
  /** ErrorInfo.reason: the rule an illegal move breaks (MUST_USE_BOTH_DICE, GAME_OVER, ...), else "". */
  reason: string;
  /** ErrorInfo.domain ("tavla.v1"), else "". */
  domain: string;
  /** ErrorInfo.metadata: "move", "dice", "winner". */
  metadata: Record<string, string>;
  /** The request fields named by BadRequest field violations, e.g. ["dice"]. */
  fields: string[];
  /** google.rpc.LocalizedMessage: the error worded for players, in `locale`, else "". */
  localized: string;
  /** The locale of `localized` ("en", "tr"), else "". */
  locale: string;
}

/** Read the status and details of an error thrown by a call. */
export function engineError(e: unknown): EngineError {
  const err = ConnectError.from(e);
  const out: EngineError = {
    code: codeName(err.code),
    message: err.rawMessage,
    reason: "",
    domain: "",
    metadata: {},
    fields: [],
    localized: "",
    locale: "",
  };
  for (const detail of err.details) {
    if (!("type" in detail) || !(detail.value instanceof Uint8Array)) continue;
    if (detail.type === "google.rpc.ErrorInfo") {
      readFields(detail.value, (no, r) => {
        if (no === 1) out.reason = r.string();
        else if (no === 2) out.domain = r.string();
        else if (no === 3) {
          let key = "";
          let value = "";
          readFields(r.bytes(), (n, e) => {
            if (n === 1) key = e.string();
            else if (n === 2) value = e.string();
            else return false;
            return true;
          });
          out.metadata[key] = value;
        } else return false;
        return true;
      });
    } else if (detail.type === "google.rpc.LocalizedMessage") {
      readFields(detail.value, (no, r) => {
        if (no === 1) out.locale = r.string();
        else if (no === 2) out.localized = r.string();
        else return false;
        return true;
      });
    } else if (detail.type === "google.rpc.BadRequest") {
      readFields(detail.value, (no, r) => {
        if (no !== 1) return false;
        readFields(r.bytes(), (n, v) => {
          if (n !== 1) return false;
          out.fields.push(v.string());
          return true;
        });
        return true;
      });
    }
  }
  return out;
}

// Walks a message's fields; `read` consumes the field it knows and returns false for the others,
// which are skipped. google.rpc.ErrorInfo and BadRequest are decoded by hand so that the package
// needs no generated googleapis code.
function readFields(bytes: Uint8Array, read: (fieldNo: number, reader: BinaryReader) => boolean): void {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    if (!read(fieldNo, reader)) reader.skip(wireType);
  }
}
