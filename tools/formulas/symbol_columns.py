"""Which column a formula's symbol names: by name, by a word of a column's name, by a
camelCase letter, by the dimension its letter conventionally stands for; or the repeated
series or observers' columns of one quantity it names together. Read by every place that
puts a formula's symbols to columns (tools.formulas.formed_columns, the part of the data a
task's condition picks), so they all match a symbol alike.
"""

from __future__ import annotations

import re

from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import OWN_LETTER, name_ends
from labscribe.tools.columns.symbol_dimensions import conventional_column
from labscribe.tools.formulas.formula_notation import plain_symbol


def symbol_pattern(symbol: str) -> str:
    return rf"(?<![\w\u0370-\u03ff]){re.escape(symbol)}(?![\w\u0370-\u03ff])"


def columns_for(symbol: str, columns: list[Column], tasks: str = "") -> list[Column]:
    """The column a formula's symbol names, or the repeated series of one quantity it names
    (five columns `T (s)`: their mean is the quantity): by its name; by the first or last
    word of its name (`L_air`, `lambda_peak`, `load m`); by its first letter in camelCase
    (`hResorte` for h) where it is the only one or the only one the `tasks` name; else the
    one column whose unit has the dimension the symbol conventionally stands for (p: a
    pressure). [] for none."""
    usable = [c for c in columns if c.uncertainty_of is None and c.count]
    camel = [c for c in usable if re.match(rf"{re.escape(symbol)}[A-Z][a-z]", c.name)]
    # `U_out` for the column `u_out`: a subscript of a word or two tells the quantity, the
    # letter's case only the convention (a letter alone keeps its case: t a time, T a period)
    worded = re.fullmatch(r"[A-Za-z]_[A-Za-z]{2,}", symbol) is not None
    for named in (
        [c for c in usable if symbol in (c.name, c.key, _symbol_of(c.name))],
        [c for c in usable if worded and symbol.lower() == _symbol_of(c.name).lower()],
        [c for c in usable if symbol in name_ends(c.name) and not c.formed],
        [c for c in camel if len(camel) == 1 or re.search(symbol_pattern(c.name), tasks)],
    ):
        if len(named) == 1 or (named and (repeats(named) or _observers(named, symbol))):
            return named
        if named:
            return []
    # a column headed by a letter of its own (`t`, a time) is that letter's quantity, not
    # another symbol's of its dimension (T, a temperature or a period)
    return conventional_column(
        symbol, [c for c in usable if not c.formed and not OWN_LETTER.fullmatch(c.name.strip())]
    )


def repeats(columns: list[Column]) -> bool:
    """Whether columns are repeated series of one quantity: one name, one unit."""
    return len({(c.name, c.unit) for c in columns}) == 1


def _observers(columns: list[Column], symbol: str) -> bool:
    """Whether columns are one quantity read by several observers or runs (`b_Anna`,
    `b_Ben`, `b_Chloe` in cm): the symbol's name with a tag each, one unit. Their mean is
    the quantity; none is another's axis."""
    firsts = {re.split(r"[_\s]+", c.name.strip())[0] for c in columns}
    return len(columns) >= 2 and firsts == {symbol} and len({c.unit for c in columns}) == 1


def _symbol_of(name: str) -> str:
    """A column's name as a formula's symbol: `U_{0}` is U_0, `ΔT` DeltaT, `λ` lam."""
    return plain_symbol(name).replace("{", "").replace("}", "")
