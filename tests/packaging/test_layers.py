"""The layers of the package point only down (docs/architecture.md):

    core < codec < referee, formats, render < replay < analysis < service < transport < cli

``core`` is ``tavla.core``; ``codec`` is ``tavla.server.convert`` (proto <-> core, the one place
that knows the wire); ``service`` is ``tavla.server.api`` (the servicers); ``transport`` is the
rest of ``tavla.server`` (gRPC and HTTP, admission, the call pipeline, processes); ``cli`` is
``tavla.cli``, ``tavla.__main__`` and every ``*.cli`` module. A module may import its own layer's
package and any lower layer, never a higher one nor a sibling of its own rank. Every import
counts, function-local ones included (no import inside a function dodges a cycle). The
generated stubs (``tavla.v1``) and the client sit outside the ladder; the core never imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "service" / "tavla"

RANKS = {"core": 0, "codec": 1, "referee": 2, "formats": 2, "render": 2, "replay": 3, "analysis": 4,
         "service": 5, "transport": 6, "cli": 7}
# Backward imports still to remove, each with why it is still here; the test fails on any other,
# and on one listed here that is gone (then strike it).
KNOWN: dict[tuple[str, str], str] = {}


def layer(module: str) -> str | None:
    """The layer of a ``tavla`` module, or ``None`` outside the ladder."""
    parts = module.split(".")
    if parts[0] != "tavla" or len(parts) < 2:
        return None
    if parts[-1] == "cli" or parts[1] == "__main__":
        return "cli"
    top = parts[1]
    if top == "server":
        if len(parts) < 3:
            return "transport"
        return {"convert": "codec", "api": "service"}.get(parts[2], "transport")
    return top if top in RANKS else None


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tavla":  # from tavla import core
                names.update(f"tavla.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


def upward() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in ROOT.rglob("*.py"):
        me = module_of(path)
        mine = layer(me)
        if mine is None:
            continue
        for name in imports(path):
            theirs = layer(name)
            if theirs is None or theirs == mine:
                continue
            if RANKS[theirs] >= RANKS[mine]:
                found.add((me, name))
    return found


def test_the_ladder_has_every_package():
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert {layer(f"tavla.{name}") for name in packages - {"server"}} <= set(RANKS)
    assert len(list(ROOT.rglob("*.py"))) > 100


def test_layers_point_only_down():
    found = upward()
    assert sorted(found - set(KNOWN)) == []
    assert sorted(set(KNOWN) - found) == []  # one fixed: strike it from KNOWN


def test_the_check_sees_a_backward_import(tmp_path):
    # the walker itself: a core module importing the servicers would be caught
    assert layer("tavla.core.rules.movegen") == "core" and layer("tavla.server.api.rules") == "service"
    assert layer("tavla.analysis.cli") == "cli" and layer("tavla.server.convert.contract") == "codec"
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from tavla.server.api import rules\n", encoding="utf-8")
    assert "tavla.server.api" in imports(probe)
