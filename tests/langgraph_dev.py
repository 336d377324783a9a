"""A real `langgraph dev` serving the repository's langgraph.json, offline, for the server
tests and bench/bench_batch.py. It keeps its state (`.langgraph_api/`) in its own folder,
so a restart in the same folder finds its threads again."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LANGGRAPH = Path(sys.executable).parent / "langgraph"
LISTENING = re.compile(r"API: \S*http://127\.0\.0\.1:(\d+)")
OFFLINE = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
    "NO_COLOR": "1",
}


class LanggraphDev:
    def __init__(self, where: Path, *, jobs: int = 10, env: dict[str, str] | None = None) -> None:
        self.where, self.jobs = where, jobs
        self.env = os.environ | OFFLINE | (env or {})
        self.server: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.port = _free_port()
        self.starts = 0

    def start(self, timeout: float = 90) -> str:
        """Start (or start again) and wait until it answers; its URL. It moves to another
        port when the one asked for is busy, so the port is read from what it prints."""
        self.starts += 1
        log = self.where / f"server-{self.starts}.log"
        command = [
            str(LANGGRAPH), "dev", "--config", str(self._config()), "--no-browser",
            "--no-reload", "--host", "127.0.0.1", "--port", str(self.port),
            "--n-jobs-per-worker", str(self.jobs),
        ]  # fmt: skip
        with log.open("w") as sink:
            self.server = subprocess.Popen(
                command, cwd=self.where, env=self.env, stdout=sink, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while not (found := LISTENING.search(log.read_text())):
            self._alive(log, deadline, "start")
        self.url = f"http://127.0.0.1:{found.group(1)}"
        self.port = int(found.group(1))
        while not _answers(self.url):  # it prints the address before it listens
            self._alive(log, deadline, "answer")
        return self.url

    def stop(self) -> None:
        if self.server is None:
            return
        self.server.terminate()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        self.server = None

    def log(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.where.glob("server-*.log")))

    def _alive(self, log: Path, deadline: float, what: str) -> None:
        assert self.server is not None and self.server.poll() is None, (
            f"langgraph dev exited:\n{log.read_text()}"
        )
        assert time.monotonic() < deadline, f"langgraph dev did not {what}:\n{log.read_text()}"
        time.sleep(0.2)

    def _config(self) -> Path:
        """The repository's langgraph.json, with its paths made absolute: `langgraph dev`
        reads them relative to where it runs, and it runs in `where`."""
        config = json.loads((REPO / "langgraph.json").read_text())
        config["dependencies"] = [str(REPO / path) for path in config["dependencies"]]
        config["graphs"] = {name: str(REPO / spec) for name, spec in config["graphs"].items()}
        target = self.where / "langgraph.json"
        target.write_text(json.dumps(config))
        return target


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/ok", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False
