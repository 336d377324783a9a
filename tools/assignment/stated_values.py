"""Values a handout states in its prose and the measured means a formula may use, as the
inputs of tools.formulas.prediction: `h = 1.200 m (measured to ±1 mm)` as a parameter row, and the
mean of a repeated measurement (tools.fits.repeats) with its standard error as an input.

A stated value's ± is read as parameter files' ± are (tools.formulas.prediction_inputs: a tolerance
unless a word makes it a σ), converted to the value's unit first (`±1 mm` beside `1.200 m`).
"""

from __future__ import annotations

import math
import re

from labscribe.tools.assignment.role_phrases import sentences
from labscribe.tools.assignment.task_files import DATA_FILE
from labscribe.tools.columns.si_units import si_of, unit_text
from labscribe.tools.columns.units import canonical
from labscribe.tools.columns.written_numbers import NUMBER, number_of
from labscribe.tools.fits.repeats import Series
from labscribe.tools.formats.parameters import ParameterRow
from labscribe.tools.formulas.formula_notation import subscripts_plain
from labscribe.tools.formulas.prediction_inputs import Input

MAX_STATED = 40
_OPERATORS = ("/", "*", "·", "^", "×")
# Words that run on after a value and that pint would read as units ("as": attoseconds).
_PROSE_WORDS = frozenset({"a", "an", "as", "at", "by", "in", "is", "it", "of", "on", "or"})
# A unit runs to a space, a bracket or punctuation, Chinese too: `U = 4 V。`, `24000 匝/米；`.
_UNIT = r"(?:°[CF]|[^\W\d_][^\s(),;，。；、：（）]*)"
# Further factors of a unit written apart, each with its power: `m s⁻²`, `kg m^-3`.
_POWERED = r"(?:\s+[^\W\d_]{1,4}(?:⁻?[¹²³⁴]|\^\{?-?\d\}?))*"
_NEGATIVE = re.compile(r"^(?P<unit>[^\W\d_]{1,4})(?:⁻(?P<sup>[¹²³⁴])|\^\{?-(?P<digit>\d)\}?)$")
_NOT_A_FORMULA = r"(?!\s*[\w.]*\s*[*/^·×+=-]\s*[\w(\[{√])"
# `symbol = value unit ± error` (a symbol right after an operator ends a formula's left side,
# `A/U_0 = 1/√(…)`, and states no value: stated_values skips it).
# a symbol, perhaps with a label in brackets: `λ(D_2) = 588,995 nm`
_SYMBOL = (
    r"(?<![\w.°])(?P<symbol>[A-Za-zΔδΑ-Ωα-ω][A-Za-z0-9_]{0,7}(?:\([A-Za-z][A-Za-z0-9_]{0,5}\))?)"
)
_STATED = re.compile(
    # a number that multiplies what follows (`λ = 2√(Ik)`, `ω = 2π f`) is a formula's factor
    rf"{_SYMBOL}\s*=\s*(?P<value>{NUMBER})(?![√(π]|\s*[√π])"
    r"(?!\s*[,;]\s*[-+]?\d)[\s~]*"  # `n = 1, 2, 3, …` lists values; `~` is LaTeX's blank
    rf"(?P<unit>{_UNIT}{_POWERED})?"
    r"(?:\s*\(?\s*(?:measured to|to within|within|uncertainty|accuracy)?"
    rf"\s*(?:±|\+/-|\+-)\s*(?P<error>{NUMBER})\s*(?P<eunit>%|{_UNIT})?\s*\)?)?" + _NOT_A_FORMULA,
    # never a formula's first term (`y = 2 x + 1`, `T = 273 + [√(…) − α]/(2β)`)
    re.IGNORECASE,
)

# A value with its error in brackets before the unit: `S = (100 ± 4) cm²`, and in a list,
# named in words: "- Diamètre de la bille : (2,00 ± 0,01) mm", "- mass of the ball: 4.43 g".
_BRACKETED_ERROR = (
    rf"\(\s*(?P<value>{NUMBER})\s*(?:±|\+/-|\+-)\s*(?P<error>{NUMBER})\s*\)\s*"
    rf"(?P<unit>{_UNIT}{_POWERED})(?P<eunit>)"
)
_BRACKETED = re.compile(rf"{_SYMBOL}\s*=\s*{_BRACKETED_ERROR}{_NOT_A_FORMULA}")
# The concise form: `C = 32.0(3) nF` is (32.0 ± 0.3) nF, `L = 10.17(10) mH` (10.17 ± 0.10) mH.
_CONCISE = re.compile(
    rf"{_SYMBOL}\s*=\s*(?P<value>[-+]?\d+[.,](?P<decimals>\d+))\((?P<digits>\d{{1,3}})\)"
    rf"[\s~]*(?P<unit>{_UNIT}{_POWERED})?(?P<error>)(?P<eunit>)"
)
_NAMED_ITEM = re.compile(
    r"^\s*(?P<symbol>[^\W\d_][^:：=\d]{1,40}?)\s*[:：]\s*"
    rf"(?:{_BRACKETED_ERROR}|(?P<plain>{NUMBER})\s*(?P<plain_unit>{_UNIT}{_POWERED}))\s*$"
)
_ITEM_LINE = re.compile(r"^[ \t]*(?:[-*•]|\d+[.)])[ \t]+(.*)$", re.MULTILINE)
# A list item starts a statement of its own: "- d = 100 mm\n- g = 9,81 m/s²" states two
# values, not a formula `100 mm - g`.
_LIST_ITEM = re.compile(r"\n(?=[ \t]*(?:[-*•]|\d+[.)])[ \t])")


# An example, from its words to the end of its bracket or sentence: "(npr. `365.csv` → λ =
# 365 nm)", "z. B. U = 4 V", "e.g.", "p. ej.", "par exemple", "zum Beispiel", "например".
_EXAMPLE = re.compile(
    r"\b(?:e\.\s?g\.|z\.\s?B\.|npr\.|np\.|p\.\s?ej\.|par exemple|for (?:example|instance)|"
    r"zum Beispiel|beispielsweise|por ejemplo|por exemplo|ad esempio|например|např\.)"
    r"(?:(?!\.\s+[A-ZÀ-ÝА-Я])[^;)\n]){0,80}",
    re.IGNORECASE,
)


def states_a_value(written: str) -> bool:
    """Whether `written` states a value (`U = 500 V`), not a formula to fit."""
    return _STATED.fullmatch(written.strip().rstrip(".")) is not None


def stated_values(text: str, source: str) -> list[ParameterRow]:
    """The values the handout `text` states as `symbol = number unit`, with a ± where it
    gives one, as parameter rows of `source` (never a formula: `g = 2h/t²` is none, nor a
    symbol stated with two values)."""
    rows: list[ParameterRow] = []
    # the values of each symbol, by the files the sentence stating it names: t = 30 s of one
    # file and t = 5 s of another are one each
    written: dict[tuple[str, frozenset[str]], set[str]] = {}
    text = _EXAMPLE.sub(lambda found: " " * len(found[0]), text)  # "(npr. … λ = 365 nm)"
    text = _LIST_ITEM.sub("\n\n", text)
    for sentence in sentences(text):
        sentence = _last_of_chain(subscripts_plain(sentence.replace("−", "-")))
        files = frozenset(DATA_FILE.findall(sentence))
        for match in _statements(sentence):
            if sentence[: match.start()].rstrip().endswith(_OPERATORS):
                continue  # `V_T = k_B T / e = 25.85 mV`: the value is V_T's, not e's; `A/U_0`
            row = _row(match, source)
            if row is not None and files:
                row.said_of = sentence
            if row is not None or (match["unit"] or "").isalpha():  # `n = 8 sekcji` counts
                written.setdefault((match["symbol"], files), set()).add(match["value"])
            if row is not None and (row.name, files) not in {_key(r) for r in rows}:
                rows.append(row)
    # a symbol stated with several values (n = 8, n = 1, n = 14: one per cell) has none
    return [row for row in rows if len(written[_key(row)]) == 1][:MAX_STATED]


def _statements(sentence: str) -> list[re.Match[str]]:
    """Each `symbol = value unit` of `sentence`, `S = (100 ± 4) cm²` and `C = 32.0(3) nF`
    among them."""
    return [*_STATED.finditer(sentence), *_BRACKETED.finditer(sentence),
            *_CONCISE.finditer(sentence)]  # fmt: skip


def listed_values(text: str, source: str) -> list[ParameterRow]:
    """The values a list of the handout names in words ("- Diamètre de la bille : (2,00 ±
    0,01) mm"), as parameter rows of `source` under those words."""
    rows = []
    parts = [
        p
        for item in _ITEM_LINE.finditer(text.replace("−", "-"))
        for p in re.split(r"[;；]", item[1])
    ]
    for match in filter(None, map(_NAMED_ITEM.match, parts)):
        plain = match["plain"] is not None
        fields = {"symbol": match["symbol"].strip(), "value": match["plain"] or match["value"],
                  "unit": match["plain_unit"] if plain else match["unit"],
                  "error": None if plain else match["error"], "eunit": ""}  # fmt: skip
        if (row := _row_of(fields, match[0], source)) is not None:
            rows.append(row)
    return rows[:MAX_STATED]


# One value written in two units: `T₀ = 21 °C = 294 K`; the last is the one a formula takes.
_CHAIN = re.compile(rf"=\s*{NUMBER}\s*{_UNIT}\s*=\s*(?={NUMBER}\s*{_UNIT})")


def _last_of_chain(sentence: str) -> str:
    return _CHAIN.sub("= ", sentence)


def _key(row: ParameterRow) -> tuple[str, frozenset[str]]:
    return row.name, frozenset(DATA_FILE.findall(row.said_of))


def _quotient(unit: str) -> str:
    """A unit whose factors are written apart with their powers as a quotient: `m s⁻²` is
    `m/s²`, `kg m^-3` is `kg/m³`; a unit of one factor as written."""
    factors = unit.split()
    if len(factors) < 2:
        return unit
    over, under = [], []
    for factor in factors:
        negative = _NEGATIVE.match(factor)
        if negative is None:
            over.append(factor)
            continue
        power = negative["sup"] or "⁰¹²³⁴"[int(negative["digit"])]
        under.append(negative["unit"] + ("" if power == "¹" else power))
    return "/".join(["·".join(over) or "1", *under])


def _row(match: re.Match[str], source: str) -> ParameterRow | None:
    fields = {name: match[name] for name in ("symbol", "value", "unit", "error", "eunit")}
    written = match[0]
    if match.re is _CONCISE:  # the digits in brackets count the value's last places
        places = len(match["decimals"] or "")
        fields["error"] = f"{int(match['digits']) / 10**places:.{places}f}"
        written += ": a standard uncertainty in its last digits"
    return _row_of(fields, written, source)


def _row_of(match: dict[str, str | None], written: str, source: str) -> ParameterRow | None:
    """The parameter row of a value's fields (symbol, value, unit, error, its unit)."""
    if number_of(match["value"]) == 0:
        return None  # `at t = 0`, `P = 0 (vacuum)`: an origin or a condition, not a value
    unit = _quotient((match["unit"] or "").rstrip("."))
    if unit in _PROSE_WORDS:  # lower case: `A` after a number is an ampere
        unit = ""  # "ANC at t = 0 as ANC_0": a word of the sentence, not attoseconds
    value = match["value"]
    if unit and canonical(unit) is None:
        if " " not in match["unit"].strip():
            return None  # a word of prose after the number
        # a product of units (`T m^2`): shown as written, never computed with
        return ParameterRow(source=source, key=match["symbol"], name=match["symbol"],
                            value=f"{value} {match['unit'].strip()}")  # fmt: skip
    if match["error"] is None:
        return ParameterRow(source=source, key=match["symbol"], name=match["symbol"],
                            value=f"{value} {unit}".strip(), number=number_of(value),
                            unit=canonical(unit) or "")  # fmt: skip
    error = number_of(match["error"])
    eunit = (match["eunit"] or unit).rstrip(".")
    if not unit and eunit != "%" and canonical(eunit) is not None:
        unit = eunit  # `R = 35.31 ± 0.05 Ω`: one unit for both
    if eunit == "%":
        return ParameterRow(source=source, key=match["symbol"], name=match["symbol"],
                            value=f"{value} {unit} ± {match['error']}%".strip())  # fmt: skip
    if eunit != unit:
        first, second = si_of(canonical(eunit) or eunit), si_of(canonical(unit) or unit)
        if first is None or second is None or first.dimension != second.dimension:
            return None
        error *= first.scale / second.scale
    shown = f"{value} ± {error:.6g} {unit}".strip()
    return ParameterRow(source=source, key=match["symbol"], name=match["symbol"], value=shown,
                        comment=written.strip())  # fmt: skip


def measured_inputs(repeats: list[Series]) -> list[Input]:
    """Each repeated quantity's mean with its standard error, in SI where its unit is
    known: the mean of all series of one column first, never one series of several."""
    inputs: list[Input] = []
    seen: set[tuple[str, str]] = set()
    for series in repeats:
        key = (series.table, series.column)
        summary = series.summary
        if key in seen or summary.n < 2 or not math.isfinite(summary.mean):
            continue
        seen.add(key)
        unit, scale, offset = series.unit, 1.0, 0.0
        if series.coding is not None:
            unit, scale, offset = series.coding.unit, series.coding.scale, series.coding.offset
        si = si_of(canonical(unit) or unit) if unit else None
        to_si = si.scale if si else 1.0
        value = (offset + scale * summary.mean) * to_si + (si.offset if si else 0.0)
        inputs.append(Input(
            symbol=series.name, value=value,
            sigma=abs(scale * to_si * summary.sem) if summary.sem else None,
            unit=unit_text(si.dimension) if si else unit,
            written=f"the mean of {series.title} ({series.table}, n = {summary.n})",
            how="its standard error", source=series.table,
            dimension=tuple(float(p) for p in si.dimension) if si else None,
        ))  # fmt: skip
    return inputs
