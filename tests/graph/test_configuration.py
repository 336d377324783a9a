"""One source for every setting (the runtime context), settings checked on every command,
nudges that cannot be used said so, endpoint halts in the thread's state, and event times."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from clirun import endpoint_flags, labscribe, read_events, read_record
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import Fail, ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph import Context, Models
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import BadInput, run_folder

FINISH = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])
LOOP = reply(call("list_dir"))


def halted_thread(data: Path, tmp_path: Path, writer: ScriptedChatModel, **settings) -> Models:
    """A thread `t` whose explorer collapsed under on_collapse="ask": paused for a human."""
    explorer = ScriptedChatModel(replies=[LOOP] * 5 + [reply(FINISH)], by_turn=True)
    models = Models(explore=explorer, write=writer)
    settings = {"on_collapse": "ask", "compile": False, "figures": False} | settings
    context = Context(models=models, **settings)
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert first.record["status"] == "halted"
    return models


# 21. routers read the runtime context, as the nodes do -----------------------------------


@pytest.mark.parametrize("before, after", [(2, 1), (1, 3)])
def test_a_resume_with_other_reflect_rounds_recomputes_the_plan(
    data: Path, tmp_path: Path, before: int, after: int
) -> None:
    writer = ScriptedChatModel(replies=[reply(content=latex(f"Version {n}.")) for n in range(12)])
    models = halted_thread(data, tmp_path, writer, reflect=before)
    second = resume_thread("t", nudge="finish now", models=models, settings={"reflect": after})
    assert second.record["status"] == "completed"
    assert second.record["plan"].count("reflect") == after
    assert second.record["stages"].count("reflect") == after
    assert second.record["options"]["reflect"] == after
    assert len(writer.requests) == 1 + 2 * after  # the draft, then a critique and a revision each


def test_an_on_collapse_given_on_resume_is_the_one_the_router_follows(
    data: Path, tmp_path: Path, writer
) -> None:
    explorer = ScriptedChatModel(replies=[LOOP] * 20, by_turn=True)
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    assert (
        run_folder(data, out=tmp_path / "out", thread_id="t2", context=context).record["status"]
        == "halted"
    )
    second = resume_thread("t2", nudge="one more look", models=models,
                           settings={"on_collapse": "draft"})  # fmt: skip
    assert second.record["status"] == "completed"  # the second collapse drafted
    assert second.record["exploration"]["termination"] == "repeated_call"


# 22. invalid settings on every command -------------------------------------------------------


@pytest.mark.parametrize(
    "flags",
    [["--context-tokens", "0"], ["--max-tool-iters", "0"], ["--reflect", "-1"]],
)
def test_an_invalid_setting_is_exit_2_with_a_message_on_run_and_resume(
    data: Path, tmp_path: Path, flags: list[str]
) -> None:
    db = str(tmp_path / "db.sqlite")
    with ScriptedEndpoint({"explorer": [tool_reply(("finish_exploration", {"experiment": "x",
                          "goal": "y", "key_findings": ["z"]}))], "writer": [text_reply(
                          latex())]}) as server:  # fmt: skip
        done = labscribe("run", str(data), "--out", str(tmp_path / "o"), "--thread", "t",
                         "--db", db, *endpoint_flags(server))  # fmt: skip
        assert done.returncode == 0, done.stderr
        bad_run = labscribe("run", str(data), "--db", db, *endpoint_flags(server), *flags)
    assert bad_run.returncode == 2 and "Traceback" not in bad_run.stderr
    assert "must be" in bad_run.stderr
    if flags[0] == "--context-tokens":
        bad_resume = labscribe("resume", "t", "--db", db, *flags)
        assert bad_resume.returncode == 2, bad_resume.stderr
        assert "--context-tokens='0' cannot be used" in bad_resume.stderr
        assert "Traceback" not in bad_resume.stderr


def test_the_cli_defaults_are_the_context_defaults(data: Path, tmp_path: Path) -> None:
    with ScriptedEndpoint({"explorer": [tool_reply(("finish_exploration", {"experiment": "x",
                          "goal": "y", "key_findings": ["z"]}))], "writer": [text_reply(
                          latex())] * 9}) as server:  # fmt: skip
        flags = [f for f in endpoint_flags(server) if f not in ("--reflect", "0")]
        done = labscribe("run", str(data), "--out", str(tmp_path / "o"),
                         "--db", str(tmp_path / "db.sqlite"), *flags)  # fmt: skip
    assert done.returncode == 0, done.stderr
    plan = read_record(tmp_path / "o")["plan"]
    assert plan.count("reflect") == Context().reflect
    assert labscribe("run", "--help").stdout.count(f"({Context().max_tool_iters})") == 1


# 23. a nudge no explorer will read --------------------------------------------------------------


def test_a_nudge_past_exploration_is_said_to_be_unused_and_the_run_resumes(
    data: Path, tmp_path: Path
) -> None:
    fails = iter([True])

    def writer_that_crashes_once(messages):
        if next(fails, False):
            raise RuntimeError("a bug while drafting")
        return reply(content=latex("After the crash."))

    writer = ScriptedChatModel(replies=[writer_that_crashes_once] * 4)
    explorer = ScriptedChatModel(replies=[reply(FINISH)])
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t3", context=context)
    assert first.record["status"] == "failed"
    events: list[dict] = []
    second = resume_thread("t3", nudge="look at the notes", models=models, on_event=events.append)
    assert second.record["status"] == "completed"
    notices = [e["detail"] for e in events if e["event"] == "notice"]
    assert notices == [
        "the thread is past exploration (next: draft), so no explorer will read the nudge; "
        "resuming without it"
    ]


# 24. an endpoint's halt is in the thread's state ------------------------------------------------


def test_an_authentication_halt_is_in_the_checkpoint_for_status(data: Path, tmp_path: Path) -> None:
    db, out = str(tmp_path / "db.sqlite"), tmp_path / "out"
    revoked = Fail(401, times=99, then=tool_reply(("finish_exploration", {"experiment": "x",
                   "goal": "y", "key_findings": ["z"]})))  # fmt: skip
    with ScriptedEndpoint({"explorer": [revoked], "writer": [text_reply(latex())]}) as server:
        done = labscribe("run", str(data), "--out", str(out), "--thread", "t4", "--db", db,
                         *endpoint_flags(server))  # fmt: skip
    assert done.returncode == 3, done.stderr
    status = json.loads(labscribe("status", "t4", "--db", db).stdout)
    assert status["state"] == "interrupted"
    assert status["guard"]["halt"]["termination"] == "authentication"
    assert status["guard"]["halt"]["kind"] == "infrastructure"
    assert read_record(out)["guard"]["halt"]["termination"] == "authentication"


def test_a_resume_with_a_bad_setting_on_the_python_api_is_bad_input(
    data: Path, tmp_path: Path, writer
) -> None:
    halted_thread(data, tmp_path, writer, reflect=0)
    with pytest.raises(BadInput, match="context_tokens=0 cannot be used"):
        resume_thread("t", settings={"context_tokens": 0})


# 25. every event carries its time -----------------------------------------------------------


def test_every_event_carries_an_iso_time_and_the_seconds_since_the_run_started(
    data: Path, run
) -> None:
    result = run(data, ScriptedChatModel(replies=[reply(call("list_dir")), reply(FINISH)]))
    events = read_events(result.out)
    assert {e["event"] for e in events} >= {"milestone", "tool", "end"}
    times = [datetime.fromisoformat(e["time"]) for e in events]
    assert all(t.tzinfo is not None for t in times)
    elapsed = [e["elapsed"] for e in events]
    assert all(isinstance(x, float | int) and x >= 0 for x in elapsed)
    assert times == sorted(times)


# 26. settings resolved once, recorded, and applied coherently on a resume ----------------------


def test_compile_switched_off_on_resume_makes_no_pdf(data: Path, tmp_path: Path, writer) -> None:
    models = halted_thread(data, tmp_path, writer, reflect=0, compile=True)
    done = resume_thread("t", nudge="finish now", models=models, settings={"compile": False})
    assert done.record["compile"] == {"status": "skipped", "reason": "compiling was switched off"}
    assert "compile" not in done.record["plan"]
    assert not (tmp_path / "out" / "report.pdf").exists()


def test_the_thread_records_its_endpoint_and_a_resume_in_another_shell_keeps_it(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, out = str(tmp_path / "db.sqlite"), tmp_path / "out"
    loop = tool_reply(("list_dir", {}))
    finish = tool_reply(("finish_exploration", {"experiment": "x", "goal": "y",
                                                "key_findings": ["z"]}))  # fmt: skip
    first_scripts = {"explorer": [loop] * 5 + [finish], "writer": [text_reply(latex())]}
    with (
        ScriptedEndpoint(first_scripts) as recorded,
        ScriptedEndpoint({"explorer": [finish], "writer": [text_reply(latex())]}) as elsewhere,
    ):
        for name in ("LABSCRIBE_EXPLORE_MODEL", "LABSCRIBE_WRITE_MODEL", "DEEPSEEK_API_KEY"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LABSCRIBE_REQUEST_TIMEOUT", "7")
        flags = [*endpoint_flags(recorded, key="s3cret-key"), "--on-collapse", "ask"]
        done = labscribe("run", str(data), "--out", str(out), "--thread", "t", "--db", db, *flags)
        assert done.returncode == 3, done.stderr
        options = read_record(out)["options"]
        assert options["base_url"] == recorded.url
        assert (options["explore_model"], options["write_model"]) == ("explorer", "writer")
        assert (options["request_timeout"], options["max_retries"]) == (7.0, 2)
        # another shell: another endpoint named in the environment, the key in it too
        monkeypatch.setenv("LABSCRIBE_BASE_URL", elsewhere.url)
        monkeypatch.setenv("LABSCRIBE_EXPLORE_MODEL", "explorer")
        monkeypatch.setenv("LABSCRIBE_API_KEY", "s3cret-key")
        monkeypatch.setenv("LABSCRIBE_REQUEST_TIMEOUT", "99")
        again = labscribe("resume", "t", "--db", db, "--nudge", "finish now")
        assert again.returncode == 0, again.stderr
        assert elsewhere.requests == []
        assert recorded.calls_to("writer") == 1
        assert read_record(out)["options"]["request_timeout"] == 7.0
    for written in [Path(db), *out.iterdir()]:
        if written.is_file():
            assert b"s3cret-key" not in written.read_bytes(), written


def test_a_new_endpoint_on_resume_takes_the_old_endpoints_models_with_it() -> None:
    recorded = {"base_url": "https://old.example/v1", "explore_model": "old-small",
                "write_model": "old-big", "request_timeout": 5.0}  # fmt: skip
    moved = Context.from_options(recorded, base_url="http://127.0.0.1:1/v1", explore_model="m")
    assert (moved.explore_model, moved.write_model) == ("m", "m")
    assert moved.request_timeout != 5.0
    kept = Context.from_options(recorded, write_model="other")
    assert (kept.base_url, kept.explore_model, kept.write_model) == (
        "https://old.example/v1",
        "old-small",
        "other",
    )
