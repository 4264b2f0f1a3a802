"""One helper name per RPC in every client: the RPC's own name in the language's case.

Go ``Act``, TypeScript and Java ``act``, Python ``act``; ``ListLegalMoves`` is Go
``ListLegalMoves``, TypeScript and Java ``listLegalMoves``, Python ``list_legal_moves``. The RPCs
come from the service descriptors; each client's helper table (Go ``tavla.Helpers``, TypeScript
and Java ``HELPERS``, Python ``tavla.client.HELPERS``) must map every RPC to that name and
nothing else, and the name must be a method of the client: read from the wrapper's source for
Go, TypeScript and Java (a regex over the method declarations), by introspection for Python.
The clients' own tests check each helper's signature and call it against a live server.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavla import client as python_client
from tavla.v1 import (analysis_service_pb2, match_service_pb2, records_service_pb2, referee_service_pb2,
                      rules_service_pb2)

CLIENTS = Path(__file__).resolve().parents[2] / "clients"
SERVICES = (rules_service_pb2, match_service_pb2, referee_service_pb2, records_service_pb2, analysis_service_pb2)
RPCS = sorted(method.name for module in SERVICES for service in module.DESCRIPTOR.services_by_name.values()
              for method in service.methods)
# The 1.0 names of four Python helpers, kept as deprecated aliases through 1.x (the Python client
# is tavla-engine-client 1.0.0, under semantic versioning; Go, TypeScript and Java are pre-1.0).
PYTHON_DEPRECATED = {"initial_position": "get_initial_position", "legal_moves": "list_legal_moves",
                     "legal_steps": "list_legal_steps", "cube_actions": "list_cube_actions"}


def camel(rpc: str) -> str:
    return rpc[0].lower() + rpc[1:]


def snake(rpc: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", rpc).lower()


def _go() -> tuple[dict[str, str], set[str]]:
    source = "\n".join(p.read_text() for p in sorted((CLIENTS / "go" / "tavla").glob("*.go"))
                       if not p.name.endswith("_test.go"))
    table = source[source.index("var Helpers = map[string]string{"):]
    table = table[:table.index("\n}\n")]
    return (dict(re.findall(r'"(\w+)":\s*"(\w+)"', table)),
            set(re.findall(r"^func \(c \*Client\) (\w+)\(", source, re.M)))


def _typescript() -> tuple[dict[str, str], set[str]]:
    source = (CLIENTS / "typescript" / "src" / "engine.ts").read_text()
    table = source[source.index("export const HELPERS = {"):]
    table = table[:table.index("} as const;")]
    body = source[source.index("export class EngineClient {"):]
    return (dict(re.findall(r'^\s*(\w+):\s*"(\w+)",?$', table, re.M)),
            set(re.findall(r"^  (?:async\s+)?(\w+)\(", body, re.M)))


def _java() -> tuple[dict[str, str], set[str]]:
    source = (CLIENTS / "java" / "src" / "main" / "java" / "dev" / "tavla" / "client" / "TavlaClient.java").read_text()
    table = source[source.index("public static final Map<String, String> HELPERS"):]
    table = table[:table.index(";")]
    return (dict(re.findall(r'Map\.entry\("(\w+)",\s*"(\w+)"\)', table)),
            set(re.findall(r"^  public (?!static)[\w<>?, .\[\]]+ (\w+)\(", source, re.M)))


def _python() -> tuple[dict[str, str], set[str]]:
    methods = {name for cls in (python_client.Client, python_client.AsyncClient) for name in dir(cls)
               if not name.startswith("_") and callable(getattr(cls, name))}
    return dict(python_client.HELPERS), methods


LANGUAGES = {"go": (_go, str), "typescript": (_typescript, camel), "java": (_java, camel), "python": (_python, snake)}


def test_the_rpcs_are_read():
    assert len(RPCS) == len(set(RPCS)) >= 29  # RPC names are unique across the five services
    assert {"Act", "NewMatch", "ApplyMove", "GetInitialPosition", "ListLegalMoves"} <= set(RPCS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rpc_has_exactly_its_own_named_helper(language):
    read, case = LANGUAGES[language]
    table, methods = read()
    assert sorted(table) == RPCS, f"{language}: the helper table does not list exactly the RPCs"
    wrong = {rpc: helper for rpc, helper in table.items() if helper != case(rpc)}
    assert not wrong, f"{language}: helpers not named as their RPC: {wrong}"
    missing = sorted(case(rpc) for rpc in RPCS if case(rpc) not in methods)
    assert not missing, f"{language}: no method {missing} on the client"


def test_case_conversions():
    assert (camel("GetInitialPosition"), snake("GetInitialPosition")) == ("getInitialPosition", "get_initial_position")
    assert (camel("Act"), snake("Act"), snake("NewMatch")) == ("act", "act", "new_match")


def test_python_keeps_its_1_0_names_only_as_aliases_of_the_new_ones():
    for cls in (python_client.Client, python_client.AsyncClient):
        for old, new in PYTHON_DEPRECATED.items():
            assert getattr(cls, old) is getattr(cls, new), f"{cls.__name__}.{old} is not {new}"


@pytest.mark.parametrize("language", ["go", "typescript", "java"])
def test_no_other_helper_names_an_rpc_differently(language):
    # a method named like another RPC's old helper would be a second name for one RPC
    _table, methods = LANGUAGES[language][0]()
    case = LANGUAGES[language][1]
    old = {"go": {"InitialPosition", "LegalMoves", "Play", "Perform", "OpenMatch", "Steps", "Start", "Commit",
                  "Roll", "RollName", "CubeOptions", "Cube", "Offer", "Answer", "Update", "Clock", "Resolve",
                  "Presets", "Render", "Actions", "Validate", "Export", "BestMoves", "Evaluate", "CubeAdvice",
                  "Review", "ComputerAction", "BearOffFigures", "Score"},
           "typescript": {"initialPosition", "legalMoves", "legalSteps", "cubeActions"},
           "java": {"initialPosition", "legalMoves", "legalSteps", "cubeActions"}}[language]
    assert not (old & methods), f"{language}: old helper names left: {sorted(old & methods)}"
    assert {case(rpc) for rpc in RPCS} <= methods
