"""A referee server for the variants' RPC tests: signed states, shared dice key (game_driver)."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

import rpc_api as api
from game_driver import DICE_SECRET, SIGNER
from tavla.core.match.dice_commit import DiceKey
from tavla.server.api.engine import Engine
from tavla.server.api.servicers import for_engine
from tavla.server.process.app import start_in_process


@pytest.fixture(scope="module")
def stub() -> Iterator[api.AnyStub]:
    engine = Engine(dice_key=DiceKey(DICE_SECRET, shared=True), signer=SIGNER)
    server, port = start_in_process(by_service=for_engine(engine))
    yield api.AnyStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
    server.stop(None)
