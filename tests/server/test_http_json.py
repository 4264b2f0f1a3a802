"""Connect JSON is read strictly: a misspelt enum or field, or a non-integer where an integer
belongs, is INVALID_ARGUMENT naming the field, on every unary RPC.

Before, protobuf's parser with unknown fields ignored read ``"SIDE_BLAK"`` as unset, so
``GetInitialPosition`` answered white to roll and a resignation "by SIDE_BLAK" resigned for white.
The requests are built from the descriptors, so a new RPC or field is covered without a change.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from http_calls import http_server
from google.protobuf import descriptor as pb_descriptor

from tavla.server.http import json_check
import rpc_api as api
from tavla.server.api import services

_FD = pb_descriptor.FieldDescriptor

UNARY = [(f"/{service.full_name}/{method.name}", method)
         for service in (s.descriptor for s in services.SERVICES)
         for method in service.methods if not method.client_streaming and not method.server_streaming]
PATHS = {method.name: path for path, method in UNARY}


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with http_server() as http_port:
        yield http_port


def post(port: int, path: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def refused_on(port: int, path: str, body: dict | bytes) -> str:
    """The field the INVALID_ARGUMENT answer names (fails if the call was not refused so)."""
    status, error = post(port, path, body if isinstance(body, bytes) else json.dumps(body).encode())
    assert status == 400 and error["code"] == "invalid_argument", (path, body, status, error)
    bad = next(d for d in error["details"] if d["type"] == "google.rpc.BadRequest")
    return bad["debug"]["fieldViolations"][0]["field"]


def first_field(message: pb_descriptor.Descriptor, wanted, depth: int = 0) -> tuple[list[str], _FD] | None:
    """The proto path to the first field ``wanted`` accepts, searching nested messages."""
    for field in message.fields:
        if wanted(field):
            return [field.name], field
    if depth < 4:
        for field in message.fields:
            if (field.message_type is not None and not field.message_type.GetOptions().map_entry
                    and not field.message_type.full_name.startswith("google.protobuf.")):
                found = first_field(field.message_type, wanted, depth + 1)
                if found:
                    return [field.name, *found[0]], found[1]
    return None


def _along(root: pb_descriptor.Descriptor, path: list[str]) -> list[_FD]:
    fields, message = [], root
    for name in path:
        fields.append(message.fields_by_name[name])
        message = fields[-1].message_type
    return fields


def body_at(path: list[str], field: _FD, value, root: pb_descriptor.Descriptor) -> dict:
    """The request body with ``value`` at ``path`` (each repeated field on the way an array)."""
    body = value
    for f in reversed(_along(root, path)):
        body = {f.name: [body] if f.is_repeated else body}
    return body


def violation_path(path: list[str], field: _FD, root: pb_descriptor.Descriptor) -> str:
    return ".".join(f.name + ("[0]" if f.is_repeated else "") for f in _along(root, path))


def test_the_reported_typos_are_refused_naming_the_field(port):
    assert refused_on(port, PATHS["GetInitialPosition"], {"on_roll": "SIDE_BLAK"}) == "on_roll"
    assert refused_on(port, PATHS["GetInitialPosition"], {"onRoll": "NaN"}) == "on_roll"
    act = {"action": {"kind": "ACTION_KIND_RESIGN", "side": "SIDE_BLAK", "resignKind": "RESULT_KIND_SINGLE"}}
    assert refused_on(port, PATHS["Act"], act) == "action.side"
    # the correctly spelt request is read: black is to roll
    status, answer = post(port, PATHS["GetInitialPosition"], b'{"on_roll": "SIDE_BLACK"}')
    assert status == 200 and answer["position"]["onRoll"] == "SIDE_BLACK"


@pytest.mark.parametrize("bad", ["SIDE_BLAK", 1.5, True, 2**40, "1", 7, -1])
def test_an_enum_must_be_one_of_its_names_or_an_int32(port, bad):
    # 7 and -1 are int32s naming no value: the servicer refuses them, as over gRPC
    assert refused_on(port, PATHS["GetInitialPosition"], {"on_roll": bad}) == "on_roll"


@pytest.mark.parametrize("path,method", UNARY, ids=[m.name for _, m in UNARY])
def test_every_rpc_refuses_an_unknown_field(port, path, method):
    assert refused_on(port, path, {"noSuchField": 1}) == "noSuchField"


@pytest.mark.parametrize("path,method", UNARY, ids=[m.name for _, m in UNARY])
def test_every_rpc_refuses_an_unknown_enum_name_and_a_non_integer(port, path, method):
    enum = first_field(method.input_type, lambda f: f.enum_type is not None)
    if enum is not None:
        root = method.input_type
        assert refused_on(port, path, body_at(*enum, "NO_SUCH_VALUE", root)) == violation_path(*enum, root)
        assert refused_on(port, path, body_at(*enum, 0.5, root)) == violation_path(*enum, root)
    integer = first_field(method.input_type, lambda f: f.type in (_FD.TYPE_INT32, _FD.TYPE_UINT32,
                                                                  _FD.TYPE_INT64, _FD.TYPE_UINT64))
    if integer is not None:
        root = method.input_type
        assert refused_on(port, path, body_at(*integer, 2.5, root)) == violation_path(*integer, root)
        assert refused_on(port, path, body_at(*integer, 2**70, root)) == violation_path(*integer, root)
    if enum is None and integer is None:
        pytest.skip(f"{method.input_type.full_name} has no enum or integer field")


def test_bare_nan_and_duplicate_keys_are_refused(port):
    assert refused_on(port, PATHS["NameRoll"], b'{"dice": [NaN, 1]}') == "request"
    assert refused_on(port, PATHS["NameRoll"], b'{"dice": [1, 2], "dice": [3, 4]}') == "request"


def test_nested_and_repeated_paths_are_named():
    with pytest.raises(json_check.JsonFieldError) as err:
        json_check.check({"position": {"onRoll": "SIDE_WHITE", "board": {"white": {"typo": 1}}}},
                         api.ListLegalMovesRequest.DESCRIPTOR)
    assert err.value.field == "position.board.white.typo"
    with pytest.raises(json_check.JsonFieldError) as err:
        json_check.check({"dice": [3, "x"]}, api.ListLegalMovesRequest.DESCRIPTOR)
    assert err.value.field == "dice[1]"
    # integers written as strings and integral floats are the mapping's own forms
    json_check.check({"dice": ["3", 1.0]}, api.ListLegalMovesRequest.DESCRIPTOR)


def test_the_health_check_body_is_read_strictly_too(port):
    assert refused_on(port, "/grpc.health.v1.Health/Check", {"servce": ""}) == "servce"
    status, answer = post(port, "/grpc.health.v1.Health/Check", b'{"service": ""}')
    assert status == 200 and answer["status"] == "SERVING"


@pytest.mark.parametrize("path", [p for p, _ in UNARY] + ["/grpc.health.v1.Health/Check"])
def test_a_lone_surrogate_is_refused_on_every_rpc(port, path):
    # JSON's grammar takes "\ud800", but no protobuf string (nor an error quoting it) can hold it:
    # it was HTTP 500 with a traceback.
    assert refused_on(port, path, b'{"\\ud800": 1}') == "request"
    assert refused_on(port, path, b'{"a": {"b\\udfff": 1}}') == "a"
    assert refused_on(port, path, b'{"a": ["x", "\\ud800y"]}') == "a[1]"
    _, error = post(port, path, b'{"\\ud800": 1}')
    assert "lone UTF-16 surrogate" in error["message"] and "'\\ud800'" in error["message"]


@pytest.mark.parametrize("path,method", UNARY, ids=[m.name for _, m in UNARY])
def test_a_lone_surrogate_in_a_string_field_is_refused_naming_it(port, path, method):
    text = first_field(method.input_type, lambda f: f.type == _FD.TYPE_STRING)
    if text is None:
        pytest.skip(f"{method.input_type.full_name} has no string field")
    body = json.dumps(body_at(*text, "\ud800", method.input_type)).encode()  # dumps writes the escape
    assert refused_on(port, path, body) == violation_path(*text, method.input_type)


def test_a_surrogate_pair_is_one_character_and_read():
    assert json_check.loads('{"service": "\\ud83d\\ude00"}') == {"service": "\U0001f600"}


@pytest.mark.parametrize("path,method", UNARY, ids=[m.name for _, m in UNARY])
@pytest.mark.parametrize("body,kind", [(b"null", "null"), (b"42", "a number"), (b"[1, 2]", "an array"),
                                       (b'"x"', "a string"), (b"true", "a boolean")])
def test_every_rpc_refuses_a_body_that_is_not_an_object(port, path, method, body, kind):
    status, error = post(port, path, body)
    assert status == 400 and error["code"] == "invalid_argument", error
    assert f"is {kind}; a {method.input_type.full_name} is a JSON object" in error["message"], error
    assert refused_on(port, path, body) == "request"


@pytest.mark.parametrize("path,method", UNARY, ids=[m.name for _, m in UNARY])
def test_every_rpc_refuses_a_message_field_that_is_not_an_object(port, path, method):
    found = first_field(method.input_type, lambda f: f.message_type is not None and not f.is_repeated
                        and not f.message_type.full_name.startswith("google.protobuf."))
    if found is None:
        pytest.skip(f"{method.input_type.full_name} has no message field")
    names, field = found
    body = body_at(names, field, "abc", method.input_type)
    status, error = post(port, path, json.dumps(body).encode())
    assert status == 400 and f"is a string; a {field.message_type.full_name} is a JSON object" in error["message"]
    assert refused_on(port, path, body) == violation_path(names, field, method.input_type)


def test_a_repeated_field_or_map_that_is_not_an_array_or_object_is_refused(port):
    assert refused_on(port, PATHS["NameRoll"], {"dice": 5}) == "dice"
    status, error = post(port, PATHS["NameRoll"], b'{"dice": {"a": 1}}')
    assert status == 400 and "is an object; a repeated field is a JSON array" in error["message"], error
    maps = [(path, method, found) for path, method in UNARY
            if (found := first_field(method.input_type, lambda f: f.message_type is not None
                                     and f.message_type.GetOptions().map_entry)) is not None]
    assert maps  # ExportMatch's headers at least
    for path, method, (names, field) in maps:
        body = body_at(names[:-1], field, {names[-1]: [1]}, method.input_type) if len(names) > 1 else {names[0]: [1]}
        status, error = post(port, path, json.dumps(body).encode())
        assert status == 400 and "is an array; a map is a JSON object" in error["message"], (path, error)


@pytest.mark.parametrize("text", ["%%%", "YQ=== ", "Y", "ab$d", "YQ==YQ=="])
def test_bytes_that_are_not_base64_are_refused_naming_the_field(port, text):
    status, error = post(port, PATHS["Act"], json.dumps({"state": {"state": text}}).encode())
    assert status == 400 and "is not base64" in error["message"], error
    assert refused_on(port, PATHS["Act"], {"state": {"state": text}}) == "state.state"


@pytest.mark.parametrize("text", ["", "YQ==", "YQ", "YWJj", "-_-_", "+/+/"])
def test_base64_in_every_spelling_the_mapping_allows_is_read(text):
    json_check.check({"state": {"state": text}}, api.ActRequest.DESCRIPTOR)


def test_deep_nesting_and_huge_numbers_answer_short_clear_errors(port):
    deep = b'{"dice": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    status, error = post(port, PATHS["NameRoll"], deep)
    assert status == 400 and "nested deeper than 64 arrays and objects" in error["message"], error
    assert refused_on(port, PATHS["NameRoll"], b'{"dice": ' + b"[" * 70 + b"]" * 70 + b"}") == "request"
    status, error = post(port, PATHS["NameRoll"], b'{"dice": [1e308, 1]}')
    assert status == 400 and "dice[0]" in error["message"] and len(error["message"]) < 200, error
    assert "0000000000000000000000000000000000000000" not in error["message"], error
