"""A model an assignment asks for, fitted with the roles the assignment gives its symbols:
the response and the variable as the columns they were matched to (tools.columns.roles), the
physical constants by their CODATA values (tools.formulas.constants), and, where constants are used
or the parameter asked for is one (g in T = 2π√(L/g)), in SI, so that the answer comes out
in SI units ("g = 9.79 ± 0.05 m/s²").

A standard model a task names in words, and a formula that does not parse, go to
tools.fits.requested_fits as they are.
"""

from __future__ import annotations

import numpy as np

from labscribe.tools.assignment.handout_units import sentences
from labscribe.tools.assignment.requested import Request
from labscribe.tools.columns.column_names import Named
from labscribe.tools.columns.roles import Handout
from labscribe.tools.columns.si_units import si_of
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.fits.fit_runs import prepare
from labscribe.tools.fits.requested_fits import fit_formula, fit_request
from labscribe.tools.formulas.constants import (
    as_stated,
    asked_symbols,
    asks_a_constant,
    constants_in,
    in_si,
    uses,
    with_si_units,
)
from labscribe.tools.formulas.formula_notation import formulas_in, plain_symbol
from labscribe.tools.formulas.formula_parse import (
    Formula,
    FormulaError,
    parse_expression,
    parse_formula,
)
from labscribe.tools.formulas.given_values import as_given, defined_values, given_units
from labscribe.tools.formulas.held_powers import held_note, held_square, in_squares
from labscribe.tools.formulas.point_values import is_point_value
from labscribe.tools.formulas.symbol_meanings import column_meant, symbol_meanings


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
    they are used; else as tools.fits.requested_fits fits it."""
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
    if held_square(fit.x, fit.x_unit, formula.x) and (squares := in_squares(formula)):
        formula = squares  # `U2 [V2]` beside F = k·U²: the column is U² already
        fit = fit.model_copy(update={"notes": [*fit.notes, held_note(fit.x, formula.x)]})
    if (derived := _derived_response(formula, handout, named.symbols.get(fit.y))) is not None:
        return fit.model_copy(update={"notes": [*fit.notes, _not_the_response(derived, fit)]})
    if variables := column_parameters(formula.parameters, named, handout.text, x_names,
                                      (fit.x, fit.y)):  # fmt: skip
        return fit.model_copy(update={"notes": [*fit.notes, _not_one_variable(variables, fit)]})
    if inside := [p for p in formula.parameters if p in _made_of(fit.x) | _made_of(fit.y)]:
        return fit.model_copy(update={"notes": [*fit.notes, _not_a_parameter(inside, fit)]})
    prepared = prepare(fit, x, y, sigma)
    if isinstance(prepared, Fit):
        return prepared
    fit, x, y, sigma = prepared
    written = formula
    defined = defined_values(request.task, handout.values, handout.stated)  # V_T = k_B T/e
    formula, fit, (x, y, sigma), given = as_given(
        formula, fit, request.task, asked, x, y, sigma, defined
    )
    x_si, y_si = si_of(fit.x_unit), si_of(fit.y_unit)
    text = "\n".join((handout.text, *handout.tasks))
    constants = as_stated(constants_in(formula, asked=asked, text=text, x_si=x_si, y_si=y_si),
                          defined)  # fmt: skip
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


def column_parameters(
    parameters: tuple[str, ...],
    named: Named,
    text: str,
    names: tuple[str, ...],
    fitted: tuple[str, str],
) -> list[str]:
    """The symbols among a formula's `parameters` that stand for columns of the table (of
    `names`) other than the two `fitted` (x, y): matched to one by the roles (`named`), or
    named by the handout's `text` in words that name one ("with t the ageing time in weeks"
    beside `ageing_time_wk`). They are variables of the model, never parameters."""
    matched = {symbol for key, symbol in named.symbols.items() if key not in fitted}
    meanings = symbol_meanings(text)
    others = tuple(name for name in names if name not in fitted)
    return [
        p for p in parameters
        if p in matched or (p in meanings and column_meant(meanings[p], others) is not None)
    ]  # fmt: skip


def _not_one_variable(variables: list[str], fit: Fit) -> str:
    """The note of a model with more variables than the one a curve is fitted against."""
    names = " and ".join(variables)
    what = "stands for a column" if len(variables) == 1 else "stand for columns"
    return (
        f"not fitted: the model has more than one variable ({names} {what} of the data "
        f"besides {fit.x_label}), and this report fits a model against one variable only; fitting "
        "it here would turn a column into a parameter"
    )


def _made_of(name: str) -> set[str]:
    """The quantities a formed column's `name` (`1/b`, `ln R`) is made of; none for a column
    named by one symbol."""
    try:
        expression = parse_expression(name)
    except FormulaError:
        return set()
    return set() if expression.is_Symbol else {s.name for s in expression.free_symbols}


def _not_a_parameter(symbols: list[str], fit: Fit) -> str:
    """The note of a model whose parameter is the quantity a fitted column is formed from."""
    formed = [name for name in (fit.y, fit.x) if set(symbols) & _made_of(name)]
    one = len(symbols) == 1
    return (
        f"not fitted: {' and '.join(symbols)} {'is' if one else 'are'} measured "
        f"({' and '.join(formed)} formed from {'it' if one else 'them'}), so the model cannot "
        f"take {'it' if one else 'them'} as a parameter"
    )


def _derived_response(formula: Formula, handout: Handout, symbol: str | None) -> str | None:
    """The handout's definition (`η = P_mech/P_el`) of `formula`'s response as a quantity
    worked out from others (none of the model's parameters), where the column fitted (its
    `symbol`) is not that response; None where the response is no such quantity, or is the
    column fitted."""
    if formula.y is None or symbol == formula.y:
        return None
    for sentence in sentences("\n".join((handout.text, *handout.tasks))):
        for written in formulas_in(sentence):
            left, _, right = written.partition("=")
            if plain_symbol(left) != formula.y or is_point_value(right):
                continue
            try:
                names = {s.name for s in parse_expression(right).free_symbols}
            except FormulaError:
                continue
            if names and not names & set(formula.parameters):
                return " ".join(written.split())
    return None


def _not_the_response(definition: str, fit: Fit) -> str:
    """The note of a model whose response is a quantity worked out, not the column fitted."""
    name = definition.split("=")[0].strip()
    return (
        f"not fitted: the model's {name} is worked out from other quantities ({definition}), "
        f"which this report does not do; {fit.y_label} is not {name}"
    )
