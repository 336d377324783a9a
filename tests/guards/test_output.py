import pytest

from labscribe.guards.output import find_tool_markup, is_degenerate, latex_problems, tidy_latex

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
    assert latex_problems(shell) == ["its body is shorter than 200 characters"]
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
