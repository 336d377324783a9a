"""Units beyond the spellings tools.columns.units knows by heart, read by pint's registry: `km/s`,
`kg m^-3`, `W/(m·K)`, `psi`, `mmHg`, `kDa`, `µS/cm`, `L/min`, `J/(g K)`.

pint reads far more than units: `t` is a metric ton, `e` and `k` are constants, `mass` is
a milliarcsecond, `Te` a tera-elementary-charge, `ch` a centihour. A header's `x/t`,
`Energy (e)` or `Sample (Te)` names no unit, so a word is taken as a unit only when it is
written as pint writes that unit (its symbol or its name, `psi`, `gauss`, `days`), with an
SI prefix only on a base unit of several letters or one tools.columns.units knows (`kDa`, `mmHg`,
`mM`, not `ch`), and a one-letter base only when tools.columns.units knows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

MAX_CHARS = 24
# The words of a unit, with their exponents attached: `m s-1`, `cm2`, `m^-3`, `s²`.
_WORD = re.compile(r"[^\W\d_]+")
# What a unit is written with: letters, digits, blanks and `/ * · ^ - . ( ) % ° ² ³`; never
# `_`, which joins a name to its unit (`frequency_Hz`) and is read where names are split.
_UNIT_TEXT = re.compile(r"(?=.*[^\W\d_])[^\W_]*(?:[ /*·⋅^.()%°²³⁻¹-]+[^\W_]*)*")
# A parenthesis opened right after a word: a name's (`T(s)`, `V(CH1)`), not a unit's.
_CALL = re.compile(r"[^\s/*·⋅^(]\(")
_BARE_EXPONENT = re.compile(r"(?<=[^\W\d_])(-?\d+)\b")
# The SI prefixes of 2022 (10^±27, 10^±30), which no lab writes; their letters start words.
_NEWEST_PREFIXES = frozenset({"ronto", "quecto", "ronna", "quetta"})
# Units of type, which no lab measures in: `app` is no atto-point.
_TYPESETTERS = frozenset({"point", "pica", "didot", "cicero"})
# Names pint gives units that labs write as the symbol of a quantity (a wavelength, λ).
_QUANTITY_SYMBOLS = frozenset({"lambda"})


@cache
def unit_registry() -> Any:
    """pint's default registry, built once a process (about 0.35 s; a fork server builds it
    for the runs it starts: graph/first_use.py)."""
    import pint

    return pint.UnitRegistry()


def library_unit(
    token: str, known: Callable[[str], bool], prefixable: frozenset[str]
) -> str | None:
    """`token` as written (blanks collapsed) if it names a unit by the rules above, else
    None. `known` tells the words tools.columns.units knows (`s`, `°C`, `min`); `prefixable`
    holds the base symbols it lets take an SI prefix (`m`, `V`, `M`)."""
    text = " ".join(token.split())
    if not 2 <= len(text) <= MAX_CHARS or not _UNIT_TEXT.fullmatch(text) or _CALL.search(text):
        return None
    words = _WORD.findall(text)
    if not all(known(word) or _is_unit_word(word, prefixable) for word in words):
        return None
    expression = _BARE_EXPONENT.sub(r"^\1", text.replace("·", "*").replace("⋅", "*"))
    try:
        unit_registry().parse_units(expression)
    except Exception:  # pint refuses what is not a product of units, whatever its reason
        return None
    return text


def _is_unit_word(word: str, prefixable: frozenset[str]) -> bool:
    """Whether pint knows `word` as a unit written the way it writes that unit."""
    if len(word) < 2 or word in _QUANTITY_SYMBOLS:
        return False
    if len(word) >= 4 and word[0].isupper() and word[1:].islower():
        return False  # `Time`, `Mass`, `Angle`: a capitalised word is a name (pint's are lower)
    registry = unit_registry()
    try:
        parses = registry.parse_unit_name(word)
    except Exception:  # a word pint's parser cannot split is no unit
        return False
    if not parses:
        return False
    prefix, name, _ = parses[0]
    if prefix in _NEWEST_PREFIXES or name in _TYPESETTERS:
        return False  # `rau` (ronto-au) and `app` (atto-point) are words: Metall(rau), pKa,app
    if word in (prefix + name, prefix + name + "s"):
        return True  # written out: `gauss`, `days`, `kilopascal`
    symbol = registry.get_symbol(name)
    if len(symbol) == 1 and symbol not in prefixable:
        return False  # `Te`, `ch`, `cP`: a constant's or an odd unit's one letter, prefixed
    return word == registry.get_symbol(prefix + name)
