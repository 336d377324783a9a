"""tools.formulas.line_law: the law a handout linearises, read off the straight line fitted on its
axes (k = −slope of ln A against t; Ry and σ from the line of √E against Z), each value's
uncertainty propagated from the fit's covariance as the uncertainties package does it."""

from __future__ import annotations

import math

import pytest
from uncertainties import correlated_values

from labscribe.tools.fits.fit_result import Fit, Parameter
from labscribe.tools.formulas.line_law import line_law_quantities


def line(y: str, x: str, slope: tuple[float, float], intercept: tuple[float, float] | None,
         units: tuple[str, str] = ("", ""), correlation: float = -0.8,
         table: str = "run.csv") -> Fit:  # fmt: skip
    """A good straight-line fit of `y` against `x`: slope and intercept as (value, σ)."""
    parameters = [Parameter(name="slope", value=slope[0], stderr=slope[1], unit=units[0])]
    covariance = {"slope": {"slope": slope[1] ** 2}}
    if intercept is not None:
        parameters.append(Parameter(name="intercept", value=intercept[0], stderr=intercept[1],
                                    unit=units[1]))  # fmt: skip
        both = correlation * slope[1] * intercept[1]
        covariance = {"slope": {"slope": slope[1] ** 2, "intercept": both},
                      "intercept": {"slope": both, "intercept": intercept[1] ** 2}}  # fmt: skip
    return Fit(table=table, x=x, y=y, model="linear" if intercept else "proportional",
               parameters=parameters, covariance=covariance, good=True)  # fmt: skip


def test_a_rate_constant_is_minus_the_slope_of_ln_a_against_t() -> None:
    task = "From the slope, determine the rate constant k and the initial absorbance A0."
    fit = line("ln A", "t", (-0.0011, 0.00002), (-0.16, 0.003), ("1/s", ""))
    found = line_law_quantities([task], "So ln A = ln A0 - k t.", [fit], {task: {"k", "A0"}})
    by_name = {q.name: q for q in found}
    assert (by_name["k"].value, by_name["k"].stderr, by_name["k"].unit) == (
        pytest.approx(0.0011),
        pytest.approx(0.00002),
        "1/s",
    )
    assert by_name["A0"].value == pytest.approx(math.exp(-0.16))
    assert by_name["A0"].stderr == pytest.approx(math.exp(-0.16) * 0.003)
    assert "k = -slope" in by_name["k"].relation and "ln A against t" in by_name["k"].fit


def test_both_parameters_of_a_law_squared_on_a_root_axis() -> None:
    """Moseley's law on the axes √E against Z: Ry = 4·slope²/3, σ = −intercept/slope, their
    uncertainties through the slope's and intercept's correlation."""
    task = "Determine the Rydberg energy Ry and the screening constant sigma."
    fit = line("√E", "Z", (0.1032, 0.0003), (-0.153, 0.008), ("keV^0.5", "keV^0.5"))
    found = line_law_quantities([task], "E = 3/4*Ry*(Z - sigma)^2", [fit],
                                {task: {"Ry", "sigma"}})  # fmt: skip
    by_name = {q.name: q for q in found}
    both = -0.8 * 0.0003 * 0.008
    slope, intercept = correlated_values([0.1032, -0.153],
                                         [[0.0003**2, both], [both, 0.008**2]])  # fmt: skip
    rydberg, sigma = 4 * slope**2 / 3, -intercept / slope
    assert by_name["Ry"].value == pytest.approx(rydberg.nominal_value)
    assert by_name["Ry"].stderr == pytest.approx(rydberg.std_dev)
    assert by_name["Ry"].unit == "keV"
    assert (by_name["sigma"].value, by_name["sigma"].stderr) == (
        pytest.approx(sigma.nominal_value),
        pytest.approx(sigma.std_dev),
    )
    assert by_name["sigma"].unit == ""


def test_a_reciprocal_axis_is_the_law_rewritten_in_its_variable() -> None:
    task = "Determine the enthalpy H from the slope."
    fit = line("ln p", "1/T", (-4900.0, 60.0), (20.1, 0.2), ("K", ""))
    found = line_law_quantities([task], "The law is ln p = C - H/T.", [fit], {task: {"H"}})
    assert [(q.name, q.value, q.unit) for q in found] == [("H", pytest.approx(4900.0), "K")]


@pytest.mark.parametrize(
    ("law", "fit"),
    [
        # a pendulum's T = 2π√(L/g) is no straight line of T against L
        ("T = 2*pi*sqrt(L/g)", line("T", "L", (1.0, 0.1), (0.2, 0.1))),
        # a line through the origin stands for no law with an intercept
        ("ln A = ln A0 - k t", line("ln A", "t", (-0.001, 0.0001), None)),
        # two unknowns in the slope: neither is given
        ("ln p = C - L/(R_g*T)", line("ln p", "1/T", (-4900.0, 60.0), (20.1, 0.2))),
        # another response than the fit's
        ("ln B = ln B0 - k t", line("ln A", "t", (-0.001, 0.0001), (0.1, 0.01))),
    ],
)
def test_nothing_where_the_law_is_no_line_on_the_fits_axes(law: str, fit: Fit) -> None:
    task = "Determine g, k and L."
    assert line_law_quantities([task], law, [fit], {task: {"g", "k", "L"}}) == []


def test_each_run_names_its_table() -> None:
    task = "Determine k at each temperature."
    fits = [line("ln A", "t", (-0.0011, 0.00002), (-0.16, 0.003), ("1/s", ""), table=name)
            for name in ("run_25C.csv", "run_35C.csv")]  # fmt: skip
    found = line_law_quantities([task], "ln A = ln A0 - k t", fits, {task: {"k"}})
    assert [q.fit for q in found] == [
        "the fit of ln A against t (run_25C.csv)",
        "the fit of ln A against t (run_35C.csv)",
    ]


def test_a_tasks_own_formula_takes_the_value_the_line_gave() -> None:
    task = "Determine the half-life t_half = ln(2)/k."
    fit = line("ln A", "t", (-0.0011, 0.00002), (-0.16, 0.003), ("1/s", ""))
    found = line_law_quantities([task], "ln A = ln A0 - k t", [fit], {task: set()})
    assert [(q.name, q.unit) for q in found] == [("t_half", "s")]
    assert found[0].value == pytest.approx(math.log(2) / 0.0011)
    assert found[0].stderr == pytest.approx(math.log(2) / 0.0011 * 0.00002 / 0.0011)
    assert found[0].relation == "t_half = ln(2)/k, with k from ln A = ln A0 - k t"


def test_a_law_is_read_off_the_line_of_its_input_against_its_output_by_units() -> None:
    # columns headed by their units (`V`, `mA (1k)`): U and I of U = R·I by their dimension,
    # the current fitted against the voltage, so R = 1/slope, in kΩ rather than V/mA
    task = "Determine R from the slope of the line U = R·I."
    fit = line("current (1k)", "voltage", (1.0002, 0.0014), None, ("mA/V", ""))
    fit = fit.model_copy(update={"x_unit": "V", "y_unit": "mA"})
    found = line_law_quantities([task], "", [fit], {task: {"R"}})
    assert [(q.name, q.unit) for q in found] == [("R", "kΩ")]
    assert found[0].value == pytest.approx(1 / 1.0002)
    assert found[0].stderr == pytest.approx(0.0014 / 1.0002**2, rel=1e-3)


def test_a_column_of_another_quantity_stands_for_no_symbol_of_the_law() -> None:
    task = "Determine R from the slope of the line U = R·I."
    fit = line("time", "voltage", (2.0, 0.1), None, ("s/V", ""))
    fit = fit.model_copy(update={"x_unit": "V", "y_unit": "s"})
    assert line_law_quantities([task], "", [fit], {task: {"R"}}) == []


def test_a_physical_constant_of_the_law_is_known_so_the_other_symbol_is_given() -> None:
    # Clausius–Clapeyron on ln p against 1/T: ΔH_vap = −R·slope, R from CODATA, in J/mol
    task = "Calculate ΔH_vap in kJ/mol from the slope, with its standard error."
    law = "The Clausius–Clapeyron equation ln p = −ΔH_vap/(R·T) + const holds."
    fit = line("ln p", "1/T", (-7307.0, 18.0), (18.27, 0.045), ("K", ""))
    (found,) = line_law_quantities([task], law, [fit], {task: {"ΔH_vap"}})
    assert (found.name, found.unit) == ("ΔH_vap", "J/mol")
    assert found.value == pytest.approx(7307.0 * 8.314462618)
    assert found.stderr == pytest.approx(18.0 * 8.314462618, rel=1e-6)


def test_a_reciprocal_law_is_read_off_the_line_of_reciprocals() -> None:
    # the thin lens: 1/b against 1/g has slope −1 and intercept 1/f
    task = "Plot 1/b vs. 1/g, fit a straight line and determine f from the intercept."
    fit = line("1/b", "1/g", (-1.052, 0.013), (0.071, 0.00038), ("", "cm^-1"))
    (found,) = line_law_quantities([task], "The lens obeys 1/f = 1/b + 1/g.", [fit], {task: {"f"}})
    assert (found.name, found.unit) == ("f", "cm")
    assert found.value == pytest.approx(1 / 0.071)
    assert found.stderr == pytest.approx(0.00038 / 0.071**2, rel=1e-6)
