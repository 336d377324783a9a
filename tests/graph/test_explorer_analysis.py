"""The explorer directs, labscribe computes: `fit` and `derive` through the graph, their
results in the writer's brief and the number checks, guarded like every read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.graph import Context, Models, run_folder

REAL = Path(__file__).resolve().parents[1] / "data" / "real" / "labtables"
FINISH = call("finish_exploration", experiment="pendulum", goal="g", key_findings=["T(L)"])
FIT = call("fit", path="pendulum.csv", x="l", y="T", formula="T = a*L^b")
DERIVE = call("derive", name="g", expression="4*pi^2/a^2", unit="m/s^2")


@pytest.fixture
def pendulum(tmp_path: Path) -> Path:
    """The student's real pendulum table (lengths in m), and a task that names no model."""
    folder = tmp_path / "pendulum"
    folder.mkdir()
    rows = (REAL / "pendulum-lengths-periods.csv").read_text().splitlines()[1:]
    table = ["L (m),T (s)"] + [
        f"{float(r.split(',')[0]) / 100:.3f},{r.split(',')[1].strip()}" for r in rows
    ]
    (folder / "pendulum.csv").write_text("\n".join(table) + "\n")
    (folder / "assignment.txt").write_text(
        "Tasks\n1. Measure the period T for eight lengths L.\n"
        "2. From the period, determine the gravitational acceleration g.\n"
    )
    return folder


def run(
    folder: Path, tmp_path: Path, explorer: list, report: str
) -> tuple[dict, ScriptedChatModel]:
    writer = ScriptedChatModel(replies=[reply(content=report)])
    models = Models(explore=ScriptedChatModel(replies=explorer), write=writer)
    context = Context(models=models, reflect=0, compile=False, figures=False)
    result = run_folder(folder, out=tmp_path / "out", context=context)
    return result.record, writer


def tool_results(out: Path) -> list[dict]:
    history = json.loads((out / "history.json").read_text())
    return [m["data"] for m in history if m["type"] == "tool"]


def test_fit_and_derive_reach_the_writer_with_every_number_computed(
    pendulum: Path, tmp_path: Path
) -> None:
    record, writer = run(
        pendulum, tmp_path, [reply(FIT), reply(DERIVE), reply(FINISH)],
        latex("The pendulum gives g = 9.772 m/s^2."),
    )  # fmt: skip
    fitted, derived = tool_results(tmp_path / "out")[:2]
    assert fitted["status"] == "success"
    assert fitted["content"].startswith("Fit of T against L in pendulum.csv with T = a*L^b: a = ")
    assert "b = 0.50" in fitted["content"] and "s/m^0.5" in fitted["content"]
    assert derived["status"] == "success"
    assert derived["content"].startswith("g = 9.7722 ± 0.0011 m/s^2, from 4*pi^2/a^2 with a = ")
    assert "(the T = a*L^b fit of T against L in pendulum.csv)" in derived["content"]
    brief = writer.requests[0][-1].content
    assert "[asked for by the explorer]" in brief
    assert "Derived by the explorer's request, computed by labscribe:" in brief
    assert record["numbers"]["mismatches"] == []


def test_a_derived_value_the_report_misstates_is_a_mismatch(pendulum: Path, tmp_path: Path) -> None:
    record, _ = run(
        pendulum, tmp_path, [reply(FIT), reply(DERIVE), reply(FINISH)],
        latex("The pendulum gives g = 12.3 m/s^2."),
    )  # fmt: skip
    assert any(m.startswith("g derived as 4*pi^2/a^2") for m in record["numbers"]["mismatches"])


def test_derive_names_the_values_it_may_use_when_one_is_unknown(
    pendulum: Path, tmp_path: Path
) -> None:
    wrong = call("derive", name="g", expression="4*pi^2/A^2", unit="m/s^2")
    run(pendulum, tmp_path, [reply(wrong), reply(FINISH)], latex())
    [answer] = tool_results(tmp_path / "out")[:1]
    assert answer["status"] == "error"
    assert "A is not among the values the analysis computed; these are: " in answer["content"]


def test_fit_refuses_code_posing_as_a_formula(pendulum: Path, tmp_path: Path) -> None:
    attack = call("fit", path="pendulum.csv", x="L", y="T",
                  formula="__import__('os').system('touch /tmp/pwned')")  # fmt: skip
    run(pendulum, tmp_path, [reply(attack), reply(FINISH)], latex())
    [answer] = tool_results(tmp_path / "out")[:1]
    assert answer["status"] == "error" and "is not a formula labscribe can fit" in answer["content"]
    assert not Path("/tmp/pwned").exists()


def test_a_repeated_fit_climbs_the_ladder_like_a_repeated_read(
    pendulum: Path, tmp_path: Path
) -> None:
    record, _ = run(pendulum, tmp_path, [reply(FIT)] * 8 + [reply(FINISH)], latex())
    assert record["guard"]["halted"]
    assert record["guard"]["halt"]["tool"] == "fit"
