"""A column that already holds a power of a formula's variable: `U2 [V2]`, `U^2 [V^2]`,
`t²`, `v_sq` beside `F = k·U²`. Spreadsheets export the squared quantity a law is linear in;
squaring it again (k·(U²)²) would give k in N/V⁴ and off by the size of U². The formula is
fitted in the column's own terms instead: its variable's square is the column (F = k·x).
"""

from __future__ import annotations

import re
from dataclasses import replace

import sympy

from labscribe.tools.formulas.formula_parse import Formula

# `U2`, `U^2`, `U²`, `U_sq`, `Usquared`, `f_quadrado`, `T_Quadrat`: the name a squared
# column goes by, in the languages of the handouts.
_SQUARED_NAME = re.compile(
    r"^(?P<base>.+?)(?:\^?\{?2\}?|²|_?sq(?:uared)?|[_ ](?:squared|quadrado|quadrat|carr[ée]"
    r"|cuadrado|quadrato|kwadrat|kvadrát|квадрат|kwadraat))$",
    re.IGNORECASE,
)
# A unit that is a square: `V2`, `V^2`, `V²`, `m2/s2` ends in one.
_SQUARED_UNIT = re.compile(r"(?:\^\{?2\}?|²|(?<=[A-Za-zΩµ])2)$")


def held_square(column: str, unit: str, variable: str) -> bool:
    """Whether column `column` (in `unit`) holds the square of the formula's `variable`:
    its name is the variable's and a 2, and its unit, where it has one, is a square."""
    named = _SQUARED_NAME.match(column.strip())
    if named is None or named["base"].strip() != variable:
        return False
    return not unit or _SQUARED_UNIT.search(unit.strip()) is not None


def in_squares(formula: Formula) -> Formula | None:
    """`formula` with its variable standing for the variable's square (F = k·U² becomes
    F = k·U); None where the variable appears otherwise than squared (U² + U)."""
    expression = formula.sympy
    plain = next((s for s in expression.free_symbols if s.name == formula.x), None)
    if plain is None:
        return None
    x = sympy.Symbol(formula.x, positive=True)
    expression = expression.subs(plain, x)
    squared = sympy.powsimp(expression.subs(x, sympy.sqrt(x)), force=True)
    if any(p.base == x and not p.exp.is_integer for p in squared.atoms(sympy.Pow)):
        return None
    return replace(formula, expression=sympy.sstr(squared.subs(x, plain)))


def held_note(column: str, variable: str) -> str:
    return (f"{column} holds {variable}² already: the formula is fitted with it as "
            f"{variable}², not squared again")  # fmt: skip
