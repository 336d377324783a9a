"""A model an assignment asks for, fitted with the roles the assignment gives its symbols:
the response and the variable as the columns they were matched to (tools.roles), the
physical constants by their CODATA values (tools.constants), and, where constants are used
or the parameter asked for is one (g in T = 2π√(L/g)), in SI, so that the answer comes out
in SI units ("g = 9.79 ± 0.05 m/s²").

A standard model a task names in words, and a formula that does not parse, go to
tools.requested_fits as they are.
"""

from __future__ import annotations

import numpy as np

from labscribe.tools.column_names import Named
from labscribe.tools.constants import (
    asked_symbols,
    asks_a_constant,
    constants_in,
    in_si,
    uses,
    with_si_units,
)
from labscribe.tools.fit_result import Fit
from labscribe.tools.fit_runs import prepare
from labscribe.tools.formula_parse import FormulaError, parse_formula
from labscribe.tools.given_values import as_given, given_units, given_values
from labscribe.tools.requested import Request
from labscribe.tools.requested_fits import fit_formula, fit_request
from labscribe.tools.roles import Handout
from labscribe.tools.si_units import si_of


def fit_asked(
    fit: Fit,
    request: Request,
    named: Named,
    x: np.ndarray,
    y: np.ndarray,
    sigma: np.ndarray | None,
    *,
    sigma_name: str | None,
    x_names: tuple[str, ...],
    handout: Handout,
) -> Fit:
    """`fit` (which names the columns) completed with the model `request` asks for: its
    formula read with the symbols `named` matched to the columns, constants in, in SI where
    they are used; else as tools.requested_fits fits it."""
    if request.formula is None:
        return fit_request(fit, request, x, y, sigma, sigma_name=sigma_name, x_names=x_names)
    asked = asked_symbols(handout.tasks, handout.text, handout.glossary)
    # A symbol the task asks to determine is a parameter, never the column it is fitted
    # against: "determine the time constant τ" names no time column, whatever its words.
    variable = named.symbols.get(fit.x)
    variable = None if variable in asked else variable
    try:
        formula = parse_formula(request.formula, x_names, variable=variable,
                                response=named.symbols.get(fit.y))  # fmt: skip
    except FormulaError:
        return fit_request(fit, request, x, y, sigma, sigma_name=sigma_name, x_names=x_names)
    prepared = prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    written = formula
    formula, fit, (x, y, sigma) = as_given(formula, fit, request.task, asked, x, y, sigma)
    given = given_values(request.task, [p for p in written.parameters if p not in asked],
                         [fit.x_unit, fit.y_unit]) if formula is not written else {}  # fmt: skip
    x_si, y_si = si_of(fit.x_unit), si_of(fit.y_unit)
    text = "\n".join((handout.text, *handout.tasks))
    constants = constants_in(formula, asked=asked, text=text, x_si=x_si, y_si=y_si)
    if not constants and not asks_a_constant(formula, asked, (fit.x_unit, fit.y_unit)):
        fitted = fit_formula(fit, formula, x, y, sigma, sigma_name=sigma_name)
        return given_units(fitted, written, given)
    fitted = fit_formula(fit, in_si(formula, constants, x_si, y_si), x, y, sigma,
                         sigma_name=sigma_name)  # fmt: skip
    if x_si is not None and y_si is not None:
        return with_si_units(fitted, formula, constants, x_si, y_si)
    bare = [name for name, si in ((fit.x, x_si), (fit.y, y_si)) if si is None]
    note = (
        f"{' and '.join(bare)} {'has' if len(bare) == 1 else 'have'} no unit in the file: "
        "taken in SI units, as the constants are, so the parameters' units are not given"
    )
    stripped = [p.model_copy(update={"unit": ""}) for p in fitted.parameters]
    return fitted.model_copy(update={"parameters": stripped, "constants": uses(constants),
                                     "notes": [*fitted.notes, note]})  # fmt: skip
