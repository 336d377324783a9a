"""Physical constants in an assignment's formulas: which of a formula's symbols are constants
(h, c, k_B, e, g, N_A, R, ε0, μ0, σ, G, m_e), with their CODATA values from scipy.constants,
and which are left to fit.

A symbol is a constant only where all of these hold:
- the handout does not ask to determine it ("determine g" in T = 2π√(L/g) makes g the
  parameter to fit; "determine Planck's constant h" makes h one);
- no column of the data is it, and it is neither the response nor the variable;
- the handout names the constant in words ("e is the elementary charge"), or the columns'
  units are known and the formula is consistent with the constant's dimension (k in
  Hooke's law F = k x is no Boltzmann constant: J/K·m is not N);
- a parameter is left to fit.

`e` written as the base of a power (`e^{-t/τ}`) is Euler's number (tools.formulas.formula_notation).
Where constants are used, the formula is fitted in SI units (the data's units converted,
tools.columns.si_units), so every parameter comes out in SI with its unit (h in J·s).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from fractions import Fraction

import sympy
from scipy.constants import physical_constants

from labscribe.tools.assignment.role_phrases import asked_objects, is_symbol, sentences
from labscribe.tools.columns.si_units import SI, dimension_of, si_of, unit_text
from labscribe.tools.columns.si_units import u as units
from labscribe.tools.fits.fit_result import ConstantUse, Fit
from labscribe.tools.formulas.dimensions import solve_dimensions
from labscribe.tools.formulas.formula_notation import a_word_of_one_letter
from labscribe.tools.formulas.formula_parse import Formula, substituted

# Which CODATA set scipy.constants holds, told by a value each set revised (the electron's
# mass): scipy has moved from one set to the next over its releases.
_CODATA_BY_ELECTRON_MASS = {9.1093837139e-31: "CODATA 2022", 9.1093837015e-31: "CODATA 2018"}
CODATA = _CODATA_BY_ELECTRON_MASS.get(physical_constants["electron mass"][0], "CODATA")


@dataclass(frozen=True)
class PhysicalConstant:
    symbol: str
    """As a report writes it."""
    spellings: frozenset[str]
    """The names a formula may use for it, as tools.formulas.formula_notation spells them."""
    codata: str
    """Its key in scipy.constants.physical_constants."""
    name: str
    words: re.Pattern[str]
    """How a handout names it."""
    unit: sympy.Expr
    stated: tuple[float, str] | None = None
    """The value in SI and as written where the handout states its own (a local g)."""

    @property
    def value(self) -> float:
        return self.stated[0] if self.stated else float(physical_constants[self.codata][0])

    @property
    def uncertainty(self) -> float:
        return 0.0 if self.stated else float(physical_constants[self.codata][2])


def _constant(
    symbol: str, spellings: set[str], codata: str, name: str, words: str, unit: sympy.Expr
) -> PhysicalConstant:
    pattern = re.compile(words, re.IGNORECASE)
    return PhysicalConstant(symbol, frozenset(spellings), codata, name, pattern, unit)


TABLE: tuple[PhysicalConstant, ...] = (
    _constant("h", {"h"}, "Planck constant", "the Planck constant",
              r"planck|普朗克", units.joule * units.second),
    _constant("c", {"c", "c_0", "c0"}, "speed of light in vacuum", "the speed of light",
              r"speed of light|velocity of light|lichtgeschwindigkeit|光速",
              units.meter / units.second),
    _constant("k_B", {"k_B", "kB", "k"}, "Boltzmann constant", "the Boltzmann constant",
              r"(?<!stefan-)(?<!stefan )boltzmann(?:'s|’s)? ?(?:constant|konstante)|"
              r"玻尔兹曼常", units.joule / units.kelvin),
    _constant("e", {"e", "q_e"}, "elementary charge", "the elementary charge",
              r"elementary charge|charge of (?:the|an) electron|electron(?:ic)? charge|"
              r"elementarladung|元电荷|电子电[荷量]", units.coulomb),
    _constant("g", {"g", "g_0", "g_n"}, "standard acceleration of gravity", "standard gravity",
              r"gravitational acceleration|acceleration (?:due to|of) gravity|free[- ]fall "
              r"acceleration|standard gravity|erdbeschleunigung|fallbeschleunigung|重力加速度",
              units.meter / units.second**2),
    _constant("N_A", {"N_A", "NA"}, "Avogadro constant", "the Avogadro constant",
              r"avogadro|阿伏[伽加]德罗", 1 / units.mole),
    _constant("R", {"R"}, "molar gas constant", "the molar gas constant",
              r"gas constant|gaskonstante|气体常", units.joule / (units.mole * units.kelvin)),
    _constant("ε0", {"epsilon_0", "epsilon0", "eps0", "eps_0", "varepsilon_0", "varepsilon0"},
              "vacuum electric permittivity", "the vacuum permittivity",
              r"permittivity|electric constant|dielektrizitätskonstante|feldkonstante|介电常",
              units.farad / units.meter),
    _constant("μ0", {"mu_0", "mu0"}, "vacuum mag. permeability", "the vacuum permeability",
              r"permeability|magnetic constant|permeabilität|磁导率",
              units.newton / units.ampere**2),
    _constant("σ", {"sigma", "sigma_SB"}, "Stefan-Boltzmann constant",
              "the Stefan–Boltzmann constant", r"stefan", units.watt /
              (units.meter**2 * units.kelvin**4)),
    _constant("G", {"G"}, "Newtonian constant of gravitation", "the gravitational constant",
              r"gravitational constant|constant of gravitation|gravitationskonstante|引力常",
              units.meter**3 / (units.kilogram * units.second**2)),
    _constant("m_e", {"m_e", "me"}, "electron mass", "the electron mass",
              r"electron(?:'s|’s)? mass|mass of (?:the|an) electron|elektronenmasse|电子质量",
              units.kilogram),
)  # fmt: skip
BY_SPELLING = {spelling: constant for constant in TABLE for spelling in constant.spellings}


# A quantity formed of symbols asks for it, not for them: "berechnen Sie A/U_0" asks no U_0
# ("compute ρ = f0/Δf" names its inputs f0 and Δf after the equals sign, and asks for them)
_EXPRESSION = re.compile(r"(?<![^\s,;(])(?<!= )[^\s,;()=]+[/·*⋅^][^\s,;()]+")
# A bracket that gives values asks for none: "n (V_T = k_B T/e, k_B = 1,380649×10⁻²³ J/K)"
_GIVEN_ASIDE = re.compile(r"\([^()]*=[^()]*(?:\)|$)")


# A symbol as a task writes it, subscripted as typed (`ϑ₀`) or with an underscore (`V_tot`).
_TOKEN = re.compile(r"[A-Za-z\u0370-\u03ff][A-Za-z0-9_₀-₉ₐₑₒₓₕₖₗₘₙₚₛₜ]*")


def asked_symbols(tasks: tuple[str, ...], text: str, words: dict[str, set[str]]) -> set[str]:
    """The symbols the handout asks to determine: named after a verb that asks for a value
    ("determine g", "find Planck's constant h", "求重力加速度 g"), by the symbol, by the
    words it uses for the symbol, or by a constant's own name ("the gravitational
    acceleration" is g)."""
    asked: set[str] = set()
    for sentence in [s for task in tasks for s in sentences(task)] + sentences(text):
        for phrase in asked_objects(sentence):
            phrase = _EXPRESSION.sub(" ", _GIVEN_ASIDE.sub(" ", phrase))
            tokens = {m[0] for m in _TOKEN.finditer(phrase) if not a_word_of_one_letter(phrase, m)}
            asked |= {t for t in tokens if is_symbol(t) and t not in ("a", "an", "A")}
            lowered = phrase.lower()
            asked |= {s for s, named in words.items() if any(w in lowered for w in named)}
            for constant in TABLE:
                if constant.words.search(phrase):
                    asked |= set(constant.spellings)
    return asked


def asks_a_constant(formula: Formula, asked: set[str], units: tuple[str, str]) -> bool:
    """Whether a parameter the task asks for is the constant its symbol spells (g in
    T = 2π√(L/g), to be given in m/s²), the columns in `units` (variable, response): where
    their units decide its dimension, only if that is the constant's (the rate constant k
    of y = L0·(1 − e^(−k·t)) in 1/d is no Boltzmann constant); never where a column's unit
    is written but cannot be read in SI (a value rescaled beside it would lose its unit)."""
    spelled = [p for p in formula.parameters if p in BY_SPELLING and p in asked]
    x_si, y_si = (si_of(unit) for unit in units)
    unread = any(unit and si is None for unit, si in zip(units, (x_si, y_si), strict=True))
    if not spelled or unread:
        return False
    if x_si is None or y_si is None:
        return True  # no unit written: the columns are taken in SI, as the constants are
    found = parameter_dimensions(formula, {}, x_si, y_si) or {}
    return any(
        found.get(p) is None or found[p] == dimension_of(BY_SPELLING[p].unit) for p in spelled
    )


def constants_in(
    formula: Formula,
    *,
    asked: set[str],
    text: str,
    x_si: SI | None,
    y_si: SI | None,
) -> dict[str, PhysicalConstant]:
    """The symbols of `formula` (parsed, its variable and response chosen) that are physical
    constants, by the rules of this module's docstring; `text` is the handout."""
    candidates = [
        name for name in formula.parameters
        if name in BY_SPELLING and name not in asked and name != formula.y
    ]  # fmt: skip
    chosen: dict[str, PhysicalConstant] = {}
    text = " ".join(text.split())  # a name may run over a line's end: "speed of\nlight"
    for name in candidates:
        constant = BY_SPELLING[name]
        trial = chosen | {name: constant}
        if len(formula.parameters) <= len(trial):
            break  # a parameter must be left to fit
        named = constant.words.search(text) is not None
        if named or (x_si and y_si and consistent(formula, trial, x_si, y_si)):
            chosen = trial
    return chosen


def consistent(
    formula: Formula, constants: dict[str, PhysicalConstant], x_si: SI, y_si: SI
) -> bool:
    """Whether some dimensions of the parameters left make `formula` hold in SI with these
    constants, its variable and response in the units `x_si`, `y_si`."""
    return parameter_dimensions(formula, constants, x_si, y_si) is not None


def parameter_dimensions(
    formula: Formula, constants: dict[str, PhysicalConstant], x_si: SI, y_si: SI
) -> dict[str, tuple[Fraction, ...] | None] | None:
    """Each parameter's SI dimension with these constants (None where the formula does not
    decide it); None when the formula cannot hold in SI."""
    known = {formula.x: x_si.dimension}
    known |= {name: dimension_of(c.unit) for name, c in constants.items()}
    left = tuple(p for p in formula.parameters if p not in constants)
    reading = Formula(formula.text, formula.y, formula.x, formula.expression, left,
                      formula.linear - set(constants))  # fmt: skip
    return solve_dimensions(reading, known, y_si.dimension)


def in_si(
    formula: Formula, constants: dict[str, PhysicalConstant], x_si: SI | None, y_si: SI | None
) -> Formula:
    """`formula` with the constants' values in and, where the columns' units are known, the
    variable and the response converted to SI inside it: fitted to the data as they are
    written, its parameters come out in SI."""
    x = sympy.Symbol(formula.x, real=True)
    values: dict[str, sympy.Expr] = {n: sympy.Float(c.value) for n, c in constants.items()}
    if x_si is not None and (x_si.scale != 1.0 or x_si.offset):
        values[formula.x] = sympy.Float(x_si.scale) * x + sympy.Float(x_si.offset)
    y_scale, y_offset = (y_si.scale, y_si.offset) if y_si is not None else (1.0, 0.0)
    return substituted(formula, values, y_scale=y_scale, y_offset=y_offset)


def with_si_units(
    fit: Fit, formula: Formula, constants: dict[str, PhysicalConstant], x_si: SI, y_si: SI
) -> Fit:
    """`fit` (of `formula` in SI) with each parameter's SI unit and the constants it used."""
    found = parameter_dimensions(formula, constants, x_si, y_si) or {}
    parameters = [
        p.model_copy(update={"unit": unit_text(found[p.name])})  # type: ignore[arg-type]
        if found.get(p.name) is not None else p
        for p in fit.parameters
    ]  # fmt: skip
    return fit.model_copy(update={"parameters": parameters, "constants": uses(constants)})


def uses(constants: dict[str, PhysicalConstant]) -> list[ConstantUse]:
    """The constants as a fit records them, with their values and units."""
    return [
        ConstantUse(symbol=c.symbol, name="the handout's value" if c.stated else c.name,
                    value=c.value, uncertainty=c.uncertainty,
                    unit=unit_text(dimension_of(c.unit)), source=_source(c))
        for c in constants.values()
    ]  # fmt: skip


def as_stated(
    constants: dict[str, PhysicalConstant], values: dict[str, tuple[float, str]]
) -> dict[str, PhysicalConstant]:
    """`constants` with the value the handout states for one (`g = 9,79317 m/s²`, the local
    gravity) in place of the conventional one, where its unit is of the constant's
    dimension."""
    found = dict(constants)
    for name, constant in constants.items():
        value, unit = values.get(name, (None, ""))
        si = si_of(unit) if value is not None and unit else None
        if si is not None and si.dimension == dimension_of(constant.unit):
            stated = (si.scale * value + si.offset, f"{value:g} {unit}")  # type: ignore[operator]
            found[name] = replace(constant, stated=stated)
    return found


def _source(constant: PhysicalConstant) -> str:
    if constant.stated:
        return f"{constant.stated[1]}, in place of {constant.name}"
    # standard gravity is a value the CGPM adopted, listed beside the CODATA constants
    if constant.codata == "standard acceleration of gravity":
        return "the conventional value, scipy.constants"
    return f"{CODATA}, scipy.constants"
