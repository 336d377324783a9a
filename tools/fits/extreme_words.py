"""The words a task asks for an extreme or a threshold in ("the maximum force",
"Maximalkraft", "最大值", `F_max`, "the voltage at which the current reaches 1 mA"), in each
language a handout is written in: kept apart from tools.fits.extremes, which answers them
from the data, so that a new wording is added in one place.
"""

from __future__ import annotations

import re

# English words whole ("maximise" is no maximum), German ones as the start of a compound
# (`Maximalkraft`, `Höchstlast`), Chinese anywhere.
MAXIMUM = re.compile(
    r"\bmaxim(?:um|a)\b|\bmax\b|\bmax\.|\bpeak\b|\blargest|\bhighest|\bgreatest|\bbiggest|"
    r"\bultimate|\bbreaking|\bat break|\bmaximal|\bhöchst|\bspitzen|\bbruchkraft|最大|峰值|极大"
    r"|\bmaximáln|\bmaksymaln|\bмаксимальн|\bmassim[oa]\b|\bmáxim[oa]\b|\bmaximale?\b"
    r"|\bpeaks\b|\bpicos?\b|\bpicchi\b",
    re.IGNORECASE,
)
MINIMUM = re.compile(
    r"\bminim(?:um|a)\b|\bsmallest|\blowest|\bminimal|\btiefst|\bkleinst|最小|极小"
    r"|\bminimáln|\bminimaln|\bминимальн|\bmínim[oa]\b|\bminimale?\b",
    re.IGNORECASE,
)
# Extremes of something other than the data: an error bound, a likelihood.
NOT_DATA = re.compile(
    r"(?:maxim|minim|max\.?|largest|smallest)\w*\s+(?:possible\s+)?(?:error|uncertaint|deviation"
    r"|likelihood|tolerance)",
    re.IGNORECASE,
)
# An extreme written as a symbol's subscript: `F_max`, `U_{min}`.
SUBSCRIPTED = re.compile(
    r"(?<![\w\\])(?P<symbol>[A-Za-z\u0370-\u03ff])_\{?(?P<kind>max|min)(?:imum)?\}?(?!\w)",
    re.IGNORECASE,
)
# A task asked of each file, each run: an extreme of each.
EACH = re.compile(
    r"\b(?:each|every) \w+|\bfür jede[nmrs]? \w+|\bpour chaque\b|\bpara cada\b|\bper ogni\b"
    r"|\bper ciascun\w*|\bdla każde(?:go|j)\b|\bpro každ\w+|\bдля кажд\w+"
    # the word alone ("P_max każdego ogniwa", "di ogni cella", "de chaque cellule")
    r"|\bkażd(?:y|a|e|ego|ej|ym)\b|\bkažd\w+|\bкажд\w+|\bchaque\b|\bogni\b|\bcada\b",
    re.IGNORECASE,
)
# The symbol an extreme's word is of: "maximum de U", "max. of the V_R", "Maximum von I".
OF_SYMBOL = re.compile(
    r"\s+(?:(?:of|de|du|des|von|der|di|del|della)\s+)?(?:the\s+)?"
    r"\$?(?P<symbol>[A-Za-z\u0370-\u03ff](?:_\{?[A-Za-z0-9]{1,6}\}?|[0-9])?)\$?(?!\w)",
)
THRESHOLD = re.compile(
    r"threshold|\bonset|turn[- ]on|cut[- ]in|\bknee|breakdown|schwell|einsatz|durchbruch|"
    r"阈值|起始|开启|击穿|门限",
    re.IGNORECASE,
)
BY_METHOD = re.compile(
    r"extrapolat|tangent|intersect|intercept|\bfit|regression|linear (?:part|region)|steep|"
    r"anpassung|拟合|外推|切线",
    re.IGNORECASE,
)
_NUMBER = r"(?P<level>[-+]?\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?)\s*(?P<unit>[A-Za-zµμΩ°%]{1,4})?"
FALLING = re.compile(r"fall|drop|decreas|below|unterschreit|降", re.IGNORECASE)
# "the voltage at which the current (first) reaches 1 mA" and its German and Chinese forms.
LEVELS = (
    re.compile(
        r"(?:at which|where|when|for which)\s+(?:the\s+)?(?P<what>[^\W\d][\w ]{0,30}?)\s+"
        r"(?:first\s+)?(?P<verb>reaches|exceeds|rises (?:above|to)|climbs (?:above|to)|"
        r"falls (?:below|to)|drops (?:below|to)|decreases to|increases to|crosses|passes|"
        r"equals|attains|becomes|hits|is)\s+(?:a value of\s+|a level of\s+|the value\s+)?"
        + _NUMBER,
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:bei der|bei dem|bei welcher|bei welchem|ab der|ab dem)\s+(?:der|die|das)?\s*"
        r"(?P<what>\w+)\s+(?:den wert\s+(?:von\s+)?)?" + _NUMBER
        + r"\s+(?P<verb>erreicht|überschreitet|übersteigt|unterschreitet|beträgt)",
        re.IGNORECASE,
    ),
    re.compile(r"(?P<what>[\u4e00-\u9fff]{1,6}?)(?P<verb>达到|超过|等于|升至|降至)\s*" + _NUMBER
               + r"\s*时"),
)  # fmt: skip


def worked_out(text: str) -> frozenset[str]:
    """The extremes `text` writes an equation for (`E_max = 1,92 MeV · √(x² + 0,22·x)`):
    quantities the handout works out, not a column's largest or smallest value."""
    return frozenset(
        symbol_of(m) for m in SUBSCRIPTED.finditer(text) if re.match(r"\s*=", text[m.end() :])
    )


def symbol_of(written: re.Match[str]) -> str:
    return f"{written['symbol']}_{written[0].split('_', 1)[1].strip('{}')}"


def extreme_symbols(task: str) -> frozenset[str]:
    """The symbols `task` writes its extremes as (`F_max`, `U_{min}` as U_min)."""
    return frozenset(symbol_of(m) for m in SUBSCRIPTED.finditer(task))


def written_as_subscript(task: str, kind: str) -> re.Match[str] | None:
    """`F_max` where `task` writes its extreme of `kind` so."""
    written = SUBSCRIPTED.search(task)
    return written if written and written["kind"].lower()[:2] == kind[:2] else None
