"""The models an assignment's tasks ask for: named in words ("determine k from a straight-line
fit", "exponentielle Abnahme", "用直线拟合") or written out ("fit a power law T = a L^b").

A task asks for a model when it names one and asks for a fit (fit, regression, model,
describe, 拟合, anpassen ...), or names one that only a fit can mean (a straight line, a
slope, a power law). A formula without such a cue is a definition to compute with
(`Q = f0/(f2 - f1)`), not a model to fit.

"Linear" that names a plot's scale asks for no model: "Stellen Sie U(t) linear und
halblogarithmisch dar", "plot the current (linear and with a logarithmic current axis)", "on
a linear scale", "auf linearem Papier", "用线性坐标和半对数坐标作图" ask for axes, not a
straight-line fit. A straight line on semi-log paper is an exponential ("plot V against t on
semi-log paper to achieve a straight line"), on log-log paper a power law.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from labscribe.tools.assignment.role_phrases import asked_objects, pairings, sentences
from labscribe.tools.formulas.axis_expressions import plotted
from labscribe.tools.formulas.formula_notation import formula_in, plain_symbol
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula

FIT_CUE = re.compile(
    r"\bfit|regress|least[- ]squares|\bmodel|describ|\bfollow|according to|拟合|回归|符合|"
    r"anpass|\bpassen sie\b|fitten|ausgleich|beschreib|"
    # French, Spanish, Italian, Portuguese: ajuster/ajuste, adattare, "interpolare i dati con
    # una retta", les moindres carrés, mínimos cuadrados/quadrados, minimi quadrati
    r"\bajust|\badatt|\binterpol|moindres carr|m[íi]nimos (?:cuadrados|quadrados)|minimi quadrati"
    # Russian, Polish, Czech: наименьших квадратов, аппроксимируйте, najmniejszych kwadratów,
    # dopasuj, nejmenších čtverců, proložte
    r"|наименьших квадратов|аппроксим|najmniejszych kwadrat|\bdopasu|nejmenších čtverc|prolož"
    # Slovenian and Croatian: "prilagodi Malusov zakon", "prilagodite pravac"
    r"|\bprilagod|\bfitaj"
    # Danish, Norwegian, Swedish, Finnish, Japanese, Korean: "tilpas", "anpassa", "mindste
    # kvadraters metode", "sovita", "当てはめ", "フィット", "피팅"
    r"|\btilpass?|\banpassa|minste? kvadrat|minsta kvadrat|\bsovit|当てはめ|フィット|피팅"
    r"|최소\s*제곱",
    re.IGNORECASE,
)
# Interpolation between the measured points reads a value off the data; it fits nothing
# ("par interpolation linéaire entre les points mesurés", "linear zwischen den Messpunkten").
BETWEEN_POINTS = re.compile(
    r"\b(?:linear(?:e|ly)?\s+)?interpol\w*\s+(?:\w+\s+){0,2}(?:entre|between|zwischen|tra|fra)\b|"
    r"\blinear(?:ly)?\s+(?:between|zwischen)\b",
    re.IGNORECASE,
)
_LOG = r"(?:semi-?|half-?|double-?|halb|einfach|doppelt)?[- ]?log(?:arithm)?\w*"
_SEMILOG = r"semi-?log|half-?log|halblogarithm|einfach-?logarithm|log-?lin(?:ear)?\b|半对数"
_LOGLOG = r"log[-–]?log|double-?log|doppelt-?logarithm|双对数"
_LINE = r"straight[- ]?line|\bgerade\b|直线"
# Two of a line ("a fit of two Gaussian peaks", "twee Gaussische pieken", "zwei Gauß-Peaks",
# "deux gaussiennes", "dwóch krzywych Gaussa", "двух гауссиан", "两个高斯峰", "a double Gaussian"):
# up to two words between the count and the line's name.
_TWO = (
    r"(?:\btwo|\btwee|\bzwei|\bdeux|\bdue|\bdos|\bdois|\bduas|\bdwa|\bdwóch|\bdvě|\bdva|"
    r"\bдва|\bдвух|两个?|\bdouble|\bdoppel|双)[- ]?(?:\w+[- ]){0,2}?"
)
# Data made logarithms before their line is fitted ("Transformieren Sie die Rohdaten geeignet in
# logarithmische Größen und bestimmen Sie mittels linearer Regression die Zeitkonstante"): the
# line is of logarithms the task does not name, not of the columns as they are.
# So is an equation's logarithm of a difference ("linear regression of equation 1.5:
# ln(C*−C)/(C*−C_0) = −k(t−t_0)"), which no column holds; a logarithm plotted against an axis
# ("ln(p/p0) gegen 1/T", "ln(U_C) against t") stays the line of its columns.
LOGARITHMS_TAKEN = re.compile(
    r"\b(?:logarithm(?:s|ic|isch\w*|ier\w*)|logaritm\w*|logarytm\w*|логарифм\w*)"
    r"|\b(?:ln|log)\s*\([^()]*[-+−][^()]*\)[^=;.]{0,30}=",
    re.IGNORECASE,
)
# A model made a line ("linearize o modelo do termistor", "linearisieren Sie"): the line is of
# transformed quantities, which a task that names no axes leaves to the student.
LINEARISED = re.compile(r"\blineari[sz]\w*|\blinéaris\w*|\blinearisier\w*|\blinearizz\w*", re.I)
# Log paper: a straight line on it is the curve the scale straightens, not a line of the columns.
LOG_PAPER = re.compile(rf"{_SEMILOG}|{_LOGLOG}", re.IGNORECASE)
# A plot's scale written with "linear": removed before the model words are read.
SCALE = re.compile(
    rf"\blinear(?:ly)?\s+(?:and|or|und|oder|as well as|sowie)\s+(?:\S+\s+){{0,3}}?{_LOG}|"
    rf"\b{_LOG}\w*\s+(?:and|or|und|oder|as well as|sowie)\s+(?:\S+\s+){{0,2}}?linear\w*|"
    r"\blinear(?:e[mnrs]?)?\s+(?:scales?|axes|axis|graph[- ]paper|paper|skal\w*|achsen?|"
    r"maßstab|papier|koordinaten\w*|darstellung|auftragung)\b|\blin-?lin\b|\blin-?log\b|"
    r"(?:线性|直角)坐标",
    re.IGNORECASE,
)
# "linear" of what is no fit: "linear combinations of the excitation energies", "a linear
# ramp of U2", "linearly polarised light".
NOT_A_LINE = re.compile(
    r"\blinear(?:ly|e[nrs]?)?\s+(?:combinations?|kombination\w*|combinaisons?|ramp\w*|sweep\w*"
    r"|polari[sz]\w*)",
    re.IGNORECASE,
)
# (standard model, pattern, whether the words alone ask for a fit), the more specific first:
# "straight line through the origin" is proportional, "exponential approach" not a decay.
MODEL_WORDS: tuple[tuple[str, re.Pattern[str], bool], ...] = tuple(
    (shape, re.compile(pattern, re.IGNORECASE), strong)
    for shape, pattern, strong in (
        ("exponential", rf"(?:{_SEMILOG})[^.;。]*?(?:{_LINE})|(?:{_LINE})[^.;。]*?(?:{_SEMILOG})",
         True),
        ("power law", rf"(?:{_LOGLOG})[^.;。]*?(?:{_LINE})|(?:{_LINE})[^.;。]*?(?:{_LOGLOG})",
         True),
        ("damped oscillation", r"damped (?:harmonic )?(?:oscillat|sin|cos)|阻尼振|"
         r"gedämpfte?n? (?:harmonische?n? )?schwingung|dämpad svängning|dæmpet svingning|"
         r"dempet svingning|oscillations? amortie|oscilaci[oó]n(?:es)? amortiguada|"
         r"oscillazion[ei] smorzat|oscila[çc][ãa]o amortecida|затухающ\w* колебан|"
         r"drga\w* tłumion|tlumen\w* kmit|減衰振動|감쇠\s*진동", True),
        ("exponential approach", r"approach(?:es|ing)? (?:to )?(?:a |the )?(?:saturation|"
         r"final|limit|asymptot|steady)|saturat|exponential (?:rise|growth|approach|charging)|"
         r"charging curve|饱和|趋近|sättigung|exponentielle?n? (?:anstieg|annäherung|"
         r"sättigung)", False),
        ("exponential", r"exponential(?:ly)?|\bdecay|指数衰减|指数|衰减|exponentiell|"
         r"exponencial|esponenzial|wykładnicz|экспоненц|"
         r"\babfall|\bzerfall|\babklingen", False),
        ("power law", r"power[- ]law|幂律|幂函数|potenzgesetz|potenzfunktion", True),
        ("two gaussians", rf"{_TWO}(?:gauss|gauß|高斯)|高斯双峰", False),
        ("two lorentzians", rf"{_TWO}(?:lorentz|洛伦兹)", False),
        ("gaussian", r"gauss(?:ian)?|gauß|normal distribution|高斯|normalverteilung", False),
        ("lorentzian", r"lorentz(?:ian)?|洛伦兹", False),
        ("resonance", r"resonance curve|resonanzkurve|谐振曲线|共振曲线", False),
        # not a statistic: "scarto quadratico medio", "mittlere quadratische Abweichung"
        ("quadratic", r"(?<!scarto )(?<!media )quadratic(?![oa]\s+medi)|parabol|"
         r"second[- ](?:order|degree) polynomial|二次|抛物|"
         r"quadratisch(?!e[nrs]?\s+(?:abweichung|mittel))", True),
        ("cubic", r"\bcubic(?!\s+(?:f(?:ee|oo)t|inch|yards?|(?:centi|milli|deci|kilo)?"
         r"met(?:er|re)s?|[cdm]?m\b|units?|capacity))|third[- ](?:order|degree) polynomial|三次|"
         r"kubisch", True),
        ("proportional", r"\bproportional|through the origin|正比|durch den ursprung|"
         r"ursprungsgerade", True),
        ("linear", r"straight[- ]?line|\blinear|line of best fit|\bfit (?:a|the) line|\bslope"
         r"|\bgradient|直线|线性|斜率|\b\w*geraden?\b|\blineare?[nrs]?\b|steigung"
         r"|\brett[ae]\b|\brectas?\b|\b(?:une|la|cette) droite\b|\b(?:uma|a) retas?\b"
         r"|\bpendenza|\bpente\b|\bpendiente|\binclina[çc][ãa]o"
         r"|\bнаклон|\bпрям(?:ая|ой|ую)\b|\bлинейн|\bnachyleni|\bprost(?:a|ej|ą)\b|\bliniow"
         r"|\bsměrnic|\bpřímk|\blineární|\bline[æa]r\b|\blinjär|\blineær|直線|선형|일차\s*함수"
         r"|直線回帰|線形回帰", True),
        # "regression med lämplig modell (svagt eller starkt dämpad)": damped, with a fit,
        # after the other models: "fit the damped signal with an exponential decay"
        ("damped oscillation", r"\b(?:dämpad|dæmpet|dempet|gedämpft|damped)\b", False),
        # last: "a straight line through the amplitudes of the sinusoidal input" is a line
        ("sine", r"\bsine\b|\bsinusoid|\bsinusförmig|\bsinuso[ïií]d|正弦|정현파|사인파|"
         r"\bсинусоид", False),
    )
)  # fmt: skip


# An uncertainty's propagation (`u(z) = u(y)/y`, `σ_z = ...`, `ΔN = √N`): how the data's
# error bars are formed, no model of the data.
UNCERTAINTY_OF = re.compile(r"\s*(?:u\s*\(|σ_?|sigma_|Δ|δ)\s*\w+\)?\s*=")
# A histogram's distribution (the Poisson or Gaussian a count's histogram is compared with) is
# no curve of one column against another.
DISTRIBUTION = re.compile(
    r"histogram|probability (?:mass|density)|\b(?:pmf|pdf)\b|häufigkeitsverteilung|istogramm"
    r"|histograma|histogramme|直方图",
    re.IGNORECASE,
)
# Standard models of one peak: a spectrum of several is fitted a window about each peak.
PEAK_SHAPES = frozenset({"gaussian", "lorentzian"})


class Request(BaseModel):
    """A model a task asks for."""

    task: str
    """The task, as the checklist holds it."""
    number: int
    """Its place in the checklist, from 1."""
    shape: str | None = None
    """A standard model (tools.fits.shapes) the task names in words."""
    formula: str | None = None
    """The formula the task writes out, as written."""
    plotted_before: str = ""
    """For a fit that names neither formula nor axes ("fit a straight line"), the sentence
    of the task just before it that names a plot's axes: the line is of those axes."""

    @property
    def name(self) -> str:
        return self.formula or self.shape or ""


def requested_models(tasks: list[str]) -> list[Request]:
    """The models `tasks` (a checklist) ask for, in task order; at most one per task."""
    requests: list[Request] = []
    plotted = ""
    for number, task in enumerate(tasks, start=1):
        request = requested_model(task, number)
        own = [s for s in sentences(task) if any(p.response and p.predictor for p in pairings(s))]
        if request is not None and request.formula is None and not own:
            if _of_an_earlier_formula(task, requests):
                request = None  # "Report the decay constant γ": the earlier task's model's
            else:
                request.plotted_before = plotted
        if request is not None:
            requests.append(request)
        plotted = own[-1] if own else ""  # only the task just before is referred to
    return requests


_NAMED_SYMBOL = re.compile(r"(?<![\w\\])(?:[^\W\d_A-Za-z]|[A-Za-z]+_?\d)\w*")


def _of_an_earlier_formula(task: str, requests: list[Request]) -> bool:
    """Whether `task` names a symbol of a formula an earlier task fits (`γ`, `T0`; a single
    Latin letter may be a word or a list's mark): it reports that fit, it asks no model."""
    named = {plain_symbol(m[0]) for m in _NAMED_SYMBOL.finditer(task)}
    for request in requests:
        try:
            formula = parse_formula(request.formula) if request.formula else None
        except FormulaError:
            continue
        if formula is not None and named & {formula.x, *formula.parameters}:
            return True
    return False


# Fits named as done before: "k_B = B/I implicada pelos ajustes", "implied by the fits",
# "aus den Anpassungen": the task works from them and asks for none.
FITS_BEFORE = re.compile(
    r"\b(?:by|from|of|in|pelos|pelas|nos|dos|de los|de las|des|par les|aus den|von den|mit den|"
    r"bei den)\s+(?:the |these |your |both |ambos |os |las |den |beiden )?"
    r"(?:fits|ajustes|ajustements|anpassungen|fitten|regressions)\b",
    re.IGNORECASE,
)


def requested_model(task: str, number: int = 1) -> Request | None:
    """The model `task` asks for, if it asks for one."""
    if DISTRIBUTION.search(task):
        return None
    cue = FIT_CUE.search(BETWEEN_POINTS.sub(" ", FITS_BEFORE.sub(" ", task))) is not None
    # "linear und halblogarithmisch darstellen" names axes; "linear interpolation between
    # the two neighbouring points" reads a value off the data
    words = NOT_A_LINE.sub(" ", BETWEEN_POINTS.sub(" ", SCALE.sub(" ", task)))
    words = LINEARISED.sub(" ", words)  # "sem linearização": no line
    named = next(((shape, strong) for shape, pattern, strong in MODEL_WORDS
                  if pattern.search(words)), None)  # fmt: skip
    written = fitted_formula(task)
    if named is not None and defines_the_answer(written, named[0]):
        written = None  # "Bestäm l = λ/I … genom regression med lämplig modell (dämpad)"
    if written is not None and _defined_apart(task, written):
        written = None  # "… genom regression av den fria svängningen. Bestäm även l = λ/I."
    if written is not None and _plotted_against_another(task, written):
        written = None  # "Λ = κ/c, tragen Sie Λ gegen √c auf": the line of that plot
    if written is not None and (cue or named) and _fittable(written):
        return Request(task=task, number=number, formula=written, shape=named and named[0])
    if named is not None and named[0] == "linear" and LOGARITHMS_TAKEN.search(words):
        return None  # the line of quantities made logarithms, which the task does not name
    if LINEARISED.search(task) and not _axes_given(task):
        return None  # "linearize o modelo": a line of quantities the task does not name
    if named is not None and (cue or named[1]):
        return Request(task=task, number=number, shape=named[0])
    if plotted([task]) and any(asked_objects(s) for s in sentences(task)):
        # "Tragen Sie ln(U_C) gegen t auf und bestimmen Sie RC": a value from a linearising
        # plot is its straight line's (tools.formulas.line_law reads the law's constants off it)
        return Request(task=task, number=number, shape="linear")
    return None


def _axes_given(task: str) -> bool:
    return any(p.response and p.predictor for s in sentences(task) for p in pairings(s))


# How far after "fit" the formula it fits begins: "Fit von φ(f) = ...", "fit a line V = ..."
CUE_REACH = 40
_WORD_REST = re.compile(r"\w*")


def fitted_formula(task: str) -> str | None:
    """The formula `task` fits: the one its fit cue introduces ("bestimmen Sie RC aus einem
    Fit von φ(f) = arctan(2πf·RC)"), not a definition before it that says how to form the
    data (φ = 2π·a/b); else the first formula it writes."""
    for cue in FIT_CUE.finditer(task):
        end = _WORD_REST.match(task, cue.end()).end()  # the cue's whole word: "Modell"
        near = "=" in task[end : end + CUE_REACH]
        if near and (found := formula_in(task[end:])) is not None:
            return found
    return formula_in(task)


# A quantity defined as a product or ratio of names: `l = λ/I`, `τ = RC`, `k = m·g`.
_DEFINITION = re.compile(r"\s*\w+\s*=\s*\w+(?:\s*[·*/×]?\s*\w+)*\s*")


def defines_the_answer(written: str | None, shape: str | None) -> bool:
    """Whether `written` defines the quantity a fit of the curved model `shape` gives rather
    than the model: a product or ratio of names is at most a proportionality, so beside an
    exponential or an oscillation it is what to work out ("determine τ = RC from an
    exponential fit"); beside a line it is the line's law (`I = U/R`)."""
    return (
        written is not None
        and shape not in (None, "linear", "proportional")
        and _DEFINITION.fullmatch(written) is not None
    )


def _defined_apart(task: str, written: str) -> bool:
    """Whether `written` is a quantity defined as a product or ratio of names that a
    sentence of `task` without a fit asks to determine: what to work out of the fit another
    sentence asks for ("Bestäm även den naturliga dämpningen l = λ/I"), not the model fitted.
    A law stated on its own ("Ohm's law: U = R·I") stays the model."""
    if _DEFINITION.fullmatch(written) is None:
        return False
    defined = written.split("=")[0].strip()
    if re.search(rf"(?<!\w){re.escape(defined)}(?!\w)", task.replace(written, " ")):
        return False  # "Berechnen Sie V_L = π r² L und tragen Sie 1/p gegen V_L auf": a column
    own = [s for s in sentences(task) if written in s]
    return (
        bool(own)
        and not any(FIT_CUE.search(s) for s in own)
        and all(any(written in phrase for phrase in asked_objects(s)) for s in own)
    )


def _plotted_against_another(task: str, written: str) -> bool:
    """Whether `written` defines a quantity (a product or ratio of names) that the task
    asks to work out and then plots against other than one of its right side's names
    ("Berechnen Sie Λ = κ/c, tragen Sie Λ gegen √c auf"): the quantity is formed, and the
    plot's line is the model. A law the fit gives ("fit a line through the origin, p =
    k/V") stays the model."""
    if _DEFINITION.fullmatch(written) is None:
        return False
    if not any(written in phrase for s in sentences(task) for phrase in asked_objects(s)):
        return False
    defined, right = (side.strip() for side in written.split("=", 1))
    names = set(re.findall(r"\w+", right))
    return any(
        pairing.response.strip() == defined and pairing.predictor.strip() not in names
        for sentence in sentences(task)
        for pairing in pairings(sentence)
        if pairing.predictor
    )


def _fittable(written: str) -> bool:
    """Whether the formula parses and is a model: one name equal to another (the
    hypothesis `a = b`) is none. Which name is the variable, or the response of a left side
    that is not a name (`e U = h c/λ`), may wait for the data."""
    if re.fullmatch(r"\s*\w+\s*=\s*\w+\s*", written) or UNCERTAINTY_OF.match(written):
        return False
    try:
        parse_formula(written)
    except FormulaError as exc:
        return str(exc).startswith(("cannot tell the variable", "cannot tell the response"))
    return True
