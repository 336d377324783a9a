"""What a task asks of a fit, read from its words alone: the axes it names, the formula it
writes, whether it asks for a straight line, the variant, the series and the correction it
names. Kept apart from judging a fit against it (tools/assignment/task_fit.py), so that a
checklist row can say what the task asks without any fit at hand.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from labscribe.tools.assignment.requested import (
    LOG_PAPER,
    UNCERTAINTY_OF,
    Request,
    defines_the_answer,
    requested_model,
)
from labscribe.tools.assignment.role_phrases import is_symbol, sentences
from labscribe.tools.assignment.stated_values import states_a_value
from labscribe.tools.assignment.task_axes import Axes, task_axes
from labscribe.tools.assignment.task_needs import part_of_data
from labscribe.tools.assignment.task_symbols import defined_names
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_variants import (
    BOTH_SERIES,
    CORRECTED,
    INTERCEPT,
    NOT_THE,
    ORIGIN,
    STRAIGHT,
    STRAIGHT_WORDS,
)
from labscribe.tools.formulas.formula_notation import formula_in, formulas_in, plain_symbol
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula

_CORE = re.compile(r"^(?:ln|log|lg|sqrt)\s*\(?|^√|^1\s*/\s*|[²³⁴⁵⁻¹]|\^.*$|[()]")


class Ask(BaseModel):
    """What a task asks of a fit, each as the task words it ("" where it says nothing)."""

    task: str
    axes: Axes | None = None
    formula: str = ""
    straight: str = ""
    intercept: str = ""
    origin: str = ""
    both: str = ""
    corrected: str = ""
    not_the: list[str] = []
    part: str = ""
    worked_out: str = ""
    """The definition of the formula's variable where the task works it out of others
    (`f_m = (f_start + f_end)/2`): the fit is against it."""

    def text(self) -> str:
        """What the task asks, in a phrase: `a straight-line fit of ln A against t`."""
        kind = "a straight-line fit" if self.straight else "a fit"
        axes = f" of {self.axes.text()}" if self.axes is not None else ""
        if self.formula and self.axes is None:
            axes = f" of “{self.formula}”" + (
                f" against {self.worked_out}" if self.worked_out else ""
            )
        quoted = [f"“{cue}”" if cue else "" for cue in (self.intercept or self.origin, self.both)]
        corrected = f"after “{self.corrected}”" if self.corrected else ""
        cues = [*quoted, corrected, f"“{self.part}”" if self.part else ""]
        said = "; ".join(cue for cue in cues if cue)
        return f"{kind}{axes}" + (f" ({said})" if said else "")


def asks(tasks: list[str]) -> dict[str, Ask]:
    """What each task that asks for a fit (or names axes) asks of it; a task inherits the
    series and corrections of the task it takes its axes from, and of earlier tasks that
    define its response's symbol ("ΔL ... Mittelwert aus Aufheiz- und Abkühlmessung")."""
    axes = task_axes(tasks)
    found: dict[str, Ask] = {}
    for number, task in enumerate(tasks):
        request = requested_model(task)
        own = axes.get(task)
        if request is None and own is None:
            continue
        context = [task] + [
            before for before in tasks[:number] if _defines(before, own) or axes.get(before) == own
        ]
        joined = " ".join(context)
        shape = request.shape if request is not None else None
        formula = _model_formula(task, request, own) if request is not None else ""
        # "a straight line on semi-log paper" asks for the exponential the paper straightens
        straight = "" if LOG_PAPER.search(task) else _said(STRAIGHT_WORDS, task)
        found[task] = Ask(
            task=task,
            axes=own,
            formula=formula,
            # "by linear least squares" names a method: a curved formula asks for no line
            straight=straight or (shape if shape in STRAIGHT and not formula else ""),
            intercept=_said(INTERCEPT, task),
            origin=_said(ORIGIN, task),
            both=_said(BOTH_SERIES, joined),
            corrected=_said(CORRECTED, joined),
            not_the=[m["a"] or m["b"] for m in NOT_THE.finditer(task)],
            part=part_of_data(task),
            worked_out=_variable_worked_out(task, formula),
        )
    return found


def _variable_worked_out(task: str, formula: str) -> str:
    """The definition `task` writes of `formula`'s variable, where it works it out of others
    (`f_m = (f_start + f_end)/2` beside `T = k·f_m (+ c)`); "" where it writes none."""
    try:
        variable = parse_formula(formula).x if formula else ""
    except FormulaError:
        return ""
    names = {plain_symbol(name) for name, _ in defined_names(task)}
    if plain_symbol(variable) not in names:
        return ""
    written = [f for s in sentences(task) for f in formulas_in(s)]
    return next((f for f in written if plain_symbol(f.split("=")[0].strip()) == variable), "")


def _model_formula(task: str, request: Request, axes: Axes | None) -> str:
    """The formula a task asks to fit (the request's, else its first), as written; a
    definition beside its axes ("ΔL über ΔT = ϑ − ϑ0") or beside the curved model it names
    ("l = λ/I" beside a damped fit) is none: the formula's left side must be the response,
    where axes are."""
    first = formula_in(task)
    defined = defines_the_answer(first, request.shape)
    written = request.formula or ("" if defined else first) or ""
    if states_a_value(written) or UNCERTAINTY_OF.match(written):
        return ""  # "in der Plateaumitte (U = 500 V)": a value; `u(z) = u(y)/y`: error bars
    left = written.split("=", 1)[0]
    if axes is None or core(left.split("(")[0]) == core(axes.response):
        return _as_written(task, written)
    return ""


def _as_written(task: str, formula: str) -> str:
    """`formula` with what the notation reader left off its left side ("1/" of "1/T = A +
    B·ln R"), as the task writes it: a quoted formula must be the task's."""
    start = task.find(formula)
    if start < 0:
        return formula
    head = re.search(r"(?:[\d.]+\s*/\s*|\(\s*)+$", task[:start])
    return task[head.start() if head else start : start + len(formula)]


def _said(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.search(text)
    return found.group().strip() if found else ""


def _defines(text: str, axes: Axes | None) -> bool:
    """Whether `text` names the response's symbol (`ΔL`, `R_T`): where it is defined."""
    if axes is None:
        return False
    bare = core(axes.response)
    return (
        bool(bare)
        and is_symbol(bare.lstrip("Δ"))
        and re.search(rf"(?<![\w]){re.escape(bare)}(?![\w])", text) is not None
    )


def core(expression: str) -> str:
    return _CORE.sub("", expression.strip()).strip()


def task_ask(fit: Fit, tasks: list[str]) -> Ask | None:
    """What the task that asks for `fit` asks of it, or None if no task does."""
    return asks(tasks).get(fit.requested) if fit.requested else None
