"""tools.fits.regression_request and tools.fits.regression_roles: which column a task's words and
formula name as the response and which as the predictors, whatever the order of the
columns. Wordings marked "outside" are quoted from lab handouts and exercise sheets."""

from __future__ import annotations

import pytest

from labscribe.tools.columns.column import Column
from labscribe.tools.fits.regression_request import regression_ask
from labscribe.tools.fits.regression_roles import Refusal, Roles, mentions, resolve
from labscribe.tools.formats.tables import TableSummary

LONGLEY = ("GNP.deflator", "GNP", "Unemployed", "Armed.Forces", "Population", "Year", "Employed")


def summary(*names: str) -> TableSummary:
    columns = [Column(key=n, header=n, name=n, count=10) for n in names]
    return TableSummary(
        id="data.csv", source="data.csv", block=0, encoding="utf-8", delimiter=",", decimal=".",
        rows=10, columns=columns, x=names[0],
    )  # fmt: skip


def roles(task: str, *names: str) -> Roles | Refusal | None:
    ask = regression_ask(task)
    return None if ask is None else resolve(ask, summary(*names))


@pytest.mark.parametrize(
    ("names", "task", "response", "predictors"),
    [
        (
            ("temperature", "pressure", "yield"),
            "Fit the yield as a linear function of both the temperature and the pressure "
            "(multiple linear regression).",
            "yield",
            ("temperature", "pressure"),
        ),
        (("x1", "x2", "x3", "y"), "Regress y on x1, x2 and x3.", "y", ("x1", "x2", "x3")),
        # outside: studylib.net, "Computer lab 3: Multiple regression", assignment 3
        (
            ("x1", "x2", "x3", "x4", "y"),
            "Fit the regression model with x1, x2 and x4 as explanatory variables.",
            "y",
            ("x1", "x2", "x4"),
        ),
        # outside: Levin & Rubin, self-check exercise SC 13-2 (scribd.com/document/535171203)
        (
            ("Rent", "Rooms", "Distance"),
            "Calculate the least-squares equation to predict rent from the number of rooms and "
            "the distance.",
            "Rent",
            ("Rooms", "Distance"),
        ),
        # outside: jufinance.com ENGR 200 final exam practice, multiple linear regression
        (
            ("GPA", "HWhrs", "Tutor", "Sleep"),
            "Write the fitted regression equation for GPA in terms of HWhrs, Tutor, and Sleep.",
            "GPA",
            ("HWhrs", "Tutor", "Sleep"),
        ),
        # outside: spu.edu/ddowning/bstatmrgr.html, "Multiple Regression sample exercises"
        (
            ("X1", "X2", "X3", "X4", "Y1"),
            "Perform a multiple regression calculation with the given variables.",
            "Y1",
            ("X1", "X2", "X3", "X4"),
        ),
        # outside: solutioninn.com, "fit the multiple linear regression model y = β0 + ..."
        (
            ("x1", "x2", "y"),
            "Use hand calculations to fit the multiple linear regression model "
            "y = β0 + β1x1 + β2x2 to the data set.",
            "y",
            ("x1", "x2"),
        ),
        (("T", "V", "P"), "Fit P = a + b*T + c*V to the data.", "P", ("T", "V")),
        (
            ("temperature", "pressure", "yield"),
            "Determine how the yield depends on temperature and pressure.",
            "yield",
            ("temperature", "pressure"),
        ),
        (
            ("Temperatur", "Druck", "Ausbeute"),
            "Bestimmen Sie die Ausbeute in Abhängigkeit von Temperatur und Druck (multiple "
            "lineare Regression).",
            "Ausbeute",
            ("Temperatur", "Druck"),
        ),
        (
            ("温度", "压力", "产率"),
            "以温度和压力为自变量、产率为因变量进行多元线性回归。",
            "产率",
            ("温度", "压力"),
        ),
        (
            ("温度", "压力", "产率"),
            "用多元线性回归拟合产率与温度、压力的关系。",
            "产率",
            ("温度", "压力"),
        ),
        (
            LONGLEY,
            "Fit the number employed as a linear function of the GNP deflator, GNP, "
            "unemployment, armed forces, population and year (multiple regression).",
            "Employed",
            LONGLEY[:6],
        ),
        (LONGLEY, "Regress Employed on all the other variables.", "Employed", LONGLEY[:6]),
    ],
)
def test_resolve_reads_the_response_and_predictors_from_the_words(
    names: tuple[str, ...], task: str, response: str, predictors: tuple[str, ...]
) -> None:
    found = roles(task, *names)
    assert isinstance(found, Roles), found
    assert (found.response, found.predictors) == (response, predictors)


@pytest.mark.parametrize(
    ("names", "task"),
    [
        (("t", "V"), "Plot V as a function of t and fit an exponential decay."),
        (("f", "V_R", "V_C"), "Fit V_R and V_C against f."),
        (
            ("f", "amplitude", "phase"),
            "Plot the amplitude as a function of frequency and the phase as a function of "
            "frequency.",
        ),
        (("L", "T"), "Fit a power law T = a L^b to the data."),
        (("x", "y"), "Fit the model y = b0 + b1*x + b2*x**2 to the data."),
        (
            ("I", "U"),
            "Determine the resistance from a straight-line fit of U against I and "
            "compare with R_nominal.",
        ),
        (("t", "x"), "Fit a straight line to x against t and give the slope."),
        (
            ("frequency", "V_in", "V_R", "phase"),
            "Fit a resonance curve to V_R and discuss how f0 depends on L and C.",
        ),
        (
            ("length", "mass", "period"),
            "Determine the dependence of the period on the length and the mass by fitting a "
            "power law T = a L^b.",
        ),
        (
            ("time", "mass", "temperature"),
            "Describe how the temperature depends on time and mass with an exponential decay.",
        ),
    ],
)
def test_resolve_leaves_a_one_predictor_task_alone(names: tuple[str, ...], task: str) -> None:
    assert roles(task, *names) is None


def test_resolve_refuses_a_named_predictor_that_is_no_column() -> None:
    found = roles("Fit the yield as a linear function of temperature and humidity.",
                  "temperature", "pressure", "yield")  # fmt: skip
    assert found == Refusal(
        "the task names humidity as a predictor, which no column of data.csv holds (its "
        "columns: temperature, pressure, yield)"
    )


def test_resolve_refuses_a_response_the_task_does_not_name() -> None:
    found = roles("Fit a multiple regression on a1 and a2.", "a1", "a2", "u", "v")
    assert isinstance(found, Refusal) and "which column of data.csv is the response" in (
        found.reason
    )


def test_resolve_fits_the_terms_a_formula_writes() -> None:
    found = roles("Fit y = b0 + b1*x1 + b2*x2 + b3*x1*x2 + b4*x1^2 to the data.", "x1", "x2", "y")
    assert isinstance(found, Roles)
    assert [(t.name, t.label, t.powers) for t in found.terms] == [
        ("b0", "1", ()), ("b1", "x1", (("x1", 1),)), ("b2", "x2", (("x2", 1),)),
        ("b3", "x1·x2", (("x1", 1), ("x2", 1))), ("b4", "x1^2", (("x1", 2),)),
    ]  # fmt: skip


def test_resolve_drops_the_intercept_through_the_origin() -> None:
    found = roles("Fit the yield as a linear function of temperature and pressure through "
                  "the origin.", "temperature", "pressure", "yield")  # fmt: skip
    assert isinstance(found, Roles) and not found.intercept


def test_mentions_takes_the_longest_name_first() -> None:
    found = mentions("the GNP deflator, GNP and the armed forces", summary(*LONGLEY).columns)
    assert [key for _, key in found] == ["GNP.deflator", "GNP", "Armed.Forces"]
