"""The writing stages with scripted models: gap, reflect, numbers, bib."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.tools.sandbox.latex import toolchain_problem

PURCELL = (
    "[1] E. M. Purcell and D. J. Morin, Electricity and Magnetism, 2013. "
    "doi:10.1017/CBO9781139012973"
)


def finish(**extra: object) -> dict:
    return call(
        "finish_exploration", experiment="RLC", goal="f0", key_findings=["40 rows"], **extra
    )


def events(result) -> list[dict]:
    return [json.loads(line) for line in (result.out / "events.jsonl").read_text().splitlines()]


@pytest.fixture
def cited(data: Path) -> Path:
    (data / "handout.md").write_text(f"# Handout\n\nReferences\n\n{PURCELL}\n")
    return data


def test_reflect_converging_in_round_1_of_3_keeps_later_labels(data: Path, run) -> None:
    document = latex("The sweep has 40 data points.")
    writer = ScriptedChatModel(
        replies=[
            reply(content=document),
            reply(content="- tighten the wording"),
            reply(content=document),
        ]
    )
    explorer = ScriptedChatModel(replies=[reply(finish())])
    result = run(data, explorer, write=writer, reflect=3, compile=True)
    pdf = (
        ["compile"] if toolchain_problem() is None else []
    )  # the plan follows the toolchain, as the run does
    plan = result.record["plan"]
    assert plan == ["scan", "explore", "gap", "draft", "reflect", "reflect", "reflect", "bib", *pdf]
    milestones = [(e["index"], e["stage"]) for e in events(result) if e["event"] == "milestone"]
    later = [(9, "compile")] if pdf else []
    assert milestones == [
        (1, "scan"), (2, "explore"), (4, "draft"), (5, "reflect"), (8, "bib"), *later,
    ]  # fmt: skip
    end = events(result)[-1]
    assert end["index"] == end["total"] == len(plan)
    assert result.record["reflection"] == {"rounds": 1, "converged": True}
    assert len(writer.requests) == 3


def test_reflect_stops_at_once_when_the_critic_finds_nothing(data: Path, run) -> None:
    writer = ScriptedChatModel(
        replies=[reply(content=latex("The sweep has 40 data points.")), reply(content="NONE")]
    )
    result = run(data, ScriptedChatModel(replies=[reply(finish())]), write=writer, reflect=2)
    assert len(writer.requests) == 2
    assert result.record["reflection"] == {"rounds": 1, "converged": True}


def test_reflect_revision_failing_the_checks_keeps_the_previous_text(data: Path, run) -> None:
    good = latex("The sweep has 40 data points.")
    writer = ScriptedChatModel(
        replies=[
            reply(content=good),
            reply(content="- add a conclusion"),
            reply(content="<tool_call>x</tool_call>"),
        ]
    )
    result = run(data, ScriptedChatModel(replies=[reply(finish())]), write=writer, reflect=1)
    assert (result.out / "report.tex").read_text() == good
    assert result.record["reflection"] == {"rounds": 1, "converged": False}


def test_wrong_number_is_caught_fed_back_and_reported(data: Path, run) -> None:
    wrong = latex("The sweep has 52 data points.")
    writer = ScriptedChatModel(
        replies=[reply(content=wrong), reply(content="- check the row count"), reply(content=wrong)]
    )
    result = run(data, ScriptedChatModel(replies=[reply(finish())]), write=writer, reflect=1)
    numbers = result.record["numbers"]
    assert numbers["checked"] >= 1
    assert numbers["mismatches"] == [
        "rows of sweep.csv: the data (sweep.csv) gives 40, the report says 52 in "
        '"The sweep has 52 data points."'
    ]
    critique_request = writer.requests[1][-1].text
    assert "rows of sweep.csv: the data (sweep.csv) gives 40" in critique_request


def test_right_number_passes(data: Path, run) -> None:
    writer = ScriptedChatModel(replies=[reply(content=latex("The sweep has 40 data points."))])
    result = run(data, ScriptedChatModel(replies=[reply(finish())]), write=writer)
    assert result.record["numbers"] == {"checked": 1, "mismatches": []}


def test_citations_resolve_rename_or_are_removed(cited: Path, run) -> None:
    body = "Theory follows \\cite{purcell}. See also \\cite{smith1999,Purcell2013}."
    writer = ScriptedChatModel(replies=[reply(content=latex(body))])
    result = run(cited, ScriptedChatModel(replies=[reply(finish())]), write=writer)
    report = (result.out / "report.tex").read_text()
    assert "\\cite{purcell2013}" in report
    assert "smith1999" not in report
    assert "\\bibliography{references}" in report
    citations = result.record["citations"]
    assert citations["removed"] == ["smith1999"]
    assert citations["renamed"] == {"purcell": "purcell2013", "Purcell2013": "purcell2013"}
    bib = (result.out / "references.bib").read_text()
    assert "@misc{purcell2013," in bib
    assert "doi = {10.1017/CBO9781139012973}" in bib
    assert bib.count("doi = ") == 1  # no DOI the material does not contain


def test_writer_brief_offers_the_material_keys_facts_and_gaps(cited: Path, run, writer) -> None:
    gapper = [reply(content="- no uncertainty estimates in the material")]
    writer.replies = [*gapper, *writer.replies]
    explorer = ScriptedChatModel(
        replies=[reply(finish(requirements="report Q with uncertainties"))]
    )
    result = run(cited, explorer, write=writer)
    assert result.record["gaps"] == ["no uncertainty estimates in the material"]
    brief = writer.requests[1][-1].text
    assert "purcell2013" in brief
    assert "- sweep.csv: 40 rows; x = frequency [Hz] 1000…1390; V_R" in brief
    assert "- no uncertainty estimates in the material" in brief
    assert [e["stage"] for e in events(result) if e["event"] == "milestone"] == [
        "scan", "explore", "gap", "draft", "bib",
    ]  # fmt: skip


def test_reflect_skips_a_report_too_long_for_the_window(data: Path, run) -> None:
    long = latex(
        " ".join(f"Reading {n} gave {n * 1.37 % 9:.3f} V at {n * 29 % 997} Hz." for n in range(300))
    )
    writer = ScriptedChatModel(replies=[reply(content=long)])
    result = run(data, ScriptedChatModel(replies=[reply(finish())]), write=writer, reflect=2,
                 context_tokens=2_000)  # fmt: skip
    assert len(writer.requests) == 1
    assert result.record["reflection"] == {"rounds": 1, "converged": True}
    detail = [e["detail"] for e in events(result) if e["stage"] == "reflect"]
    assert detail == [
        "round 1: skipped: the report is too long to review and revise in the model's window"
    ]
