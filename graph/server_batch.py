"""A batch on a LangGraph server (`labscribe batch --server URL`), through langgraph-sdk.

The server owns the queue, the workers and the persistence: each folder is a thread there,
each attempt a run of one assistant that carries the batch's configuration. This side keeps
at most `concurrency` runs submitted at a time, follows each on the `custom` stream (the
progress events a local run prints), and writes each thread's OUT/ files when its run ends
(graph/served.py). `--resume` asks the server where every unfinished thread stands and
continues it: a busy thread is joined, an interrupted one resumed (with the nudge, when one
is given), a failed or cancelled one run again from its checkpoint, a missing one started.

One thread never runs twice at once: every run is submitted with the multitask strategy
"reject", and a submission the server rejects because the thread is busy joins the run
already there instead.
"""

from __future__ import annotations

import contextlib
import time
from functools import partial
from pathlib import Path
from typing import Any, Literal

import httpx
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

from labscribe.graph.batch import Batch, BatchEntry, EventSink, run_entries, settle_entry
from labscribe.graph.resume import resume_command
from labscribe.graph.runner import BadInput, ThreadView, thread_state
from labscribe.graph.served import published_files, served_outcome, write_served
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.runtime.outputs import OutputsUnwritten, end_event
from labscribe.nodes.runtime.state import EventLog

GRAPH = "labscribe"
"""The graph's name in langgraph.json."""
DEFAULT_CONCURRENCY = 4
SUBMIT = {
    "stream_mode": "custom",
    "multitask_strategy": "reject",  # a busy thread refuses a second run
    "on_disconnect": "continue",  # a client that goes away leaves its runs running
    "stream_resumable": True,  # a later client can join a run's stream
}
Where = Literal["missing", "busy", "new", "interrupted", "resumable", "finished"]
LOST = (
    "lost the server at {url} ({error}); the thread keeps its checkpoints there: "
    "continue with labscribe batch --out {out} --resume"
)
CONNECT_RETRIES = 1
"""Connection retries per request. The SDK's client retries a refused connection 5 times
inside each of its 5 reconnects to a dropped stream (1 to 5 s apart), so a batch took about
a minute to notice a server that had gone; its reconnects alone ride out a restart."""


def server_client(url: str) -> SyncLangGraphClient:
    """The SDK's client for the server at `url` (its headers, API key and timeouts), with
    CONNECT_RETRIES connection retries per request."""
    with get_sync_client(url=url).http.client as sdk:
        base_url, headers, timeout = sdk.base_url, sdk.headers, sdk.timeout
    transport = httpx.HTTPTransport(retries=CONNECT_RETRIES)
    client = httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=transport)
    return SyncLangGraphClient(client)


def prepare_assistant(batch: Batch) -> None:
    """The assistant that carries the batch's configuration: created once per batch, given
    the batch's context again when a resume changed it (a new endpoint or model), and created
    again when the server no longer has it (a `langgraph dev` whose state was wiped)."""
    client = server_client(batch.server)
    try:
        known = _assistant(client, batch.assistant_id) if batch.assistant_id else None
        if known is not None:
            if known.get("context") != batch.context:
                client.assistants.update(batch.assistant_id, context=batch.context)
            return
        assistant = client.assistants.create(
            GRAPH,
            context=batch.context,
            name=f"labscribe batch {Path(batch.out).name}",
            metadata={"labscribe_batch": batch.out},
        )
    except httpx.HTTPError as exc:
        said = _said(exc)
        raise BadInput(
            f"the LangGraph server at {batch.server} cannot run the batch: {said}"
        ) from exc
    batch.assistant_id = assistant["assistant_id"]
    batch.save()


def _assistant(client: SyncLangGraphClient, assistant_id: str) -> dict[str, Any] | None:
    try:
        return client.assistants.get(assistant_id)
    except httpx.HTTPStatusError as exc:
        if _status(exc) == 404:
            return None
        raise


def run_on_server(
    batch: Batch,
    *,
    concurrency: int | None = None,
    api_key: str | None = None,
    nudge: str | None = None,
    on_event: EventSink | None = None,
) -> Batch:
    """Run every entry whose report is not written yet on the batch's server, at most
    `concurrency` runs submitted at a time. The manifest is saved as each run ends. A Ctrl-C
    cancels the runs in flight on the server (each keeps its checkpoints)."""
    prepare_assistant(batch)
    client = server_client(batch.server)
    running: dict[str, str] = {}  # thread id -> run id in flight

    def attempt(entry: BatchEntry) -> None:
        follower = _Follower(client, batch, entry, api_key=api_key, nudge=nudge, running=running)
        follower.run(on_event)

    def cancel() -> None:
        for thread_id, run_id in list(running.items()):
            with contextlib.suppress(httpx.HTTPError):
                client.runs.cancel(thread_id, run_id, action="interrupt")

    workers = concurrency or DEFAULT_CONCURRENCY
    return run_entries(batch, attempt, workers=workers, cancel=cancel)


class _Follower:
    """One entry's attempt: find where its thread stands, submit or join its run, follow
    the stream, then write its outputs."""

    def __init__(
        self,
        client: SyncLangGraphClient,
        batch: Batch,
        entry: BatchEntry,
        *,
        api_key: str | None,
        nudge: str | None,
        running: dict[str, str],
    ) -> None:
        self.client, self.batch, self.entry = client, batch, entry
        self.api_key, self.nudge, self.running = api_key, nudge, running
        self.out = Path(entry.out)

    def run(self, on_event: EventSink | None) -> None:
        entry, started = self.entry, time.monotonic()
        entry.status, entry.reason = "running", "running"
        forward = partial(on_event, entry) if on_event else None
        log = EventLog(self.out / "events.jsonl", entry.thread_id, forward)
        try:
            run_status, error = self._attempt(log.append)
            state = self.client.threads.get_state(entry.thread_id)
            outcome = served_outcome(entry.thread_id, state, run_status, error, self.out)
            notes: list[str] = []
            files = (
                published_files(self.client, entry.thread_id, notes)
                if thread_state(ThreadView.served(state)) == "finished"
                else ()
            )
            record = write_served(self.out, entry.thread_id, state, outcome, files, notes)
            for note in notes:
                log.append(_notice(note))
            log.append(end_event(state.get("values") or {}, outcome))
            settle_entry(entry, record, [])
        except (httpx.HTTPError, OutputsUnwritten) as exc:
            url, out = self.batch.server, self.batch.out
            reason = (
                str(exc)
                if isinstance(exc, OutputsUnwritten)
                else LOST.format(url=url, error=_said(exc), out=out)
            )
            entry.status, entry.reason = RunStatus.FAILED.value, reason
        except Exception as exc:  # one folder's surprise must not stop the class
            reason = f"{_said(exc)}; continue with labscribe batch --out {self.batch.out} --resume"
            entry.status, entry.reason = RunStatus.FAILED.value, reason
        finally:
            log.close()
            entry.seconds = round(time.monotonic() - started, 2)
        if on_event:
            on_event(entry, {"event": "finished", "status": entry.status, "reason": entry.reason})

    def _attempt(self, publish: Any) -> tuple[str | None, str | None]:
        """Submit (or join) this thread's run and follow it to its end: (run status, error).
        A finished thread gets no run."""
        where, view = self._where()
        if where == "finished":
            return None, None
        if where == "busy":
            return self._join(publish)
        if where == "missing":
            self.client.threads.create(
                thread_id=self.entry.thread_id,
                metadata={"folder": self.entry.folder, "labscribe_batch": self.batch.out},
                if_exists="do_nothing",
            )
        submission: dict[str, Any] = {"input": None}
        if where in ("missing", "new"):
            submission["input"] = {"folder": self.entry.folder}
        elif view is not None:  # the assistant's context is the batch's: only a nudge is new
            command, notices = resume_command(view, self.nudge)
            for notice in notices:
                publish(_notice(notice))
            if command:
                submission["command"] = command
        try:
            return self._follow(
                self.client.runs.stream(
                    self.entry.thread_id,
                    self.batch.assistant_id,
                    context={"api_key": self.api_key} if self.api_key else None,
                    **submission,
                    **SUBMIT,
                ),
                publish,
            )
        except httpx.HTTPStatusError as exc:
            if _status(exc) != 409:  # 409: busy, the strategy rejected a second run
                raise
            return self._join(publish)

    def _where(self) -> tuple[Where, ThreadView | None]:
        """Where the thread stands, and its state when it has one."""
        thread_id = self.entry.thread_id
        try:
            thread = self.client.threads.get(thread_id)
        except httpx.HTTPStatusError as exc:
            if _status(exc) == 404:
                return "missing", None
            raise
        if thread["status"] == "busy":
            return "busy", None
        state = self.client.threads.get_state(thread_id)
        if not state.get("values"):
            return "new", None
        view = ThreadView.served(state)
        return thread_state(view), view

    def _join(self, publish: Any) -> tuple[str | None, str | None]:
        """Follow the run the thread is busy with, started by someone else."""
        thread_id = self.entry.thread_id
        for status in ("running", "pending"):
            for run in self.client.runs.list(thread_id, status=status, limit=1):
                publish(_notice(f"joined the run already on the thread ({run['run_id']})"))
                stream = self.client.runs.join_stream(
                    thread_id, run["run_id"], stream_mode="custom"
                )
                self.running[thread_id] = run["run_id"]
                return self._follow(stream, publish, run_id=run["run_id"])
        return None, None  # it ended in between

    def _follow(
        self, stream: Any, publish: Any, run_id: str | None = None
    ) -> tuple[str | None, str | None]:
        error = None
        try:
            for part in stream:
                if part.event == "metadata" and isinstance(part.data, dict):
                    run_id = part.data.get("run_id", run_id)
                    self.running[self.entry.thread_id] = str(run_id)
                elif part.event == "custom" and isinstance(part.data, dict):
                    publish(part.data)
                elif part.event == "error":
                    error = _error_text(part.data)
        finally:
            self.running.pop(self.entry.thread_id, None)
        if run_id is None:
            return None, error
        return self.client.runs.get(self.entry.thread_id, run_id)["status"], error


def _notice(detail: str) -> dict[str, Any]:
    """A notice of the batch's own, stamped by the folder's log when it is appended."""
    return {"event": "notice", "stage": "server", "detail": detail}


def _error_text(data: Any) -> str:
    if isinstance(data, dict):
        return ": ".join(str(data[k]) for k in ("error", "message") if data.get(k)) or str(data)
    return str(data)


def _status(exc: httpx.HTTPError) -> int | None:
    """The HTTP status of a failed request; None when no response came (the SDK's connection
    errors are HTTPStatusErrors without one)."""
    return getattr(getattr(exc, "response", None), "status_code", None)


def _said(exc: Exception) -> str:
    if isinstance(exc, httpx.HTTPError) and (status := _status(exc)) is not None:
        return f"HTTP {status}: {exc.response.text[:200]}"  # type: ignore[attr-defined]
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
