"""The analysis package is core-side: like tavla.core it imports no gRPC or protobuf (only its
CLI's --target and the servicer do), and the engine loads only on first use."""

from __future__ import annotations

import subprocess
import sys


def test_analysis_imports_no_grpc_or_protobuf_and_loads_the_engine_lazily(subprocess_env):
    code = (
        "import sys\n"
        "import tavla.analysis.player, tavla.analysis.review, tavla.analysis.search, tavla.analysis.cli\n"
        "print(sorted(m for m in sys.modules if m.startswith(('grpc', 'google', 'bgsage', 'bgbot'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=subprocess_env, capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert out.strip() == "[]"
