"""The server's configuration: one :class:`Config`, read from ``serve`` flags and ``TAVLA_*``
environment variables, in that order of precedence, over the defaults.

:data:`OPTIONS` is the single list of settings (flag, variable, default, parser, help); the
``serve`` parser is built from it and ``docs/configuration.md`` documents it (a test checks the
two agree). A bad value, from a flag or from the environment, is an ``argparse`` error naming its
source, so ``tavla-engine serve`` exits 2 with a message before anything starts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

ENV_PREFIX = "TAVLA_"
OTEL_ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT"  # the standard variable, honoured after ours
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("json", "console")
MiB = 1024 * 1024


class ConfigError(ValueError):
    """Settings that are each valid but do not go together, or files that cannot be used."""


@dataclass(frozen=True, slots=True)
class Config:
    """Everything ``tavla-engine serve`` can be told; the defaults are the safe production ones.

    :ivar workers: server processes sharing the port; 0 = the CPUs this container may use.
    :ivar log_format: ``"json"``, ``"console"``, or ``None``: console on a terminal, else JSON.
    :ivar metrics_port: Prometheus ``/metrics`` port; 0 turns metrics off.
    :ivar max_message_bytes: largest response (and request, unless ``max_request_bytes`` is lower).
    :ivar max_request_bytes: largest request message; real ones are under 2 KB.
    :ivar max_concurrent_rpcs: engine calls admitted at once per worker (running or queued for a
        thread); more: RESOURCE_EXHAUSTED.
    :ivar max_call_seconds: server-side budget of one engine call, on top of the client's
        deadline; 0 = only the client's.
    :ivar max_analysis_rpcs: AnalysisService calls admitted at once per worker (running or
        queued), in a pool of their own (docs/analysis.md#cost-and-limits); more:
        RESOURCE_EXHAUSTED.
    :ivar analysis_call_seconds: server-side budget of one AnalysisService call, instead of
        ``max_call_seconds``; 0 = only the client's deadline.
    :ivar analysis_processes: child processes per worker that run the analysis, killed when a
        call overruns (docs/analysis.md#isolation); 0 = in the worker itself, no isolation.
    :ivar worker_health_seconds: with several workers, a worker whose heartbeat (its own health
        answered) is this late is killed and replaced.
    :ivar max_connection_age_seconds: a connection older than this is asked to reconnect
        (GOAWAY), so clients spread over new replicas; 0 = never.
    :ivar drain_seconds: after SIGTERM, health is NOT_SERVING but calls are still served.
    :ivar grace_seconds: then in-flight calls get this long to finish (``server.stop(grace)``).
    :ivar http_port: the HTTP port serving Connect and gRPC-Web (:mod:`~tavla.server.http.app`);
        ``None`` = off, 0 = a free one.
    :ivar cors_origins: comma-separated origins browsers may call the HTTP port from (``*`` for
        any); ``None`` = no cross-origin calls.
    :ivar web_dir: a directory of static files (the web board) served at ``/`` on the HTTP port.
    """

    host: str = "0.0.0.0"
    port: int = 50051
    workers: int = 0
    reflection: bool = True
    log_level: str = "info"
    log_format: str | None = None
    metrics_port: int = 9090
    tls_cert: str | None = None
    tls_key: str | None = None
    tls_client_ca: str | None = None
    tls_client_allowed_names: str | None = None
    max_message_bytes: int = 4 * MiB
    max_request_bytes: int = 64 * 1024
    max_concurrent_rpcs: int = 64
    max_call_seconds: float = 10.0
    max_analysis_rpcs: int = 8
    analysis_call_seconds: float = 30.0
    analysis_processes: int = 1
    worker_health_seconds: float = 10.0
    max_connection_age_seconds: float = 300.0
    drain_seconds: float = 5.0
    grace_seconds: float = 10.0
    otlp_endpoint: str | None = None
    cache_dir: str | None = None
    state_mode: str = "off"
    state_keys_file: str | None = None
    test_inputs: bool = False
    http_port: int | None = None
    cors_origins: str | None = None
    web_dir: str | None = None

    @property
    def tls(self) -> bool:
        return self.tls_cert is not None

    @property
    def request_limit(self) -> int:
        """The largest request either port accepts: ``max_request_bytes``, unless
        ``max_message_bytes`` is lower."""
        return min(self.max_request_bytes, self.max_message_bytes)

    def check(self) -> Config:
        """Cross-field checks and file access; returns ``self``.

        :raises ConfigError: half a TLS setup, an unreadable file, a key that is not the
            certificate's, the metrics port equal to the gRPC port, or tracing asked for without
            OpenTelemetry installed.
        """
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ConfigError("TLS needs both a certificate (--tls-cert, TAVLA_TLS_CERT) "
                              "and its key (--tls-key, TAVLA_TLS_KEY)")
        if self.tls_client_ca is not None and self.tls_cert is None:
            raise ConfigError("mTLS (--tls-client-ca, TAVLA_TLS_CLIENT_CA) needs the server's own "
                              "certificate and key as well (--tls-cert, --tls-key)")
        if self.tls_client_allowed_names is not None and self.tls_client_ca is None:
            raise ConfigError("--tls-client-allowed-names (TAVLA_TLS_CLIENT_ALLOWED_NAMES) needs mTLS: "
                              "--tls-client-ca as well")
        for name in ("tls_cert", "tls_key", "tls_client_ca"):
            path = getattr(self, name)
            if path is not None and not os.access(path, os.R_OK):
                raise ConfigError(f"--{name.replace('_', '-')} {path!r}: no readable file there")
        if self.tls_cert is not None and self.tls_key is not None:
            from tavla.server.process import tls

            try:
                tls.CertificateFiles(self.tls_cert, self.tls_key, self.tls_client_ca).configuration()
            except tls.TlsError as exc:
                raise ConfigError(str(exc)) from None
        signer = self.state_signer()  # a bad key list, or mode require without keys, stops the start
        if self.state_mode != "off" and not signer.shared and self.workers != 1:
            raise ConfigError(f"state mode {self.state_mode} with several workers needs keys they share: "
                              "set TAVLA_STATE_KEYS or --state-keys-file (or --workers 1)")
        if self.state_mode == "require" and not os.environ.get("TAVLA_DICE_KEY"):
            raise ConfigError("state mode require needs TAVLA_DICE_KEY, the same on every replica, so "
                              "every replica rolls a state's dice the same way")
        if self.test_inputs and self.state_mode != "off":
            raise ConfigError(f"--test-inputs (dice and times from the request metadata) is for test servers "
                              f"in state mode off, not {self.state_mode}")
        if self.metrics_port and self.metrics_port == self.port:
            raise ConfigError(f"the metrics port and the gRPC port are both {self.port}")
        if self.http_port and self.http_port in (self.port, self.metrics_port):
            raise ConfigError(f"the HTTP port {self.http_port} is also the gRPC or the metrics port")
        if self.http_port is None and (self.web_dir or self.cors_origins):
            raise ConfigError("--web-dir and --cors-origins need the HTTP port (--http-port, TAVLA_HTTP_PORT)")
        if self.web_dir is not None and not os.path.isfile(os.path.join(self.web_dir, "index.html")):
            raise ConfigError(f"--web-dir {self.web_dir!r}: no index.html there (build it: make web)")
        if self.otlp_endpoint:
            from tavla.server.pipeline import tracing

            try:
                tracing.check_installed()
            except tracing.TracingUnavailable as exc:
                raise ConfigError(str(exc)) from None
        return self

    def state_signer(self) -> Any:
        """The :class:`~tavla.referee.keys.StateSigner` of ``state_mode``, with keys from
        ``state_keys_file``, else ``TAVLA_STATE_KEYS``, else a random per-process key.

        :raises ConfigError: unusable keys, or mode require without keys.
        """
        from tavla.referee.keys import KeyError_, StateMode, StateSigner

        try:
            return StateSigner.from_settings(StateMode(self.state_mode), os.environ, self.state_keys_file)
        except KeyError_ as exc:
            raise ConfigError(str(exc)) from None

    def to_json(self) -> str:
        """The settings as JSON, for handing to worker processes."""
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Config:
        return cls(**json.loads(text))


DEFAULTS = Config()


# ---------------------------------------------------------------------------------------------
# Parsers: each takes the text and returns the value or raises ValueError with the reason.


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise ValueError(f"port {value} is not 0-65535")
    return value


def _int(text: str) -> int:
    try:
        return int(text.strip().replace("_", ""))
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise ValueError(f"{value} is not positive")
    return value


def _non_negative_int(text: str) -> int:
    value = _int(text)
    if value < 0:
        raise ValueError(f"{value} is negative")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise ValueError(f"{value} is not a non-negative number of seconds")
    return value


def _positive_seconds(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise ValueError("0 is not a positive number of seconds")
    return value


def parse_bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{text!r} is not true or false")


def _choice(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        lowered = text.strip().lower()
        if lowered not in choices:
            raise ValueError(f"{text!r} is not one of {', '.join(choices)}")
        return lowered

    return parse


def _state_mode(text: str) -> str:
    from tavla.referee.keys import parse_mode  # the one parser, shared with the servicer

    return parse_mode(text).value


def _comma_list(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _names(text: str) -> str:
    names = _comma_list(text)
    if not names:
        raise ValueError("names no client")
    return ",".join(names)


def _text(text: str) -> str:
    if not text.strip():
        raise ValueError("is empty")
    return text.strip()


def _origins(text: str) -> str:
    origins = [o.rstrip("/") for o in _comma_list(text)]
    if not origins:
        raise ValueError("is empty")
    for origin in origins:
        if origin != "*" and not re.fullmatch(r"https?://[^/\s]+", origin):
            raise ValueError(f"{origin!r} is not an origin like https://play.example.com, or *")
    return ",".join(origins)


@dataclass(frozen=True, slots=True)
class Option:
    """One setting: the :class:`Config` field, how to parse it, and its help line."""

    field: str
    parse: Callable[[str], Any]
    help: str
    metavar: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.field.replace("_", "-")

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.field.upper()

    @property
    def default(self) -> Any:
        return getattr(DEFAULTS, self.field)


OPTIONS: tuple[Option, ...] = (
    Option("host", _text, "address to listen on; '::' for all IPv6 (and IPv4)"),
    Option("port", _port, "gRPC port; 0 picks a free one (logged)"),
    Option("workers", _non_negative_int,
           "server processes sharing the port (SO_REUSEPORT); 0 = CPUs of the cgroup quota and affinity"),
    Option("reflection", parse_bool, "gRPC server reflection", "BOOL"),
    Option("log_level", _choice(*LOG_LEVELS), "debug, info, warning or error"),
    Option("log_format", _choice(*LOG_FORMATS),
           "json or console; default: console when stderr is a terminal, else json"),
    Option("metrics_port", _port, "Prometheus /metrics HTTP port; 0 turns metrics off"),
    Option("tls_cert", _text, "PEM server certificate (chain); with --tls-key turns TLS on", "FILE"),
    Option("tls_key", _text, "PEM private key of --tls-cert", "FILE"),
    Option("tls_client_ca", _text, "PEM CA bundle; when set, clients must present a certificate it signed (mTLS)",
           "FILE"),
    Option("tls_client_allowed_names", _names,
           "comma-separated client certificate names (SAN or CN) allowed with mTLS; unset: any the CA signed",
           "NAMES"),
    Option("max_message_bytes", _positive_int, "largest response message"),
    Option("max_request_bytes", _positive_int, "largest request message (real ones are under 2 KB)"),
    Option("max_concurrent_rpcs", _positive_int,
           "engine calls admitted at once per worker, queued ones included; beyond it RESOURCE_EXHAUSTED"),
    Option("max_call_seconds", _seconds,
           "server-side time budget of one engine call, on top of the client's deadline; 0 = none"),
    Option("max_analysis_rpcs", _positive_int,
           "AnalysisService calls admitted at once per worker (own pool), queued ones included; beyond it "
           "RESOURCE_EXHAUSTED"),
    Option("analysis_call_seconds", _seconds,
           "server-side time budget of one AnalysisService call, on top of the client's deadline; 0 = none"),
    Option("analysis_processes", _non_negative_int,
           "child processes per worker running the analysis, killed and replaced when a call overruns its "
           "deadline; 0 = in the worker (no isolation)"),
    Option("worker_health_seconds", _positive_seconds,
           "with several workers: a worker whose own health check has not answered for this long is killed "
           "and replaced"),
    Option("max_connection_age_seconds", _seconds,
           "connections older than this get GOAWAY so clients rebalance over replicas; 0 = never"),
    Option("drain_seconds", _seconds, "after SIGTERM: NOT_SERVING but still serving, this long"),
    Option("grace_seconds", _seconds, "then in-flight calls get this long: server.stop(grace)"),
    Option("otlp_endpoint", _text,
           f"OTLP/gRPC endpoint for traces (else ${OTEL_ENDPOINT_ENV}); unset = no tracing", "URL"),
    Option("cache_dir", _text, "bear-off database cache directory", "DIR"),
    Option("state_mode", _state_mode,
           "referee game states: off (unsigned), sign, or require "
           "(only states this service signed; keys in TAVLA_STATE_KEYS or --state-keys-file)", "MODE"),
    Option("state_keys_file", _text, "file of state keys, kid:base64key per line (the first signs)", "FILE"),
    Option("test_inputs", parse_bool,
           "a test server: the referee takes dice and times from the request metadata x-tavla-test-dice and "
           "x-tavla-test-now-ms (state mode off only)", "BOOL"),
    Option("http_port", _port,
           "HTTP port for browsers and curl: Connect (JSON, binary) and gRPC-Web; unset = off, 0 = a free one"),
    Option("cors_origins", _origins,
           "origins allowed to call the HTTP port from a browser, comma-separated, or '*'; unset = none",
           "ORIGINS"),
    Option("web_dir", _text, "serve this directory's static files (the web board) at / on the HTTP port", "DIR"),
)
OPTIONS_BY_FIELD = {o.field: o for o in OPTIONS}
# Older spellings of two flags, still accepted.
_ALIASES = {"grace_seconds": ("--grace",), "drain_seconds": ("--drain-delay",)}


class _FromEnv(str):
    """A default taken from the environment: argparse parses it like a flag value, and the
    parser names the variable in its error message."""

    env: str


def _argparse_type(option: Option) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            return option.parse(text)
        except ValueError as exc:
            where = f"{text.env}={str(text)!r}: " if isinstance(text, _FromEnv) else ""
            raise argparse.ArgumentTypeError(f"{where}{exc}") from None

    parse.__name__ = option.field  # argparse names the type in some messages
    return parse


def _default(option: Option, environ: Mapping[str, str]) -> Any:
    names = [option.env] + ([OTEL_ENDPOINT_ENV] if option.field == "otlp_endpoint" else [])
    for name in names:
        text = environ.get(name)
        if text:  # an empty variable counts as unset, as Kubernetes often renders them
            value = _FromEnv(text)
            value.env = name
            return value
    return option.default


def add_arguments(parser: argparse.ArgumentParser, environ: Mapping[str, str] | None = None) -> None:
    """Add one flag per option to ``parser``, each defaulting to its variable, else the default.

    ``--log-level`` is stored as ``serve_log_level`` so it does not clash with the top-level
    ``tavla-engine --log-level``. A boolean option (``--reflection``, ``--test-inputs``) takes an
    optional BOOL and has a ``--no-...`` twin.
    """
    environ = os.environ if environ is None else environ
    for option in OPTIONS:
        # the log level's variable is read by from_namespace, after the top-level flag
        default = None if option.field == "log_level" else _default(option, environ)
        shown = f"; default {option.default}" if option.default is not None else ""
        help_text = f"{option.help} (env {option.env}{shown})"
        kwargs: dict[str, Any] = {"type": _argparse_type(option), "default": default,
                                  "help": help_text, "metavar": option.metavar or _metavar(option.field)}
        if option.field == "log_level":
            kwargs["dest"] = "serve_log_level"
        if option.parse is parse_bool:
            kwargs.update(nargs="?", const="true")
        parser.add_argument(option.flag, *_ALIASES.get(option.field, ()), **kwargs)
        if option.parse is parse_bool:
            parser.add_argument(f"--no-{option.flag[2:]}", dest=option.field, action="store_false",
                                help=f"the opposite of {option.flag}")


def _metavar(field: str) -> str:
    for ending, name in (("seconds", "SECONDS"), ("port", "PORT"), ("bytes", "BYTES"), ("rpcs", "N"),
                         ("workers", "N"), ("level", "LEVEL"), ("format", "FORMAT")):
        if field.endswith(ending):
            return name
    return field.upper()


def from_namespace(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> Config:
    """The :class:`Config` of parsed ``serve`` arguments, checked.

    The log level is the serve flag, else the top-level ``tavla-engine --log-level``, else
    ``TAVLA_LOG_LEVEL``, else info.

    :raises ConfigError: a bad ``TAVLA_LOG_LEVEL``, or see :meth:`Config.check`.
    """
    environ = os.environ if environ is None else environ
    values = {o.field: getattr(args, o.field) for o in OPTIONS if o.field != "log_level"}
    level = getattr(args, "serve_log_level", None) or getattr(args, "log_level", None)
    if level is None:
        level = DEFAULTS.log_level
        text = environ.get(OPTIONS_BY_FIELD["log_level"].env)
        if text:
            try:
                level = OPTIONS_BY_FIELD["log_level"].parse(text)
            except ValueError as exc:
                raise ConfigError(f"{OPTIONS_BY_FIELD['log_level'].env}={text!r}: {exc}") from None
    values["log_level"] = level
    return Config(**values).check()
