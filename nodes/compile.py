"""compile: latexmk -xelatex, with bounded fix rounds that never lose a compiling .tex.

Each attempt builds in its own folder, so the PDF of the last .tex that compiled survives a
fix that breaks the build; that fix is reverted. A model's report compiles well only when
its PDF shows its body (nodes/checks.py): one that hides it earns the fix rounds, and if no
fix shows it, the fallback report from the data takes its place. Whether the stage runs, the
run's `compile` setting and the toolchain decide (`no_pdf`), as they decided the plan.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from labscribe.guards.output import latex_problems, tidy_latex
from labscribe.nodes.checks import no_pdf, shown_problems
from labscribe.nodes.draft import complete, fallback
from labscribe.nodes.halts import nudged
from labscribe.nodes.prompts import FIX_BRIEF, FIX_SYSTEM
from labscribe.nodes.reflect import fits_twice
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import chat_model, context_window, idle_reason, role_of, spent
from labscribe.nodes.runtime.state import State, figures_dir, milestone
from labscribe.tools.sandbox.latex import Compiled, compile_latex
from labscribe.tools.sandbox.out_files import copy_whole, out_folder

FIX_ROUNDS = 2  # each is a model call and a compile; errors a model cannot fix in two, stay
HIDDEN_REASON = "the model's report does not print its text ({problem})"


def compile_report(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    if skip := no_pdf(runtime.context):
        return {"compile": skip}
    out = Path(state["out"]) if state.get("out") else Path(tempfile.mkdtemp(prefix="labscribe-"))
    bibliography = state.get("bibliography")
    figures = figures_dir(state)
    kept = state["report"]
    build = out_folder(out / "build")  # a link planted there must not take TeX's output
    best = compile_latex(kept, bibliography, build / "attempt-0", figures)
    # The fallback is labscribe's own escaped text; a model's report is judged by its PDF.
    hidden = [] if state.get("drafted_by") == "fallback" else shown_problems(kept, best)
    good = best if best.ok and not hidden else None
    replies = []
    rounds = 0 if idle_reason(runtime.context, "compile") else FIX_ROUNDS
    for round_number in range(1, rounds + 1):
        window = context_window(runtime.context, role_of("compile"))
        if not (best.log.problems or hidden) or not fits_twice(kept, window):
            break
        errors = "\n".join([*hidden, best.log.describe()])
        text, parts = complete(
            chat_model(runtime.context, role_of("compile")),
            [
                SystemMessage(FIX_SYSTEM),
                HumanMessage(FIX_BRIEF.format(errors=errors, report=kept)),
                *nudged(state),
            ],
            "compile",
        )
        replies += parts
        candidate = tidy_latex(text)
        if latex_problems(candidate):
            continue  # not a report: nothing to compile, the kept text stands
        attempt = compile_latex(candidate, bibliography, build / f"attempt-{round_number}", figures)
        if (
            attempt.ok
            and not shown_problems(candidate, attempt)
            and (good is None or attempt.log.problems < good.log.problems)
        ):
            kept, best, good, hidden = candidate, attempt, attempt, []
    update: dict[str, Any] = {"degraded": []}
    if hidden:  # no fix printed the text: the report from the data takes its place
        update = fallback(state, HIDDEN_REASON.format(problem=hidden[0]))
        kept = update["report"]
        best = compile_latex(kept, None, build / "fallback", figures)
        good = best if best.ok else None
    record = _record(good, best, out)
    if good is None:
        update["degraded"] += [
            f"the PDF could not be compiled: {best.log.describe().splitlines()[0]}"
        ]
    return (
        update
        | {"report": kept, "compile": record}
        | spent("compile", *replies)
        | milestone(state, "compile", f"{record['status']}: {record['log']}")
    )


def _record(good: Compiled | None, last: Compiled, out: Path) -> dict[str, Any]:
    if good is None or good.pdf is None:
        return {"status": "failed", "pdf": None, "log": last.log.describe()}
    pdf = out / "report.pdf"
    copy_whole(good.pdf, pdf)
    summary = good.log.describe()
    return {
        "status": "compiled",
        "pdf": str(pdf),
        "log": summary,
        "overfull_boxes": good.log.overfull_boxes,
    }
