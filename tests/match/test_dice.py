"""Dice (RULES.md R22): the secure source, the verifiable commit-reveal scheme of docs/dice.md
across replicas with no server memory, and the RollDice / CommitDice RPCs. The statistics
(chi-square on 100,000 rolls) are a benchmark, bench/bench_dice.py, not a test."""

from __future__ import annotations

import hashlib
import inspect
import random
import re
import time
from collections import Counter
from pathlib import Path

import grpc
import pytest

from boards import position
from tavla.core import InvalidInputError
from tavla.core.match import dice
from tavla.core.match import dice_commit
from tavla.core.ids import position_id
from tavla.core.match.dice_commit import DiceKey, DiceProof, verify
from tavla.server.process.app import start_in_process
from tavla.server.api.engine import Engine
from tavla.server.api.servicers import for_engine
from tavla.v1 import dice_pb2, match_pb2
import rpc_api as api
from tavla.v1 import types_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 30
SHARED = "a-deployment-wide-secret-of-32-characters-or-more"


# --- the secure source ------------------------------------------------------------------------


def test_the_dice_module_never_uses_random():
    source = inspect.getsource(dice)
    assert not re.search(r"^\s*(import random|from random)", source, re.MULTILINE)
    assert "secrets.randbelow" in source


def test_secure_dice_do_not_touch_the_random_module(monkeypatch):
    def refuse(*_args, **_kwargs):
        raise AssertionError("the random module's Mersenne Twister was used")
    for name in ("random", "randint", "randrange", "choice", "choices", "getrandbits"):
        monkeypatch.setattr(random, name, refuse)
    rolls = [dice.roll(dice.secure_dice()) for _ in range(200)]
    assert all(1 <= d <= 6 for roll in rolls for d in roll)


def test_secure_dice_show_every_face():
    counts = Counter(dice.secure_die() for _ in range(3000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}  # each face missing: 6 x (5/6)^3000


# --- the verifiable stream and commit-reveal ---------------------------------------------------


def test_seeded_stream_is_deterministic_and_in_range():
    a = dice.seeded_dice(b"\x01" * 32, "client")
    b = dice.seeded_dice(b"\x01" * 32, "client")
    first = [next(a) for _ in range(500)]
    assert first == [next(b) for _ in range(500)]
    assert set(first) == {1, 2, 3, 4, 5, 6}
    other = dice.seeded_dice(b"\x01" * 32, "client2")
    assert [next(other) for _ in range(20)] != first[:20]


def test_seeded_stream_skips_biased_bytes():
    # every byte of the block is used: 0-251 map to b % 6 + 1, 252-255 are skipped
    seed = b"\x02" * 32
    block = __import__("hmac").new(seed, dice.DICE_LABEL + (0).to_bytes(4, "big") + b"x", hashlib.sha256).digest()
    expected = [b % 6 + 1 for b in block if b < 252]
    stream = dice.seeded_dice(seed, "x")
    assert [next(stream) for _ in expected] == expected


H = dice_commit.client_seed_sha256


def test_commit_then_open_gives_the_committed_seed():
    key = DiceKey.random()
    commitment = key.commit(H("alice+bob"))
    seed = key.open(commitment.token, "alice+bob")
    assert hashlib.sha256(seed).hexdigest() == commitment.commitment
    assert commitment.token.startswith("tv2.") and seed.hex() not in commitment.token
    assert commitment.expires - time.time() == pytest.approx(dice_commit.TOKEN_SECONDS, abs=5)


def test_the_token_does_not_reveal_the_seed_and_commitments_differ():
    key = DiceKey.random()
    a, b = key.commit(H("s")), key.commit(H("s"))
    assert a.commitment != b.commitment and a.token != b.token


def test_replicas_sharing_the_key_open_each_others_tokens():
    one = DiceKey.from_env({dice_commit.KEY_ENV: SHARED})
    two = DiceKey.from_env({dice_commit.KEY_ENV: SHARED})
    assert one.shared and two.shared
    commitment = one.commit(H("c"))
    assert two.open(commitment.token, "c") == one.open(commitment.token, "c")


def test_per_process_keys_refuse_each_others_tokens():
    one, two = DiceKey.from_env({}), DiceKey.from_env({})
    assert not one.shared
    with pytest.raises(InvalidInputError) as err:
        two.open(one.commit(H("c")).token, "c")
    assert err.value.field == "seed.token" and "TAVLA_DICE_KEY" in err.value.reason


@pytest.mark.parametrize("token", ["", "tv2.", "tv2.!!!!", "tv1.AAAA", "tv2." + "A" * 43, "x" * 500])
def test_garbled_tokens_are_refused(token):
    with pytest.raises(InvalidInputError) as err:
        DiceKey.random().open(token, "c")
    assert err.value.field == "seed.token"


def test_a_tampered_token_is_refused():
    key = DiceKey.random()
    token = key.commit(H("c")).token
    flipped = token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]
    with pytest.raises(InvalidInputError):
        key.open(flipped, "c")


def _respellings(token: str) -> list[str]:
    body = token[len("tv2."):]
    last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    # the same bytes with the unused low bits of the last character set: a loose decoder agrees
    index = last.index(body[-1])
    other_bits = [last[index ^ bit] for bit in (1, 2, 3)]
    return ([token + "=", token + "==", "tv2." + body.replace("-", "+").replace("_", "/"), token + "\n",
             " " + token] + ["tv2." + body[:-1] + c for c in other_bits])


def test_only_the_canonical_spelling_opens_a_token():
    # finding: base64 was decoded loosely, so token + "=" and other spellings opened the same seed
    key = DiceKey.random()
    token = key.commit(H("c")).token
    key.open(token, "c")
    spellings = [t for t in _respellings(token) if t != token]
    assert len(spellings) >= 6
    for spelling in spellings:
        with pytest.raises(InvalidInputError) as err:
            key.open(spelling, "c")
        assert err.value.field == "seed.token", spelling


def test_a_token_rolls_only_with_the_committed_client_seed():
    # finding: a token could be rolled with any client seed, so its holder could try seeds until
    # the dice suited them (a 6-6 took 48 tries); now only the committed seed opens it
    key = DiceKey.random()
    token = key.commit(H("alice:7f3a bob:c001")).token
    key.stream(token, "alice:7f3a bob:c001")
    for attempt in range(48):
        with pytest.raises(InvalidInputError) as err:
            key.stream(token, f"grind-{attempt}")
        assert err.value.field == "seed.client_seed"


def test_a_token_expires():
    # finding: tokens were valid forever
    key = DiceKey.random()
    commitment = key.commit(H("c"), now=1_000_000)
    key.open(commitment.token, "c", now=1_000_000 + dice_commit.TOKEN_SECONDS)
    with pytest.raises(InvalidInputError) as err:
        key.open(commitment.token, "c", now=1_000_001 + dice_commit.TOKEN_SECONDS)
    assert err.value.field == "seed.token" and "expired" in err.value.reason


@pytest.mark.parametrize("digest", ["", "abc", "g" * 64, H("c") + "0"])
def test_commit_needs_the_client_seed_hash(digest):
    with pytest.raises(InvalidInputError) as err:
        DiceKey.random().commit(digest)
    assert err.value.field == "client_seed_sha256"


def test_a_short_key_is_refused_at_start():
    with pytest.raises(ValueError, match="at least 32"):
        DiceKey.from_env({dice_commit.KEY_ENV: "short"})


def test_client_seed_is_required_and_bounded():
    key = DiceKey.random()
    for bad in ("", "x" * 257):
        token = key.commit(H(bad)).token
        with pytest.raises(InvalidInputError) as err:
            key.stream(token, bad)
        assert err.value.field == "seed.client_seed"


def test_verify_accepts_the_roll_and_rejects_any_change():
    key = DiceKey.random()
    commitment = key.commit(H("alice+bob"))
    stream, proof = key.stream(commitment.token, "alice+bob")
    roll = dice.roll(stream)
    assert proof.commitment == commitment.commitment
    assert verify(proof, roll)
    assert not verify(proof, (roll[0] % 6 + 1, roll[1]))
    assert not verify(DiceProof(proof.scheme, "00" * 32, proof.server_seed, proof.client_seed), roll)
    assert not verify(DiceProof(proof.scheme, proof.commitment, proof.server_seed, "mallory"), roll) or \
        dice.roll(dice.seeded_dice(bytes.fromhex(proof.server_seed), "mallory")) == roll
    assert not verify(DiceProof("other", proof.commitment, proof.server_seed, proof.client_seed), roll)
    assert not verify(DiceProof(proof.scheme, proof.commitment, "zz", proof.client_seed), roll)


# --- over gRPC --------------------------------------------------------------------------------


def _recipe():
    """The verification recipe of docs/dice.md, executed as written."""
    text = (ROOT / "docs" / "dice.md").read_text(encoding="utf-8")
    code = re.search(r"### Verification recipe.*?```python\n(.*?)```", text, re.DOTALL).group(1)
    namespace: dict = {}
    exec(compile(code, "docs/dice.md", "exec"), namespace)  # noqa: S102 - our own documentation
    return namespace["verify_roll"]


def _proof_dict(proof) -> dict:
    return {"scheme": proof.scheme, "commitment": proof.commitment, "server_seed": proof.server_seed,
            "client_seed": proof.client_seed}


def test_roll_dice_rpc_secure(engine):
    for _ in range(20):
        response = engine.RollDice(api.RollDiceRequest(), timeout=TIMEOUT)
        assert len(response.dice) == 2 and all(1 <= d <= 6 for d in response.dice)
        assert response.name.turkish and not response.HasField("proof")


def test_roll_dice_rpc_verifiable_with_the_documented_recipe(engine):
    verify_roll = _recipe()
    commit = engine.CommitDice(api.CommitDiceRequest(client_seed_sha256=H("alice:7f3a bob:c001")),
                               timeout=TIMEOUT)
    assert commit.scheme == "tavla-dice-v1" and len(commit.commitment) == 64
    assert commit.expire_time.seconds - time.time() == pytest.approx(dice_commit.TOKEN_SECONDS, abs=30)
    seed = dice_pb2.DiceSeed(token=commit.token, client_seed="alice:7f3a bob:c001")
    response = engine.RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT)
    assert response.proof.commitment == commit.commitment
    assert list(response.dice) == sorted(response.dice, reverse=True)  # every roll: larger first
    assert verify_roll(_proof_dict(response.proof), [], list(response.dice))
    assert not verify_roll(_proof_dict(response.proof), [], [response.dice[0] % 6 + 1, response.dice[1]])
    again = engine.RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT)
    assert list(again.dice) == list(response.dice)  # the same token and client seed: the same dice


def test_start_game_verifiable_with_the_documented_recipe(engine):
    verify_roll = _recipe()
    for preset in ("international", "turkish"):
        commit = engine.CommitDice(api.CommitDiceRequest(client_seed_sha256=H("s")), timeout=TIMEOUT)
        request = api.StartGameRequest(ruleset=pb.Ruleset(preset=preset), match=match_pb2.MatchState(length=5),
                                       seed=dice_pb2.DiceSeed(token=commit.token, client_seed="s"))
        response = engine.StartGame(request, timeout=TIMEOUT)
        drawn = [d for t in response.roll_off for d in (t.white_die, t.black_die)]
        first = list(response.dice) if preset == "turkish" else []
        assert verify_roll(_proof_dict(response.proof), drawn, first)


def test_roll_dice_gele(engine):
    pos = position(mover={13: 5, 8: 3, 6: 5, 11: 1}, other={6: 2, 5: 2, 4: 2, 3: 2, 1: 2, 13: 5},
                   mover_bar=1)
    msg = pb.Position(position_id=position_id.encode(pos), on_roll=pb.SIDE_WHITE)
    geles = [engine.RollDice(api.RollDiceRequest(position=msg), timeout=TIMEOUT) for _ in range(60)]
    for r in geles:
        assert r.gele == (2 not in r.dice)  # only a 2 enters, on our 23
    assert any(r.gele for r in geles) and not all(r.gele for r in geles)


def test_a_token_from_another_replica_with_the_same_key_rolls(engine):
    # two servers, as two replicas of one deployment, share TAVLA_DICE_KEY: no server memory
    servers = [start_in_process(by_service=for_engine(Engine(dice_key=DiceKey.from_env({dice_commit.KEY_ENV: SHARED}))))
               for _ in range(2)]
    try:
        stubs = [api.AnyStub(grpc.insecure_channel(f"127.0.0.1:{port}"))
                 for _, port in servers]
        commit = stubs[0].CommitDice(api.CommitDiceRequest(client_seed_sha256=H("c")), timeout=TIMEOUT)
        seed = dice_pb2.DiceSeed(token=commit.token, client_seed="c")
        a = stubs[0].RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT)
        b = stubs[1].RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT)
        assert list(a.dice) == list(b.dice) and a.proof == b.proof
        with pytest.raises(grpc.RpcError) as info:  # the session server has its own random key
            engine.RollDice(api.RollDiceRequest(seed=seed), timeout=TIMEOUT)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "dice key" in info.value.details()
    finally:
        for server, _ in servers:
            server.stop(None)


def test_commit_dice_rpc_without_the_client_seed_hash_is_invalid(engine):
    with pytest.raises(grpc.RpcError) as info:
        engine.CommitDice(api.CommitDiceRequest(), timeout=TIMEOUT)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "client_seed_sha256" in info.value.details()


def test_roll_dice_gele_reads_the_position_as_the_rulesets_variant(engine):
    """RollDice's gele analyses the turn under the request's ruleset (R8), as ListLegalSteps
    does: a plakoto position (Family ID, no bar: never gele) is read as plakoto, and a board
    is checked against the variant's checker count."""
    from tavla.core import Position, Side, find_variant
    from tavla.core.ids import family_id

    start = Position.initial(Side.WHITE, find_variant("plakoto"))
    msg = pb.Position(family_id=family_id.encode(start), on_roll=pb.SIDE_WHITE)
    answers = [engine.RollDice(api.RollDiceRequest(position=msg, ruleset=pb.Ruleset(preset="plakoto")),
                               timeout=TIMEOUT) for _ in range(10)]
    assert all(len(r.dice) == 2 and not r.gele for r in answers)
    # backgammon's start (15 checkers a side) is not a hypergammon position (3 a side)
    board = pb.Position(position_id=position_id.encode(position(mover={24: 2, 13: 5, 8: 3, 6: 5},
                                                                 other={24: 2, 13: 5, 8: 3, 6: 5})),
                        on_roll=pb.SIDE_WHITE)
    with pytest.raises(grpc.RpcError) as err:
        engine.RollDice(api.RollDiceRequest(position=board, ruleset=pb.Ruleset(preset="hypergammon")),
                        timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "position" in err.value.details()
    with pytest.raises(grpc.RpcError) as err:
        engine.RollDice(api.RollDiceRequest(position=board, ruleset=pb.Ruleset(variant="no-such")),
                        timeout=TIMEOUT)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "ruleset.variant" in err.value.details()
