import pytest

from labscribe.guards.output import find_tool_markup, latex_problems, tidy_latex

GOOD = "\\documentclass{article}\n\\begin{document}\nHi.\n\\end{document}\n"


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
        "it does not contain \\documentclass",
        "it contains tool-call markup ('<think>')",
        "it does not end with \\end{document}",
    ]


def test_tidy_latex_strips_fences_prose_and_trailing_chat() -> None:
    reply = f"Here is your report:\n```latex\n{GOOD}```\nLet me know!"
    assert tidy_latex(reply) == GOOD


def test_tidy_latex_leaves_a_truncated_document_failing() -> None:
    assert "it does not end with \\end{document}" in latex_problems(tidy_latex(GOOD[:40]))
