"""Shared fixtures: one in-process tavla-engine server on a free localhost port per test session.

``engine`` is an ``EngineServiceStub``, ``channel`` the channel it uses, ``server_address``
its ``host:port``; ``subprocess_env`` is an environment in which ``python -m tavla`` imports this
checkout's package. Run the suite with ``PYTHONPATH=service pytest`` or after ``pip install .``;
without either, ``service/`` is put on ``sys.path`` here.

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
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "service"))

import grpc  # noqa: E402

import tavla  # noqa: E402
from tavla.server.app import start_in_process  # noqa: E402
from tavla.v1 import engine_service_pb2_grpc  # noqa: E402

CONNECT_TIMEOUT = 30  # seconds; generous, it is a readiness wait, not a speed assertion


@pytest.fixture(scope="session")
def server_address() -> Iterator[str]:
    """``127.0.0.1:<port>`` of a server started in this process for the whole session."""
    server, port = start_in_process()
    yield f"127.0.0.1:{port}"
    server.stop(grace=None)


@pytest.fixture(scope="session")
def channel(server_address: str) -> Iterator[grpc.Channel]:
    """A ready channel to :func:`server_address`."""
    with grpc.insecure_channel(server_address) as ch:
        grpc.channel_ready_future(ch).result(timeout=CONNECT_TIMEOUT)
        yield ch


@pytest.fixture(scope="session")
def engine(channel: grpc.Channel) -> engine_service_pb2_grpc.EngineServiceStub:
    """A stub of ``tavla.v1.EngineService`` on the session server."""
    return engine_service_pb2_grpc.EngineServiceStub(channel)


@pytest.fixture(scope="session")
def subprocess_env() -> dict[str, str]:
    """``os.environ`` with the directory holding the imported ``tavla`` first on PYTHONPATH."""
    package_root = str(Path(tavla.__file__).parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return env


@pytest.fixture(scope="module")
def pure_generator() -> Iterator[None]:
    """The pure-Python move generator alone for the module (the server installs the compiled one
    at import): the oracle tests check it, tests/test_accel_generate.py ties the compiled one to it."""
    from tavla.core import movegen

    saved = movegen._compiled
    movegen.use_compiled(None)
    yield
    movegen.use_compiled(saved)
