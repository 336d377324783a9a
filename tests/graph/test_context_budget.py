"""The explorer's history is fitted to the context window before every request."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import endpoint_flags, labscribe, read_record
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.nodes.prompts import ELIDED_NOTE, RECORD_HEADER

WINDOW = 3_000  # tokens, as --context-tokens
# An estimated token never stands for more than 3 bytes of content, and a quarter of the
# window or more is reserved for the system prompt, tool schemas and the reply: JSON framing
# fits in that reserve, so a fitted request stays under 3 bytes a token of the window.
LIMIT = 3 * WINDOW


def test_long_exploration_never_sends_a_request_over_the_limit(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    for n in range(8):
        rows = "".join(f"{t * 0.001:.4f},{(n + 1) * t % 977:.3f},{t % 13}\n" for t in range(400))
        (folder / f"run{n}.csv").write_text("t,V,flag\n" + rows)
    reads = [tool_reply(("read_file", {"path": f"run{n}.csv"})) for n in range(8)]
    finish = ("finish_exploration", {"experiment": "x", "goal": "y", "key_findings": ["z"]})
    out = tmp_path / "out"
    with ScriptedEndpoint(
        {"explorer": [*reads, tool_reply(finish)], "writer": [text_reply(latex())]},
        by_turn=False,
    ) as server:
        server.max_request_bytes["explorer"] = LIMIT
        done = labscribe(
            "run", str(folder), "--out", str(out), "--context-tokens", str(WINDOW),
            *endpoint_flags(server),
        )  # fmt: skip
        explorer_requests = [r for r in server.requests if r["model"] == "explorer"]
        sizes = [size for model, size in server.request_sizes if model == "explorer"]
    assert done.returncode == 0, done.stderr
    assert read_record(out)["status"] == "completed"
    assert len(explorer_requests) == 9
    assert len(sizes) == 9  # nothing was refused and retried
    assert max(sizes) <= LIMIT
    print(f"largest explorer request: {max(sizes)} bytes of {LIMIT}")
    seen = json.dumps(explorer_requests[-1]["messages"], ensure_ascii=False)
    assert ELIDED_NOTE.split("{hidden}")[1][:40] in seen or RECORD_HEADER[:40] in seen
    # The record of what was tried survives: every earlier file is still named.
    assert all(f"run{n}.csv" in seen for n in range(8))
