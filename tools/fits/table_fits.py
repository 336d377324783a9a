"""Every table of the folder fitted: each table's asked models first, then the standard
models of its columns (tools.fits.column_fits), so a folder of many tables spends the time budget on
the tasks' lines before anything else, and the fits listed table by table.
"""

from __future__ import annotations

from labscribe.guards.bounds import ComputeBudget
from labscribe.tools.assignment.requested import Request
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.roles import Handout
from labscribe.tools.fits.column_fits import asked_fits, dependent_columns, standard_fits
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.range_fits import alternative
from labscribe.tools.formats.tables import Table, TableSummary


def fit_tables(
    tables: list[Table],
    *,
    budget: ComputeBudget,
    requests: list[Request],
    summaries: list[TableSummary],
    handout: Handout,
) -> tuple[list[Fit], list[str]]:
    """The fits of every table, table by table, and why any table's failed: each table's
    dependent columns (at most MAX_FITTED_COLUMNS) against its x, weighted by their
    uncertainty columns, with the models `requests` ask for and the best standard model of
    each. Every table's asked models are fitted before any standard one, so the budget
    goes to the tasks' lines first; columns reached once `budget` is spent get the note
    OUT_OF_TIME instead of a fit."""
    failed: list[str] = []
    asked: dict[str, tuple[list[Column], list[Fit]]] = {}
    for table in tables:
        try:
            dependent = dependent_columns(table)
            asked[table.summary.id] = dependent, asked_fits(
                table, dependent, budget=budget, requests=requests, tables=summaries,
                handout=handout,
            )  # fmt: skip
        except Exception as exc:  # a fit's failure must not cost the rest of the analysis
            failed.append(f"fitting {table.summary.id} failed: {exc}"[:200])
    fits: list[Fit] = []
    for table in tables:
        if table.summary.id not in asked:
            continue
        dependent, own = asked[table.summary.id]
        try:
            standard = standard_fits(table, dependent, own, budget=budget)
        except Exception as exc:
            failed.append(f"fitting {table.summary.id} failed: {exc}"[:200])
            standard = []
        fits += merged(dependent, own, standard)
    return fits, failed


def merged(dependent: list[Column], asked: list[Fit], standard: list[Fit]) -> list[Fit]:
    """A table's fits column by column, each column's asked models before its standard
    one, and each asked model that fails with its alternative (tools.fits.range_fits)."""
    order = {c.key: i for i, c in enumerate(dependent)}
    fits = sorted(asked + standard, key=lambda f: order.get(f.y, len(order)))
    return [alternative(f, fits) if f.requested and f.model and not f.good else f for f in fits]
