"""The five servicers a test serves: one per tavla.v1 service over one engine, some replaced by
a test's subclass (one that fails, holds or records)."""

from __future__ import annotations

from tavla.server.api import servicers
from tavla.server.api.engine import Engine, EngineServicer


def by_service(*replacing: EngineServicer, engine: Engine | None = None) -> dict[str, EngineServicer]:
    """One servicer per service, by the service's full name, over ``engine`` (default: the
    engine of ``replacing``, else a new one from the environment); each of ``replacing`` (an
    instance of a subclass of one service's servicer, over that engine) serves its service.

    :raises ValueError: one of ``replacing`` is no service's servicer, or two serve one service.
    """
    if engine is None:
        engine = replacing[0].engine if replacing else Engine()
    chosen = servicers.for_engine(engine)
    replaced: set[str] = set()
    for servicer in replacing:
        names = [name for name, cls in servicers.CLASSES.items() if isinstance(servicer, cls)]
        if len(names) != 1:
            raise ValueError(f"{type(servicer).__name__} is not the servicer of one service")
        if names[0] in replaced:
            raise ValueError(f"two servicers for {names[0]}")
        replaced.add(names[0])
        chosen[names[0]] = servicer
    return chosen
