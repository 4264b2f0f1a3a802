"""GNU Backgammon (PyPI ``gnubg``) in a child process of its own, as a test oracle.

gnubg keeps one native match and evaluator state per process, and several test modules drive it
(``import mat``, ``set variation``, ``new session``). A module whose oracle calls run in a fresh
child sees none of that state, and a crash in gnubg's native code fails the one call that caused
it, naming its arguments, instead of taking a whole pytest worker down.

``GnubgChild().cube_info(...)`` calls ``gnubg.cube_info(...)`` in the child and returns its value;
an exception gnubg raises there is raised here with the same type and message.
"""

from __future__ import annotations

import pickle
import struct
import subprocess
import sys
from typing import Any

# The child: read (name, args) frames, answer ("ok", value) or ("error", exception).
_CHILD = r"""
import os, pickle, struct, sys
dst = os.fdopen(os.dup(1), "wb")
os.dup2(2, 1)  # gnubg prints to the standard output: keep it off the answer's pipe
import gnubg
src = sys.stdin.buffer
while True:
    head = src.read(4)
    if len(head) < 4:
        break
    name, args = pickle.loads(src.read(struct.unpack(">I", head)[0]))
    try:
        reply = ("ok", getattr(gnubg, name)(*args))
    except Exception as exc:  # handed back to the caller as raised
        reply = ("error", exc)
    body = pickle.dumps(reply)
    dst.write(struct.pack(">I", len(body)) + body)
    dst.flush()
"""


class GnubgCrashed(AssertionError):
    """gnubg's native code ended the child during a call (its arguments are in the message)."""


class GnubgChild:
    """A proxy for the ``gnubg`` module whose calls run in a child process; see the module doc."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE)
        return self._proc

    def call(self, name: str, *args: Any) -> Any:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        body = pickle.dumps((name, args))
        try:
            proc.stdin.write(struct.pack(">I", len(body)) + body)
            proc.stdin.flush()
            head = proc.stdout.read(4)
            reply = pickle.loads(proc.stdout.read(struct.unpack(">I", head)[0])) if len(head) == 4 else None
        except BrokenPipeError:
            reply = None
        if reply is None:
            code = proc.wait()
            self._proc = None  # the next call starts a fresh child
            raise GnubgCrashed(f"gnubg.{name}{args!r} ended its process (exit {code})")
        kind, value = reply
        if kind == "error":
            raise value
        return value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)

    def close(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            self._proc.wait()
        self._proc = None
