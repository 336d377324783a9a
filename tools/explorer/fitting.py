"""The explorer's analysis tools: `fit` fits a model the explorer proposes to two columns of
a table, `derive` computes a quantity from the fitted parameters and the settings. The model
directs; labscribe computes, by the analysis's own code (tools.fits.column_fits,
tools.formulas.quantities), and what they find joins the analysis in the run's state (`explored`),
so the writer's brief and the number checks have it too. Both are read-only: the same call on the
same data answers the same.
"""

from __future__ import annotations

import hashlib
import json

from pydantic import BaseModel, Field

from labscribe.guards.detectors import ToolClass
from labscribe.guards.guard_state import Meaning
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.requested import Request
from labscribe.tools.base import Answer, ToolError
from labscribe.tools.columns.column import Column
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.requested_fits import fit_request
from labscribe.tools.fits.shapes import BY_NAME
from labscribe.tools.formats.decoding import decoded_tables
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula
from labscribe.tools.formulas.quantities import derive, known_values
from labscribe.tools.messages import (
    NO_SUCH_COLUMN,
    NO_SUCH_TABLE,
    NOT_A_FORMULA,
    NOT_FITTED,
    SAME_COLUMN,
    SEVERAL_TABLES,
)
from labscribe.tools.tool import Folder, Tool, version_in

EXPLORER_TASK = "the explorer's fit"


class FitArgs(BaseModel):
    path: str = Field(description="Data file; `file#2` for its second table.")
    x: str = Field(description="Column to fit against.")
    y: str = Field(description="Column to fit.")
    formula: str = Field(description="`T = a*L^b`, or a standard model: linear, exponential...")


class DeriveArgs(BaseModel):
    name: str = Field(description="Quantity, such as g.")
    expression: str = Field(description="From fitted parameters and settings: `4*pi^2/a^2`.")
    unit: str = Field(default="", description="Its unit, such as m/s^2.")


def run_fit(folder: Folder, args: FitArgs) -> Answer:
    table = _table(folder, args.path)
    x, y = _column(table, args.x), _column(table, args.y)
    if x.key == y.key:
        raise ToolError(SAME_COLUMN)
    request = _request(args.formula, x)
    fit = Fit.of(table.summary.id, x, y, explorer=True)
    sigma_key = next((c.key for c in table.summary.columns if c.uncertainty_of == y.key), None)
    sigma = table.frame[sigma_key].to_numpy() if sigma_key else None
    done = fit_request(fit, request, table.frame[x.key].to_numpy(),
                       table.frame[y.key].to_numpy(), sigma, sigma_name=sigma_key,
                       x_names=(x.name,))  # fmt: skip
    if done.model is None:
        raise ToolError(NOT_FITTED.format(y=y.name, x=x.name, why="; ".join(done.notes)))
    return Answer(_fit_text(done), record={"explored": [{"fit": done.model_dump(mode="json")}]})


def run_derive(folder: Folder, args: DeriveArgs) -> Answer:
    analysis = Analysis.model_validate(dict(folder.analysis))
    try:
        derived = derive(args.name, args.expression, args.unit,
                         known_values(analysis.fits, analysis.parameters))  # fmt: skip
    except FormulaError as exc:
        raise ToolError(str(exc)) from exc
    record = {"explored": [{"derived": derived.model_dump(mode="json")}]}
    return Answer(derived.text(), record=record)


def _table(folder: Folder, path: str) -> Table:
    source, _, block = path.partition("#")
    tables = decoded_tables(folder, source)
    if block:
        found = next((t for t in tables if t.summary.id == path), None)
        if found is None:
            ids = ", ".join(t.summary.id for t in tables)
            raise ToolError(NO_SUCH_TABLE.format(source=source, path=path, tables=ids))
        return found
    if len(tables) > 1:
        ids = ", ".join(t.summary.id for t in tables)
        raise ToolError(SEVERAL_TABLES.format(source=source, count=len(tables), tables=ids))
    return tables[0]


def _column(table: Table, name: str) -> Column:
    wanted = name.strip().lower()
    for column in table.summary.columns:
        if wanted in (column.key.lower(), column.name.lower(), column.header.lower()):
            return column
    names = ", ".join(c.name for c in table.summary.columns)
    raise ToolError(NO_SUCH_COLUMN.format(table=table.summary.id, name=name, columns=names))


def _request(formula: str, x: Column) -> Request:
    """The model the explorer asks for, as a request the analysis's fits take."""
    text = formula.strip()
    if text.lower() in BY_NAME:
        return Request(task=EXPLORER_TASK, number=0, shape=text.lower())
    try:
        parse_formula(text if "=" in text else f"y = {text}", x_names=(x.name, x.key))
    except FormulaError as exc:
        raise ToolError(NOT_A_FORMULA.format(formula=formula, reason=exc)) from exc
    return Request(task=EXPLORER_TASK, number=0, formula=text if "=" in text else f"y = {text}")


def _fit_text(fit: Fit) -> str:
    values = fit.values_text()
    chi = f", reduced χ² = {fit.reduced_chi_square:.3g}" if fit.reduced_chi_square else ""
    verdict = "" if fit.good else f" It does not describe the data: {'; '.join(fit.notes)}."
    return (
        f"Fit of {fit.y} against {fit.x} in {fit.table} with {fit.model}: {values} "
        f"(± one standard error); R² = {fit.r_squared:.5f}{chi}.{verdict} derive() can use "
        "these parameters by their names."
    )


def _analysis_version(folder: Folder, args: DeriveArgs) -> str:
    """What a derivation reads: the analysis so far."""
    return hashlib.sha256(json.dumps(folder.analysis, sort_keys=True).encode()).hexdigest()[:16]


FIT = Tool(
    name="fit",
    description="Fit a model to two columns of a table: parameters ± errors with units, R².",
    args_schema=FitArgs,
    run=run_fit,
    tool_class=ToolClass.READ_ONLY,
    meaning=Meaning(paths=("path",)),
    version=lambda folder, args: version_in(folder, args.path.partition("#")[0]),
    isolated=True,
)

DERIVE = Tool(
    name="derive",
    description="Compute a quantity from fitted values, its uncertainty propagated.",
    args_schema=DeriveArgs,
    run=run_derive,
    tool_class=ToolClass.READ_ONLY,
    meaning=Meaning(ignored=("unit",)),
    version=_analysis_version,
    isolated=True,
    reads_analysis=True,
)
