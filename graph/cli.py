"""The `labscribe` command: parsing, one place that maps errors to exit codes, subcommands."""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from typing import Any

from labscribe.graph.builder import build_graph
from labscribe.graph.checkpoint import ThreadBusy, open_checkpointer, thread_ids
from labscribe.graph.cli_batch import batch
from labscribe.graph.cli_options import context_of, endpoint_settings
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import BadInput, RunResult, pending_halt, run_folder, thread_state
from labscribe.graph.terminal import say
from labscribe.guards.statuses import RunStatus
from labscribe.nodes.runtime.context import ON_COLLAPSE_CHOICES, Context
from labscribe.nodes.runtime.outputs import OutputsUnwritten
from labscribe.nodes.runtime.settings import ENVIRONMENT, SETTING, ConfigError, environment
from labscribe.nodes.runtime.state import text_bar
from labscribe.tools.sandbox import children


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        environment()  # a bad variable stops every command here, before any work
        with _cancel_on_signals():
            return args.command(args)
    except (BadInput, ConfigError, ThreadBusy) as exc:
        say(f"labscribe: {exc}", file=sys.stderr)
        return 2
    except OutputsUnwritten as exc:
        say(f"labscribe: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a vanished folder, an unwritable file outside OUT/
        say(f"labscribe: cannot write: {exc}", file=sys.stderr)
        return 1


@contextlib.contextmanager
def _cancel_on_signals() -> Iterator[None]:
    """SIGTERM is a cancel, like Ctrl-C: the run checkpoints, ends `cancelled` and writes its
    outputs. Either signal first stops the run's child processes (latexmk, the figure
    worker), so the step that waits on one ends at once instead of when it finishes."""

    def cancel(signum: int, frame: Any) -> None:
        # One cancel is enough: a second signal must not interrupt the outputs being written.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)
        children.stop_all()
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, cancel) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def run(args: argparse.Namespace) -> int:
    result = run_folder(
        args.folder,
        out=args.out,
        thread_id=args.thread,
        db=args.db,
        context=context_of(args),
        on_event=_progress(args.json),
    )
    return _finish(result, args.json)


def resume(args: argparse.Namespace) -> int:
    result = resume_thread(
        args.thread,
        nudge=args.nudge,
        db=args.db,
        out=args.out,
        settings=endpoint_settings(args),
        from_stage=args.from_stage,
        on_event=_progress(args.json),
    )
    return _finish(result, args.json)


def status(args: argparse.Namespace) -> int:
    with open_checkpointer(args.db, existing=True, reads_only=True) as saver:
        snapshot = build_graph(checkpointer=saver).get_state(_config(args.thread))
    values = snapshot.values
    if not values:
        raise BadInput(f"no thread {args.thread!r} in the checkpoint database")
    plan, stages = values.get("plan", []), values.get("stages", [])
    guard = (values.get("guard") or {}) | {"halt": pending_halt(snapshot)}
    summary = {
        "thread_id": args.thread,
        "state": thread_state(snapshot),
        "next": [task.name for task in snapshot.tasks],
        "progress": f"{len(stages)}/{len(plan)}",
        "stages": stages,
        "exploration": values.get("exploration"),
        "guard": {key: guard.get(key) for key in ("warned", "blocked", "halt", "halts")},
        "usage": values.get("usage", {}),
        "tool_calls": values.get("tool_calls", 0),
        "folder": values.get("folder"),
        "out": values.get("out"),
    }
    say(json.dumps(summary, ensure_ascii=False, indent=2, default=str))
    return 0


def history(args: argparse.Namespace) -> int:
    with open_checkpointer(args.db, existing=True, reads_only=True) as saver:
        snapshots = list(build_graph(checkpointer=saver).get_state_history(_config(args.thread)))
    if not snapshots:
        raise BadInput(f"no thread {args.thread!r} in the checkpoint database")
    for snapshot in reversed(snapshots):
        step = snapshot.metadata.get("step") if snapshot.metadata else None
        messages = snapshot.values.get("messages", [])
        last = f"{type(messages[-1]).__name__}" if messages else "-"
        upcoming = ",".join(snapshot.next) or "(end)"
        say(
            f"{step:>4}  {snapshot.created_at}  next={upcoming:<14} messages={len(messages)} {last}"
        )
    return 0


def threads(args: argparse.Namespace) -> int:
    with open_checkpointer(args.db, existing=True, reads_only=True) as saver:
        graph = build_graph(checkpointer=saver)
        for thread_id in thread_ids(saver):
            snapshot = graph.get_state(_config(thread_id))
            folder = snapshot.values.get("folder", "")
            say(f"{thread_id}\t{thread_state(snapshot)}\t{folder}")
    return 0


def _finish(result: RunResult, as_json: bool) -> int:
    if not as_json:
        record = result.record
        say(f"{record['status']}: {record['reason']}", file=sys.stderr)
        if report := record["outputs"].get("pdf") or record["outputs"].get("report"):
            say(f"report: {report}", file=sys.stderr)
        say(f"run: {record['outputs']['run']}", file=sys.stderr)
    return result.exit_code


def _progress(as_json: bool) -> Callable[[dict[str, Any]], None]:
    """Events as JSON lines on stdout, or a progress bar on stderr. Progress inside a stage
    (tokens written, figures drawn) rewrites one line on a terminal, and is a line of its own
    elsewhere."""
    out = sys.stdout if as_json else sys.stderr
    live = not as_json and out.isatty()
    pending = False  # a live progress line waits to be ended

    def line(text: str) -> None:
        nonlocal pending
        say(text, file=out, lead="\n" if pending else "")
        pending = False

    def show(event: dict[str, Any]) -> None:
        nonlocal pending
        if as_json:
            say(json.dumps(event, ensure_ascii=False, default=str), file=out)
        elif event["event"] in ("milestone", "end") and event.get("total"):
            detail = str(event.get("detail", "")).splitlines()[0][:90]
            bar = text_bar(event["index"], event["total"], 24)
            line(f"{bar} {event['stage']}: {detail}")
        elif event["event"] == "progress":
            text = f"  ~ {event['stage']}: {event.get('detail', '')}"
            if live:
                say(f"{text:<79}", file=out, end="", lead="\r")
                pending = True
            else:
                line(text)
        elif event["event"] == "tool":
            mark = {"warn": "!", "block": "x", "halt": "X"}.get(event.get("guard") or "", ".")
            line(f"  {mark} {event['tool']} {json.dumps(event['args'], ensure_ascii=False)[:80]}")
        elif event["event"] in ("halt", "guard", "notice"):
            line(f"  ! {event.get('reason') or event.get('detail')}")

    return show


def _config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labscribe",
        description="Turn a folder of experiment material into a LaTeX lab report.",
        epilog=f"Exit codes: 0 report written, 3 halted and resumable, 2 bad input, 1 failure. "
        f"Statuses: {', '.join(s.value for s in RunStatus)}.",
    )
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    def command(
        name: str, handler: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.set_defaults(command=handler)
        return sub

    def endpoint_flags(sub: argparse.ArgumentParser) -> None:
        named = {name: f"({variable})" for name, variable in ENVIRONMENT.items()}
        sub.add_argument("--base-url", help=f"OpenAI-compatible endpoint {named['base_url']}")
        sub.add_argument("--api-key", help=f"key for the endpoint {named['api_key']}")
        sub.add_argument("--explore-model", help=f"model that explores {named['explore_model']}")
        sub.add_argument("--write-model", help=f"model that writes {named['write_model']}")
        sub.add_argument(
            "--context-tokens",
            metavar="N",
            help=f"explore model's context window {named['context_tokens']}",
        )
        sub.add_argument(
            "--reply-deadline",
            metavar="SECONDS",
            help=f"{SETTING['reply_deadline'].meaning} {named['reply_deadline']}",
        )

    def db_flag(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--db",
            help="checkpoint database: a SQLite path or a postgresql:// URL "
            f"(default {SETTING['db'].variable} or ~/.labscribe/checkpoints.sqlite)",
        )

    def run_flags(sub: argparse.ArgumentParser) -> None:
        defaults = {f.name: f.default for f in fields(Context)}
        sub.add_argument(
            "--on-collapse",
            choices=ON_COLLAPSE_CHOICES,
            help=f"on a collapse halt: draft, or ask a human ({defaults['on_collapse']})",
        )
        sub.add_argument(
            "--max-tool-iters",
            type=int,
            help=f"explore model calls ({defaults['max_tool_iters']})",
        )
        sub.add_argument(
            "--reflect", type=int, help=f"critique-and-revise rounds ({defaults['reflect']})"
        )
        sub.add_argument(
            "--no-figures",
            action="store_true",
            help="no model-drawn figures (the data figures are always drawn)",
        )
        sub.add_argument(
            "--all-stages",
            action="store_true",
            help="spend the embedded model also on the stages it never pays off in",
        )
        sub.add_argument("--no-compile", action="store_true", help="do not compile the PDF")
        sub.add_argument(
            "--no-model",
            action="store_true",
            help="the data report alone, with no model installed or configured",
        )
        sub.add_argument("--json", action="store_true", help="print events as JSON lines")
        endpoint_flags(sub)
        db_flag(sub)

    sub = command("run", run, "explore FOLDER and write its report")
    sub.add_argument("folder", help="the folder of experiment material")
    sub.add_argument("--out", help="output folder (default ./labscribe-out/THREAD)")
    sub.add_argument("--thread", help="thread id (default: the folder name and a random suffix)")
    run_flags(sub)

    sub = command(
        "batch",
        batch,
        "run many folders, each its own thread and process (or, with --server, a thread "
        "on a LangGraph server), a few at a time; one folder that holds only folders runs "
        "each of them",
    )
    sub.add_argument("folders", nargs="*", metavar="FOLDER")
    sub.add_argument(
        "--out", default="labscribe-out/batch", help="where the reports and batch.json go"
    )
    sub.add_argument(
        "--concurrency",
        type=int,
        help="runs at once (default: the cores this process may use; 4 on a server)",
    )
    sub.add_argument(
        "--resume", action="store_true", help="continue the batch in --out: only unfinished runs"
    )
    sub.add_argument(
        "--server",
        metavar="URL",
        help="submit the runs to this LangGraph server (langgraph dev, or a deployment) "
        "through langgraph-sdk, instead of running them here",
    )
    sub.add_argument(
        "--nudge", help="with --resume: a hint for the explorers of threads halted for a human"
    )
    run_flags(sub)

    sub = command(
        "resume",
        resume,
        "continue a halted, crashed or cancelled thread; a finished one writes its outputs again",
    )
    sub.add_argument("thread")
    sub.add_argument("--nudge", help="a hint for the explorer, added to its history")
    sub.add_argument("--out", help="a finished thread's outputs go here instead")
    sub.add_argument(
        "--from",
        dest="from_stage",
        choices=["draft"],
        help="draft a finished thread again from its exploration (e.g. with --write-model)",
    )
    sub.add_argument("--json", action="store_true", help="print events as JSON lines")
    endpoint_flags(sub)
    db_flag(sub)

    for name, handler, text in (
        ("status", status, "show where a thread stands"),
        ("history", history, "list a thread's checkpoints"),
    ):
        sub = command(name, handler, text)
        sub.add_argument("thread")
        db_flag(sub)
    db_flag(command("threads", threads, "list the threads in the checkpoint database"))
    return parser


if __name__ == "__main__":
    sys.exit(main())
