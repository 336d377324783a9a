from labscribe.guards.latex_log import parse_log

EMPTY = "(./report.aux) )\nHere is how much of TeX's memory you used:\n\nNo pages of output.\n"


def test_parse_log_says_when_a_document_typeset_nothing() -> None:
    summary = parse_log(EMPTY)
    assert summary.no_pages
    assert summary.errors == ["No pages of output."]


def test_parse_log_blames_an_error_for_pages_it_stopped() -> None:
    summary = parse_log("./report.tex:5: Undefined control sequence.\n" + EMPTY)
    assert not summary.no_pages
    assert summary.errors == ["Undefined control sequence."]
