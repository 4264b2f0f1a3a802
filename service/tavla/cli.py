"""The ``tavla-engine`` command: ``serve`` runs the gRPC server, ``replay`` checks match
records against it, ``analyze`` reviews them (error rates, PR), ``show`` prints the board of an
ID, ``convert`` turns a ``.mat`` into ``.sgf`` (or back), ``version`` prints the version.

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
from tavla.analysis.cli import add_parser as _add_analyze
from tavla.formats.cli import add_parser as _add_convert
from tavla.render.cli import add_parser as _add_show
from tavla.replay.cli import add_parser as _add_replay
from tavla.server.process import config


def _add_serve(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "serve", help="run the gRPC server until SIGTERM or SIGINT",
        description="Run the gRPC server until SIGTERM or SIGINT. Every flag has a TAVLA_* "
                    "environment variable; a flag wins over its variable, which wins over the "
                    "default. See docs/configuration.md.",
    )
    config.add_arguments(p)
    p.set_defaults(func=_serve, serve_parser=p)


def _serve(args: argparse.Namespace) -> int:
    try:
        settings = config.from_namespace(args)
    except config.ConfigError as exc:
        args.serve_parser.error(str(exc))  # exits 2, as argparse does for a bad flag
    from tavla.core.match.dice_commit import DiceKey

    try:
        DiceKey.from_env(os.environ)
    except ValueError as exc:
        args.serve_parser.error(str(exc))
    from tavla.server.api import generator

    try:
        generator.check_setting()
    except ValueError as exc:
        args.serve_parser.error(str(exc))
    from tavla.server.process import workers

    try:
        return workers.serve(settings)
    except OSError as exc:
        logging.getLogger("tavla.cli").error("%s", exc)
        return 1


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
    _add_analyze,
    _add_show,
    _add_convert,
    _add_version,
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of :data:`SUBCOMMANDS`."""
    # plain text: the module docstring without its reStructuredText literals
    parser = argparse.ArgumentParser(prog="tavla-engine",
                                     description=" ".join(__doc__.split("\n\n")[0].split()).replace("``", ""))
    parser.add_argument("--log-level", type=str.lower, choices=config.LOG_LEVELS, default=None,
                        help="logging level (default info; for serve also TAVLA_LOG_LEVEL)")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 on success, including a signalled stop)."""
    args = build_parser().parse_args(argv)
    if args.command != "serve":  # serve sets up structured logging itself
        logging.basicConfig(level=(args.log_level or "info").upper(), stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return int(args.func(args))
    except BrokenPipeError:  # e.g. `tavla-engine show ID | head -3`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
