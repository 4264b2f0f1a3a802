"""Copies and makers of the core's frozen, slotted values, at a fraction of the dataclass
machinery's cost: every action copies its state, every step of a turn makes its analysis.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, and
``dataclasses.replace`` scans the fields and calls it again: about 1 us for a GameState. The
functions here write, once per class and set of fields, a function that sets each slot through
its own member descriptor instead. They refuse a class they would get wrong: not slotted, with a
``__post_init__``, or with a field outside ``__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, TypeVar

_V = TypeVar("_V")

_EVOLVERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def evolve(value: _V, /, **changes: Any) -> _V:
    """``dataclasses.replace(value, **changes)`` of a frozen, slotted value (GameState,
    Transition, Record, Timing, Position) at a third of its cost.

    :raises TypeError: a field the class lacks; a class this copy would get wrong.
    """
    key = (type(value), tuple(changes))
    made = _EVOLVERS.get(key)
    if made is None:
        made = _EVOLVERS[key] = evolver(*key)
    result: _V = made(value, *changes.values())
    return result


def evolver(cls: type, changed: tuple[str, ...]) -> Callable[..., Any]:
    """The copier :func:`evolve` uses for ``cls`` with the fields ``changed``: called with the
    value, then the new values of ``changed`` in that order.

    :raises TypeError: as :func:`evolve`.
    """
    names = _names(cls, changed)
    given = {n: f"_new{j}" for j, n in enumerate(changed)}
    return _written(cls, f"_value, {', '.join(given.values())}",
                    [given.get(n, "_value." + n) for n in names])


def maker(cls: type, given: tuple[str, ...]) -> Callable[..., Any]:
    """A constructor of ``cls`` taking the fields ``given`` positionally, in that order; every
    other field takes its default (a ``default_factory`` is called for each value). The value
    equals ``cls(**dict(zip(given, args)))``.

    :raises TypeError: as :func:`evolve`, or a field neither given nor with a default.
    """
    names = _names(cls, given)
    by_name = {f.name: f for f in fields(cls)}
    args = {n: f"_new{j}" for j, n in enumerate(given)}
    values, scope = [], {}
    for i, n in enumerate(names):
        f = by_name[n]
        if n in args:
            values.append(args[n])
        elif f.default_factory is not MISSING:
            scope[f"_factory{i}"] = f.default_factory
            values.append(f"_factory{i}()")
        elif f.default is not MISSING:
            scope[f"_default{i}"] = f.default
            values.append(f"_default{i}")
        else:
            raise TypeError(f"{cls.__name__}.{n} has no default and is not given")
    return _written(cls, ", ".join(args.values()), values, scope)


def _names(cls: type, named: tuple[str, ...]) -> list[str]:
    every = fields(cls)
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__ or not all(f.init for f in every):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass made by its fields alone")
    names = [f.name for f in every]
    unknown = sorted(set(named) - set(names))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    return names


def _written(cls: type, params: str, values: list[str], extra: dict[str, Any] | None = None) -> Callable[..., Any]:
    # the slots' member descriptors; the code names fields only as attributes, so any name works
    names = [f.name for f in fields(cls)]
    scope: dict[str, Any] = {f"_set{i}": cls.__dict__[n].__set__ for i, n in enumerate(names)}
    scope.update(extra or {}, _make=object.__new__, _cls=cls)
    lines = [f"def made({params}):", "    _copy = _make(_cls)"]
    lines += [f"    _set{i}(_copy, {v})" for i, v in enumerate(values)]
    lines.append("    return _copy")
    exec("\n".join(lines), scope)  # noqa: S102  (code made of the class's own field names)
    made: Callable[..., Any] = scope["made"]
    return made
