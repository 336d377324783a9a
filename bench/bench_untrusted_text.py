"""What the patterns that read a model's or a user's text cost on the worst text there is.

    .venv/bin/python bench/bench_untrusted_text.py

A pattern that scans to the end of its input from every place it could start is quadratic:
10,000 unclosed `\\cite{` in a draft, or a 99,000-character path in a tool call, then cost
minutes. Each line below times one pattern (or the function around it) on such a text, and
on a text ten times longer: a linear pattern takes about ten times as long, a quadratic one
a hundred.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from labscribe.guards.citations import CITE, THEBIBLIOGRAPHY
from labscribe.guards.detectors import failure_kind
from labscribe.guards.graphics import FIGURE, INCLUDE
from labscribe.guards.numbers import _COMMAND
from labscribe.guards.output import latex_problems, plain_text

CASES: list[tuple[str, Callable[[str], object], str]] = [
    ("\\cite without its closing brace", CITE.findall, "\\cite{"),
    ("\\cite[ without its closing bracket", CITE.findall, "\\cite["),
    ("\\begin{thebibliography} never ended", THEBIBLIOGRAPHY.findall, "\\begin{thebibliography}"),
    ("\\includegraphics{ unclosed", INCLUDE.findall, "\\includegraphics{"),
    ("\\begin{figure} never ended", FIGURE.findall, "\\begin{figure}"),
    ("\\ref{ unclosed (number checks)", _COMMAND.findall, "\\ref{"),
    ("\\begin{document} never ended (output checks)", latex_problems, "\\begin{document}"),
    ("\\documentclass[ unclosed (output checks)", latex_problems, "\\documentclass["),
    ("\\begin[ unclosed (the words a PDF must show)", plain_text, "\\begin["),
    ("a failing call's error: one long path", lambda t: failure_kind(t, named=(t,)), "data/"),
]


def seconds(run: Callable[[str], object], text: str) -> float:
    start = time.perf_counter()
    run(text)
    return time.perf_counter() - start


def main() -> None:
    print("| text | 10,000 repeats | 100,000 repeats | ratio |")
    print("|---|---|---|---|")
    for name, run, unit in CASES:
        small, large = seconds(run, unit * 10_000), seconds(run, unit * 100_000)
        print(f"| {name} | {small * 1e3:.1f} ms | {large * 1e3:.1f} ms | {large / small:.0f} |")


if __name__ == "__main__":
    main()
