"""`labscribe batch --server URL` writes a served run's outputs from the LangGraph store
(graph/served.py) within bounds on names, pages and sizes, whatever the store answers:
against a scripted server whose store misbehaves (tests/scripted_store.py)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from clirun import labscribe, read_events, read_record
from scripted_store import ASSISTANT, Huge, ScriptedStore

from labscribe.graph.batch import Batch, BatchEntry
from labscribe.graph.served import MAX_ANSWER_BYTES

THREAD = "9b0c1b52-0000-4000-8000-000000000001"


def stored(data: bytes) -> dict[str, str]:
    return {"base64": base64.b64encode(data).decode()}


def served_batch(store: ScriptedStore, tmp_path: Path) -> Path:
    """A batch of one folder whose thread on `store`'s server has finished; its OUT/."""
    out = tmp_path / "batch"
    entry = BatchEntry(folder=str(tmp_path / "data"), thread_id=THREAD, out=str(out / "data"))
    Batch(out=str(out), server=store.url, assistant_id=ASSISTANT, entries=[entry]).save()
    return out / "data"


def notices(out: Path) -> list[str]:
    return [e["detail"] for e in read_events(out) if e["event"] == "notice"]


def test_a_store_key_no_run_publishes_is_skipped_and_the_outputs_are_written(
    tmp_path: Path,
) -> None:
    long_key = "figures/" + "a" * 300 + ".png"
    items = [(long_key, stored(b"png")), ("figures/fit.png", stored(b"fit"))]
    with ScriptedStore(THREAD, items) as store:
        out = served_batch(store, tmp_path)
        done = labscribe("batch", "--out", str(out.parent), "--resume", timeout=60)
    assert done.returncode == 0, done.stderr
    assert read_record(out)["status"] == "completed"
    assert (out / "report.tex").exists()
    assert json.loads((out / "history.json").read_text())[0]["type"] == "human"
    assert [p.name for p in (out / "figures").iterdir()] == ["fit.png"]
    assert notices(out) == [
        f"the store item {'figures/' + 'a' * 52 + '...'!r} was not written: not the name of a "
        "run's file"
    ]


def test_a_store_that_ignores_the_offset_is_read_once_not_paged_forever(tmp_path: Path) -> None:
    items = [(f"figures/f{n}.png", stored(b"%d" % n)) for n in range(150)]
    with ScriptedStore(THREAD, items, ignores_offset=True) as store:
        out = served_batch(store, tmp_path)
        done = labscribe("batch", "--out", str(out.parent), "--resume", timeout=60)
        assert store.searches == 2
    assert done.returncode == 0, done.stderr
    assert read_record(out)["status"] == "completed"
    assert [p.name for p in (out / "figures").iterdir()] == ["f0.png"]
    assert notices(out) == ["stopped reading the store after 2 pages: the server repeats a page"]


def test_a_huge_store_item_is_refused_unread_and_the_others_are_written(tmp_path: Path) -> None:
    items = [("figures/one.png", stored(b"1")), ("report.pdf", Huge(8 * MAX_ANSWER_BYTES)),
             ("figures/two.png", stored(b"2"))]  # fmt: skip
    with ScriptedStore(THREAD, items) as store:
        out = served_batch(store, tmp_path)
        done = labscribe("batch", "--out", str(out.parent), "--resume", timeout=60)
        sent = store.sent
    assert done.returncode == 0, done.stderr
    assert sent < 2 * MAX_ANSWER_BYTES  # the client hung up instead of reading it whole
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["one.png", "two.png"]
    assert not (out / "report.pdf").exists()
    assert read_record(out)["status"] == "completed"
    assert notices(out) == [
        f"the store item at position 1 was not read: it is over {MAX_ANSWER_BYTES // 2**20} MB"
    ]
