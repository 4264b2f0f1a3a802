"""The committed Python stubs in clients/python/src/tavla/v1 (their one copy, shipped by the client
distribution and imported by the server) are what proto/ generates (`make regen`)."""

from __future__ import annotations

import filecmp
import glob
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[2]


def test_stubs_are_fresh(tmp_path):
    protos = sorted(glob.glob(str(ROOT / "proto" / "tavla" / "v1" / "*.proto")))
    well_known = Path(protoc.__file__).parent / "_proto"  # google/protobuf/*.proto, as the CLI adds
    args = ["protoc", f"-I{ROOT / 'proto'}", f"-I{well_known}", f"--python_out={tmp_path}", f"--pyi_out={tmp_path}",
            f"--grpc_python_out={tmp_path}", *protos]
    assert protoc.main(args) == 0
    fresh = sorted(p.name for p in (tmp_path / "tavla" / "v1").iterdir())
    committed = ROOT / "clients" / "python" / "src" / "tavla" / "v1"
    assert fresh, "protoc generated nothing"
    for name in fresh:
        assert filecmp.cmp(tmp_path / "tavla" / "v1" / name, committed / name, shallow=False), (
            f"clients/python/src/tavla/v1/{name} is stale: run `make regen`"
        )
