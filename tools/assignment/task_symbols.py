"""Which symbols and names a task asks to have values, read from its words alone: the symbol
a verb asks for ("determine the spring constant k"), a name it defines by a formula ("FWHM =
2√(2 ln 2)·w"), a symbol it calls a line's slope or intercept ("T (Steigung)"). Kept apart
from the check of the values listed (tools.assignment.task_needs), since what a task asks for
decides which fit is its own too (tools.assignment.task_fit).
"""

from __future__ import annotations

import re

from labscribe.tools.assignment.requested import FIT_CUE
from labscribe.tools.assignment.role_phrases import asked_objects, is_symbol, sentences
from labscribe.tools.columns.units import known_unit
from labscribe.tools.columns.written_numbers import NUMBER
from labscribe.tools.formulas.formula_notation import a_word_of_one_letter, mathematical

_POSSESSIVE = re.compile(r"['’]s\b")
# A comparison starts what the value is compared with: "and compare it with ω_r" asks no ω_r.
_CLAUSE_END = re.compile(
    r"[,;:()（），；：。]|\s(?:and its|with its|mit (?:ihrer|seiner)|及其)\s|及其"
    r"|\s(?:(?:and|und|och|og|et|y|e|i|и)\s+)?(?:compar|vergleich|jämför|sammenlign|porówn|"
    r"сравн|比较|对比)\w*",
    re.IGNORECASE,
)
# A word of Latin or Greek letters (`für` whole, so that its `f` is no symbol); Chinese
# characters end it (`物质的量 n`).
_TOKEN = re.compile(
    r"[-−]?[A-Za-z\u00c0-\u024f\u0370-\u03ff][A-Za-z0-9_\u00c0-\u024f\u0370-\u03ff]*"
)
# Symbols in a bracket after a noun: "(h*, T*)", "(f_0)".
_IN_BRACKET = re.compile(r"\(\s*([A-Za-z\u0370-\u03ff](?:_\w{1,4})?\*?)\s*[,)]")
_SUBSCRIPT_DIGITS = {0x2080 + digit: f"_{digit}" for digit in range(10)}
# The words of a quantity, then the part it is of or in: "the power dissipated in",
# "die Leistung im", "la puissance dans".
_PART = re.compile(
    r"(?:the |die |der |das |le |la |el )?[^\W\d_][\w-]+(?: [\w-]+){0,3} "
    r"(?:in|through|across|of|im|in der|durch|dans|à travers|en|del?)",
    re.IGNORECASE,
)
# Tokens that are not what a verb asks for: articles, a pronoun, and χ (of χ², a statistic).
NOT_ASKED = frozenset({"a", "an", "A", "I", "Sie", "OK", "χ"})
# A letter right after a number or a degree sign is its unit ("a roller of 8 t", "bei 20 °C"),
# not a symbol.
_AFTER_NUMBER = re.compile(r"\d\s*°?$|°$")  # `8 t`, `20 °C`, `°F`


# A symbol the task says is a line's slope or intercept: "die Periodendauer T des Pendels
# (Steigung)", "k (the slope)", "b (ordonnée à l'origine)".
_LINE_PART = re.compile(
    r"(?<![\w\\])(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?\w{1,6}\}?)?)(?:\s+[^\W\d]\w*){0,3}\s*"
    r"\((?:die |der |the |la |el |a |o )?(?P<part>steigung|anstieg|slope|gradient|pente|"
    r"pendiente|inclina[çc][ãa]o|achsenabschnitt|intercept|ordonn[ée]e [àa] l'origine|"
    r"ordenada(?: al origen)?)\)",
    re.IGNORECASE,
)
_SLOPE_WORDS = ("steigung", "anstieg", "slope", "gradient", "pente", "pendiente", "inclina",
                "pendenza", "nachylenie")  # fmt: skip
# ... or says so in words: "obtener e/m como pendiente", "k as the slope", "g als Steigung"
_AS_LINE_PART = re.compile(
    r"(?<![\w\\])(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?\w{1,6}\}?)?)(?:/[A-Za-z]\w{0,3})?\s+"
    r"(?:como|as|als|comme|come|jako)\s+(?:(?:the|die|der|la|el|a|o|il)\s+)?(?P<part>steigung|"
    r"anstieg|slope|gradient|pente|pendiente|pendenza|inclina[çc][ãa]o|nachylenie|"
    r"achsenabschnitt|intercept|ordenada(?: al origen)?)\b",
    re.IGNORECASE,
)


def line_parts(task: str) -> dict[str, str]:
    """The symbols `task` says are a straight line's slope or intercept, each with the
    name the fits give that part (`slope`, `intercept`)."""
    return {
        m["symbol"]: "slope" if m["part"].lower().startswith(_SLOPE_WORDS) else "intercept"
        for pattern in (_LINE_PART, _AS_LINE_PART)
        for m in pattern.finditer(task)
    }


def asked_symbols(task: str) -> list[str]:
    """The symbol each verb of `task` that asks for a value names first: "determine the
    spring constant k from the slope" gives `k`; "Report F_max and compute R_m = F_max/A0"
    gives `R_m` (after `compute`; `report` asks to state, not to determine)."""
    found = []
    task = _FILE_NAME.sub(" ", task.translate(_SUBSCRIPT_DIGITS))  # `B₀` is B_0; `c.csv` no c
    for sentence in sentences(_POSSESSIVE.sub("", task)):
        for phrase in asked_objects(sentence):
            clause = _CLAUSE_END.split(phrase, maxsplit=1)[0]
            clause = clause.split("=", 1)[0]
            symbols = ((m[0].lstrip("-−"), m.start()) for m in _TOKEN.finditer(clause)
                       if not _AFTER_NUMBER.search(clause[: m.start()])
                       and not a_word_of_one_letter(clause, m))  # fmt: skip
            symbol, start = next(
                ((t, i) for t, i in symbols if t not in NOT_ASKED and is_symbol(t)), ("", 0)
            )
            if not symbol and (inside := _IN_BRACKET.match(phrase, len(clause))):
                symbol = inside[1]  # "den Schnittpunkt (h*, T*)": the noun's symbols
            if symbol and _PART.fullmatch(clause[:start].strip()):
                # "the power dissipated in X": X names a part, the words before it the quantity
                symbol = f"{clause[:start].strip()} {symbol}"
            if symbol:
                found.append(symbol)
    return list(dict.fromkeys(found))


# A subscript that lists two parts with a comma: `U_C,max`, `T_{b,1}`.
_LISTED_SUBSCRIPT = re.compile(r"(_\{?[A-Za-z0-9]{1,4}),([A-Za-z0-9]{1,4}\}?)(?![\w,])")
# A data file's name ("aus c.csv"): it names no symbol.
_FILE_NAME = re.compile(r"(?<![\w.])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{1,4}\b")
# A name defined by a formula: `FWHM = 2√(2 ln 2)·w`, `R_H = c·d`, `n = 1/(e·|R_H|)`; the
# right side must hold an operator or a function, so that "at z = 0 cm" defines nothing. The
# word before it is the noun the task calls it by ("the bandwidth, Δf = f0/Q").
_DEFINED = re.compile(
    r"(?:(?P<noun>[^\W\d]\w+),?\s+)?(?<![\w=])(?P<name>[^\W\d]\w{0,9})(?:\([^()=]{0,12}\))?\s*=\s*"
    r"(?P<right>[^,;:=]*?[·*/^√²³(]|[^,;:=]*?\b(?:exp|ln|log|sqrt)\b)"
)


def defined_names(task: str) -> list[tuple[str, str]]:
    """The names a verb of `task` asks to be worked out by a formula it writes, each with
    the noun before it ("Calculate the full width at half maximum, FWHM = 2√(2 ln 2)·w"
    gives (`FWHM`, `maximum`)); a model to fit ("Fit T(λ) = (A/w)·exp(...)") defines none."""
    found = []
    for sentence in sentences(task):
        for phrase in asked_objects(sentence):
            clause = re.split(r"[.;:]\s|[?。；]", phrase, maxsplit=1)[0]
            clause = _LISTED_SUBSCRIPT.sub(r"\1_\2", clause)  # `U_C,max` is one symbol
            # "by fitting U(t) = U0·e^(−t/τ)" writes a model to fit, not a value to work out
            found += [(m["name"], m["noun"] or "") for m in _DEFINED.finditer(clause)
                      if m["name"] not in NOT_ASKED and not _a_level(m) and not _a_value(m)
                      and not _a_qualifier(m["name"])
                      and not FIT_CUE.search(clause[: m.start("name")])]  # fmt: skip
    return list(dict.fromkeys(found))


def _a_qualifier(name: str) -> bool:
    """Whether the word before `=` is prose that qualifies a symbol ("k dinámico = 4π²·m/T²"),
    not a name: a lower-case word of four letters or more that is no spelled symbol (`tau`,
    `lambda` are)."""
    return name.isalpha() and name.islower() and len(name) >= 4 and not mathematical(name)


def _a_value(defined: re.Match[str]) -> bool:
    """Whether `g = 9,8 m/s²` gives a value the task works with, not a formula to work out:
    a number, then a unit or nothing, up to the end of its clause."""
    after = defined.string[defined.start("right") :]
    value = re.split(r"[,;]\s|\s(?:and|und|et|y|e|i|en)\s", after, maxsplit=1)[0].strip()
    number = re.match(NUMBER, value)
    if number is None:
        return False
    unit = value[number.end() :].strip().rstrip(".")
    return not unit or known_unit(unit) is not None


def _a_level(defined: re.Match[str]) -> bool:
    """Whether `U = U_max/√2` states a level of U (its own value's fraction), not a value
    to work out: the right side starts with the left side's symbol and a subscript."""
    return re.match(rf"\s*{re.escape(defined['name'])}_", defined["right"]) is not None
