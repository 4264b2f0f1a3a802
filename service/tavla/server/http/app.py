"""The HTTP port: the tavla.v1 services over Connect and gRPC-Web, for browsers and curl.

An ASGI application (served by Hypercorn, :mod:`~tavla.server.http.server`) in front of the very
servicers the gRPC port uses, called through the same interceptors: the access log (with
``protocol``), metrics (``tavla_http_*``, labelled ``protocol``), the limits (one concurrency
budget shared with gRPC) and the error mapping, so every answer, error detail and limit is the
one gRPC gives. Each call has an :class:`HttpContext`: a call context of the service layer's
(:class:`~tavla.server.api.context.KeptCall`), which keeps the status the call ends with; the
shared interceptors read it as they read gRPC's (``code()``, ``details()``, ``protocol()``).

Routes:

* ``POST /tavla.v1.<Service>/<Method>`` (every unary RPC of :mod:`tavla.server.api.services`) and
  ``POST /grpc.health.v1.Health/Check``:
  Connect unary (``application/json`` or ``application/proto``; deadline ``connect-timeout-ms``)
  or gRPC-Web (``application/grpc-web[-text][+proto]``; deadline ``grpc-timeout``).
* The same for AnalysisService's server stream (StreamAnalyzeMatch), with Connect's streaming
  media types (``application/connect+json``, ``+proto``) or gRPC-Web; each message is sent as it
  comes. ValidateMatch (a bidirectional stream) is served on the gRPC port only.
* ``GET /healthz`` (the server) and ``GET /readyz`` (every tavla.v1 service; 503 while draining).
* ``GET /openapi.json``: the OpenAPI 3.1 description of the Connect JSON calls
  (:mod:`~tavla.server.http.openapi`, generated from proto/ and shipped with the package).
* ``GET`` anything else: the static files of ``web_dir`` when set (``/`` is ``index.html``).
* ``OPTIONS``: CORS preflight. Cross-origin calls are allowed only from the configured origins;
  same-origin pages (the served board) need none.
"""

from __future__ import annotations

import asyncio
import functools
import mimetypes
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import structlog
from google.protobuf import message as pb_message
from google.protobuf import message_factory
from google.rpc import status_pb2
from grpc_health.v1 import health, health_pb2

from tavla.server.api import encoded
from tavla.server.api.context import CallAborted, KeptCall, Metadata
from tavla.server.api import services
from tavla.server.http import openapi
from tavla.server.http import protocols as wire
from tavla.server.pipeline.access_log import AccessLogInterceptor
from tavla.server.admission.policy import BODY_SECONDS
from tavla.server.admission.calls import WRAPPED_STREAMS, Behaviour, UnaryInterceptor
from tavla.server.pipeline.errors import ErrorInterceptor, lenient_deserializer
from tavla.server.admission.limits import LimitsInterceptor
from tavla.server.pipeline.metrics import HttpMetricsInterceptor

log = structlog.get_logger("tavla.server.http")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

# Request headers a browser may send cross-origin, and response headers it may read.
ALLOWED_HEADERS = ("content-type", "connect-protocol-version", "connect-timeout-ms", "grpc-timeout",
                   "x-grpc-web", "x-user-agent", "x-request-id", "x-tavla-locale")
EXPOSED_HEADERS = ("grpc-status", "grpc-message", "grpc-status-details-bin", "x-request-id")
PREFLIGHT_MAX_AGE = "7200"
_HEALTH_METHOD = "/grpc.health.v1.Health/Check"


class HttpContext(KeptCall):
    """One HTTP call: a :class:`~tavla.server.api.context.KeptCall` (its deadline, and the status
    the servicers and the shared interceptors end it with), the answer's headers, and the
    ``grpc.ServicerContext`` names the shared interceptors call.

    :param protocol: ``"connect"`` or ``"grpc-web"`` (logs and metrics read it).
    :param timeout: the client's deadline in seconds, or ``None``.
    """

    def __init__(self, protocol: str, headers: dict[str, str], peer: str, timeout: float | None) -> None:
        super().__init__(tuple(headers.items()), timeout, peer, protocol)
        self.response_headers: list[tuple[str, str]] = []

    def invocation_metadata(self) -> Metadata:  # the interceptors' name (grpc.ServicerContext's)
        return self.metadata()

    def send_initial_metadata(self, metadata: Iterable[tuple[str, str]]) -> None:
        self.response_headers.extend((k, v) for k, v in metadata if isinstance(v, str))

    def add_callback(self, callback: Callable[[], None]) -> bool:
        return False  # no call back when the client goes: the limits check is_active each second

    def status_details(self) -> status_pb2.Status | None:
        """The ``google.rpc.Status`` set by ``abort_with_status`` (with ErrorInfo/BadRequest)."""
        for key, value in self.trailing_metadata():
            if key == wire.STATUS_DETAILS_KEY and isinstance(value, bytes):
                return status_pb2.Status.FromString(value)
        return None


class Method:
    """One callable RPC: its request parsers (binary, JSON) and the wrapped behaviour.

    :param stream: a server stream (:data:`~tavla.server.admission.calls.WRAPPED_STREAMS`): its
        behaviour is a generator, wrapped by the interceptors' ``wrap_stream``.
    """

    def __init__(self, full_name: str, request_type: type[pb_message.Message], behaviour: Behaviour,
                 interceptors: Sequence[UnaryInterceptor],
                 response_type: type[pb_message.Message] | None = None, stream: bool = False) -> None:
        self.full_name = full_name
        self.stream = stream
        # to parse a serialized answer (tavla.server.api.encoded) for the JSON codec
        self.response_type = response_type
        # Both codecs parse leniently: a body that does not parse reaches the error interceptor,
        # which answers INVALID_ARGUMENT with a BadRequest on "request", as over gRPC.
        self.parse = lenient_deserializer(request_type.FromString)
        self.parse_json = lenient_deserializer(functools.partial(wire.parse_json, message_type=request_type))
        for interceptor in reversed([*interceptors, ErrorInterceptor()]):
            wrap = interceptor.wrap_stream if stream else interceptor.wrap
            behaviour = wrap(behaviour, full_name) or behaviour
        self.behaviour = behaviour


#: Streaming RPCs served on the gRPC port only (the server streams of WRAPPED_STREAMS are served here).
STREAMING = frozenset(services.path(name) for name, m in services.METHODS.items()
                      if m.client_streaming or m.server_streaming) - WRAPPED_STREAMS


def engine_methods(servicers: Mapping[str, Any], health_servicer: health.HealthServicer,
                   interceptors: Sequence[UnaryInterceptor]) -> dict[str, Method]:
    """``"/tavla.v1.<Service>/<Method>"`` -> :class:`Method` for every unary RPC and analysis
    server stream of every tavla.v1 service (:mod:`tavla.server.api.services`; ``servicers`` by
    the service's full name), and health Check."""
    methods = {}
    for method in services.METHODS.values():
        name = services.path(method.name)
        if name in STREAMING:
            continue  # ValidateMatch (a bidirectional stream) is served on the gRPC port
        methods[name] = Method(name, message_factory.GetMessageClass(method.input_type),
                               getattr(servicers[method.containing_service.full_name], method.name), interceptors,
                               message_factory.GetMessageClass(method.output_type), stream=name in WRAPPED_STREAMS)
    methods[_HEALTH_METHOD] = Method(_HEALTH_METHOD, health_pb2.HealthCheckRequest, health_servicer.Check,
                                     interceptors)
    return methods


def parse_origins(text: str | None) -> frozenset[str]:
    """The allowed CORS origins of ``--cors-origins`` (``*`` = any)."""
    return frozenset(o.strip().rstrip("/") for o in (text or "").split(",") if o.strip())


class HttpApp:
    """The ASGI application of the HTTP port.

    :param methods: from :func:`engine_methods`.
    :param executor: runs the (blocking, CPU-bound) servicer calls off the event loop.
    :param cors_origins: from :func:`parse_origins`.
    :param web_dir: static files served at ``/``, or ``None``.
    :param body_seconds: a request body not complete this long after its headers is answered
        ``CANCELLED`` and its connection closed (HTTP/1.1), as the gRPC port's watchdog does.
    """

    def __init__(self, methods: dict[str, Method], executor: Executor, health_servicer: health.HealthServicer,
                 *, max_message_bytes: int, cors_origins: frozenset[str] = frozenset(),
                 web_dir: str | None = None, max_request_bytes: int | None = None,
                 body_seconds: float = BODY_SECONDS) -> None:
        self.methods = methods
        self.body_seconds = body_seconds
        self.max_request_bytes = max_message_bytes if max_request_bytes is None else max_request_bytes
        self.executor = executor
        self.health = health_servicer
        self.max_message_bytes = max_message_bytes
        self.cors_origins = cors_origins
        self.web_dir = Path(web_dir).resolve() if web_dir else None
        self.openapi = openapi.packaged()
        #: Set when the server starts draining: every HTTP/1.x answer then says ``connection:
        #: close``, so a keep-alive client does not send its next request on a connection the
        #: server closes at shutdown (Hypercorn closes it after the answer without a word, and a
        #: request sent meanwhile is lost).
        self.draining = False
        #: POST calls received (read by the heap trimmer, tavla.server.process.memory)
        self.calls = 0
        self.gone = 0  # calls whose client went away before the answer: not answered

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cors = self._cors_headers(headers.get("origin"))
        close = ([("connection", "close")] if self.draining and str(scope.get("http_version", "1.1")).startswith("1")
                 else [])
        method, path = scope["method"], scope["path"]
        if method == "OPTIONS":
            await _respond(send, 204, (cors + self._preflight_headers(headers) if cors else []) + close, b"")
        elif method == "POST":
            answer, extra = await self._call(path, headers, receive, _peer(scope), scope.get("http_version", "1.1"))
            if answer is None:  # the client has gone: nobody to answer
                return
            if isinstance(answer, _Stream):
                await self._stream(answer, receive, send, cors + close)
                return
            if self.draining and not close and str(scope.get("http_version", "1.1")).startswith("1"):
                close = [("connection", "close")]  # the drain began while the call ran
            if close and ("connection", "close") in extra:
                close = []
            await _respond(send, answer.status, answer.headers + extra + cors + close, answer.body)
        elif method in ("GET", "HEAD"):
            status, hdrs, body = self._get(path)
            await _respond(send, status, hdrs + cors + close, b"" if method == "HEAD" else body)
        else:
            await _respond(send, 405, [("allow", "GET, HEAD, POST, OPTIONS")] + close, b"")

    # --- CORS ---

    def _cors_headers(self, origin: str | None) -> list[tuple[str, str]]:
        if origin is None or not self.cors_origins:
            return []
        if "*" in self.cors_origins:
            allowed = "*"
        elif origin.rstrip("/") in self.cors_origins:
            allowed = origin
        else:
            return []
        return [("access-control-allow-origin", allowed), ("vary", "Origin"),
                ("access-control-expose-headers", ", ".join(EXPOSED_HEADERS))]

    def _preflight_headers(self, headers: dict[str, str]) -> list[tuple[str, str]]:
        asked = [h.strip().lower() for h in headers.get("access-control-request-headers", "").split(",") if h.strip()]
        return [("access-control-allow-methods", "POST, GET"),
                ("access-control-allow-headers", ", ".join(h for h in asked if h in ALLOWED_HEADERS)
                 or ", ".join(ALLOWED_HEADERS)),
                ("access-control-max-age", PREFLIGHT_MAX_AGE)]

    # --- RPCs ---

    async def _call(self, path: str, headers: dict[str, str], receive: Receive,
                    peer: str, http_version: str = "1.1") -> tuple[wire.Answer | _Stream | None, list[tuple[str, str]]]:
        """The answer and extra headers of one POST: a unary call run to its end, a server stream
        ready to run (:meth:`_stream` sends it), or ``None`` when the client has gone."""
        self.calls += 1
        protocol = wire.protocol_of(headers.get("content-type", ""))
        if protocol is None:
            text = ("unsupported content-type; use application/json or application/proto (Connect), "
                    "or application/grpc-web+proto (gRPC-Web)\n")
            return wire.Answer(415, [("content-type", "text/plain; charset=utf-8"),
                                     ("accept-post", "application/json, application/proto, "
                                                     "application/grpc-web+proto, application/grpc-web-text+proto")],
                               text.encode()), []
        method = self.methods.get(path)
        if method is None:
            why = (f"{path} is a stream: use the gRPC port" if path in STREAMING else f"unknown method {path}")
            return wire.failure(protocol, grpc.StatusCode.UNIMPLEMENTED, why), []
        if protocol.name == wire.CONNECT and protocol.stream != method.stream:
            kinds = ("a server stream: use application/connect+json or application/connect+proto" if method.stream
                     else "unary: use application/json or application/proto")
            return wire.Answer(415, [("content-type", "text/plain; charset=utf-8")],
                               f"{path} is {kinds} (Connect)\n".encode()), []
        try:
            timeout = wire.timeout_seconds(protocol, headers)
            if headers.get("content-encoding", "identity") not in ("identity", ""):
                raise wire.ProtocolError(grpc.StatusCode.UNIMPLEMENTED, "compressed requests are not supported")
            body = await asyncio.wait_for(_read_body(receive, self._body_limit(protocol)), self.body_seconds)
            payload = wire.unframe(protocol, body)
        except wire.ProtocolError as exc:
            return wire.failure(protocol, exc.code, exc.message), []
        except asyncio.TimeoutError:
            # A client that sends headers and then too little holds a connection for nothing: answer,
            # and on HTTP/1.1 close the connection (HTTP/2 has no such header; the stream ends).
            log.info("request body incomplete: call cut off", method=path, peer=peer, seconds=self.body_seconds)
            return (wire.failure(protocol, grpc.StatusCode.CANCELLED,
                                 f"the request body did not arrive within {self.body_seconds:g} s"),
                    [("connection", "close")] if http_version.startswith("1") else [])
        context = HttpContext(protocol.name, headers, peer, timeout)
        request = method.parse(payload) if protocol.codec == "proto" else method.parse_json(payload)
        if method.stream:
            return _Stream(method, protocol, request, context, timeout), []
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self.executor, _invoke, method, request, context)
        # A client that goes away (closes or resets the connection) gets no answer: the handler is
        # told (context.is_active(): it aborts before building one) and nothing waits for its result, so
        # the answer is never held for a connection that is gone (aborted costly calls once
        # kept their 280 KB answers alive in the event loop, 700 MiB for one worker).
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            waited: set[asyncio.Future[Any]] = {work, gone}
            done, _ = await asyncio.wait(waited, timeout=None if timeout is None else max(timeout, 0.0),
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if work not in done:
            context.went_away()
            work.cancel()  # a call still queued for a thread never runs
            if gone in done:
                self.gone += 1
                return None, []
            return wire.failure(protocol, grpc.StatusCode.DEADLINE_EXCEEDED,
                                "the deadline passed before the work was done"), context.response_headers
        response = work.result()
        code = context.code()
        if response is None or (code is not None and code != grpc.StatusCode.OK):
            return (wire.failure(protocol, code or grpc.StatusCode.UNKNOWN, context.details(),
                                 context.status_details()), context.response_headers)
        if encoded.size(response) > self.max_message_bytes:
            return (wire.failure(protocol, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                 f"the response is larger than {self.max_message_bytes} bytes"),
                    context.response_headers)
        return wire.success(protocol, response, method.response_type), context.response_headers

    async def _stream(self, call: _Stream, receive: Receive, send: Send, headers: list[tuple[str, str]]) -> None:
        """Run a server stream, sending each message as the handler yields it and the
        end-of-stream (its status) last; HTTP 200 whatever the status, as both protocols say. A
        client that goes away, or a deadline that passes, stops the handler (``context.went_away()``)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()

        def put(item: bytes | None) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, item)

        loop.run_in_executor(self.executor, _invoke_stream, call, put, self.max_message_bytes)
        gone = asyncio.ensure_future(_disconnected(receive))
        end = None if call.timeout is None else loop.time() + max(call.timeout, 0.0)
        started = False
        try:
            while True:
                get = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({get, gone}, timeout=None if end is None else max(0.0, end - loop.time()),
                                             return_when=asyncio.FIRST_COMPLETED)
                if get not in done:
                    get.cancel()
                    call.context.went_away()
                    if gone in done:
                        self.gone += 1
                        return
                    chunk, more = wire.stream_end(call.protocol, grpc.StatusCode.DEADLINE_EXCEEDED,
                                                  "the deadline passed before the work was done"), False
                else:
                    item = get.result()
                    chunk, more = (item, True) if item is not None else (self._stream_end(call), False)
                if not started:
                    started = True
                    raw = [("content-type", wire.stream_content_type(call.protocol)), *call.context.response_headers,
                           *headers]
                    await send({"type": "http.response.start", "status": 200,
                                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in raw]})
                await send({"type": "http.response.body", "body": chunk, "more_body": more})
                if not more:
                    return
        finally:
            gone.cancel()
            call.context.went_away()  # whatever ended the stream here stops its handler

    @staticmethod
    def _stream_end(call: _Stream) -> bytes:
        code = call.context.code() or grpc.StatusCode.OK
        return wire.stream_end(call.protocol, code, call.context.details() if code != grpc.StatusCode.OK else "",
                               call.context.status_details())

    def _body_limit(self, protocol: wire.Protocol) -> int:
        # a request body, in any codec: the gRPC port's request limit (--max-request-bytes)
        limit = self.max_request_bytes + 5
        return limit * 4 // 3 + 4 if protocol.text else limit

    # --- GET ---

    def _get(self, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
        if path in ("/healthz", "/readyz"):
            status = self._health("") if path == "/healthz" else self._ready()
            name = health_pb2.HealthCheckResponse.ServingStatus.Name(status)
            code = 200 if status == health_pb2.HealthCheckResponse.SERVING else 503
            return code, [("content-type", "text/plain; charset=utf-8"), ("cache-control", "no-store")], \
                f"{name}\n".encode()
        if path == "/openapi.json":
            return 200, [("content-type", "application/json"), ("cache-control", "no-cache"),
                         ("x-content-type-options", "nosniff")], self.openapi
        if self.web_dir is not None:
            found = self._static(path)
            if found is not None:
                return found
        return 404, [("content-type", "text/plain; charset=utf-8")], (
            b"not found. This is tavla-engine's HTTP port: POST /tavla.v1.<Service>/<Method> with "
            b"Connect (application/json, application/proto) or gRPC-Web; GET /healthz, /readyz; the calls "
            b"described in GET /openapi.json.\n")

    def _ready(self) -> int:
        # SERVING only when every tavla.v1 service is (they change together, app.HEALTH_NAMES)
        for name in services.NAMES:
            status = self._health(name)
            if status != health_pb2.HealthCheckResponse.SERVING:
                return status
        return int(health_pb2.HealthCheckResponse.SERVING)

    def _health(self, service: str) -> int:
        context = HttpContext("http", {}, "", None)
        response = self.health.Check(health_pb2.HealthCheckRequest(service=service), context)
        return int(response.status)

    def _static(self, path: str) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """The file of ``web_dir`` at ``path``; ``None`` when there is none (404); 400 for a path
        no file can have (a NUL or control character, a ``.``/``..`` segment, a backslash, a
        segment over 255 bytes, over 1024 bytes in all). Never an OS error: the file system is
        asked only about paths that passed, and any OSError it still raises is a 404."""
        assert self.web_dir is not None
        relative = path.lstrip("/") or "index.html"
        why = _unservable(relative)
        if why is not None:
            return 400, [("content-type", "text/plain; charset=utf-8")], f"bad path: {why}\n".encode()
        try:
            target = (self.web_dir / relative).resolve()
            if target.is_dir():
                target = target / "index.html"
            # resolve() follows symlinks: one pointing out of web_dir is not served
            if not target.is_relative_to(self.web_dir) or not target.is_file():
                return None
            body = target.read_bytes()
        except (OSError, ValueError, RuntimeError):  # unreadable, a name the OS refuses; a link loop
            return None
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        return 200, [("content-type", kind), ("cache-control", "no-cache"),
                     ("x-content-type-options", "nosniff")], body


_MAX_SEGMENT_BYTES = 255  # NAME_MAX on Linux and macOS
_MAX_PATH_BYTES = 1024


def _unservable(relative: str) -> str | None:
    """Why no file of a web directory can be at ``relative`` (the URL path without its leading
    ``/``, percent-decoded), or ``None``."""
    try:
        encoded = relative.encode("utf-8")
    except UnicodeEncodeError:
        return "not UTF-8"
    if len(encoded) > _MAX_PATH_BYTES:
        return f"longer than {_MAX_PATH_BYTES} bytes"
    if any(ord(c) < 0x20 or c == "\x7f" for c in relative):
        return "a control character"
    if "\\" in relative:
        return "a backslash"
    segments = relative.split("/")
    for i, segment in enumerate(segments):
        if segment in (".", ".."):
            return f"a {segment!r} segment"
        if segment == "" and i != len(segments) - 1:
            return "an empty segment"
        if len(segment.encode("utf-8")) > _MAX_SEGMENT_BYTES:
            return f"a segment longer than {_MAX_SEGMENT_BYTES} bytes"
    return None


def _invoke(method: Method, request: Any, context: HttpContext) -> pb_message.Message | bytes | None:
    try:
        return method.behaviour(request, context)
    except CallAborted:
        return None
    except Exception:  # only CallAborted gets past the error interceptor; this is a last resort
        log.exception("unexpected error", method=method.full_name)
        context.set_code(grpc.StatusCode.INTERNAL)
        context.set_details("internal error")
        return None


@dataclass(frozen=True, slots=True)
class _Stream:
    """A server-streaming call ready to run: what :meth:`HttpApp._stream` needs."""

    method: Method
    protocol: wire.Protocol
    request: Any
    context: HttpContext
    timeout: float | None


def _invoke_stream(call: _Stream, put: Callable[[bytes | None], None], max_message_bytes: int) -> None:
    """Run ``call``'s handler on a worker thread: ``put`` each message's envelope as it comes,
    then ``None`` (its status is then on the context). Stops, closing the handler (which stops
    its analysis), once the context is gone."""
    context = call.context
    responses = call.method.behaviour(call.request, context)
    try:
        for response in responses:
            if context.gone:
                break
            if encoded.size(response) > max_message_bytes:
                context.set_code(grpc.StatusCode.RESOURCE_EXHAUSTED)
                context.set_details(f"a response is larger than {max_message_bytes} bytes")
                break
            put(wire.stream_message(call.protocol, response, call.method.response_type))
    except CallAborted:
        pass
    except Exception:  # only CallAborted gets past the error interceptor; this is a last resort
        log.exception("unexpected error", method=call.method.full_name)
        context.set_code(grpc.StatusCode.INTERNAL)
        context.set_details("internal error")
    finally:
        responses.close()
        put(None)


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await receive()
        if event["type"] == "http.disconnect":
            raise wire.ProtocolError(grpc.StatusCode.CANCELLED, "the client went away")
        chunk = event.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise wire.ProtocolError(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                     "the request is larger than the limit (--max-request-bytes)")
        chunks.append(chunk)
        if not event.get("more_body", False):
            return b"".join(chunks)


async def _disconnected(receive: Receive) -> None:
    """Returns when the client goes away (the request body has been read: only
    ``http.disconnect`` comes after it)."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _respond(send: Send, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
    raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        event = await receive()
        if event["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif event["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    if not client:
        return "unknown"
    host, port = client[0], client[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


def build_app(servicers: Mapping[str, Any], health_servicer: health.HealthServicer, limits: LimitsInterceptor,
              executor: Executor, *, max_message_bytes: int, cors_origins: str | None = None,
              web_dir: str | None = None, max_request_bytes: int | None = None,
              body_seconds: float = BODY_SECONDS) -> HttpApp:
    """The HTTP port's application around ``servicers`` (by service, as :func:`engine_methods`), with the interceptors gRPC calls pass
    through (access log, metrics by protocol, ``limits`` shared with the gRPC port, errors)."""
    chain: list[UnaryInterceptor] = [AccessLogInterceptor(), HttpMetricsInterceptor(), limits]
    return HttpApp(engine_methods(servicers, health_servicer, chain), executor, health_servicer,
                   max_message_bytes=max_message_bytes, cors_origins=parse_origins(cors_origins),
                   web_dir=web_dir, max_request_bytes=max_request_bytes, body_seconds=body_seconds)
