"""How assignments write formulas, read as plain arithmetic: LaTeX (`\\frac`, `e^{-t/\\tau}`),
Greek letters and Unicode signs (`·`, `−`, `²`) spelled as names and operators, and a formula
cut out of the prose of a sentence around it.

This is text work on untrusted prose, apart from the parsing (tools.formulas.formula_parse) that
hands the result to sympy. The vocabulary a formula may use (FUNCTIONS, CONSTANTS) lives
here because both sides need it: the prose cutter to tell math from words, the parser as
its whitelist.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import sympy

# The functions a formula may use, as sympy names them; asteval knows them as numpy's.
FUNCTIONS = {
    "exp": sympy.exp, "log": sympy.log, "ln": sympy.log, "sqrt": sympy.sqrt, "sin": sympy.sin,
    "cos": sympy.cos, "tan": sympy.tan, "arctan": sympy.atan, "atan": sympy.atan,
    "arcsin": sympy.asin, "asin": sympy.asin, "arccos": sympy.acos, "acos": sympy.acos,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh, "abs": sympy.Abs,
}  # fmt: skip
# Euler's number is written as the base of a power (`e^{-t/\\tau}`, read as exp by
# plain_arithmetic); a bare `e` is a symbol, the elementary charge in `e U = h c/λ`
# (tools.formulas.constants), or a parameter.
CONSTANTS = {"pi": sympy.pi}
# Greek letters as assignments write them, spelled as symbol names (λ is not `lambda`, a
# Python keyword).
GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "κ": "kappa", "λ": "lam", "μ": "mu",
    "µ": "mu", "ν": "nu", "ξ": "xi", "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma",
    "τ": "tau", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma",
    "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Φ": "Phi", "Ω": "Omega", "π": "pi",
}  # fmt: skip
_DIFFERENCES = frozenset("Δδ")
_SYMBOLS = {"·": "*", "×": "*", "⋅": "*", "−": "-", "–": "-", "²": "^2", "³": "^3", "√": "sqrt"}
# Unicode subscripts as handouts type them (`U₀`, `R₁₂`, `Tₘ`): the subscript `_0` they write.
_SUBSCRIPT = re.compile(r"[₀-₉ₐₑₒₓₕₖₗₘₙₚₛₜ]+")
_SUBSCRIPT_PLAIN = str.maketrans("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789aeoxhklmnpst")


# A formula's left side, a name that starts a word: a search that could start a name inside
# a word would scan the rest of the word from each of its letters, quadratic in its length.
_LEFT_SIDE = re.compile(
    r"(?<![\w{}])"  # not inside a word: the `mico` of "k dinámico = 4π²·m/T²" is none
    r"(?P<left>[A-Za-z\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff{}₀-₉ₐₑₒₓₕₖₗₘₙₚₛₜ]*"
    r"(?:\([^()=]{1,12}\))?)"
    r"(?P<squared>²|\^2|\^\{2\})?"  # `ω0² = 1/(LC)`: what a prediction takes the root of
    r"\s*=\s*(?P<right>.+)"
)


def formula_in(sentence: str) -> str | None:
    """The formula a sentence writes (`... a power law T = a L^b to ...`), cut from the prose
    around it; None when it writes none. `$...$` math is taken whole."""
    for math in re.findall(r"\$([^$]{3,240})\$", sentence):
        if "=" in math:
            return math
    match = _LEFT_SIDE.search(sentence)
    while match is not None and match["squared"]:
        match = _LEFT_SIDE.search(sentence, match.end("left"))
    if match is None:
        return None
    right = _math_prefix(match["right"])
    return f"{_factors_before(sentence, match.start())}{match['left']} = {right}" if right else None


# Symbols written before a left side as its factors (`e U = h c/λ`, `m·g = k·x`): one letter
# with an optional subscript, or a Greek letter; the article "a" is prose.
_FACTORS = re.compile(
    r"(?:(?<![A-Za-z0-9_\u0370-\u03ffÀ-ÖØ-öø-ɏ])(?!a\s)(?:[A-Za-z](?:_\{?[A-Za-z0-9]{1,6}\}?)?|"
    r"[\u0370-\u03ff])[ \t]*[·*⋅]?[ \t]*){1,4}$"  # on the formula's line: `*L*` ends a line
)


# A function applied to the left side without parentheses: "ln V = b0 + b1·ln D"; a
# reciprocal left side: "1/f = 1/b + 1/g"; a ratio: "U_C/U_0 = 1/√(...)", "I/I_0 = e^(−μd)".
_FUNCTION_BEFORE = re.compile(
    r"(?<![A-Za-z0-9_])(?:ln|log|log10|lg|sqrt)\s+$|(?<![\w.])1\s*/\s*$|"
    r"(?<![\w.])[A-Za-z\u0370-\u03ff](?:_\{?[A-Za-z0-9]{1,6}\}?|\d)?\s*/\s*$"
)


def _factors_before(sentence: str, start: int) -> str:
    """The symbols right before a left side that multiply it, as written (`e `), or the
    function applied to it (`ln `)."""
    before = sentence[max(0, start - 40) : start]
    found = _FUNCTION_BEFORE.search(before) or _FACTORS.search(before)
    return found[0] if found else ""


def formulas_in(sentence: str, squared: bool = False) -> list[str]:
    """Every formula a sentence writes, in order (`f0 = 1/(2π√(LC))` and `Q = f0/(f2 - f1)`
    of one sentence), each cut from the prose around it as `formula_in` cuts one; with
    `squared`, those whose left side is a name squared (`ω0² = 1/(LC)`) too."""
    found = [math for math in re.findall(r"\$([^$]{3,240})\$", sentence) if "=" in math]
    if found:
        return found
    start = 0
    while (match := _LEFT_SIDE.search(sentence, start)) is not None:
        if match["squared"] and not squared:
            start = match.end("left")
            continue
        right = _math_prefix(match["right"])
        if right:
            left = f"{match['left']}{match['squared'] or ''}"
            found.append(f"{_factors_before(sentence, match.start())}{left} = {right}")
        start = match.start("right") + max(len(right), 1)
    return found


# A PDF's text loses superscripts: "R3/[R2 + (z − z0)2]3/2" is R³/[R² + (z − z0)²]^(3/2). A
# digit right after a closing bracket is the sure sign (no one writes a factor there).
_FLAT_POWER = re.compile(r"([)\]])(\d/\d|\d)(?![\d.])")
_FLAT_LETTER = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z])([2-4])(?![A-Za-z0-9_.])")
# "ln D", "log x", "sqrt L": a function applied to one name or number without parentheses.
_BARE_CALL = re.compile(
    r"(?<![A-Za-z0-9_])(ln|log|sqrt|sin|cos|tan)\s+([A-Za-z][A-Za-z0-9_]*|\d+(?:\.\d+)?)"
    r"(?![A-Za-z0-9_(])"
)


# A bracket that groups (`Bmax·R^3/[R^2 + z^2]`, after an operator or opening the formula)
# is a parenthesis; one after a name (`a[x]`) would index, and is left to be refused.
_GROUPING_BRACKET = re.compile(r"(^|[-+*/^(=])(\s*)\[([^\[\]]*)\]")


def unflattened(text: str) -> str:
    """A formula whose superscripts a PDF's text flattened, with its powers again: where a
    digit follows a closing bracket (`(z - z0)2`, `]3/2`), that digit is a power, and so is
    the digit 2 to 4 after a one-letter name (`R2`, `R3`); `z0` and `R1` keep their
    subscripts. Text without that sign is returned as it is."""
    if _FLAT_POWER.search(text) is None:
        return _powers_of_a_name_used(text)
    text = _FLAT_POWER.sub(lambda m: f"{m[1]}^({m[2]})" if "/" in m[2] else f"{m[1]}^{m[2]}", text)
    return _FLAT_LETTER.sub(r"\1^\2", text)


def _powers_of_a_name_used(text: str) -> str:
    """`H0 + a1·Q + a2·Q2` as `H0 + a1·Q + a2·Q^2`: where a formula's right side uses a
    one-letter name alone (`Q`), the same letter with a digit 2 to 4 (`Q2`) is its power
    that a PDF's text flattened, not a name of its own (`R = R1 + R2` has no lone R there)."""
    left, equals, right = text.rpartition("=")
    used = set(re.findall(r"(?<![A-Za-z0-9_])([A-Za-z])(?![A-Za-z0-9_])", right))
    if not used:
        return text
    powered = _FLAT_LETTER.sub(lambda m: f"{m[1]}^{m[2]}" if m[1] in used else m[0], right)
    return f"{left}{equals}{powered}"


# A primed name as handouts write it, with a prime or an apostrophe: `E′`, `λ'`, `x′_1`.
_PRIMED = re.compile(r"(?<![\w'′])([A-Za-z][A-Za-z0-9_]*)\s?(?:′|'(?![\w']))")
PRIME = "_prime"
_ROOT_OF_NAME = re.compile(r"√\s*([A-Za-z][A-Za-z0-9_]*|\d+(?:\.\d+)?)")


@functools.lru_cache(maxsize=4096)  # column names are matched against every task's formula
def plain_arithmetic(text: str) -> str:
    """LaTeX and Unicode math as plain arithmetic: `U_0 e^{-t/\\tau}` -> `U_0 exp((-t/tau))`;
    brackets as parentheses, `ln D` as `ln(D)`, a PDF's flattened powers as powers."""
    text = unflattened(text)
    for letter, name in GREEK.items():
        # a subscript stays attached: `ε_0` is `epsilon_0`, `μ0` is `mu0`, not `mu*0`
        text = re.sub(rf"{letter}(?=[_0-9₀-₉ₐₑₒₓₕₖₗₘₙₚₛₜ])", f" {name}", text)
        if letter in _DIFFERENCES:  # `ΔH_vap` is one quantity, the difference of H
            text = re.sub(rf"{letter}(?=[A-Za-z])", f" {name}", text)
        text = text.replace(letter, f" {name} ")
    text = _ROOT_OF_NAME.sub(r"sqrt(\1)", text)  # `√E` is sqrt(E), not a name `sqrtE`
    text = _PRIMED.sub(rf"\1{PRIME}", text)  # `E′`, the scattered photon's energy, is a name
    # `a₁V` is a₁ times V: a subscript ends the name it is set under
    text = _SUBSCRIPT.sub(lambda m: "_" + m[0].translate(_SUBSCRIPT_PLAIN) + " ", text)
    for sign, plain in _SYMBOLS.items():
        text = text.replace(sign, plain)
    text = text.replace("\\left", "").replace("\\right", "").replace("\\,", " ")
    text = re.sub(r"\\(?:cdot|times)\b", "*", text)
    text = re.sub(r"\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"((\1)/(\2))", text)
    text = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)", text)
    text = re.sub(r"\\([A-Za-z]+)(?=[_0-9])", r" \1", text)  # `\varepsilon_0` keeps its subscript
    text = re.sub(r"\\([A-Za-z]+)", lambda m: f" {m[1]} " if m[1] != "exp" else " exp ", text)
    text = re.sub(r"_\{([A-Za-z0-9]+)\}", r"_\1", text)
    # e^{...} and e^(...) are exp(...), e^x is exp(x); a name e_1 or `ex` is not touched
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*\{([^{}]*)\}", r"exp(\1)", text)
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*\(", "exp(", text)
    text = re.sub(r"(?<![A-Za-z0-9_])e\s*\^\s*(-?[A-Za-z0-9_]+)", r"exp(\1)", text)
    text = re.sub(r"(?<![A-Za-z0-9_.])e\s*\*\*\s*\(", "exp(", text)
    text = _OPTIONAL_TERM.sub(r" + \1", text)
    text = _BARE_CALL.sub(r"\1(\2)", text)
    text = _GROUPING_BRACKET.sub(r"\1\2(\3)", text)
    return _function_powers(text.replace("{", "(").replace("}", ")"))


# A term the fit may add, written in brackets after the rest: `T = k·f_m (+ c)`, `y = a x
# [+ b]`: the formula with it (a term zero within its error is then left out).
_OPTIONAL_TERM = re.compile(r"\s*[(\[]\s*\+\s*([A-Za-z][A-Za-z0-9_]*)\s*[)\]]\s*$")


# A power written on a function's name: `cos²(θ − θ₀)`, `sin^2(2x)` is the function's value
# squared, as physics writes it.
_FUNCTION_POWER = re.compile(r"\b(sin|cos|tan|sinh|cosh|tanh)\s*\^\s*\(?(\d)\)?\s*\(")


def _function_powers(text: str) -> str:
    """`cos^2(x)` as `cos(x)^2`; a bracket that never closes is left as written."""
    while (found := _FUNCTION_POWER.search(text)) is not None:
        depth, end = 1, found.end()
        while end < len(text) and depth:
            depth += (text[end] == "(") - (text[end] == ")")
            end += 1
        if depth:
            return text
        inner = text[found.end() : end - 1]
        text = f"{text[: found.start()]}{found[1]}({inner})^{found[2]}{text[end:]}"
    return text


_ACCENTED = re.compile(r"[À-ÖØ-öø-ɏ]")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
# a word with accented letters (`för`, `Bestäm`) is one token, prose
_TOKEN = re.compile(r"\\[A-Za-z]+|[A-Za-z\u0370-\u03ffÀ-ÖØ-öø-ɏ]+[A-Za-z0-9_]*|\d+(?:\.\d+)?|\S")


def subscripts_plain(text: str) -> str:
    """Subscript digits and letters as typed after an underscore: `T₀` is `T_0`."""
    return _SUBSCRIPT.sub(lambda m: "_" + m[0].translate(_SUBSCRIPT_PLAIN), text)


def juxtaposed(symbol: str, known: Callable[[str], bool]) -> list[str] | None:
    """`LC` or `rF` as the names it multiplies (`L`, `C`), where each is `known` and the
    whole is not: handouts write a product of letters without a sign (1/√(LC), D = rF/φ).
    The longest known name first at each place; None where no such reading exists."""
    if len(symbol) < 2:
        return None
    for end in range(len(symbol) - 1, 0, -1):
        head, rest = symbol[:end], symbol[end:]
        if not known(head) or not rest[0].isalpha():
            continue
        tail = [rest] if known(rest) else juxtaposed(rest, known)
        if tail is not None:
            return [head, *tail]
    return None


def plain_symbol(name: str) -> str:
    """A symbol as formulas spell it, without spaces: `ϑ₀` is `theta_0`, `τ` is `tau`."""
    return "".join(plain_arithmetic(name).split())


def _math_prefix(text: str) -> str:
    """The formula at the start of `text`, as written, up to the first word of prose or
    the punctuation that ends a clause. A parenthesis of prose after it ("d = a·v + b·v² (no
    constant term)", "N(t) = N0·e^(−λt) (weighted fit of ln N)") is a remark on the formula,
    not part of it; a name multiplied by another ("Bmax·R3") is math, however long."""
    end = 0
    depth = 0
    opened = 0  # where the outermost open parenthesis starts
    group_starts = False  # the token follows an opening bracket
    for match in _TOKEN.finditer(text):
        token = match[0]
        starts, group_starts = group_starts, token in "([{"
        if token in "([{":
            opened = match.start() if depth == 0 else opened
            depth += 1
        elif token in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif _prose(token.lstrip("\\")) and not _multiplied(text, match):
            if depth == 0:
                break  # a word of the prose around the formula
            # a name after an operator inside the formula's brackets ("exp[−2((x − xc)/w)²]")
            # is a symbol; else the brackets hold a remark, and the formula ended before them
            if starts or text[: match.start()].rstrip()[-1:] not in _OPERATORS:
                end = opened
                break
        elif depth == 0 and (token in ",;:." or _CJK.match(token)):
            break  # a clause's end, or Chinese text around the formula
        elif depth == 0 and _ACCENTED.search(token):
            break  # "y = a·x + b à ces données", "… é": an accented letter is prose
        elif depth == 0 and _conjunction(text, match):
            break  # "y = b1·(1 − exp(−b2·t)) e apresente ...": the prose goes on
        end = match.end()
    formula = text[:end].strip()
    return formula if re.search(r"[A-Za-z\u0370-\u03ff]", formula) else ""


# Words of one letter: "and" and "or" in Portuguese, Spanish, Italian, Catalan, Czech ("e",
# "y", "o", "u", "i", "a"), "in", "with", "to" in Polish, Czech, Slovak ("w", "v", "z", "s",
# "k"): between a formula and a word of prose ("P = U·I w funkcji napięcia"), prose, not a
# symbol multiplying the formula.
_CONJUNCTIONS = frozenset({"e", "y", "o", "u", "i", "a", "w", "v", "z", "s", "k"})
_NEXT_WORD = re.compile(r"\s+([^\W\d_]{2,})")


def _conjunction(text: str, match: re.Match[str]) -> bool:
    """Whether the one-letter token `match` finds joins the formula to prose after it: it
    follows a symbol (not an operator) and a word of prose follows it."""
    if match[0] not in _CONJUNCTIONS or _multiplied(text, match):
        return False
    if text[: match.start()].rstrip()[-1:] in (*_OPERATORS, ""):
        return False
    after = _NEXT_WORD.match(text, match.end())
    if after is None or _multiplied(text, after):
        return False
    return _a_word(after[1])


_PREVIOUS_WORD = re.compile(r"([^\W\d_]{2,})\s+$")


def a_word_of_one_letter(text: str, match: re.Match[str]) -> bool:
    """Whether the one-letter token `match` finds in prose is a word between two words
    ("ogniwa i porównaj": Polish "and"), or the "and" of a list of two symbols ("determine
    A e B", "T0 y T1"), not a symbol the prose names."""
    if (
        match[0] in _AND
        and _LISTED_BEFORE.search(text, 0, match.start())
        and (_LISTED_AFTER.match(text, match.end()))
    ):
        return True
    before = _PREVIOUS_WORD.search(text, 0, match.start())
    after = _NEXT_WORD.match(text, match.end())
    return (
        match[0] in _CONJUNCTIONS
        and before is not None
        and after is not None
        and _a_word(before[1])
        and _a_word(after[1])
    )


_AND = frozenset({"e", "y", "i"})  # Portuguese and Italian, Spanish, Polish and Czech
# A symbol, then blanks: `A `, `T_0 `, `R_{NTC} ` before the "and" of a list of two.
_LISTED_BEFORE = re.compile(r"(?:^|[\s,(])[^\W\d][\w{}]{0,7}\s+$")
_LISTED_AFTER = re.compile(r"\s+[^\W\d][\w{}]{0,7}(?:$|[\s,;.)])")


_TIMES = "·*×⋅/^"
_OPERATORS = _TIMES + "+-−=([{"


def _multiplied(text: str, match: re.Match[str]) -> bool:
    """Whether the name `match` finds stands in a product or quotient (`Bmax·R3`, `a/Bmax`)."""
    after = text[match.end() :].lstrip()[:1]
    before = text[: match.start()].rstrip()[-1:]
    return (after != "" and after in _TIMES) or (before != "" and before in _TIMES)


def _a_word(word: str) -> bool:
    """A word of prose, in any script ("závislosti", "между" are)."""
    return _prose(word) or not word.isascii()


def _prose(word: str) -> bool:
    """A word of two letters or more that is not math (`exp`, `tau`, `frac` are, and so are
    products of capitals such as `LC`, `RC`)."""
    capitals = word.isupper() and len(word) <= 3
    return (
        re.fullmatch(r"[A-Za-z]{2,}", word) is not None
        and not mathematical(word)
        and not (capitals)
    )


def mathematical(word: str) -> bool:
    """Whether a word of two letters or more is math (`exp`, `tau`, `frac`), not prose."""
    return (
        word in FUNCTIONS or word in CONSTANTS or word in GREEK.values()
        or word in {"frac", "cdot", "times", "sqrt", "left", "right", "exp"}
        or word in CONSTANT_TERMS
    )  # fmt: skip


# How a law names its unnamed constant term: `ln p = −ΔH/(R·T) + const`.
CONSTANT_TERMS = frozenset({"const", "konst", "cst", "cte"})


# A bracket after a formula's cut that holds arithmetic of symbols: "(ρ_b − ρ_f)".
_BRACKETED_MATH = re.compile(r"^\s*\(([^()]{1,60})\)")


def goes_on_in_brackets(after: str) -> bool:
    """Whether the text `after` a formula's right side, as a reader cut it before " (", goes
    on with the formula ("v = 2 r² (ρ_b − ρ_f) g / (9 η)") rather than with a remark ("T =
    t20/20 (the period)"): the bracket holds a sign between symbols and no word of prose."""
    found = _BRACKETED_MATH.match(after)
    if found is None or not re.search(r"[-−+·*×⋅/^]", found[1]):
        return False
    return not any(_prose(word) for word in re.findall(r"[A-Za-z]{2,}", found[1]))
