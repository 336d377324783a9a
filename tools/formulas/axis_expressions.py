"""The quantities a handout asks to form from the data before it fits them, read from its
words: the axes of a linearising plot ("T² gegen l", "ln p against 1/T", "U_th against
1/λ", "P gegen T⁴"), the definitions it states ("T = t20/20", "P = U · I", "p = dh + 29.125
in Hg"), and the lab convention that a column of N swings timed together (`t10`, `t_20`,
`10 T`) holds N periods.

Text work only: the columns are matched by tools.formulas.symbol_columns and the values
computed by tools.formulas.formed_columns.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

import sympy

from labscribe.tools.assignment.role_phrases import pairings, sentences
from labscribe.tools.formulas.formula_notation import goes_on_in_brackets
from labscribe.tools.formulas.formula_parse import FormulaError, parse_expression
from labscribe.tools.formulas.point_values import is_point_value
from labscribe.tools.formulas.reference_readings import written_readings

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUPERSCRIPT_RUN = re.compile(r"([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
# `ln p`, `log P`, `lg T` written without parentheses: the function of the next symbol.
_BARE_LOG = re.compile(r"\b(ln|log|lg|log10)\s+([A-Za-z\u0370-\u03ff\\][\w{}\\]*)")
# An expression's last words, as phrases end in one ("the threshold voltage U_th", "1/λ").
_MATH_CHARS = re.compile(r"^[\w\s\u0370-\u03ff⁰¹²³⁴⁵⁶⁷⁸⁹⁻^*/·⋅×()+\-−.{}\\√]+$")
MAX_EXPRESSION_WORDS = 6
# A column that times N swings or periods together: `t10`, `t_20`, `t10_1` (the first of
# repeated series), `10T`, `10 T`, `t(10T)`, `20 periods`.
_N_PERIODS = re.compile(
    r"^(?:t_?\{?(?P<n>[1-9]\d?)\}?(?:[_ ]?\(?[1-9]\)?)?|(?P<n2>[1-9]\d?)\s*[T]"
    r"(?:[_ ]?\(?[1-9]\)?)?|t\s*\(\s*(?P<n3>[1-9]\d?)\s*T\s*\))$"
)
# `T = t20/20`: a symbol standing alone before `=`, and what follows up to a clause's end.
_DEFINITION = re.compile(
    r"(?<![\w\u0370-\u03ff=<>!])(?P<left>[A-Za-z\u0370-\u03ff][A-Za-z0-9_]{0,8})\s*=\s*"
    r"(?P<right>[^=,;:!?()\n]{1,80}?)(?=[,;:!?]|\.(?:\s|$)|$|\s?\(|=)"
)
MAX_DEFINITION_WORDS = 8
MAX_RIGHT_CHARS = 80
# What may follow a formula's right side: a word of prose or a unit (`in`, `kPa`, `gleich`).
_WORD_AFTER = re.compile(r"[A-Za-zÄÖÜäöüß°µΩ]{2,}[.,;:]?")
# A symbol or a sign right before a left side makes it a factor of the left side.
_FACTOR_BEFORE = re.compile(r"(?:(?<![A-Za-z])[A-Za-z\u0370-\u03ff]|[*·/+\-−])\s*$")
_FUNCTION_NAMES = frozenset({"log", "exp", "sqrt", "sin", "cos", "tan"})
# Short words of prose that may stand before an axis's symbol ("a fit of T²").
_SHORT_PROSE = frozenset(
    {
        "of",
        "in",
        "on",
        "at",
        "to",
        "as",
        "is",
        "by",
        "an",
        "im",
        "am",
        "zu",
        "de",
        "le",
        "la",
        "du",
        "vs",
        "or",
        "and",
        "und",
    }
)


@dataclass(frozen=True)
class Wanted:
    """A quantity the handout asks for: its name as written ("T²", "ln p"), its expression
    (sympy, in the handout's symbols) and the sentence that asks for it."""

    name: str
    expression: sympy.Expr
    sentence: str
    partners: tuple[sympy.Expr, ...] = ()
    """The axes it is plotted against or plotted on ("1/√R gegen d": d), where written as
    expressions."""

    @property
    def symbols(self) -> set[str]:
        return {s.name for s in self.expression.free_symbols}


def normalised(text: str) -> str:
    """Superscript powers and bare logarithms as arithmetic: `T⁴` -> `T^4`, `ln p` ->
    `ln(p)`, `10⁻³` -> `10^-3`."""
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^" + m[1].translate(_SUPERSCRIPTS), text)
    text = _BARE_LOG.sub(lambda m: f"{'log10' if m[1] in ('lg', 'log10') else 'ln'}({m[2]})", text)
    return text


def expression_of(text: str) -> sympy.Expr | None:
    """The expression `text` writes, None where it does not parse as one."""
    try:
        expression = parse_expression(normalised(text).replace("log10(", "log(10, "))
    except (FormulaError, ValueError, TypeError):
        return None
    return expression if expression.free_symbols else None


def writes(name: str, expression: sympy.Expr) -> bool:
    """Whether a column's `name` writes `expression` in a spreadsheet's own notation:
    `2V/R^2` is 2V/R², `(BR)^2` is B²R² (its letters the expression's symbols run together).
    A plain name is matched by name, not here."""
    if not _OPERATED.search(name) or (parsed := _parsed(name)) is None or parsed.is_Symbol:
        return False
    letters = {s.name for s in expression.free_symbols}
    plain = {s: sympy.Mul(*(sympy.Symbol(c) for c in s.name))
             if s.name not in letters and set(s.name) <= letters else sympy.Symbol(s.name)
             for s in parsed.free_symbols}  # fmt: skip
    asked = {s: sympy.Symbol(s.name) for s in expression.free_symbols}
    # sympy's own canonical form: (BR)^2 is B²R² once B and R are apart, no simplify needed
    return bool(parsed.subs(plain) == expression.subs(asked))


_OPERATED = re.compile(r"[\^/*()²³]|\d")


@functools.lru_cache(maxsize=1024)
def _parsed(name: str) -> sympy.Expr | None:
    return expression_of(name)


def trailing_expression(phrase: str) -> tuple[str, sympy.Expr] | None:
    """The expression a phrase ends in, as written, and parsed: "the threshold voltage U_th"
    gives ("U_th", U_th), "T²" ("T²", T**2), "ln p" ("ln p", log(p)); None where its last
    word is prose."""
    phrase = _worded_transform(phrase)
    words = phrase.replace("$", " ").strip(" .,:;").split()
    for start in range(max(0, len(words) - MAX_EXPRESSION_WORDS), len(words)):
        text = " ".join(words[start:])
        if not _MATH_CHARS.match(text) or _prose(words[start:]):
            continue
        expression = expression_of(text)
        if expression is not None:
            return text, expression
    return None


def _worded_transform(phrase: str) -> str:
    """`phrase` with a transform written in words put in symbols: "the square root of E"
    -> "√E", "the square of the period T" -> "T²", "the logarithm of p" -> "ln p", "the
    reciprocal of T" -> "1/T", "T squared" -> "T²", "der Kehrwert von T" -> "1/T"."""
    for pattern, written in _WORDED_TRANSFORMS:
        match = pattern.search(phrase)
        if match is None:
            continue
        ended = trailing_expression(match["of"])
        if ended is not None and isinstance(ended[1], sympy.Symbol):
            return phrase[: match.start()] + written.format(ended[0])
    return phrase


_WORDED_TRANSFORMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), written)
    for pattern, written in (
        (r"\b(?:square[- ]root|wurzel|racine carrée|raíz cuadrada|radice quadrata)"
         r"\s+(?:of|aus|von|de|di)\s+(?P<of>.+)$", "√{}"),
        (r"\b(?:natural\s+)?(?:logarithm|log|logarithmus|logarithme|logaritmo)"
         r"\s+(?:of|von|de|di|del)\s+(?P<of>.+)$", "ln {}"),
        (r"\b(?:reciprocal|inverse|kehrwert|inverso)\s+(?:of|von|de|di|del)\s+"
         r"(?P<of>.+)$", "1/{}"),
        (r"\b(?:square|quadrat|carré|cuadrado|quadrato)\s+(?:of|von|de|di|del)\s+(?P<of>.+)$",
         "{}²"),
        (r"(?P<of>^.+?)\s+squared$", "{}²"),
    )
)  # fmt: skip


def _prose(words: list[str]) -> bool:
    """Whether a run of words holds a word of prose (three letters or more, no function)."""
    for word in words:
        if word.lower() in _SHORT_PROSE:
            return True
        bare = re.sub(r"[^A-Za-z]", " ", word)
        if any(len(w) >= 3 and w.lower() not in _FUNCTION_NAMES | {"lam", "lambda", "theta",
               "sigma", "tau", "omega", "alpha", "beta", "gamma", "delta", "rho", "epsilon",
               "log10"} for w in bare.split()):  # fmt: skip
            return True
    return False


def plotted(texts: list[str]) -> list[Wanted]:
    """The axes the sentences of `texts` (the tasks, then the handout) ask to plot or fit
    that are expressions, not single symbols: ("T²", T**2), ("1/λ", 1/lam), ("ln p",
    log(p)); each once, in the order they are asked for."""
    found: dict[str, Wanted] = {}
    for text in texts:
        for sentence in sentences(text):
            for pairing in pairings(sentence):
                for phrase, other in ((pairing.response, pairing.predictor),
                                      (pairing.predictor, pairing.response)):  # fmt: skip
                    ended = trailing_expression(phrase)
                    if ended is None or ended[1].is_Symbol:
                        continue
                    key = sympy.srepr(ended[1])
                    partners = _partner(other)
                    if key in found:
                        found[key] = replace(found[key], partners=found[key].partners + partners)
                    else:
                        found[key] = Wanted(_written(ended[0]), ended[1], sentence, partners)
    return list(found.values())


def _partner(phrase: str) -> tuple[sympy.Expr, ...]:
    """The other axis of a pairing as an expression: the one its phrase ends in, else its
    first word ("d) und d₀ angeben": d); () for neither."""
    ended = trailing_expression(phrase)
    if ended is not None:
        return (ended[1],)
    first = phrase.split()[0].strip("()[].,;:") if phrase.split() else ""
    expression = expression_of(first) if first else None
    return (expression,) if expression is not None else ()


_POWERS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _written(text: str) -> str:
    """An axis's name as the handout writes it, blanks collapsed, a power of one digit as
    a superscript (`T²` for `T^2`, `1/λ`, `ln p`)."""
    text = re.sub(r"\^\{?(-?\d)\}?(?!\d)", lambda m: m[1].translate(_POWERS), text)
    return " ".join(text.split())


# A function applied to the left side: `tan φ = 2π f RC` defines no φ.
_FUNCTION_BEFORE = re.compile(r"\b(?:tan|tg|sin|cos|ln|log|lg|exp|sqrt|arctan|atan)\s*$")
# The unit a value is wanted in, in brackets after it: `φ = 2π f Δt (in Grad)`.
_UNIT_ASIDE = re.compile(r"\(\s*(?:in|en|em|im|w|во?|nel|nei|en)\s", re.IGNORECASE)


def defined(texts: list[str]) -> list[Wanted]:
    """The quantities the sentences of `texts` define by a formula whose left side is one
    symbol (`T = t20/20`, `P = U · I`, `p = dh + 29.125 in Hg`), each with every reading of
    its right side, the longest first (`dh + 29.125 in Hg`, then `dh + 29.125`): the one
    whose symbols all name columns is the definition (tools.formulas.formed_columns)."""
    found: list[Wanted] = []
    for text in texts:
        for sentence in sentences(text):
            written = written_readings(normalised(sentence))
            for match in _definitions(written):
                left = match["left"]
                before = written[: match.start("left")]
                if _FACTOR_BEFORE.search(before) or _FUNCTION_BEFORE.search(before):
                    continue  # `e U = h c/λ`, `tan φ = 2π f RC`: no name the formula defines
                if is_point_value(match["right"]):
                    continue  # `t = 100 dias`: a point to evaluate at, no definition
                right = match["right"]
                if goes_on_in_brackets(written[match.end("right") :]):
                    # `T = T₀ + (V − V₀)/k`: the bracket is the formula's, read through it
                    right = _through_brackets(written, match.start("right"))
                    if right is None:
                        continue  # `v = 2 r² (ρ_b − ρ_f) g / (9 η)` past what is read
                words = right.split()[:MAX_DEFINITION_WORDS]
                # `t(última amostra)`: the last word is a function's name, not the end
                after = written[match.start("right") + len(right) :]
                called = after.startswith("(") and not _UNIT_ASIDE.match(after)
                for end in range(len(words), 0, -1):
                    if end < len(words) and not _WORD_AFTER.fullmatch(words[end]):
                        continue  # a reading ends where prose or a unit begins
                    if end == len(words) and called:
                        continue
                    expression = expression_of(" ".join(words[:end]))
                    if expression is not None and left not in {
                        s.name for s in expression.free_symbols
                    }:
                        found.append(Wanted(left, expression, sentence))
    return found


def _through_brackets(text: str, start: int) -> str | None:
    """The right side from `start` to the first `,` `;` `=` or sentence end outside any
    bracket; None where a bracket stays open or it runs past MAX_RIGHT_CHARS."""
    depth = 0
    for place in range(start, min(len(text), start + MAX_RIGHT_CHARS)):
        char = text[place]
        depth += (char in "([{") - (char in ")]}")
        if depth < 0:
            return None
        ends = char in ",;=\n" or (char == "." and text[place + 1 : place + 2] in ("", " "))
        if depth == 0 and ends:
            return text[start:place].rstrip()
    return None if depth else text[start : start + MAX_RIGHT_CHARS].rstrip()


def _definitions(sentence: str) -> list[re.Match[str]]:
    """Each `left = right` of a sentence, the next searched from where the last one's right
    side starts: in "x = 1 − cos θ and y = 1/E" the first reading ends at "and y", whose y
    is the second's left side."""
    found = []
    start = 0
    while (match := _DEFINITION.search(sentence, start)) is not None:
        found.append(match)
        start = match.start("right")
    return found


def written_formulas(sentence: str) -> list[str]:
    """The formulas `left = right` a sentence writes, each cut where its right side stops
    parsing (`p = C·L^m (straight line in log–log)` gives `p = C·L^m`)."""
    found = []
    for wanted in defined([sentence]):
        formula = f"{wanted.name} = {wanted.expression}"
        if not any(f.startswith(f"{wanted.name} =") for f in found):
            found.append(formula)
    return found


def swings_timed(name: str) -> int | None:
    """How many periods a column of this name times together (`t10` -> 10, `t_20` -> 20,
    `10 T` -> 10, `t10_2` -> 10), None for any other name."""
    match = _N_PERIODS.match(name.strip())
    if match is None:
        return None
    number = int(match["n"] or match["n2"] or match["n3"])
    return number if number >= 2 else None
