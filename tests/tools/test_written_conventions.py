"""How handouts and headers write what the analysis reads: a primed symbol (E′), a unit
abbreviated with a full stop (`deg.`), an angle column among dimensionless ones, two
definitions in one sentence, a number with a decimal comma and a power of ten; and the
effective variance of a response whose predictor is uncertain."""

from __future__ import annotations

import numpy as np
import pytest

from labscribe.tools.axis_expressions import defined
from labscribe.tools.columns import Column
from labscribe.tools.effective_variance import effective_sigma
from labscribe.tools.formula_parse import parse_expression
from labscribe.tools.symbol_dimensions import conventional_column
from labscribe.tools.units import canonical
from labscribe.tools.written_numbers import number_of


def test_a_primed_symbol_is_a_name_of_its_own() -> None:
    assert str(parse_expression("1/E′")) == "1/E_prime"
    assert str(parse_expression("lam' - lam")) == "-lam + lam_prime"


@pytest.mark.parametrize(("written", "unit"), [("deg.", "deg"), ("sec.", "s"), ("mm.", "mm")])
def test_a_unit_abbreviated_with_a_full_stop(written: str, unit: str) -> None:
    assert canonical(written) == unit
    assert canonical("Nr.") is None


def test_theta_is_the_angle_column_not_a_percentage() -> None:
    columns = [Column(key=k, header=k, name=k, unit=u, count=7)
               for k, u in (("angle", "deg"), ("error", "%"), ("n", ""))]  # fmt: skip
    assert [c.key for c in conventional_column("theta", columns)] == ["angle"]
    assert [
        c.key
        for c in conventional_column(
            "E_prime", [Column(key="E", header="E", name="scattered energy", unit="keV", count=7)]
        )
    ] == ["E"]


def test_two_definitions_in_one_sentence() -> None:
    found = defined(["Tabulate the variables x = 1 − cos θ and y = 1/E′ (in keV⁻¹)."])
    assert [(w.name, str(w.expression)) for w in found] == [
        ("x", "1 - cos(theta)"), ("y", "1/E_prime")]  # fmt: skip


@pytest.mark.parametrize(
    ("written", "value"),
    [("1,380649×10⁻²³", 1.380649e-23), ("6.626 · 10^-34", 6.626e-34), ("12.5x10^{3}", 12500.0),
     ("−3,5", -3.5), ("1.6e-19", 1.6e-19)],
)  # fmt: skip
def test_numbers_as_handouts_write_them(written: str, value: float) -> None:
    assert number_of(written) == pytest.approx(value, rel=1e-12)


def test_an_uncertain_predictor_spreads_the_response_through_the_slope() -> None:
    x = np.linspace(1.0, 2.0, 8)
    y = 3.0 * x**2
    sigma = effective_sigma(x, y, np.full(8, 0.3), np.full(8, 0.05))
    assert sigma is not None
    assert sigma == pytest.approx(np.sqrt(0.3**2 + (6.0 * x * 0.05) ** 2))
    assert effective_sigma(x[:3], y[:3], None, np.full(3, 0.05)) is None  # too few for a slope
