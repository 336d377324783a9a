"""What a fit found, as it lives in the graph's state and reaches a report: the model, every
parameter ± its standard error with its unit, how well it describes the data, and whether
the assignment asked for it."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from labscribe.tools.columns.column import Column

# Below it, R² is low: a model that still describes the data (its residuals are noise,
# tools.fits.verdict) gets a note that the noise is large against the trend.
GOOD_R_SQUARED = 0.9
RELATIVE_ROUNDING = 1e-9  # an error this small against its value is rounding, not noise
BEST_BY_BIC = "the best of the standard models by BIC"
# An oscillation's model that follows the data this closely shows their shape though its
# residuals exceed the noise: a pendulum's damped swing at R² = 0.999 whose residuals keep
# the dry friction's shape is the closest curve a student can use, not "no model".
FOLLOWS_R_SQUARED = 0.99
# A straight line that follows the data this closely is the law's slope with a caveat: a Hall
# voltage against ±300 mT at R² = 0.9998 whose residuals keep the magnet's steps. A curve
# traced by a line reaches R² = 0.99 (x² over 1..2 does), so a line must come closer.
LINE_FOLLOWS_R_SQUARED = 0.999
LINES = frozenset({"linear", "proportional"})
# Laws that follow the data as closely as a line does are shown as lines are: a capacitor's
# charging curve at R² = 0.999998, whose residuals keep the 8-bit steps of the recording.
LAWS = LINES | {"exponential", "exponential approach", "exponential growth", "power law"}


class Parameter(BaseModel):
    name: str
    value: float
    stderr: float | None
    """The standard error lmfit estimates; None when it could not."""
    unit: str = ""
    derived: bool = False
    """Computed from the others (a FWHM from sigma, a bandwidth f0/Q)."""

    @property
    def relative(self) -> float | None:
        """The relative standard error, when there is one."""
        if self.stderr is None or self.value == 0:
            return None
        return abs(self.stderr / self.value)

    @property
    def determined(self) -> bool:
        """Whether the data pin the value down: a standard error below the value itself."""
        return self.stderr is not None and self.stderr <= abs(self.value)


def within_error_of_zero(names: list[str]) -> str:
    """The note for parameters whose standard error exceeds their value: zero lies within
    one standard error of each (an intercept of −0.0025 ± 0.0094 kHz), which says nothing
    of how well the data pin them down in absolute terms."""
    return f"zero within one standard error: {', '.join(names)}"


class Peak(BaseModel):
    position: Parameter
    width: Parameter
    width_kind: str
    """What the width measures: "FWHM", or a resonance's half-power bandwidth f0/Q."""
    dip: bool = False
    """The curve falls to it rather than rising (a negative amplitude)."""


class ConstantUse(BaseModel):
    """A physical constant a formula was fitted with (tools.formulas.constants)."""

    symbol: str
    name: str
    value: float
    uncertainty: float = 0.0
    """Its standard uncertainty; 0 for the constants the SI fixes exactly (h, c, e, k_B)."""
    unit: str
    source: str

    def text(self) -> str:
        """`e = 1.602176634e-19 C (the elementary charge, CODATA 2022, scipy.constants)`."""
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.symbol} = {self.value:.12g}{unit} ({self.name}, {self.source})"


class Candidate(BaseModel):
    model: str
    bic: float
    r_squared: float


OUT_OF_TIME = "the analysis time budget ran out before every model was tried"


class Fit(BaseModel):
    table: str
    x: str
    y: str
    """The keys of the columns fitted (tools.columns.column.Column.key)."""
    x_name: str = ""
    y_name: str = ""
    """The names the report calls them by, where the handout names a column otherwise than
    its key ("column 2" is a_d, `Untitled 1` the current i); "" where they are the keys."""
    x_unit: str = ""
    y_unit: str = ""
    model: str | None = None
    """A standard model's name (tools.fits.shapes), or the formula an assignment wrote; None
    when no model could be fitted."""
    formula: str = ""
    expression: str = ""
    """An assignment's formula as asteval evaluates it; "" for a standard model."""
    variable: str = ""
    """The formula's name for x in `expression`."""
    requested: str = ""
    """The task that asks for this model, as written; "" for the best of the standard models."""
    explorer: bool = False
    """Asked for by the exploring model (its `fit` tool), computed by labscribe."""
    parameters: list[Parameter] = Field(default_factory=list)
    left_out: list[Parameter] = Field(default_factory=list)
    """Parameters of the model found 0 within their error and fixed there (an offset), as
    they were fitted before: the simpler model is as good."""
    r_squared: float | None = None
    reduced_chi_square: float | None = None
    sigma: str = ""
    """Where the σ of the reduced χ² comes from."""
    sigma_estimate: float | None = None
    """That σ, in y's unit, where it was estimated from the data (tools.fits.verdict.scatter)."""
    residual_sd: float | None = None
    """The residual standard deviation √(Σr²/(n − p)) of the fitted points, in y's unit (a
    regression's standard error, NIST StRD's certified "residual standard deviation")."""
    structure: str = ""
    """What shows the residuals are not noise (tools.fits.residuals); "" when they may be."""
    points: int = 0
    fitted_points: int = 0
    task_range: tuple[float, float] | None = None
    """The range of x the fit was limited to because its task names it ("t ≤ 144 s",
    tools.formulas.given_values.named_range); None for a fit of every point."""
    peak: Peak | None = None
    good: bool = False
    """The model describes the column: its residuals are like noise, no larger than the noise
    and with no shape (tools.fits.verdict); and no parameter lies outside its physical range."""
    verdict: str = ""
    """Why the model does not describe the data, in words (its residuals, a parameter
    outside its range, a peak not resolved); "" when it does."""
    unphysical: list[str] = Field(default_factory=list)
    """Parameters whose best value lies outside their physical range (a negative time
    constant), even fitted within it: no answer; the notes say why in words."""
    notes: list[str] = Field(default_factory=list)
    straightened: str = ""
    """The axis the fit is a straight line of where it is not the column itself ("ln A": the
    line of ln y that a task asks for, tools.formulas.log_lines); "" for a fit of the column."""
    kelvin_from: dict[str, str] = Field(default_factory=dict)
    """The columns (by key) fitted in kelvin, each with the °C or °F scale it was read in
    (tools.formulas.absolute_temperature): the curve is drawn over the data on their own scale."""
    lead_in: str = ""
    """The flat lead-in before the step left out of the fit, in words (tools.columns.lead_in); ""
    when every point was fitted."""
    candidates: list[Candidate] = Field(default_factory=list)
    constants: list[ConstantUse] = Field(default_factory=list)
    """The physical constants the formula was fitted with, by their CODATA values."""
    fixed: list[str] = Field(default_factory=list)
    """The formula's symbols fixed at the values the task gives (`V_T = 0.0254341 V`)."""
    covariance: dict[str, dict[str, float]] | None = None
    """The covariance of the fitted (not derived) parameters, by name: what a quantity
    derived from two of them needs for its uncertainty."""

    @classmethod
    def of(cls, table: str, x: Column, y: Column, **fields: Any) -> Fit:
        """A fit of column `y` against `x` of `table`, yet to be done; a note says when x
        counts seconds from a moment (a logger's time stamps, tools.formats.time_columns)."""
        notes = [f"{x.name} as seconds since {x.origin}"] if x.origin else []
        names = {f"{axis}_name": c.name for axis, c in (("x", x), ("y", y)) if c.name != c.key}
        return cls(table=table, x=x.key, y=y.key, x_unit=x.unit, y_unit=y.unit, notes=notes,
                   **names, **fields)  # fmt: skip

    @property
    def x_label(self) -> str:
        return self.x_name or self.x

    @property
    def y_label(self) -> str:
        return self.y_name or self.y

    def parameter(self, name: str) -> Parameter:
        return next(p for p in self.parameters if p.name == name)

    @property
    def label(self) -> str:
        """Why this model: the assignment's, the explorer's, or the best standard one."""
        if self.requested:
            return "the model the assignment asks for"
        if self.explorer:
            return "the model the explorer asked for"
        # a following line may stand in for a closer curve that only traces the data
        return (
            "a straight line through the data"
            if self.model in LINES and self.follows
            else BEST_BY_BIC
        )

    @property
    def drawable(self) -> bool:
        """Worth a figure and a row of the fit table: the assignment's model, or one that
        describes the data or follows their shape."""
        return self.model is not None and (bool(self.requested) or self.good or self.follows)

    @property
    def follows(self) -> bool:
        """A standard model of an oscillation (a sine, a damped one) that does not describe
        the data to within their noise but follows them (FOLLOWS_R_SQUARED), or a straight
        line or a law (LAWS) that follows them closer still (LINE_FOLLOWS_R_SQUARED), each of
        its values determined and in its physical range. A curved polynomial that follows
        them only traces their shape, and a peak on a slope bends to follow a curve that has
        no peak (ln p against 1/T), so neither is shown for it."""
        from labscribe.tools.fits.shapes import BY_NAME  # shapes imports lmfit: only when asked

        shape = BY_NAME.get(self.model or "")
        if shape is None or self.good or self.requested or self.unphysical:
            return False
        if shape.name in LAWS:
            closeness = LINE_FOLLOWS_R_SQUARED
        elif shape.feature is not None and shape.units.get(shape.feature) == "1/x":
            closeness = FOLLOWS_R_SQUARED  # it counts cycles
        else:
            return False
        fitted = [p for p in self.parameters if not p.derived]
        return (
            (self.r_squared or 0.0) >= closeness
            and bool(fitted)
            and all(p.determined for p in fitted)
        )

    def key_parameters(self) -> list[Parameter]:
        """The parameters a caption names first: a standard model's key ones, in order;
        every fitted parameter of a formula."""
        from labscribe.tools.fits.shapes import BY_NAME  # shapes imports lmfit: only when asked

        if self.model is None:
            return []
        shape = BY_NAME.get(self.model) if not self.expression else None
        if shape is None:
            return [p for p in self.parameters if not p.derived]
        names = {p.name for p in self.parameters}
        return [self.parameter(name) for name in shape.key if name in names]

    def chi_text(self) -> str:
        """The reduced χ² and the σ it compares the residuals with: `1.02 (σ ≈ 0.021 V)`
        estimated, `0.97 (σ: dU)` from an uncertainty column."""
        if self.reduced_chi_square is None:
            return "–"
        chi = f"{self.reduced_chi_square:.3g}"
        if self.sigma_estimate is not None:
            unit = f" {self.y_unit}" if self.y_unit else ""
            return f"{chi} (σ ≈ {self.sigma_estimate:.2g}{unit})"
        column = self.sigma.removeprefix("the uncertainty column ")
        return f"{chi} (σ: {column})" if column != self.sigma else chi

    def curve(self) -> tuple[object, ...]:
        """What a figure or a row of the fits shows of this fit: two fits alike in it (one
        model that two tasks ask for) are shown once."""
        values = tuple((p.name, p.value) for p in self.parameters)
        return (self.table, self.x, self.y, self.model, self.formula, self.straightened,
                self.task_range, self.lead_in, values)  # fmt: skip

    def values_text(self, limit: int | None = None) -> str:
        """`f0 = 5033 ± 3 Hz; Q = 12.1 ± 0.4`: the shown parameters (the first `limit`);
        none where a parameter lies outside its physical range, since then no value is an
        answer."""
        if self.unphysical:
            names = ", ".join(self.unphysical)
            return f"no value: {names} would lie outside its physical range (see the notes)"
        shown = self.shown_parameters()[:limit]
        return "; ".join(f"{p.name} = {format_value(p)}" for p in shown)

    def shown_parameters(self) -> list[Parameter]:
        """Every parameter, the key ones first, then the rest, then the derived ones."""
        key = self.key_parameters()
        rest = [p for p in self.parameters if p not in key and not p.derived]
        return key + rest + [p for p in self.parameters if p.derived and p not in key]

    def with_units(self, dimensions: dict[str, tuple[Fraction, Fraction] | None]) -> Fit:
        """This fit with the unit of each parameter whose dimension (powers of y's and x's
        units) `dimensions` gives."""
        parameters = [
            p.model_copy(update={"unit": unit_of(dimensions[p.name], self.y_unit, self.x_unit)})
            if dimensions.get(p.name) is not None else p
            for p in self.parameters
        ]  # fmt: skip
        return self.model_copy(update={"parameters": parameters})


def axes_of(fit: Fit, fits: list[Fit]) -> str:
    """`y against x`, with the fit's table where another of `fits` has the same axes in
    another table (one run per temperature): which slope is which must be plain."""
    tables = {other.table for other in fits if (other.y, other.x) == (fit.y, fit.x)}
    return f"{fit.y_label} against {fit.x_label}" + (f" ({fit.table})" if len(tables) > 1 else "")


def format_value(parameter: Parameter) -> str:
    """`5033 ± 3 Hz`: the error to two significant digits, the value to the same place; a
    value without an error, or with one below rounding (an exact fit), to 6 digits."""
    value, error, unit = parameter.value, parameter.stderr, parameter.unit
    suffix = f" {unit}" if unit else ""
    if error is None or not math.isfinite(error) or error <= RELATIVE_ROUNDING * abs(value):
        return f"{value:.6g}{suffix}"
    scale = math.floor(math.log10(max(abs(value), error)))
    exponent = 3 * math.floor(scale / 3) if not -3 <= scale < 5 else 0
    value, error = value / 10**exponent, error / 10**exponent
    places = max(0, 1 - math.floor(math.log10(error)))
    shown = f"{value:.{places}f}"
    if float(shown) == 0:
        shown = shown.removeprefix("-")  # "-0.00" says nothing "0.00" does not
    body = f"{shown} ± {error:.{places}f}"
    return f"({body})e{exponent}{suffix}" if exponent else f"{body}{suffix}"


def unit_of(dimension: tuple[Fraction, Fraction] | None, y_unit: str, x_unit: str) -> str:
    """The unit of a quantity of `dimension` (powers of y's and x's units): (1, -1) of N
    against m is N/m; (0, -1) of s is 1/s; "" where the dimension or a needed unit is
    unknown, or the quantity is a pure number."""
    if dimension is None:
        return ""
    y_power, x_power = dimension
    if (y_power and not y_unit) or (x_power and not x_unit):
        return ""
    top = [_power(y_unit, y_power)] if y_power > 0 else []
    bottom = [_power(y_unit, -y_power)] if y_power < 0 else []
    top += [_power(x_unit, x_power)] if x_power > 0 else []
    bottom += [_power(x_unit, -x_power)] if x_power < 0 else []
    if not bottom:
        return "·".join(top)
    denominator = "·".join(bottom) if len(bottom) == 1 else f"({'·'.join(bottom)})"
    return f"{'·'.join(top) or '1'}/{denominator}"


def _power(unit: str, power: Fraction) -> str:
    if power == 1:
        return unit
    shown = str(power.numerator) if power.denominator == 1 else f"{float(power):.4g}"
    return f"{unit}^{shown}"


def alike(fits: list[Fit]) -> list[list[Fit]]:
    """`fits` grouped by what they show (Fit.curve), in order: one model that two tasks ask
    for is one row of the fits and one figure."""
    groups: dict[tuple[object, ...], list[Fit]] = {}
    for fit in fits:
        groups.setdefault(fit.curve(), []).append(fit)
    return list(groups.values())


def untried_tables(fits: list[Fit]) -> set[str]:
    """The tables of `fits` the time budget reached before any of their fits was tried."""
    tried = {fit.table for fit in fits if fit.notes != [OUT_OF_TIME]}
    return {fit.table for fit in fits} - tried


def out_of_time(fits: list[Fit]) -> str:
    """One note for the fits the time budget left untried, by their axes; "" for none."""
    late = list(dict.fromkeys(axes_of(f, fits) for f in fits if f.notes == [OUT_OF_TIME]))
    return f"{OUT_OF_TIME}: {', '.join(late)} not fitted" if late else ""
