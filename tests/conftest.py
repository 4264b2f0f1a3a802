"""Shared fixtures: one in-process tavla-engine server on a free localhost port per test session.

``engine`` calls any tavla.v1 RPC (``rpc_api.AnyStub``), ``channel`` the channel it uses, ``server_address``
its ``host:port``; ``subprocess_env`` is an environment in which ``python -m tavla`` imports this
checkout's package. Run the suite with ``PYTHONPATH=service:clients/python/src pytest`` or after
``pip install ./service ./clients/python .`` (``make .venv-test/.installed``: all editable); without
either, ``service/`` and ``clients/python/src/`` (the client and the stubs) go on ``sys.path`` here.

The Hypothesis profile of the whole suite is set here, before any test module builds its
``settings``: no deadline (a shared 2-core machine makes any per-example time limit a timing
assertion; speed lives in bench/), the falsifying example and its ``@reproduce_failure`` blob
printed on failure, and with ``CI`` set ``derandomize=True``: every run tries the same examples,
so a CI failure reproduces locally with ``CI=1``. Tests set only ``max_examples`` and health checks.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("tavla", deadline=None, print_blob=True)
settings.register_profile("tavla-ci", settings.get_profile("tavla"), derandomize=True)
settings.load_profile("tavla-ci" if os.environ.get("CI") else "tavla")

if importlib.util.find_spec("tavla") is None:  # neither installed nor on PYTHONPATH
    _root = Path(__file__).resolve().parent.parent
    sys.path[:0] = [str(_root / "service"), str(_root / "clients" / "python" / "src")]

import grpc  # noqa: E402

import tavla  # noqa: E402
from tavla.server.process.app import start_in_process  # noqa: E402
from tavla.server.process.config import Config  # noqa: E402
import rpc_api  # noqa: E402

CONNECT_TIMEOUT = 30  # seconds; generous, it is a readiness wait, not a speed assertion


@pytest.fixture(scope="session")
def server_address() -> Iterator[str]:
    """``127.0.0.1:<port>`` of a server started in this process for the whole session."""
    server, port = start_in_process(Config(host="127.0.0.1", port=0, test_inputs=True))  # a test server
    yield f"127.0.0.1:{port}"
    server.stop(grace=None)


@pytest.fixture(scope="session")
def channel(server_address: str) -> Iterator[grpc.Channel]:
    """A ready channel to :func:`server_address`."""
    with grpc.insecure_channel(server_address) as ch:
        grpc.channel_ready_future(ch).result(timeout=CONNECT_TIMEOUT)
        yield ch


@pytest.fixture(scope="session")
def engine(channel: grpc.Channel) -> rpc_api.AnyStub:
    """Every tavla.v1 RPC on the session server (one generated stub per service)."""
    return rpc_api.AnyStub(channel)


@pytest.fixture(scope="session")
def subprocess_env() -> dict[str, str]:
    """``os.environ`` with the directories holding the imported ``tavla`` (the server's and the
    client's, which share the package) first on PYTHONPATH."""
    roots = [str(Path(p).parent) for p in tavla.__path__ if os.path.isdir(p)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(p for p in (*roots, env.get("PYTHONPATH")) if p))
    return env


@pytest.fixture(scope="module")
def pure_generator() -> Iterator[None]:
    """The pure-Python move generator alone for the module (the server installs the compiled one
    onto the backgammon variants at import): the oracle tests check it, tests/accel/test_accel_generate.py ties the compiled one to it."""
    from tavla.core.rules.backgammon import Backgammon

    saved = Backgammon.compiled_generate
    Backgammon.compiled_generate = None
    yield
    Backgammon.compiled_generate = saved
