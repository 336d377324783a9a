"""A formula's sympy tree evaluated by walking it, with no code generated or run.

Apart from the parser (tools.formulas.formula_parse) because its callers bring their own arithmetic:
numpy's on arrays of thousands of guesses (tools.formulas.starts, tools.formulas.canonical_form), or
`uncertainties`' on numbers whose errors propagate (tools.formulas.quantities).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy

from labscribe.tools.formulas.formula_parse import FormulaError

NUMPY_FUNCTIONS: dict[type, Callable[..., np.ndarray]] = {
    sympy.exp: np.exp, sympy.log: np.log, sympy.sin: np.sin, sympy.cos: np.cos,
    sympy.tan: np.tan, sympy.atan: np.arctan, sympy.asin: np.arcsin, sympy.acos: np.arccos,
    sympy.sinh: np.sinh, sympy.cosh: np.cosh, sympy.tanh: np.tanh, sympy.Abs: np.abs,
}  # fmt: skip


def evaluate_tree(
    node: sympy.Expr,
    values: Mapping[str, Any],
    functions: Mapping[type, Callable[..., Any]] = NUMPY_FUNCTIONS,
) -> Any:
    """`node` evaluated on `values` by walking its tree, no code generated: with numpy's
    `functions` on arrays that broadcast (thousands of guesses in one pass, tools.formulas.starts),
    or with `uncertainties`' on uncertain numbers (tools.formulas.quantities)."""
    if node.is_Symbol:
        return values[node.name]
    if node.is_Number or node in (sympy.pi, sympy.E):
        return float(node)
    parts = [evaluate_tree(arg, values, functions) for arg in node.args]
    if node.is_Add:
        return sum(parts[1:], parts[0])
    if node.is_Mul:
        result = parts[0]
        for part in parts[1:]:
            result = result * part
        return result
    if node.is_Pow:
        return parts[0] ** parts[1]
    function = functions.get(type(node))
    if function is None:
        raise FormulaError(f"{node.func} is not a function a formula may use")
    return function(*parts)
