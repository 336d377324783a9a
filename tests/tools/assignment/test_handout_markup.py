"""A handout's markup read by its format's parser: headings, items and text as a reader
sees them."""

from __future__ import annotations

import time

from labscribe.tools.assignment.handout_markup import Line, handout_of


def test_markdown_gives_headings_items_and_their_continuations() -> None:
    handout = handout_of(
        "# Lab 2\nIntro text.\n\n1. Plot **T**\n   against $L_{0}$.\n   - nested item\n",
        "a.md",
    )
    assert handout is not None
    assert handout.title == "Lab 2"
    assert handout.lines[:1] == [Line("Lab 2", "heading", 1)]
    assert Line("Plot T", "item", 1, "1") in handout.lines
    assert Line("against L_0.", "more") in handout.lines
    assert Line("nested item", "item", 2) in handout.lines


def test_markdown_drops_code_tables_and_html_but_reads_admonitions() -> None:
    text = (
        "```python\nplot(x)\n```\n\n| a | b |\n|---|---|\n| Plot it. | 1 |\n\n"
        "<video src='x.mp4'></video>\n\n```{admonition} Goals\n:class: note\n- Measure g.\n```\n"
    )
    handout = handout_of(text, "a.md")
    assert handout is not None
    texts = [line.text for line in handout.lines if line.text]
    assert texts == ["Measure g."]


def test_latex_gives_sections_items_and_drops_comments_and_floats() -> None:
    text = (
        "\\documentclass{article}\\title{Lab 7}\\begin{document}\n\\section*{Tasks}\n"
        "\\begin{enumerate}\n\\item[(a)] Measure $T_{10}$.\n%\\item Hidden.\n\\item Plot it.\n"
        "\\end{enumerate}\n\\begin{figure}\\caption{Plot this.}\\end{figure}\n\\end{document}\n"
    )
    handout = handout_of(text, "a.tex")
    assert handout is not None
    assert handout.title == "Lab 7"
    assert [line for line in handout.lines if line.kind != "break"] == [
        Line("Tasks", "heading", 2),
        Line("Measure T_10.", "item", 1, "(a)"),
        Line("Plot it.", "item", 1, "2"),
    ]


def test_html_gives_title_headings_and_items() -> None:
    text = "<html><head><title>Lab 9</title><style>p{}</style></head><body><h2>Tasks</h2>"
    text += "<ol><li>Plot <b>T</b>.</li><li>Fit it.</li></ol><script>x()</script></body></html>"
    handout = handout_of(text, "a.html")
    assert handout is not None
    assert handout.title == "Lab 9"
    assert [line for line in handout.lines if line.kind != "break"] == [
        Line("Tasks", "heading", 2),
        Line("Plot T.", "item", 1, "1"),
        Line("Fit it.", "item", 1, "2"),
    ]


def test_plain_text_is_left_to_the_plain_reading() -> None:
    assert handout_of("Tasks:\n1. Plot T.\n", "a.txt") is None
    assert handout_of("Tasks:\n1. Plot T.\n", "a.pdf") is None


def test_markup_a_parser_cannot_follow_is_read_in_bounded_time() -> None:
    """Markup of 60,000 characters (the handout's read limit) that nests or repeats."""
    for text, name in [
        ("\\begin{itemize}" * 4000, "a.tex"),
        ("{" * 60_000, "a.tex"),
        ("$a" * 30_000, "a.md"),
        ("- " * 30_000, "a.md"),
        ("<li>" * 15_000, "a.html"),
    ]:
        started = time.monotonic()
        handout_of(text, name)
        assert time.monotonic() - started < 5, name


def test_markdown_keeps_the_stars_of_a_formula_and_drops_those_of_emphasis() -> None:
    handout = handout_of(
        "1. Fit the model y = b1*exp(-b2*x) + b3*exp(-b4*x) to the data.\n"
        "2. Use **bold** and *g*, and x**2.\n",
        "a.md",
    )
    assert handout is not None
    items = [line.text for line in handout.lines if line.kind == "item"]
    assert items == [
        "Fit the model y = b1*exp(-b2*x) + b3*exp(-b4*x) to the data.",
        "Use bold and g, and x**2.",
    ]


def test_markdown_math_reaches_latex_as_written() -> None:
    """CommonMark would read `\\,` as a comma and `*` between letters as emphasis: inside
    `$...$` neither is Markdown."""
    text = "# T\n\n1. Compute $$f = \\frac{p\\,q}{p+q}$$ and fit $y = a*x*b$.\n"
    handout = handout_of(text, "a.md")
    assert handout is not None
    lines = [line.text for line in handout.lines]
    assert "Compute f = (p q)/(p+q) and fit y = a*x*b." in lines, lines
