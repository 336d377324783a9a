"""The three traces of docs/architecture.md, measured by execution: every labscribe source
file in which a function is entered (sys.setprofile, in every thread), against a scripted
OpenAI-compatible endpoint over real HTTP. A file entered that the doc does not list fails
the test, so the doc cannot drift from the code."""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

import labscribe.graph
from labscribe.graph import Context, resume_thread, run_folder

ROOT = Path(labscribe.graph.__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
READ = tool_reply(("read_file", {"path": "notes.md"}))
FINISH = tool_reply(
    ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
)


class Window:
    """Records the files entered from the `start`-th call of a function (`module.name`) to
    the `stop`-th call or return of another, counted from the start of the action."""

    def __init__(self, start: tuple[str, int], stop: tuple[str, int, str]) -> None:
        self.start, self.stop = start, stop
        self.counts: dict[str, int] = {}
        self.open = self.closed = False
        self.files: dict[str, None] = {}
        self.lock = threading.Lock()
        self.codes: dict[Any, tuple[str, str | None]] = {}
        """Each function's `module.name` and source file, worked out on its first call: the
        profiler is called on every call and return of the whole run."""

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if self.closed or event not in ("call", "return"):
            return
        code = frame.f_code
        known = self.codes.get(code)
        if known is None:
            stem = Path(code.co_filename).stem
            known = self.codes[code] = (f"{stem}.{code.co_name}", _source(code.co_filename))
        name, source = known
        with self.lock:
            if event == "call":
                self.counts[name] = self.counts.get(name, 0) + 1
                self.open = self.open or (name, self.counts[name]) == self.start
            if not self.open:
                return
            if event == "call" and source:
                self.files.setdefault(source)
            if (name, self.counts.get(name, 0), event) == self.stop:
                self.closed = True


def _source(filename: str) -> str | None:
    """A labscribe source file, relative to the repository, else None."""
    path = Path(filename).resolve()
    if not path.is_relative_to(ROOT):
        return None
    relative = path.relative_to(ROOT)
    return str(relative) if relative.parts[0] in ("graph", "nodes", "tools", "guards") else None


def entered(window: Window, action: Callable[[], Any]) -> list[str]:
    sys.setprofile(window)
    threading.setprofile(window)
    try:
        action()
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    assert window.closed, f"the trace never reached {window.stop}"
    return list(window.files)


def documented(title: str) -> tuple[int, list[str]]:
    """The count docs/architecture.md states for the trace whose question is `title`, and
    the files it lists under it."""
    section = DOC.read_text().split(f"**{title}**", 1)[1].split("\n**", 1)[0]
    stated = re.match(r"\s*(\d+) files", section)
    assert stated, f"docs/architecture.md states no count of files under {title!r}"
    return int(stated[1]), re.findall(r"^\d+\. `([\w/]+\.py)`", section, re.M)


@pytest.fixture
def endpoint() -> Iterator[ScriptedEndpoint]:
    writer = [text_reply("\\section{Results}\nDrafted.")] * 3
    with ScriptedEndpoint({"explorer": [READ] * 5 + [FINISH], "writer": writer}) as server:
        yield server


def _context(server: ScriptedEndpoint, **settings: Any) -> Context:
    return Context(base_url=server.url, api_key="k", explore_model="explorer",
                   write_model="writer", reflect=0, compile=False, figures=False,
                   **settings)  # fmt: skip


def _run(data: Path, tmp_path: Path, context: Context) -> Callable[[], Any]:
    return lambda: run_folder(data, out=tmp_path / "out", thread_id="t", db=tmp_path / "c.db",
                              context=context)  # fmt: skip


def _check(files: list[str], title: str, *, unentered: frozenset[str] = frozenset()) -> None:
    """The files entered are the files the doc lists, but for `unentered`, which the doc
    may list and the trace need not enter."""
    count, listed = documented(title)
    assert count == len(listed), f"{title!r} says {count} files and lists {len(listed)}"
    assert not set(files) - set(listed), (
        f"{title} enters files docs/architecture.md does not list: "
        f"{sorted(set(files) - set(listed))}"
    )
    assert set(listed) - set(files) <= unentered, (
        f"docs/architecture.md lists files {title} never enters: "
        f"{sorted(set(listed) - set(files) - unentered)}"
    )


def test_one_guarded_call(data: Path, tmp_path: Path, endpoint: ScriptedEndpoint) -> None:
    """The third identical read_file: its model step and its tool step."""
    window = Window(("explore.explore", 3), ("tool_call.call_tool", 3, "return"))
    _check(entered(window, _run(data, tmp_path, _context(endpoint))),
           "How is one tool call guarded?")  # fmt: skip


@pytest.mark.parametrize(("on_collapse", "until"), [("draft", "draft.draft"),
                                                     ("ask", "halts.await_human")])  # fmt: skip
def test_a_collapse_halt(
    data: Path, tmp_path: Path, endpoint: ScriptedEndpoint, on_collapse: str, until: str
) -> None:
    """The fifth identical call, which halts, until drafting starts or the human is asked."""
    window = Window(("explore.explore", 5), (until, 1, "call"))
    context = _context(endpoint, on_collapse=on_collapse)
    files = entered(window, _run(data, tmp_path, context))
    asked = frozenset({"nodes/draft.py"} if on_collapse == "ask" else ())
    _check(files, "How is a halt routed?", unentered=asked)


def test_a_resume_with_a_nudge(data: Path, tmp_path: Path, endpoint: ScriptedEndpoint) -> None:
    """`resume_thread(..., nudge=...)` of a thread halted for a human, until the explorer's
    next request leaves."""
    _run(data, tmp_path, _context(endpoint, on_collapse="ask"))()
    window = Window(("resume.resume_thread", 1), ("openai_client.handle_request", 1, "call"))
    resume = lambda: resume_thread("t", db=tmp_path / "c.db", nudge="Read sweep.csv.")  # noqa: E731
    _check(entered(window, resume), "How does a resume restart a thread?")
