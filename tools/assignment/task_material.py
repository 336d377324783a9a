"""What a task names of the analysis by its words: the data columns and parameter-file rows
it starts from, and the values of fits it names by their parameters' words (`slope`, `f0`)
or symbols (tools.assignment.checklist)."""

from __future__ import annotations

import re

from labscribe.tools.analysis.data_facts import name_parts, topic_words, words_in, words_of
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.columns.column import Column
from labscribe.tools.fits.fit_claims import FOLLOWS
from labscribe.tools.fits.fit_result import Fit, axes_of, format_value
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.constants import asked_symbols
from labscribe.tools.formulas.point_values import is_point_value

# The words of other languages for what a fit's parameters are (tools.analysis.data_facts's
# topics), each found inside the task's lower-cased words: compounds and inflections hold
# them whole ("egenfrekvensen", "Eigenfrequenz", "Resonanzfrequenz", "частоты").
TRANSLATED_WORDS = {
    "frequency": ("frekvens", "frequenz", "fréquence", "frecuencia", "frequenza", "frequentie",
                  "frequência", "częstotliwoś", "частот", "주파수", "진동수", "周波数", "振動数",
                  "频率"),
    "period": ("periode", "período", "periodo", "период", "주기", "周期"),
    "amplitude": ("amplitud", "ampiezza", "амплитуд", "진폭", "振幅", "幅度"),
    "damping": ("dämpfung", "dämpning", "demping", "dæmpning", "amortiguamiento",
                "amortissement", "smorzamento", "затухани", "감쇠", "減衰", "衰减"),
    "phase": ("fase", "фаз", "위상", "相位"),
    "slope": ("steigung", "pente", "pendiente", "pendenza", "helling", "lutning", "наклон",
              "기울기", "斜率"),
    "intercept": ("achsenabschnitt", "截距"),
    "resonance": ("resonanz", "résonance", "resonancia", "risonanza", "resonans", "резонанс",
                  "공진", "共振", "谐振"),
    "tau": ("zeitkonstante", "constante de temps", "constante de tiempo", "tidskonstant",
            "постоянная времени", "시정수", "時定数", "时间常数"),
    "quality": ("gütefaktor", "güte", "facteur de qualité", "factor de calidad",
                "fattore di qualità", "kvalitetsfaktor", "добротност", "品质因数"),
    "bandwidth": ("bandbreite", "bande passante", "ancho de banda", "bandbredd", "bandbredde",
                  "полоса пропускания", "대역폭", "带宽"),
    "peak": ("峰",),
    "exponent": ("指数",),
    "resistance": ("电阻",),
    "inductance": ("电感",),
    "capacitance": ("电容",),
    "tolerance": ("容差",),
    "fwhm": ("半高宽",),
}  # fmt: skip
MIN_PART = 3  # parts of a name shorter than this (the `r` of `V_R`) name nothing alone
MIN_PREFIX = 4  # `measure` and `measured` are one word; `res` and `resonance` are not


PLACEHOLDERS = frozenset({"a", "b", "c", "c0", "c1", "c2", "c3"})
# "by linear regression", "a quadratic fit": the word before names the method, no parameter
# (a cubic's linear coefficient c1 is no answer to "estimate k using linear regression")
_METHOD = re.compile(r"(\w+)\s+(?:regression|fit|fitting|least[- ]squares)\b", re.IGNORECASE)


def other_fits(
    task: str, words: set[str], fits: list[Fit], only: frozenset[str] | None = None
) -> list[str]:
    """The values of fits the task does not ask for by name whose parameters it names by
    their words (`slope`, `f0`) or symbols; of those, only the parameters named in `only`
    where it is given."""
    asked_for = asked_symbols((task,), "", {})
    words = words - {method.lower() for method in _METHOD.findall(task)}
    found = []
    for fit in fits:
        if not (fit.good or fit.follows) or fit.model is None:
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
        closely = "" if fit.good else f"; {FOLLOWS}"  # a swing's cycles, counted all the same
        if named and (text := f"{values} (fit of {axes_of(fit, fits)}{closely})") not in found:
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
            and (_row_matches(row.name, words) or _symbol_written(row.key, task))
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
    like `v_r` whole and by their longer parts, and other languages' terms in English."""
    words = words_in(task)
    words |= {part for word in words for part in word.split("_") if len(part) >= MIN_PART}
    lowered = task.lower()
    words |= {english for english, others in TRANSLATED_WORDS.items()
              if any(other in lowered for other in others)}  # fmt: skip
    return words


def column_named(column: Column, table: TableSummary, words: set[str]) -> bool:
    """Whether the task names the column; a ratio when it names both of its columns."""
    if column.ratio_of is not None:
        return all(column_named(table.column(key), table, words) for key in column.ratio_of)
    return bool(words_of(column.name) & words)


def _symbol_written(key: str, task: str) -> bool:
    """Whether `task` writes a setting's key that reads as a symbol (`L1`, `U_0`, `R_x`) as
    written: "L1, T1, L2, T2: valor e incerteza" starts from the settings L1 and L2."""
    symbol = re.fullmatch(r"[^\W\d_]{1,3}(?:_?\d{1,2}|_\w{1,6})", key) is not None
    return symbol and re.search(rf"(?<![\w.]){re.escape(key)}(?![\w])", task) is not None


def _row_matches(name: str, words: set[str]) -> bool:
    """Whether two parts of a parameter's name are words of the task (`R_measured` for
    "Measure R ...")."""
    parts = name_parts(name)
    return sum(any(_same_word(part, word) for word in words) for part in parts) >= 2


def _same_word(part: str, word: str) -> bool:
    if part == word:
        return True
    shorter, longer = sorted((part, word), key=len)
    return len(shorter) >= MIN_PREFIX and longer.startswith(shorter)
