"""The deterministic report, written when no model draft passes or none is asked for (the
embedded model's, measured never to pass): from state alone, from
labscribe's own analysis of the data and what the material says, never from a model's
prose. It always passes the output checks, compiles with xelatex (CJK included), and says
once, plainly, what it lacks.
"""

from __future__ import annotations

import re
from typing import Any

from labscribe.guards.output import is_degenerate, latex_problems
from labscribe.nodes.fallback_apparatus import apparatus
from labscribe.nodes.fallback_regression import regression_blocks
from labscribe.nodes.latex_text import (
    boxed,
    escape_latex,
    figure,
    itemize,
    paragraphs,
    quoted,
    section,
    table,
)
from labscribe.nodes.material import analysis_of
from labscribe.nodes.report_notice import EXPLORATION_TITLE, exploration_account, notice_latex
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.checklist import checklist
from labscribe.tools.assignment.coverage import some_of
from labscribe.tools.assignment.handout_tasks import task_number
from labscribe.tools.assignment.task_fit import not_task_fit
from labscribe.tools.columns.excerpt_columns import excerpt_columns
from labscribe.tools.columns.quantity_words import unit_doubt
from labscribe.tools.columns.row_numbers import row_number_notes
from labscribe.tools.columns.shown_digits import column_texts
from labscribe.tools.explorer.scanning import with_tables
from labscribe.tools.fits.fit_claims import FOLLOWS, NOT_DESCRIBED, asked_by_all, standard_notes
from labscribe.tools.fits.fit_result import OUT_OF_TIME, Fit, alike, axes_of, out_of_time
from labscribe.tools.fits.regression_text import regression_remark
from labscribe.tools.fits.repeat_text import REPEATS_EXPLAINED, repeat_notes, result_rows
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.formed_lineage import formed_notes

NOTE_REPEATS = "Its opening repeats a few characters over and over; it is not quoted here."
MAX_EXCERPT_TABLES = 2
MAX_INVENTORY_FILES = 25
PREAMBLE = (
    "\\documentclass[11pt]{article}\n"
    "\\usepackage[margin=2.2cm]{geometry}\n"
    "\\usepackage{graphicx}\n"
    "\\usepackage{booktabs}\n"
    "\\usepackage{longtable}\n"
    "\\usepackage{array}\n"
)
FITS_EXPLAINED = (
    "Each column was fitted by least squares (lmfit): first with the model the assignment "
    "asks for, as it writes it, then with standard models, of which the one with the lowest "
    "Bayesian information criterion is given where it differs (the simpler of models that "
    "fit equally well). Every parameter is given with its unit where its columns state "
    "theirs; ± is one standard error, as lmfit estimates it from the scatter of the "
    "residuals. The reduced χ² compares the residuals with the noise σ given beside it: "
    "the data's uncertainty column where there is "
    "one, else the scatter of neighbouring points about the fitted curve (too small where the "
    "noise is correlated from point to point). A model is said not to describe the data only "
    "when its residuals show it: larger than the noise (a χ² test, p below 0.001, against an "
    "uncertainty column; against the scatter, a reduced χ² that noise gives in fewer than 1 "
    "fit in 1,000, even noise correlated from point to point), or keeping a shape (a runs "
    "test, a moving average and means of blocks of them), whatever its R². A low R² with "
    "residuals like noise means the data scatter widely about their trend, not that the "
    "model is wrong. A parameter that only a value outside its physical range (a negative "
    "time constant) would fit is given no value."
)
PREDICTIONS_EXPLAINED = (
    "Values the assignment's formulas predict from the parameter values in the folder, with "
    "their uncertainties propagated (the uncertainties package, to first order). A tolerance "
    "is read as a rectangular distribution, whose standard uncertainty is the tolerance "
    "divided by √3 (GUM 4.3.7); a value given without an uncertainty is taken as exact. The "
    "discrepancy is z = |measured − predicted| / √(σm² + σp²)."
)
_PATH_LIKE = re.compile(r"[/\\]|\.[A-Za-z0-9]{1,5}$")


def fallback_report(state: dict[str, Any], reason: str = "", *, model_tried: bool = True) -> str:
    """The report of `state`'s material. `model_tried` says whether a model was asked to
    draft it (and no draft passed) or none was (`--no-model`, or a model measured never to
    pay off): its box tells the student which, in their words; `reason`, the technical one,
    is run.json's and never printed. Should the quoted material make it fail the output
    checks (notes that repeat one line for pages look like a model's loop), it is written
    again without the quotations."""
    del reason  # run.json keeps it (`degraded`, `skipped`); the PDF speaks to the student
    report = _assemble(state, model_tried=model_tried, quote=True)
    if not latex_problems(report):
        return report
    return _assemble(state, model_tried=model_tried, quote=False)


def _assemble(state: dict[str, Any], *, model_tried: bool, quote: bool) -> str:
    analysis = analysis_of(state)
    findings = state.get("findings") or {}
    parts = [
        boxed(notice_latex(model_tried=model_tried)),
        section("Aim", _aim(analysis, findings)),
        section("Apparatus and parameters", apparatus(analysis, findings)),
        section("Results", _results(analysis, state.get("figures") or [])),
    ]
    if analysis.tasks:
        parts.append(
            section("The assignment's tasks", _checklist(analysis, state.get("figures") or []))
        )
    if analysis.lab_notes and quote:
        parts.append(section("Notes of the experimenters", _notes(analysis)))
    found = findings if quote else {}
    if (account := exploration_account(state | {"findings": found})) is not None:
        parts.append(section(EXPLORATION_TITLE, _exploration(account, found)))
    scan = with_tables(state.get("scan") or {}, {table.source for table in analysis.tables})
    parts.append(
        section("Material in the folder", itemize(_inventory(scan) + _unanalysed(analysis)))
    )
    return (
        f"{PREAMBLE}\\title{{{escape_latex(report_title(analysis, findings))}}}\n"
        "\\author{labscribe (a report from the data alone)}\n"
        "\\date{\\today}\n"
        "\\begin{document}\n\\maketitle\n\n" + "\n\n".join(parts) + "\n\n\\end{document}\n"
    )


def report_title(analysis: Analysis, findings: dict[str, Any]) -> str:
    """The assignment's title; else the experiment as exploration named it (unless that
    was a file's name); else what the data show."""
    if analysis.title:
        return analysis.title
    named = str(findings.get("experiment") or "").strip()
    if named and not _PATH_LIKE.search(named):
        return named
    fit = next((f for f in analysis.fits if f.good and f.model), None)
    if fit is not None:
        return f"Lab report: {fit.model} of {fit.y_label} against {fit.x_label}"
    return "Lab report"


def _aim(analysis: Analysis, findings: dict[str, Any]) -> str:
    source = escape_latex(analysis.assignment or "")
    if analysis.aim and analysis.aim_is_opening:
        return (f"The assignment ({source}) names no aim in so many words; it opens:\n"
                + quoted(analysis.aim))  # fmt: skip
    if analysis.aim:
        return f"As the assignment ({source}) states it:\n" + quoted(analysis.aim)
    if findings.get("goal"):
        return paragraphs(f"As the model that read the material recorded it (not checked): "
                          f"{findings['goal']}")  # fmt: skip
    return paragraphs("The material states no aim.")


def _results(analysis: Analysis, figures: list[dict[str, Any]]) -> str:
    blocks = regression_blocks(analysis)
    shown = [fit for fit in analysis.fits if fit.drawable]
    if shown:
        blocks.append(paragraphs(FITS_EXPLAINED))
        blocks.append(
            table(
                ["Data", "Model", "Parameters", "R²", "reduced χ²"],
                [_fit_row(fits, analysis) for fits in alike(shown)],
                (0.17, 0.25, 0.34, 0.08, 0.08),
                "Fits of the data",
            )
        )
    blocks += _constants(analysis) + _predictions(analysis)
    notes = [f"{t.id}: {t.roles}" for t in analysis.tables if t.roles]
    notes += [note for note in (_ratio_note(summary) for summary in analysis.tables) if note]
    firsts = [fits[0] for fits in alike(analysis.fits)]  # a model two tasks ask for, once
    notes += [_fit_note(fit, analysis) for fit in firsts
              if (fit.notes or not fit.good) and fit.notes != [OUT_OF_TIME]]  # fmt: skip
    notes += [late] if (late := out_of_time(analysis.fits)) else []
    notes += row_number_notes(analysis.tables)
    notes += [f"{t.id}: {doubt}" for t in analysis.tables for c in t.measured()
              if c.uncertainty_of is None and (doubt := unit_doubt(c.name, c.unit))]  # fmt: skip
    notes += formed_notes(analysis.tables) + analysis.unformed
    if notes:
        blocks.append(itemize(notes))
    if analysis.repeats:
        blocks.append(_repeats(analysis))
    blocks += [figure(f["path"], f.get("caption") or f["path"]) for f in figures]
    if not figures and not analysis.repeats:
        why = "its tables could not be drawn" if analysis.tables else "the material holds no table"
        blocks.append(paragraphs(f"No figure could be drawn: {why}."))
    blocks += [_excerpt(summary) for summary in analysis.tables[:MAX_EXCERPT_TABLES]]
    if not analysis.tables:
        blocks.append(paragraphs("The material holds no table of numbers to analyse."))
    return "\n\n".join(blocks)


def _repeats(analysis: Analysis) -> str:
    """The table of repeated measurements, and what it cannot hold: weighted means,
    outliers, whether series agree."""
    headers = ["Quantity", "n", "Mean ± standard error", "Standard deviation",
               "95 % interval (Student's t)", "Outliers"]  # fmt: skip
    rows = result_rows(analysis.repeats)
    blocks = [paragraphs(REPEATS_EXPLAINED),
              table(headers, rows, (0.22, 0.05, 0.17, 0.12, 0.2, 0.14),
                    "Repeated measurements")]  # fmt: skip
    notes = repeat_notes(analysis.repeats)
    return "\n\n".join(blocks + ([itemize(notes)] if notes else []))


def _constants(analysis: Analysis) -> list[str]:
    """The physical constants the fits used, each once, with its value and unit."""
    used = {c.symbol: c for fit in analysis.fits for c in fit.constants}
    used |= {c.symbol: c for p in analysis.predictions for c in p.constants}
    if not used:
        return []
    intro = paragraphs("Physical constants in the formulas, by their CODATA values:")
    return [intro + "\n\n" + itemize([c.text() for c in used.values()])]


def _predictions(analysis: Analysis) -> list[str]:
    """What the handout's formulas predict from the parameter values, beside the measured
    values, with how each input's uncertainty was read."""
    if not analysis.predictions:
        return []
    rows = [
        [p.name, f"{p.shown()} from {p.formula}",
         "; ".join(f"{c.shown()} ({c.source}, {c.table})" for c in p.comparisons)
         or p.note or "–",
         "; ".join(c.discrepancy() for c in p.comparisons) or "–"]
        for p in analysis.predictions
    ]  # fmt: skip
    predicted = {p.quantity for p in analysis.predictions}  # R_tot of γ = R_tot/L: in the table
    inputs = list(dict.fromkeys(i.text() for p in analysis.predictions for i in p.inputs
                                if i.symbol not in predicted))  # fmt: skip
    return [
        paragraphs(PREDICTIONS_EXPLAINED),
        table(["", "Predicted", "Measured", "Discrepancy"], rows, (0.06, 0.3, 0.34, 0.22),
              "Predicted and measured values"),
        paragraphs("The inputs of the predictions, as the parameter files give them:"),
        itemize(inputs),
    ]  # fmt: skip


def _fit_note(fit: Fit, analysis: Analysis) -> str:
    instead = not_task_fit(fit, analysis.tasks, analysis.tables)
    asked = fit.requested and not instead
    whose = " (the assignment's model)" if asked else ""
    notes = fit.notes if asked or not fit.requested else [_unclaimed(n, fit) for n in fit.notes]
    notes = standard_notes(notes, fit, analysis)
    said = "; ".join(notes) or "no model could be fitted"
    return f"{axes_of(fit, analysis.fits)}{whose}: {said}"


def _unclaimed(note: str, fit: Fit) -> str:
    """A fit's note without a verdict on the assignment's model, for a fit that is not the
    one its task asks for: the verdict is on this fit of these columns alone."""
    return note.replace("the assignment's model", f"this fit ({fit.model})")


def _fit_row(fits: list[Fit], analysis: Analysis) -> list[str]:
    """The row of the fits alike in what they show, the first one's values."""
    fit = fits[0]
    values = fit.values_text()
    chi = fit.chi_text()
    model = f"{fit.model}: {fit.formula}" if fit.formula and fit.formula != fit.model else fit.model
    why = asked_by_all(fits, analysis)
    verdict = "" if fit.good else f"; {FOLLOWS if fit.follows else NOT_DESCRIBED} (see below)"
    verdict += f"; {remark}" if (remark := regression_remark(fit)) else ""
    return [
        f"{_with_unit(fit.y_label, fit.y_unit)} against {_with_unit(fit.x_label, fit.x_unit)} "
        f"({fit.table})",
        f"{model} ({why}{verdict})",
        values,
        f"{fit.r_squared:.4f}",
        chi,
    ]


def _with_unit(name: str, unit: str) -> str:
    """`Angle [mrad]`: a column as the excerpt's header writes it."""
    return f"{name} [{unit}]" if unit else name


def _ratio_note(summary: TableSummary) -> str:
    ratios = [c for c in summary.columns if c.ratio_of]
    if not ratios:
        return ""
    source = summary.column(ratios[0].ratio_of[1])  # type: ignore[index]
    spread = ""
    if source.minimum is not None and source.maximum is not None:
        unit = f" {source.unit}" if source.unit else ""
        spread = f", which varies from {source.minimum:g} to {source.maximum:g}{unit},"
    names = ", ".join(c.name for c in ratios)
    return (
        f"{names}: labscribe also analyses each response relative to the input "
        f"{source.name}{spread} since a loaded source changes the raw response; the "
        "ratio describes the measured system itself."
    )


def _excerpt(summary: TableSummary) -> str:
    columns, values = excerpt_columns(summary)  # each header over its own values
    header = [_with_unit(c.name, c.unit) for c in columns]
    rows = column_texts(values)  # digits enough that differing values differ
    caption = (
        f"Excerpt of {summary.id}: {len(rows)} of its {summary.rows} rows, evenly spaced "
        "from the first to the last"
    )
    return table(header, rows, caption=caption)


def _checklist(analysis: Analysis, figures: list[dict[str, Any]]) -> str:
    rows = [
        [
            task_number(analysis.task_numbers, number),
            item.task,
            "; ".join(item.given) or "–",
            item.left,
        ]
        for number, item in enumerate(checklist(analysis, figures), start=1)
    ]
    left_out = (
        f" The assignment sets {analysis.tasks_left_out} more than the {len(rows)} listed here: "
        "those under its headings for tasks and questions come first, then its other "
        "instructions in order; read it for the rest."
        if analysis.tasks_left_out
        else ""
    )
    intro = paragraphs(
        f"The tasks of {analysis.assignment}, with what labscribe's analysis gives towards "
        f"each. A result listed bears on the task; it does not do it.{left_out}"
    )
    return (
        intro
        + "\n\n"
        + table(
            ["", "Task", "What the data give", "Left for the student"],
            rows,
            (0.03, 0.33, 0.37, 0.17),
        )
    )


def _notes(analysis: Analysis) -> str:
    blocks = []
    for note in analysis.lab_notes:
        # a note that repeats itself for its whole opening would read as a model's loop
        text = paragraphs(NOTE_REPEATS) if is_degenerate(note.text) else quoted(note.text)
        tail = " (the note continues in the file)" if note.cut else ""
        blocks.append(f"\\paragraph{{{escape_latex(note.path)}{escape_latex(tail)}}}\n{text}")
    return "\n\n".join(blocks)


def _exploration(account: str, findings: dict[str, Any]) -> str:
    body = paragraphs(account)
    found = [str(item) for item in findings.get("key_findings") or []]
    if found:
        body += "\n\n" + itemize(found)
    return body


def _unanalysed(analysis: Analysis) -> list[str]:
    """What the analysis could not read or set aside, so that no file is silently missing."""
    return [f"not analysed: {u.path}: {u.reason}" for u in analysis.unreadable] + [
        f"left out: {why}" for why in analysis.left_out
    ]


def _inventory(scan: dict[str, Any]) -> list[str]:
    items = []
    for name, bucket in (scan.get("buckets") or {}).items():
        if bucket.get("count"):
            files = some_of(bucket.get("files", []), MAX_INVENTORY_FILES, bucket["count"])
            items.append(f"{name} ({bucket['count']}): {files}")
    return items or ["The folder held no files."]
