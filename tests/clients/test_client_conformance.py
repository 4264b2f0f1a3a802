"""The conformance scenarios of clients/conformance run through the Python client (tavla.client),
sync and asyncio, against a live server started by clients/conformance/live_server.py.

The same JSON files are run by the Go, TypeScript and Java clients' tests; the matching rules are
in clients/conformance/README.md and are implemented the same way in each language. This module
also checks the scenario files themselves: well formed, unique names, and every RPC of the four
tavla.v1 services and every ErrorInfo reason (ErrorReason) a one-call scenario can reach covered.
"""

from __future__ import annotations

import asyncio
import importlib.util
import inspect
import json
import math
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, message_factory

from tavla.client import HELPERS, SERVICE_OF, AsyncClient, Client, EngineError
from tavla.v1 import (analysis_service_pb2, error_reason_pb2, match_service_pb2, records_service_pb2,
                      referee_service_pb2, rules_service_pb2)

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "clients" / "conformance"
# A scenario's "service" names one of these (the short name, in package tavla.v1).
SERVICES = {name: module.DESCRIPTOR.services_by_name[name] for name, module in (
    ("RulesService", rules_service_pb2), ("MatchService", match_service_pb2),
    ("RefereeService", referee_service_pb2), ("RecordsService", records_service_pb2),
    ("AnalysisService", analysis_service_pb2))}
# Every service with a Python helper: all of them. AnalysisService's scenarios (analysis.json)
# expect what holds with bgsage's net and without it; tests/analysis and
# tests/clients/test_client_analysis.py test the evaluations themselves.
HELPED_SERVICES = SERVICES
# The reasons no one-call scenario on the live server (state mode off, untimed, no test inputs)
# can reach: signing needs mode sign or require, the CLIENT_* ones test metadata, NOT_TIMED_OUT
# a timed state. tests/referee/test_game_rpc.py and tests/test_state_*.py cover them.
UNREACHABLE_REASONS = {"STATE_SIGNATURE_INVALID", "STATE_KEY_UNKNOWN", "STATE_UNSIGNED",
                       "CLIENT_DICE_REFUSED", "CLIENT_TIME_REFUSED", "NOT_TIMED_OUT"}
REASONS = sorted(set(error_reason_pb2.ErrorReason.keys()) - {"ERROR_REASON_UNSPECIFIED"} - UNREACHABLE_REASONS)
TOLERANCE = 1e-9  # numbers match when |actual - expected| <= TOLERANCE * max(1, |expected|)


def load_scenarios() -> list[dict[str, Any]]:
    scenarios = []
    for path in sorted((CONFORMANCE / "scenarios").glob("*.json")):
        for scenario in json.loads(path.read_text(encoding="utf-8"))["scenarios"]:
            scenarios.append({**scenario, "_file": path.name})
    return scenarios


SCENARIOS = load_scenarios()


# --- the matcher: clients/conformance/README.md ------------------------------------------------


def _is_default(value: Any) -> bool:
    """Proto3 JSON leaves out fields with no presence that hold their default."""
    return (value in (None, False, 0, "", [], {})
            or (isinstance(value, str) and value.endswith("_UNSPECIFIED")))


def match(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` (a response as proto JSON) fails ``expected``; empty when it matches."""
    if isinstance(expected, dict) and any(k.startswith("$") for k in expected):
        errors = []
        for key, arg in expected.items():
            if key == "$absent":
                if arg and not _is_default(actual):
                    errors.append(f"{path}: expected absent, got {actual!r}")
            elif key == "$len":
                items = actual if actual is not None else []
                if not isinstance(items, list) or len(items) != arg:
                    errors.append(f"{path}: expected {arg} elements, got {len(items) if isinstance(items, list) else items!r}")
            elif key == "$regex":
                text = "" if actual is None else actual
                if not isinstance(text, str) or not re.search(arg, text):
                    errors.append(f"{path}: {actual!r} does not match /{arg}/")
            elif key == "$contains":
                items = actual if isinstance(actual, list) else []
                for i, want in enumerate(arg):
                    if not any(not match(want, item) for item in items):
                        errors.append(f"{path}: no element matches $contains[{i}] {json.dumps(want)}")
            else:
                errors.append(f"{path}: unknown operator {key}")
        return errors
    if isinstance(expected, dict):
        if actual is None:
            actual = {}
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        return [e for key, want in expected.items() for e in match(want, actual.get(key), f"{path}.{key}")]
    if isinstance(expected, list):
        if actual is None:
            actual = []
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}"]
        return [e for i, (w, a) in enumerate(zip(expected, actual)) for e in match(w, a, f"{path}[{i}]")]
    if actual is None and _is_default(expected):
        return []
    if isinstance(expected, bool) or isinstance(actual, bool):
        return [] if expected is actual else [f"{path}: expected {expected!r}, got {actual!r}"]
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        ok = math.isclose(actual, expected, rel_tol=0, abs_tol=TOLERANCE * max(1.0, abs(expected)))
        return [] if ok else [f"{path}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def match_error(expected: dict[str, Any], error: EngineError) -> list[str]:
    """Where a failed call differs from a scenario's ``error``."""
    errors = []
    if error.code.name != expected["code"]:
        errors.append(f"code: expected {expected['code']}, got {error.code.name} ({error.message})")
    for key in ("reason", "domain"):
        if key in expected and getattr(error, key) != expected[key]:
            errors.append(f"{key}: expected {expected[key]!r}, got {getattr(error, key)!r} ({error.message})")
    for key, value in expected.get("metadata", {}).items():
        if error.metadata.get(key) != value:
            errors.append(f"metadata.{key}: expected {value!r}, got {error.metadata.get(key)!r}")
    if "field" in expected and expected["field"] not in error.fields:
        errors.append(f"field: expected {expected['field']!r} among {list(error.fields)} ({error.message})")
    return errors


# --- running a scenario ------------------------------------------------------------------------


def method_of(scenario: dict[str, Any]) -> Any:
    return SERVICES[scenario["service"]].methods_by_name[scenario["rpc"]]


def request_of(scenario: dict[str, Any]) -> Any:
    method = method_of(scenario)
    return json_format.ParseDict(scenario["request"], message_factory.GetMessageClass(method.input_type)())


def to_json(message: Any) -> Any:
    return json_format.MessageToDict(message, preserving_proto_field_name=True)


def check(scenario: dict[str, Any], response: Any, error: EngineError | None) -> None:
    if "error" in scenario:
        assert error is not None, f"expected {scenario['error']}, got OK {to_json(response)}"
        problems = match_error(scenario["error"], error)
    else:
        assert error is None, f"expected OK, got {error}"
        problems = match(scenario["response"], to_json(response))
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def live_target() -> Iterator[str]:
    """``127.0.0.1:<port>`` of a ``python -m tavla serve`` process, stopped with SIGTERM after."""
    spec = importlib.util.spec_from_file_location("live_server", CONFORMANCE / "live_server.py")
    assert spec and spec.loader
    live_server = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(live_server)
    proc, target = live_server.start(sys.executable)
    yield target
    assert live_server.stop(proc) == 0, "the server did not stop cleanly on SIGTERM"


@pytest.fixture(scope="module")
def client(live_target: str) -> Iterator[Client]:
    with Client(live_target) as c:
        yield c


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario_sync(client: Client, scenario: dict[str, Any]) -> None:
    try:
        response, error = client.call(scenario["rpc"], request_of(scenario)), None
    except EngineError as exc:
        response, error = None, exc
    check(scenario, response, error)


def via_helper(client: Client, method: Any, request: Any) -> Any:
    """Call ``rpc`` through its typed helper (tavla.client.HELPERS), passing the request's set
    fields as keyword arguments, and return the whole response message."""
    rpc = method.name
    kwargs = {f.name: value for f, value in request.ListFields()}
    if rpc == "StartGame" and "given" in kwargs:  # the helper takes the given dice flat, fills the oneof
        given = kwargs.pop("given")
        kwargs.update(roll_off=list(given.roll_off), dice=list(given.dice))
    helper = getattr(client, HELPERS[rpc])
    for name, param in inspect.signature(helper).parameters.items():
        if param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if name not in kwargs and (param.default is inspect.Parameter.empty or name == "on_roll"):
            kwargs[name] = getattr(request, name)  # an error scenario leaves a required field out
    answer = helper(**kwargs)
    response_class = message_factory.GetMessageClass(method.output_type)
    if rpc == "GetInitialPosition":  # the two helpers that unwrap their answer
        return response_class(position=answer)
    if rpc == "ListLegalMoves":  # the helper answers the moves; dice_used comes with the RPC's answer
        return response_class(moves=answer, dice_used=client.call(rpc, request).dice_used)
    return answer


def test_every_rpc_has_a_helper() -> None:
    assert set(HELPERS) == {rpc for service in HELPED_SERVICES.values() for rpc in service.methods_by_name}
    for rpc, name in HELPERS.items():
        assert callable(getattr(Client, name)) and callable(getattr(AsyncClient, name)), rpc


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario_through_the_helper(client: Client, scenario: dict[str, Any]) -> None:
    try:
        response, error = via_helper(client, method_of(scenario), request_of(scenario)), None
    except EngineError as exc:
        response, error = None, exc
    check(scenario, response, error)


def test_scenarios_asyncio(live_target: str) -> None:
    async def run_all() -> list[tuple[dict[str, Any], Any, EngineError | None]]:
        async with AsyncClient(live_target) as aclient:
            async def one(scenario: dict[str, Any]) -> tuple[dict[str, Any], Any, EngineError | None]:
                try:
                    return scenario, await aclient.call(scenario["rpc"], request_of(scenario)), None
                except EngineError as exc:
                    return scenario, None, exc
            return await asyncio.gather(*(one(s) for s in SCENARIOS))

    failures = []
    for scenario, response, error in asyncio.run(run_all()):
        try:
            check(scenario, response, error)
        except AssertionError as exc:
            failures.append(f"{scenario['name']}: {exc}")
    assert not failures, "\n".join(failures)


# --- the scenario files ------------------------------------------------------------------------


def test_scenarios_are_well_formed() -> None:
    names = [s["name"] for s in SCENARIOS]
    assert len(names) == len(set(names)), "scenario names must be unique"
    allowed = {"name", "service", "rpc", "note", "request", "response", "error", "_file"}
    for s in SCENARIOS:
        assert set(s) <= allowed, f"{s['name']}: unknown keys {set(s) - allowed}"
        assert s["rpc"] in SERVICES[s["service"]].methods_by_name, f"{s['name']}: no RPC {s['service']}.{s['rpc']}"
        assert SERVICE_OF[s["rpc"]] == f"tavla.v1.{s['service']}", s["name"]
        assert ("response" in s) != ("error" in s), f"{s['name']}: exactly one of response and error"
        assert s["name"].startswith(s["rpc"] + "/"), f"{s['name']}: names start with '<rpc>/'"
        request_of(s)  # parses as the RPC's request message
        if "error" in s:
            assert set(s["error"]) <= {"code", "reason", "domain", "metadata", "field"}, s["name"]
            assert re.fullmatch(r"[A-Z_]+", s["error"]["code"]), s["name"]


def test_every_rpc_and_reason_has_a_scenario() -> None:
    assert {"MUST_USE_BOTH_DICE", "GAME_OVER"} <= set(REASONS), REASONS  # the comment was read
    for rpc, method in ((m.name, m) for service in SERVICES.values() for m in service.methods):
        if method.client_streaming or method.server_streaming:
            continue  # scenarios are one request, one answer: ValidateMatch is tested in tests/formats/test_validate_match.py
        assert any(s["rpc"] == rpc and "response" in s for s in SCENARIOS), f"no OK scenario for {rpc}"
        if method.input_type.fields:  # a request with no field cannot be wrong
            assert any(s["rpc"] == rpc and "error" in s for s in SCENARIOS), f"no error scenario for {rpc}"
    for reason in REASONS:
        assert any(s.get("error", {}).get("reason") == reason for s in SCENARIOS), f"no scenario for {reason}"
    assert any("field" in s.get("error", {}) for s in SCENARIOS), "no BadRequest scenario"


def test_matcher_rules() -> None:
    actual = {"moves": [{"notation": "24/23 13/8", "result": {"position_id": "x"}}, {"notation": "13/7"}],
              "dice_used": 2, "win": 0.1 + 0.2}
    assert not match({"moves": {"$len": 2, "$contains": [{"notation": "13/7"}]}}, actual)
    assert match({"moves": {"$len": 3}}, actual)
    assert match({"moves": {"$contains": [{"notation": "8/2"}]}}, actual)
    assert not match({"dice_used": 2, "forced": False, "result": {"$absent": True}, "win": 0.3}, actual)
    assert match({"dice_used": 4}, actual) and match({"result": {"$absent": True}}, actual["moves"][0])
    assert not match({"checker_moves": [], "notation": "", "on_roll": "SIDE_UNSPECIFIED"}, {})
    assert not match({"moves": [{"notation": {"$regex": "^24/"}}, {"notation": {"$regex": "7$"}}]}, actual)
    assert match({"moves": {"$contains": [{"notation": {"$regex": "^8/"}}]}}, actual)
    assert match({"moves": [{"notation": "24/23 13/8"}]}, actual)  # a list matches whole, in order


# --- README example ----------------------------------------------------------------------------


def test_readme_example_is_the_quickstart_and_runs(live_target: str) -> None:
    import subprocess

    quickstart = (ROOT / "clients" / "python" / "quickstart.py").read_text(encoding="utf-8")
    readme = (ROOT / "clients" / "python" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", readme, re.DOTALL)
    assert block and block.group(1) == quickstart, "clients/python/README.md's example must be quickstart.py"
    out = subprocess.run([sys.executable, str(ROOT / "clients" / "python" / "quickstart.py"), live_target],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.splitlines()[-1] == "4PPgASjgc/ABMA", out


def test_unreachable_server_is_unavailable_after_retries() -> None:
    with Client("127.0.0.1:1") as c, pytest.raises(EngineError) as info:
        c.initial_position()
    assert info.value.code == grpc.StatusCode.UNAVAILABLE
