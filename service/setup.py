"""The one build step pyproject.toml cannot declare: the optional compiled accelerator of the rules
distribution, tavla-rules (this folder's pyproject.toml).

`pip install ./service` builds ``tavla_accel`` (accel/: Rust, PyO3, abi3 for CPython >= 3.10) with
setuptools-rust when cargo is found (on PATH or in rustup's ~/.cargo/bin), and installs the
pure-Python rules without it otherwise, with one warning saying so. The extension is optional:
a failed build (Rust older than 1.85, crates.io unreachable) is reported by setuptools-rust and the
install goes on without it. TAVLA_ACCEL_BUILD=0 skips it; TAVLA_ACCEL_BUILD=1 makes it required
(the image, `make dist`: a wheel without the accelerator is an error there). The server's startup
log says which path it runs ("accelerator": "rust" or "python (...)"). Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import os
import shutil
import sys

from setuptools import setup
from setuptools_rust import Binding, RustExtension

MODE = os.environ.get("TAVLA_ACCEL_BUILD", "auto")
if MODE not in ("0", "1", "auto"):
    sys.exit(f"TAVLA_ACCEL_BUILD must be 0, 1 or auto, not {MODE!r}")
rustup_bin = os.path.join(os.path.expanduser("~"), ".cargo", "bin")
if os.path.isdir(rustup_bin) and rustup_bin not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = os.pathsep.join([os.environ.get("PATH", ""), rustup_bin])

# setup.py runs once for the metadata and once for the build: say it once, at the build
BUILDING = any(command in sys.argv for command in ("bdist_wheel", "build_ext", "editable_wheel", "develop", "build"))
rust_extensions = []
if MODE == "0":
    print("tavla-rules: TAVLA_ACCEL_BUILD=0: building without the compiled accelerator", file=sys.stderr)
elif shutil.which("cargo") is None:
    if MODE == "1":
        sys.exit("tavla-rules: TAVLA_ACCEL_BUILD=1 but no Rust toolchain (cargo) was found")
    if BUILDING:
        print("WARNING: tavla-rules: no Rust toolchain (cargo) found: installing WITHOUT the compiled "
              "accelerator; the move generator is the pure-Python one (same answers, ListLegalMoves "
              "about 3x slower). Install Rust >= 1.85 (rustup, or apt-get install cargo) and reinstall.",
              file=sys.stderr)
else:
    rust_extensions.append(RustExtension(
        "tavla_accel", "accel/Cargo.toml", binding=Binding.PyO3,
        optional=MODE != "1", py_limited_api="auto", args=["--locked"],
        debug=False))  # release (Cargo.toml: LTO) also for the editable install of make test

setup(
    rust_extensions=rust_extensions,
    # one wheel for every CPython >= 3.10 (the crate's pyo3 feature abi3-py310)
    options={"bdist_wheel": {"py_limited_api": "cp310"}} if rust_extensions else {},
    zip_safe=False,
)
