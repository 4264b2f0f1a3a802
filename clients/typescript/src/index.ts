/**
 * TypeScript client of the tavla.v1 services of the stateless tavla and backgammon rules engine.
 *
 * `createEngineClient(target)` returns a Connect client over the gRPC protocol (HTTP/2,
 * `@connectrpc/connect-node`) with the default service config that every tavla client shares
 * (SERVICE_CONFIG: a 30 s deadline for calls without one, up to 5 attempts on UNAVAILABLE), and
 * a typed helper for every RPC (HELPERS, in engine.ts). Every RPC is also on its service's client
 * (`client.rules`, `client.match`, `client.referee`, `client.records`, `client.analysis`) with its full request and
 * response. For browsers import `@tavla-engine/client/web` instead (Connect or
 * gRPC-Web over fetch).
 */
import { createGrpcTransport, type GrpcTransportOptions } from "@connectrpc/connect-node";

import { DEFAULT_TARGET, DEFAULT_TIMEOUT_MS, EngineClient, engineInterceptors, type EngineOptions } from "./engine.js";

export * from "./engine.js";

/** Options of {@link createEngineClient}; any gRPC transport option may be added. */
export type EngineClientOptions = Partial<GrpcTransportOptions> &
  EngineOptions & {
    /** Use TLS (`https://`); default plaintext. */
    tls?: boolean;
  };

/**
 * A client for `target` ("host:port", or a URL "http://host:port"). The defaults: plaintext,
 * a {@link DEFAULT_TIMEOUT_MS} timeout for calls without one, and {@link retryInterceptor}.
 */
export function createEngineClient(target: string = DEFAULT_TARGET, options: EngineClientOptions = {}): EngineClient {
  const { retry, tls, ruleset, locale, interceptors = [], ...rest } = options;
  const baseUrl = /^https?:\/\//.test(target) ? target : `${tls ? "https" : "http"}://${target}`;
  const transport = createGrpcTransport({
    baseUrl,
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    ...rest,
    interceptors: engineInterceptors({ retry, locale }, interceptors),
  });
  return new EngineClient(transport, ruleset);
}
