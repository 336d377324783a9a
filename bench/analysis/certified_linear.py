"""NIST's certified linear regressions, measured as NIST's own tests do: the log relative
error (LRE, the number of agreeing digits, at most 15) of every coefficient and of its
standard deviation, for labscribe's multiple regression (tools.fits.regression: statsmodels OLS
on centred and scaled columns, by QR), beside statsmodels OLS on the design as written
(its default pseudo-inverse: a naive solver).

Longley (six predictors) runs as a student's folder through the analysis: its data and a
handout that writes the model out. A one-predictor set (a polynomial in x) is fitted by
the analysis as the model its handout asks for (certified.py's table: lmfit, then the
regression's coefficients, tools.fits.regression.polish), and the "report" column gives the
digits of that fit; here its formula also runs through the regression directly.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from statsmodels.regression.linear_model import OLS

from labscribe.tools.analysis.folder import analyse
from labscribe.tools.fits.regression import Regression, regress
from labscribe.tools.fits.regression_request import Ask
from labscribe.tools.fits.regression_roles import Roles, formula_roles
from labscribe.tools.formats.tables import Table, read_data
from labscribe.tools.tool import Folder

STRD = Path(__file__).resolve().parent / "strd"
MAX_DIGITS = 15.0  # NIST certifies 15 significant digits
BUDGET_SECONDS = 60.0


@dataclass
class Digits:
    """Agreeing digits of one dataset's coefficients and standard deviations."""

    name: str
    difficulty: str
    predictors: int
    through: str
    """"the analysis" (a folder run through `analyse`) or "the regression" (direct)."""
    coefficients: dict[str, float] = field(default_factory=dict)
    errors: dict[str, float] = field(default_factory=dict)
    naive: dict[str, float] = field(default_factory=dict)
    """The coefficients' digits from statsmodels OLS on the raw design, default solver."""
    r_squared: float | None = None
    conditions: tuple[float, float] = (math.nan, math.nan)
    """The design's condition number as written, and centred and scaled (the regression's)."""
    note: str = ""

    @property
    def lowest(self) -> float:
        return min([*self.coefficients.values(), *self.errors.values()], default=0.0)


def lre(value: float, certified: float) -> float:
    """NIST's log relative error: agreeing digits, at most MAX_DIGITS; the log absolute
    error where the certified value is 0 (Wampler1's standard deviations)."""
    error = abs(value - certified) / (abs(certified) if certified else 1.0)
    return MAX_DIGITS if error == 0 else max(0.0, min(MAX_DIGITS, -math.log10(error)))


def measure(dataset: dict, strd: Path, root: Path) -> Digits:
    """The digits labscribe recovers of `dataset` (a linear set of strd.json)."""
    table = read_data(Folder(strd), dataset["csv"]).tables[0]
    roles = formula_roles(dataset["model"], table.summary)
    assert isinstance(roles, Roles), dataset["name"]
    several = isinstance(dataset["x_column"], list)
    if several:
        regression, through = _through_the_analysis(dataset, strd, root), "the analysis"
    else:
        regression, through = regress(table, roles, Ask(task="", number=1)), "the regression"
    predictors = len(dataset["x_column"]) if several else 1
    digits = Digits(dataset["name"], dataset["difficulty"], predictors, through)
    if not regression.done:
        digits.note = regression.why_not
        return digits
    found = {c.name: c for c in regression.coefficients}
    naive, raw = _naive(table, roles)
    digits.conditions = (raw, regression.condition_number or math.nan)
    for name, certified in dataset["certified"].items():
        digits.coefficients[name] = lre(found[name].value, certified["value"])
        digits.errors[name] = lre(found[name].stderr or 0.0, certified["stderr"])
        digits.naive[name] = lre(naive[name], certified["value"])
    if dataset.get("r_squared") is not None and regression.r_squared is not None:
        digits.r_squared = lre(regression.r_squared, dataset["r_squared"])
    return digits


def _through_the_analysis(dataset: dict, strd: Path, root: Path) -> Regression:
    folder = root / dataset["name"]
    folder.mkdir(parents=True)
    (folder / "data.csv").write_text((strd / dataset["csv"]).read_text())
    (folder / "handout.md").write_text(
        f"# {dataset['name']}\n\nTasks\n\n1. Fit the model {dataset['model']} to the data "
        "(multiple linear regression).\n"
    )
    analysis = analyse(Folder(folder), budget_seconds=BUDGET_SECONDS)
    return analysis.regressions[0] if analysis.regressions else Regression(task="", number=1)


def _naive(table: Table, roles: Roles) -> tuple[dict[str, float], float]:
    """statsmodels OLS on the design as the formula writes it, default solver (pinv), and
    that design's condition number."""
    rows = table.frame[[roles.response, *roles.predictors]].to_numpy(dtype=float)
    x = {key: rows[:, i + 1] for i, key in enumerate(roles.predictors)}
    design = np.column_stack([
        t.factor * np.prod([x[k] ** p for k, p in t.powers], axis=0) * np.ones(len(rows))
        for t in roles.terms if t.powers is not None
    ])  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # statsmodels warns of Filip's rank, as it should
        fitted = OLS(rows[:, 0], design).fit()
    values = {t.name: float(v) for t, v in zip(roles.terms, fitted.params, strict=True)}
    return values, float(np.linalg.cond(design))


def report(results: list[Digits], curves: Sequence[Any] = ()) -> list[str]:
    """The markdown table of agreeing digits, then each dataset's digits per parameter;
    `curves` (certified.py's outcomes, each with the `found` values of the analysis's
    fit) give the digits of the fit a report of a one-predictor set shows."""
    shown = {o.name: o.found for o in curves}
    certified = {d["name"]: d["certified"] for d in _linear()}
    lines = [
        "NIST StRD linear regressions: agreeing digits (LRE, at most 15) of the coefficients "
        "and their standard deviations; naive = statsmodels OLS on the design as written "
        "(default solver); report = the fit the report of a one-predictor folder shows.",
        "",
        "| dataset | NIST difficulty | predictors | through | coefficients (lowest) | "
        "standard deviations (lowest) | naive coefficients (lowest) | report (lowest) | R² |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for d in results:
        if d.note:
            lines.append(f"| {d.name} | {d.difficulty} | {d.predictors} | {d.through} | "
                         f"not done: {d.note} | | | | |")  # fmt: skip
            continue
        r2 = f"{d.r_squared:.1f}" if d.r_squared is not None else "–"
        found = shown.get(d.name) or {}
        fitted = [lre(found[n], c["value"]) for n, c in certified[d.name].items() if n in found]
        lm = f"{min(fitted):.1f}" if fitted and len(fitted) == len(d.coefficients) else "–"
        lines.append(
            f"| {d.name} | {d.difficulty} | {d.predictors} | {d.through} | "
            f"{min(d.coefficients.values()):.1f} | {min(d.errors.values()):.1f} | "
            f"{min(d.naive.values()):.1f} | {lm} | {r2} |"
        )
    lines += ["", "Per parameter (coefficient / standard deviation), and the design's "
              "condition number as written and centred and scaled:"]  # fmt: skip
    for d in results:
        per = ", ".join(f"{n} {d.coefficients[n]:.1f}/{d.errors[n]:.1f}" for n in d.coefficients)
        lines.append(f"- {d.name}: {per}; condition {d.conditions[0]:.2g} -> "
                     f"{d.conditions[1]:.2g}")  # fmt: skip
    return lines


def _linear() -> list[dict]:
    return [d for d in json.loads((STRD / "strd.json").read_text())["datasets"]
            if d["kind"] == "linear"]  # fmt: skip
