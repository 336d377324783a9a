"""Commands forked from the fork server (graph/forked.py) start with what a run would
otherwise build on its first use, once per run (graph/first_use.py)."""

from __future__ import annotations

import gc
import sys
from multiprocessing.connection import Connection

from labscribe.graph.forked import FORKS


def _what_was_built(answer: Connection) -> None:
    from labscribe.nodes.runtime.openai_client import tls_context
    from labscribe.tools.columns.unit_library import unit_registry

    modules = ("openai", "langchain_openai", "matplotlib.figure", "matplotlib.backends.backend_agg")
    answer.send({"registry": unit_registry.cache_info().currsize,
                 "tls": tls_context.cache_info().currsize,
                 "modules": [m for m in modules if m in sys.modules],
                 "codecs": "encodings.cp1252" in sys.modules and "encodings.gb18030" in sys.modules,
                 "frozen": gc.get_freeze_count() > 1000})  # fmt: skip


def test_a_forked_process_starts_with_what_runs_build_on_first_use_and_a_frozen_heap() -> None:
    ours, theirs = FORKS.Pipe()
    child = FORKS.Process(target=_what_was_built, args=(theirs,))
    child.start()
    built = ours.recv()
    child.join(60)
    assert child.exitcode == 0
    assert built == {"registry": 1, "tls": 1,
                     "modules": ["openai", "langchain_openai", "matplotlib.figure",
                                 "matplotlib.backends.backend_agg"],
                     "codecs": True, "frozen": True}  # fmt: skip
