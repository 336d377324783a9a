"""The columns and stated values a formed quantity's formula takes (tools.formulas.formed_columns),
each as its symbol sees it: values and unit, a temperature in kelvin, an angle in radians,
a difference of temperatures as it is, and a value the handout's prose states."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.symbol_dimensions import dimension_is, pint_unit
from labscribe.tools.columns.unit_library import unit_registry
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.formed_units import Units, multiplicative
from labscribe.tools.formulas.formula_notation import plain_symbol


@dataclass
class Known:
    """A column of a table as a formula's symbol sees it: its values and unit."""

    name: str
    values: np.ndarray
    units: Units
    text: str
    """How a description names it: `T`, `boiling point in K`."""
    uncertainty: Known | None = None
    """Its uncertainty column's values and name, in its own unit, where it has one."""
    stated: str = ""
    """For a value the handout states (`Δt = 10 s`), as it states it; "" for a column."""


@dataclass(frozen=True)
class Inputs:
    """What a formed quantity may take besides its table's columns: the values the handout
    states, by symbol, and the tasks' text, whose naming of a column (`hResorte`) settles
    which of several a symbol (h) means."""

    stated: dict[str, Known]
    tasks: str = ""


def known_column(symbol: str, columns: list[Column], table: Table) -> Known:
    """The columns' values as a formula uses them (repeated series by their mean): a
    temperature in °C or °F in kelvin (a formula of physics takes absolute temperatures),
    converted by pint."""
    column = columns[0]
    values = table.frame[[c.key for c in columns]].to_numpy(dtype=float).mean(axis=1)
    names = list(dict.fromkeys(c.name for c in columns))
    text = (
        column.name if len(columns) == 1
        else f"the mean of the {len(columns)} {column.name}" if len(names) == 1
        else f"the mean of {', '.join(names[:-1])} and {names[-1]}"
    )  # fmt: skip
    unit = pint_unit(column.unit)
    paired = [c for c in table.summary.columns if c.uncertainty_of == column.key]
    sigma = (
        table.frame[paired[0].key].to_numpy(dtype=float) if len(columns) == 1 and paired else None
    )
    if unit is not None and _difference(symbol, column) and not multiplicative(unit):
        # a difference of temperatures (ΔT in °C, Capstone's `deg C`) is the same in kelvin
        known = Known(symbol, values, {"K": Fraction(1)}, text)
        step = 1.0
    elif unit is not None and dimension_is(column.unit, ("radian",)):
        # an angle in degrees is in radians in a formula's cos θ, as numpy takes it
        step = unit_registry().Quantity(1, unit).to("radian").magnitude
        known = Known(symbol, values * step, {}, f"{text} in rad" if step != 1 else text)
    elif unit is not None and not multiplicative(unit):
        quantity = unit_registry().Quantity
        kelvin = quantity(values, unit).to("kelvin").magnitude
        step = quantity(1, unit).to("kelvin").magnitude - quantity(0, unit).to("kelvin").magnitude
        known = Known(symbol, np.asarray(kelvin), {"K": Fraction(1)}, f"{text} in K")
    else:
        known = Known(symbol, values, {column.unit: Fraction(1)} if column.unit else {}, text)
        step = 1.0
    if sigma is not None:
        known.uncertainty = Known(paired[0].name, sigma * step, known.units, paired[0].name)
    return known


def reading_known(symbol: str, column: Known, row: int, where: str) -> Known:
    """The one reading of `column` in `row` as the formula's `symbol` (h(m=0), T_0)."""
    sigma = column.uncertainty
    return Known(
        symbol, np.float64(column.values[row]), column.units, f"{column.text} {where}",
        None if sigma is None else Known(sigma.name, np.float64(sigma.values[row]), sigma.units,
                                         f"{sigma.text} {where}"),
    )  # fmt: skip


def stated_knowns(stated: Sequence[ParameterRow]) -> dict[str, Known]:
    """The values the handout states, by the names its formulas give their symbols (Δt is
    `Deltat`); a temperature on a scale with an offset is left out (a formula takes kelvin)."""
    given: dict[str, Known] = {}
    for row in stated:
        unit = pint_unit(row.unit) if row.unit else None
        if row.number is None or (row.unit and (unit is None or not multiplicative(unit))):
            continue
        symbol = plain_symbol(row.name)
        said = f"{row.name} = {row.number:g}{f' {row.unit}' if row.unit else ''} as stated"
        units = unit_factors(row.unit) if row.unit else {}
        given[symbol] = Known(row.name, np.float64(row.number), units, row.name, stated=said)
    return given


_POWER = re.compile(r"^(?P<unit>[^\W\d_¹²³⁴⁻]+)(?:\^\(?(?P<digits>-?\d+)\)?|(?P<sup>[⁻]?[¹²³⁴]))?$")
_SUPERSCRIPT = str.maketrans("⁻¹²³⁴", "-1234")


def unit_factors(unit: str) -> dict[str, Fraction]:
    """A stated unit as the factors a formula's units multiply: `µV/K` is µV·K⁻¹, `m/s²`
    m·s⁻², `J/mol/K` J·mol⁻¹·K⁻¹ (so that (V − V₀)/k in µV over µV/K is in K); a unit
    of other shape is one factor."""
    factors: dict[str, Fraction] = {}
    for place, part in enumerate(unit.split("/")):
        for factor in part.split("·"):
            if factor.strip() == "1" and not place:
                continue  # `1/s`
            power = _POWER.match(factor.strip())
            if power is None:
                return {unit: Fraction(1)}
            written = power["digits"] or (power["sup"] or "1").translate(_SUPERSCRIPT)
            exponent = Fraction(int(written)) * (-1 if place else 1)
            factors[power["unit"]] = factors.get(power["unit"], Fraction(0)) + exponent
    return {name: power for name, power in factors.items() if power}


def _difference(symbol: str, column: Column) -> bool:
    """Whether a symbol or its column names a difference (`ΔT`, `delta_T`)."""
    return symbol.startswith(("Delta", "delta")) or column.name.lstrip().startswith(("Δ", "δ"))
