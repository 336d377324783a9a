"""The quantities a handout asks to plot or fit that no column holds, formed from the
columns that do, before the roles are decided and the fits run: the definitions it states
(`T = t20/20`, `P = U · I`, `p = dh + 29.125 in Hg`), the period from a column of N swings
timed together (`t10`, averaged over repeated series `t10_1`, `t10_2`, ...), and the axes of
a linearising plot ("T² gegen l", "ln p against 1/T", "U_th against 1/λ", "P gegen T⁴").

Each is a new column of its table, named as the handout writes it (`T²`, `1/λ`, `ln p`),
its unit from its columns' units (pint for the dimensions and a temperature's conversion to
kelvin; never by hand), and a sentence saying how it was formed. Its name is what the
handout's "T² against l" names (tools.columns.column_names), so the roles, the requested fits, the
figures and the checklist read it as any other column. A handout's axis whose symbols name
no column is said plainly (`unformed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import sympy

from labscribe.tools.assignment.task_files import named_files
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.repeat_names import RUN_NAME, stated_swings
from labscribe.tools.columns.symbol_dimensions import dimension_is
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.tables import Table
from labscribe.tools.formulas.appended_columns import append_formed, propagate
from labscribe.tools.formulas.axis_expressions import Wanted, defined, plotted, swings_timed, writes
from labscribe.tools.formulas.formed_inputs import (
    Inputs,
    Known,
    known_column,
    reading_known,
    stated_knowns,
)
from labscribe.tools.formulas.formed_units import (
    pure_number_scale,
    unit_of,
    unit_text,
)
from labscribe.tools.formulas.formula_notation import juxtaposed
from labscribe.tools.formulas.held_powers import held_square
from labscribe.tools.formulas.reference_readings import reading, reference_row
from labscribe.tools.formulas.symbol_columns import columns_for, repeats, symbol_pattern

_PERIOD_WORDS = re.compile(
    r"(?<![A-Za-z])(?-i:T)(?![A-Za-z])|period|periode|schwingungsdauer|swing|schwingung|"
    r"oscillation|周期",
    re.IGNORECASE,
)
MAX_FORMED = 8  # per table
# Series of one symbol whose readings differ by more than this share of their size in the
# median row are different runs (one capacitor each), not observers of one quantity.
RUNS_AGREE = 0.2


@dataclass
class Forming:
    """What forming found: the notes of axes that could not be formed."""

    unformed: list[str] = field(default_factory=list)


def form_columns(
    tables: list[Table], tasks: list[str], text: str, stated: Sequence[ParameterRow] = ()
) -> Forming:
    """Add to each of `tables` the quantities the assignment (its `tasks`, then its whole
    `text`) defines or asks to plot that its columns can form, with the values its prose
    `stated` for the symbols no column holds (N = Z/Δt with Δt = 10 s); say which axes
    none can."""
    texts = [*tasks, text] if text else list(tasks)
    definitions = defined(texts)
    axes = plotted(texts)
    period = bool(_PERIOD_WORDS.search("\n".join(texts)))
    swings = stated_swings("\n".join(texts))
    # a definition is formed where the tasks use its symbol (or plot it), not for every
    # formula of the handout's prose
    used = {s for axis in axes for s in axis.symbols} | {
        w.name for w in definitions if re.search(symbol_pattern(w.name), "\n".join(tasks))
    }
    formed_anywhere: set[str] = set()
    for table in tables:
        here = [axis for axis in axes if not _partner_elsewhere(axis, table, tables)]
        # a value stated in a sentence about other files (`14aufgabe.csv` … in t = 5 s) is
        # theirs: another file's counts were taken over another time
        given = [r for r in stated
                 if not r.said_of or named_files(r.said_of, [table.summary.source])]  # fmt: skip
        inputs = Inputs(stated_knowns(given), "\n".join(tasks))
        formed_anywhere |= _form_in(table, definitions, here, (period, swings), used, inputs)
    result = Forming()
    for axis in axes:
        if axis.name not in formed_anywhere and not any(
            axis.name == c.name or _holds(c, axis.expression)
            for t in tables
            for c in t.summary.columns
        ):
            missing = sorted(axis.symbols)
            result.unformed.append(
                f"The assignment's axis {axis.name} (“{_cut(axis.sentence)}”) was not formed: "
                f"{', '.join(missing)} {'names' if len(missing) == 1 else 'name'} no column of "
                "the data that could be read, so no fit against it is given."
            )
    return result


def _partner_elsewhere(axis: Wanted, table: Table, tables: list[Table]) -> bool:
    """Whether what the axis is plotted against ("1/√R gegen d": d) is in another table but
    not in this one: the axis is that table's (a count rate against the distance), not one
    of every table that holds its symbols (the count rate against the voltage)."""

    def holds(other: Table) -> bool:
        columns = other.summary.columns
        return any(
            all(columns_for(s.name, columns) for s in partner.free_symbols)
            for partner in axis.partners
        )

    if not axis.partners or holds(table):
        return False
    return any(holds(other) for other in tables if other is not table)


def _holds(column: Column, expression: sympy.Expr) -> bool:
    """Whether `column` already holds the axis: `U2 [V2]` is U² (tools.formulas.held_powers),
    `2V/R^2` is 2V/R² (tools.formulas.axis_expressions.writes)."""
    base, power = expression.as_base_exp()
    return (isinstance(base, sympy.Symbol) and power == 2
            and held_square(column.name, column.unit, base.name)) or writes(
        column.name, expression)  # fmt: skip


def _form_in(
    table: Table,
    definitions: list[Wanted],
    axes: list[Wanted],
    period: tuple[bool, int | None],
    used: set[str],
    inputs: Inputs,
) -> set[str]:
    formed: set[str] = set()
    summary = table.summary
    done = {c.name for c in summary.columns}
    for wanted in definitions:
        if wanted.name not in used or wanted.name in done or wanted.expression.is_Symbol:
            continue  # `x = m` names a column again ("y = A + Bx con x = m"): nothing to form
        if _add(table, wanted, f"{wanted.name} = ", inputs):
            done.add(wanted.name)
            formed.add(wanted.name)
    if period[0] and "T" not in done and _add_period(table, period[1]):
        done.add("T")
    for wanted in axes:
        if len(formed) >= MAX_FORMED:
            break
        held = any(_holds(c, wanted.expression) for c in summary.columns)  # `f_quadrado`
        prefix = f"{wanted.name} = "
        if wanted.name not in done and not held and _add(table, wanted, prefix, inputs):
            done.add(wanted.name)
            formed.add(wanted.name)
    return formed


def _add_period(table: Table, stated: int | None) -> bool:
    """The period T from columns that time N swings together (their mean, over repeated
    series, divided by N), where the table has no column T: N from the column's name
    (`t10`), or from the handout's words for runs of timings (`1st run`, `Messung 2`)."""
    summary = table.summary
    timed = [(c, swings_timed(c.name)) for c in summary.columns if c.uncertainty_of is None]
    runs = [c for c, _ in timed if RUN_NAME.search(c.name)]
    if stated and len(runs) >= 2 and not any(number for _, number in timed):
        timed = [(c, stated if c in runs else None) for c, _ in timed]
    groups: dict[int, list[Column]] = {}
    for column, number in timed:
        if number and dimension_is(column.unit, ("second",)):
            groups.setdefault(number, []).append(column)
    if len(groups) != 1:
        return False
    ((number, columns),) = groups.items()
    if any(c.unit != columns[0].unit for c in columns):
        return False
    values = table.frame[[c.key for c in columns]].to_numpy(dtype=float).mean(axis=1) / number
    names = ", ".join(c.name for c in columns)
    how = (
        f"the mean of {names} (the time of {number} swings, measured {len(columns)} times) "
        f"divided by {number}" if len(columns) > 1
        else f"{names} (the time of {number} swings) divided by {number}"
    )  # fmt: skip
    append_formed(table, "T", values, columns[0].unit, how, [c.key for c in columns])
    return True


def _add(table: Table, wanted: Wanted, prefix: str, inputs: Inputs) -> bool:
    """Form `wanted` in `table` where every symbol of it names a column; False otherwise.
    A symbol that names several series of different runs (`V_C1`, `V_C2`: one capacitor
    each) forms `wanted` once for each, named after it (`ln V_C1`): their mean is no
    measurement."""
    wanted = _products_written_together(wanted, table, inputs)
    for symbol in sorted(wanted.symbols):
        columns = columns_for(symbol, table.summary.columns, inputs.tasks)
        if len(columns) >= 2 and not repeats(columns) and not _agree(columns, table):
            runs = [_for_run(wanted, symbol, column) for column in columns]
            return sum(_add_one(table, run, prefix, {symbol: [c]}, inputs)
                       for run, c in zip(runs, columns, strict=True)) > 0  # fmt: skip
    return _add_one(table, wanted, prefix, {}, inputs)


def _products_written_together(wanted: Wanted, table: Table, inputs: Inputs) -> Wanted:
    """`wanted` with each symbol that names nothing but is a product of letters that do
    (`rF` of D = rF/φ beside columns r and F) written as that product."""

    def known(name: str) -> bool:
        return name in inputs.stated or bool(columns_for(name, table.summary.columns, inputs.tasks))

    expression = wanted.expression
    for symbol in expression.free_symbols:
        if known(symbol.name) or (names := juxtaposed(symbol.name, known)) is None:
            continue
        factors = [sympy.Symbol(name, **symbol.assumptions0) for name in names]
        expression = expression.subs(symbol, sympy.Mul(*factors))
    return replace(wanted, expression=expression) if expression is not wanted.expression else wanted


def _for_run(wanted: Wanted, symbol: str, column: Column) -> Wanted:
    """`wanted` for the one series `column` of the several `symbol` names."""
    name = re.sub(symbol_pattern(symbol), lambda _: column.name, wanted.name)
    return Wanted(name, wanted.expression, wanted.sentence)


def _agree(columns: list[Column], table: Table) -> bool:
    """Whether several series read one quantity (observers' readings of one image distance):
    row by row within RUNS_AGREE of their size, in the median row."""
    values = table.frame[[c.key for c in columns]].to_numpy(dtype=float)
    with np.errstate(all="ignore"):
        spread = np.ptp(values, axis=1) / np.abs(np.mean(values, axis=1))
    spread = spread[np.isfinite(spread)]
    return bool(len(spread)) and float(np.median(spread)) <= RUNS_AGREE


def _add_one(
    table: Table,
    wanted: Wanted,
    prefix: str,
    chosen: dict[str, list[Column]],
    inputs: Inputs,
) -> bool:
    """Form `wanted` with the columns `chosen` for some of its symbols, the others' by
    name (columns_for), else by the value the handout states for them, else as one reading
    of a column (h(m=0), T_0); False where a symbol names none, or no symbol a column."""
    known: dict[str, Known] = {}
    sources: list[str] = []
    references = 0
    for symbol in sorted(wanted.symbols):
        columns = chosen.get(symbol) or columns_for(symbol, table.summary.columns, inputs.tasks)
        if columns:
            known[symbol] = known_column(symbol, columns, table)
            sources += [c.key for c in columns]
        elif symbol in inputs.stated:
            known[symbol] = inputs.stated[symbol]
        elif (one := _one_reading(symbol, table, chosen, inputs.tasks)) is not None:
            known[symbol] = one
            references += 1
        else:
            return False
    if not sources or len(set(sources)) < len(sources):
        return False  # one column for two symbols (r and L both `Laenge`): a guess
    units = unit_of(wanted.expression, {n: k.units for n, k in known.items()})
    if units is None:
        return False
    names = sorted(known)
    function = sympy.lambdify([sympy.Symbol(n) for n in names], wanted.expression, "numpy")
    with np.errstate(all="ignore"):
        values = np.asarray(function(*(known[n].values for n in names)), dtype=float)
    if values.shape != (len(table.frame),) or not np.isfinite(values).any():
        return False
    if references and np.count_nonzero(~np.isfinite(values)) > 1:
        # ln(R − R₀) with R₀ the first rate leaves no logarithm where R falls below it: R₀ is
        # a reading of its own (the background), not this table's first
        return False
    scale = pure_number_scale(units)
    if scale is not None:  # 2π·f·Δt in µs·Hz: the number itself (rad), not millionths
        values, units = values * scale, {}
    if _held(table, values, sources):
        return True  # a column of the file holds it already (`P = UI [mW]` for P = U·I)
    written = str(wanted.expression)
    for name in names:
        text = known[name].text
        text = text if re.fullmatch(r"[\w]+", text) else f"({text})"
        written = re.sub(rf"(?<![\w]){re.escape(name)}(?![\w])", text, written)
    inputs = [
        known[n].stated or f"{known[n].text} in {unit_text(known[n].units)}"
        for n in names
        if known[n].stated or (known[n].units and " in " not in known[n].text)
    ]
    how = f"{prefix}{_tidy(written)}" + (f", with {', '.join(inputs)}" if inputs else "")
    key = append_formed(table, wanted.name, values, unit_text(units), how, sources)
    propagate(table, wanted, known, (key, unit_text(units), scale or 1.0))
    return True


def _one_reading(
    symbol: str, table: Table, chosen: dict[str, list[Column]], tasks: str
) -> Known | None:
    """The reading `symbol` stands for (h(m=0), T_0; tools.formulas.reference_readings) in the one
    column of its quantity, from the row that holds it; None where there is none."""
    wanted = reading(symbol)
    if wanted is None:
        return None
    columns = chosen.get(wanted.of) or columns_for(wanted.of, table.summary.columns, tasks)
    where = columns_for(wanted.where, table.summary.columns, tasks) if wanted.where else None
    if len(columns) != 1 or where == []:
        return None
    found = reference_row(table, columns[0], where)
    if found is None:
        return None
    return reading_known(symbol, known_column(wanted.of, columns, table), *found)


def _held(table: Table, values: np.ndarray, sources: list[str]) -> bool:
    """Whether a column not among `sources` holds `values` row for row, to the digits a
    workbook keeps."""
    finite = np.isfinite(values)
    scale = float(np.max(np.abs(values[finite]))) or 1.0
    for column in table.summary.columns:
        if column.key in sources:
            continue
        held = table.frame[column.key].to_numpy(dtype=float)
        if np.array_equal(np.isfinite(held), finite) and np.allclose(
            held[finite], values[finite], rtol=0, atol=1e-6 * scale
        ):
            return True
    return False


def _tidy(text: str) -> str:
    """sympy's `**` and `log` as a report writes them: `^`, `ln`."""
    return text.replace("**", "^").replace("log(", "ln(").replace("*", "·")


def _cut(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
