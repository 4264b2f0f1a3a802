"""Makes bgsage unimportable in every Python process started with this folder on ``PYTHONPATH``
(site imports ``sitecustomize`` at start-up): ``live_server.py`` puts it there for the server and
its worker processes when ``TAVLA_TEST_WITHOUT_BGSAGE=1``, so the client tests meet the server of a
machine without bgsage (no Linux aarch64 wheel, docs/analysis.md), whose analysis is the search
player's (``EVALUATOR_SEARCH``).

None in ``sys.modules`` makes ``importlib.util.find_spec`` answer None (what
``tavla.analysis.engine.available`` asks) and ``import`` raise ImportError, as for a module that is
not installed.
"""

import sys

sys.modules["bgsage"] = None  # type: ignore[assignment]
sys.modules["bgbot_cpp"] = None  # type: ignore[assignment]
