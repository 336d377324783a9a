"""A formula's input read from the folder's parameter rows: a symbol's value (`L_nominal_mH =
10`, `L = 10 mH ± 10%`, `C = (100 ± 5) nF`) and its standard uncertainty, in SI, with the
words saying how each was read.

The uncertainty comes from a row of its own (`L_tolerance_pct = 10`, `L_sigma_mH = 0.2`,
`u_L`) or from a ± written with the value. A tolerance (a row named so, or a ± with no word
that makes it a σ) bounds the value: it is read as a rectangular distribution, whose
standard uncertainty is the half-width over √3 (GUM, JCGM 100:2008, 4.3.7). A σ, a standard
uncertainty or an error row is taken as written. A value with none is taken as exact, and
the report says so.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from pydantic import BaseModel

from labscribe.tools.columns.si_units import si_of, unit_text
from labscribe.tools.columns.units import canonical
from labscribe.tools.fits.fit_result import Parameter, format_value
from labscribe.tools.formats.parameters import ParameterRow

RECTANGULAR = math.sqrt(3)  # a half-width a bounds a rectangular distribution of σ = a/√3
_VALUE_WORDS = r"nominal|nom|value|val|measured|meas|actual|used|set|true"
_MEASURED = re.compile(r"measured|meas|actual", re.IGNORECASE)
_TOLERANCE = frozenset({"tolerance", "tol", "accuracy", "limit"})
_STANDARD = frozenset({"sigma", "std", "stdev", "uncertainty", "unc", "u", "err", "error"})
_NUMBER = r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?"
_WITH_ERROR = re.compile(
    rf"^\(?\s*(?P<value>{_NUMBER})\s*(?P<unit1>[^\d\s±()+%-][^\s±()]{{0,11}})?\s*(?:±|\+/-|\+-)"
    rf"\s*(?P<error>{_NUMBER})\s*(?P<percent>%)?\s*\)?\s*(?P<unit2>[^\d\s±()%][^\s()]{{0,11}})?$"
)
_SIGMA_WORDS = re.compile(r"\bsigma\b|σ|standard (?:uncertainty|deviation)|\b1 ?s\b", re.I)


class Input(BaseModel):
    """A value a prediction is computed from."""

    symbol: str
    value: float
    """In SI (in the file's unit where that unit is not known)."""
    sigma: float | None
    """Its standard uncertainty in the same unit; None when the file gives none."""
    unit: str
    """The SI unit; "" when the file's unit is not known."""
    written: str
    """The rows it was read from, as written: `L_nominal_mH = 10, L_tolerance_pct = 10`."""
    how: str
    """How its uncertainty was read."""
    source: str
    dimension: tuple[float, ...] | None = None
    """Its SI dimension (powers of kg, m, s, A, K, mol, cd); None when the file's unit is not
    known."""

    def text(self) -> str:
        """`L = 0.0100 ± 0.00058 H (L_nominal_mH = 10, L_tolerance_pct = 10, params.ini; a
        tolerance of ±10 %, read as ...)`."""
        shown = format_value(Parameter(name=self.symbol, value=self.value, stderr=self.sigma,
                                       unit=self.unit))  # fmt: skip
        return f"{self.symbol} = {shown} ({self.written}, {self.source}; {self.how})"


def input_of(symbol: str, rows: list[ParameterRow]) -> Input | None:
    """The value `symbol` stands for among the parameter `rows`, with its uncertainty: a
    measured value with an uncertainty first, then a nominal or plain one with an uncertainty
    (a tolerance), then either without. None when no row is named for it."""
    named = re.compile(rf"^{re.escape(symbol)}(?:[_ ](?:{_VALUE_WORDS}))?$", re.IGNORECASE)
    values = [
        row for row in rows
        if (row.name == symbol or (named.match(row.name) and row.name[: len(symbol)] == symbol))
        and _reading(row) is not None
    ]  # fmt: skip
    read = [_read(symbol, row, _uncertainty_rows(symbol, row, rows)) for row in values]
    ranked = sorted(
        (i for i in read if i is not None),
        key=lambda i: (i[1].sigma is None, not _MEASURED.search(i[0].name)),
    )
    return ranked[0][1] if ranked else None


def _reading(row: ParameterRow) -> tuple[float, str, float | None, bool] | None:
    """(value, unit, ± written with it, whether that ± is in percent) of a row's value."""
    if row.number is not None:
        return row.number, row.unit, None, False
    match = _WITH_ERROR.match(row.value.strip())
    if match is None:
        return None
    unit = match["unit1"] or match["unit2"] or row.unit
    if unit and canonical(unit) is None:
        return None
    error = float(match["error"].replace(",", "."))
    return (
        float(match["value"].replace(",", ".")),
        canonical(unit) or "",
        error,
        bool(match["percent"]),
    )


def _uncertainty_rows(
    symbol: str, value: ParameterRow, rows: list[ParameterRow]
) -> list[ParameterRow]:
    """The rows that give the uncertainty of `value`: `L_tolerance`, `L_nominal_tolerance`,
    `u_L`, `sigma_L`, in its file; a qualified one (`R_measured_sigma`) only for the value
    it qualifies."""
    kinds = "|".join(sorted(_TOLERANCE | _STANDARD))
    pattern = re.compile(
        rf"^(?:{re.escape(symbol)}[_ ](?:(?P<q>{_VALUE_WORDS})[_ ])?(?P<kind>{kinds})|"
        rf"(?P<kind2>{kinds}|d|delta)[_ ]?{re.escape(symbol)})$",
        re.IGNORECASE,
    )
    found = []
    own = value.name[len(symbol) :].strip("_ ").lower()
    for row in rows:
        if _section_tolerance(row, value, rows):
            found.append(row)
            continue
        match = pattern.match(row.name)
        if match is None or row.source != value.source or row.number is None:
            continue
        if row.name[: len(symbol)] != symbol and not match["kind2"]:
            continue
        if match["q"] and match["q"].lower() != own:
            continue
        kind = (match["kind"] or match["kind2"]).lower()
        if kind in _TOLERANCE and _MEASURED.search(own) and not match["q"]:
            continue  # a part's tolerance bounds its nominal value, not a reading of it
        found.append(row)
    return found


def _section_tolerance(row: ParameterRow, value: ParameterRow, rows: list[ParameterRow]) -> bool:
    """Whether `row` is a bare `tolerance:` (or `uncertainty:`) beside `value` in one section
    of a nested file (`inductor: {L: 10 mH, tolerance: 5 %}`): a part's block gives its value
    first, so the tolerance belongs to the section's first value."""
    if not row.section or row.section != value.section or row.source != value.source:
        return False
    if row.name.lower() not in _TOLERANCE | _STANDARD or row.number is None:
        return False
    first = next(
        (r for r in rows if r.source == value.source and r.section == value.section
         and r.name.lower() not in _TOLERANCE | _STANDARD and _reading(r) is not None),
        None,
    )  # fmt: skip
    return first is value


def _read(
    symbol: str, value: ParameterRow, uncertainties: list[ParameterRow]
) -> tuple[ParameterRow, Input] | None:
    reading = _reading(value)
    if reading is None:
        return None
    number, unit, written_error, percent = reading
    si = si_of(unit) if unit else None
    scale, offset = (si.scale, si.offset) if si else (1.0, 0.0)
    shown = f"{value.key} = {value.value}"
    sigma, how = None, "no uncertainty given: taken as exact"
    if written_error is not None:
        half = number * written_error / 100 if percent else written_error
        standard = bool(_SIGMA_WORDS.search(f"{value.key} {value.comment}"))
        sigma, how = _uncertainty(half, standard, percent, written_error, unit)
    elif uncertainties:
        row = uncertainties[0]
        standard = (
            row.name.split("_")[-1].lower() in _STANDARD
            or (row.name.split("_")[0].lower() in _STANDARD)
            or bool(_SIGMA_WORDS.search(row.comment))
        )
        row_percent = row.unit == "%"
        row_scale = 1.0
        if not row_percent and row.unit and unit and row.unit != unit:
            other = si_of(row.unit)
            row_scale = other.scale / scale if other and si else math.nan
        half = number * row.number / 100 if row_percent else row.number * row_scale  # type: ignore[operator]
        sigma, how = _uncertainty(half, standard, row_percent, row.number, row.unit or unit)  # type: ignore[arg-type]
        shown += f", {row.key} = {row.value}"
    if sigma is not None and not math.isfinite(sigma):
        return None
    return value, Input(
        symbol=symbol,
        value=scale * number + offset, sigma=None if sigma is None else scale * abs(sigma),
        unit=unit_text(si.dimension) if si else unit, written=shown, how=how,
        source=value.source, dimension=tuple(float(p) for p in si.dimension) if si else None,
    )  # fmt: skip


def _uncertainty(
    half: float, standard: bool, percent: bool, written: float, unit: str
) -> tuple[float, str]:
    """(σ, how it was read) of a ± `written` (a half-width `half` in the value's unit)."""
    shown = f"{written:g} %" if percent else f"{written:g} {unit}".strip()
    if standard:
        return half, f"a standard uncertainty of {shown}, as written"
    relative = f" = {written / RECTANGULAR:.2g} %" if percent else ""
    return half / RECTANGULAR, (
        f"a tolerance of ±{shown}, read as a rectangular distribution: u = {shown}/√3{relative}"
    )


def dimension(found: Input) -> tuple[Fraction, ...] | None:
    """An input's SI dimension as exact powers."""
    if found.dimension is None:
        return None
    return tuple(Fraction(p).limit_denominator(100) for p in found.dimension)
