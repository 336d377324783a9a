import pytest

from labscribe.guards.output import (
    find_tool_markup,
    is_degenerate,
    latex_problems,
    tidy_latex,
    typeset_problems,
)

BODY = "The resonance frequency of the series RLC circuit was measured. " * 4
GOOD = f"\\documentclass{{article}}\n\\begin{{document}}\n{BODY}\n\\end{{document}}\n"


@pytest.mark.parametrize(
    "markup",
    [
        "<｜DSML｜function_calls>",
        "<｜tool▁calls▁begin｜>",
        "<|tool_calls_begin|>",
        "<|tool▁calls▁begin|>",
        "<｜tool▁call▁end｜>",
        "<|tool_sep|>",
        '{"tool_calls": []}',
        "<tool_call>",
        "</tool_call>",
        "<think>",
        "</think>",
    ],
)
def test_find_tool_markup_catches_each_family(markup: str) -> None:
    assert find_tool_markup(f"text {markup} more") is not None


def test_find_tool_markup_ignores_escaped_latex_words() -> None:
    assert find_tool_markup(r"We think the tool\_calls column and thinking are fine.") is None


def test_latex_problems_accepts_a_complete_document() -> None:
    assert latex_problems(GOOD) == []


def test_latex_problems_names_each_problem() -> None:
    assert latex_problems("Hello <think>") == [
        "it does not contain \\documentclass{...}",
        "it has no \\begin{document} ... \\end{document} body",
        "it contains tool-call markup ('<think>')",
        "it does not end with \\end{document}",
    ]


def test_latex_problems_rejects_a_document_that_ends_and_goes_on() -> None:
    # SmolLM2's one draft that passed the checks (bench/bench_embedded.py, damped oscillation):
    # each section closed the document, so TeX would have dropped all but the first.
    sections = "".join(f"\\section{{Part {n}}} {BODY}\n\\end{{document}}\n" for n in range(3))
    repeated = f"\\documentclass{{article}}\n\\begin{{document}}\n{sections}"
    assert latex_problems(repeated) == ["it has more than one \\begin{document} or \\end{document}"]
    twice = GOOD.replace("\\begin{document}", "\\begin{document}\\begin{document}")
    assert latex_problems(twice) == latex_problems(repeated)


def test_latex_problems_rejects_an_empty_shell() -> None:
    shell = "\\documentclass{article}\\begin{document}Hi.\\end{document}"
    assert latex_problems(shell) == [
        "its body has fewer than 200 characters of text (comments and commands not counted)"
    ]
    assert "it does not contain \\documentclass{...}" in latex_problems(
        "\\documentclass.\\end{document}"
    )


def test_tidy_latex_strips_fences_prose_and_trailing_chat() -> None:
    reply = f"Here is your report:\n```latex\n{GOOD}```\nLet me know!"
    assert tidy_latex(reply) == GOOD


def test_tidy_latex_leaves_a_truncated_document_failing() -> None:
    assert "it does not end with \\end{document}" in latex_problems(tidy_latex(GOOD[:40]))


def test_is_degenerate_catches_a_looping_reply() -> None:
    loop = "\n".join(
        ["The explorer read the experiment:", '"The explorer read the experiment:'] * 60
    )
    assert is_degenerate(loop)
    assert "it keeps repeating the same text" in latex_problems(
        GOOD[:-15] + loop + "\n\\end{document}"
    )


def test_is_degenerate_spares_a_long_table_of_numbers() -> None:
    rows = "\n".join(
        f"{1000 + 37 * i} & {0.1 * i + 0.013 * i * i:.3f} & {88 - 3.1 * i:.1f} \\\\"
        for i in range(120)
    )
    assert not is_degenerate(f"\\begin{{tabular}}{{ccc}}\n{rows}\n\\end{{tabular}}")


def test_is_degenerate_never_judges_short_text() -> None:
    assert not is_degenerate("ha " * 300)


def test_latex_problems_counts_the_text_of_the_body_not_its_comments() -> None:
    commented = GOOD.replace(BODY, "\n".join(f"% {BODY}" for _ in range(3)))
    assert latex_problems(commented) == [
        "its body has fewer than 200 characters of text (comments and commands not counted)"
    ]


@pytest.mark.parametrize("end", ["\\end {document}", "\\end{ document }", "\\enddocument"])
def test_latex_problems_counts_every_spelling_of_the_end(end: str) -> None:
    early = GOOD.replace(BODY, f"Short.\n{end}\n{BODY}")
    assert latex_problems(early) == ["it has more than one \\begin{document} or \\end{document}"]


def test_typeset_problems_finds_the_body_in_its_pdf_text() -> None:
    tex = GOOD.replace(BODY, f"\\section{{Results}} {BODY} See Figure~\\ref{{fig:sweep}}.")
    # as a PDF gives it back: words hyphenated at line ends, ligatures, other case
    typeset = (
        "1 RESULTS\nThe reso-\nnance frequency of the series RLC circuit was mea-\nsured. " * 4
    )
    assert typeset_problems(tex, typeset) == []


def test_typeset_problems_names_a_body_the_pdf_does_not_show() -> None:
    assert typeset_problems(GOOD, "1") == [
        "its PDF shows only 0 of 5 words sampled from its body: text inside \\iffalse, a "
        "comment, a box that is never printed or after an early end of the document does not "
        "reach the page; write the report as plain LaTeX that prints"
    ]
