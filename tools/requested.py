"""The models an assignment's tasks ask for: named in words ("determine k from a straight-line
fit", "exponentielle Abnahme", "用直线拟合") or written out ("fit a power law T = a L^b").

A task asks for a model when it names one and asks for a fit (fit, regression, model,
describe, 拟合, anpassen ...), or names one that only a fit can mean (a straight line, a
slope, a power law). A formula without such a cue is a definition to compute with
(`Q = f0/(f2 - f1)`), not a model to fit.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from labscribe.tools.columns import Column
from labscribe.tools.data_facts import words_of
from labscribe.tools.formula_notation import formula_in
from labscribe.tools.formula_parse import FormulaError, parse_formula
from labscribe.tools.tables import TableSummary

FIT_CUE = re.compile(
    r"\bfit|regress|least[- ]squares|\bmodel|describ|\bfollow|according to|拟合|回归|符合|"
    r"anpass|fitten|ausgleich|beschreib",
    re.IGNORECASE,
)
# (standard model, pattern, whether the words alone ask for a fit), the more specific first:
# "straight line through the origin" is proportional, "exponential approach" not a decay.
MODEL_WORDS: tuple[tuple[str, re.Pattern[str], bool], ...] = tuple(
    (shape, re.compile(pattern, re.IGNORECASE), strong)
    for shape, pattern, strong in (
        ("damped oscillation", r"damped (?:harmonic )?(?:oscillat|sin|cos)|阻尼振|"
         r"gedämpfte?n? (?:harmonische?n? )?schwingung", True),
        ("exponential approach", r"approach(?:es|ing)? (?:to )?(?:a |the )?(?:saturation|"
         r"final|limit|asymptot|steady)|saturat|exponential (?:rise|growth|approach|charging)|"
         r"charging curve|饱和|趋近|sättigung|exponentielle?n? (?:anstieg|annäherung|"
         r"sättigung)", False),
        ("exponential", r"exponential(?:ly)?|\bdecay|指数衰减|指数|衰减|exponentiell|"
         r"\babfall|\bzerfall|\babklingen", False),
        ("power law", r"power[- ]law|幂律|幂函数|potenzgesetz|potenzfunktion", True),
        ("gaussian", r"gauss(?:ian)?|gauß|normal distribution|高斯|normalverteilung", False),
        ("lorentzian", r"lorentz(?:ian)?|洛伦兹", False),
        ("resonance", r"resonance curve|resonanzkurve|谐振曲线|共振曲线", False),
        ("quadratic", r"quadratic|parabol|second[- ](?:order|degree) polynomial|二次|抛物|"
         r"quadratisch", True),
        ("cubic", r"\bcubic|third[- ](?:order|degree) polynomial|三次|kubisch", True),
        ("proportional", r"\bproportional|through the origin|正比|durch den ursprung|"
         r"ursprungsgerade", True),
        ("linear", r"straight[- ]?line|\blinear|line of best fit|\bfit (?:a|the) line|\bslope"
         r"|\bgradient|直线|线性|斜率|\bgerade\b|\blineare?[nrs]?\b|steigung", True),
    )
)  # fmt: skip


class Request(BaseModel):
    """A model a task asks for."""

    task: str
    """The task, as the checklist holds it."""
    number: int
    """Its place in the checklist, from 1."""
    shape: str | None = None
    """A standard model (tools.shapes) the task names in words."""
    formula: str | None = None
    """The formula the task writes out, as written."""

    @property
    def name(self) -> str:
        return self.formula or self.shape or ""


def requested_models(tasks: list[str]) -> list[Request]:
    """The models `tasks` (a checklist) ask for, in task order; at most one per task."""
    requests = []
    for number, task in enumerate(tasks, start=1):
        request = requested_model(task, number)
        if request is not None:
            requests.append(request)
    return requests


def requested_model(task: str, number: int = 1) -> Request | None:
    """The model `task` asks for, if it asks for one."""
    cue = FIT_CUE.search(task) is not None
    named = next(((shape, strong) for shape, pattern, strong in MODEL_WORDS
                  if pattern.search(task)), None)  # fmt: skip
    written = formula_in(task)
    if written is not None and (cue or named) and _fittable(written):
        return Request(task=task, number=number, formula=written, shape=named and named[0])
    if named is not None and (cue or named[1]):
        return Request(task=task, number=number, shape=named[0])
    return None


def _fittable(written: str) -> bool:
    """Whether the formula parses; which name is the variable may wait for the data."""
    try:
        parse_formula(written)
    except FormulaError as exc:
        return "cannot tell the variable" in str(exc)
    return True


def requests_for(
    requests: list[Request], table: TableSummary, column: Column, tables: list[TableSummary]
) -> list[Request]:
    """The requests that concern `column` of `table`: a formula whose left side names the
    column, or a task that names it; a request that names no column of any table concerns
    them all."""
    others = [c for t in tables for c in t.columns if c.key != t.x and c.ratio_of is None]
    concerned = []
    for request in requests:
        response = _response(request)
        if response is not None and any(_named(response, c) for c in others):
            if _named(response, column):
                concerned.append(request)
            continue
        words = _task_words(request.task)
        if _mentions(words, column) or not any(_mentions(words, c) for c in others):
            concerned.append(request)
    return concerned


def _response(request: Request) -> str | None:
    """The left side of a request's formula (`T` in `T = a L^b`), unless it is a generic y."""
    if request.formula is None:
        return None
    left = request.formula.partition("=")[0].strip()
    name = re.match(r"[A-Za-z\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff]*", left)
    if name is None or name[0].lower() in ("y", "f"):
        return None
    return name[0]


def _named(name: str, column: Column) -> bool:
    folded = name.lower().replace("_", "")
    return folded in {column.name.lower().replace("_", ""), column.key.lower().replace("_", "")}


def _task_words(task: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9_]+", task.lower()))


def _mentions(words: frozenset[str], column: Column) -> bool:
    """Whether a task's words name the column (beyond one-letter names, which prose uses
    for anything)."""
    named = {w for w in words_of(column.name) if len(w) >= 2}
    return bool(named & words) and column.ratio_of is None
