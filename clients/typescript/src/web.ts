/**
 * The client of the tavla.v1 services for browsers: the same EngineClient, helpers, retries and
 * error details as the Node client, over `fetch` with `@connectrpc/connect-web`, to a
 * tavla-engine HTTP port (`tavla-engine serve --http-port 8080`, docs/web.md).
 *
 * `protocol: "connect"` (the default) speaks Connect, JSON by default (readable in the browser's
 * network panel) or binary with `useBinaryFormat: true`; `protocol: "grpc-web"` speaks gRPC-Web
 * (binary). Both work over HTTP/1.1, so no proxy is needed. Messages are the generated
 * protobuf-es types; enums are numbers in code (`Side.WHITE`) and names in JSON ("SIDE_WHITE").
 */
import {
  createConnectTransport,
  createGrpcWebTransport,
  type ConnectTransportOptions,
  type GrpcWebTransportOptions,
} from "@connectrpc/connect-web";

import { DEFAULT_TIMEOUT_MS, EngineClient, engineInterceptors, type EngineOptions } from "./engine.js";

export * from "./engine.js";

/** Options of {@link createWebEngineClient}; any Connect or gRPC-Web transport option may be added. */
export type WebEngineClientOptions = Partial<Omit<ConnectTransportOptions & GrpcWebTransportOptions, "baseUrl">> &
  EngineOptions & {
    /** `"connect"` (default) or `"grpc-web"`. */
    protocol?: "connect" | "grpc-web";
  };

/**
 * A client of the engine's HTTP port at `baseUrl` (e.g. "http://localhost:8080", or the page's
 * own origin: `location.origin`). Defaults: Connect with JSON, a {@link DEFAULT_TIMEOUT_MS}
 * timeout for calls without one (sent as `connect-timeout-ms` / `grpc-timeout`), and
 * {@link retryInterceptor}.
 */
export function createWebEngineClient(baseUrl: string, options: WebEngineClientOptions = {}): EngineClient {
  const { retry, ruleset, locale, protocol = "connect", interceptors = [], ...rest } = options;
  const common = {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    ...rest,
    interceptors: engineInterceptors({ retry, locale }, interceptors),
  };
  const transport = protocol === "grpc-web" ? createGrpcWebTransport(common) : createConnectTransport(common);
  return new EngineClient(transport, ruleset);
}
