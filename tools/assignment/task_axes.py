"""Whether a fit is of the axes a task names: "plot T² against l", "ln p against 1/T",
"Tragen Sie P gegen T⁴ auf", "作 p–θ 图". A handout that asks for a transformed quantity
(a square, a logarithm, a reciprocal, a root) on an axis asks for a fit of that quantity: a
fit of the raw column (t10 against l, U_th against λ) is not the fit it asks for, however
its parameters are named, and the checklist must not offer it as the task's answer.

A task that asks for a fit without naming its axes ("fit a straight line to the plot",
"draw the best fit straight line", "from the slope, determine ...") means the axes of the
last task before it that named some.
A fit matches when the column it fitted carries the transform (a derived column `T²`,
`ln(p)`, `1/T`), or when its model is the transform written out (a power law is a straight
line of ln y against ln x; an exponential, of ln y against x; a formula that takes 1/λ or
T⁴ of its variable). Phrases without a transform are compared only where both sides are
one-letter symbols (`P` against a fit of `U`); anything else is not judged here.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from labscribe.tools.assignment.requested import requested_model
from labscribe.tools.assignment.role_phrases import is_symbol, pairings, sentences
from labscribe.tools.fits.fit_result import Fit
from labscribe.tools.formulas.formula_notation import formula_in

# The transforms a handout writes on an axis, by kind; each pattern runs on one phrase.
TRANSFORMS: dict[str, re.Pattern[str]] = {
    "log": re.compile(r"\bln\b|\blog|logarithm|对数", re.IGNORECASE),
    "reciprocal": re.compile(
        r"(?:^|[^\w.])1\s*/|reciprocal|\binverse|kehrwert|倒数|⁻¹|\^\s*\(?-", re.IGNORECASE
    ),
    "power": re.compile(
        r"[²³⁴⁵]|\^\s*\(?\d|\*\*\s*\d|\bsquared?\b|\bcubed?\b|quadrat|平方(?!根)", re.IGNORECASE
    ),
    "root": re.compile(r"√|sqrt|wurzel|平方根|开方", re.IGNORECASE),
}
# Words with which a task refers to the fit or plot of the task before it.
BACK_REFERENCE = re.compile(
    r"\b(?:the|this|that|your) (?:plot|graph|line|straight line|fit|fitted line|curve|slope|"
    r"gradient|intercept)\b|\bfrom the (?:slope|gradient|intercept)|\bder (?:Geraden|Steigung)|"
    r"\bdie (?:Gerade|Steigung)|\bdem (?:Diagramm|Graphen)|aus der Steigung|斜率|截距|该直线|此图",
    re.IGNORECASE,
)
MAX_NAME_WORDS = 3  # "the threshold voltage U_th": words that name a symbol before it
_FUNCTION_WORDS = frozenset({"ln", "log", "lg", "exp", "sqrt"})


# A symbol set off by commas before the pairing's keyword: "plot the square of the average
# period, $T^2$, as a function of the length $L$".
_APPOSITION = re.compile(
    r",\s*(\$?[^\s,$]{1,12}\$?)\s*,(?=\s*(?:against|versus|vs\.?|as an? (?:\w+ )?function of|"
    r"gegen|über)\s)",
    re.IGNORECASE,
)


class Axes(BaseModel):
    """The axes a task names: the response's and the predictor's expressions as written."""

    response: str
    predictor: str

    def text(self) -> str:
        return f"{self.response} against {self.predictor}"


def task_axes(tasks: list[str]) -> dict[str, Axes]:
    """The axes each task names (as written: `ln p`, `1/T`), or inherits from the task
    before it when it refers back to a plot or fit without naming axes of its own."""
    found: dict[str, Axes] = {}
    last: Axes | None = None
    before: Axes | None = None  # of the task just before: what a bare "fit a line" is of
    for task in tasks:
        named = _own_axes(task)
        if named:  # its first plot is its own; a later task refers back to its last
            found[task], last = named[0], named[-1]
        elif last is not None and BACK_REFERENCE.search(task):
            found[task] = last
        elif before is not None and _unwritten_fit(task):
            found[task] = before
        before = named[-1] if named else found.get(task)
    return found


def _unwritten_fit(task: str) -> bool:
    """Whether `task` asks for a fit without writing its formula ("draw the best fit straight
    line"); a formula (`p = C·L^m`) names its own axes."""
    return requested_model(task) is not None and formula_in(task) is None


# The Chinese convention for a plot: "作 ln R_T – 1/T 图" plots ln R_T against 1/T (its axes
# may be expressions with spaces, which tools.assignment.role_phrases reads as symbols alone).
_CHINESE_PLOT = re.compile(
    r"(?:作|画|绘制?)\s*(?:出\s*)?(?P<response>[^，,。；;（(和及与、]+?)\s*[–—~～-]\s*(?P<predictor>[^，,。；;（(和及与、]+?)\s*(?:关系)?(?:图|曲线)"
)
# A function of a phrase closes a response: "plot ln(corrected counts)", "fit ln(R/Ω".
_FUNCTION_OF_PHRASE = re.compile(r"(?:\b(?:ln|log|lg|sqrt)|√|\b1\s*/)\s*\([^()]+\)?$")


def _own_axes(task: str) -> list[Axes]:
    """The axes of each plot or fit `task` names, in its order ("p against T and then ln p
    against 1/T" names two)."""
    if (plot := _CHINESE_PLOT.search(task)) is not None:
        return [Axes(response=plot["response"].strip(), predictor=plot["predictor"].strip())]
    named = []
    for sentence in sentences(task):
        for pairing in pairings(_APPOSITION.sub(r" \1", sentence)):
            response = _expression(pairing.response, trailing=True)
            predictor = _expression(pairing.predictor, trailing=False)
            if response or predictor:  # an axis without a symbol is named in words
                response = response or _words(pairing.response, trailing=True)
                predictor = predictor or _words(pairing.predictor, trailing=False)
            if response and predictor and not _PRONOUN.match(response):
                named.append(Axes(response=response, predictor=predictor))
    return named


# A response the sentence named before ("berechnen Sie A/U_0 und tragen Sie es
# doppeltlogarithmisch gegen f auf", "compute v and plot it against t") names no axis itself.
_PRONOUN = re.compile(
    r"(?:es|it|them|sie|ihn|le|la|les|lo|los|las|li|ele|ela|eles|elas)\b", re.IGNORECASE
)


def _expression(phrase: str, *, trailing: bool) -> str:
    """The axis expression at the end (response) or start (predictor) of a phrase:
    "From a straight-line fit of T²" gives `T²`, "m determine k again" gives `m`."""
    if trailing and (call := _FUNCTION_OF_PHRASE.search(phrase.strip())) is not None:
        written = call.group().replace(" (", "(")
        return written if written.endswith(")") else f"{written})"
    tokens = phrase.split()
    if not trailing:  # "the load F = m·g": the words before the symbol name it
        skip = next(
            (i for i, t in enumerate(tokens[: MAX_NAME_WORDS + 1]) if _expression_like(t)), 0
        )
        tokens = tokens[skip:]
    taken: list[str] = []
    for token in reversed(tokens) if trailing else tokens:
        # "p against T y, a continuación": a conjunction after an axis ends it
        if not _expression_like(token) or (taken and _CONJUNCTION.fullmatch(token.strip(","))):
            break
        taken.append(token)
    if trailing:
        taken.reverse()
    return " ".join(taken).replace("$", "").strip(" ,()")


_CONJUNCTION = re.compile(r"and|und|et|y|e|o|or|ou|oder")  # lower case: `Y` is a symbol
# Where the words naming an axis start (after the verb) or stop (at the next clause).
_AXIS_VERB = re.compile(
    r".*\b(?:plot|graph|draw|fit|tragen sie|stellen sie|trace[rz]?|représente[rz]?|"
    r"grafique|representa)\b\s*",
    re.IGNORECASE,
)
_AXIS_END = re.compile(r"\s+(?:and|und|et|y|to|for|with|mit|from)\s.*|[,;:.].*", re.IGNORECASE)
MAX_AXIS_WORDS = 5


def _words(phrase: str, *, trailing: bool) -> str:
    """An axis named in words: "the voltages of the maxima" after the verb, "time" before
    the next clause; "" when that takes more than a few words."""
    text = _AXIS_VERB.sub("", phrase) if trailing else _AXIS_END.sub("", phrase)
    words = text.strip(" ,()$").split()
    return " ".join(words) if 0 < len(words) <= MAX_AXIS_WORDS else ""


def _expression_like(token: str) -> bool:
    bare = token.strip("()$,")
    if bare.lower() in _FUNCTION_WORDS:
        return True
    core = re.sub(r"^(?:ln|log|lg|exp|sqrt)\(?|[²³⁴⁵⁻¹]|\^\(?-?\d+\)?|^1\s*/|^√|[()]", "", bare)
    core = core.lstrip("-−")
    return bool(core) and (is_symbol(core) or bool(re.fullmatch(r"[\u0370-\u03ff]\w{0,3}", core)))


def kinds(expression: str) -> set[str]:
    """The transforms an axis expression takes: {"log"} for `ln p`, {"reciprocal"} for `1/T`."""
    return {kind for kind, pattern in TRANSFORMS.items() if pattern.search(expression)}


def mismatch(fit: Fit, axes: Axes) -> bool:
    """Whether `fit` is plainly not a fit of `axes`: the task transforms an axis that the fit
    leaves raw, or names a bare symbol where the fit's column is a different bare symbol."""
    need_y, need_x = kinds(axes.response), kinds(axes.predictor)
    have_y, have_x = kinds(fit.y), kinds(fit.x)
    implied = _implied(fit)
    if not need_y <= have_y | implied[0] or not need_x <= have_x | implied[1]:
        return True
    return _other_symbol(axes.response, fit.y) or _other_symbol(axes.predictor, fit.x)


def _implied(fit: Fit) -> tuple[set[str], set[str]]:
    """The transforms a fit's model stands for: a power law is a line of ln y against ln x,
    an exponential a line of ln y against x; a formula, what it does to its variable."""
    model = (fit.model or "").lower()
    if model == "power law":
        return {"log"}, {"log"}
    if model.startswith("exponential") and "approach" not in model:
        return {"log"}, set()
    formula = fit.expression or fit.formula
    variable = re.escape(fit.variable or fit.x)
    if not formula or "slope·x" in formula or not variable:
        return set(), set()
    on_x = {
        "reciprocal": rf"/\s*\(?\s*{variable}",
        "power": rf"{variable}\s*\)?\s*(?:\^|\*\*)\s*\(?\d|{variable}[²³⁴⁵]",
        "root": rf"(?:sqrt|√)\s*\(?\s*{variable}",
        "log": rf"(?:ln|log)\s*\(\s*{variable}",
    }
    x_kinds = {kind for kind, pattern in on_x.items() if re.search(pattern, formula)}
    return ({"log"} if re.search(r"exp|e\^", formula) else set()), x_kinds


def _other_symbol(phrase: str, column: str) -> bool:
    """Whether both are one-letter symbols, and different letters (`P` and `U`); a column with a
    longer name (`T_air` for the handout's θ) may be the same quantity under another name."""
    core = re.sub(r"^(?:ln|log|lg)\s*|[²³⁴⁵⁻¹]|\^.*$|^1\s*/\s*", "", phrase.strip()).strip("() ")
    column = column.strip()
    one_letter = re.compile(r"[A-Za-z\u0370-\u03ff]")
    if not (one_letter.fullmatch(core) and one_letter.fullmatch(column)):
        return False
    return core.lower() != column.lower()  # `L` in the handout is the file's `l`
