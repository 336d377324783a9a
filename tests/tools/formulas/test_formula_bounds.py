"""Formulas that would hold the interpreter (issue 27, class 3): a power tower, a huge
integer, a power of symbols that expands to millions of terms, nesting beyond reason. Each is
refused from its unevaluated tree before sympy computes anything, by parse_formula, by
parse_expression and so by the `fit` and `derive` tools, which answer with a tool error the
model reads; every lab formula of the certified sets and the handouts still parses."""

from __future__ import annotations

from pathlib import Path

import pytest
from asuser import as_normal_user

from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression, parse_formula

HOSTILE = [
    "y = a*x + 9^9^9",
    "y = a*x + 9**9**9",
    "y = a*x^(10^10)",
    "y = a*(x + b + c + d)^300",
    "y = a*x + 10^400",
    "y = a*x + 123456789012345678901234567890123456789012345678901234567890",
    "y = a*x + (((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))) ",
    "y = a*x*2^2^2^2^2^2",
]
# Models as labs and NIST's certified nonlinear sets write them: each parses.
LAB_FORMULAS = [
    "y = b1*(1-exp(-b2*x))",  # NIST Misra1a
    "y = b1 / (1+exp(b2-b3*x))",  # NIST Rat42
    "y = (b1 + b2*x + b3*x**2 + b4*x**3) / (1 + b5*x + b6*x**2 + b7*x**3)",  # Thurber
    "y = b1*exp(-b2*x) + b3*exp(-(x-b4)**2 / b5**2) + b6*exp(-(x-b7)**2 / b8**2)",  # Gauss1
    "V(r) = 4*eps*((s/r)^12 - (s/r)^6)",  # Lennard-Jones
    "P = A*sigma*T^4",  # Stefan-Boltzmann
    "U = 6.626*10^-34*c/(lam*1.602*10^-19) - W",  # photoelectric, constants as numbers
    "N = N_0*6.022*10^23*exp(-t/tau)",
]


@pytest.mark.parametrize("formula", HOSTILE)
def test_a_hostile_formula_is_refused_before_anything_is_computed(formula: str) -> None:
    with pytest.raises(FormulaError):
        parse_formula(formula)
    with pytest.raises(FormulaError):
        parse_expression(formula.split("=", 1)[1])


@pytest.mark.parametrize("formula", LAB_FORMULAS)
def test_every_lab_formula_still_parses(formula: str) -> None:
    parsed = parse_formula(formula)
    assert parsed.parameters


def test_the_fit_and_derive_tools_answer_a_power_tower_with_a_tool_error(user_dir: Path) -> None:
    # as a normal user, in a process of its own: a formula that held the interpreter would
    # fail the test by its timeout instead of hanging the suite
    (user_dir / "d.csv").write_text("x,y\n1,2\n2,4\n3,6\n4,8\n5,10\n")
    code = f"""
from pathlib import Path
from labscribe.tools.base import ToolError
from labscribe.tools.tool import Folder
from labscribe.tools.explorer.fitting import DeriveArgs, FitArgs, run_derive, run_fit
folder = Folder(Path({str(user_dir)!r}))
for call in (lambda: run_fit(folder, FitArgs(path="d.csv", x="x", y="y",
                                             formula="y = a*x + 9^9^9")),
             lambda: run_derive(folder, DeriveArgs(name="g", expression="9^9^9*2"))):
    try:
        call()
    except ToolError as exc:
        print("refused:", exc)
"""
    done = as_normal_user(code, owns=[user_dir], timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("refused:") == 2, done.stdout
    assert "9^9^9" in done.stdout  # the model reads which formula, and why
