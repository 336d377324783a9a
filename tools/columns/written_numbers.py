"""Numbers as handouts write them: a decimal point or comma (`1,380649`), an exponent in
E notation (`1.6e-19`) or as a power of ten (`1,380649×10⁻²³`, `6.626 · 10^-34`,
`10^{-3}`), and the minus sign typeset (`−`). One pattern finds them and one function reads
them, so that a constant a handout states is never read as its first digit."""

from __future__ import annotations

import re

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_TIMES = "×x·*⋅"  # the signs a power of ten is multiplied with
_POWER = r"\s*[" + _TIMES + r"]\s*10\s*(?:\^\s*\{?\s*[-+−]?\d+(?:\s*\})?|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
NUMBER = rf"[-+−]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:[eE][-+−]?\d+|{_POWER})?(?![.,]?\d)"
_PARTS = re.compile(
    r"(?P<mantissa>[^" + _TIMES + r"]+)(?:[" + _TIMES + r"]10\^?\{?(?P<power>[-+]?\d+)\}?)?"
)


def number_of(text: str) -> float:
    """The value of a number NUMBER matched: `1,380649×10⁻²³` is 1.380649e-23."""
    plain = re.sub(r"\s+", "", text).translate(_SUPERSCRIPTS).replace("−", "-")
    match = _PARTS.fullmatch(plain)
    if match is None:
        raise ValueError(f"not a number: {text!r}")
    mantissa = match["mantissa"].replace(",", ".")
    return float(f"{mantissa}e{match['power']}" if match["power"] else mantissa)
