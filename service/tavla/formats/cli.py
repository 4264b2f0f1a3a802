"""``tavla-engine convert IN OUT``: a match record from one format to another (``.mat`` or
``.sgf``, by file extension), e.g. to load a site's ``.mat`` export into gnubg as ``.sgf``, or to
rewrite a ``.mat`` in the other dialect. Exits 2 when the input cannot be read or a play cannot
be written (an illegal play has no SGF form)."""

from __future__ import annotations

import argparse
import sys

from tavla.formats.matwriter import DIALECTS, write_match
from tavla.formats.sgfreader import read_sgf
from tavla.formats.sgfwriter import SgfWriteError, write_sgf
from tavla.formats.matreader import MatParseError, read_match


def add_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("convert", help="convert a match record between .mat and .sgf",
                              description=_plain(__doc__))
    p.add_argument("input", metavar="IN", help="a .mat or .sgf record")
    p.add_argument("output", metavar="OUT", help="the .mat or .sgf file to write ('-': .mat on stdout)")
    p.add_argument("--dialect", choices=DIALECTS, default=None,
                   help=".mat plays as bar/off and (2) (jellyfish) or 25/0 and repeats (galaxy); "
                        "default: as recorded")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        match = read_sgf(args.input) if args.input.lower().endswith(".sgf") else read_match(args.input)
        text = write_sgf(match) if args.output.lower().endswith(".sgf") else write_match(match, args.dialect)
    except (OSError, MatParseError, SgfWriteError) as exc:
        print(f"cannot convert: {exc}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            print(f"cannot convert: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    return 0


def _plain(doc: str | None) -> str:
    """The module docstring as --help text: whole, without reStructuredText's double backticks."""
    return " ".join((doc or "").split()).replace("``", "")
