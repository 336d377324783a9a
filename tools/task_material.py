"""What a task names of the analysis by its words: the data columns and parameter-file rows
it starts from, and the values of fits it names by their parameters' words (`slope`, `f0`)
or symbols (tools.checklist)."""

from __future__ import annotations

import re

from labscribe.tools.analysis import Analysis
from labscribe.tools.columns import Column
from labscribe.tools.constants import asked_symbols
from labscribe.tools.data_facts import topic_words, words_of
from labscribe.tools.fit_result import Fit, axes_of, format_value
from labscribe.tools.point_values import is_point_value
from labscribe.tools.tables import TableSummary

CHINESE_WORDS = {
    "谐振": "resonance", "共振": "resonance", "品质因数": "quality", "带宽": "bandwidth",
    "斜率": "slope", "截距": "intercept", "时间常数": "tau", "衰减": "decay", "相位": "phase",
    "振幅": "amplitude", "幅度": "amplitude", "半高宽": "fwhm", "峰": "peak", "频率": "frequency",
    "周期": "period", "指数": "exponent", "电阻": "resistance", "电感": "inductance",
    "电容": "capacitance", "容差": "tolerance",
}  # fmt: skip
MIN_PART = 3  # parts of a name shorter than this (the `r` of `V_R`) name nothing alone
MIN_PREFIX = 4  # `measure` and `measured` are one word; `res` and `resonance` are not


PLACEHOLDERS = frozenset({"a", "b", "c", "c0", "c1", "c2", "c3"})


def other_fits(
    task: str, words: set[str], fits: list[Fit], only: frozenset[str] | None = None
) -> list[str]:
    """The values of fits the task does not ask for by name whose parameters it names by
    their words (`slope`, `f0`) or symbols; of those, only the parameters named in `only`
    where it is given."""
    asked_for = asked_symbols((task,), "", {})
    found = []
    for fit in fits:
        if not fit.good or fit.model is None:
            continue
        shown = fit.key_parameters() + [
            p for p in fit.parameters if p.derived and p not in fit.key_parameters()
        ]
        # a standard model's placeholder letters (the `c` of an exponential approach, a
        # cubic's `c2`) are no symbol a task asks for: its own formula's `c` is another
        symbols = asked_for - PLACEHOLDERS if not (fit.requested or fit.explorer) else asked_for
        # "Calcular k dinámico = 4π²·m/T²": the task's own formula gives its k, not the fit
        symbols = {s for s in symbols if fit.requested == task or not _defines(task, s)}
        named = [p for p in shown if topic_words(fit, p) & words or p.name in symbols]
        named = named if only is None else [p for p in shown if p.name in only]
        values = ", ".join(f"{p.name} = {format_value(p)}" for p in named)
        # several tasks may ask for one model of one pair of columns: each fits it alike
        if named and (text := f"{values} (fit of {axes_of(fit, fits)})") not in found:
            found.append(text)
    return found


def _defines(task: str, symbol: str) -> bool:
    """Whether `task` writes its own formula for `symbol`, with a qualifier or without
    (`k = 4π²·m/T²`, `k dinámico = ...`, `g_exp = ...`): a value worked out so, not fitted."""
    qualified = rf"(?<![\w]){re.escape(symbol)}(?:_\w+|\s+[^\W\d]+)?\s*=\s*(?P<right>[^=,;]+)"
    return any(
        not is_point_value(found["right"].strip(" ."))  # `k = 5 N/m` states a value
        for found in re.finditer(qualified, task)
    )


def material(analysis: Analysis, words: set[str], task: str = "") -> list[str]:
    """The data columns and parameter-file rows a task names: what it starts from; never a
    setting of a symbol `task` asks to determine."""
    found = []
    for table in analysis.tables:
        named = [
            c.name
            for c in table.columns
            if c.key != table.x
            and c.key not in table.predictors
            and c.uncertainty_of is None
            and column_named(c, table, words)
        ]
        if named and table.x:
            x = table.column(table.x).name
            found.append(f"data: {', '.join(named)} against {x} ({table.id}, {table.rows} rows)")
    asked = asked_symbols((task,), "", {}) if task else set()
    for row in analysis.parameters:
        if (
            row.number is not None
            and _row_matches(row.name, words)
            and not (set(re.findall(r"[^\W\d]\w*", row.name)) & asked)
        ):  # "Bestimmen Sie U_0 (laut Anpassung)": the generator's U_0 is no answer to it
            value = (
                row.value
                if not row.unit or row.value.endswith(row.unit)
                else f"{row.value} {row.unit}"
            )
            found.append(f"{row.name} = {value} ({row.source})")
    return found


def task_words(task: str) -> set[str]:
    """The words of a task as the vocabulary spells them: lower-case English words, names
    like `v_r` whole and by their longer parts, and Chinese terms in English."""
    words = set(re.findall(r"[a-z0-9]+(?:_[a-z0-9]+)*", task.lower()))
    words |= {part for word in words for part in word.split("_") if len(part) >= MIN_PART}
    words |= {english for chinese, english in CHINESE_WORDS.items() if chinese in task}
    return words


def column_named(column: Column, table: TableSummary, words: set[str]) -> bool:
    """Whether the task names the column; a ratio when it names both of its columns."""
    if column.ratio_of is not None:
        return all(column_named(table.column(key), table, words) for key in column.ratio_of)
    return bool(words_of(column.name) & words)


def _row_matches(name: str, words: set[str]) -> bool:
    """Whether two parts of a parameter's name are words of the task (`R_measured` for
    "Measure R ...")."""
    parts = [p for p in re.split(r"[^a-z0-9]+", name.lower()) if p]
    return sum(any(_same_word(part, word) for word in words) for part in parts) >= 2


def _same_word(part: str, word: str) -> bool:
    if part == word:
        return True
    shorter, longer = sorted((part, word), key=len)
    return len(shorter) >= MIN_PREFIX and longer.startswith(shorter)
