"""The declared input contract: every request field's bounds, read from proto/ and checked once.

Each field of a ``tavla.v1`` request declares its bounds beside it in proto/ with the
``(tavla.v1.bounds)`` option (``proto/tavla/v1/bounds.proto``: ``min``/``max`` for integers,
``max_len`` for strings and bytes, ``max_items`` for repeated fields and maps, ``max_seconds``
for durations, ``unbounded`` with the reason where none is needed). Enum fields take only their
enum's declared values and booleans need nothing. :func:`check` walks a request against those
declarations, compiled once per message type from the descriptors, and raises
:class:`~tavla.core.InvalidInputError` naming the first field out of bounds by its path
(``match.length``; an element's on its repeated field, ``steps``, the
reason naming it: ``steps[2].from_point: 26 is not 0-25``). The server calls it before any
handler on every protocol (:class:`tavla.server.pipeline.errors.ErrorInterceptor`); what depends
on other fields (a score below the length, a cube the ruleset allows) is the rules' to check.

A field without the option is not checked; ``tests/server/test_contract.py`` proves that every
field reachable from a request of a ``tavla.v1`` service declares one.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from typing import Any

from google.protobuf import descriptor as pb_descriptor
from google.protobuf import message as pb_message

from tavla.core import InvalidInputError
from tavla.v1 import bounds_pb2

# (relative field path, reason) of the first violation, or None
Violation = tuple[str, str] | None
Checker = Callable[[Any], Violation]

_FD = pb_descriptor.FieldDescriptor
_INTEGERS = frozenset({_FD.TYPE_UINT32, _FD.TYPE_UINT64, _FD.TYPE_INT32, _FD.TYPE_INT64,
                       _FD.TYPE_SINT32, _FD.TYPE_SINT64, _FD.TYPE_FIXED32, _FD.TYPE_FIXED64,
                       _FD.TYPE_SFIXED32, _FD.TYPE_SFIXED64})
_TEXT = frozenset({_FD.TYPE_STRING, _FD.TYPE_BYTES})
DURATION = "google.protobuf.Duration"
PACKAGE = "tavla.v1."


def bounds_of(field: pb_descriptor.FieldDescriptor) -> bounds_pb2.FieldBounds | None:
    """The field's declared bounds, or ``None`` when it declares none."""
    options = field.GetOptions()
    if not options.HasExtension(bounds_pb2.bounds):
        return None
    bounds: bounds_pb2.FieldBounds = options.Extensions[bounds_pb2.bounds]
    return bounds


def declared(message: type[pb_message.Message], name: str) -> bounds_pb2.FieldBounds:
    """The bounds ``message``'s field ``name`` declares in proto/, for code that needs the same
    figure (one place holds it).

    :raises LookupError: the field declares none.
    """
    bounds = bounds_of(message.DESCRIPTOR.fields_by_name[name])
    if bounds is None:
        raise LookupError(f"{message.DESCRIPTOR.full_name}.{name} declares no bounds")
    return bounds


def is_repeated(field: pb_descriptor.FieldDescriptor) -> bool:
    """Whether ``field`` is repeated (a map included)."""
    return bool(field.is_repeated)


def is_map(field: pb_descriptor.FieldDescriptor) -> bool:
    """Whether ``field`` is a map (a repeated field of a synthetic entry message)."""
    return (field.type == _FD.TYPE_MESSAGE and is_repeated(field)
            and field.message_type.GetOptions().map_entry)


_compiled: dict[str, Checker] = {}


def checker(descriptor: pb_descriptor.Descriptor) -> Checker:
    """The compiled check of messages of ``descriptor``: returns the first violation."""
    name = descriptor.full_name
    found = _compiled.get(name)
    if found is not None:
        return found
    parts: list[Checker] = []

    def check_all(msg: Any) -> Violation:
        for part in parts:
            violation = part(msg)
            if violation is not None:
                return violation
        return None

    _compiled[name] = check_all  # before the fields: a message may contain itself
    if name.startswith(PACKAGE):
        for field in descriptor.fields:
            part = _field_checker(field)
            if part is not None:
                parts.append(part)
    if not parts:
        _compiled[name] = _nothing
    return _compiled[name]


def check(request: pb_message.Message) -> None:
    """Nothing, if ``request`` is within every declared bound.

    :raises InvalidInputError: the first field out of its bounds, by its path, and why.
    """
    if quick(request.DESCRIPTOR)(request):
        return
    violation = checker(request.DESCRIPTOR)(request)
    if violation is not None:
        path, reason = violation
        raise InvalidInputError(path, reason)


def within(request: pb_message.Message) -> bool:
    """Whether ``request`` is a message within every declared bound (:func:`check` without the
    error); ``False`` for anything else, such as the stand-in for bytes that did not parse."""
    if not isinstance(request, pb_message.Message):
        return False
    return quick(request.DESCRIPTOR)(request)


Quick = Callable[[Any], bool]
_quick: dict[str, Quick] = {}
_compiling: set[str] = set()


def quick(descriptor: pb_descriptor.Descriptor) -> Quick:
    """Whether a message of ``descriptor`` is within every declared bound: the same test as
    :func:`checker` (``True`` exactly when it finds no violation), compiled once per message type
    into one straight-line function, so that a request within bounds (nearly every one) costs a
    few attribute reads rather than a call per field; :func:`checker` then names the violation."""
    name = descriptor.full_name
    found = _quick.get(name)
    if found is None:
        _compiling.add(name)
        try:
            found = _quick[name] = _compile_quick(descriptor)
        finally:
            _compiling.discard(name)
    return found


def _always(_msg: Any) -> bool:
    return True


def _compile_quick(descriptor: pb_descriptor.Descriptor) -> Quick:
    if checker(descriptor) is _nothing:
        return _always
    lines: list[str] = []
    names: dict[str, Any] = {}
    for i, field in enumerate(descriptor.fields):
        test = _quick_test(field, f"_{i}", names)
        if test is not None:
            lines.append(f"    if {test}: return False")
    source = "def quick(m):\n" + "\n".join(lines) + "\n    return True\n"
    exec(compile(source, f"<contract of {descriptor.full_name}>", "exec"), names)  # noqa: S102 - our own descriptors
    made: Quick = names["quick"]
    return made


def _quick_test(field: pb_descriptor.FieldDescriptor, tag: str, names: dict[str, Any]) -> str | None:
    """The Python condition that ``field`` of message ``m`` breaks its bounds (``None``: it has
    none), mirroring :func:`_field_checker`; what is not a plain value reuses its checker."""
    bounds = bounds_of(field)
    if bounds is not None and bounds.unbounded:
        return None
    value = f"getattr(m, {field.name!r})" if keyword.iskeyword(field.name) else f"m.{field.name}"
    kind = field.type
    plain = not is_repeated(field)
    if plain and kind == _FD.TYPE_ENUM:
        names[tag] = frozenset(field.enum_type.values_by_number)
        return f"{value} not in {tag}"
    if plain and kind in _INTEGERS:
        return None if bounds is None else f"not {bounds.min} <= {value} <= {bounds.max}"
    if plain and kind in _TEXT:
        return None if bounds is None or not bounds.max_len else f"len({value}) > {bounds.max_len}"
    inner = field.message_type.full_name if plain and kind == _FD.TYPE_MESSAGE else ""
    if inner and inner != DURATION and inner not in _compiling:
        nested = quick(field.message_type)
        if nested is _always:
            return None
        names[tag] = nested
        present = f"m.HasField({field.name!r}) and " if field.has_presence else ""
        return f"{present}not {tag}({value})"
    part = _field_checker(field)  # repeated fields, maps, durations, a message within itself
    if part is None:
        return None
    names[tag] = part
    return f"{tag}(m) is not None"


def _nothing(_msg: Any) -> Violation:
    return None


def _join(prefix: str, path: str) -> str:
    return f"{prefix}.{path}" if path else prefix


def _element(where: str, violation: tuple[str, str]) -> str:
    # an element's violation is reported on its repeated field, the element named in the reason
    return f"{_join(where, violation[0])}: {violation[1]}"


def _field_checker(field: pb_descriptor.FieldDescriptor) -> Checker | None:
    bounds = bounds_of(field)
    if bounds is not None and bounds.unbounded:
        return None
    name = field.name
    if is_map(field):
        return _map_checker(field, bounds)
    element = _element_checker(field, bounds)
    if is_repeated(field):
        most = bounds.max_items if bounds is not None else 0
        if not most and element is None:
            return None
        if field.type in _INTEGERS and bounds is not None:
            return _repeated_integers(name, most, bounds.min, bounds.max, element)
        return _repeated_checker(name, most, element)
    if element is None:
        return None
    if field.type == _FD.TYPE_MESSAGE:
        has = field.has_presence

        def singular_message(msg: Any) -> Violation:
            if has and not msg.HasField(name):
                return None
            violation = element(getattr(msg, name))
            return None if violation is None else (_join(name, violation[0]), violation[1])

        return singular_message

    def singular(msg: Any) -> Violation:
        violation = element(getattr(msg, name))
        return None if violation is None else (_join(name, violation[0]), violation[1])

    return singular


def _repeated_checker(name: str, most: int, element: Checker | None) -> Checker:
    def repeated(msg: Any) -> Violation:
        values = getattr(msg, name)
        if most and len(values) > most:
            return name, f"has {len(values)} elements; at most {most}"
        if element is not None:
            for i, value in enumerate(values):
                violation = element(value)
                if violation is not None:
                    return name, _element(f"{name}[{i}]", violation)
        return None

    return repeated


def _repeated_integers(name: str, most: int, lo: int, hi: int, element: Checker | None) -> Checker:
    slow = _repeated_checker(name, most, element)

    def repeated(msg: Any) -> Violation:
        values = getattr(msg, name)
        # min and max run in C: the element-by-element walk only finds the culprit
        if (not most or len(values) <= most) and (not values or (min(values) >= lo and max(values) <= hi)):
            return None
        return slow(msg)

    return repeated


def _map_checker(field: pb_descriptor.FieldDescriptor, bounds: bounds_pb2.FieldBounds | None) -> Checker:
    name = field.name
    most = bounds.max_items if bounds is not None else 0
    entry = field.message_type
    key_check = _element_checker(entry.fields_by_name["key"], bounds)
    value_check = _element_checker(entry.fields_by_name["value"], bounds)

    def mapping(msg: Any) -> Violation:
        values = getattr(msg, name)
        if most and len(values) > most:
            return name, f"has {len(values)} entries; at most {most}"
        for key in values:
            if key_check is not None:
                violation = key_check(key)
                if violation is not None:
                    return name, f"a key: {violation[1]}"
            if value_check is not None:
                violation = value_check(values[key])
                if violation is not None:
                    return name, _element(f"{name}[{key!r}]", violation)
        return None

    return mapping


def _element_checker(field: pb_descriptor.FieldDescriptor, bounds: bounds_pb2.FieldBounds | None) -> Checker | None:
    """The check of one value of ``field`` (one element, when repeated), path relative to it."""
    kind = field.type
    if kind == _FD.TYPE_ENUM:
        return _enum_checker(field.enum_type)
    if kind in _INTEGERS and bounds is not None:
        return _integer_checker(bounds.min, bounds.max)
    if kind in _TEXT and bounds is not None and bounds.max_len:
        return _text_checker(bounds.max_len, "bytes" if kind == _FD.TYPE_BYTES else "characters")
    if kind == _FD.TYPE_MESSAGE:
        if field.message_type.full_name == DURATION:
            return _duration_checker(bounds.max_seconds if bounds is not None else None)
        inner = checker(field.message_type)
        return None if inner is _nothing else inner
    return None


def _enum_checker(enum: pb_descriptor.EnumDescriptor) -> Checker:
    allowed = frozenset(enum.values_by_number)

    def check_enum(value: int) -> Violation:
        if value in allowed:
            return None
        return "", f"unknown value {value}"

    return check_enum


def _integer_checker(lo: int, hi: int) -> Checker:
    def check_integer(value: int) -> Violation:
        if lo <= value <= hi:
            return None
        return "", f"{value} is not {lo}-{hi}"

    return check_integer


def _text_checker(most: int, unit: str) -> Checker:
    def check_text(value: str | bytes) -> Violation:
        if len(value) <= most:
            return None
        return "", f"is {len(value)} {unit} long; at most {most}"

    return check_text


def _duration_checker(most: int | None) -> Checker:
    def check_duration(value: Any) -> Violation:
        seconds, nanos = value.seconds, value.nanos
        if seconds < 0 or nanos < 0:
            return "", "is negative"
        if nanos >= 1_000_000_000:
            return "", f"nanos {nanos} is not 0-999999999"
        if most is not None and (seconds > most or (seconds == most and nanos)):
            return "", f"{seconds}.{nanos:09d} s is over {most} s; at most {most * 1000} ms"
        return None

    return check_duration
