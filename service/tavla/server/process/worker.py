"""A worker process's entry point (``python -m tavla.server.process.worker``, started by
:mod:`~tavla.server.process.workers`): it beats "starting" (:mod:`~tavla.server.process.heartbeat`)
before importing the server, whose imports alone took over 40 s on 2 cores at a load of 57, so
the supervisor hears from it within a few milliseconds of CPU."""

from __future__ import annotations

import sys

from tavla.server.process import heartbeat


def main() -> int:
    heart = heartbeat.Heart.from_env()
    if heart is not None:
        heart.start()
    from tavla.server.process import workers

    return workers.main(heart)


if __name__ == "__main__":
    sys.exit(main())
