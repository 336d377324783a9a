"""What a run builds the first time it needs it, built once in the fork server instead of
in every run forked from it (graph/forked.py). The server can only be given modules to
import, so importing this module does the building; nothing else imports it, and a command
run on its own (`labscribe status`, a `labscribe run`) still pays only for what it uses.

- the model client: openai and langchain-openai (about 1.4 s of CPU a run), and the TLS
  context its clients share (its CA bundle loaded, about 25 ms a client);
- the unit library: pint's registry, parsed from its definition files (0.35 s a run);
- the data figures' matplotlib: the figure and its Agg canvas (0.2 s a run);
- the standard library's codecs, which charset_normalizer imports one by one as it tries
  them on a file that is not UTF-8.

Last, the server's heap is collected and frozen (gc.freeze, as Python's documentation
advises before forking): a run's collections then never walk the objects it inherited, and
never write to their pages.
"""

from __future__ import annotations

import codecs
import contextlib
import encodings.aliases
import gc

import matplotlib.backends.backend_agg
import matplotlib.figure  # noqa: F401

from labscribe.nodes.runtime.openai_client import tls_context
from labscribe.tools.columns.unit_library import unit_registry

for codec in set(encodings.aliases.aliases.values()):
    with contextlib.suppress(LookupError):  # a platform's own (mbcs on Windows)
        codecs.lookup(codec)
# A head start only, and the server must start whatever happens: a run that needs one of
# them builds it itself (neither cache keeps a failure) and reports what went wrong.
for build in (unit_registry, tls_context):
    with contextlib.suppress(Exception):
        build()
gc.collect()
gc.freeze()
