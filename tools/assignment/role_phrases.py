"""How handouts say which quantity is plotted or fitted against which, and what their symbols
stand for: the words, read from the text, before any column is matched (tools.columns.roles).

- A pairing: "plot the period T against the length L", "T versus L", "V_R as a function of
  f", "the dependence of U on I", "L on the horizontal axis", German "trage T gegen L auf",
  "T in Abhängigkeit von L", "the T–L curve", Chinese "作 T-L 图", "以摆长 L 为横坐标",
  "T 随 L 的变化", "以 T 对 L 作图", French and Spanish "en fonction de". Each gives the
  response's phrase, the predictor's phrase, or both, as written.
- A glossary: "the period T", "the length L of the pendulum", "Länge L", "摆长 L", "Planck's
  constant h": which words name which symbol.
- What a task asks to determine: "determine the gravitational acceleration g", "bestimmen
  Sie h", "求重力加速度 g".

Patterns run on one sentence at a time, each with one way to match a run of text (linear
time on untrusted prose).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from labscribe.tools.formulas.formula_notation import GREEK, plain_symbol

MAX_SENTENCE_CHARS = 600  # a task or a sentence of a handout; longer text is prose to skip
MAX_PHRASE_CHARS = 120
_SENTENCES = re.compile(r"(?<=[.!?;。！？；])\s+|\n\s*\n|(?<=[。！？；])")
# The words between a response and its predictor: "y against x", "y gegen x", "y w funkcji x".
_AGAINST = (
    r"against|versus|vs\.?|v\.|as an? (?:[a-z]+ )?function of|gegen|über|in abhängigkeit "
    r"(?:von|vom|der|des)|als funktion (?:von|vom|der|des)|en fonction d(?:e|u|es)|"
    r"en función del?|frente al?|in funzione (?:di|del|della|dello|dei|delle)|"
    r"em função (?:de|do|da|dos|das)|w funkcji|v závislosti na|v odvisnosti od|"
    r"в зависимости от"
)
# The end of the predictor's phrase: the clause ends, or the task goes on to something else.
_PREDICTOR_END = re.compile(
    r"[.;:!?。；：！？,]|\s(?:with|mit|avec|con)\s|\s(?:and then|to (?:determine|find|"
    r"obtain|get|fit|calculate|check|verify|test|show)|in order|so that|using|and (?:fit|"
    r"determine|find|calculate|compute|use|draw|compare|verify|check|show)|for (?:each|all|"
    r"every)|um\b|und (?:bestimm|berechn|pass)|以|并|，"
    # "1/T für die Messreihe p ≤ 1 bar", "pour la série 2": which data, not the axis
    r"|(?:für|pour|para) (?:die|den|das|jede\w*|alle|la|le|les|el|los|las|cada)\b"
    # "in funzione della frequenza per i canali AI1 e AI2", "for channels A and B"
    r"|per (?:i|gli|le|il|la|lo|ogni|ciascun\w*)\s|for (?:the )?(?:channels?|runs?|"
    r"series|samples?|sensors?)\b|dla (?:każdego|kanał\w*)"
    # German's verb after its axis: "D gegen u auftragen und …", "T gegen L auf und …"
    r"|auf(?:zu)?(?:tragen|getragen)\b|auf(?=\s+und\b)|\bauf(?=\s+\()"
    # a second verb in Spanish, Italian, Portuguese and French: "y ajuste", "e interpolare"
    r"|(?:y|e|et) (?:ajust|interpol|d[ée]termin|calcul|trac|dibuj|deriv|obten|ricav))"
    # a conjunction before a comma or before the next plot: "p frente a T y, a continuación,
    # ln p frente a 1/T", "U against I and R against T"
    r"|\s(?:and|und|et|y|e|sowie)\s*,|\s(?:and|und|et|y|e|oraz|i|a)\s+(?:\S+\s+){1,6}?"
    rf"(?:{_AGAINST})\s",
    re.IGNORECASE,
)
_CLAUSE_START = re.compile(r"[.;:!?。；：！？,，]\s*|^")
# Words that start a phrase but name nothing (the verb of the task, articles).
_LEADING = re.compile(
    r"^(?:and\s+|und\s+)?(?:(?:please |now |then |also |first |next )?(?:plot|graph|draw|"
    r"sketch|make|fit|put|place|set|"
    r"show|represent|present|display|trage[n]?(?: sie)?|zeichne[n]?(?: sie)?|stelle[n]?"
    r"(?: sie)?|plotte[n]?(?: sie)?|tracer|tracez|graficar?)\s+)?(?:(?:a|"
    r"an|the|of|die|den|der|das|le|la|les|respective|jeweilige[nmrs]?)\s+)*"
    r"(?:(?:graph|plot|diagram|figure|curve)\s+of\s+"
    r"(?:the\s+)?)?"
    # "fare un fit lineare della fase", "hacer un ajuste lineal de la fase", "a linear fit
    # of the phase": the fit asked, not the axis
    r"(?:(?:(?:fare|eseguire|effettuare|hacer|realizar|faire|effectuer)\s+)?"
    r"(?:(?:un|una|une|a|an)\s+)?(?:linear\s+)?(?:fit|ajuste|ajustement|regressione|regresión|"
    r"regression)\s+(?:(?:lineare|lineal|linéaire|linear)\s+)?(?:(?:della|dello|delle|degli|"
    r"dei|del|di|de la|de los|de las|de|du|des|of the|of|to the|to)\s+)?)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Pairing:
    """What one sentence says about the axes: the response's phrase and the predictor's,
    as written ("" where it names only one)."""

    response: str
    predictor: str
    sentence: str


# Abbreviations a sentence goes on after: "V vs. 1/λ", "e.g.", "Fig. 2", German "z.B.".
_ABBREVIATION = re.compile(
    r"(?:^|[\s(\[])(?:vs|e\.g|i\.e|cf|fig|figs|eq|eqs|ca|approx|resp|bzw|z\.\s?B|d\.\s?h|"
    r"vgl|Abb|Gl|Nr)\.$",
    re.IGNORECASE,
)


def sentences(text: str) -> list[str]:
    """The sentences of `text` (a task, a handout), each cut to MAX_SENTENCE_CHARS."""
    parts: list[str] = []
    for part in _SENTENCES.split(text):
        if parts and _ABBREVIATION.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {part}"  # "V vs. 1/λ", "e.g. T": no sentence ends there
        else:
            parts.append(part)
    return [" ".join(part.split())[:MAX_SENTENCE_CHARS] for part in parts if part.strip()]


# (pattern, whether the response comes first) for "y ... x" forms; each pattern's `y` runs
# back from the keyword to the clause's start, its `x` on to the phrase's end.
_BETWEEN = re.compile(rf"\s(?:{_AGAINST})\s", re.IGNORECASE)
_SYMBOL = r"[^\W\d_](?:_\{?\w{1,6}\}?)?"  # a letter with an optional subscript: `V_H`, `U`
# Brazil's axes: "gráfico T × t", "reta f × n", "ln(R) × 1/T", a word each side; not the
# product of two numbers (2 × 10³)
_AXIS_WORD = r"[^\W\d][\w{}()^²]*"
_CROSS = re.compile(rf"(?<![\w(])(?P<y>{_AXIS_WORD})\s×\s(?P<x>(?:1/)?{_AXIS_WORD})")


def _function_of(n: str) -> str:
    """`U(t)` after up to two words ("Plot the voltage U(t)"): a symbol of its variable, the
    groups named `y{n}` and `x{n}`."""
    # its variable may be squared or a reciprocal: `θ_frei(λ²)`, `T(1/L)`
    return (
        rf"(?:[^\W\d_][\w-]{{2,}}\s+){{0,2}}(?P<y{n}>{_SYMBOL})"
        rf"\((?P<x{n}>(?:1/)?{_SYMBOL}(?:²|\^\{{?2\}}?)?)\)"
    )


_DEPENDENCE = re.compile(
    r"\b(?:the )?dependen(?:ce|cy) of (?P<y>.{1,80}?) (?:on|upon) (?P<x>.+)|"
    r"\bhow (?P<y2>.{1,80}?) (?:depends on|varies with|changes with) (?P<x2>.+)|"
    r"\babhängigkeit (?:der|des|von) (?P<y3>.{1,80}?) (?:von|vom) (?P<x3>.+)|"
    # Russian, Polish, Czech: "зависимость U от B", "zależność U od B", "závislost U na B";
    # "график U(B)", "wykres charakterystyki I(U)", "charakterystykę prądowo-napięciową I(U)"
    r"(?:зависимост\w*|zależnoś\w*|závislost\w*) (?P<y4>.{1,80}?) (?:от|od|na) (?P<x4>.+)|"
    # Czech and Slovak also drop the noun: "graf průhybu y na celkové hmotnosti závaží"
    r"\bgraf\w* (?!z[aá]vislost)(?P<y6>.{1,80}?) na (?P<x6>.+)|"
    r"(?:график\w*|зависимост\w*|характеристик\w*|wykres\w*|zależnoś\w*|charakterystyk\w*|"
    r"graf\w*|závislost\w*|charakteristik\w*|"
    # "Tracer ω_x(t)", "Plot U(t)", "Graficar V(t)": a function of its variable is plotted
    r"trac(?:er|ez|e)|plot|draw|trazar|trace|graficar|grafique|zeichnen Sie|traçar|tracciare|"
    # Scandinavian "Anpassa ett samband l(U)", "sammenhæng", "sammenheng"
    r"rappresentare|représenter|samband|sammenh[æe]ng|sammanhang|"
    # a fit of a function of its variable: "eine lineare Ausgleichsrechnung θ_frei(λ²)"
    r"ausgleichsrechnung|ausgleichsgerade|regression|regressione|regresión)\s+"
    + _function_of("5")
    + "|"
    # Japanese "n に対する V_n の直線回帰": V_n against n
    r"(?P<x7>[^\s、。,，]{1,20})\s*に対する\s*(?P<y7>[^\s、。,，の]{1,20})",
    re.IGNORECASE,
)
# A calibration names its response and variable ("energikalibrering E(K)", "Kalibrierkurve
# T(R)"), unless the sentence fits peaks first ("photopeaks by Gaussian fits, then a linear
# calibration E(K)"): its axes are then of the peaks' positions, no columns of the spectrum.
_CALIBRATION = re.compile(
    r"(?:\w*kalibrer\w*|\w*kalibrier\w*|\w*calibra\w*|\w*étalonnage)\s+" + _function_of(""),
    re.IGNORECASE,
)
_PEAK_MODEL = re.compile(r"gauss|gauß|lorentz|高斯|洛伦兹", re.IGNORECASE)
_AXIS = re.compile(
    r"(?P<x>[^,;:.]{1,80}?) on the (?:horizontal|x)[- ]axis|"
    r"(?P<y>[^,;:.]{1,80}?) on the (?:vertical|y)[- ]axis",
    re.IGNORECASE,
)
_CHINESE = re.compile(
    r"以\s*(?P<x2>[^,，。;；]{1,20}?)\s*为横(?:坐标|轴)|"
    r"(?P<y2>[^,，。;；以]{1,20}?)\s*为纵(?:坐标|轴)|"
    r"(?P<y3>[^\s,，。;；、]{1,20}?)\s*随\s*(?P<x3>[^\s,，。;；、]{1,20}?)\s*(?:的)?变化|"
    # "以 1/(dQ/dt) 对 1/P 作线性回归": y against x
    r"以\s*(?P<y4>[^,，。;；、]{1,20}?)\s*对\s*(?P<x4>[^,，。;；、]{1,20}?)\s*(?:作|做|进行)"
)
# "Y–X curve": a characteristic named by its axes, the response first ("the I–V curve",
# "U-I-Kennlinie", "画 V_H–I_M 和 V_H–I_S 曲线", "作出 Vout–B 关系曲线", "B–x 图"); pairs joined by
# "和" or "and" share the word after the last. Found backwards from that word.
_CURVE_WORD = re.compile(
    r"\s*(?:的\s*)?(?:关系\s*)?(?:曲线|图|特性|グラフ|그래프|곡선)|"
    r"[\s-](?:curves?|graphs?|plots?|characteristics?|diagrams?|kennlinien?|diagramm|kurven?)\b",
    re.IGNORECASE,
)
_AXIS_TOKEN = r"[^\W\d_][^\s,，。;；、:：()（）\-–—－~～]{0,19}?"
_CURVE_PAIR = re.compile(rf"(?<![\w-])(?P<y>{_AXIS_TOKEN})\s*[-–—－~～]\s*(?P<x>{_AXIS_TOKEN})$")
_CURVE_JOIN = re.compile(r"\s*(?:和|及|与|、|,|，|\band\b|\bund\b|\bet\b)\s*$", re.IGNORECASE)
_DRAW_VERB = re.compile(r"^(?:画出?|作出?|绘制?出?|做出?)")
# Hyphenated words before "plot" or "curve" that name no axes: "log-log plot", "best-fit
# curve"; nor does "an x-y plot".
_NO_AXES = frozenset({"log", "lin", "semi", "best", "fit", "half", "double", "least"})
_AUFTRAGEN = re.compile(r"\bauf(?:zu)?(?:tragen|getragen)?\b|\bauf\s*[.,;]|\bauf$", re.IGNORECASE)


def pairings(sentence: str) -> list[Pairing]:
    """What `sentence` says about which quantity is plotted or fitted against which."""
    found: list[Pairing] = []
    if len(sentence) > MAX_SENTENCE_CHARS:
        return found
    for match in _BETWEEN.finditer(sentence):
        keyword = match[0].strip().lower()
        if keyword == "über" and not _AUFTRAGEN.search(sentence[match.end() :]):
            continue  # "über" names an axis only in "trage y über x auf"
        y = _response_phrase(sentence[: match.start()])
        x = _predictor_phrase(sentence[match.end() :])
        if y or x:
            found.append(Pairing(y, x, sentence))
    for match in _DEPENDENCE.finditer(sentence):
        y = next(match[f"y{n}"] for n in ("", "2", "3", "4", "5", "6", "7") if match[f"y{n}"])
        x = next(match[f"x{n}"] for n in ("", "2", "3", "4", "5", "6", "7") if match[f"x{n}"])
        found.append(Pairing(_trimmed(y), _predictor_phrase(x), sentence))
    if not _PEAK_MODEL.search(sentence):
        for match in _CALIBRATION.finditer(sentence):
            found.append(Pairing(match["y"], match["x"], sentence))
    for match in _AXIS.finditer(sentence):
        if match["x"]:
            found.append(Pairing("", _response_phrase(match["x"]), sentence))
        else:
            found.append(Pairing(_response_phrase(match["y"]), "", sentence))
    found.extend(_curve_pairings(sentence))
    found.extend(Pairing(match["y"], match["x"], sentence) for match in _CROSS.finditer(sentence))
    for match in _CHINESE.finditer(sentence):
        y = next((match[f"y{n}"] for n in ("2", "3", "4") if match[f"y{n}"]), "")
        x = next((match[f"x{n}"] for n in ("2", "3", "4") if match[f"x{n}"]), "")
        found.append(Pairing(y.strip(), x.strip(), sentence))
    return found


def _curve_pairings(sentence: str) -> list[Pairing]:
    """The axes of every "Y–X curve" in `sentence`, pairs joined before one curve word
    read back from it."""
    found = []
    for word in _CURVE_WORD.finditer(sentence):
        before, pairs = sentence[: word.start()], []
        while pair := _CURVE_PAIR.search(before):
            y, x = _DRAW_VERB.sub("", pair["y"]), pair["x"]
            if {y.lower(), x.lower()} & _NO_AXES or not y or (y.lower(), x.lower()) == ("x", "y"):
                break
            pairs.append(Pairing(y, x, sentence))
            join = _CURVE_JOIN.search(before[: pair.start()])
            if join is None:
                break
            before = before[: join.start()]
        found.extend(reversed(pairs))  # in the order written
    return found


def _response_phrase(before: str) -> str:
    """The response's phrase: the clause before the keyword, without the task's verb."""
    # an appositive ends before the keyword: "plot the period, $T^2$, as a function of L"
    # a remark in brackets before the keyword is no part of the axis: "one tube (e.g. 37.5 cm)"
    clause = _REMARK.sub("", before.rstrip(" ,"))[-MAX_PHRASE_CHARS:]
    starts = [m.end() for m in _CLAUSE_START.finditer(clause)]
    clause = clause[starts[-1] :] if starts else clause
    return _trimmed(clause)


def _predictor_phrase(after: str) -> str:
    """The predictor's phrase: from the keyword to the end of its clause."""
    phrase = after[:MAX_PHRASE_CHARS]
    end = _PREDICTOR_END.search(phrase)
    phrase = phrase[: end.start()] if end else phrase
    return _trimmed(re.sub(r"\s+(?:auf|aufzutragen|auftragen)\s*$", "", phrase, flags=re.I))


def _trimmed(phrase: str) -> str:
    """`phrase` without its verb and the commas and brackets around it; a call of a symbol
    it ends in keeps its bracket (`sqrt(E)`, `ln(p)`)."""
    phrase = _LEADING.sub("", phrase.strip(), count=1)
    phrase = _REMARK.sub("", phrase)  # "1/T (T in kelvin!)": the remark is no part of the axis
    if _ENDS_IN_CALL.search(phrase):
        return phrase.strip(" ,").lstrip("(")
    return phrase.strip(" ,()")


# A bracket of words after an axis, closed or cut off by the clause's end: "(T in kelvin!)",
# "(in s)"; a call's bracket (`ln(p)`) holds no blank.
_REMARK = re.compile(r"\s+\((?=[^()]*\s)[^()]*\)?[\s.!?]*$")
_ENDS_IN_CALL = re.compile(
    r"\b(?:sqrt|ln|log|lg|log10|exp)\(\s*[A-Za-z\u0370-\u03ff][^()]*\)\s*,?$"
)


# "the period T", "the length L of the pendulum", "Planck's constant h", "Länge L": up to
# three words, then a symbol that ends there.
# A glossary's symbol is short (`T`, `V_R`, `f0`, `\\lambda`, `λ`): a longer word is prose.
_GLOSSARY_SYMBOL = (
    r"(?:\\[A-Za-z]{2,8}|[A-Za-z]{1,2}|[\u0370-\u03ff])(?:_\{?[A-Za-z0-9]{1,6}\}?|[0-9])?"
)
_GLOSSARY = re.compile(
    r"(?P<words>(?:[A-Za-zÄÖÜäöüß][a-zäöüß'’-]{2,}\s+){1,3})"
    rf"\$?(?P<symbol>{_GLOSSARY_SYMBOL})\$?(?=[\s,.;:)]|$)"
    # a symbol that goes on into a formula (`obeys e U = ...`) is used, not named
    r"(?!\s*(?:[A-Za-z\u0370-\u03ff](?:_\w+)?\s*)?[=·*/^+])"
)
_CHINESE_GLOSSARY = re.compile(
    rf"(?P<words>[\u4e00-\u9fff]{{1,6}})\s*\$?(?P<symbol>{_GLOSSARY_SYMBOL})\$?(?![A-Za-z])"
)
# Words that stand before a symbol without naming it.
_NOT_NAMES = frozenset(
    {"plot", "graph", "draw", "fit", "determine", "find", "calculate", "compute", "measure",
     "use", "against", "versus", "and", "the", "with", "from", "for", "of", "on", "as", "by",
     "that", "where", "value", "values", "function", "symbol", "gegen", "und", "von", "mit",
     "aus", "die", "der", "das", "den", "bestimmen", "sie", "trage", "data", "column",
     "columns", "in", "is", "are", "be", "to", "at", "its", "their", "give", "gives", "get",
     "obtain", "then", "fitted", "plotted", "called", "named", "denoted", "a", "an", "each",
     "over", "vs", "über", "per", "into", "onto", "between",
     # the method, not the quantity: "durch lineare Regression den Spannungskoeffizienten γ"
     "regression", "linear", "lineare", "linearer", "durch", "least", "squares", "régression",
     "regresión", "regressão", "ajuste", "anpassung"}
)  # fmt: skip


def glossary(text: str) -> dict[str, set[str]]:
    """Which words name which symbol in `text`: {"T": {"period"}, "L": {"length"}}, from
    "the period T", "the length L of the pendulum", "摆长 L"; words in lower case."""
    found: dict[str, set[str]] = {}
    for sentence in sentences(text):
        for match in _GLOSSARY.finditer(sentence):
            symbol = bare_symbol(match["symbol"])
            words = [_bare(w) for w in match["words"].split()]
            # only the words right before the symbol name it: "the phase versus f" does not
            stops = [i for i, w in enumerate(words) if w in _NOT_NAMES]
            words = words[stops[-1] + 1 :] if stops and stops[-1] == len(words) - 1 else words
            named = [w for w in words if w not in _NOT_NAMES and len(w) >= 3]
            if named and symbol and symbol.lower() not in _NOT_NAMES:
                found.setdefault(symbol, set()).update(named)
        for match in _CHINESE_GLOSSARY.finditer(sentence):
            symbol = bare_symbol(match["symbol"])
            if symbol:
                found.setdefault(symbol, set()).add(match["words"])
    return found


def _bare(word: str) -> str:
    """A word in lower case without a possessive: "Planck's" is "planck"."""
    return word.lower().removesuffix("'s").removesuffix("’s")


def bare_symbol(symbol: str) -> str:
    """A name or symbol as a formula's symbol, without math marks or brackets: `V_{R}` as
    `V_R`, `\\lambda` as `lam`, `T (s)`'s name as `Ts` (as tools.formulas.formula_notation spells
    them)."""
    return plain_symbol(symbol.strip("$")).replace("(", "").replace(")", "")


# In the languages handouts are written in, as the infinitive or an imperative ("en
# déduire τ", "ricavare k", "bepaal g", "wyznacz g", "izračunajte h").
_DETERMINE = re.compile(
    r"\b(?:determin(?!ation)\w*|détermin(?!ation)\w*|find|measure|calcul\w*|compute|obtain|estimate|extract|"
    r"deduce|evaluate|derive|get|bestimm\w*|ermittel\w*|berechne\w*|dédui\w*|déduis\w*|"
    r"évalue\w*|évaluer|estimer|estimez|obte[nr]\w*|obtien\w*|trouve[rz]?|deduc\w*|deduz\w*|"
    r"halle|hallar|estim(?:ar|e|en|á)|encontr(?:ar|e)|abschätz\w*|schätzen|oszacuj\w*|calcol\w*|ricav\w*|dedur\w*|stima|stimare|stimate|ottene\w*|trovare|"
    r"trovate|bepaal\w*|bereken\w*|wyznacz\w*|oblicz\w*|určete|určit|vypočt\w*|vypočít\w*|"
    r"določi\w*|izračuna\w*|bestäm\w*|beräkna\w*|bestem\w*|beregn\w*|udregn\w*|finn|"
    r"определ\w*|вычисл\w*|найди\w*|найти"
    # "… und daraus die Dichte ρ_kl": a value worked out of the last, asked for too
    r"|daraus|hence|thence|from (?:it|this|these|them)|d'où|quindi|da cui|stąd|отсюда|odtud)"
    r"\b|求出?|测定|测量|计算|确定|得出|由此",
    re.IGNORECASE,
)
# After these, a symbol is what the task uses, not what it asks for.
_GIVEN = re.compile(
    r"\b(?:using|given|knowing|taking|assuming|with the (?:known|given|accepted|standard)|"
    r"unter verwendung|mit dem bekannten|mit der bekannten|en utilisant|sachant|connaissant|"
    r"usando|utilizando|conociendo|utilizzando|sapendo|noto|nota)\b|利用|已知",
    re.IGNORECASE,
)


def asked_objects(sentence: str) -> list[str]:
    """The text after each verb of `sentence` that asks to determine something, up to what
    the sentence says is given: "From a, determine the gravitational acceleration g" gives
    "the gravitational acceleration g"."""
    objects = []
    for match in _DETERMINE.finditer(sentence):
        rest = sentence[match.end() : match.end() + MAX_PHRASE_CHARS]
        given = _GIVEN.search(rest)
        rest = rest[: given.start()] if given else rest
        objects.append(_before_the_means(rest))
    return objects


# What a value is worked out from or by, after the value asked for: "determine R from U and
# I", "bestimmen Sie RC durch einen Fit von A/U_0 = ...": those symbols are not asked for.
_MEANS = re.compile(
    r"\b(?:from|by|through|via|aus|durch|mittels|anhand|à partir d|par|mediante|a partir d|"
    r"tramite)\b",
    re.IGNORECASE,
)


def _before_the_means(phrase: str) -> str:
    """`phrase` up to the means it names after a symbol ("RC durch einen Fit" gives "RC");
    whole where the means come first ("aus der Steigung die Erdbeschleunigung g"), and where
    they stand in a formula's aside ("R_H = c·d (Probendicke d aus probe.ini) und n")."""
    formula = phrase.find("=")
    for means in _MEANS.finditer(phrase[: formula if formula >= 0 else len(phrase)]):
        before = phrase[: means.start()]
        if before.count("(") > before.count(")"):
            continue
        if any(is_symbol(token) for token in re.findall(r"[^\s,;.()]+", before)):
            return before
    return phrase


_SYMBOL_SHAPE = re.compile(
    r"[A-Za-z\u0370-\u03ff](?:[0-9]*|[₀-₉ₐₑₒₓₕₖₗₘₙₚₛₜ]{1,3})"
    r"|[Δδ]?(?:[A-Za-z]{1,4}|[\u0370-\u03ff])_\{?[A-Za-z0-9]{1,6}\}?"
    r"|[Δδ]?[A-Z]{1,3}"
)


def is_symbol(token: str) -> bool:
    """Whether a token reads as a symbol (`T`, `f0`, `V_R`, `λ`, `lam`) rather than a word
    (`and`, `the`)."""
    bare = token.strip("$")
    return bool(_SYMBOL_SHAPE.fullmatch(bare)) or bare in GREEK.values()
