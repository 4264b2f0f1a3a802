"""TAVLA_STATE_MODE has one parser (state_keys.parse_mode): the configuration (flag and variable)
and an engine made without a signer read the same text the same way, and refuse the same text
with the same message."""

from __future__ import annotations

import pytest

from tavla import cli
from tavla.server.process import config
from tavla.server.api.engine import Engine
from tavla.referee.keys import MODE_ENV, StateMode, parse_mode


@pytest.mark.parametrize(("text", "mode"), [("off", StateMode.OFF), (" Sign ", StateMode.SIGN),
                                            ("SIGN", StateMode.SIGN), ("", StateMode.OFF)])
def test_config_and_servicer_read_the_mode_alike(monkeypatch, text, mode):
    monkeypatch.delenv("TAVLA_STATE_KEYS", raising=False)
    monkeypatch.setenv("TAVLA_WORKERS", "1")  # sign with several workers needs shared keys
    monkeypatch.setenv(MODE_ENV, text)
    assert parse_mode(text) is mode
    loaded = config.from_namespace(cli.build_parser().parse_args(["serve"]))
    assert loaded.state_mode == mode.value
    assert Engine().referee.signer.mode is mode


def test_a_bad_mode_is_refused_alike(monkeypatch, capsys):
    monkeypatch.setenv(MODE_ENV, "strict")
    with pytest.raises(ValueError, match="'strict' is not one of off, sign, require"):
        parse_mode("strict")
    with pytest.raises(ValueError, match="'strict' is not one of off, sign, require"):
        Engine()
    with pytest.raises(SystemExit):
        cli.main(["serve"])
    assert "'strict' is not one of off, sign, require" in capsys.readouterr().err


def test_test_inputs_are_for_mode_off_only(monkeypatch):
    """--test-inputs (dice and times from the request metadata) starts only in state mode off."""
    monkeypatch.setenv("TAVLA_WORKERS", "1")
    monkeypatch.delenv(MODE_ENV, raising=False)
    loaded = config.from_namespace(cli.build_parser().parse_args(["serve", "--test-inputs"]))
    assert loaded.test_inputs and loaded.check() is loaded
    monkeypatch.setenv("TAVLA_STATE_KEYS", "k:" + "A" * 44)
    with pytest.raises(config.ConfigError, match="test-inputs"):
        config.from_namespace(cli.build_parser().parse_args(["serve", "--test-inputs", "--state-mode", "sign"])).check()
