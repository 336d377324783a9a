"""Commands forked from the fork server (graph/forked.py) start with what a run would
otherwise build on its first use, once per run (graph/first_use.py)."""

from __future__ import annotations

import sys
from multiprocessing.connection import Connection

from labscribe.graph.forked import FORKS


def _what_was_built(answer: Connection) -> None:
    from labscribe.tools.columns.unit_library import unit_registry

    modules = ("openai", "langchain_openai", "matplotlib.figure", "matplotlib.backends.backend_agg")
    answer.send({"registry": unit_registry.cache_info().currsize,
                 "modules": [m for m in modules if m in sys.modules]})  # fmt: skip


def test_a_forked_process_starts_with_the_unit_registry_and_the_first_use_modules() -> None:
    ours, theirs = FORKS.Pipe()
    child = FORKS.Process(target=_what_was_built, args=(theirs,))
    child.start()
    built = ours.recv()
    child.join(60)
    assert child.exitcode == 0
    assert built == {"registry": 1, "modules": ["openai", "langchain_openai", "matplotlib.figure",
                                                "matplotlib.backends.backend_agg"]}  # fmt: skip
