"""What a run builds the first time it needs it, built once in the fork server instead of
in every run forked from it (graph/forked.py). The server can only be given modules to
import, so importing this module does the building; nothing else imports it, and a command
run on its own (`labscribe status`, a `labscribe run`) still pays only for what it uses.

- the model client: openai and langchain-openai (about 1.4 s of CPU a run);
- the unit library: pint's registry, parsed from its definition files (0.35 s a run);
- the data figures' matplotlib: the figure and its Agg canvas (0.2 s a run).
"""

from __future__ import annotations

import contextlib

import matplotlib.backends.backend_agg
import matplotlib.figure  # noqa: F401

import labscribe.nodes.runtime.openai_client  # noqa: F401
from labscribe.tools.columns.unit_library import unit_registry

# A head start only, and the server must start whatever happens: a run that needs the
# registry builds it itself (unit_registry caches no failure) and reports what went wrong.
with contextlib.suppress(Exception):
    unit_registry()
