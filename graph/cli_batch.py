"""`labscribe batch`: a class of folders, run here (graph/batch.py) or on a LangGraph server
(graph/server_batch.py), with one progress display and one summary."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from labscribe.graph.batch import Batch, BatchEntry, plan_batch, run_batch, summary_table
from labscribe.graph.cli_options import (
    context_of,
    endpoint_flags_of,
    endpoint_settings,
    run_flags_of,
    served_context,
)
from labscribe.graph.resume import checked_nudge
from labscribe.graph.runner import BadInput
from labscribe.graph.server_batch import run_on_server
from labscribe.graph.terminal import say
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import text_bar


def batch(args: argparse.Namespace) -> int:
    if args.concurrency is not None and args.concurrency < 1:
        raise BadInput(f"--concurrency must be at least 1, got {args.concurrency}")
    if args.resume:
        if args.folders:
            raise BadInput("--resume continues the batch in --out: pass no folders with it")
        job = Batch.load(args.out)
        if args.db is not None and args.db != job.db:
            raise BadInput(f"this batch's threads live in {job.db or 'the default database'}")
        if args.server and not job.server:
            raise BadInput("this batch ran here, not on a server: resume it without --server")
        # A resume may point the runs at a new endpoint or model (an outage, a rotated key),
        # or at the server's new address.
        job.endpoint_flags = endpoint_flags_of(args) or job.endpoint_flags
        job.context |= {k: v for k, v in endpoint_settings(args).items() if k != "api_key"}
        job.server = args.server or job.server
        try:
            recorded = Context.from_options(job.context)
        except (ValueError, TypeError) as exc:
            raise BadInput(f"cannot resume this batch with its recorded settings: {exc}") from exc
        nudge = checked_nudge(args.nudge, recorded)
    else:
        if args.nudge:
            raise BadInput("--nudge is for --resume: a new batch has no halted threads yet")
        nudge = None
        if not args.folders:
            raise BadInput("name the folders to run, or one folder that holds them")
        if args.server and args.db:
            raise BadInput("--db applies to local runs: a server keeps its own checkpoints")
        context = context_of(args)  # bad options stop the batch here, not in every run
        job = plan_batch(
            args.folders,
            out=args.out,
            db=args.db,
            run_flags=run_flags_of(args),
            endpoint_flags=endpoint_flags_of(args),
            server=args.server,
            context=served_context(context, args),
        )
    follow = run_on_server if job.server else run_batch
    job = follow(
        job,
        concurrency=args.concurrency,
        api_key=args.api_key,
        nudge=nudge,
        on_event=batch_progress(job, args.json),
    )
    if args.json:
        entries = [entry.model_dump() for entry in job.entries]
        say(json.dumps({"event": "batch", "exit_code": job.exit_code, "entries": entries}))
    else:
        say(summary_table(job))
        say(f"manifest: {job.manifest}", file=sys.stderr)
    return job.exit_code


def batch_progress(job: Batch, as_json: bool) -> Callable[[BatchEntry, dict[str, Any]], None]:
    """Every run's events, tagged with its folder: JSON lines on stdout, or lines on stderr."""
    total, lock = len(job.entries), threading.Lock()
    finished = sum(entry.written for entry in job.entries)

    def show(entry: BatchEntry, event: dict[str, Any]) -> None:
        nonlocal finished
        name = Path(entry.folder).name
        with lock:
            if as_json:
                tagged = {"folder": entry.folder, "thread_id": entry.thread_id, **event}
                say(json.dumps(tagged, ensure_ascii=False, default=str))
                return
            if event["event"] == "finished":
                finished += 1
                took = f" in {entry.seconds:.1f}s" if entry.seconds is not None else ""
                line = f"{entry.status}{took}: {entry.reason.splitlines()[0][:100]}"
            elif event["event"] == "milestone":
                line = f"{text_bar(event['index'], event['total'], 12)} {event['stage']}"
            elif event["event"] == "halt":
                line = f"halt: {event.get('reason')}"
            else:
                return
            say(f"[{finished}/{total} done] {name}: {line}", file=sys.stderr)

    return show
