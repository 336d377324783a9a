"""Each class of loop the guards must see, through the real graph with a scripted explorer.

The classes come from other agents' test suites and issue trackers (LoopBench cites each
one): a path under many spellings, results the model ignores, a cache that must never be
wrong, progress between re-reads, failures that repeat or change, a resumed attempt, and
replies with no action.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from scripted import ScriptedChatModel, call, reply

from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import run_folder
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models

FINISH = call("finish_exploration", experiment="RLC resonance", goal="find f0", key_findings=["f0"])
needs_sandbox = pytest.mark.skipif(
    os.geteuid() != 0 and not os.environ.get("CI"),
    reason="make_figure's sandbox needs root here (CI runs as root: .ci/run)",
)


def events(result) -> list[dict]:
    return [json.loads(line) for line in (result.out / "events.jsonl").read_text().splitlines()]


def verdicts(result) -> list[str | None]:
    return [e["guard"] for e in events(result) if e["event"] == "tool"]


def tool_messages(result) -> list[dict]:
    history = json.loads((result.out / "history.json").read_text())
    return [m["data"] for m in history if m["type"] == "tool"]


def script(*replies) -> ScriptedChatModel:
    return ScriptedChatModel(replies=list(replies))


# 1. one path under many spellings ---------------------------------------------------------

SPELLINGS = ["sweep.csv", "./sweep.csv", ".//sweep.csv", "./././sweep.csv", "sweep.csv  "]


def test_one_file_under_five_spellings_climbs_one_ladder(data: Path, run) -> None:
    result = run(data, script(*(reply(call("read_file", path=p)) for p in SPELLINGS * 4)))
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    halt = result.record["guard"]["halt"]
    assert halt["reason"] == "read_file was called 5 times with identical arguments"
    assert halt["args"] == {"path": "sweep.csv  "}


def test_one_folder_listed_under_several_spellings_is_one_listing(data: Path, run) -> None:
    # qwen-code #4695: the same status asked for again and again.
    spellings = [".", "./", "", "sub/..", "./sub/../"]
    (data / "sub").mkdir()
    result = run(data, script(*(reply(call("list_dir", path=p)) for p in spellings * 4)))
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    assert result.record["exploration"]["termination"] == "repeated_call"


# 2. results ignored -----------------------------------------------------------------------


def test_a_growing_limit_that_the_character_cap_ignores_is_one_read(data: Path, run) -> None:
    # qwen-code #2201: the cap returns the same window whatever the limit asks for.
    (data / "wide.csv").write_text("".join(f"{n}," + "7" * 120 + "\n" for n in range(400)))
    asks = [reply(call("read_file", path="wide.csv", limit=100 + 50 * n)) for n in range(8)]
    result = run(data, script(*asks))
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    assert result.record["guard"]["halt"]["termination"] == "repeated_call"


def test_a_window_shifted_by_one_line_per_call_halts_for_no_progress(data: Path, run) -> None:
    (data / "log.txt").write_text(
        "".join(f"{n:05d} sample {n * 7 % 1000} mV\n" for n in range(900))
    )
    asks = [reply(call("read_file", path="log.txt", offset=n)) for n in range(10)]
    result = run(data, script(*asks))
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    halt = result.record["guard"]["halt"]
    assert halt["termination"] == "no_progress"
    assert halt["reason"] == "4 calls in a row added nothing the explorer had not seen"
    contents = [m["content"] for m in tool_messages(result)]
    assert "Your last 2 calls showed nothing you had not already seen" in contents[2]
    assert contents[3].startswith("Not shown: this read_file call returned nothing")
    assert result.record["status"] == "completed"  # on_collapse="draft": it drafted


def test_a_poll_of_a_file_rewritten_with_the_same_bytes_is_a_repeat(data: Path, run) -> None:
    def rewrite_then_poll(messages):
        (data / "status.log").write_text("state: running 40%\n")  # new mtime, same content
        return reply(call("read_file", path="status.log"))

    (data / "status.log").write_text("state: running 40%\n")
    result = run(data, script(rewrite_then_poll))
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    assert [e["cached"] for e in events(result) if e["event"] == "tool"][:2] == [False, False]


def test_a_poll_whose_result_changes_is_never_punished(data: Path, run) -> None:
    step = iter(range(100))

    def advance_then_poll(messages):
        (data / "status.log").write_text(f"state: running {10 * next(step)}%\n")
        return reply(call("read_file", path="status.log"))

    result = run(data, script(*[advance_then_poll] * 8, reply(FINISH)))
    assert set(verdicts(result)) == {"allow"}
    assert result.record["exploration"]["termination"] == "finished"


@needs_sandbox
def test_the_same_figure_under_a_new_name_or_comment_is_the_same_figure(data: Path, run) -> None:
    plot = "import pandas as pd\nimport matplotlib.pyplot as plt\n"
    plot += "df = pd.read_csv('data/sweep.csv')\nplt.plot(df['frequency_Hz'], df['V_R'])\n"
    draws = [
        call("make_figure", code=plot, name="resonance"),
        call("make_figure", code="# again\n" + plot, name="resonance_v2", caption="Again."),
        call("make_figure", code=plot.replace("\n", "\n\n"), name="resonance_v3"),
        call("make_figure", code=plot, name="resonance_v4"),
    ]
    result = run(data, script(*(reply(d) for d in draws)))
    assert verdicts(result) == ["allow", "warn", "block", "halt"]
    assert result.record["guard"]["halt"]["reason"] == (
        "make_figure was called 4 times with identical arguments"
    )
    assert not (result.out / "figures" / "resonance_v3.png").exists()  # refused: never drawn


# 3. a cache that is never wrong -------------------------------------------------------------


def test_a_listing_after_a_file_inside_grew_shows_its_new_size(data: Path, run) -> None:
    def grow_then_list(messages):
        (data / "sweep.csv").write_text("frequency_Hz,V_R\n" + "1000,0.10\n" * 500)
        return reply(call("list_dir"))

    result = run(data, script(reply(call("list_dir")), grow_then_list, reply(FINISH)))
    first, second = (m["content"] for m in tool_messages(result)[:2])
    assert "sweep.csv  (417 B)" in first
    assert "sweep.csv  (4.9 KB)" in second
    assert verdicts(result) == ["allow", "allow", "allow"]


# 4. progress between re-reads -------------------------------------------------------------


def test_an_occasional_re_read_between_productive_calls_is_answered_not_refused(
    tmp_path: Path, run
) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "notes.md").write_text("Resonance near 5 kHz.\n")
    for n in range(15):
        (folder / f"run_{n:02d}.csv").write_text(f"t,v\n{n},{n * n}\n")
    work = [reply(call("read_file", path=f"run_{n:02d}.csv")) for n in range(15)]
    notes = reply(call("read_file", path="notes.md"))
    steps = [notes, *work[:4], notes, *work[4:8], notes, *work[8:12], notes, *work[12:], FINISH]
    replies = [step if not isinstance(step, dict) else reply(step) for step in steps]
    result = run(folder, script(*replies), max_tool_iters=25)
    assert set(verdicts(result)) == {"allow"}
    assert (result.record["guard"]["warned"], result.record["guard"]["blocked"]) == (0, 0)
    re_reads = [
        e for e in events(result) if e["event"] == "tool" and e["args"] == {"path": "notes.md"}
    ]
    assert [e["cached"] for e in re_reads] == [False, True, True, True]
    assert result.record["exploration"]["termination"] == "finished"


def test_a_file_re_read_after_every_single_step_still_halts(tmp_path: Path, run) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "notes.md").write_text("Resonance near 5 kHz.\n")
    for n in range(15):
        (folder / f"run_{n:02d}.csv").write_text(f"t,v\n{n},{n * n}\n")
    notes = reply(call("read_file", path="notes.md"))
    replies = [
        r for n in range(15) for r in (notes, reply(call("read_file", path=f"run_{n:02d}.csv")))
    ]
    result = run(folder, script(*replies), max_tool_iters=25)
    halt = result.record["guard"]["halt"]
    assert halt["reason"] == "read_file was called 5 times with identical arguments"
    assert halt["args"] == {"path": "notes.md"}
    assert len(result.record["stages"]) and result.record["model_calls"]["explore"] == 9


# 5. failures that repeat, and failures that change ---------------------------------------------

DEBUGGING = [
    "plt.plot(xs, ys)",
    "import pandas as pd\ndf = pd.read_csv('data/sweep.csv')\ndf['V_R (V)']",
    "import matplotlib.pyplot as plt\nplt.plot([1, 2], [3, '4'] + 1)",
    "x = 1 / 0",
    "import matplotlib.pyplot as plt\nplt.gca().plott([1], [2])",
]
WORKING = (
    "import pandas as pd\nimport matplotlib.pyplot as plt\n"
    "df = pd.read_csv('data/sweep.csv')\nplt.plot(df['frequency_Hz'], df['V_R'])\n"
    "plt.xlabel('f (Hz)')\nplt.ylabel('V_R (V)')\n"
)


@needs_sandbox
def test_debugging_a_figure_through_five_different_errors_is_not_a_collapse(
    data: Path, run
) -> None:
    attempts = [
        reply(call("make_figure", code=code, name=f"try{n}")) for n, code in enumerate(DEBUGGING)
    ]
    working = reply(call("make_figure", code=WORKING, name="resonance"))
    result = run(data, script(*attempts, working, reply(FINISH)))
    messages = tool_messages(result)
    assert [m["status"] for m in messages] == ["error"] * 5 + ["success", "success"]
    assert messages[5]["content"].startswith("figure saved: figures/resonance.png")
    assert result.record["guard"]["halted"] is False
    assert result.record["exploration"]["termination"] == "finished"


def test_calls_on_ever_changing_missing_paths_halt_as_one_failure(data: Path, run) -> None:
    asks = [reply(call("read_file", path=f"data/run_{n}.xlsx")) for n in range(10)]
    result = run(data, script(*asks))
    halt = result.record["guard"]["halt"]
    assert halt["termination"] == "tool_failures"
    assert halt["reason"] == "5 tool calls in a row failed the same way"
    assert result.record["model_calls"]["explore"] == 5


def test_failures_that_change_kind_do_not_make_a_streak(data: Path, run) -> None:
    asks = [
        reply(call("read_file", path="missing.csv")),
        reply(call("read_file", path="notes.md", offset=50)),
        reply(call("list_dir", path="notes.md")),
        reply(call("read_file", path="notes.md", offset="x")),
        reply(call("read_image", path="notes.md")),
        reply(call("read_file", path=".")),
        reply(FINISH),
    ]
    result = run(data, script(*asks))
    assert [m["status"] for m in tool_messages(result)] == ["error"] * 6 + ["success"]
    assert result.record["exploration"]["termination"] == "finished"
    assert not any("failed the same way" in m["content"] for m in tool_messages(result))


def test_a_bad_call_and_a_path_outside_taking_turns_halt(data: Path, run) -> None:
    # SWE-agent: format errors and blocked commands share one budget (tests/test_agent.py).
    bad = {"name": "read_file", "args": '{"path": "notes.md', "id": None, "error": "bad JSON"}
    outside = [reply(call("read_file", path=f"../../etc/passwd-{n}")) for n in range(10)]
    turns = [
        item for pair in zip([reply(invalid=[bad])] * 10, outside, strict=True) for item in pair
    ]
    result = run(data, script(*turns))
    assert verdicts(result) == ["allow", "allow", "allow", "warn", "block", "halt"]
    assert result.record["exploration"]["termination"] == "no_progress"
    assert result.record["model_calls"]["explore"] == 6


def test_three_kinds_of_failure_in_rotation_halt_long_before_the_budget(data: Path, run) -> None:
    # hermes-agent #1488: a missing file, an image that is a CSV, a listing of a file.
    (data / "sub").mkdir()
    rotation = [
        lambda n: call("read_file", path=f"data/missing-{n}.csv"),
        lambda n: call("read_image", path="sweep.csv" if n % 2 else "params.ini"),
        lambda n: call("list_dir", path="notes.md" if n % 2 else "sub/../notes.md"),
    ]
    result = run(data, script(*(reply(rotation[n % 3](n)) for n in range(20))))
    assert verdicts(result) == ["allow", "allow", "allow", "allow", "warn", "block", "halt"]
    assert result.record["model_calls"]["explore"] == 7


def test_guessed_folder_names_fail_as_one_failure(data: Path, run) -> None:
    # qwen-code #2661 and atomic-agents #81: bare names are paths too.
    guesses = ["server/systems", "system", "src/systems", "sys", "srv", "lib", "bin"]
    result = run(data, script(*(reply(call("list_dir", path=g)) for g in guesses)))
    assert verdicts(result)[:4] == ["allow", "allow", "warn", "block"]
    assert result.record["exploration"]["termination"] == "tool_failures"
    assert result.record["model_calls"]["explore"] == 5


def test_a_file_spelled_by_case_is_refused_as_early_as_identical_calls(data: Path, run) -> None:
    # Claude Code #59362, opencode #20354: one file, letter case and blanks aside.
    spellings = ["notes.md", "Notes.md", "notes.md ", "./NOTES.md", "notes.MD"]
    result = run(data, script(*(reply(call("read_file", path=p)) for p in spellings * 2)))
    # as five identical calls (test_one_file_under_five_spellings_climbs_one_ladder)
    assert verdicts(result) == ["allow", "allow", "warn", "block", "halt"]
    assert all("Resonance near 5 kHz" in m["content"] for m in tool_messages(result)[:3])


@needs_sandbox
def test_a_costly_figure_is_refused_before_it_runs_once_it_adds_nothing(
    data: Path, run, tmp_path: Path
) -> None:
    # prflow #1923: the same costly run again; here its code changes, its error does not.
    asks = [
        reply(call("make_figure", code=f"import matplotlib.pyplot as plt\nplt.plot(x{n})\n",
                   name=f"try{n}"))
        for n in range(8)
    ]  # fmt: skip
    result = run(data, script(*asks))
    contents = [m["content"] for m in tool_messages(result)]
    assert [c.split(":")[0] for c in contents[:3]] == ["Error"] * 3
    assert "NameError" in contents[2]
    assert contents[3].startswith("Not executed: your last 2 calls added nothing")
    assert result.record["exploration"]["termination"] in ("no_progress", "tool_failures")
    assert not list((tmp_path / "out").glob("figures/try*.png"))


@needs_sandbox
def test_a_figure_drawn_again_is_judged_by_its_picture_not_its_new_name(
    data: Path, run, tmp_path: Path
) -> None:
    # issue 27: the same figure asked 8 times, its code changed only by a comment and an
    # unused constant; each run saved it under a new free name (plot-2.png, plot-3.png),
    # which read as news, so it ran 5 times (each about 20 s when the figure is slow)
    code = (
        "import matplotlib.pyplot as plt\nimport pandas as pd\n"
        "df = pd.read_csv('data/sweep.csv')\nplt.plot(df['frequency_Hz'], df['V_R'])\n"
    )
    asks = [
        reply(call("make_figure", code=f"# try {n}\nSLOW_{n} = {n}\n" + code, name="plot"))
        for n in range(8)
    ]  # fmt: skip
    result = run(data, script(*asks))
    drawn = sorted((tmp_path / "out").glob("figures/plot*.png"))
    assert 1 <= len(drawn) <= 2, drawn  # the first, and at most one more before it is seen
    contents = [m["content"] for m in tool_messages(result)]
    assert any(c.startswith("Not executed") for c in contents), contents


# 6. a resumed attempt gets its warning ------------------------------------------------------


def test_after_a_nudge_the_next_collapse_is_warned_before_it_is_refused(
    data: Path, tmp_path: Path, writer
) -> None:
    same = reply(call("list_dir"))
    explorer = ScriptedChatModel(replies=[same] * 20, by_turn=True)
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t-again", context=context)
    assert first.record["status"] == "halted"
    second = resume_thread("t-again", nudge="Read sweep.csv instead.", models=models)
    assert second.record["status"] == "halted"
    after = [e["guard"] for e in events(second) if e["event"] == "tool"][5:]
    assert after == ["allow", "allow", "warn", "block", "halt"]
    assert second.record["guard"]["warned"] == 2


# 7. replies with no action -------------------------------------------------------------------


def test_three_empty_replies_in_a_row_halt_exploration(data: Path, run) -> None:
    result = run(data, script(reply(call("list_dir")), reply(content="")))
    assert result.record["model_calls"]["explore"] == 4
    halt = result.record["guard"]["halt"]
    assert halt["termination"] == "empty_replies"
    assert halt["kind"] == "collapse"
    assert halt["reason"] == "3 replies in a row had neither text nor a tool call"
    assert result.record["status"] == "completed"  # on_collapse="draft"


def test_empty_replies_that_are_not_in_a_row_never_halt(data: Path, run) -> None:
    empty = reply(content="")
    reads = [reply(call("read_file", path=p)) for p in ("notes.md", "params.ini", "sweep.csv")]
    result = run(
        data, script(empty, empty, reads[0], empty, empty, reads[1], empty, reads[2], reply(FINISH))
    )
    assert result.record["guard"]["halted"] is False
    assert result.record["exploration"]["termination"] == "finished"


def test_empty_replies_under_on_collapse_ask_pause_for_a_human(data: Path, run) -> None:
    result = run(data, script(reply(content="")), on_collapse="ask")
    assert result.record["status"] == "halted"
    assert result.record["guard"]["halt"]["termination"] == "empty_replies"


# 8. a tool's class is its own ------------------------------------------------------------------


def test_re_classing_a_tool_leaves_the_terminal_tool_uncounted(data: Path, run) -> None:
    result = run(
        data,
        script(reply(FINISH)),
        ladder={"tool_classes": {"make_figure": "read-only", "list_dir": "mutating"}},
    )
    assert result.record["exploration"]["termination"] == "finished"


def test_a_configuration_that_would_count_the_terminal_tool_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot re-class finish_exploration"):
        Context(ladder={"tool_classes": {"finish_exploration": "read-only"}})
