"""Rotating the state keys under a live match (docs/security.md#rotating-the-state-keys).

Two in-process replicas on loopback are restarted one at a time through the three steps of the
procedure (accept the new key, sign with it, drop the old one), and a refereed match crosses the
whole rollout: after each single restart its current state, acted on by one replica, is accepted
by the other, whichever config each runs. Putting the new key first at once, as the docs once
said, is refused mid-rollout with STATE_KEY_UNKNOWN (the reported failure).
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2

import rpc_api as api
from game_driver import choose
from statuses import rich_status, unpack
from tavla.server.process import app
from tavla.server.process.config import Config

OLD = f"k1:{base64.b64encode(b'the old state key, 32 bytes long').decode()}"
NEW = f"k2:{base64.b64encode(b'the new state key, 32 bytes long').decode()}"
DICE = "rotation test dice key: at least thirty-two characters"

# The procedure: each entry is the key list every replica runs with after that step's roll.
STEPS = [
    ("start", OLD),
    ("accept the new key", f"{OLD},{NEW}"),
    ("sign with the new key", f"{NEW},{OLD}"),
    ("drop the old key", NEW),
]


class Replica:
    """One in-process server in state mode require with its own keys file."""

    def __init__(self, keys: str, folder: Path, name: str) -> None:
        keys_file = folder / f"{name}-{len(list(folder.iterdir()))}.keys"
        keys_file.write_text(keys)
        self.engine = app.build(Config(host="127.0.0.1", port=0, state_mode="require",
                                       state_keys_file=str(keys_file)))
        app.start(self.engine)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.engine.port}")
        self.stub = api.AnyStub(self.channel)

    def stop(self) -> None:
        self.channel.close()
        app.stop(self.engine, 0.5)


@pytest.fixture
def cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Replica]]:
    monkeypatch.setenv("TAVLA_DICE_KEY", DICE)  # the dice key does not rotate (security.md)
    replicas = {"a": Replica(OLD, tmp_path, "a"), "b": Replica(OLD, tmp_path, "b")}
    yield replicas
    for replica in replicas.values():
        replica.stop()


def restart(cluster: dict[str, Replica], name: str, keys: str, folder: Path) -> None:
    cluster[name].stop()
    cluster[name] = Replica(keys, folder, name)


def play(cluster: dict[str, Replica], signed, rng: random.Random, turns: int):
    """``turns`` actions, each acted on by one replica and the answer's state then listed by the
    other (a game server's next call may go to either); returns the latest state."""
    for i in range(turns):
        here, there = (cluster["a"], cluster["b"]) if i % 2 else (cluster["b"], cluster["a"])
        listed = here.stub.ListActions(api.ListActionsRequest(state=signed))
        assert listed.actions, "the match ended before the rollout did"
        signed = here.stub.Act(api.ActRequest(state=signed, action=choose(list(listed.actions), rng))).state
        request = api.ListActionsRequest(state=signed)
        assert there.stub.ListActions(request).actions == here.stub.ListActions(request).actions
    return signed


def refused_reason(stub: api.AnyStub, signed) -> str:
    """The ErrorInfo reason of ListActions refusing ``signed``."""
    (info,) = unpack(rich_status(stub, "ListActions", api.ListActionsRequest(state=signed)),
                     error_details_pb2.ErrorInfo)
    return info.reason


def test_a_live_match_crosses_the_three_step_rotation(cluster, tmp_path):
    rng = random.Random(5)
    first = cluster["a"].stub.NewMatch(api.NewMatchRequest(length=7)).state
    assert first.key_id == "k1"
    signed = play(cluster, first, rng, 4)
    for step, keys in STEPS[1:]:
        for name in ("a", "b"):  # a rolling restart: one replica at a time
            restart(cluster, name, keys, tmp_path)
            signed = play(cluster, signed, rng, 4)  # either replica answers, old config or new
            if step != "drop the old key":
                # a state issued by A under the old config still opens on both replicas
                for replica in cluster.values():
                    assert replica.stub.ListActions(api.ListActionsRequest(state=first)).actions
        # the match's current state was signed by the step's signing key once the roll finished
        assert signed.key_id == keys.split(":")[0]
    assert signed.key_id == "k2"
    # after the last step a state not acted on since the old key signed is refused
    assert refused_reason(cluster["a"].stub, first) == refused_reason(cluster["b"].stub, first) == "STATE_KEY_UNKNOWN"


def test_the_new_key_first_at_once_breaks_a_match_mid_rollout(cluster, tmp_path):
    # the order once documented: k2 first on one replica while the other holds only k1
    rng = random.Random(6)
    signed = play(cluster, cluster["a"].stub.NewMatch(api.NewMatchRequest(length=7)).state, rng, 2)
    restart(cluster, "a", f"{NEW},{OLD}", tmp_path)
    listed = cluster["a"].stub.ListActions(api.ListActionsRequest(state=signed))
    signed = cluster["a"].stub.Act(api.ActRequest(state=signed, action=choose(list(listed.actions), rng))).state
    assert signed.key_id == "k2"
    assert refused_reason(cluster["b"].stub, signed) == "STATE_KEY_UNKNOWN"
