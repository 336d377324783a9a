"""tools.fits.fit_quantities: what a task asks of a fit's parameters, by its formula or its name."""

from __future__ import annotations

import math

import pytest

from labscribe.tools.fits.fit_quantities import fit_quantities
from labscribe.tools.fits.fit_result import Fit, Parameter

LN2 = math.log(2)


def _fit(expression: str, variable: str, parameters: dict[str, tuple[float, float, str]],
         x_unit: str = "nm", y_unit: str = "") -> Fit:  # fmt: skip
    return Fit(table="t", x="x", y="y", x_unit=x_unit, y_unit=y_unit, model=expression,
               formula=expression, expression=expression, variable=variable,
               requested="Fit the model.", good=True,
               parameters=[Parameter(name=n, value=v, stderr=e, unit=u)
                           for n, (v, e, u) in parameters.items()])  # fmt: skip


# NIST StRD Eckerle4, certified values: b1 = 1.5543827178 ± 0.015408, b2 = 4.0888321754 ±
# 0.046803, b3 = 451.54121844 ± 0.046800 (https://www.itl.nist.gov/div898/strd/nls/data/eckerle4.shtml)
ECKERLE4 = {"A": (1.5543827178, 0.015408, "nm"), "w": (4.0888321754, 0.046803, "nm"),
            "lamc": (451.54121844, 0.0468, "nm")}  # fmt: skip
GAUSSIAN = "A*exp(-(lam - lamc)**2/(2*w**2))/w"


def test_a_formula_the_task_writes_is_evaluated_with_the_fit_s_parameters() -> None:
    fit = _fit(GAUSSIAN, "lam", ECKERLE4)
    tasks = ["What is the peak transmittance T_max = A/w?",
             "Calculate the full width at half maximum, FWHM = 2√(2 ln 2)·w."]  # fmt: skip
    found = {q.name: q for q in fit_quantities(tasks, [fit])}
    assert found["T_max"].value == pytest.approx(1.5543827178 / 4.0888321754)
    assert found["T_max"].unit == ""  # nm/nm
    assert found["FWHM"].value == pytest.approx(9.62847, abs=1e-4)
    assert found["FWHM"].stderr == pytest.approx(2 * math.sqrt(2 * LN2) * 0.046803, rel=1e-6)
    assert found["FWHM"].unit == "nm"
    assert "as the task writes it" in found["FWHM"].given()


@pytest.mark.parametrize(
    ("expression", "width"),
    [
        (GAUSSIAN, 2 * math.sqrt(2 * LN2) * 4.0888321754),  # exp(−(x−μ)²/(2σ²))
        ("A*exp(-2*((lam - lamc)/w)**2)", math.sqrt(2 * LN2) * 4.0888321754),  # w·√(2 ln 2)
        ("A*w/((lam - lamc)**2 + w**2)", 2 * 4.0888321754),  # Lorentzian, half-width γ
        ("A/(1 + 4*((lam - lamc)/w)**2) + c", 4.0888321754),  # Lorentzian, full width Γ
    ],
)
def test_a_named_fwhm_follows_from_the_model_s_form(expression: str, width: float) -> None:
    fit = _fit(expression, "lam", ECKERLE4 | {"c": (0.01, 0.001, "")})
    (found,) = fit_quantities(["Determine the full width at half maximum."], [fit])
    assert found.value == pytest.approx(width)
    assert found.unit == "nm"


def test_a_half_life_is_ln2_over_the_exponential_rate() -> None:
    # NIST StRD BoxBOD: b2 = 0.54723748542 ± 0.10455993237 1/d (certified)
    certified = {"b1": (213.80940889, 12.354515176, "mg/L"),
                 "b2": (0.54723748542, 0.10455993237, "1/d")}  # fmt: skip
    fit = _fit("b1*(1 - exp(-b2*x))", "x", certified, x_unit="d", y_unit="mg/L")
    (found,) = fit_quantities(["Give the half-life with its uncertainty."], [fit])
    assert found.value == pytest.approx(LN2 / 0.54723748542)
    assert found.stderr == pytest.approx(LN2 * 0.10455993237 / 0.54723748542**2)
    assert found.unit == "d"
    decay = _fit("N0*exp(-t/tau)", "t", {"N0": (1000, 10, ""), "tau": (228.4, 2, "s")},
                 x_unit="s")  # fmt: skip
    (found,) = fit_quantities(["Determine the Halbwertszeit."], [decay])
    assert found.value == pytest.approx(228.4 * LN2)


def test_nothing_is_offered_where_the_model_has_no_such_form() -> None:
    line = _fit("a*x + b", "x", {"a": (2.0, 0.1, ""), "b": (1.0, 0.1, "")})
    assert fit_quantities(["Give the FWHM and the half-life."], [line]) == []
    # a formula naming a value no fit has is left alone
    assert fit_quantities(["Compute Q = f0/(f2 - f1)."], [line]) == []


def test_a_parameter_without_its_unit_gives_no_unit() -> None:
    fit = _fit(GAUSSIAN, "lam", ECKERLE4 | {"A": (1.554, 0.015, "")}, y_unit="")
    (found,) = fit_quantities(["What is T_max = A/w?"], [fit])
    assert not found.unit_known
    assert "its unit not worked out here" in found.given()


def test_the_length_where_a_coil_s_field_is_at_least_half_its_maximum() -> None:
    # on a coil's axis B ∝ R³/(R² + z²)^(3/2) falls to half at z = ±R·√(2^(2/3) − 1)
    fit = _fit("Bmax*R**3/(R**2 + (z - z0)**2)**(3/2)", "z",
               {"Bmax": (6.568, 0.006, "mT"), "R": (6.116, 0.0074, "cm"),
                "z0": (0.311, 0.0042, "cm")}, x_unit="cm", y_unit="mT")  # fmt: skip
    task = "Over what length of the axis is the field at least half of Bmax?"
    (found,) = fit_quantities([task], [fit])
    assert found.value == pytest.approx(2 * 6.116 * math.sqrt(2 ** (2 / 3) - 1))
    assert found.unit == "cm"


def test_only_the_assignment_s_model_answers_where_it_asked_for_one() -> None:
    # Moseley: Ry = 4a²/3 is of the asked line's a, never of another fit's `a`
    values = {"a": (81.9, 1.7, "mV/V"), "tau": (1.1e8, 2e6, "N"), "c": (5e-4, 1e-4, "")}
    approach = _fit("c + a*(1 - exp(-x/tau))", "x", values)
    approach.requested = ""
    failed = _fit("a*Z + b", "Z", {"a": (0.1, 0.01, ""), "b": (-1.0, 0.1, "")})
    failed.good = False
    tasks = ["Derive the Rydberg energy Ry = 4a²/3 (in eV).", "Give the half-life."]
    assert fit_quantities(tasks, [approach, failed]) == []
    # with no model asked for at all, a standard model that describes the data may answer
    (found,) = fit_quantities(["Give the half-life."], [approach])
    assert found.value == pytest.approx(1.1e8 * LN2)


def test_a_fit_that_is_not_its_task_s_gives_none_of_its_quantities() -> None:
    # the task fits the background-corrected counts: a fit of the raw counts is not that
    # fit, and a half-life from it would be wrong by the background's share
    task = ("Fit the corrected counts with N(t) = N0·e^(−λt) (weighted fit of ln N) and give "
            "the half-life in minutes.")  # fmt: skip
    raw = _fit("N0*exp(-lam*t)", "t", {"N0": (3737, 26, ""), "lam": (2.08e-4, 3e-6, "1/s")},
               x_unit="s")  # fmt: skip
    raw.x, raw.y, raw.requested = "Start Time", "Counts", task
    assert fit_quantities([task], [raw]) == []
    raw.y = "corrected counts"
    (found,) = fit_quantities([task], [raw])
    assert found.value == pytest.approx(LN2 / 2.08e-4)
