"""Terminal output is safe by construction: a folder name, a file's text or a model's reply
that carries escape sequences shows them, and the terminal does not act on them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.terminal import escaped

# Clear the screen, set the window title, a CSI by its C1 byte, a carriage return that would
# overwrite the line, and a bidi override.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\r\u202e"
ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]")
FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})


def assert_inert(*texts: str) -> None:
    for text in texts:
        assert not ACTING.search(text), repr(ACTING.search(text).group())


def test_escaped_shows_every_control_and_keeps_json_values() -> None:
    assert escaped(f"lab{HOSTILE}\n\tok") == (
        "lab\\u001b[2J\\u001b]0;pwned\\u0007\\u009b31m\\u000d\\u202e\n\tok"
    )
    line = json.dumps({"folder": f"lab{HOSTILE}"}, ensure_ascii=False)
    assert json.loads(escaped(line)) == {"folder": f"lab{HOSTILE}"}


@pytest.fixture
def hostile(data: Path, tmp_path: Path) -> Path:
    """The example data in a folder whose name and notes carry escape sequences."""
    folder = tmp_path / "class" / f"lab{HOSTILE}"
    shutil.copytree(data, folder)
    (folder / "notes.md").write_text(f"Resonance near 5 kHz.{HOSTILE} Quality factor about 5.\n")
    return folder


@pytest.mark.parametrize("as_json", [False, True])
def test_a_hostile_folder_name_reaches_the_terminal_inert(
    hostile: Path, tmp_path: Path, as_json: bool
) -> None:
    flags = ["--json"] if as_json else []
    out = tmp_path / f"out{HOSTILE}"
    done = labscribe("run", str(hostile), "--out", str(out), "--no-model", *flags)
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout, done.stderr)
    if not as_json:  # the report's path is shown, not dropped
        assert "out\\u001b[2J\\u001b]0;pwned" in done.stderr
    else:
        events = [json.loads(line) for line in done.stdout.splitlines()]  # still JSON
        assert next(e["stage"] for e in events if e["event"] == "milestone") == "scan"


def test_a_hostile_folder_in_a_batch_reaches_the_table_inert(hostile: Path, tmp_path: Path) -> None:
    done = labscribe("batch", str(hostile.parent), "--out", str(tmp_path / "out"), "--no-model")
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout, done.stderr)
    assert "lab\\u001b[2J" in done.stdout  # the summary table names the folder


def test_a_model_reply_with_escape_sequences_reaches_the_terminal_inert(
    data: Path, tmp_path: Path
) -> None:
    path = f"{HOSTILE}notes.md"
    script = [tool_reply(("read_file", {"path": path}))] * 5 + [tool_reply(FINISH)]
    with ScriptedEndpoint({"explorer": script, "writer": [text_reply(latex("Inert."))]}) as server:
        done = labscribe("run", str(data), "--out", str(tmp_path / "out"), *endpoint_flags(server))
    assert done.returncode == 0, done.stderr
    assert_inert(done.stdout, done.stderr)
    assert "\\u001b]0;pwned" in done.stderr  # the halt's reason names the call it refused
