"""The output checks a report a model wrote must pass: its source's (guards/output.py), and,
when the run makes PDFs, what it typesets.

A source can pass every check and still print nothing: its body inside `\\iffalse`, in a box
that is never shipped out, after an early `\\end {document}` or `\\enddocument`. No reading
of the source catches every way to hide text from TeX; the PDF shows what was typeset. So
where the run makes PDFs, a draft, a revision and a compile fix are each judged by their
PDF too: most of their body's words must be on its pages. Where it makes none, the source's
checks judge alone.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labscribe.guards.output import latex_problems, typeset_problems
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.state import State, figures_dir
from labscribe.tools.sandbox.latex import Compiled, compile_latex, toolchain_problem, typeset_text
from labscribe.tools.sandbox.out_files import fresh_folder, out_folder

SWITCHED_OFF = "compiling was switched off"


def no_pdf(ctx: Context) -> dict[str, Any] | None:
    """The record of a compile this run skips (switched off, or no toolchain), or None."""
    reason = SWITCHED_OFF if not ctx.compile else toolchain_problem()
    return {"status": "skipped", "reason": reason} if reason else None


def report_problems(tex: str, state: State, ctx: Context) -> list[str]:
    """Why `tex` is not an acceptable report; empty when it is. Where the run makes PDFs,
    a source that passes is compiled as a proof (figures, no references) and judged by it."""
    problems = latex_problems(tex)
    if problems or no_pdf(ctx):
        return problems
    with _proof_folder(state) as build:
        return shown_problems(tex, compile_latex(tex, None, build, figures_dir(state)))


@contextlib.contextmanager
def _proof_folder(state: State) -> Iterator[Path]:
    """Where a proof compiles: OUT/build/proof, beside the compile stage's attempts, where
    the run has an OUT; a temporary folder where it has none."""
    if state.get("out"):
        yield fresh_folder(out_folder(Path(state["out"]) / "build") / "proof")
        return
    with tempfile.TemporaryDirectory(prefix="labscribe-proof-") as build:
        yield Path(build)


def shown_problems(tex: str, compiled: Compiled) -> list[str]:
    """Why the PDF of `compiled` does not show the body of `tex`; empty when it does, or
    when there is no PDF to judge (a source that does not compile is the compile stage's to
    fix, and its fixes are judged by their PDF). A document with no pages shows nothing."""
    if compiled.log.no_pages:
        return typeset_problems(tex, "")
    typeset = typeset_text(compiled.pdf) if compiled.pdf is not None else None
    return [] if typeset is None else typeset_problems(tex, typeset)
