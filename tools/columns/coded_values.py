"""Coded values: a handout that says how the recorded numbers map to the quantity ("the values
are in km/s with 299 000 km/s subtracted", "each entry is g − 980.000 cm/s² in units of 0.001
cm/s²", "coded as (t/µs − 24.8) × 1000", "deviations from 24 800 ns in ns", "add 980 000 and
divide by 1000"), read as quantity = offset + scale · coded, with the quantity's unit.

Where the handout also gives an example ("28 means t = 24.828 µs"), the reading must give it
back, else it is not used. Where the handout says the values are coded but no mapping can be
read, or two readings disagree, nothing is converted and the report says the numbers are the
coded ones (`Decoding.unread`).
"""

from __future__ import annotations

import math
import re

from pydantic import BaseModel

from labscribe.tools.columns.si_units import si_of
from labscribe.tools.columns.units import canonical

MAX_QUOTED = 110  # characters of the handout's sentence quoted beside a converted value
# A number as handouts write it: `299 000`, `299,000`, `980.000`, `24.8`, `0.001`.
_NUM = r"[-+]?\d{1,3}(?:[  ,]\d{3})+(?![\d])(?:\.\d+)?|[-+]?\d+(?:\.\d+)?"
_UNIT = r"(?:[^\W\d_]|°)[^\s,;:()]*"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(“\"])")
_IN_UNIT = re.compile(rf"\bin\s+(?P<u>{_UNIT})")
# quantity = offset + coded: "with 299 000 km/s subtracted", "minus 299 000 km/s",
# "in km/s minus 299 000", "add back the 299 000 km/s", "299 000 km/s has been subtracted"
_OFFSETS = [
    re.compile(rf"\b(?:with|after)\s+(?:the\s+)?(?P<n>{_NUM})\s*(?P<u>{_UNIT})\s+"
               r"(?:subtracted|removed|taken off|deducted)", re.I),
    re.compile(rf"(?P<n>{_NUM})\s*(?P<u>{_UNIT})\s+(?:has|have|was|were)\s+(?:been\s+)?"
               r"(?:subtracted|removed|deducted)", re.I),
    re.compile(rf"\bsubtract(?:ing|ed)?\s+(?:the\s+)?(?P<n>{_NUM})\s*(?P<u>{_UNIT})", re.I),
    re.compile(rf"\bin\s+(?P<u>{_UNIT}),?\s+(?:minus|less)\s+(?P<n>{_NUM})", re.I),
    re.compile(rf"\(\s*(?P<u>{_UNIT}),\s*with\s+(?P<n>{_NUM})\s+(?:subtracted|removed)", re.I),
    re.compile(rf"\badd(?:ing)?\s+back\s+(?:the\s+)?(?P<n>{_NUM})\s*(?P<u>{_UNIT})", re.I),
    # "velocità misurata **meno 299000**, in km/s", "menos 299000, en km/s", "moins ..."
    re.compile(rf"\b(?:minus|meno|menos|moins)\s+(?P<n>{_NUM})[*_]*,?\s+(?:in|en)\s+"
               rf"(?P<u>{_UNIT})", re.I),
]  # fmt: skip
# quantity = offset + coded·scale: "g − 980.000 cm/s² in units of 0.001 cm/s²"
_UNITS_OF = re.compile(
    rf"\b[^\W\d]\w*\s*-\s*(?P<n>{_NUM})\s*(?P<u>{_UNIT})\s+in\s+units\s+of\s+(?P<s>{_NUM})"
    rf"\s*(?P<u2>{_UNIT})",
    re.I,
)
# quantity = offset + coded/k: "(t/µs − 24.8) × 1000", "(t − 24.8 µs) × 1000"
_SCALED = re.compile(
    rf"\(\s*[^\W\d]\w*\s*(?:/\s*(?P<u>{_UNIT}?)\s*)?-\s*(?P<n>{_NUM})\s*(?P<u1>{_UNIT})?\s*\)"
    rf"\s*(?:x|\*|·|times)\s*(?P<k>{_NUM})",
    re.I,
)
# quantity = offset + coded in another unit: "deviations from 24 800 ns in ns"
_DEVIATIONS = re.compile(
    rf"\bdeviations?\s+from\s+(?P<n>{_NUM})\s*(?P<u>{_UNIT})(?:\s+in\s+(?P<u2>{_UNIT}))?", re.I
)
# Units spelled out in words, as the R documentation of these data sets writes them.
_SPELLED = {
    r"millionths? of a second|microseconds?": "µs",
    r"thousandths? of a second|milliseconds?": "ms",
    r"nanoseconds?": "ns",
    r"km/sec\b": "km/s",
    r"m/sec\b": "m/s",
}
# quantity = coded/k + a: "the given values divided by 1000 plus 24.8 give the time in µs"
_DIVIDE_ADD = re.compile(rf"\bdivided\s+by\s+(?P<k>{_NUM}),?\s*(?:plus|\+)\s*(?P<n>{_NUM})", re.I)
# quantity = (coded + a)/k: "add 980 000 and divide by 1000"
_ADD_DIVIDE = re.compile(
    rf"\badd\s+(?P<n>{_NUM})\s*(?:and|,)\s*(?:then\s+)?divide\s+(?:it\s+|the\s+sum\s+)?by\s+"
    rf"(?P<k>{_NUM})",
    re.I,
)
# an example: "28 means t = 24.828 µs", "76 corresponds to g = 980.076 cm/s²"
_EXAMPLE = re.compile(
    rf"(?P<c>{_NUM})\s+(?:means|stands for|corresponds to|is)\s+(?:[^\W\d]\w*\s*=\s*)?"
    rf"(?P<v>{_NUM})\s*(?P<u>{_UNIT})",
    re.I,
)
# "subtracted" says so only of a number ("with 299 000 km/s subtracted"), not of a correction
# ("the mean background is subtracted from every sample point")
_CODED_WORDS = re.compile(
    r"\bcoded\b|\bcoding\b|\bkodiert|编码|\d[^.;]*\bsubtracted\b|\bsubtracted\b[^.;]*\d", re.I
)


class Coding(BaseModel):
    """quantity = offset + scale · coded, in `unit`."""

    offset: float
    scale: float
    unit: str
    written: str
    """The handout's sentence that says so, as quoted."""

    def decode(self, coded: float) -> float:
        return self.offset + self.scale * coded

    def shown(self, coded: float, error: float | None = None) -> str:
        """`299852.4 ± 7.9 km/s` from a coded value and its coded error, at the places of the
        error's second significant digit; never with an exponent, so the digits the offset
        adds stay readable."""
        value = self.decode(coded)
        suffix = f" {self.unit}" if self.unit else ""
        if error is None or not math.isfinite(error) or error <= 0:
            return f"{value:.{places(abs(self.scale))}f}{suffix}"
        width = abs(self.scale) * error
        decimals = places(width)
        return f"{value:.{decimals}f} ± {width:.{decimals}f}{suffix}"

    def ends(self, low: float, high: float, width: float) -> str:
        """`299836.7 to 299868.1 km/s`: the decoded ends of a coded interval."""
        decimals = places(abs(self.scale) * width)
        a, b = sorted((self.decode(low), self.decode(high)))
        return f"{a:.{decimals}f} to {b:.{decimals}f}{f' {self.unit}' if self.unit else ''}"

    def rule(self) -> str:
        """`value = 299000 km/s + coded` as words: how the conversion was done."""
        scale = "" if self.scale == 1 else f"{self.scale:g} × "
        return f"{self.offset:g} {self.unit} + {scale}coded value".replace("  ", " ")


class Decoding(BaseModel):
    """What the handout says of coded values: the coding read, or why none was used."""

    coding: Coding | None = None
    unread: str = ""
    """Where the handout says the values are coded but no mapping was used: its sentence."""


def read_coding(text: str) -> Decoding:
    """The one coding the handout `text` states, checked against its example where it gives
    one; `unread` with the sentence where it says the values are coded and none (or two that
    disagree) can be read."""
    found: list[Coding] = []
    for sentence in _sentences(text):
        coding = _coding_of(sentence)
        if coding is not None:
            found.append(coding)
    distinct = {(round(c.offset, 9), round(c.scale, 12)) for c in found}
    example = next((m for s in _sentences(text) for m in _EXAMPLE.finditer(s)), None)
    if len(distinct) == 1:
        coding = found[0]
        if not coding.unit and example is not None:
            coding.unit = _unit(example["u"])
        if example is None or _gives(coding, example):
            return Decoding(coding=coding)
        return Decoding(unread=_quote(coding.written))
    said = next((s for s in _sentences(text) if _CODED_WORDS.search(s)), "")
    return Decoding(unread=_quote(said)) if said else Decoding()


def _coding_of(sentence: str) -> Coding | None:
    quoted = _quote(sentence)
    match = _UNITS_OF.search(sentence)
    if match:
        ratio = _ratio(match["u2"], match["u"])
        if ratio is not None:
            scale = _number(match["s"]) * ratio
            return Coding(offset=_number(match["n"]), scale=scale, unit=_unit(match["u"]),
                          written=quoted)  # fmt: skip
    match = _SCALED.search(sentence)
    if match and (match["u"] or match["u1"]):
        k = _number(match["k"])
        if k:
            unit = _unit(match["u"] or match["u1"])
            return Coding(offset=_number(match["n"]), scale=1 / k, unit=unit, written=quoted)
    match = _DEVIATIONS.search(sentence)
    if match and canonical(_unit(match["u"])) is not None:
        ratio = _ratio(match["u2"] or match["u"], match["u"])
        if ratio is not None:
            return Coding(offset=_number(match["n"]), scale=ratio, unit=_unit(match["u"]),
                          written=quoted)  # fmt: skip
    units = [_unit(m["u"]) for m in _IN_UNIT.finditer(sentence)]
    unit = next((u for u in units if canonical(u) is not None), "")
    match = _ADD_DIVIDE.search(sentence)
    if match and _number(match["k"]):
        k = _number(match["k"])
        return Coding(offset=_number(match["n"]) / k, scale=1 / k, unit=unit, written=quoted)
    match = _DIVIDE_ADD.search(sentence)
    if match and _number(match["k"]):
        k = _number(match["k"])
        return Coding(offset=_number(match["n"]), scale=1 / k, unit=unit, written=quoted)
    for pattern in _OFFSETS:
        match = pattern.search(sentence)
        if match and canonical(_unit(match["u"])) is not None:
            return Coding(offset=_number(match["n"]), scale=1.0, unit=_unit(match["u"]),
                          written=quoted)  # fmt: skip
    return None


def _gives(coding: Coding, example: re.Match[str]) -> bool:
    """Whether the coding turns the example's coded number into its value (in its unit)."""
    ratio = _ratio(example["u"], coding.unit) if coding.unit else 1.0
    if ratio is None:
        return False
    expected = _number(example["v"]) * ratio
    return math.isclose(coding.decode(_number(example["c"])), expected, rel_tol=1e-6,
                        abs_tol=1e-9 * max(1.0, abs(expected)))  # fmt: skip


def _ratio(unit: str, of: str) -> float | None:
    """How many `of` one `unit` is (`ns` of `µs`: 0.001); None where they are not one kind."""
    a, b = _unit(unit), _unit(of)
    if a == b:
        return 1.0
    first, second = si_of(canonical(a) or a), si_of(canonical(b) or b)
    if first is None or second is None or first.dimension != second.dimension:
        return None
    return first.scale / second.scale


def _unit(written: str | None) -> str:
    return (written or "").rstrip(".")


def _number(written: str) -> float:
    return float(re.sub(r"[  ,]", "", written))


def places(width: float) -> int:
    """Decimals that show `width` to two significant digits (none for widths of 10 and more)."""
    if width <= 0 or not math.isfinite(width):
        return 0
    return max(0, 1 - math.floor(math.log10(width)))


def _sentences(text: str) -> list[str]:
    flat = re.sub(r"[*`]+", "", text).replace("−", "-").replace("×", "x")
    flat = re.sub(r"\s+", " ", flat)
    for words, unit in _SPELLED.items():
        flat = re.sub(words, unit, flat, flags=re.I)
    return [s.strip() for s in _SENTENCE_END.split(flat) if s.strip()]


def _quote(sentence: str) -> str:
    sentence = sentence.strip()
    return sentence if len(sentence) <= MAX_QUOTED else sentence[: MAX_QUOTED - 1] + "…"
