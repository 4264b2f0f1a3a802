"""Strict reading of Connect JSON requests: every name and number is checked before protobuf's
JSON parser sees the body, so that a typo is refused with the field it is in.

protobuf's ``json_format`` turns an unknown enum name into the default when unknown fields are
ignored (``"SIDE_BLAK"`` read as unset, then as white), reads ``1.5`` for an enum as 1, and its
errors do not say which field failed in a form a client can use. :func:`check` walks the JSON
value beside the message descriptor and raises :class:`JsonFieldError` naming the first field
(proto field path, ``action.side``, ``moves[2].from``) that is not the protobuf JSON mapping of
the message (https://protobuf.dev/programming-guides/json/):

* a field name the message does not have, in either spelling (``on_roll``, ``onRoll``);
* an enum given as a name it does not have, or as a number that is not an integer, or outside
  int32; (a defined-range integer that names no value is left to the servicer, which refuses it
  on gRPC too);
* an integer field given a non-integer, ``NaN``, a bool, or a value outside its type's range;
* ``NaN`` or ``Infinity`` as a bare JSON constant anywhere (not JSON; Python's reader takes it);
* a lone UTF-16 surrogate escape (``"\\ud800"``) in a key or a string: JSON's grammar takes it,
  but it is no Unicode character, so no protobuf string (nor an error naming it) can hold it.
* a message (the body itself included) given anything but a JSON object, a repeated field
  anything but an array, a map anything but an object (json_format's own errors for these read
  "'NoneType' object is not iterable" or name the characters of a string as fields);
* a bytes field given a string that is not base64 (standard or URL-safe, padding optional, as
  the mapping allows; json_format would read ``"%%%"`` as no bytes at all);
* JSON nested deeper than :data:`MAX_DEPTH` (the parser's recursion limit otherwise).

Values quoted in an error are cut to 40 characters.

Well-known types (Duration, Timestamp, ...) are left to ``json_format``, which checks them.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from google.protobuf import descriptor as pb_descriptor

_FD = pb_descriptor.FieldDescriptor
_INT_RANGES = {
    _FD.TYPE_INT32: (-(2**31), 2**31 - 1), _FD.TYPE_SINT32: (-(2**31), 2**31 - 1),
    _FD.TYPE_SFIXED32: (-(2**31), 2**31 - 1), _FD.TYPE_UINT32: (0, 2**32 - 1),
    _FD.TYPE_FIXED32: (0, 2**32 - 1), _FD.TYPE_INT64: (-(2**63), 2**63 - 1),
    _FD.TYPE_SINT64: (-(2**63), 2**63 - 1), _FD.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    _FD.TYPE_UINT64: (0, 2**64 - 1), _FD.TYPE_FIXED64: (0, 2**64 - 1),
}
_INT32 = (-(2**31), 2**31 - 1)
_SURROGATE = re.compile("[\ud800-\udfff]")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*={0,2}")
#: The deepest nesting of arrays and objects a request may have; no tavla.v1 request needs 20.
MAX_DEPTH = 64
_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonFieldError(ValueError):
    """A JSON request that is not the protobuf JSON mapping of its message.

    :ivar field: the proto field path (``"action.side"``), or ``"request"`` for the body itself.
    :ivar reason: why, in English.
    """

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def loads(text: str) -> Any:
    """``json.loads`` refusing the non-JSON constants ``NaN``, ``Infinity`` and ``-Infinity`` and
    a key given twice in one object (as ``json_format.Parse`` does).

    :raises JsonFieldError: on ``request`` for such a constant or key.
    :raises ValueError: not JSON (``json.JSONDecodeError``).
    """
    def refuse(name: str) -> Any:
        raise JsonFieldError("request", f"{name} is not a JSON value (write numbers as numbers)")

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, item in pairs:
            if key in out:
                raise JsonFieldError("request", f"the key {key!r} appears twice in one object")
            out[key] = item
        return out
    try:
        value = json.loads(text, parse_constant=refuse, object_pairs_hook=unique)
    except RecursionError:
        raise JsonFieldError("request", f"is nested deeper than {MAX_DEPTH} arrays and objects") from None
    # nesting cannot pass the brackets opened: the walk is for the rare body with that many
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise JsonFieldError("request", f"is nested deeper than {MAX_DEPTH} arrays and objects")
    if _ESCAPE.search(text):  # only an escape can make a surrogate (strict UTF-8 has none)
        _refuse_surrogates(value, "")
    return value


def _refuse_surrogates(value: Any, path: str) -> None:
    """Raise on the first key or string holding a lone surrogate (a pair is one character once
    read); the path and the reason quote it escaped, so the error itself can be encoded."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise JsonFieldError(path or "request", f"{_escaped(value)} holds a lone UTF-16 surrogate, "
                                 "which is not Unicode text")
    elif isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                raise JsonFieldError(path or "request", f"the key {_escaped(key)} holds a lone UTF-16 "
                                     "surrogate, which is not Unicode text")
            _refuse_surrogates(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _refuse_surrogates(item, f"{path}[{i}]")


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (a scalar: 0), counted without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        todo.extend((child, level + 1) for child in children)
    return deepest


def _shown(value: Any) -> str:
    """``value`` as an error quotes it: its JSON-ish repr, cut to 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
          float: "a number", type(None): "null"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), type(value).__name__)


def _escaped(text: str) -> str:
    return repr(text[:40]).encode("ascii", "backslashreplace").decode("ascii")


def check(value: Any, message: pb_descriptor.Descriptor, path: str = "") -> None:
    """Check the JSON ``value`` (as :func:`loads` returns it) against ``message``.

    :raises JsonFieldError: the first field that is unknown or holds a bad enum or integer.
    """
    if message.full_name.startswith("google.protobuf."):
        return  # well-known types have their own JSON forms, checked by json_format
    if not isinstance(value, dict):
        raise JsonFieldError(path or "request", f"is {_kind(value)}; a {message.full_name} is a JSON object")
    by_name = {**{f.name: f for f in message.fields}, **{f.json_name: f for f in message.fields}}
    for key, item in value.items():
        field = by_name.get(key)
        where = f"{path}.{key}" if path else key
        if field is None:
            raise JsonFieldError(where, f"{message.full_name} has no field {_shown(key)}")
        where = f"{path}.{field.name}" if path else field.name
        if item is None:
            continue  # null is the default value in the mapping
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            if not isinstance(item, dict):
                raise JsonFieldError(where, f"is {_kind(item)}; a map is a JSON object")
            value_field = field.message_type.fields_by_name["value"]
            for k, v in item.items():
                _check_one(v, value_field, f"{where}[{k!r}]")
        elif field.is_repeated:
            if not isinstance(item, list):
                raise JsonFieldError(where, f"is {_kind(item)}; a repeated field is a JSON array")
            for i, v in enumerate(item):
                _check_one(v, field, f"{where}[{i}]")
        else:
            _check_one(item, field, where)


def _check_one(value: Any, field: pb_descriptor.FieldDescriptor, where: str) -> None:
    if field.message_type is not None:
        check(value, field.message_type, where)
    elif field.enum_type is not None:
        _check_enum(value, field.enum_type, where)
    elif field.type in _INT_RANGES:
        _check_integer(value, _INT_RANGES[field.type], where)
    elif field.type == _FD.TYPE_BYTES:
        if not isinstance(value, str) or len(value) % 4 == 1 or not _BASE64.fullmatch(value):
            raise JsonFieldError(where, f"{_shown(value)} is not base64 (bytes are written as base64 in JSON)")


def _check_enum(value: Any, enum: pb_descriptor.EnumDescriptor, where: str) -> None:
    if isinstance(value, str):
        if value not in enum.values_by_name:
            raise JsonFieldError(where, f"{_shown(value)} is not a value of {enum.full_name}")
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise JsonFieldError(where, f"{_shown(value)} is not a name or an integer of {enum.full_name}")
    if not _INT32[0] <= value <= _INT32[1]:
        raise JsonFieldError(where, f"{_shown(value)} is outside the int32 range of an enum")


def _check_integer(value: Any, bounds: tuple[int, int], where: str) -> None:
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and value.strip() == value and value:
        try:  # the mapping allows integers as strings ("123", and 64-bit ones are written so)
            number = int(value, 10)
        except ValueError:
            number = None
    if number is None:
        raise JsonFieldError(where, f"{_shown(value)} is not an integer")
    if not bounds[0] <= number <= bounds[1]:
        raise JsonFieldError(where, f"{_shown(number)} is outside {bounds[0]}..{bounds[1]}")
