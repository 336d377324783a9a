"""Typeset notation in a formula that handouts write and plain arithmetic has no word for,
rewritten before the formula is parsed (tools.formulas.formula_parse), so that the formula is fitted
with the parameters the handout names:

- square brackets as grouping: `exp[−½((λ − λc)/w)²]`;
- vulgar fractions: `½`, `¼`, `¾` as `(1/2)`, ...;
- a power of a function written on its name: `cos²(θ − θ0)` and `cos²θ` as `cos(θ − θ0)²`;
- a Greek symbol with a Latin subscript run into it: `λc` in `(λ − λc)` is one symbol,
  the centre of the line, not λ·c; `λmax`, `ωres` likewise. It is spelled out as a Greek
  letter with a digit is (`θ0` is theta0): lamc, lammax, omegares.

Everything else is left as written. A Greek letter followed by one Latin letter stays a
product (`exp(−λt)` is λ·t) unless the formula also writes that Greek letter alone in a
difference with it, the way a line's centre or an offset angle is written (`λ − λc`,
`θ − θc`, `ωr − ω`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from labscribe.tools.formulas.formula_notation import FUNCTIONS, GREEK

_FRACTIONS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5",
              "⅙": "1/6", "⅛": "1/8"}  # fmt: skip
_POWERS = {"²": "2", "³": "3", "^2": "2", "^3": "3"}
# A trigonometric or hyperbolic function with its power on its name, then its argument:
# parenthesised, or one symbol (`cos²θ`).
_POWERED = re.compile(
    r"\b(?P<name>sin|cos|tan|sinh|cosh|tanh)\s*(?P<power>²|³|\^\s*[23])\s*(?P<rest>.*)", re.S
)
_GREEK_LETTERS = "".join(letter for letter in GREEK if letter != "π")
_LATIN_RUN = re.compile(rf"(?P<greek>[{_GREEK_LETTERS}])(?P<sub>[A-Za-z]+)(?![A-Za-z0-9_(])")


def typeset_as_plain(text: str) -> str:
    """`text` with square brackets, vulgar fractions, powers on a function's name and
    Greek symbols with run-in Latin subscripts written the way plain arithmetic reads them;
    a formula without them is returned unchanged."""
    text = _brackets_as_parentheses(text)
    for glyph, fraction in _FRACTIONS.items():
        text = re.sub(rf"{glyph}\s*(?=[\w(\u0370-\u03ff])", f"({fraction})*", text)
        text = text.replace(glyph, f"({fraction})")
    text = _powers_after(text)
    return _LATIN_RUN.sub(_subscripted(text), text)


def _brackets_as_parentheses(text: str) -> str:
    """Square brackets that group (after a function's name, an operator or an opening
    bracket: `exp[−x/τ]`, `a·[1 + b]`) as parentheses, their closing ones with them; a
    bracket after a symbol (`a [x]`, an index or a unit) is left, and the parse refuses it."""
    grouping = rf"(?:\b(?:{'|'.join(FUNCTIONS)})|[-+*/^=(\[·×−–]|^)\s*"
    out, opened = [], []
    for index, char in enumerate(text):
        if char == "[":
            group = re.search(rf"{grouping}$", text[:index]) is not None
            opened.append(group)
            out.append("(" if group else char)
        elif char == "]" and opened:
            out.append(")" if opened.pop() else char)
        else:
            out.append(char)
    return "".join(out)


def _powers_after(text: str) -> str:
    """`cos²(a)` as `cos(a)^2` and `cos²θ` as `cos(θ)^2`, as often as written."""
    done = ""
    while (match := _POWERED.search(text)) is not None:
        power = _POWERS.get(match["power"].replace(" ", ""), "2")
        rest = match["rest"]
        argument = _argument(rest)
        if argument is None:
            done += text[: match.end("power")]
            text = text[match.end("power") :]
            continue
        inner, after = argument
        done += f"{text[: match.start()]}{match['name']}({inner})^{power}"
        text = after
    return done + text


def _argument(rest: str) -> tuple[str, str] | None:
    """(the argument, the text after it) at the start of `rest`: a balanced parenthesis,
    or one symbol (a Greek letter or a name with its subscript)."""
    if rest.startswith("("):
        depth = 0
        for index, char in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0:
                return rest[1:index], rest[index + 1 :]
        return None
    symbol = re.match(rf"[{_GREEK_LETTERS}A-Za-z][A-Za-z0-9_]*", rest)
    return None if symbol is None else (symbol[0], rest[symbol.end() :])


def _subscripted(text: str) -> Callable[[re.Match[str]], str]:
    """The rewrite of one Greek letter with Latin letters run into it: a subscript when
    the letters are a lower-case word of three or more (`λmax`; `ωRC` is ω·R·C), or letters
    the formula also subtracts from the Greek letter alone, or it from them (`λ − λc`);
    else as written."""

    def rewrite(match: re.Match[str]) -> str:
        greek, sub = match["greek"], match["sub"]
        if sub in FUNCTIONS or sub in {"pi", "e"}:
            return match[0]
        if (len(sub) >= 3 and sub.islower()) or _differenced(text, greek, sub):
            return f"{GREEK[greek]}{sub}"  # spelled as `θ0` is: theta0, lamc
        return match[0]

    return rewrite


def _differenced(text: str, greek: str, sub: str) -> bool:
    alone = rf"{greek}(?![A-Za-z0-9_])"
    run = rf"{greek}{sub}(?![A-Za-z0-9_])"
    minus = r"\s*[−\-–]\s*"
    return re.search(rf"{alone}{minus}{run}|{run}{minus}{alone}", text) is not None
