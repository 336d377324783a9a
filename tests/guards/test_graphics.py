from labscribe.guards.graphics import resolve_graphics

DOC = "\\documentclass{article}\n\\begin{document}\n{body}\n\\end{document}\n"


def doc(body: str) -> str:
    return DOC.replace("{body}", body)


def figure(target: str) -> str:
    return (
        "\\begin{figure}\\centering\\includegraphics[width=0.8\\linewidth]{" + target + "}"
        "\\caption{A curve.}\\end{figure}\n"
    )


def test_resolve_graphics_keeps_existing_targets_with_or_without_extension() -> None:
    text, shown, removed = resolve_graphics(doc(figure("figures/a")), ["figures/a.png"])
    assert "\\includegraphics[width=0.8\\linewidth]{figures/a.png}" in text
    assert (shown, removed) == (["figures/a.png"], [])


def test_resolve_graphics_removes_a_missing_figure_with_its_caption() -> None:
    text, shown, removed = resolve_graphics(doc(figure("figures/b.png")), ["figures/a.png"])
    assert "\\caption" not in text and "\\begin{figure}" not in text
    assert (shown, removed) == ([], ["figures/b.png"])


def test_resolve_graphics_removes_a_bare_missing_target() -> None:
    text, _, removed = resolve_graphics(doc("See \\includegraphics{plot.pdf} here."), [])
    assert text == doc("See  here.")
    assert removed == ["plot.pdf"]


def test_resolve_graphics_loads_graphicx_when_needed() -> None:
    text, _, _ = resolve_graphics(doc(figure("figures/a.png")), ["figures/a.png"])
    assert text.startswith("\\documentclass{article}\n\\usepackage{graphicx}\n")
