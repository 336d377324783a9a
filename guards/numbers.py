"""Numbers in the report, checked against facts computed from the data files.

A fact is a value the data determines (a file's row count, a column's maximum, where a
column peaks) with the words a sentence uses when it speaks of it. A sentence that names
a fact (one of its `topic` words and a word of each of its `subjects`) and states numbers
makes a claim about it; the claim holds when one of those numbers equals the fact to the
precision it was written with (or within 2 %, for values a report rounds; within 2σ, for a
fitted parameter), in any SI scaling of the unit. A fact that is spoken of but never
stated correctly is a mismatch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RELATIVE_TOLERANCE = 0.02  # a report rounds: 5071 Hz written "5.07 kHz" or "about 5.1 kHz"
_SCALES = (1.0, 1e3, 1e-3, 1e6, 1e-6, 1e9, 1e-9, 100.0, 0.01)  # k/m/M/µ/G/n prefixes, percent
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
# Sentences, paragraphs, table rows and list items: a table row stays whole, so a label
# cell and its value cell are read together.
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n\s*\n|\\\\|\\item\b")
_COMMAND = re.compile(r"\\(?:label|ref|cite|eqref|includegraphics|input|url|href)\{[^{}]*\}")


@dataclass(frozen=True)
class Fact:
    label: str
    """What the fact is, for people: "rows of data/sweep.csv"."""
    value: float
    source: str
    topic: frozenset[str]
    """Words naming what kind of value it is: "rows", "peak", "maximum"."""
    subjects: tuple[frozenset[str], ...] = ()
    """Groups of words naming what it is about (a file, a column); a sentence must use a
    word of every group. None: any sentence on the topic."""
    exact: bool = False
    """A count: only the exact value, unscaled, agrees."""
    tolerance: float | None = None
    """How far, relative to the value, a stated number may stray and still agree: a fitted
    parameter's 2σ. None: RELATIVE_TOLERANCE, for values a report rounds."""
    also: tuple[float, ...] = ()
    """Other values the data give for the same thing, any of which a report may state (a
    response fitted as measured and relative to its input)."""


@dataclass(frozen=True)
class Mismatch:
    fact: str
    expected: float
    claimed: tuple[float, ...]
    sentence: str
    source: str

    also: tuple[float, ...] = ()

    def describe(self) -> str:
        said = ", ".join(f"{value:g}" for value in self.claimed)
        gives = " or ".join(f"{value:g}" for value in (self.expected, *self.also))
        return (
            f"{self.fact}: the data ({self.source}) gives {gives}, "
            f'the report says {said} in "{self.sentence[:160]}"'
        )


def check_numbers(text: str, facts: list[Fact]) -> tuple[int, list[Mismatch]]:
    """(How many claims were checked, the facts the report states wrongly)."""
    checked = 0
    mismatches: list[Mismatch] = []
    sentences = [s for s in _SENTENCE.split(_COMMAND.sub(" ", text)) if s.strip()]
    for fact in facts:
        wrong: list[Mismatch] = []
        right = False
        for sentence in sentences:
            words = _words(sentence)
            if not fact.topic & words or not all(group & words for group in fact.subjects):
                continue
            numbers = _numbers(sentence)
            if not numbers:
                continue
            checked += 1
            if any(_agrees(value, decimals, fact) for value, decimals in numbers):
                right = True
            else:
                claimed = tuple(value for value, _ in numbers)
                wrong.append(
                    Mismatch(
                        fact.label, fact.value, claimed, sentence.strip(), fact.source, fact.also
                    )
                )
        if wrong and not right:
            mismatches.append(wrong[0])
    return checked, mismatches


def _words(sentence: str) -> set[str]:
    lowered = sentence.lower().replace("\\_", "_")
    words = set(re.findall(r"[a-z]+(?:_[a-z0-9]+)*", lowered))
    return words | {part for word in words for part in word.split("_")}


def _numbers(sentence: str) -> list[tuple[float, int]]:
    """The numbers written in `sentence`, each with its count of decimals."""
    found = []
    for match in _NUMBER.finditer(sentence):
        raw = match.group(0).replace("−", "-")
        try:
            value = float(raw)
        except ValueError:
            continue
        mantissa = raw.lower().split("e")[0]
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        found.append((value, decimals))
    return found


def _agrees(claimed: float, decimals: int, fact: Fact) -> bool:
    if fact.exact:
        return claimed == fact.value
    relative = RELATIVE_TOLERANCE if fact.tolerance is None else fact.tolerance
    precision = 0.5 * 10 ** (-decimals)
    for value in (fact.value, *fact.also):
        for scale in _SCALES:
            target = value / scale
            if abs(claimed - target) <= max(precision, abs(target) * relative):
                return True
    return False
