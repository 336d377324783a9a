"""`labscribe batch`: real processes, one per folder, over real HTTP to a scripted endpoint."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

from clirun import COMMAND, labscribe, read_record
from scripted import latex
from scripted_server import Choose, Hang, ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph.batch import folders_of, plan_batch
from labscribe.guards.human import DRAFT_CHOSEN

FINISH = ("finish_exploration", {"experiment": "RLC", "goal": "f0", "key_findings": ["5 kHz"]})
LOOK = tool_reply(("list_dir", {"path": "."}))
MARKER = "collapse-me.txt"


def class_of_six(data: Path, root: Path) -> Path:
    """Six students' folders: four good, one empty (broken), one whose explorer collapses."""
    course = root / "course"
    for name in ("ada", "ben", "cai", "dev", "stuck"):
        shutil.copytree(data, course / name)
    (course / "stuck" / MARKER).write_text("the scripted explorer loops on this folder\n")
    (course / "broken").mkdir()
    return course


def explorer(collapsing: dict[str, bool]) -> Choose:
    """Look once, then finish; in the marked folder, look forever while `collapsing`."""

    def pick(body: dict[str, Any]) -> dict:
        if collapsing["on"] and MARKER in json.dumps(body["messages"]):
            return LOOK
        turns = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return LOOK if turns == 0 else tool_reply(FINISH)

    return Choose(pick)


def flags(server: ScriptedEndpoint) -> list[str]:
    return [
        "--base-url", server.url, "--api-key", "test-key",
        "--explore-model", "explorer", "--write-model", "writer",
    ]  # fmt: skip


def entries_by_folder(out: Path) -> dict[str, dict]:
    manifest = json.loads((out / "batch.json").read_text())
    return {Path(entry["folder"]).name: entry for entry in manifest["entries"]}


def test_batch_runs_each_folder_isolated_and_resume_finishes_only_the_unfinished(
    data: Path, tmp_path: Path
) -> None:
    course = class_of_six(data, tmp_path)
    out = tmp_path / "reports"
    collapsing = {"on": True}
    scripts = {"explorer": [explorer(collapsing)], "writer": [text_reply(latex("Batch."))]}
    options = ["--on-collapse", "ask", "--reflect", "0", "--no-compile", "--no-figures"]
    with ScriptedEndpoint(scripts) as server:
        first = labscribe(
            "batch", str(course), "--out", str(out), "--concurrency", "2", *options, *flags(server)
        )
        assert first.returncode == 1, first.stderr  # one run failed
        entries = entries_by_folder(out)
        assert sorted(entries) == ["ada", "ben", "broken", "cai", "dev", "stuck"]
        assert {name: e["status"] for name, e in entries.items()} == {
            "ada": "completed", "ben": "completed", "cai": "completed", "dev": "completed",
            "broken": "failed", "stuck": "halted",
        }  # fmt: skip
        assert "is empty" in entries["broken"]["reason"]
        assert "labscribe resume" in entries["stuck"]["reason"]
        assert entries["ada"]["model_calls"] == {"explore": 2, "write": 1}
        assert entries["stuck"]["model_calls"]["explore"] == 5
        assert all(e["seconds"] > 0 for e in entries.values())
        table = first.stdout.splitlines()
        assert table[0].split()[:4] == ["folder", "status", "explore", "write"]
        assert any(line.split()[:4] == ["stuck", "halted", "5", "0"] for line in table)
        assert table[-1] == "4/6 reports written"
        assert "[6/6 done]" in first.stderr
        done_before = {
            name: (Path(e["out"]) / "events.jsonl").read_bytes()
            for name, e in entries.items()
            if e["status"] == "completed"
        }
        assert server.calls_to("writer") == 4

        (course / "broken" / "notes.md").write_text("Resonance near 5 kHz.\n")  # fixed
        collapsing["on"] = False
        again = labscribe("batch", "--resume", "--out", str(out), *flags(server))
        assert again.returncode == 0, again.stderr
        assert server.calls_to("writer") == 6  # the two unfinished ones, nothing else
    entries = entries_by_folder(out)
    assert {e["status"] for e in entries.values()} == {"completed"}
    for name, events in done_before.items():
        assert (Path(entries[name]["out"]) / "events.jsonl").read_bytes() == events
    stuck = read_record(Path(entries["stuck"]["out"]))
    # The same thread, drafted: a resume without a nudge answers a collapse with drafting
    # (SPEC section 4), so its explorer is not asked again.
    assert stuck["model_calls"] == {"explore": 5, "write": 1}
    assert stuck["exploration"]["reason"].startswith(DRAFT_CHOSEN)
    assert stuck["guard"]["halted"] is True
    assert again.stdout.splitlines()[-1] == "6/6 reports written"


def test_batch_refuses_a_second_batch_in_the_same_out_and_bad_options(
    data: Path, tmp_path: Path
) -> None:
    plan_batch([data], out=tmp_path / "reports").save()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "batch.json").write_text("{}")
    garbled = labscribe("batch", "--resume", "--out", str(tmp_path / "broken"))
    assert garbled.returncode == 2
    assert "is not a labscribe batch manifest" in garbled.stderr
    taken = labscribe("batch", str(data), "--out", str(tmp_path / "reports"))
    assert taken.returncode == 2
    assert "already holds a batch" in taken.stderr
    elsewhere = labscribe(
        "batch", "--resume", "--out", str(tmp_path / "reports"), "--db", str(tmp_path / "x.db")
    )
    assert elsewhere.returncode == 2
    assert "this batch's threads live in" in elsewhere.stderr
    nothing = labscribe("batch", "--resume", "--out", str(tmp_path / "none"))
    assert nothing.returncode == 2
    assert "no batch to resume" in nothing.stderr
    zero = labscribe("batch", str(data), "--out", str(tmp_path / "z"), "--concurrency", "0")
    assert zero.returncode == 2
    assert not (tmp_path / "z").exists()


def test_one_folder_of_folders_is_a_class_but_a_data_folder_is_itself(
    data: Path, tmp_path: Path
) -> None:
    course = class_of_six(data, tmp_path)
    assert [p.name for p in folders_of([course])] == ["ada", "ben", "broken", "cai", "dev", "stuck"]
    assert folders_of([data]) == [data]  # it holds files
    assert folders_of([course / "ada", course / "ben"]) == [course / "ada", course / "ben"]
    (tmp_path / "alias").symlink_to(course / "ada")
    twice = [course / "ada", course / "ben", tmp_path / "alias", course / "ada" / "."]
    assert folders_of(twice) == [course / "ada", course / "ben"]  # one folder, one thread
    planned = plan_batch(twice, out=tmp_path / "reports", server="http://127.0.0.1:2024")
    assert [Path(e.folder).name for e in planned.entries] == ["ada", "ben"]
    assert all(str(uuid.UUID(e.thread_id)) == e.thread_id for e in planned.entries)
    assert [Path(e.out).name.split("-")[0] for e in planned.entries] == ["ada", "ben"]


def test_ctrl_c_cancels_the_running_runs_keeps_the_rest_pending_and_resume_finishes(
    data: Path, tmp_path: Path
) -> None:
    course = tmp_path / "course"
    for name in ("ada", "ben", "cai"):
        shutil.copytree(data, course / name)
    out = tmp_path / "reports"
    hang = Hang(then=tool_reply(FINISH), times=1)
    scripts = {"explorer": [LOOK, hang], "writer": [text_reply(latex("Batch."))]}
    options = ["--reflect", "0", "--no-compile", "--no-figures", "--concurrency", "1"]
    with ScriptedEndpoint(scripts) as server:
        # A terminal's Ctrl-C reaches the whole foreground process group: the batch and its run.
        batch = subprocess.Popen(
            [*COMMAND, "batch", str(course), "--out", str(out), *options, *flags(server)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
        assert hang.reached.wait(timeout=60), "the first run never reached its second turn"
        time.sleep(0.3)
        os.killpg(batch.pid, signal.SIGINT)
        hang.release.set()
        stdout, stderr = batch.communicate(timeout=60)
        assert batch.returncode == 3, stderr
        entries = entries_by_folder(out)
        assert [entries[n]["status"] for n in ("ada", "ben", "cai")] == [
            "cancelled", "pending", "pending",
        ]  # fmt: skip
        assert stdout.splitlines()[-1] == "0/3 reports written"

        again = labscribe("batch", "--resume", "--out", str(out), *flags(server))
        assert again.returncode == 0, again.stderr
    entries = entries_by_folder(out)
    assert {e["status"] for e in entries.values()} == {"completed"}
    ada = read_record(Path(entries["ada"]["out"]))
    assert ada["tool_calls"] == 2  # resumed after its first call, not run again
