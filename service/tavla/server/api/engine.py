"""The engine every transport calls: built once at start-up with its keys, its referee, its move
generator and its analysis processes, and handed to the servicers (:mod:`tavla.server.api.rules`),
which only convert. No gRPC and no HTTP here: in-process users (benchmarks, tests) build one and
call its parts without serializing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from tavla.analysis.isolation import EnginePool
from tavla.core.match.dice_commit import DiceKey
from tavla.referee import Referee
from tavla.referee.keys import MODE_ENV, StateSigner, parse_mode
from tavla.server.api.generator import MoveGenerator
from tavla.server.api.observer import UNOBSERVED, EngineObserver


class Engine:
    """The engine's parts, made once.

    :param dice_key: seals dice commitments and fixes the referee's dice (default:
        ``TAVLA_DICE_KEY``, a random per-process key when unset).
    :param signer: signs and checks game states (default: mode ``TAVLA_STATE_MODE``, off unless
        set, with keys from ``TAVLA_STATE_KEYS``).
    :param test_inputs: a test server: the referee honours the test metadata (dice, time) in
        state mode off (``--test-inputs``, docs/game-state.md).
    :param analysis_processes: child processes that run the analysis (``--analysis-processes``;
        0: in this process, without isolation); started on first use.
    :param generator: the move generator (default: the one ``TAVLA_ACCEL`` chooses), installed
        under the core's ``movegen.generate`` here, so the engine built last decides.
    :param observer: receives the move-generation figures (default: nobody; the server passes
        its metrics).
    :param environ: where the defaults are read (default: ``os.environ``).
    :raises ValueError: ``TAVLA_DICE_KEY`` too short.
    :raises KeyError_: bad state mode or keys (:mod:`tavla.referee.keys`).
    """

    def __init__(self, *, dice_key: DiceKey | None = None, signer: StateSigner | None = None,
                 test_inputs: bool = False, analysis_processes: int = 1, generator: MoveGenerator | None = None,
                 observer: EngineObserver = UNOBSERVED, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.dice_key = dice_key if dice_key is not None else DiceKey.from_env(env)
        self.signer = signer if signer is not None else StateSigner.from_settings(
            parse_mode(env.get(MODE_ENV, "")), env)
        self.test_inputs = test_inputs
        self.referee = Referee(self.signer, self.dice_key, test_inputs=test_inputs)
        self.generator = generator if generator is not None else MoveGenerator.from_env(env)
        self.generator.install()
        self.observer = observer
        self.analysis = EnginePool(analysis_processes)


class EngineServicer:
    """The base of the servicers (one per tavla.v1 service, :mod:`tavla.server.api.servicers`):
    the engine they call.

    :param engine: the engine (default: one built from the environment).
    """

    def __init__(self, engine: Engine | None = None) -> None:
        super().__init__()
        self.engine = engine if engine is not None else Engine()
