"""State signing (docs/security.md): key lists, rotation, the three modes, and the serve
settings `--state-mode` / `--state-keys-file` / `TAVLA_STATE_KEYS`."""

from __future__ import annotations

import base64

import pytest

from tavla import cli
from tavla.server.process import config
from tavla.server.process.config import ConfigError
from tavla.referee.keys import (
    KeyError_,
    Signed,
    StateError,
    StateMode,
    StateReason,
    StateSigner,
    parse_keys,
)

K1, K2 = b"\x01" * 32, b"\x02" * 32
TEXT = f"k2:{base64.b64encode(K2).decode()}, k1:{base64.b64encode(K1).decode()}"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    import os

    for name in list(os.environ):
        if name.startswith("TAVLA_"):
            monkeypatch.delenv(name)


def test_keys_parse_in_order_and_the_first_signs():
    assert parse_keys(TEXT) == (("k2", K2), ("k1", K1))
    signer = StateSigner(StateMode.REQUIRE, parse_keys(TEXT), shared=True)
    sealed = signer.seal(b"state")
    assert sealed.key_id == "k2" and len(sealed.signature) == 32
    assert signer.open(sealed) == b"state"
    old = StateSigner(StateMode.REQUIRE, (("k1", K1),), shared=True).seal(b"state")
    assert signer.open(old) == b"state"  # an old key still verifies after rotation


@pytest.mark.parametrize("text", ["", "k1", "k1:not base64!", "k1:" + base64.b64encode(b"short").decode(),
                                  f"bad id!:{base64.b64encode(K1).decode()}", f"{TEXT},k1:{base64.b64encode(K1).decode()}"])
def test_bad_key_lists_are_refused_without_echoing_a_key(text):
    with pytest.raises(KeyError_) as err:
        parse_keys(text)
    assert base64.b64encode(K1).decode() not in str(err.value)


@pytest.mark.parametrize("mode, signed, reason", [
    (StateMode.REQUIRE, Signed(b"s"), StateReason.STATE_UNSIGNED),
    (StateMode.SIGN, Signed(b"s", "k9", b"x" * 32), StateReason.STATE_KEY_UNKNOWN),
    (StateMode.SIGN, Signed(b"s", "k2", b"x" * 32), StateReason.STATE_SIGNATURE_INVALID),
])
def test_refusals(mode, signed, reason):
    with pytest.raises(StateError) as err:
        StateSigner(mode, parse_keys(TEXT), shared=True).open(signed)
    assert err.value.reason is reason


def test_modes():
    off = StateSigner(StateMode.OFF, parse_keys(TEXT), shared=True)
    assert off.seal(b"s") == Signed(b"s") and off.open(Signed(b"s", "k9", b"bad")) == b"s"
    sign = StateSigner(StateMode.SIGN, parse_keys(TEXT), shared=True)
    assert sign.open(Signed(b"unsigned")) == b"unsigned"  # a migration step
    # test inputs (dice, time) only on a test server in mode off: asked for in mode sign, refused
    from tavla.core import preset
    from tavla.core.match.dice_commit import DiceKey
    from tavla.core.game import Action, ActionKind
    from tavla.referee import Referee

    key = DiceKey(b"d" * 32, shared=True)
    for signer, test_inputs in ((sign, True), (off, False)):
        referee = Referee(signer, key, test_inputs=test_inputs)
        first = referee.new_match(preset("international"), "international", 7).signed
        for dice, time, reason in (([6, 1], None, StateReason.CLIENT_DICE_REFUSED),
                                   (None, 5, StateReason.CLIENT_TIME_REFUSED)):
            with pytest.raises(StateError) as err:
                referee.act(referee.open(first), Action(ActionKind.START_GAME), dice=dice, now_ms=time)
            assert err.value.reason is reason
    tester = Referee(off, key, test_inputs=True)
    begun = tester.act(tester.open(tester.new_match(preset("international"), "international", 7).signed),
                       Action(ActionKind.START_GAME), dice=[6, 1], now_ms=5)
    assert list(begun.view.dice) == [6, 1] and begun.events.records[0].roll_tag == "given"


def load(argv):
    return config.from_namespace(cli.build_parser().parse_args(argv))


def test_serve_settings(monkeypatch, tmp_path):
    assert load(["serve"]).state_mode == "off"
    with pytest.raises(ConfigError, match="TAVLA_STATE_KEYS"):
        load(["serve", "--state-mode", "require", "--workers", "1"])
    monkeypatch.setenv("TAVLA_STATE_KEYS", TEXT)
    with pytest.raises(ConfigError, match="TAVLA_DICE_KEY"):
        load(["serve", "--state-mode", "require"])
    monkeypatch.setenv("TAVLA_DICE_KEY", "d" * 32)
    settings = load(["serve", "--state-mode", "require"])
    assert settings.state_signer().key_ids == ("k2", "k1")
    monkeypatch.delenv("TAVLA_STATE_KEYS")
    keys = tmp_path / "keys"
    keys.write_text(TEXT.replace(", ", "\n"))
    monkeypatch.setenv("TAVLA_STATE_MODE", "sign")
    monkeypatch.setenv("TAVLA_STATE_KEYS_FILE", str(keys))
    settings = load(["serve"])
    assert (settings.state_mode, settings.state_signer().key_ids) == ("sign", ("k2", "k1"))
    with pytest.raises(ConfigError, match="cannot read"):
        load(["serve", "--state-keys-file", str(tmp_path / "none")])
    monkeypatch.delenv("TAVLA_STATE_KEYS_FILE")
    with pytest.raises(ConfigError, match="several workers"):  # random per-process keys cannot be shared
        load(["serve", "--workers", "2"])
    assert load(["serve", "--workers", "1"]).state_signer().shared is False
    with pytest.raises(SystemExit):
        load(["serve", "--state-mode", "loose"])
