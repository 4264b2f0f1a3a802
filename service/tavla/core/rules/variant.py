"""The variant core: what a game of the backgammon family is made of, and the registry.

A variant is a **class** (never instantiated), the way python-chess makes each chess variant a
board class: class data says what the game is (names, checkers, start layout, directions,
contact rule, bar, cube, result kinds), and a few hooks say how its checkers move and how a
game ends. The engine (:mod:`tavla.core.rules.movegen`, :mod:`tavla.core.rules.legality`,
:mod:`tavla.core.rules.steps`, :mod:`tavla.core.rules.scoring`) is written once against these hooks; a
:class:`~tavla.core.rules.position.Position` carries its variant, and a
:class:`~tavla.core.match.ruleset.Ruleset` names one (``Ruleset.variant``), so every function that
takes a position or a ruleset plays that variant. How to add one: docs/variants.md.

Class data (:class:`Variant`): ``name``, ``aliases`` (Turkish names included), ``title``,
``checkers``, ``start``, ``direction``, ``contact``, ``bar``, ``cube``, ``kinds``,
``kind_names``, ``home``; and two attributes the engine reads but a variant does not set
itself: ``compiled_generate`` and ``compiled_steps`` (a compiled move generator and turn
analysis, installed by the server's ``tavla.server.api.generator`` onto the variants whose rules
they implement, at start-up) and ``codecs`` (the ID
formats the variant has: Position ID, GNU ID, XGID; :meth:`Variant.codec`).

Hooks, all on the board of 26 ints seen from the side on roll unless the variant says otherwise
(:mod:`tavla.core.rules.position`):

* the start: :meth:`Variant.initial_board` (from ``start``; the position:
  :meth:`Position.initial(on_roll, variant) <tavla.core.rules.position.Position.initial>`);
* the board's two views: :meth:`Variant.flip`, :meth:`Variant.side_counts`,
  :meth:`Variant.board_from_sides`;
* **the single-step rule** :meth:`Variant.sources` (R4-R14 for backgammon): which checkers may
  move one die now. The generator calls it, the diagnosis asks it through
  :meth:`Variant.step_problem` (which names the rule a refused step breaks with
  :meth:`Variant.refusal`), the steps of a turn list it. It is written once per variant;
* applying a step: :meth:`Variant.play`, :meth:`Variant.unplay`, with
  :meth:`Variant.outside_count` (the checkers that keep the mover from bearing off);
* the turn rule ``turn_rule`` (``None`` by default): a rule of a plain roll's play as a whole,
  beyond its single steps (long nardy: one checker off the head), checked on each candidate
  before the dice are counted;
* the turn filter :meth:`Variant.turn_filter` (R7 by default: as many dice as possible, then
  the larger die);
* the end: :meth:`Variant.winner` and :meth:`Variant.classify` (R15, R16 by default). What a
  kind pays stays a :class:`~tavla.core.match.ruleset.Ruleset` option (R17: katmerli mars).

The registry (:func:`register`, :func:`find_variant`, :func:`variants`) resolves a variant by
its name or an alias, case-insensitive; backgammon and Turkish tavla
(:mod:`tavla.core.rules.backgammon`) are registered when :mod:`tavla.core` is imported.

This module imports nothing of the rest of the core but its errors, so that the position, the
generator and the ruleset can all import it.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from tavla.core.errors import IllegalReason, InvalidInputError

if TYPE_CHECKING:  # only for annotations: position.py imports this module
    from tavla.core.rules.movegen import CheckerMove
    from tavla.core.rules.position import Position, Side, SideView

Board = tuple[int, ...]
"""A board as the hooks see it: 26 ints from the side on roll's view for the backgammon
geometry (:mod:`tavla.core.rules.position`); a variant with another geometry documents its own."""

Results = dict[Board, tuple["CheckerMove", ...]]
"""The generator's candidates: {resulting board: one step sequence reaching it}."""

GenerateFn = Callable[[Board, int, int], tuple[int, Results]]
"""A whole-turn generator: ``(board, d1, d2) -> (dice used, results)``, as
:func:`tavla.core.rules.movegen.generate_python` returns them."""

StepsFn = Callable[[Board, int, int, tuple[tuple[int, int, int], ...]], Any]
"""A compiled turn analysis: ``(board, high, low, steps so far) -> answer or None``, what
``tavla_accel.turn_steps`` answers (service/accel/tavla_accel.pyi), read by
:mod:`tavla.core.rules.steps` only while ``compiled_generate`` is set."""


class ResultKind(enum.Enum):
    """How a game was won. Turkish names: gammon is *mars*, backgammon *katmerli mars*
    (:data:`tavla.core.i18n.names.RESULT_NAMES`; a variant's own names: ``Variant.kind_names``)."""

    __hash__ = object.__hash__  # members are singletons: the C hash, not Enum's hash of the name

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


class Contact(enum.Enum):
    """What landing on a single opposing checker does."""

    HIT = "hit"  # it goes to the bar and must enter again (backgammon, tavla; R5, R8)
    PIN = "pin"  # it stays pinned under the mover's checker (plakoto, mahbusa)
    NONE = "none"  # nothing: a single checker holds a point (fevga, long nardy)


class Direction(enum.Enum):
    """How the two sides' numberings meet. Each side numbers its own points 1 (its deepest
    home point) to 24 (its farthest back) and moves from 24 towards 1 (R1)."""

    OPPOSITE = "opposite"  # white's point p is black's 25 - p (backgammon, tavla, plakoto)
    SAME = "same"  # white's point p is black's ((p + 11) mod 24) + 1 (fevga, long nardy)


class CodecError(InvalidInputError):
    """The variant has no such ID format (a Position ID of a pinning game, ...): give the board."""


POSITION_ID = "position_id"  # GNU Backgammon's Position ID (tavla.core.ids.position_id)
GNUBG_ID = "gnubg_id"  # Position ID + Match ID (tavla.core.ids.match_id)
XGID = "xgid"  # eXtreme Gammon's ID (tavla.core.ids.xgid)
FAMILY_ID = "family_id"  # the barless variants' compact ID (tavla.core.ids.family_id)

# The hooks and class data the whole-turn generator depends on: a variant that redefines one of
# them no longer moves as its parent, so a compiled generator it inherits is dropped
# (Variant.__init_subclass__).
MOVE_RULES = ("sources", "play", "unplay", "outside_count", "turn_rule", "turn_filter", "home", "bar",
              "ordered_doubles", "dice_to_play")

# The variant modules registered when the core is imported (:func:`load_variants`): a new
# variant is one module here plus its own class data.
VARIANT_MODULES = (
    "tavla.core.rules.backgammon", "tavla.core.rules.portes", "tavla.core.rules.nackgammon",
    "tavla.core.rules.hypergammon", "tavla.core.rules.plakoto", "tavla.core.rules.fevga",
    "tavla.core.rules.long_nardy", "tavla.core.rules.gul_bara",
)


class Variant:
    """A game of the backgammon family: class data and hooks (module docstring). Subclass it,
    or a variant close to yours (:class:`tavla.core.rules.backgammon.Backgammon`), override what
    differs, and :func:`register` it.

    :cvar name: the canonical name, lowercase ASCII with underscores (``"backgammon"``).
    :cvar aliases: other names it answers to, Turkish ones included (``"turkish"``); a subclass
        answers only to the names it sets itself.
    :cvar title: a display name.
    :cvar title_tr: the Turkish display name ("Mahbusa"), empty where none is set.
    :cvar checkers: checkers per side (15; hypergammon 3).
    :cvar start: the start layout, ``(point, checkers)`` pairs in each side's own numbering.
    :cvar direction: :class:`Direction` of the two sides.
    :cvar contact: :class:`Contact` rule.
    :cvar bar: whether hit checkers go to a bar.
    :cvar cube: whether the doubling cube may be used (``Ruleset.cube`` turns it on or off; a
        variant without one refuses ``cube=True``).
    :cvar kinds: the result kinds a game can end with (R15-R17).
    :cvar kind_names: what the variant calls each kind (``mars`` in tavla).
    :cvar home: the home board is the mover's points 1..home (R11).
    :cvar ordered_doubles: a double's steps can always be played from the highest source down
        (no step of a lower checker ever makes a higher checker's step legal: backgammon,
        plakoto), so the search tries each set of sources once; ``False`` (fevga, long nardy:
        the start rule, the quarter block, the prime rule) tries every order.
    :cvar turn_rule: ``turn_rule(b) -> bool``, whether the board ``b`` after one or both steps
        of a plain roll keeps a rule of the turn as a whole that its single steps cannot see
        (long nardy: at most one checker off the head; the step rule cannot tell a plain roll's
        second die from a double's); ``None``: no such rule. The generator drops the plays it
        forbids before R7 counts the dice, so a forbidden play never hides one using fewer
        dice. A double's steps are judged by ``sources`` alone.
    :cvar compiled_generate: a compiled whole-turn generator (:data:`GenerateFn`) that returns
        exactly what the pure one does, or raises ValueError for a call it does not answer;
        ``None``: the pure generator alone. Installed by the server at start-up (``tavla.server.api.generator``),
        never by the core; dropped for a subclass that redefines a move rule (:data:`MOVE_RULES`).
    :cvar compiled_steps: the compiled turn analysis that goes with it (:data:`StepsFn`: the
        legal next steps after the steps so far, :func:`tavla.core.rules.steps.legal_steps`'
        common path), used only while ``compiled_generate`` is set; installed and dropped with it.
    :cvar codecs: the ID formats the variant has (:data:`POSITION_ID`, :data:`GNUBG_ID`,
        :data:`XGID`), each the module that implements it (:meth:`codec`).
    :cvar options: the variant's own ruleset options and their defaults (fevga's
        ``prime_rule``); each is a field of :class:`~tavla.core.match.ruleset.Ruleset` and of the
        API's ``Ruleset``, read and written only for the variant that has it.
    :cvar preset: the name of the variant's ruleset preset (``ListRulesets``): its ``name``
        unless set (backgammon's is ``"international"``, tavla's ``"turkish"``); the preset
        answers to the variant's name and aliases too.
    :cvar preset_aliases: the aliases the preset lists (a few of ``aliases``).
    :cvar preset_options: the preset's :class:`~tavla.core.match.ruleset.Ruleset` options
        beyond the defaults (a variant without a cube gets ``cube`` and ``crawford`` off anyway).
    :cvar description: one sentence saying what the preset plays.
    :cvar gnubg_header: GNU Backgammon's ``; [Variation "..."]`` value of a ``.mat`` record of
        this variant (``"NackGammon"``), empty where gnubg has none (the title is written).
    :cvar gnubg_rule: gnubg's ``RU`` token of an ``.sgf`` record (``"Nackgammon"``), or empty.
    :cvar record_names: other ``Variation`` values a record may carry for it (``"standard"``).
    :cvar engine_net: the analysis engine's nets evaluate it (backgammon's board, start and
        moves); set by each such class itself, never inherited.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    title_tr: ClassVar[str] = ""  # the Turkish display name, where it has one
    checkers: ClassVar[int] = 15
    start: ClassVar[tuple[tuple[int, int], ...]] = ()
    direction: ClassVar[Direction] = Direction.OPPOSITE
    contact: ClassVar[Contact] = Contact.HIT
    bar: ClassVar[bool] = True
    cube: ClassVar[bool] = True
    kinds: ClassVar[tuple[ResultKind, ...]] = tuple(ResultKind)
    kind_names: ClassVar[Mapping[ResultKind, str]] = {k: k.value for k in ResultKind}
    home: ClassVar[int] = 6
    ordered_doubles: ClassVar[bool] = True
    turn_rule: ClassVar[Callable[[list[int]], bool] | None] = None
    compiled_generate: ClassVar[GenerateFn | None] = None
    compiled_steps: ClassVar[StepsFn | None] = None
    codecs: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[Mapping[str, bool]] = {}
    preset: ClassVar[str] = ""
    preset_aliases: ClassVar[tuple[str, ...]] = ()
    preset_options: ClassVar[Mapping[str, object]] = {}
    description: ClassVar[str] = ""
    gnubg_header: ClassVar[str] = ""
    gnubg_rule: ClassVar[str] = ""
    record_names: ClassVar[tuple[str, ...]] = ()
    engine_net: ClassVar[bool] = False

    def __init__(self) -> None:
        raise TypeError(f"{type(self).__name__} is a variant class: use the class, not an instance")

    @classmethod
    def chains_as_played(cls, board: Sequence[int]) -> bool:
        """Whether a move from ``board`` (the mover's) is written with its chains as played: where
        a rule names which checker may move (fevga's start rule), so that
        :func:`~tavla.core.rules.legality.resolve` reads the notation back. Otherwise (the
        default) steps are joined from the highest point down, as gnubg writes them."""
        return False

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if any(rule in cls.__dict__ for rule in MOVE_RULES):
            cls.compiled_generate = None  # the inherited ones implement the parent's rules
            cls.compiled_steps = None
        for own in ("engine_net", "preset", "preset_aliases", "gnubg_header", "gnubg_rule", "record_names"):
            if own not in cls.__dict__:  # what names one variant is never inherited
                setattr(cls, own, getattr(Variant, own))

    @classmethod
    def preset_name(cls) -> str:
        """The name of this variant's preset (``preset``, else ``name``)."""
        return cls.preset or cls.name

    # -- the dice of a turn ----------------------------------------------------------------------

    @staticmethod
    def dice_to_play(d1: int, d2: int) -> tuple[int, ...]:
        """**The turn hook**: the dice a throw of ``d1``-``d2`` plays as one move, larger first:
        both dice, a double four times (R6). The generator, the steps of a turn, the diagnosis
        and the dice check read this, nowhere else says how many times a double plays."""
        if d1 == d2:
            return (d1, d1, d1, d1)
        return (d1, d2) if d1 >= d2 else (d2, d1)

    @classmethod
    def next_throw(cls, dice: Sequence[int], turn: int) -> tuple[int, int] | None:
        """The throw that follows ``dice`` in the same turn once all of its dice are played
        (gul bara's doubles go on up to 6-6), else ``None`` (the default: a turn is one throw).

        :param turn: the game's throws so far, this one included (the first roll counts 1).
        """
        return None

    @classmethod
    def moves_as(cls, other: type[Variant]) -> bool:
        """Whether this variant's checkers move exactly as ``other``'s: the same hooks and class
        data of :data:`MOVE_RULES` (a compiled generator of ``other`` plays it too)."""
        return all(getattr(cls, rule) is getattr(other, rule) or getattr(cls, rule) == getattr(other, rule)
                   for rule in MOVE_RULES)

    # -- the start ------------------------------------------------------------------------------

    @classmethod
    def initial_board(cls) -> Board:
        """The start layout (``start``) as a board, either side on roll."""
        raise NotImplementedError(f"variant {cls.name!r} has no initial_board")

    # -- the board's two views ------------------------------------------------------------------

    @staticmethod
    def flip(board: Board) -> Board:
        """The same board seen from the other side."""
        raise NotImplementedError

    @staticmethod
    def side_counts(board: Board, on_roll: bool) -> bytes:
        """25 counts of one side in its own numbering, points 1..24 then the bar (the side on
        roll when ``on_roll``, else the other)."""
        raise NotImplementedError

    @classmethod
    def board_from_sides(cls, on_roll: Side, mine: SideView, theirs: SideView) -> Board:
        """The board of two checked side views (``mine``: the side on roll's, ``on_roll``).

        :raises InvalidInputError: the views put both sides on one point where the variant
            forbids it.
        """
        raise NotImplementedError

    # -- the single-step rule and applying a step (R4-R14) --------------------------------------

    @staticmethod
    def sources(b: list[int], die: int, outside: int, top: int = 25, bottom: int = 1) -> list[int]:
        """**The single-step rule**: the points (25 = bar) from which ``die`` can be played now,
        highest first, from ``top`` down to ``bottom`` (a bar checker that must enter first is
        listed whatever they are).

        :param outside: :meth:`outside_count` of ``b``, kept up to date by the caller.
        """
        raise NotImplementedError

    @staticmethod
    def play(b: list[int], f: int, die: int) -> tuple[int, bool]:
        """Move one checker from ``f`` by ``die`` in place; returns (to, hit); ``to`` 0 is off."""
        raise NotImplementedError

    @staticmethod
    def unplay(b: list[int], f: int, t: int, hit: bool) -> None:
        """Undo :meth:`play`."""
        raise NotImplementedError

    @staticmethod
    def outside_count(b: list[int] | Board) -> int:
        """The mover's checkers that keep it from bearing off (outside the home board)."""
        raise NotImplementedError

    @classmethod
    def refusal(cls, b: list[int], f: int, die: int) -> tuple[IllegalReason, str]:
        """Which rule stops a step that :meth:`sources` refuses, and a sentence saying so (only
        called for such a step: it names the clause, the rule itself is :meth:`sources`)."""
        raise NotImplementedError

    @classmethod
    def step_problem(cls, b: list[int], f: int, die: int,
                     outside: int | None = None) -> tuple[IllegalReason, str] | None:
        """The rule the single step ``f`` by ``die`` breaks, or ``None`` if :meth:`sources`
        allows it: the one rule, asked for one checker.

        :param outside: :meth:`outside_count` of ``b`` when the caller has it.
        """
        if outside is None:
            outside = cls.outside_count(b)
        if f in cls.sources(b, die, outside, f, f):
            return None
        return cls.refusal(b, f, die)

    @classmethod
    def turn_refusal(cls, board: Board, d1: int, d2: int) -> tuple[IllegalReason, str] | None:
        """A rule of the whole turn that ``board`` (after some steps of the roll ``d1``-``d2``)
        breaks although each step was allowed, as ``(reason, sentence)``, else ``None``: the
        clause ``turn_rule`` enforces beyond R7 (long nardy: two checkers off the head with a
        plain roll). Only names it, for the diagnosis."""
        return None

    @staticmethod
    def turn_filter(best: int, results: Results, d1: int, d2: int) -> Results:
        """The legal plays among the candidates of a roll (R7), given that the generator keeps
        only those using the most dice (``best`` of them) that ``turn_rule`` allows: when only one of two different dice
        can be played, the larger one must be if it can (``d1`` >= ``d2``)."""
        if best == 1 and d1 != d2 and any(s[0][2] == d1 for s in results.values()):
            return {k: s for k, s in results.items() if s[0][2] == d1}
        return results

    # -- the end ----------------------------------------------------------------------------------

    @classmethod
    def winner(cls, position: Position) -> Side | None:
        """The side that has won as the checkers stand (R15: borne off all its checkers), or
        ``None`` while the game goes on."""
        board = position.board
        if not any(cls.side_counts(board, True)):
            return position.on_roll
        if not any(cls.side_counts(board, False)):
            return position.on_roll.other
        return None

    @classmethod
    def classify(cls, position: Position, winner: Side) -> ResultKind:
        """The kind of ``winner``'s win as the checkers stand (R15, R16)."""
        raise NotImplementedError

    @staticmethod
    def side_pinned(board: Board, on_roll: bool) -> tuple[int, ...]:
        """The points, in one side's own numbering, where one of its checkers is pinned under an
        opposing checker (the side on roll when ``on_roll``, else the other); ``()`` in a variant
        without pinning (plakoto: :mod:`tavla.core.rules.plakoto`)."""
        return ()

    @classmethod
    def drawn(cls, position: Position) -> bool:
        """Whether the game has ended in a draw as the checkers stand (plakoto: both mothers
        pinned); a drawn game scores nothing and is replayed in a match."""
        return False

    @classmethod
    def ending(cls, position: Position, winner: Side) -> str:
        """How ``winner`` has won as the checkers stand: the value of a
        :class:`~tavla.core.rules.outcome.GameEnding` (``"borne_off"``; plakoto's
        ``"mother_pinned"``)."""
        return "borne_off"

    @classmethod
    def configured(cls, ruleset: object) -> type[Variant]:
        """The variant as ``ruleset``'s options play it: a subclass when an option turns a rule
        of the variant off or on (fevga's prime rule, long nardy's 3-3 and koks), else the class
        itself. Options live on :class:`~tavla.core.match.ruleset.Ruleset`; the hooks that the
        generator calls are static, so each combination of options is a class of its own."""
        return cls

    # -- IDs ----------------------------------------------------------------------------------------

    @classmethod
    def codec(cls, kind: str, field: str = "ruleset.variant") -> ModuleType:
        """The module implementing the ID format ``kind`` (:data:`POSITION_ID`, ...) for this
        variant.

        :raises CodecError: the variant has no such format (under ``field``).
        """
        path = cls.codecs.get(kind)
        if path is None:
            have = ", ".join(sorted(cls.codecs)) or "none"
            raise CodecError(field, f"variant {cls.name!r} has no {kind} (its ID formats: {have}); "
                                    "give the board")
        return importlib.import_module(path)


# ---------------------------------------------------------------------------------------------
# The standard bear-off (R11, R12), shared by every variant that bears off so


def bears_off(b: Sequence[int], f: int, die: int, outside: int) -> bool:
    """Whether the mover's checker on ``f`` bears off with ``die`` (``f - die <= 0``) by R11 and
    R12: all checkers home (``outside`` 0: the variant's :meth:`Variant.outside_count`), and a
    die larger than the point only from the highest occupied point (the home board is 1-6)."""
    if outside:
        return False
    if f == die:
        return True
    for h in range(f + 1, 7):
        if b[h] > 0:
            return False
    return True


def bear_off_refusal(b: Sequence[int], f: int, die: int, outside: int, checkers: int = 15,
                     rules: str = "R11") -> tuple[IllegalReason, str]:
    """Which of R11, R12 a refused bear-off breaks (:func:`bears_off` said no); ``rules`` names
    the all-home clause (backgammon's bar adds R14)."""
    if outside:
        return (IllegalReason.BEAR_OFF_NOT_ALLOWED,
                f"no checker may bear off before all {checkers} are home ({rules})")
    return (IllegalReason.BEAR_OFF_NOT_ALLOWED,
            f"a {die} bears off from {f} only when no checker stands higher (R12)")


# ---------------------------------------------------------------------------------------------
# The registry

_BY_NAME: dict[str, type[Variant]] = {}
_ORDER: list[type[Variant]] = []


def _key(name: str) -> str:
    return "_".join(name.strip().casefold().replace("-", " ").split())


def register(variant: type[Variant]) -> type[Variant]:
    """Add ``variant`` to the registry under its name and aliases (usable as a class decorator).

    Names are not inherited: the class must set its own ``name``, and only the ``aliases`` it
    sets itself are registered (a subclass of backgammon is not also "international").

    :raises ValueError: it is not a :class:`Variant` subclass, sets no name of its own, or one
        of its names is another registered variant's.
    """
    if not (isinstance(variant, type) and issubclass(variant, Variant)) or not variant.__dict__.get("name"):
        raise ValueError(f"{variant!r} is not a Variant subclass with a name of its own")
    keys = {_key(n) for n in (variant.name, *variant.__dict__.get("aliases", ()))}
    for key in keys:
        other = _BY_NAME.get(key)
        if other is not None and other is not variant:
            raise ValueError(f"{key!r} already names variant {other.name!r}")
    for key in keys:
        _BY_NAME[key] = variant
    if variant not in _ORDER:
        _ORDER.append(variant)
    return variant


def unregister(variant: type[Variant]) -> None:
    """Remove ``variant`` and its names from the registry (for tests that register their own)."""
    for key in [k for k, v in _BY_NAME.items() if v is variant]:
        del _BY_NAME[key]
    if variant in _ORDER:
        _ORDER.remove(variant)


def find_variant(name: str, field: str = "ruleset.variant") -> type[Variant]:
    """The registered variant called ``name`` or an alias of it: case, spaces, hyphens and
    underscores do not matter (``"Turkish"``, ``"turkish-tavla"``).

    :raises InvalidInputError: no variant has that name (under ``field``).
    """
    found = _BY_NAME.get(_key(name))
    if found is None:
        known = ", ".join(sorted(_BY_NAME))
        raise InvalidInputError(field, f"unknown variant {name[:40]!r}; known: {known}")
    return found


def variants() -> tuple[type[Variant], ...]:
    """The registered variants, in registration order."""
    return tuple(_ORDER)


def load_variants() -> tuple[type[Variant], ...]:
    """Import every module of :data:`VARIANT_MODULES` (each registers its variants) and return
    the registered variants."""
    for module in VARIANT_MODULES:
        importlib.import_module(module)
    return variants()
