"""The graph langgraph.json exports for LangGraph Studio / `langgraph dev`."""

import json
from importlib import import_module
from pathlib import Path

from scripted import ScriptedChatModel, call, reply

from labscribe.graph import Context, Models

REPO = Path(__file__).resolve().parents[2]
SPEC_KEYS = {
    "base_url", "api_key", "explore_model", "write_model", "on_collapse",
    "max_tool_iters", "reflect", "figures", "compile",
}  # fmt: skip


def studio_graph():
    spec = json.loads((REPO / "langgraph.json").read_text())["graphs"]["labscribe"]
    path, attribute = spec.split(":")
    assert (REPO / path).exists()
    module = "labscribe." + path.removeprefix("./").removesuffix(".py").replace("/", ".")
    return getattr(import_module(module), attribute)


def test_studio_graph_is_compiled_without_a_checkpointer() -> None:
    assert studio_graph().checkpointer is None


def test_studio_graph_context_form_has_the_spec_keys_with_descriptions() -> None:
    schema = studio_graph().get_context_jsonschema()["properties"]
    assert set(schema) >= SPEC_KEYS
    assert all(schema[key].get("description") for key in SPEC_KEYS)
    assert schema["on_collapse"]["enum"] == ["draft", "ask"]
    assert "models" not in schema  # in-process objects have no place in a form


def test_studio_graph_input_is_a_folder_and_optional_out() -> None:
    schema = studio_graph().get_input_jsonschema()
    assert set(schema["properties"]) == {"folder", "out"}
    assert schema["required"] == ["folder"]


def test_studio_graph_runs_a_folder_from_its_input(data: Path, writer) -> None:
    finish = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["5 kHz"])
    explorer = ScriptedChatModel(replies=[reply(finish)])
    values = studio_graph().invoke(
        {"folder": str(data)},
        context=Context(
            models=Models(explore=explorer, write=writer), reflect=0, compile=False, figures=False
        ),
    )
    assert values["report"].startswith("\\documentclass")
    assert values["plan"] == ["scan", "explore", "gap", "draft", "bib"]
    assert values["stages"] == ["scan", "explore", "draft", "bib"]
