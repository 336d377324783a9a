"""Extremes and thresholds a task asks for ("the maximum force", "the peak voltage",
"Maximalkraft", "最大值", "the voltage at which the current reaches 1 mA"), answered from
the data or from the instrument's own result.

A maximum or minimum is the named column's extreme with the value of the table's variable
where it occurs, each with its unit. Where the export states the result itself (an Instron
or Zwick header's `Maximum Load`, `Fmax`, read as settings by tools.formats.instruments), that is
preferred and said to be the instrument's, the data's extreme beside it. A threshold the task
defines by a level is the first crossing of that level in the order the rows were measured,
interpolated linearly between the two rows around it, and said so; a threshold the task does
not define (a "breakdown voltage", an "onset") is left for the student with the reason.

The column a task means is found by its name, or by the quantity its unit measures (a column
in kN is a force or a load): a task that names no column gets nothing, rather than the
extreme of the wrong one. What the task's words ask for is read in tools.fits.extreme_words.
"""

from __future__ import annotations

import re

import numpy as np
from pydantic import BaseModel

from labscribe.guards.numbers import Fact
from labscribe.tools.analysis.data_facts import words_of
from labscribe.tools.assignment.role_phrases import is_symbol
from labscribe.tools.assignment.task_files import named_tables
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.quantity_words import base_unit, scale_of
from labscribe.tools.fits.all_maxima import (
    MAX_LISTED,
    PROMINENCE_SIGMAS,
    asked_range,
    asks_all_maxima,
    local_maxima,
)
from labscribe.tools.fits.extreme_columns import (
    NEAR_WORDS,
    measured_columns,
    named_columns,
    quantity_text,
    symbol_column,
    words_apart,
)
from labscribe.tools.fits.extreme_words import (
    BY_METHOD,
    EACH,
    FALLING,
    LEVELS,
    MAXIMUM,
    MINIMUM,
    NOT_DATA,
    OF_SYMBOL,
    SUBSCRIPTED,
    THRESHOLD,
    symbol_of,
    written_as_subscript,
)
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formats.tables import Table

# An instrument's own maximum: `Maximum Load`, `Max. Kraft`, `Fmax`, `F_max`, `Peak Load`.
OWN_MAXIMUM = re.compile(r"max|peak|höchst|spitzen|\bfm\b|bruch|break", re.IGNORECASE)
BREAK = re.compile(r"break|bruch|rupture|fracture|断裂", re.IGNORECASE)


class Extreme(BaseModel):
    task: str
    kind: str
    """"maximum", "minimum", "crossing", "instrument", or "threshold" (not defined)."""
    given: str = ""
    """What the data or the instrument give, as the checklist row states it."""
    left: str = ""
    """What is left for the student, with why, when the data cannot give it."""
    value: float | None = None
    unit: str = ""
    name: str = ""
    """The quantity's column (or the instrument's result) name."""
    table: str = ""


def asked_extremes(
    tasks: list[str],
    tables: list[Table],
    parameters: list[ParameterRow],
    computed: frozenset[str] = frozenset(),
) -> list[Extreme]:
    """What the data (or an instrument's own results) give each task that asks for a
    maximum, a minimum or a threshold. `computed`: the symbols the handout works out by a
    formula (`E_max = 1,92 MeV · √(x² + 0,22·x)`): "daraus E_max abschätzen" asks for no
    column's largest value."""
    found: list[Extreme] = []
    sources = {table.summary.source for table in tables}
    own = [row for row in parameters if row.source in sources and row.number is not None]
    ids = [(table.summary.id, table.summary.source) for table in tables]
    for asked in tasks:
        task = SUBSCRIPTED.sub(lambda m: m["symbol"] if symbol_of(m) in computed else m[0], asked)
        found += [e.model_copy(update={"task": asked}) for e in _asked_of(task, tables, own, ids)]
    return found


def _asked_of(
    task: str, tables: list[Table], own: list[ParameterRow], ids: list[tuple[str, str]]
) -> list[Extreme]:
    files = named_tables(task, ids)  # a task that names its files is read from them alone
    scope = [table for table in tables if files is None or table.summary.id in files]
    if THRESHOLD.search(task) or any(p.search(task) for p in LEVELS):
        return _threshold(task, scope)
    if NOT_DATA.search(task):
        return []
    return [
        found
        for kind, pattern in (("maximum", MAXIMUM), ("minimum", MINIMUM))
        if pattern.search(task) or written_as_subscript(task, kind)
        for found in _extreme(task, kind, scope, own if kind == "maximum" else [])
    ]


def _extreme(task: str, kind: str, tables: list[Table], own: list[ParameterRow]) -> list[Extreme]:
    word = (MAXIMUM if kind == "maximum" else MINIMUM).search(task)
    word = word or written_as_subscript(task, kind)  # "Give F_max for each run"
    if word is None:
        return []
    whole = word.end() + len(re.match(r"\w*", task[word.end() :])[0])  # "minimal|e de T"
    after = OF_SYMBOL.match(task, whole)
    of_symbol = after["symbol"] if after is not None and is_symbol(after["symbol"]) else ""
    by_symbol = symbol_column(of_symbol, tables) if of_symbol else None
    # "F_max pro každý soubor", "P_max dla każdego ogniwa": each table's (file's, sheet's) F
    per_file = _subscripted(task, kind, tables)
    if of_symbol and by_symbol is None and not per_file:
        return []  # "la valeur minimale de T", T = I_filtre/I_blanc: no column holds it
    named = named_columns(task, tables)
    if len(per_file) > 1 and EACH.search(task):
        return [
            e for table, column in per_file for e in _extreme_of(task, kind, table, column, own)
        ]
    if by_symbol is None and len(per_file) == 1:
        by_symbol = per_file[0]
    if asks_all_maxima(task):  # the peaks of a curve, placed along its variable
        named = [(t, c) for t, c in named if c.key != t.summary.x]
        if by_symbol is None and not named:  # "identificar os picos … no espectro"
            by_symbol = _the_response(tables)
    if by_symbol is not None:  # "maximum de U", "the maximum of V_R": the symbol's column
        table, column = by_symbol
    elif not named:
        return []
    else:
        # "the maximum current and the voltage where it occurs": the column named next,
        # within a few words ("the maximum of the curve and ... of the phase" names none)
        table, column = min(named, key=lambda pair: words_apart(task, word, pair[1]))
        if words_apart(task, word, column) > NEAR_WORDS:
            return []
    if EACH.search(task):  # "para cada pava": each table's column of that name and unit
        alike = [(t, c) for t, c in measured_columns(tables)
                 if (c.name, c.unit) == (column.name, column.unit)]  # fmt: skip
        if len({t.summary.id for t, _ in alike}) > 1:
            return [e for t, c in alike for e in _extreme_of(task, kind, t, c, own, word[0])]
    # a column the file heads like another (two sweeps' `R`, keys `R` and `R 2`): each one's,
    # named by its key
    twins = _twins(table, column)
    if len(twins) > 1:
        twins = [twin.model_copy(update={"name": twin.key}) for twin in twins]
    return [e for twin in twins for e in _extreme_of(task, kind, table, twin, own, word[0])]


def _the_response(tables: list[Table]) -> tuple[Table, Column] | None:
    """The one column the assignment names as a response, where only one table has one."""
    found = [(t, t.summary.column(t.summary.response)) for t in tables if t.summary.response]
    return found[0] if len(found) == 1 else None


def _twins(table: Table, column: Column) -> list[Column]:
    """`column` and the columns of `table` headed as it is, in its unit (keys `R`, `R 2`)."""
    base = re.sub(r" \d+$", "", column.key)
    return [c for c in table.summary.columns
            if c.unit == column.unit and c.uncertainty_of is None
            and re.sub(r" \d+$", "", c.key) == base] or [column]  # fmt: skip


def _subscripted(task: str, kind: str, tables: list[Table]) -> list[tuple[Table, Column]]:
    """The column of each table the symbol of `F_max` (`U_min`) stands for, where the task
    writes its extreme so."""
    written = written_as_subscript(task, kind)
    if written is None:
        return []
    found = (symbol_column(written["symbol"], [table]) for table in tables)
    return [pair for pair in found if pair is not None]


def _extreme_of(
    task: str, kind: str, table: Table, column: Column, own: list[ParameterRow], word: str = ""
) -> list[Extreme]:
    """The extreme of `column` of `table` the task asks for, or the instrument's own result
    for it (`own`: the rows of the files' headers)."""
    if column.key == table.summary.x and word.lower().startswith("peak"):
        # "the peak wavelength": the variable where the response peaks, not its own largest
        responses = [c for t, c in measured_columns([table]) if c.key != column.key]
        if len(responses) != 1:
            return []
        column = responses[0]
    frame = table.frame
    values = frame[column.key].to_numpy(dtype=float)
    if not np.isfinite(values).any():
        return []
    x_key = table.summary.x
    if kind == "maximum" and asks_all_maxima(task) and x_key is not None and x_key != column.key:
        return _all_maxima(task, table, column)
    i = int(np.nanargmax(values) if kind == "maximum" else np.nanargmin(values))
    extreme = "largest" if kind == "maximum" else "smallest"
    where = _where(table, column, i, task)
    largest = quantity_text(values[i], column.unit)
    data = f"the {extreme} {column.name} in the data is {largest}{where}"
    results = [row for row in own if _own_result(row, task, column)]
    # where the task asks for the break, the result at break before the maximum
    results.sort(key=lambda row: not (BREAK.search(task) and BREAK.search(row.name)))
    result = results[0] if results else None
    if result is not None:
        unit = f" {result.unit}" if result.unit and not result.value.endswith(result.unit) else ""
        return [Extreme(
            task=task, kind="instrument", value=result.number, unit=result.unit,
            name=result.name, table=table.summary.id,
            given=f"{result.name} = {result.value}{unit}: the instrument's own result, in the "
                  f"header of {result.source}; {data}",
        )]  # fmt: skip
    return [Extreme(task=task, kind=kind, value=float(values[i]), unit=column.unit,
                    name=column.name, table=table.summary.id,
                    given=f"{data[0].upper()}{data[1:]} ({table.summary.id})")]  # fmt: skip


def _all_maxima(task: str, table: Table, column: Column) -> list[Extreme]:
    """Every local maximum of `column` along the table's variable, with its position and the
    spacings between neighbours, for a task that asks for all of them (tools.fits.all_maxima)."""
    x = table.summary.column(table.summary.x)  # type: ignore[arg-type]
    xs = table.frame[x.key].to_numpy(dtype=float)
    ys = table.frame[column.key].to_numpy(dtype=float)
    found, sigma = local_maxima(xs, ys)
    span = asked_range(task, x.unit)
    within = ""
    if span is not None:
        found = found[(xs[found] >= span[0]) & (xs[found] <= span[1])]
        within = f" between {span[0]:g} and {span[1]:g} {x.unit}"
    if len(found) == 0:
        return []
    where = ", ".join(f"{xs[i]:.6g}" for i in found[:MAX_LISTED]) + (f" {x.unit}" if x.unit else "")
    heights = ", ".join(f"{ys[i]:.6g}" for i in found[:MAX_LISTED])
    text = (
        f"The local maxima of {column.name} along {x.name}{within} ({len(found)}, each "
        f"standing out of the noise σ ≈ {sigma:.2g}{' ' + column.unit if column.unit else ''} by "
        f"{PROMINENCE_SIGMAS:g} σ or more; scipy.signal.find_peaks) are at {x.name} = {where}"
        f" ({column.name} = {heights}{' ' + column.unit if column.unit else ''})"
    )
    if len(found) >= 2:
        gaps = np.diff(xs[found])
        text += (
            f"; spacings {', '.join(f'{g:.4g}' for g in gaps[:MAX_LISTED])}"
            f"{' ' + x.unit if x.unit else ''} (mean {np.mean(gaps):.4g}"
            f"{' ' + x.unit if x.unit else ''})"
        )
    return [Extreme(task=task, kind="maxima", value=float(ys[found[0]]), unit=column.unit,
                    name=column.name, table=table.summary.id,
                    given=f"{text} ({table.summary.id})")]  # fmt: skip


def _threshold(task: str, tables: list[Table]) -> list[Extreme]:
    level = next((m for p in LEVELS if (m := p.search(task))), None)
    if level is None:
        how = (
            "the task defines it through a fit or an extrapolation: compute it from the fitted "
            "parameters, or choose the points to extrapolate from and say which"
            if BY_METHOD.search(task)
            else "the task does not say what defines it (a level the measured quantity "
            "reaches, or where a tangent to the steep rise meets the axis)"
        )
        return [Extreme(task=task, kind="threshold",
                        left=f"the threshold itself: {how}, so the data alone do not fix it; "
                             "state the definition you use and read it off the data")]  # fmt: skip
    return _crossing(task, level, tables)


def crossing_between(x: np.ndarray, y: np.ndarray, i: int, level: float) -> float:
    """Where y reaches `level` between rows i and i + 1, interpolated linearly."""
    return float(x[i] + (level - y[i]) * (x[i + 1] - x[i]) / (y[i + 1] - y[i]))


def _crossing(task: str, level: re.Match[str], tables: list[Table]) -> list[Extreme]:
    """The first crossing of a task's level, interpolated linearly between two rows."""
    target = float(level["level"].replace(",", "."))
    unit = level["unit"] or ""
    what = level["what"]
    candidates = [
        (t, c)
        for t, c in named_columns(what, tables, whole=True)
        if not unit or scale_of(unit, c.unit) is not None
    ] or [
        (t, c) for t, c in measured_columns(tables) if unit and scale_of(unit, c.unit) is not None
    ]
    if not candidates:
        return []
    table, column = candidates[0]
    scale = scale_of(unit, column.unit) if unit else 1.0
    asked = [c for t, c in named_columns(task.replace(level.group(0), " "), [table]) if c != column]
    x_key = asked[0].key if asked else table.summary.x
    if x_key is None or scale is None:
        return []
    x_column = next(c for c in table.summary.columns if c.key == x_key)
    y = table.frame[column.key].to_numpy(dtype=float)
    x = table.frame[x_key].to_numpy(dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    goal = target * scale
    falling = bool(FALLING.search(level["verb"])) or (len(y) > 0 and y[0] > goal)
    crossed = np.flatnonzero((y[1:] <= goal) & (y[:-1] > goal) if falling
                             else (y[1:] >= goal) & (y[:-1] < goal))  # fmt: skip
    stated = f"{level['level']} {unit}".strip()
    if not len(crossed):
        reach = f"{quantity_text(np.max(y), column.unit)}" if not falling else quantity_text(
            np.min(y), column.unit)  # fmt: skip
        return [Extreme(task=task, kind="crossing", name=column.name, table=table.summary.id,
                        given=f"the data never cross {column.name} = {stated} "
                              f"({'lowest' if falling else 'highest'} {reach}; "
                              f"{table.summary.id})")]  # fmt: skip
    i = int(crossed[0])
    at = crossing_between(x, y, i, goal)
    rows = (
        f"{quantity_text(x[i], x_column.unit)} ({quantity_text(y[i], column.unit)}) and "
        f"{quantity_text(x[i + 1], x_column.unit)} ({quantity_text(y[i + 1], column.unit)})"
    )
    given = (
        f"{x_column.name} = {quantity_text(at, x_column.unit, 4)} where {column.name} first "
        f"{'falls to' if falling else 'reaches'} {stated}, interpolated linearly between the "
        f"rows at {rows} ({table.summary.id})"
    )
    return [Extreme(task=task, kind="crossing", value=float(at), unit=x_column.unit,
                    name=x_column.name, table=table.summary.id, given=given)]  # fmt: skip


def _own_result(row: ParameterRow, task: str, column: Column) -> bool:
    """Whether an instrument's result is the maximum a task asks for: a maximum by its name
    (a result at break only where the task asks for the break), in the unit of the task's
    column or named like it."""
    if not OWN_MAXIMUM.search(row.name) or (BREAK.search(row.name) and not BREAK.search(task)):
        return False
    same_unit = base_unit(row.unit) is not None and base_unit(row.unit) == base_unit(column.unit)
    return same_unit or bool(words_of(row.name) & words_of(column.name))


def _where(table: Table, column: Column, i: int, task: str) -> str:
    """` at Time = 22.4 s, Extension = 22.8 mm (row 225)`: where row `i` stands in the
    table's variable and in the other columns the task names."""
    keys = [table.summary.x] + [c.key for _, c in named_columns(task, [table])]
    shown = [key for key in dict.fromkeys(keys) if key is not None and key != column.key]
    at = ", ".join(
        f"{table.summary.column(key).name} = "
        f"{quantity_text(float(table.frame[key].iloc[i]), table.summary.column(key).unit)}"
        for key in shown
    )
    return f" at {at} (row {i + 1})" if at else f" (row {i + 1})"


def extreme_facts(extremes: list[Extreme]) -> list[Fact]:
    """A crossing's value, for the number checks (the data's maxima and minima are facts
    of the tables already)."""
    return [
        Fact(f"{e.name} at the level the task names in {e.table}", e.value, e.table,
             frozenset({"threshold", "onset", "reaches", "reached", "crosses", "exceeds"}),
             (words_of(e.name) | {e.name.lower()},))
        for e in extremes if e.kind == "crossing" and e.value is not None
    ]  # fmt: skip


def extremes_digest(extremes: list[Extreme]) -> list[str]:
    lines = [f"- {e.given or e.left}" for e in extremes if e.given or e.left]
    return ["Extremes and thresholds the tasks ask for:", *lines] if lines else []
