"""The declared input contract (proto/tavla/v1/bounds.proto, tavla.server.convert.contract).

Every field reachable from a request of a tavla.v1 service declares its bounds beside it in
proto/, or why it needs none; a value just past any declared bound is INVALID_ARGUMENT naming the
field's path, on gRPC and on Connect JSON alike, before any handler runs. The match length is
bounded by the domain (1-64, GNU Backgammon's own limit; RULES.md R18), not by uint32.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf import descriptor as pb_descriptor
from google.protobuf import json_format, message_factory
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import rpc_api as api
from http_calls import connect_json, http_server
from tavla.core import InvalidInputError
from tavla.core.match.ruleset import MAX_MATCH_LENGTH, Ruleset
from tavla.server.api.services import SERVICES
from tavla.server.convert import contract
from tavla.v1 import analysis_service_pb2

_FD = pb_descriptor.FieldDescriptor
INTEGERS = contract._INTEGERS


def request_types() -> list[pb_descriptor.Descriptor]:
    seen: dict[str, pb_descriptor.Descriptor] = {}
    for service in SERVICES:
        for method in service.descriptor.methods:
            seen.setdefault(method.input_type.full_name, method.input_type)
    return list(seen.values())


def walk(message: pb_descriptor.Descriptor, prefix: str = "",
         on_path: frozenset[str] = frozenset()) -> Iterator[tuple[str, list[_FD], _FD]]:
    """(path, fields from the root, field) of every field reachable from ``message``."""
    for field in message.fields:
        path = f"{prefix}{field.name}"
        yield path, [field], field
        bounds = contract.bounds_of(field)
        if field.type != _FD.TYPE_MESSAGE or (bounds is not None and bounds.unbounded):
            continue
        inner = field.message_type
        if contract.is_map(field) or inner.full_name == contract.DURATION or inner.full_name in on_path:
            continue
        for sub_path, chain, leaf in walk(inner, f"{path}.", on_path | {message.full_name}):
            yield sub_path, [field, *chain], leaf


def missing_bound(field: _FD) -> str | None:
    """Why ``field`` fails the contract's declaration rule, or ``None``."""
    bounds = contract.bounds_of(field)
    if bounds is not None and bounds.unbounded:
        return None
    if field.type in (_FD.TYPE_BOOL, _FD.TYPE_ENUM) and not contract.is_repeated(field):
        return None  # two values, or the enum's declared values
    if contract.is_repeated(field) and (bounds is None or not bounds.max_items):
        return "a repeated field needs max_items"
    if field.type in INTEGERS and (bounds is None or not bounds.max):
        return "an integer needs max"
    if field.type in (_FD.TYPE_STRING, _FD.TYPE_BYTES) and (bounds is None or not bounds.max_len):
        return "a string or bytes field needs max_len"
    if field.type == _FD.TYPE_MESSAGE and field.message_type.full_name == contract.DURATION \
            and (bounds is None or not bounds.max_seconds):
        return "a duration needs max_seconds"
    return None


def test_every_field_of_every_request_is_bounded_or_says_why_not():
    fields = {(message.full_name, path): field
              for message in request_types() for path, _chain, field in walk(message)}
    assert len(fields) > 300  # the walk reaches the whole API
    missing = {f"{name}.{path}": why for (name, path), field in fields.items()
               if (why := missing_bound(field)) is not None}
    assert missing == {}
    reasons = {contract.bounds_of(f).unbounded for f in fields.values()
               if contract.bounds_of(f) is not None and contract.bounds_of(f).unbounded}
    assert reasons == {"output only: ignored on input"}


def _set(msg, chain: list[_FD], value_for) -> None:
    """Set the field at the end of ``chain`` in ``msg`` with ``value_for(msg, field)``."""
    *parents, leaf = chain
    for field in parents:
        if contract.is_repeated(field):
            msg = getattr(msg, field.name).add()
        else:
            msg = getattr(msg, field.name)
    value_for(msg, leaf)


def violations() -> Iterator[tuple[str, str, str, object]]:
    """(request type, setter name, expected field path, setter) for each declared bound just past."""
    for message in request_types():
        for path, chain, field in walk(message):
            bounds = contract.bounds_of(field)
            # an element's violation is reported on its repeated field (the outermost on the path)
            names = []
            for f in chain:
                names.append(f.name)
                if contract.is_repeated(f):
                    break
            base = ".".join(names)
            if bounds is not None and bounds.unbounded:
                continue
            if field.type == _FD.TYPE_ENUM:
                def undefined(msg, f=field):
                    if contract.is_repeated(f):
                        getattr(msg, f.name).append(99)
                    else:
                        setattr(msg, f.name, 99)
                yield message.full_name, "undefined enum", base, (chain, undefined)
                continue
            if bounds is None:
                continue
            if contract.is_map(field):
                def many(msg, f=field, n=bounds.max_items):
                    for i in range(n + 1):
                        getattr(msg, f.name)[f"k{i}"] = "v"
                yield message.full_name, "too many entries", base, (chain, many)

                def long_value(msg, f=field, n=bounds.max_len):
                    getattr(msg, f.name)["k"] = "v" * (n + 1)
                yield message.full_name, "value too long", base, (chain, long_value)
                continue
            if contract.is_repeated(field):
                def too_many(msg, f=field, n=bounds.max_items, lo=max(bounds.min, 1)):
                    values = getattr(msg, f.name)
                    for _ in range(n + 1):
                        if f.type == _FD.TYPE_MESSAGE:
                            values.add()
                        elif f.type in INTEGERS:
                            values.append(lo)
                        else:
                            values.append("x")
                yield message.full_name, "too many", base, (chain, too_many)
                if field.type in INTEGERS:
                    def too_big(msg, f=field, hi=bounds.max):
                        getattr(msg, f.name).append(hi + 1)
                    yield message.full_name, "element over max", base, (chain, too_big)
                    if bounds.min:
                        def too_small(msg, f=field, lo=bounds.min):
                            getattr(msg, f.name).append(lo - 1)
                        yield message.full_name, "element under min", base, (chain, too_small)
                continue
            if field.type in INTEGERS:
                def over(msg, f=field, hi=bounds.max):
                    setattr(msg, f.name, hi + 1)
                yield message.full_name, "over max", base, (chain, over)
                if bounds.min:
                    def under(msg, f=field, lo=bounds.min):
                        setattr(msg, f.name, lo - 1)
                    yield message.full_name, "under min", base, (chain, under)
            elif field.type in (_FD.TYPE_STRING, _FD.TYPE_BYTES):
                def long(msg, f=field, n=bounds.max_len):
                    setattr(msg, f.name, ("x" if f.type == _FD.TYPE_STRING else b"x") * (n + 1))
                yield message.full_name, "too long", base, (chain, long)
            elif field.type == _FD.TYPE_MESSAGE and field.message_type.full_name == contract.DURATION:
                def lengthy(msg, f=field, n=bounds.max_seconds):
                    getattr(msg, f.name).seconds = n + 1
                yield message.full_name, "duration over max", base, (chain, lengthy)

                def negative(msg, f=field):
                    getattr(msg, f.name).seconds = -1
                yield message.full_name, "negative duration", base, (chain, negative)


CASES = list(violations())


def _request(type_name: str):
    return next(message_factory.GetMessageClass(d) for d in request_types() if d.full_name == type_name)


@pytest.mark.parametrize("type_name, what, path, setter", CASES,
                         ids=[f"{t.rsplit('.', 1)[1]}:{p}:{w}" for t, w, p, _ in CASES])
def test_a_value_past_each_declared_bound_names_its_field(type_name, what, path, setter):
    chain, value_for = setter
    request = _request(type_name)()
    contract.check(request)  # the empty request is within every bound
    assert contract.within(request)
    _set(request, chain, value_for)
    assert not contract.quick(request.DESCRIPTOR)(request)  # the compiled test refuses it too
    assert not contract.within(request)
    with pytest.raises(InvalidInputError) as err:
        contract.check(request)
    assert err.value.field == path, (what, err.value.reason)
    if what in ("element over max", "element under min"):
        assert f"{chain[-1].name}[0]: " in err.value.reason, err.value.reason
    elif what == "value too long":
        assert f"{chain[-1].name}['k']: is " in err.value.reason, err.value.reason
    assert err.value.reason


def test_the_walk_covers_each_kind_of_bound():
    kinds = {what for _t, what, _p, _s in CASES}
    assert kinds == {"undefined enum", "too many entries", "value too long", "too many", "element over max",
                     "element under min", "over max", "too long", "duration over max", "negative duration"}
    assert len(CASES) > 400


def at_the_bound(msg, field: _FD) -> None:
    """Set ``field`` of ``msg`` to the furthest value its bounds allow."""
    bounds = contract.bounds_of(field)
    if contract.is_map(field):
        for i in range(bounds.max_items):
            getattr(msg, field.name)[f"k{i}"] = "v" * bounds.max_len
    elif field.type == _FD.TYPE_ENUM:
        top = max(field.enum_type.values_by_number)
        if contract.is_repeated(field):
            getattr(msg, field.name).append(top)
        else:
            setattr(msg, field.name, top)
    elif contract.is_repeated(field):
        values = getattr(msg, field.name)
        for _ in range(bounds.max_items):
            if field.type == _FD.TYPE_MESSAGE:
                values.add()
            elif field.type in INTEGERS:
                values.append(bounds.max)
            elif field.type == _FD.TYPE_STRING:
                values.append("x" * bounds.max_len)
    elif field.type in INTEGERS:
        setattr(msg, field.name, bounds.max)
    elif field.type in (_FD.TYPE_STRING, _FD.TYPE_BYTES):
        setattr(msg, field.name, ("x" if field.type == _FD.TYPE_STRING else b"x") * bounds.max_len)
    elif field.type == _FD.TYPE_MESSAGE and field.message_type.full_name == contract.DURATION:
        getattr(msg, field.name).seconds = bounds.max_seconds
    elif field.type == _FD.TYPE_MESSAGE:
        getattr(msg, field.name).SetInParent()


def test_the_compiled_test_accepts_each_field_at_its_bound():
    seen = 0
    for message in request_types():
        for _path, chain, field in walk(message):
            bounds = contract.bounds_of(field)
            if bounds is not None and bounds.unbounded or field.type == _FD.TYPE_BOOL:
                continue
            if bounds is None and field.type not in (_FD.TYPE_ENUM, _FD.TYPE_MESSAGE):
                continue
            request = _request(message.full_name)()
            _set(request, chain, at_the_bound)
            assert contract.checker(message)(request) is None, _path
            assert contract.quick(message)(request), _path
            contract.check(request)
            seen += 1
    assert seen > 300


def test_the_match_length_is_the_domains_not_the_wire_types():
    length = api.NewMatchRequest.DESCRIPTOR.fields_by_name["length"]
    in_state = analysis_service_pb2.SuggestMoveRequest.DESCRIPTOR.fields_by_name["match"] \
        .message_type.fields_by_name["length"]
    assert contract.bounds_of(length).max == contract.bounds_of(in_state).max == MAX_MATCH_LENGTH == 64
    rules = Ruleset()
    assert rules.allows_length(64) and not rules.allows_length(65)
    with pytest.raises(InvalidInputError, match="1-64"):
        rules.check_length(1 << 30)


# The inputs that once froze a worker or answered INTERNAL, over both protocols.
FROZE = [
    ("SuggestMove", {"position": {"positionId": "4HPwATDgc/ABMA"}, "dice": [3, 1],
                     "match": {"length": 1073741825}}, "match.length"),
    ("EvaluatePosition", {"position": {"positionId": "4HPwATDgc/ABMA"}, "match": {"length": 400}},
     "match.length"),
    ("SuggestCubeAction", {"position": {"positionId": "4HPwATDgc/ABMA"}, "match": {"length": 401}},
     "match.length"),
    ("NewMatch", {"length": 4294967295}, "length"),
    ("NewMatch", {"length": 65}, "length"),
    ("ListLegalMoves", {"position": {"positionId": "4HPwATDgc/ABMA"}, "dice": [3, 7]}, "dice"),
    ("AdvanceClock", {"settings": {"reserve": "-1s"}}, "settings.reserve"),
]


@pytest.mark.parametrize("method, body, field", FROZE, ids=[f"{m}:{f}" for m, _b, f in FROZE])
def test_the_frozen_and_internal_inputs_are_refused_over_grpc(engine, method, body, field):
    request = json_format.ParseDict(body, getattr(api, f"{method}Request")())
    with pytest.raises(grpc.RpcError) as err:
        getattr(engine, method)(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    bad = error_details_pb2.BadRequest()
    assert rpc_status.from_call(err.value).details[0].Unpack(bad)
    assert bad.field_violations[0].field == field


@pytest.fixture(scope="module")
def http_port() -> Iterator[int]:
    with http_server() as port:
        yield port


@pytest.mark.parametrize("method, body, field", FROZE, ids=[f"{m}:{f}" for m, _b, f in FROZE])
def test_the_frozen_and_internal_inputs_are_refused_over_connect(http_port, method, body, field):
    status, answer, _headers = connect_json(http_port, method, body)
    assert status == 400, answer
    assert answer["code"] == "invalid_argument"
    violations = [v for d in answer["details"] if "fieldViolations" in json.dumps(d)
                  for v in d.get("debug", {}).get("fieldViolations", [])]
    assert violations and violations[0]["field"] == field, answer
