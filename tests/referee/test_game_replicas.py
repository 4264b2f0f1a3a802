"""Two replicas, one key set: two `tavla-engine serve` processes in state mode require
with the same TAVLA_STATE_KEYS and TAVLA_DICE_KEY pass a match back and forth; a third with other
keys refuses the states. As the Helm chart runs its replicas, sharing one Secret."""

from __future__ import annotations

import base64
import random
import socket
import subprocess
import sys
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc


from game_driver import choose
import rpc_api as api

pytestmark = pytest.mark.slow  # three server processes: not in test-fast

KEYS = f"k1:{base64.b64encode(b'replica state key, 32 bytes long').decode()}"
DICE = "replica dice key: at least thirty-two characters"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(env: dict[str, str], keys: str) -> tuple[subprocess.Popen, api.AnyStub, grpc.Channel]:
    port = _free_port()
    env = dict(env, TAVLA_STATE_MODE="require", TAVLA_STATE_KEYS=keys, TAVLA_DICE_KEY=DICE, TAVLA_METRICS_PORT="0",
               TAVLA_WORKERS="1", TAVLA_DRAIN_SECONDS="0", TAVLA_LOG_LEVEL="warning")
    proc = subprocess.Popen([sys.executable, "-m", "tavla", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the server exited"
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
            if reply.status == health_pb2.HealthCheckResponse.SERVING:
                return proc, api.AnyStub(channel), channel
        except grpc.RpcError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server not SERVING")


@pytest.fixture(scope="module")
def replicas(subprocess_env):
    started = [_serve(subprocess_env, KEYS), _serve(subprocess_env, KEYS),
               _serve(subprocess_env, f"k1:{base64.b64encode(b'another deployment key, 32 bytes').decode()}")]
    yield [stub for _, stub, _ in started]
    for proc, _, channel in started:
        channel.close()
        proc.terminate()
        proc.wait(timeout=30)


def test_a_match_moves_between_replicas(replicas):
    a, b, stranger = replicas
    rng = random.Random(2)
    signed = a.NewMatch(api.NewMatchRequest(length=3)).state
    for i in range(120):  # every call goes to the other replica
        here, there = (a, b) if i % 2 else (b, a)
        listed = here.ListActions(api.ListActionsRequest(state=signed))
        if not listed.actions:
            break
        action = choose(list(listed.actions), rng, double=0.1)
        answer = here.Act(api.ActRequest(state=signed, action=action))
        again = there.Act(api.ActRequest(state=signed, action=action))
        assert again.state == answer.state  # the same dice, the same signed state, on either replica
        assert list(again.events.rolled) == list(answer.events.rolled)
        signed = answer.state
    assert answer.view.sequence >= 60
    with pytest.raises(grpc.RpcError) as err:
        stranger.ListActions(api.ListActionsRequest(state=signed))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "does not match" in err.value.details()
