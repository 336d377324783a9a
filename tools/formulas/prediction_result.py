"""A prediction of the handout's formulas and the measured values set beside it, each with
its discrepancy in standard deviations and what that says in words (tools.formulas.prediction
computes them)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from labscribe.tools.fits.fit_result import ConstantUse, Parameter, format_value
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.prediction_inputs import Input

AGREE_Z = 2.0  # within 2σ: agreement, as lab courses read it
DISAGREE_Z = 3.0  # 3σ and beyond: a discrepancy


class Comparison(BaseModel):
    """A measured value the prediction is set beside."""

    source: str
    """`the resonance fit of V_R/V_in against frequency`."""
    table: str = ""
    value: float
    sigma: float | None
    unit: str
    z: float | None
    """|measured − predicted| / √(σm² + σp²); None without any σ."""

    def shown(self) -> str:
        return format_value(Parameter(name="", value=self.value, stderr=self.sigma, unit=self.unit))

    def verdict(self) -> str:
        """What z says, in words."""
        if self.z is None:
            return "no uncertainty to compare them by"
        if self.z < AGREE_Z:
            return f"they agree within their uncertainties (|z| < {AGREE_Z:g})"
        if self.z < DISAGREE_Z:
            return f"a marginal discrepancy ({AGREE_Z:g} ≤ |z| < {DISAGREE_Z:g})"
        return f"they disagree (|z| ≥ {DISAGREE_Z:g})"

    def discrepancy(self) -> str:
        """`z = 0.41: they agree within their uncertainties (|z| < 2)`."""
        return f"z = {self.z:.2f}: {self.verdict()}" if self.z is not None else self.verdict()


class Prediction(BaseModel):
    """A quantity the handout's formula predicts from the folder's values."""

    quantity: str
    """Its name as formulas read it (`omega0`)."""
    written: str = ""
    """Its name as the handout writes it (`ω0`)."""
    formula: str
    """As the handout writes it."""
    value: float
    sigma: float | None
    unit: str
    """The measured value's unit where there is one, else SI."""
    inputs: list[Input] = Field(default_factory=list)
    constants: list[ConstantUse] = Field(default_factory=list)
    comparisons: list[Comparison] = Field(default_factory=list)
    task: str = ""
    """The task that asks for the comparison, as the checklist holds it; "" for none."""
    measured: str = ""
    """Where the formula takes a measured mean (`t: the mean of t (drops.csv, n = 20)`):
    then the value is a result of the measurement, not a prediction."""
    note: str = ""
    """Why it is not compared, where it is not."""

    @property
    def name(self) -> str:
        return self.written or self.quantity

    def as_row(self) -> ParameterRow:
        """The prediction as a value another formula may take (`R_tot`, for `γ = R_tot/L`),
        its uncertainty a standard one."""
        error = f" ± {self.sigma:.6g}" if self.sigma else ""
        return ParameterRow(source="predicted", key=self.quantity, name=self.quantity,
                            value=f"{self.value:.10g}{error} {self.unit}".strip(),
                            comment=f"from {self.formula}, standard uncertainty")  # fmt: skip

    def shown(self) -> str:
        """`5.03 ± 0.16 kHz`, in the unit of the value it is compared with."""
        return format_value(Parameter(name=self.quantity, value=self.value, stderr=self.sigma,
                                      unit=self.unit))  # fmt: skip

    def _with(self) -> str:
        """` with N = 320, R = 0.0600 ± 0.00087 m (coil.yaml)`: the values it was computed
        from, so that a reader sees which (a nominal radius, not a fitted one)."""
        if not self.inputs:
            return ""
        values = ", ".join(format_value(Parameter(name=i.symbol, value=i.value, stderr=i.sigma,
                                                  unit=i.unit)).join((f"{i.symbol} = ", ""))
                           for i in self.inputs)  # fmt: skip
        sources = ", ".join(dict.fromkeys(i.source for i in self.inputs if i.source))
        return f" with {values}" + (f" ({sources})" if sources else "")

    def text(self) -> str:
        """One line: the prediction, from what, each measured value with its z, and what
        they say (once where they all say the same)."""
        head = f"{self.name} predicted {self.shown()} from {self.formula}{self._with()}"
        if self.measured:
            head = (f"{self.name} = {self.shown()} from {self.formula} with {self.measured}, "
                    "its uncertainty propagated")  # fmt: skip
        if not self.comparisons:
            if self.measured and not self.note:
                return head
            return f"{head}; {self.note or 'no measured value of that name to compare'}"
        verdicts = {c.verdict() for c in self.comparisons}
        measured = [
            f"measured {c.shown()} ({c.source})"
            + (f", z = {c.z:.2f}" if len(verdicts) == 1 and c.z is not None else
               f", {c.discrepancy()}")
            for c in self.comparisons
        ]  # fmt: skip
        tail = [next(iter(verdicts))] if len(verdicts) == 1 else []
        return "; ".join([head, *measured, *tail])
