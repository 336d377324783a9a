"""Units in SI: a unit as labscribe writes it (`mH`, `nF`, `kHz`, `m/s^2`, `°C`) as a scale,
an offset and a dimension over the seven SI base units, read through sympy.physics.units;
and a dimension written back as the unit a report shows (`J·s`, `m/s²`).

What a constant in a formula needs (tools.formulas.constants: the data in SI, so that h comes out in
J·s), and a prediction (tools.formulas.prediction: 10 mH and 100 nF as henry and farad, the result
in the measured value's unit). The spelling of units in files is tools.columns.units'; this module
starts from its canonical spellings.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

import sympy
from sympy.physics import units as u
from sympy.physics.units import convert_to
from sympy.physics.units.prefixes import PREFIXES

Vector = tuple[Fraction, ...]
BASE = (u.kilogram, u.meter, u.second, u.ampere, u.kelvin, u.mole, u.candela)
BASE_NAMES = ("kg", "m", "s", "A", "K", "mol", "cd")
DIMENSIONLESS: Vector = (Fraction(0),) * len(BASE)
# Units by their canonical spelling (tools.columns.units), each a sympy quantity or a pure number.
# A peak-to-peak or rms voltage is a voltage: the kind of amplitude is the column's concern.
UNITS: dict[str, sympy.Expr] = {
    "m": u.meter, "s": u.second, "g": u.gram, "A": u.ampere, "K": u.kelvin, "mol": u.mole,
    "cd": u.candela, "Hz": u.hertz, "N": u.newton, "Pa": u.pascal, "J": u.joule, "W": u.watt,
    "C": u.coulomb, "V": u.volt, "F": u.farad, "Ω": u.ohm, "S": u.siemens, "Wb": u.weber,
    "T": u.tesla, "H": u.henry, "eV": u.electronvolt, "L": u.liter, "min": u.minute,
    "h": u.hour, "d": u.day, "bar": u.bar, "Vpp": u.volt, "Vrms": u.volt, "Vpk": u.volt,
    "App": u.ampere, "Arms": u.ampere, "rad": sympy.Integer(1), "deg": sympy.pi / 180,
    "%": sympy.Rational(1, 100), "ppm": sympy.Rational(1, 10**6), "lx": u.lux,
    # the gauss, as labs write it (`B(Gs)`, `B/Gauss`): 10⁻⁴ T, never a gigasecond
    "Gs": sympy.Rational(1, 10**4) * u.tesla, "mGs": sympy.Rational(1, 10**7) * u.tesla,
}  # fmt: skip
# Units that take an SI prefix (tools.columns.units' list, where sympy knows them).
PREFIXABLE = frozenset(
    {"m", "s", "g", "A", "K", "mol", "cd", "Hz", "N", "Pa", "J", "W", "C", "V", "F", "Ω",
     "S", "Wb", "T", "H", "eV", "L", "bar", "Vpp", "Vrms", "Vpk", "App", "Arms", "lx"}
)  # fmt: skip
_PREFIX_SPELLING = {"µ": "mu", "μ": "mu", "u": "mu"}
# °C is kelvin shifted: a temperature in a T^4 law must be absolute.
CELSIUS_OFFSET = 273.15
_FACTOR = re.compile(r"^(?P<name>[^\^²³⁴\d-]+)(?:\^?(?P<power>-?\d+)|(?P<sup>[²³⁴]))?$")
_SUPERSCRIPT = {"²": 2, "³": 3, "⁴": 4}
_SHOWN_POWER = {2: "²", 3: "³", 4: "⁴"}


@dataclass(frozen=True)
class SI:
    """A unit as SI: a value v in it is `scale * v + offset` in SI base units."""

    scale: float
    dimension: Vector
    offset: float = 0.0


def si_of(unit: str) -> SI | None:
    """`unit` (a canonical spelling: `mH`, `kHz`, `m/s^2`, `N/m`, `°C`, `%`) in SI, or None
    when it is not a unit this module can read (`V/div`, `a.u.`, `counts`)."""
    text = unit.strip()
    if text in ("°C", "℃"):
        return SI(1.0, _vector_of(u.kelvin)[1], CELSIUS_OFFSET)
    if not text:
        return None
    numerator, *denominators = text.split("/")
    quantity = sympy.Integer(1)
    for part, sign in [(numerator, 1)] + [(d.strip("()"), -1) for d in denominators]:
        for factor in re.split(r"[·*\s]+", part.strip()):
            if factor == "1" and sign == 1:
                continue
            read = _factor(factor)
            if read is None:
                return None
            quantity *= read**sign
    scale, dimension = _vector_of(quantity)
    return SI(scale, dimension) if math.isfinite(scale) and scale > 0 else None


def _factor(text: str) -> sympy.Expr | None:
    match = _FACTOR.match(text)
    if match is None:
        return None
    power = int(match["power"]) if match["power"] else _SUPERSCRIPT.get(match["sup"] or "", 1)
    base = _named(match["name"])
    return None if base is None else base**power


def _named(name: str) -> sympy.Expr | None:
    if name in UNITS:
        return UNITS[name]
    for prefix in sorted(PREFIXES, key=len, reverse=True):
        rest = name[len(prefix) :]
        if name.startswith(prefix) and rest in PREFIXABLE:
            return PREFIXES[prefix].scale_factor * UNITS[rest]
    for spelled, prefix in _PREFIX_SPELLING.items():
        rest = name[len(spelled) :]
        if name.startswith(spelled) and rest in PREFIXABLE:
            return PREFIXES[prefix].scale_factor * UNITS[rest]
    return None


def _vector_of(quantity: sympy.Expr) -> tuple[float, Vector]:
    """(scale, dimension) of a product of units and numbers, over the SI base units."""
    converted = convert_to(quantity, list(BASE))
    coefficient, rest = sympy.Mul(converted).as_coeff_Mul()
    powers = sympy.Mul(rest).as_powers_dict()
    vector = []
    for base in BASE:
        vector.append(Fraction(str(powers.pop(base, 0))))
    leftover = sympy.Integer(1)
    for factor, power in powers.items():
        leftover *= factor**power
    scale = float(coefficient * leftover) if not leftover.free_symbols else math.nan
    return scale, tuple(vector)


def dimension_of(quantity: sympy.Expr) -> Vector:
    """The SI dimension of a product of sympy units (`u.joule * u.second`)."""
    return _vector_of(quantity)[1]


# How a report names a dimension, the more specific first: Planck's constant in J·s, not
# kg·m²/s.
NAMED: tuple[tuple[str, sympy.Expr], ...] = (
    ("J·s", u.joule * u.second), ("J/K", u.joule / u.kelvin), ("m/s²", u.meter / u.second**2),
    ("m/s", u.meter / u.second), ("N/m", u.newton / u.meter), ("W/(m²·K⁴)",
    u.watt / (u.meter**2 * u.kelvin**4)), ("J/(mol·K)", u.joule / (u.mole * u.kelvin)),
    ("F/m", u.farad / u.meter), ("N/A²", u.newton / u.ampere**2),
    ("m³/(kg·s²)", u.meter**3 / (u.kilogram * u.second**2)), ("1/mol", 1 / u.mole),
    ("J", u.joule), ("W", u.watt), ("V", u.volt), ("Ω", u.ohm), ("F", u.farad),
    ("H", u.henry), ("C", u.coulomb), ("N", u.newton), ("Pa", u.pascal), ("T", u.tesla),
    ("Wb", u.weber), ("S", u.siemens), ("kg", u.kilogram), ("m", u.meter), ("s", u.second),
    ("A", u.ampere), ("K", u.kelvin), ("mol", u.mole), ("1/s", 1 / u.second),
    ("m²", u.meter**2), ("m³", u.meter**3), ("kg/m³", u.kilogram / u.meter**3),
    ("C/kg", u.coulomb / u.kilogram), ("V/m", u.volt / u.meter), ("A/m", u.ampere / u.meter),
    ("kg·m²", u.kilogram * u.meter**2), ("J/kg", u.joule / u.kilogram),
)  # fmt: skip
_BY_DIMENSION: dict[Vector, str] = {}
for _text, _quantity in NAMED:
    _BY_DIMENSION.setdefault(dimension_of(_quantity), _text)


def unit_text(dimension: Vector) -> str:
    """The unit of an SI `dimension` as a report writes it: a named one (`J·s`, `m/s²`, `V`),
    else the base units (`kg·m²/s`); "" for a pure number."""
    if dimension == DIMENSIONLESS:
        return ""
    if dimension in _BY_DIMENSION:
        return _BY_DIMENSION[dimension]
    top = [_power(name, p) for name, p in zip(BASE_NAMES, dimension, strict=True) if p > 0]
    bottom = [_power(name, -p) for name, p in zip(BASE_NAMES, dimension, strict=True) if p < 0]
    if not bottom:
        return "·".join(top)
    under = bottom[0] if len(bottom) == 1 else f"({'·'.join(bottom)})"
    return f"{'·'.join(top) or '1'}/{under}"


def _power(name: str, power: Fraction) -> str:
    if power == 1:
        return name
    if power.denominator == 1 and int(power) in _SHOWN_POWER:
        return name + _SHOWN_POWER[int(power)]
    return f"{name}^{power}"
