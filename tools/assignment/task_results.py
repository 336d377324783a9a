"""Which of the analysis's results a checklist row may set beside its task: those of the files
the task names, the part of a repeated quantity's line it asks for, the figures that show
what it plots, the column it fits by name; and the fits that are not the one it asks for,
each with what it is instead. A row offers only what bears on its task: everything else is
named as what it is, never as the task's answer (tools.assignment.checklist).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from labscribe.tools.analysis.data_facts import topic_words
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.fit_asks import Ask
from labscribe.tools.assignment.requested import FIT_CUE
from labscribe.tools.assignment.task_files import named_files, named_tables
from labscribe.tools.assignment.task_fit import differs, read_the_other_way
from labscribe.tools.assignment.task_material import column_named, task_words
from labscribe.tools.fits.fit_result import Fit, axes_of
from labscribe.tools.fits.repeat_evidence import BY_SERIES

# A function written by its name and argument: `A(f)`, `U_C(t)`, `φ(f)`.
_CALLED = re.compile(
    r"(?<![\w\\])([A-Za-z\u0370-\u03ff](?:_\w{1,4})?)\(\s*[A-Za-z\u0370-\u03ff]\w*\s*\)"
)
_FIT_VERB = re.compile(r"\bpassen sie\b", re.IGNORECASE)  # "Passen Sie A(f) … an"
# The series one by one in a repeated quantity's line: up to the next part (`; `).
SERIES_PART = re.compile(re.escape(BY_SERIES) + r"[^;]*")
EACH_SERIES = re.compile(
    r"\b(?:for )?each (?:of the \w+ )?(?:series|experiments?|runs?|groups?|sets?)\b|"
    r"\bper (?:series|experiment|group)\b|\bfür jede (?:Messreihe|Serie|Reihe)|"
    r"\bchaque (?:s[ée]rie|exp[ée]rience)|\bcada (?:serie|experimento|grupo)|"
    r"每(?:组|个系列|次实验)",
    re.IGNORECASE,
)
POOLED = re.compile(
    r"\bgrand mean|\boverall mean|\bpooled|\ball \d+ (?:runs|measurements|values)|"
    r"\bgesamtmittel|moyenne g[ée]n[ée]rale|media (?:global|total)|总平均",
    re.IGNORECASE,
)


def of_named_files(analysis: Analysis, task: str) -> Analysis:
    """The analysis of the files `task` names (tools.assignment.task_files), or all of it where it
    names none: "aus `c.csv`" is answered from c.csv alone."""
    ids = named_tables(task, [(t.id, t.source) for t in analysis.tables])
    if ids is None:
        return analysis
    return analysis.model_copy(update={
        "not_fitted": sorted(named_files(task, analysis.not_fitted)),
        "tables": [t for t in analysis.tables if t.id in ids],
        "fits": [f for f in analysis.fits if f.table in ids],
        "repeats": [s for s in analysis.repeats if s.table in ids],
        "extremes": [e for e in analysis.extremes if not e.table or e.table in ids],
        "regressions": [r for r in analysis.regressions if not r.table or r.table in ids],
        "fit_quantities": [q for q in analysis.fit_quantities if not q.table or q.table in ids],
    })  # fmt: skip


def pictured(
    words: set[str], analysis: Analysis, figures: Sequence[dict[str, Any]], ask: Ask | None
) -> list[str]:
    """The report's data figures that show a column the task names against another it
    names ("Plot U against t"), each as the checklist lists it; where the task names its
    axes ("(f₀² − f²)/f² ∝ χ от T"), a column each axis names."""
    tables = {t.id: t for t in analysis.tables}
    along, up = words, words
    if ask is not None and ask.axes is not None:
        along, up = task_words(ask.axes.predictor), task_words(ask.axes.response)
    found = []
    for record in figures:
        summary = tables.get(record.get("table", ""))
        if summary is None:
            continue
        keys = {c.key for c in summary.columns}
        if record["x"] not in keys or not set(record["y"]) <= keys:
            continue
        x = summary.column(record["x"])
        named = [summary.column(key) for key in record["y"]
                 if column_named(summary.column(key), summary, up)]  # fmt: skip
        if named and column_named(x, summary, along):
            found.append(f"labscribe's figure of {', '.join(c.name for c in named)} against "
                         f"{x.name} ({summary.id})")  # fmt: skip
    return found


def fitted_function(task: str, analysis: Analysis) -> str | None:
    """The column a task fits as a function it writes by name (`A` of "Passen Sie die
    Funktion A(f) an die Amplitudenmessung an"), where a column is called so."""
    if FIT_CUE.search(task) is None and _FIT_VERB.search(task) is None:
        return None
    names = {c.name for table in analysis.tables for c in table.columns}
    return next((m[1] for m in _CALLED.finditer(task) if m[1] in names), None)


def swapped_lines(analysis: Analysis, ask: Ask | None, other_axes: dict[int, str]) -> list[str]:
    """The R² of each straight line of the task's axes swapped: the task's line, read the
    other way (its law is read off it by tools.formulas.line_law)."""
    tables = {t.id: t for t in analysis.tables}
    lines: dict[tuple[str, str, str], Fit] = {}
    for f in analysis.fits:
        if (
            ask is not None
            and id(f) in other_axes
            and f.r_squared is not None
            and (read_the_other_way(f, ask, tables.get(f.table)))
        ):
            lines.setdefault((f.table, f.y, f.x), f)  # the first fit of these axes
    return [
        f"R² = {f.r_squared:.5f} of the straight line of {axes_of(f, analysis.fits)}, the "
        "task's axes swapped: the same line read the other way"
        for f in lines.values()
    ]


def not_asked(analysis: Analysis, ask: Ask | None) -> dict[int, str]:
    """The fits that are not the one `ask` describes, by id, with what each is instead."""
    if ask is None:
        return {}
    tables = {t.id: t for t in analysis.tables}
    found = {id(f): differs(f, ask, tables.get(f.table)) for f in analysis.fits if f.model}
    return {key: what for key, what in found.items() if what}


def repeat_part(task: str, line: str) -> str:
    """The part of a repeated quantity's line the task asks for: the series' means for "for
    each series", the pooled mean and the rest for "the grand mean of all 100 runs"; else
    all of it."""
    found = SERIES_PART.search(line)
    if found is None:
        return line
    each, pooled = EACH_SERIES.search(task), POOLED.search(task)
    if each and not pooled:
        name = line.split(":", 1)[0].replace(", all series", "")
        return f"{name}, {found.group().rstrip()}"
    if pooled and not each:
        rest = [part for part in line[found.end() :].split("; ") if part]
        return line[: found.start()] + "; ".join(rest)
    return line


def inputs(task: str, defined: list[tuple[str, str]], fits: list[Fit]) -> frozenset[str]:
    """The parameters a task that works quantities out by its formulas may start from: those
    it names by symbol, and those that go by a defined quantity's name (a bandwidth is the
    FWHM)."""
    tokens = set(re.findall(r"[^\W\d]\w*", task))
    names = {name.lower() for name, _ in defined}
    return frozenset(
        p.name
        for fit in fits
        for p in fit.parameters
        if p.name in tokens or topic_words(fit, p) & names
    )
