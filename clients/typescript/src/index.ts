/**
 * TypeScript client of tavla.v1.EngineService, the stateless tavla and backgammon rules engine.
 *
 * `createEngineClient(target)` returns a Connect client over the gRPC protocol (HTTP/2,
 * `@connectrpc/connect-node`) with the default service config that every tavla client shares
 * (SERVICE_CONFIG: a 30 s deadline for calls without one, up to 5 attempts on UNAVAILABLE), plus
 * a few typed helpers. Every RPC is on `client.rpc` with its full request and response.
 * `engineError(err)` reads the rich error details (ErrorInfo reason, BadRequest fields).
 */
import { create } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { Code, ConnectError, createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, type GrpcTransportOptions } from "@connectrpc/connect-node";

import {
  EngineService,
  type ApplyMoveResponse,
  type BearOffResponse,
  type ScoreGameResponse,
} from "./gen/tavla/v1/engine_service_pb.js";
import {
  MoveSchema,
  PositionSchema,
  RulesetSchema,
  Side,
  type Move,
  type Position,
  type Ruleset,
} from "./gen/tavla/v1/types_pb.js";

// Every generated file of tavla.v1 (a test checks none is missing).
export * from "./gen/tavla/v1/bearoff_pb.js";
export * from "./gen/tavla/v1/clock_pb.js";
export * from "./gen/tavla/v1/dice_pb.js";
export * from "./gen/tavla/v1/engine_service_pb.js";
export * from "./gen/tavla/v1/match_pb.js";
export * from "./gen/tavla/v1/types_pb.js";
export * from "./gen/tavla/v1/validate_pb.js";

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
      name: [{ service: "tavla.v1.EngineService" }],
      timeout: "30s",
      retryPolicy: {
        maxAttempts: 5,
        initialBackoff: "0.1s",
        maxBackoff: "2s",
        backoffMultiplier: 2,
        retryableStatusCodes: ["UNAVAILABLE"],
      },
    },
    // ValidateMatch streams a whole archive: no timeout and no retry (a retry would send it again).
    { name: [{ service: "tavla.v1.EngineService", method: "ValidateMatch" }] },
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

/** Options of {@link createEngineClient}; any gRPC transport option may be added. */
export type EngineClientOptions = Partial<GrpcTransportOptions> & {
  /** `false` for no retries; default {@link DEFAULT_RETRY_POLICY}. */
  retry?: RetryPolicy | false;
  /** Use TLS (`https://`); default plaintext. */
  tls?: boolean;
  /** The ruleset of every helper call: a preset name or a Ruleset; default the server's (international). */
  ruleset?: string | Ruleset;
};

/** A position given by its Position ID; on roll unset means white. */
export function byId(positionId: string, onRoll: Side = Side.UNSPECIFIED): Position {
  return create(PositionSchema, { positionId, onRoll });
}

/** A move given by its notation, e.g. "24/23 13/8". */
export function notation(text: string): Move {
  return create(MoveSchema, { notation: text });
}

/** A client of tavla.v1.EngineService: every RPC on `rpc`, and typed helpers. */
export class EngineClient {
  /** The generated Connect client: every RPC with its full request and response. */
  readonly rpc: Client<typeof EngineService>;
  /** The ruleset sent with every helper call. */
  ruleset: Ruleset | undefined;

  constructor(readonly transport: Transport, ruleset?: string | Ruleset) {
    this.rpc = createClient(EngineService, transport);
    this.ruleset = typeof ruleset === "string" ? create(RulesetSchema, { preset: ruleset }) : ruleset;
  }

  /** The starting position with `onRoll` on roll (default white). */
  async initialPosition(onRoll: Side = Side.WHITE): Promise<Position> {
    const r = await this.rpc.getInitialPosition({ ruleset: this.ruleset, onRoll });
    return r.position ?? byId(START_POSITION_ID, onRoll);
  }

  /** Every legal move for the roll; never empty (one empty move when no die can be played). */
  async legalMoves(position: Position | string, dice: [number, number]): Promise<Move[]> {
    const r = await this.rpc.listLegalMoves({ ruleset: this.ruleset, position: asPosition(position), dice });
    return r.moves;
  }

  /** Play `move` (one of {@link legalMoves}, or its notation); the response holds the next position. */
  applyMove(position: Position | string, dice: [number, number], move: Move | string): Promise<ApplyMoveResponse> {
    return this.rpc.applyMove({
      ruleset: this.ruleset,
      position: asPosition(position),
      dice,
      move: typeof move === "string" ? notation(move) : move,
    });
  }

  /** `gameOver` and, when over, the result. */
  scoreGame(position: Position | string): Promise<ScoreGameResponse> {
    return this.rpc.scoreGame({ ruleset: this.ruleset, position: asPosition(position) });
  }

  /** Bear-off figures of both sides, race odds, and with dice the ranked moves. */
  bearOff(position: Position | string, dice: number[] = []): Promise<BearOffResponse> {
    return this.rpc.bearOff({ ruleset: this.ruleset, position: asPosition(position), dice });
  }
}

function asPosition(position: Position | string): Position {
  return typeof position === "string" ? byId(position) : position;
}

/**
 * A client for `target` ("host:port", or a URL "http://host:port"). The defaults: plaintext,
 * a {@link DEFAULT_TIMEOUT_MS} timeout for calls without one, and {@link retryInterceptor}.
 */
export function createEngineClient(target: string = DEFAULT_TARGET, options: EngineClientOptions = {}): EngineClient {
  const { retry, tls, ruleset, interceptors = [], ...rest } = options;
  const baseUrl = /^https?:\/\//.test(target) ? target : `${tls ? "https" : "http"}://${target}`;
  const transport = createGrpcTransport({
    baseUrl,
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    ...rest,
    interceptors: retry === false ? interceptors : [retryInterceptor(retry ?? DEFAULT_RETRY_POLICY), ...interceptors],
  });
  return new EngineClient(transport, ruleset);
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
