"""The ``tavla-engine`` command: ``serve`` runs the gRPC server, ``replay`` checks match
records against it, ``version`` prints the version.

Each subcommand is a function ``add_parser(subparsers)`` that adds its parser and sets
``func(args) -> int`` (the exit code) as a default; :data:`SUBCOMMANDS` lists them in help order.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence

from tavla import __version__
from tavla.replay.cli import add_parser as _add_replay
from tavla.server import app

ENV_HOST = "TAVLA_HOST"
ENV_PORT = "TAVLA_PORT"


def _add_serve(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("serve", help="run the gRPC server until SIGTERM or SIGINT")
    p.add_argument("--host", default=os.environ.get(ENV_HOST, app.DEFAULT_HOST),
                   help=f"address to listen on (env {ENV_HOST}; default %(default)s)")
    p.add_argument("--port", type=_port, default=os.environ.get(ENV_PORT, str(app.DEFAULT_PORT)),
                   help=f"TCP port, 0 for any free port (env {ENV_PORT}; default %(default)s)")
    p.add_argument("--max-workers", type=_positive_int, default=app.DEFAULT_MAX_WORKERS,
                   help="handler threads (default %(default)s)")
    p.add_argument("--max-message-bytes", type=_positive_int, default=app.DEFAULT_MAX_MESSAGE_BYTES,
                   help="largest request or response (default %(default)s)")
    p.add_argument("--grace", type=_seconds, default=app.DEFAULT_GRACE_SECONDS,
                   help="seconds in-flight calls get on shutdown (default %(default)s)")
    p.add_argument("--drain-delay", type=_seconds, default=0.0,
                   help="seconds to stay up NOT_SERVING before stopping (default %(default)s)")
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    try:
        app.serve(args.host, args.port, max_workers=args.max_workers,
                  max_message_bytes=args.max_message_bytes, grace=args.grace,
                  drain_delay=args.drain_delay)
    except OSError as exc:
        logging.getLogger("tavla.cli").error("%s", exc)
        return 1
    return 0


def _add_version(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("version", help="print the version")
    p.set_defaults(func=_version)


def _version(args: argparse.Namespace) -> int:
    print(f"tavla-engine {__version__}")
    return 0


# Subcommands in help order; each module's add_parser adds its parser.
SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [  # type: ignore[type-arg]
    _add_serve,
    _add_replay,
    _add_version,
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of :data:`SUBCOMMANDS`."""
    parser = argparse.ArgumentParser(prog="tavla-engine", description=__doc__.splitlines()[0])
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="stdlib logging level (default %(default)s)")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 on success, including a signalled stop)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return int(args.func(args))


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"port {text!r} is not a number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port {value} is not 0-65535")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not positive")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{value} is not a non-negative number of seconds")
    return value


if __name__ == "__main__":
    sys.exit(main())
