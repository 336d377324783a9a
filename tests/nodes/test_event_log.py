"""events.jsonl and the caller's sink see the same events: the log stamps what is not yet
stamped, writes it, and hands it on, and a log it cannot write still hands every event on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from labscribe.nodes.runtime.state import EventLog


def test_the_log_writes_and_forwards_the_same_stamped_events(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    log = EventLog(tmp_path / "out" / "events.jsonl", "t", seen.append)
    log.append({"event": "notice", "stage": "resume", "detail": "caf\udce9"})
    log.append({"event": "end", "time": "2026-12-07T00:00:00.000+00:00", "elapsed": 1.5})
    log.close()
    written = [json.loads(line) for line in (tmp_path / "out" / "events.jsonl").open()]
    assert [{"thread_id": "t", **event} for event in seen] == written
    assert seen[0]["detail"] != "caf\udce9" and seen[0]["elapsed"] >= 0  # printable, stamped
    assert seen[1]["elapsed"] == 1.5  # already stamped: kept as it came


def test_a_log_that_cannot_be_written_still_hands_every_event_on(tmp_path: Path) -> None:
    (tmp_path / "events.jsonl").mkdir()  # not a file: the log cannot be opened
    seen: list[dict[str, Any]] = []
    log = EventLog(tmp_path / "events.jsonl", "t", seen.append)
    for stage in ("scan", "explore"):
        log.append({"event": "milestone", "stage": stage})
    assert [event["stage"] for event in seen] == ["scan", "explore"]
    assert all("time" in event for event in seen)
