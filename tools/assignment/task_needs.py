"""What a task asks the report to hold, and which of it the values listed under the task do
not: a checklist row may say that only checking is left when the values the task asks for
are there, never when only the data it starts from, or a different quantity, is.

Four conventions of handouts, in English, German, French and Chinese:
- a statistic named by its usual name: "weighted mean", "χ²", "quote F and the p-value",
  "a 95 % confidence interval", "R²", "the covariance of a and b" (Kovarianz, 相关性);
- a symbol after a verb that asks for a value: "determine the spring constant k",
  "bestimmen Sie ... die Erdbeschleunigung g", "求 ... 温度 −T0": the symbol must have a value;
- a conversion: "convert ... to kelvin", "give the means as g in cm/s²", "add back the
  299 000 km/s", "umrechnen in", "换算成": some value must carry the target unit;
- a quantity defined by its formula after such a verb: "Calculate the full width at half
  maximum, FWHM = 2√(2 ln 2)·w", "berechnen Sie R_H = c·d", "calculer Q = f0/Δf": a value
  named FWHM must be listed; the formula's inputs (w) are not it.

The symbols and names are read from the task's words by tools.assignment.task_symbols.
"""

from __future__ import annotations

import re
from functools import cache

from labscribe.tools.assignment.requested import FIT_CUE
from labscribe.tools.assignment.role_phrases import asked_objects, sentences
from labscribe.tools.assignment.task_symbols import asked_symbols, defined_names, line_parts
from labscribe.tools.assignment.task_words import MEAN_ELSEWHERE
from labscribe.tools.columns.named_quantities import unnamed_quantities
from labscribe.tools.columns.units import known_unit
from labscribe.tools.formulas.formula_notation import GREEK

# (what the row calls it, how a task names it, how a value listed shows it)
_WEIGHTED_MEAN = (
    r"weighted (?:mean|average)|gewichtete[nrs]? (?:mittel|durchschnitt)"
    r"|加权(?:算术)?平均"
)
# A plain mean, asked or listed: "the mean", "průměrnou F_max", "średni kąt", "平均值"; not
# a diameter (Polish "średnica", Czech "průměr" alone).
MEAN = re.compile(
    r"\bmean\b|\baverage|\bmittelwert|\bdurchschnitt|\bmoyenne|\bmedia\b|\bmédia|\bpromedio"
    r"|\bśredni(?!c)|\bprůměrn|\baritmetick\w* průměr|\bсредн|平均|" + MEAN_ELSEWHERE,
    re.IGNORECASE,
)
STATISTICS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, re.compile(task, re.IGNORECASE), re.compile(given, re.IGNORECASE))
    for name, task, given in (
        ("the weighted mean", _WEIGHTED_MEAN, r"weighted (?:mean|average)"),
        ("χ²", r"χ\s*²|χ\s*\^?\s*2|\bchi[- ]?squared?\b|\bchi2\b|卡方",
         r"χ\s*²|χ\s*\^?\s*2|chi[- ]?squared?|\bchi2\b"),
        ("F", r"\bF\b(?=[^.;]*?(?:p[- ]?value|variance|anova|varianzanalyse|方差分析))|"
         r"\bF[- ](?:value|statistic|ratio|wert)", r"\bF\s*(?:\(\s*\d+\s*,\s*\d+\s*\))?\s*="),
        ("the p-value", r"\bp[- ]?(?:value|wert)|p\s*值", r"\bp\s*[=<]"),
        ("the confidence interval", r"confidence (?:interval|band|limits)|konfidenzintervall|"
         r"vertrauens(?:bereich|intervall)|置信区间", r"\binterval|intervall"),
        # a bare R2 is R² only as a statistic's name ("the R2 of the fit"), never a resistor's
        # ("记录阻值 R2") or a formula's symbol ("R3/[R2 + (z − z0)2]")
        ("R²", r"\bR\s*²|\bR\s*\^\s*2|\b(?:the|its|an?|das|le|el) R2\b(?! *[-+=/])|"
         r"\bR2(?= (?:value|of the|for the|statistic|wert))|"
         r"coefficient of determination|bestimmtheitsma|"
         r"决定系数|判定系数", r"\bR\s*²|\bR\s*\^\s*2"),
        ("the covariance of the parameters", r"covarian|correlation (?:of|between) (?:the )?"
         r"(?:parameters|fit|a and b|slope and intercept)|kovarianz|korrelation (?:von|zwischen)"
         r"|协方差|相关性", r"covarian|correlat|kovarianz|korrelation"),
        ("the standard deviation", r"standard deviation|standardabweichung|标准差|标准偏差"
         r"|odchyleni\w* standardow|směrodatn\w* odchylk|écart[- ]type|desviaci[oó]n (?:est[aá]nd"
         r"ar|t[ií]pica)|deviazione standard|desvio padrão|среднеквадратичн\w* отклонени",
         r"standard deviation"),
    )
)  # fmt: skip
# A value the task asks for at a point it names: "estimate the mean depression for a roller
# of 8 t", "predict the stack loss for x1 = 60", "schätzen Sie ... bei", "当 x = 5 时".
ESTIMATE_AT = re.compile(
    r"\b(?:estimate|predict(?!or)|extrapolate|interpolate)\w*\b[^.;]*?\b(?:for|at|when)\b[^.;]*?\d|"
    r"\b(?:schätz|vorhers|extrapolier|interpolier)\w*\b[^.;]*?\b(?:für|bei)\b[^.;]*?\d|"
    # "la presión predicha a 100 °C", "la pression prédite à 100 °C", "prevista a 100 °C"
    r"\b(?:predich|prédi|previst|stimat|estimad|estimé|extrapol|interpol|attes[ao]\b)\w*"
    r"[^.;]*?\b(?:a|à|para|pour|per|en)\b[^.;]*?\d|"
    r"(?:预测|估计|外推)[^。；]*?\d",
    re.IGNORECASE,
)
ESTIMATED = re.compile(r"predict|estimat|extrapolat|interpolat", re.IGNORECASE)
# A comparison digit by digit (NIST's certified values) needs every digit of the values.
DIGITS = re.compile(
    r"significant (?:digits|figures)|digits agree|(?:geltende|signifikante)n? (?:ziffern|stellen)"
    r"|有效数字",
    re.IGNORECASE,
)
FULL_PRECISION = re.compile(r"full precision|all (?:their )?digits", re.IGNORECASE)
# A conversion a task asks for: the verb, then the unit the values must come out in.
CONVERSION = re.compile(
    r"\bconvert|\bconversion|\badd(?:ing)? back|\bexpress(?:ed)? (?:\w+ ){0,3}in\b|"
    r"\bgive (?:\w+ ){0,4}as \w+ in\b|\bumrechn|\bumzurechnen|\brechnen sie \w+ in|"
    r"换算|转换为|折算",
    re.IGNORECASE,
)
# A value asked in a unit: "calcular L en J/mol (y en kJ/mol) ... la energía por molécula
# en eV", "compute the energy in eV"; a remark on a symbol's unit ("(T en K)") asks none.
VALUE_VERB = re.compile(
    r"\b(?:calcul|comput|determin|détermin|berechn|bestimm|ermittel|calcol)\w*", re.IGNORECASE
)
_IN_UNIT = re.compile(
    r"(?<!\(\w\s)(?<!\(\w{2}\s)\b(?:in|en|em|dans)\s+(?P<unit>[^\s,.;:()（）]+)",
    re.IGNORECASE,
)
_TARGET = re.compile(
    r"(?:\bto|\binto|\bin|\bauf|成|为)\s*(?:the\s+)?(?P<unit>[^\s,.;:()（）]+(?:\s*per\s*\w+)?)",
    re.IGNORECASE,
)
# An offset to add back is written with its unit: "add back the 299 000 km/s".
_OFFSET = re.compile(r"\d[\d\s.,]*\s(?P<unit>[^\s,.;:()]+)")


def unmet(task: str, given: list[str], named: frozenset[str] = frozenset()) -> list[str]:
    """What `task` asks for that none of the values `given` holds, each in a few words (`χ²`,
    `T0`, `the values in km/s`), in the task's order; [] when all of it is there or the task
    names nothing this module reads. `named` holds the words the listed values go by (a
    decay is `tau`, an amplitude `amplitude`): a symbol among them counts as given."""
    text = " ".join(given)
    parts = line_parts(task)  # "die Periodendauer T des Pendels (Steigung)": T is the slope
    missing = [symbol for symbol in asked_symbols(task)
               if not _has_value(symbol, text) and not _named(symbol, named)
               and not (symbol in parts and _has_value(parts[symbol], text))
               and not (_barred(symbol, task) and MEAN.search(text))]  # fmt: skip
    # a defined name is given under the noun the task calls it by ("the bandwidth, Δf = ...")
    missing += [name for name, noun in defined_names(task)
                if not _has_value(name, text) and not _named(name, named)
                and not (noun and _has_value(noun, text))]  # fmt: skip
    missing += unnamed_quantities(task, text)
    if ESTIMATE_AT.search(task) and not ESTIMATED.search(text):
        missing.append("the value at the point it names")
    missing += [name for name, asked, shown in STATISTICS
                if asked.search(task) and not shown.search(text)
                and not (name == "the standard deviation" and _own_spread(task, text))]  # fmt: skip
    if _asks_a_mean(task) and not MEAN.search(" ".join([text, *named])):
        missing.append("the mean")  # "the mean F_max" where only each run's F_max is listed
    if DIGITS.search(task) and not FULL_PRECISION.search(text):
        missing.append("the values in full precision (those listed are rounded to their errors)")
    units = [unit for unit in target_units(task) if not _carries(unit, text)]
    if units:
        missing.append(f"the conversion to {' and '.join(units)}")
    return list(dict.fromkeys(missing))


def _barred(symbol: str, task: str) -> bool:
    """Whether `task` writes `symbol` with a bar over it (`k̄`, `\\bar{k}`): a mean, which a
    listed mean gives under its own name."""
    name = re.escape(symbol)
    return re.search(rf"(?<!\w){name}\u0304|\\bar\{{{name}\}}", task) is not None


def _asks_a_mean(task: str) -> bool:
    """Whether `task` asks for a plain mean: not a weighted one (a statistic of its own),
    nor the mean response a fit estimates at a point ("the mean depression for 8 t")."""
    return bool(MEAN.search(task)) and not (
        re.search(_WEIGHTED_MEAN, task, re.IGNORECASE) or ESTIMATE_AT.search(task)
    )


# "a and c with their standard deviations", "mit ihren Standardabweichungen", "avec leurs
# écarts-types": each value's own uncertainty, which a value listed as `x ± u` states.
OWN_SPREAD = re.compile(
    r"\b(?:with|and) (?:its|their) (?:standard deviations?|standard errors?|uncertaint\w+)|"
    r"\bmit (?:ihren|ihrer|seiner|seinen|deren) (?:Standardabweichung|Unsicherheit)\w*|"
    r"\bavec (?:leurs?|son|sa) (?:écarts?-types?|incertitudes?)|"
    r"\bcon (?:sus?|la) (?:desviaci[oó]n(?:es)? (?:est[aá]ndar|t[ií]pica)s?|incertidumbres?)|"
    r"及其标准差",
    re.IGNORECASE,
)


def _own_spread(task: str, text: str) -> bool:
    """Whether the task asks for its values' own standard deviations, and they are listed."""
    return OWN_SPREAD.search(task) is not None and "±" in text


def _named(symbol: str, named: frozenset[str]) -> bool:
    """Whether `named` holds the symbol, its Greek letter spelled out (τ is `tau`), or, for a
    starting value (`U0`, `N0`), the amplitude it is."""
    spelled = "".join(GREEK.get(char, char) for char in symbol).lower()
    initial = re.fullmatch(r"[A-Za-z]_?0", symbol) is not None and "amplitude" in named
    return symbol.lower() in named or spelled in named or initial


def _has_value(symbol: str, text: str) -> bool:
    """Whether a value listed is named `symbol` (or `symbol_...`: `R_measured` for R)."""
    name = re.escape(symbol)
    return re.search(rf"(?<![\w]){name}(?:_\w+)?\s*(?:=|≈|predicted)", text) is not None


def target_units(task: str) -> list[str]:
    """The units a task asks values to be converted to: "Convert the boiling points to kelvin
    and the pressures to kPa" gives K and kPa; "Remember to add back the 299 000 km/s", km/s."""
    units = []
    for sentence in sentences(task):
        cue = CONVERSION.search(sentence) or VALUE_VERB.search(sentence)
        if cue is None:
            continue
        rest = sentence[cue.start() :]
        if cue.re is VALUE_VERB:
            pattern = _IN_UNIT
        else:
            pattern = _OFFSET if cue[0].lower().startswith("add") else _TARGET
        for match in pattern.finditer(rest):
            written = match["unit"].strip()
            # the conversion factor's own units ("1 inHg = 3.38639 kPa") are not the target
            before = rest[max(0, match.start() - 3) : match.start()]
            if "=" in before or not written:
                continue
            unit = known_unit(written)
            if unit is not None and _symbol(unit) is not None:
                units.append(_symbol(unit) or unit)
    return list(dict.fromkeys(units))


@cache
def _symbol(unit: str) -> str | None:
    """pint's short symbol for `unit` (`microseconds` is `µs`), or None if pint cannot read it."""
    from labscribe.tools.columns.unit_library import unit_registry

    try:
        short = f"{unit_registry().parse_units(unit.replace('·', '*')):~P}"
    except Exception:  # pint refuses what it cannot read, whatever its reason
        return None
    return short.replace("μ", "µ") if short else None


def _carries(unit: str, text: str) -> bool:
    """Whether a value in `text` is written in `unit` (as pint or as labs write it)."""
    spellings = {unit, unit.replace("²", "^2"), unit.replace("/", " ").replace("²", "^2")}
    return any(re.search(rf"(?<![\w/]){re.escape(s)}(?![\w])", text) for s in spellings)


# A task that asks for a plot: its verb in English, German or Chinese.
PLOT = re.compile(
    r"\b(?:plot|graph|draw|sketch)\b|\bstellen sie\b|\btragen sie\b|\bzeichnen sie\b|"
    r"darstell|auftrag|作\s*\S{0,12}图|画出|绘制"
    # "Graficar Φ vs I", "Rappresentare", "Plott", "Tegn", "Rita", "グラフを描け", "그래프를
    # 그려라", "Постройте", "Narysuj wykres", "Nariši", "Vykreslete" (French "Tracer … sur un
    # même graphique" asks what labscribe's figures may not show: it stays a task of its own)
    r"|\bgrafic|\bgrafique|\btrazar|\brappresent"
    r"|\bplott|\btegn\b|\brita\b|グラフ|描け|그래프|постро|narysuj|nariši|vykresl",
    re.IGNORECASE,
)
_ASKS_MORE = re.compile(
    r"\bfit|\bdetermin|\bcalculat|\bcomput|\bfind|\bestimat|\bgive|\breport|\bbestimm|"
    r"\bberechn|\bermittel|\banpass|\bline\b|\bslope|\bmodel|\bgerade|\bsteigung|拟合|求|计算|"
    r"确定|直线|斜率",
    re.IGNORECASE,
)


def plot_only(task: str) -> bool:
    """Whether `task` asks only for a plot ("Stellen Sie U(t) linear und halblogarithmisch
    dar", "Plot the depression against the roller weight"): no fit, value or judgement."""
    return (
        PLOT.search(task) is not None
        and _ASKS_MORE.search(task) is None
        and FIT_CUE.search(task) is None  # "… y ajustar una recta", "anpassa"
        and not any(asked_objects(s) for s in sentences(task))  # "determinar", "求めよ"
    )


def left_undone(
    task: str,
    values: list[str],
    judged: list[str],
    *,
    material: bool,
    named: frozenset[str] = frozenset(),
    source: str = "",
) -> str:
    """What a checklist row leaves the student when the values it lists do not answer the
    task ("" when they may: then only checking, or the judgement, is left): what is
    missing by name, or, where only the data and settings it starts from are listed, all of
    it (a plot, where the task only asks for one). `source` names what to work the missing
    values out from where it is not the values or data listed (the nominal values)."""
    missing = unmet(task, values, named)
    then = f"; then {', '.join(judged)}" if judged else ""
    if missing:
        one = len(missing) == 1
        source = source or ("the data listed" if material else "the results given")
        return (f"not done: {_listed(missing)} {'is' if one else 'are'} not in this report; "
                f"work {'it' if one else 'them'} out from {source}{then}")  # fmt: skip
    if not material:
        return ""
    if plot_only(task) and not judged:
        return "the plot: this report lists only the data it needs"
    return f"all of it: this report lists only the data and settings the task starts from{then}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# A condition on the data a task writes: "p ≤ 1 bar", "t* > 180 s"
CONDITION_ON_DATA = (
    r"(?<![\w])(?P<symbol>[A-Za-z](?:_\w+)?)\*? ?(?P<op><=|>=|<|>|≤|≥|⩽|⩾) ?"
    r"(?P<number>\d+(?:[.,]\d+)?)(?: ?(?P<unit>[^\W\d][\w/°µ]*))?"
)

# A task that works on part of the data: "only the values from t* = 180 s on", "the first 16
# values", "für t ≤ 144 s", "the linear part"; a fit of all of them is not its answer.
PART_OF_DATA = re.compile(
    r"\bonly (?:the )?(?:data|values|points|measurements|readings)\b"
    r"|\b(?:the )?(?:first|last) \d+ (?:\w+ )?(?:points|values|measurements|readings|rows)\b"
    r"|\bnur (?:die )?(?:Mess)?(?:werte|daten|punkte)\b"
    r"|\b(?:die )?(?:ersten|letzten) \d+ (?:Mess)?(?:werte|punkte)\b"
    r"|\b(?:seulement|uniquement) (?:les )?(?:mesures|valeurs|points|donn[ée]es)\b"
    r"|\bles \d+ (?:premi[eè]r|derni[eè]r)\w*|\bles (?:premi[eè]r|derni[eè]r)\w* \d+"
    r"|\bs[oó]lo (?:los |las )?(?:datos|valores|puntos|medidas|mediciones)\b"
    r"|\b(?:los|las) (?:primer|[uú]ltim)\w* \d+"
    r"|\bsolo (?:i |le )?(?:dati|valori|punti|misure)\b|\b(?:i|le) (?:prim|ultim)\w* \d+"
    r"|\bapenas (?:os |as )?(?:dados|valores|pontos|medidas)\b"
    r"|\b(?:os|as) (?:primeir|[uú]ltim)\w* \d+"
    r"|\btylko (?:dla )?(?:pomiar|warto|punkt)\w*|\b(?:pierwszych|ostatnich) \d+"
    # "the linear part of the Gran plot", "im linearen Bereich", "la partie linéaire"
    r"|\blinear (?:part|region|portion|section|range)\b|\blinearen? (?:Teil|Bereich)"
    r"|\b(?:partie|zone|région) linéaire|\b(?:parte|tramo|zona|regi[oó]n) linea[lr]e?\b"
    r"|\bczęś\w* liniow\w*|\bliniow\w+ (?:częś\w*|zakres\w*|obszar\w*)"
    r"|线性(?:范围|区域?|部分|段)|(?:取|只取|选取)[^，。；]{0,20}?(?:内|之间|以内)的数据"
    # a counter's plateau: its slope is that of the plateau alone, not of the onset below it
    r"|\bplateau ?(?:steigung|slope|bereich|region)|\b(?:slope|steigung) (?:of the|des) plateaus?"
    r"|\bpente du plateau"
    rf"|{CONDITION_ON_DATA}",
    re.IGNORECASE,
)


def part_of_data(task: str) -> str:
    """The words by which `task` works on part of the data only, "" where it names none."""
    found = PART_OF_DATA.search(task)
    return found[0] if found else ""
