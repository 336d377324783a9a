"""The columns forming adds to a table: the formed column, marked with how it was formed
and from which columns, and the uncertainty column beside it, given or propagated to first
order from the uncertainties of its inputs. Shared by every module that forms a quantity
(tools.formulas.formed_columns, the count rates and background-corrected counts of
tools.fits), so a formed column reads the same wherever it was made.
"""

from __future__ import annotations

import numpy as np
import sympy

from labscribe.tools.columns.column import Column
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.axis_expressions import Wanted
from labscribe.tools.formulas.formed_inputs import Known


def propagate(
    table: Table, wanted: Wanted, known: dict[str, Known], formed: tuple[str, str, float]
) -> None:
    """Beside a formed column, its uncertainty propagated to first order (the GUM's law,
    as the uncertainties package applies it) from the uncertainty columns of the columns it
    is formed from (`sigma_E` beside `E_Ka` gives u(√E)), so that its fits are weighted as
    the raw column's are; columns without one are taken as exact, and the column says so."""
    given = {name: k.uncertainty for name, k in known.items() if k.uncertainty is not None}
    if not given:
        return
    names = sorted(known)
    by_name = {symbol.name: symbol for symbol in wanted.expression.free_symbols}
    symbols = [by_name[n] for n in names]
    terms = []
    with np.errstate(all="ignore"):
        for name in sorted(given):
            slope = sympy.lambdify(symbols, sympy.diff(wanted.expression, by_name[name]), "numpy")
            at = np.broadcast_to(slope(*(known[n].values for n in names)), len(table.frame))
            terms.append((np.asarray(at, dtype=float) * given[name].values) ** 2)
        sigma = np.sqrt(np.sum(terms, axis=0))
    if not np.isfinite(sigma).any():
        return
    sources = ", ".join(given[n].text for n in sorted(given))
    exact = [known[n].text for n in names if n not in given]
    how = f"u({wanted.name}) propagated to first order from {sources}" + (
        f", {', '.join(exact)} taken as exact" if exact else ""
    )
    key, unit, scale = formed  # the formed column's key and unit, and its values' scale
    sigma_key = append_formed(table, f"u({wanted.name})", sigma * scale, unit, how, [key])
    next(c for c in table.summary.columns if c.key == sigma_key).uncertainty_of = key


def append_formed(
    table: Table, name: str, values: np.ndarray, unit: str, how: str, sources: list[str]
) -> str:
    """Add the column `name` to `table`; its key (the name, unless a column holds it)."""
    summary = table.summary
    keys = {c.key for c in summary.columns}
    key = name if name not in keys else f"{name} (formed)"
    table.frame[key] = values
    summary.columns.append(
        Column.of_values(values, key=key, header="", name=name, unit=unit, formed=how,
                         formed_from=sources)
    )  # fmt: skip
    return key


def append_uncertainty(table: Table, key: str, sigma: np.ndarray, how: str) -> None:
    """Add to `table` the uncertainty `sigma` of its formed column `key`, in that column's
    unit, beside it (`σ N/t`), so that its fits are weighted by it."""
    formed = table.summary.column(key)
    table.frame[f"σ {key}"] = sigma
    table.summary.columns.append(
        Column.of_values(sigma, key=f"σ {key}", header="", name=f"σ {formed.name}",
                         unit=formed.unit, uncertainty_of=key, formed=how)
    )  # fmt: skip
