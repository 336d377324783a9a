"""Settings are read and checked once (nodes/runtime/settings.py): every variable SPEC
section 6 names is read, and a value that cannot be used is exit 2 naming the variable, the
flag or the Context field it came from, before anything is written or any endpoint is
asked."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from asuser import as_normal_user
from clirun import labscribe, read_record
from scripted import ScriptedChatModel, call, latex, reply
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.graph import Context, Models
from labscribe.graph.resume import resume_thread
from labscribe.graph.runner import run_folder
from labscribe.nodes.runtime.models import context_window
from labscribe.nodes.runtime.settings import (
    SETTING,
    SETTINGS,
    ConfigError,
    checkpoint_db,
    environment,
)

REPO = Path(__file__).resolve().parents[2]
FINISH = ("finish_exploration", {"experiment": "x", "goal": "y", "key_findings": ["z"]})
RUN_FLAGS = ["--reflect", "0", "--no-compile", "--no-figures"]

BAD = {
    "LABSCRIBE_REQUEST_TIMEOUT": ["abc", "-5", "0", "inf", "nan", "1e400"],
    "LABSCRIBE_REPLY_DEADLINE": ["soon", "-1", "0", "inf", "nan"],
    "LABSCRIBE_MAX_RETRIES": ["-1", "2.5", "11", "many"],
    "LABSCRIBE_CONTEXT_TOKENS": ["0", "1023", "10000001", "20000.5", "32k"],
    "LABSCRIBE_BASE_URL": ["not a url", "ftp://x", "http://", "localhost:8000/v1"],
}
BAD_PAIRS = [(variable, value) for variable, values in BAD.items() for value in values]


def setting_of(variable: str):
    return next(setting for setting in SETTINGS if setting.variable == variable)


@pytest.mark.parametrize("variable, value", BAD_PAIRS)
def test_environment_refuses_a_bad_value_naming_the_variable_and_what_it_accepts(
    variable: str, value: str
) -> None:
    accepts = setting_of(variable).accepts.sentence
    with pytest.raises(ConfigError) as refused:
        environment({variable: value})
    assert str(refused.value) == f"{variable}={value!r} cannot be used: it must be {accepts}"


@pytest.mark.parametrize(
    "variable, value, taken",
    [
        ("LABSCRIBE_REQUEST_TIMEOUT", "7", 7.0),
        ("LABSCRIBE_REPLY_DEADLINE", "0.5", 0.5),
        ("LABSCRIBE_MAX_RETRIES", "0", 0),
        ("LABSCRIBE_CONTEXT_TOKENS", "20000", 20_000),
        ("LABSCRIBE_BASE_URL", "http://localhost:11434/v1", "http://localhost:11434/v1"),
        ("LABSCRIBE_BASE_URL", "embedded", "embedded"),  # what an embedded thread records
    ],
)
def test_environment_takes_a_good_value_typed(variable: str, value: str, taken: object) -> None:
    assert environment({variable: value}) == {setting_of(variable).name: taken}


@pytest.mark.parametrize(
    "where, existing, why",
    [
        ("a folder", False, "it is a folder"),
        ("a folder", True, "it is a folder"),
        ("in a missing folder", False, "its folder {folder!r} does not exist"),
        ("below a file", False, "its folder {folder!r} is not a folder"),
    ],
)
def test_a_database_path_that_cannot_serve_is_refused_naming_its_source(
    tmp_path: Path, where: str, existing: bool, why: str
) -> None:
    (tmp_path / "file").write_text("")
    path = {"a folder": tmp_path, "in a missing folder": tmp_path / "no" / "db.sqlite",
            "below a file": tmp_path / "file" / "db.sqlite"}[where]  # fmt: skip
    why = why.format(folder=str(path.parent))
    for given, env, source in (
        (path, {}, "--db"),
        (None, {"LABSCRIBE_DB": str(path)}, "LABSCRIBE_DB"),
    ):
        # the value may be cut (SHOWN_CHARS): a long temporary path is, on some machines
        said = f"^{re.escape(source)}='.+ cannot be used {re.escape(f'({why})')}"
        with pytest.raises(ConfigError, match=said):
            checkpoint_db(given, existing=existing, env=env)


def test_a_database_path_that_can_serve_is_taken_as_given(tmp_path: Path) -> None:
    url = "postgresql://user@host/db"
    assert checkpoint_db(url, existing=False, env={}) == url
    assert checkpoint_db(None, existing=False, env={"LABSCRIBE_DB": url}) == url
    new = str(tmp_path / "db.sqlite")
    assert checkpoint_db(new, existing=False, env={}) == new
    assert not Path(new).exists()  # checked, not made


@pytest.mark.parametrize(
    "field, value",
    [
        ("request_timeout", -1),
        ("request_timeout", math.inf),
        ("reply_deadline", 0),
        ("reply_deadline", math.nan),
        ("max_retries", 2.5),
        ("max_retries", -1),
        ("context_tokens", 0),
        ("base_url", "ftp://x"),
        ("tool_timeout", math.inf),
        ("tool_timeout", -1),
    ],
)
def test_context_refuses_a_bad_value_naming_the_field(field: str, value: object) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(f'{field}={value!r} cannot be used')}"):
        Context(**{field: value})


def test_a_refused_value_is_shown_escaped_and_cut() -> None:
    value = "http://\x1b[31m" + "x" * 10_000
    with pytest.raises(ConfigError) as refused:
        environment({"LABSCRIBE_BASE_URL": value})
    message = str(refused.value)
    assert "\x1b" not in message and "\\x1b" in message
    assert len(message) < 300


def test_context_tokens_from_the_environment_is_the_explore_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LABSCRIBE_CONTEXT_TOKENS", "20000")
    context = Context(base_url="http://127.0.0.1:1/v1", explore_model="m")
    assert context_window(context) == 20_000
    given = Context(base_url="http://127.0.0.1:1/v1", explore_model="m", context_tokens=4096)
    assert context_window(given) == 4096  # a given value beats the environment


def test_the_reply_deadline_has_its_defaults_and_the_environment_sets_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    configured = Context(base_url="http://127.0.0.1:1/v1", explore_model="m")
    assert configured.reply_deadline == 600.0
    monkeypatch.setenv("LABSCRIBE_REPLY_DEADLINE", "42.5")
    assert Context(base_url="http://127.0.0.1:1/v1", explore_model="m").reply_deadline == 42.5


def test_a_resume_keeps_the_recorded_reply_deadline_and_context_tokens(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABSCRIBE_CONTEXT_TOKENS", "20000")
    monkeypatch.setenv("LABSCRIBE_REPLY_DEADLINE", "42")
    loop = reply(call("list_dir"))
    finish = reply(call(FINISH[0], **FINISH[1]))
    explorer = ScriptedChatModel(replies=[loop] * 5 + [finish], by_turn=True)
    writer = ScriptedChatModel(replies=[reply(content=latex())])
    models = Models(explore=explorer, write=writer)
    context = Context(models=models, on_collapse="ask", reflect=0, compile=False, figures=False)
    first = run_folder(data, out=tmp_path / "out", thread_id="t", context=context)
    assert first.record["status"] == "halted"
    options = first.record["options"]
    assert (options["context_tokens"], options["reply_deadline"]) == (20_000, 42.0)
    monkeypatch.setenv("LABSCRIBE_REPLY_DEADLINE", "99")  # another shell
    second = resume_thread("t", nudge="finish now", models=models)
    assert second.record["status"] == "completed"
    assert second.record["options"]["reply_deadline"] == 42.0


def test_the_docs_list_every_setting_as_it_is_declared() -> None:
    models_md = (REPO / "docs" / "models.md").read_text()
    table = models_md.split("## Settings", 1)[1].split("\n\n")[1]
    rows = [(f"`{s.variable}`", f"`{s.flag}`" if s.flag else "", s.meaning, s.accepts.sentence,
             s.default) for s in SETTINGS]  # fmt: skip
    assert table.splitlines()[2:] == [f"| {' | '.join(cells)} |" for cells in rows]


# through the command line ---------------------------------------------------------------------


def endpoint_in_environment(monkeypatch: pytest.MonkeyPatch, server: ScriptedEndpoint) -> None:
    monkeypatch.setenv("LABSCRIBE_BASE_URL", server.url)
    monkeypatch.setenv("LABSCRIBE_EXPLORE_MODEL", "explorer")
    monkeypatch.setenv("LABSCRIBE_WRITE_MODEL", "writer")


def assert_refused(done, named: str, tmp_path: Path) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"labscribe: {named}=") and "cannot be used" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    assert not (tmp_path / "checkpoints.sqlite").exists()  # the tests' LABSCRIBE_DB


@pytest.mark.parametrize(
    "variable, value",
    [
        ("LABSCRIBE_REQUEST_TIMEOUT", "nan"),
        ("LABSCRIBE_REPLY_DEADLINE", "-5"),
        ("LABSCRIBE_MAX_RETRIES", "2.5"),
        ("LABSCRIBE_CONTEXT_TOKENS", "0"),
        ("LABSCRIBE_BASE_URL", "not a url"),
        ("LABSCRIBE_DB", "a folder"),
        ("LABSCRIBE_DB", "in a missing folder"),
    ],
)
def test_a_bad_variable_stops_a_run_with_exit_2_before_any_work(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    value = {"a folder": str(tmp_path), "in a missing folder": str(tmp_path / "no" / "db")}.get(
        value, value
    )
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": [text_reply(latex())]}) \
            as server:  # fmt: skip
        endpoint_in_environment(monkeypatch, server)
        monkeypatch.setenv(variable, value)
        done = labscribe("run", str(data), "--out", str(tmp_path / "out"), *RUN_FLAGS)
    assert_refused(done, variable, tmp_path)
    assert server.request_sizes == []  # no endpoint asked
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize(
    "command, variable, value",
    [
        (["threads"], "LABSCRIBE_MAX_RETRIES", "-1"),
        (["status", "t"], "LABSCRIBE_DB", "a folder"),
        (["history", "t"], "LABSCRIBE_REQUEST_TIMEOUT", "abc"),
        (["resume", "t"], "LABSCRIBE_BASE_URL", "http://"),
        (["batch", "DATA", "--out", "OUT"], "LABSCRIBE_CONTEXT_TOKENS", "lots"),
        (["batch", "DATA", "--out", "OUT"], "LABSCRIBE_DB", "in a missing folder"),
    ],
)
def test_a_bad_variable_is_exit_2_on_every_command(
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    variable: str,
    value: str,
) -> None:
    value = {"a folder": str(tmp_path), "in a missing folder": str(tmp_path / "no" / "db")}.get(
        value, value
    )
    monkeypatch.setenv(variable, value)
    args = [{"DATA": str(data), "OUT": str(tmp_path / "out")}.get(arg, arg) for arg in command]
    assert_refused(labscribe(*args), variable, tmp_path)


@pytest.mark.parametrize(
    "command, flags, flag",
    [
        (["run", "DATA", "--out", "OUT"], ["--base-url", "not a url"], "--base-url"),
        (["run", "DATA", "--out", "OUT"], ["--reply-deadline", "inf"], "--reply-deadline"),
        (["batch", "DATA", "--out", "OUT"], ["--context-tokens", "1e9"], "--context-tokens"),
        (["resume", "t"], ["--reply-deadline", "-1"], "--reply-deadline"),
        (["run", "DATA", "--out", "OUT"], ["--db", "DATA"], "--db"),
    ],
)
def test_a_bad_flag_is_exit_2_naming_the_flag(
    data: Path, tmp_path: Path, command: list[str], flags: list[str], flag: str
) -> None:
    names = {"DATA": str(data), "OUT": str(tmp_path / "out")}
    done = labscribe(*[names.get(arg, arg) for arg in [*command, *flags]])
    assert_refused(done, flag, tmp_path)


def test_a_batch_hands_its_runs_the_reply_deadline_and_they_record_it_with_the_window(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedEndpoint({"explorer": [tool_reply(FINISH)], "writer": [text_reply(latex())]}) \
            as server:  # fmt: skip
        endpoint_in_environment(monkeypatch, server)
        monkeypatch.setenv("LABSCRIBE_CONTEXT_TOKENS", "20000")
        done = labscribe("batch", str(data), "--out", str(tmp_path / "out"), *RUN_FLAGS,
                         "--reply-deadline", "45")  # fmt: skip
    assert done.returncode == 0, done.stderr
    [entry] = json.loads((tmp_path / "out" / "batch.json").read_text())["entries"]
    options = read_record(Path(entry["out"]))["options"]
    assert (options["context_tokens"], options["reply_deadline"]) == (20_000, 45.0)


def test_a_database_in_a_folder_a_normal_user_cannot_write_is_exit_2(user_dir: Path) -> None:
    data, locked = user_dir / "data", user_dir / "locked"
    data.mkdir()
    (data / "notes.md").write_text("Resonance near 5 kHz.\n")
    locked.mkdir()
    locked.chmod(0o555)
    code = (
        "import os, sys\n"
        f"os.environ[{SETTING['db'].variable!r}] = {str(locked / 'db.sqlite')!r}\n"
        "from labscribe.graph.cli import main\n"
        f"sys.exit(main(['run', {str(data)!r}, '--out', {str(user_dir / 'out')!r},"
        " '--no-model']))\n"
    )
    done = as_normal_user(code, owns=[user_dir])
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("labscribe: LABSCRIBE_DB=")
    assert f"(its folder {str(locked)!r} is not writable)" in done.stderr
    assert not (user_dir / "out").exists()
    assert list(locked.iterdir()) == []
