"""The OpenAPI 3.1 description of the HTTP port (tavla.server.http.openapi, served at
``GET /openapi.json``): fresh, valid, complete, in the protobuf JSON mapping, and honest (the
server's real answers validate against its schemas; a request it refuses, the schema refuses).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_calls import http_server
from google.protobuf import descriptor as pb_descriptor
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_openapi
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

from boards import position
from tavla.core.ids import position_id
from tavla.server.api import services
from tavla.server.http import openapi
from tavla.v1 import types_pb2

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT: dict[str, Any] = json.loads(openapi.packaged())
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
UNARY = {f"/{m.containing_service.full_name}/{m.name}": m for m in services.METHODS.values()
         if not m.client_streaming and not m.server_streaming}
SERVER_STREAMS = {f"/{m.containing_service.full_name}/{m.name}": m for m in services.METHODS.values()
                  if m.server_streaming and not m.client_streaming}


def schema_of(name: str) -> Draft202012Validator:
    """A validator of one component schema, its $refs resolved inside the document."""
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": DOCUMENT["components"]})


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def test_the_committed_document_is_what_proto_generates():
    fresh = openapi.encode(openapi.generate(ROOT / "proto"))
    assert fresh == (ROOT / "service" / "tavla" / "server" / "http" / "openapi.json").read_bytes(), (
        "service/tavla/server/http/openapi.json is stale: run `make regen`")


def test_it_is_a_valid_openapi_3_1_document():
    assert DOCUMENT["openapi"] == "3.1.0"
    validate_openapi(DOCUMENT)  # raises on any violation of the OpenAPI 3.1 schema
    broken = json.loads(json.dumps(DOCUMENT))
    broken["paths"]["/tavla.v1.RulesService/NameRoll"]["post"]["responses"] = "none"
    with pytest.raises(OpenAPIValidationError):
        validate_openapi(broken)


def test_every_unary_rpc_is_a_post_with_its_request_and_response():
    assert set(DOCUMENT["paths"]) == set(UNARY) | set(SERVER_STREAMS)
    assert len(UNARY) == 28  # 7 RulesService + 12 MatchService + 3 RefereeService + ExportMatch + 5 AnalysisService
    for path, method in UNARY.items():
        operation = DOCUMENT["paths"][path]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{method.input_type.full_name}"}
        assert answer == {"$ref": f"#/components/schemas/{method.output_type.full_name}"}
        assert operation["responses"]["default"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/connect.error"}
        assert operation["tags"] == [method.containing_service.name]
    # the client stream is left out, and said to be
    assert "/tavla.v1.RecordsService/ValidateMatch" not in DOCUMENT["paths"]
    assert "RecordsService.ValidateMatch" in DOCUMENT["info"]["description"]


def test_the_server_stream_is_a_connect_streaming_post_with_its_framing_described():
    assert set(SERVER_STREAMS) == {"/tavla.v1.AnalysisService/StreamAnalyzeMatch"}
    for path, method in SERVER_STREAMS.items():
        operation = DOCUMENT["paths"][path]["post"]
        body = operation["requestBody"]["content"]["application/connect+json"]["schema"]
        ok = operation["responses"]["200"]
        assert body == {"$ref": f"#/components/schemas/{method.input_type.full_name}"}
        assert ok["content"]["application/connect+json"]["schema"] == {
            "$ref": f"#/components/schemas/{method.output_type.full_name}"}
        assert "5-byte envelope" in ok["description"] and "end-of-stream" in ok["description"]


def test_every_ref_resolves_to_a_schema():
    found = set(refs(DOCUMENT))
    assert "#/components/schemas/tavla.v1.Position" in found
    for ref in found:
        assert ref.startswith("#/components/schemas/") and ref.removeprefix("#/components/schemas/") in SCHEMAS, ref


def _messages() -> Iterator[pb_descriptor.Descriptor]:
    seen: set[str] = set()
    todo = [d for m in UNARY.values() for d in (m.input_type, m.output_type)]
    while todo:
        message = todo.pop()
        if message.full_name in seen or message.full_name.startswith("google.protobuf."):
            continue
        if message.GetOptions().map_entry:  # a map is an object of its values, no schema of its own
            continue
        seen.add(message.full_name)
        yield message
        todo.extend(f.message_type for f in message.fields if f.message_type is not None)


def test_fields_are_their_json_names_and_enums_their_value_names():
    messages = list(_messages())
    assert len(messages) > 50
    for message in messages:
        schema = SCHEMAS[message.full_name]
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert list(schema["properties"]) == [f.json_name for f in message.fields], message.full_name
        for field in message.fields:
            if field.enum_type is not None:
                target = schema["properties"][field.json_name]
                target = target.get("items", target)
                enum = SCHEMAS[target["$ref"].removeprefix("#/components/schemas/")]
                assert enum["type"] == "string"
                assert enum["enum"] == [v.name for v in field.enum_type.values]
    position = SCHEMAS["tavla.v1.Position"]["properties"]
    assert "positionId" in position and "position_id" not in position
    assert SCHEMAS["tavla.v1.Side"]["enum"] == ["SIDE_UNSPECIFIED", "SIDE_WHITE", "SIDE_BLACK"]
    # 64-bit integers are strings in answers, numbers or strings in requests; Duration a string
    sequence = SCHEMAS["tavla.v1.GameView"]["properties"]["sequence"]
    assert [s["type"] for s in sequence["oneOf"]] == ["integer", "string"]
    assert SCHEMAS["tavla.v1.ClockSettings"]["properties"]["moveTime"]["type"] == "string"


def test_descriptions_are_the_proto_comments():
    name_roll = DOCUMENT["paths"]["/tavla.v1.RulesService/NameRoll"]["post"]
    assert name_roll["summary"] == "The Turkish name of a roll (R26)."
    apply = DOCUMENT["paths"]["/tavla.v1.RulesService/ApplyMove"]["post"]
    assert apply["description"].startswith("Validate a move and return it with the position after it")
    position_id = SCHEMAS["tavla.v1.Position"]["properties"]["positionId"]["description"]
    assert position_id.startswith("GNU Backgammon Position ID (14 characters)")
    assert "One of `checkers`: at most one of `board`, `positionId`, `gnubgId`, `xgid`, `familyId`." in position_id
    side = SCHEMAS["tavla.v1.Side"]["description"]
    assert "- `SIDE_WHITE`: The side called white." in side
    rules = next(t for t in DOCUMENT["tags"] if t["name"] == "RulesService")
    assert rules["description"].startswith("The rules of one position")
    assert [t["name"] for t in DOCUMENT["tags"]] == ["RulesService", "MatchService", "RefereeService", "RecordsService",
                                                        "AnalysisService"]
    headers = SCHEMAS["tavla.v1.ExportMatchRequest"]["properties"]["headers"]
    assert headers["type"] == "object" and headers["additionalProperties"] == {"type": "string"}


def test_a_service_or_type_missing_from_the_descriptors_is_an_error():
    from google.protobuf import descriptor_pb2

    from tavla.v1 import rules_service_pb2

    types, rules = descriptor_pb2.FileDescriptorProto(), descriptor_pb2.FileDescriptorProto()
    types_pb2.DESCRIPTOR.CopyToProto(types)
    rules_service_pb2.DESCRIPTOR.CopyToProto(rules)
    with pytest.raises(ValueError, match="service tavla.v1.RulesService is not in the descriptor set"):
        openapi.describe([types], ["tavla.v1.RulesService"])
    with pytest.raises(ValueError, match=r"\.tavla\.v1\.\w+ is not in the descriptor set"):
        openapi.describe([rules, types], ["tavla.v1.RulesService"])  # without bearoff.proto, dice.proto, ...
    with pytest.raises(ValueError, match="examples of RPCs that do not exist"):
        openapi.describe([rules], ["tavla.v1.RulesService"], examples={"RulesService.Nope": ("", {})})


SAMPLE = """syntax = "proto3";
package sample.v1;
import "google/protobuf/duration.proto";
// A sample service.
service SampleService {
  // Gets one.
  rpc Get(GetRequest) returns (GetResponse);
  // Watches: a server stream, Connect streaming.
  rpc Watch(GetRequest) returns (stream GetResponse);
  // Sends many: a client stream, left out.
  rpc Upload(stream GetRequest) returns (GetResponse);
}
// The request.
message GetRequest {
  // Counts by name.
  map<string, int64> counts = 1;
  oneof which {
    string name = 2;
    Inner inner = 3;
  }
  optional bool flag = 4;
  google.protobuf.Duration wait_time = 5;
  bytes blob = 6;
  // A nested message.
  message Inner { Colour colour = 1; }
  // A nested enum.
  enum Colour { COLOUR_UNSPECIFIED = 0; COLOUR_RED = 1; }
}
message GetResponse { repeated double scores = 1; }
"""


def test_maps_oneofs_nested_types_and_well_known_types_of_any_proto(tmp_path):
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    (tmp_path / "sample.proto").write_text(SAMPLE)
    out = tmp_path / "set.binpb"
    well_known = Path(protoc.__file__).parent / "_proto"
    assert protoc.main(["protoc", f"-I{tmp_path}", f"-I{well_known}", "--include_imports", "--include_source_info",
                        f"--descriptor_set_out={out}", str(tmp_path / "sample.proto")]) == 0
    files = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    document = openapi.describe(files, ["sample.v1.SampleService"], examples={})
    validate_openapi(document)
    assert list(document["paths"]) == ["/sample.v1.SampleService/Get", "/sample.v1.SampleService/Watch"]
    assert "SampleService.Upload" in document["info"]["description"]
    assert list(document["paths"]["/sample.v1.SampleService/Watch"]["post"]["requestBody"]["content"]) == [
        "application/connect+json"]
    schemas = document["components"]["schemas"]
    assert sorted(schemas) == ["connect.error", "sample.v1.GetRequest", "sample.v1.GetRequest.Colour",
                               "sample.v1.GetRequest.Inner", "sample.v1.GetResponse"]  # no map entry schema
    request = schemas["sample.v1.GetRequest"]
    assert request["description"] == "The request."
    props = request["properties"]
    assert list(props) == ["counts", "name", "inner", "flag", "waitTime", "blob"]
    assert props["counts"]["type"] == "object" and props["counts"]["additionalProperties"]["format"] == "int64"
    assert props["counts"]["description"] == "Counts by name."
    assert "One of `which`: at most one of `name`, `inner`." in props["name"]["description"]
    assert "description" not in props["flag"]  # proto3 optional is no oneof to the reader
    assert props["waitTime"]["pattern"].endswith("s$") and props["blob"]["contentEncoding"] == "base64"
    assert schemas["sample.v1.GetRequest.Colour"]["enum"] == ["COLOUR_UNSPECIFIED", "COLOUR_RED"]
    assert schemas["sample.v1.GetResponse"]["properties"]["scores"]["items"]["format"] == "double"
    valid = {"counts": {"a": "12", "b": 3}, "inner": {"colour": "COLOUR_RED"}, "waitTime": "1.5s", "blob": "AAE="}
    Draft202012Validator({"$ref": "#/components/schemas/sample.v1.GetRequest",
                          "components": document["components"]}).validate(valid)
    for bad in ({"counts": {"a": 1.5}}, {"inner": {"colour": "COLOUR_BLUE"}}, {"waitTime": "1.5"}, {"wait_time": "1s"}):
        assert not Draft202012Validator({"$ref": "#/components/schemas/sample.v1.GetRequest",
                                         "components": document["components"]}).is_valid(bad), bad


# --- against the server ---


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with http_server() as http_port:
        yield http_port


def post(port: int, path: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                     method="POST", headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_served_at_openapi_json(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.json", timeout=10) as r:
        assert r.status == 200
        assert r.headers["content-type"] == "application/json"
        assert json.loads(r.read()) == DOCUMENT


# white bears off from 2, 3, 4 (R12); black has 15 on its 6 point
BEAR_OFF_ID = position_id.encode(position(mover={2: 2, 3: 2, 4: 2}, other={6: 15}))
START = {"position": {"positionId": "4HPwATDgc/ABMA"}}
CALLS = [
    ("/tavla.v1.RulesService/GetInitialPosition", {"onRoll": "SIDE_BLACK"}),
    ("/tavla.v1.RulesService/ListLegalMoves", {**START, "dice": [5, 1]}),
    ("/tavla.v1.RulesService/ApplyMove", {**START, "dice": [5, 1], "move": {"notation": "24/23 13/8"}}),
    ("/tavla.v1.RulesService/NameRoll", {"dice": [6, 5]}),
    ("/tavla.v1.RulesService/BearOff", {"position": {"positionId": BEAR_OFF_ID}, "dice": [6, 1]}),
    ("/tavla.v1.RulesService/RenderPosition", START),
    ("/tavla.v1.RefereeService/NewMatch", {"ruleset": {"preset": "turkish"}, "length": 3,
                                           "clock": {"moveTime": "30s", "reserve": "120s"}}),
]


EXAMPLES = [(path, example["value"]) for path, item in DOCUMENT["paths"].items()
            for example in item["post"]["requestBody"]["content"].get("application/json", {}).get("examples", {}).values()]


def test_the_page_has_examples_for_the_rules_and_a_new_match():
    assert {p.rsplit("/", 1)[1] for p, _ in EXAMPLES} == {
        "GetInitialPosition", "ListLegalMoves", "ApplyMove", "ScoreGame", "BearOff", "RenderPosition", "NameRoll",
        "NewMatch"}


@pytest.mark.parametrize("path,body", CALLS + EXAMPLES, ids=[p.rsplit("/", 1)[1] for p, _ in CALLS]
                         + [p.rsplit("/", 1)[1] + "-example" for p, _ in EXAMPLES])
def test_requests_and_answers_validate_against_their_schemas(port, path, body):
    method = UNARY[path]
    schema_of(method.input_type.full_name).validate(body)
    status, answer = post(port, path, body)
    assert status == 200, answer
    assert answer, "an empty answer validates against anything"
    schema_of(method.output_type.full_name).validate(answer)
    assert not schema_of(method.output_type.full_name).is_valid({**answer, "extra": 1})


def test_the_schema_refuses_what_the_server_refuses_and_the_error_matches_its_schema(port):
    path = "/tavla.v1.RulesService/GetInitialPosition"
    for body in ({"onRol": "SIDE_BLACK"}, {"onRoll": "SIDE_BLAK"}):
        assert not schema_of("tavla.v1.GetInitialPositionRequest").is_valid(body)
        status, error = post(port, path, body)
        assert status == 400 and error["code"] == "invalid_argument"
        schema_of("connect.error").validate(error)
    status, error = post(port, "/tavla.v1.RulesService/ApplyMove", {**START, "dice": [5, 1], "move": {"notation": "24/23"}})
    assert status == 400
    schema_of("connect.error").validate(error)
    assert {d["type"] for d in error["details"]} >= {"google.rpc.ErrorInfo"}

