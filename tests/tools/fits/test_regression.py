"""tools.fits.regression: statsmodels OLS on centred and scaled columns, mapped back to the terms
as the task writes them; checked against statsmodels on the raw design where that design is
well conditioned, and against NIST's certified values where it is not."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from statsmodels.api import OLS, WLS, add_constant

from labscribe.tools.columns.column import describe
from labscribe.tools.fits.regression import Regression, regress, regressions
from labscribe.tools.fits.regression_request import Ask, regression_ask
from labscribe.tools.fits.regression_roles import Roles, formula_roles, resolve
from labscribe.tools.formats.tables import Table, TableSummary, read_data
from labscribe.tools.tool import Folder

STRD = Path(__file__).resolve().parents[3] / "bench" / "analysis" / "strd"
RNG = np.random.default_rng(26)


def table_of(columns: dict[str, np.ndarray], units: dict[str, str] | None = None) -> Table:
    """A table as the readers make it: columns described from a header `name (unit)`."""
    units = units or {}
    frame = pd.DataFrame(columns)
    spelled = [(f"{n} ({units[n]})" if n in units else n, n, units.get(n, "")) for n in columns]
    described = describe(frame, spelled)
    frame.columns = [c.key for c in described]
    summary = TableSummary(id="data.csv", source="data.csv", block=0, encoding="utf-8",
                           delimiter=",", decimal=".", rows=len(frame), columns=described,
                           x=described[0].key)  # fmt: skip
    return Table(summary, frame)


def asked(task: str, table: Table) -> Regression:
    ask = regression_ask(task)
    assert ask is not None
    roles = resolve(ask, table.summary)
    assert isinstance(roles, Roles), roles
    return regress(table, roles, ask)


def yield_table(n: int = 30, sigma: bool = False) -> Table:
    t, p = RNG.uniform(0, 10, n), RNG.uniform(0, 5, n)
    columns = {"temperature": t, "pressure": p, "yield": 2 + 3 * t - 1.5 * p}
    columns["yield"] = columns["yield"] + RNG.normal(0, 0.2, n)
    units = {"temperature": "C", "pressure": "bar", "yield": "g"}
    if sigma:
        columns["yield_err"] = RNG.uniform(0.1, 0.4, n)
    return table_of(columns, units)


def lre(value: float, certified: float) -> float:
    error = abs(value - certified) / abs(certified)
    return 15.0 if error == 0 else -math.log10(error)


def test_regress_agrees_with_statsmodels_on_the_raw_design() -> None:
    table = yield_table()
    done = asked("Fit the yield as a linear function of temperature and pressure.", table)
    frame = table.frame
    raw = OLS(frame["yield"], add_constant(frame[["temperature", "pressure"]])).fit()
    assert done.done and done.points == 30
    assert [c.value for c in done.coefficients] == pytest.approx(list(raw.params), rel=1e-10)
    assert [c.stderr for c in done.coefficients] == pytest.approx(list(raw.bse), rel=1e-10)
    assert done.r_squared == pytest.approx(raw.rsquared, rel=1e-12)
    assert done.adjusted_r_squared == pytest.approx(raw.rsquared_adj, rel=1e-12)
    assert done.residual_sd == pytest.approx(math.sqrt(raw.scale), rel=1e-10)


def test_regress_gives_each_coefficient_the_response_unit_over_its_term() -> None:
    done = asked("Fit Y = a + b*T + c*P + d*T*P + f*T^2 to the data.", table_of(
        {"T": RNG.uniform(1, 9, 20), "P": RNG.uniform(1, 4, 20), "Y": RNG.normal(5, 1, 20)},
        {"T": "C", "P": "bar", "Y": "g"},
    ))  # fmt: skip
    assert [(c.name, c.term, c.unit) for c in done.coefficients] == [
        ("a", "1", "g"), ("b", "T", "g/C"), ("c", "P", "g/bar"), ("d", "T·P", "g/(C·bar)"),
        ("f", "T^2", "g/C^2"),
    ]  # fmt: skip


def test_regress_weights_by_the_response_uncertainty_column() -> None:
    table = yield_table(sigma=True)
    done = asked("Regress yield on temperature and pressure.", table)
    frame = table.frame
    raw = WLS(frame["yield"], add_constant(frame[["temperature", "pressure"]]),
              weights=frame["yield_err"] ** -2).fit()  # fmt: skip
    assert done.weighted_by == "yield_err"
    assert [c.value for c in done.coefficients] == pytest.approx(list(raw.params), rel=1e-10)
    assert [c.stderr for c in done.coefficients] == pytest.approx(list(raw.bse), rel=1e-10)
    assert done.reduced_chi_square == pytest.approx(raw.scale, rel=1e-10)
    assert done.residual_sd is None


def test_regress_recovers_longley_to_nist_digits() -> None:
    """NIST StRD Longley: six economic series, collinear; certified to 15 digits."""
    table = read_data(Folder(STRD), "Longley.csv").tables[0]
    roles = formula_roles("y = b0 + b1*x1 + b2*x2 + b3*x3 + b4*x4 + b5*x5 + b6*x6",
                          table.summary)  # fmt: skip
    assert isinstance(roles, Roles)
    done = regress(table, roles, Ask(task="", number=1))
    certified = next(d for d in _strd() if d["name"] == "Longley")["certified"]
    found = {c.name: c for c in done.coefficients}
    assert min(lre(found[n].value, c["value"]) for n, c in certified.items()) > 12
    assert min(lre(found[n].stderr, c["stderr"]) for n, c in certified.items()) > 12


def test_regress_recovers_filip_where_the_raw_design_defeats_statsmodels() -> None:
    """NIST StRD Filip: x to the tenth power, condition number 2e15 as written."""
    table = read_data(Folder(STRD), "Filip.csv").tables[0]
    formula = "y = " + " + ".join(["b0"] + [f"b{i}*x**{i}" for i in range(1, 11)])
    roles = formula_roles(formula, table.summary)
    assert isinstance(roles, Roles)
    done = regress(table, roles, Ask(task="", number=1))
    certified = next(d for d in _strd() if d["name"] == "Filip")["certified"]
    found = {c.name: c for c in done.coefficients}
    assert min(lre(found[n].value, c["value"]) for n, c in certified.items()) > 10
    x, y = table.frame["x"].to_numpy(), table.frame["y"].to_numpy()
    with pytest.warns(UserWarning, match="rank-deficient"):
        naive = OLS(y, np.vander(x, 11, increasing=True)).fit().params
    assert lre(naive[0], certified["b0"]["value"]) < 1
    assert any("nearly collinear" in note for note in done.notes)


def test_regress_refuses_collinear_predictors() -> None:
    celsius = RNG.uniform(10, 40, 20)
    done = asked("Regress the rate on T_C and T_K.", table_of(
        {"T_C": celsius, "T_K": celsius + 273.15, "rate": RNG.normal(3, 1, 20)}
    ))  # fmt: skip
    assert not done.done and done.coefficients == []
    assert "collinear" in done.why_not and "rank 2 of 3" in done.why_not


def test_regress_refuses_fewer_points_than_coefficients_plus_two() -> None:
    done = asked("Regress y on a1 and a2.", table_of(
        {"a1": np.array([1.0, 2, 3, 4]), "a2": np.array([2.0, 1, 4, 3]),
         "y": np.array([1.0, 2, 2, 5])}
    ))  # fmt: skip
    assert not done.done
    assert done.why_not == (
        "only 4 rows hold every value it needs, and 3 coefficients need at least 5"
    )


def test_regress_refuses_a_predictor_that_does_not_vary() -> None:
    done = asked("Regress y on a1 and a2.", table_of(
        {"a1": np.linspace(0, 1, 8), "a2": np.full(8, 2.0), "y": RNG.normal(0, 1, 8)}
    ))  # fmt: skip
    assert (done.done, done.why_not) == (False, "a2 does not vary")


def test_regress_says_when_the_model_misses_a_curvature() -> None:
    x1, x2 = np.linspace(0, 10, 60), RNG.uniform(0, 1, 60)
    done = asked("Fit y as a linear function of x1 and x2.", table_of(
        {"x1": x1, "x2": x2, "y": x1**2 + x2 + RNG.normal(0, 0.1, 60)}
    ))  # fmt: skip
    assert done.done and not done.good and done.structure
    assert any(n.startswith("the regression does not describe these data") for n in done.notes)


def test_regress_fits_a_term_that_is_no_monomial_where_it_is_defined() -> None:
    # its own draws: the module's RNG is consumed in whatever order a pytest worker runs tests
    rng = np.random.default_rng(28)
    x1 = np.concatenate([[-0.5, 0.0, -0.2], rng.uniform(0.1, 5, 37)])  # log undefined in 3 rows
    x2 = rng.uniform(0, 1, 40)
    y = 1 + 2 * np.log(np.abs(x1) + 1e-3) + 3 * x2 + rng.normal(0, 0.01, 40)
    done = asked(
        "Fit y = a + b*log(x1) + c*x2 to the data.", table_of({"x1": x1, "x2": x2, "y": y})
    )
    kept = x1 > 0
    raw = OLS(y[kept], add_constant(np.column_stack([np.log(x1[kept]), x2[kept]]))).fit()
    assert done.points == int(kept.sum()) and done.coefficients[1].term == "log(x1)"
    assert [c.value for c in done.coefficients] == pytest.approx(list(raw.params), rel=1e-10)
    assert done.notes[0].startswith(f"{int((~kept).sum())} rows where a term cannot be computed")


def test_regressions_state_a_named_predictor_that_is_no_column() -> None:
    done = regressions(
        ["Fit the yield as a linear function of temperature and humidity."],
        [yield_table()],
    )  # fmt: skip
    assert [(r.number, r.done) for r in done] == [(1, False)]
    assert done[0].why_not.startswith("the task names humidity as a predictor, which no column")


def test_regressions_leave_a_one_predictor_task_to_the_fits() -> None:
    tasks = ["Fit the yield against temperature with a straight line.",
             "Fit the model y = b0 + b1*x + b2*x**2 to the data."]  # fmt: skip
    table = table_of({"x": np.linspace(0, 1, 10), "y": np.linspace(0, 2, 10)})
    assert regressions(tasks, [yield_table(), table]) == []


def _strd() -> list[dict]:
    return json.loads((STRD / "strd.json").read_text())["datasets"]


def test_a_task_comparing_digits_with_certified_values_gets_every_digit() -> None:
    """NIST StRD Longley's certified b2 is -0.0358191792925910 ± 0.0334910077722432: a task
    that counts agreeing digits gets 15 significant digits, any other task two of the error."""
    from labscribe.tools.fits.regression import Coefficient
    from labscribe.tools.fits.regression_text import ASKS_DIGITS, coefficient_text

    b2 = Coefficient(name="GNP", value=-0.0358191792925910, stderr=0.0334910077722432)
    assert coefficient_text(b2, False) == "GNP = -0.036 ± 0.033"
    assert coefficient_text(b2, False, full=True) == "GNP = -0.035819179292591 ± 0.0334910077722432"
    for task in ("Compare your coefficients with the certified values published by NIST.",
                 "How many significant digits agree with the reference values?",
                 "Wie viele signifikante Stellen stimmen überein?"):  # fmt: skip
        assert ASKS_DIGITS.search(task)
    assert not ASKS_DIGITS.search("Give each coefficient with its standard error.")
