from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scripted import ScriptedChatModel, latex, reply

from labscribe.graph.context import Context
from labscribe.graph.models import Models
from labscribe.graph.runner import RunResult, run_folder

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "rlc-resonance"


@pytest.fixture(autouse=True)
def _no_endpoint_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never reach a real endpoint by accident, and keep their threads to themselves."""
    for name in (
        "DEEPSEEK_API_KEY",
        "LABSCRIBE_BASE_URL",
        "LABSCRIBE_API_KEY",
        "LABSCRIBE_EXPLORE_MODEL",
        "LABSCRIBE_WRITE_MODEL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LABSCRIBE_DB", str(tmp_path / "checkpoints.sqlite"))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A small experiment folder: a CSV, notes, a parameter file."""
    folder = tmp_path / "data"
    folder.mkdir()
    rows = "\n".join(f"{1000 + 10 * i},{0.1 * i:.2f}" for i in range(40))
    (folder / "sweep.csv").write_text(f"frequency_Hz,V_R\n{rows}\n")
    (folder / "notes.md").write_text("Resonance near 5 kHz. Quality factor about 5.\n")
    (folder / "params.ini").write_text("[circuit]\nR = 47\nL = 0.01\nC = 1e-7\n")
    return folder


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A private copy of the shipped example folder."""
    return Path(shutil.copytree(EXAMPLE, tmp_path / "rlc-resonance"))


@pytest.fixture
def writer() -> ScriptedChatModel:
    return ScriptedChatModel(replies=[reply(content=latex("A report."))])


Runner = Callable[..., RunResult]


@pytest.fixture
def run(tmp_path: Path, writer: ScriptedChatModel) -> Runner:
    """Run a folder with a scripted explorer (and the default scripted writer).

    Figures, reflect rounds and the PDF compile are off unless a test asks for them: most tests are
    about one stage, and the writing stages have tests of their own.
    """

    def _run(
        folder: Path,
        explorer: ScriptedChatModel,
        *,
        write: ScriptedChatModel | None = None,
        **settings: Any,
    ) -> RunResult:
        settings = {"reflect": 0, "compile": False, "figures": False} | settings
        context = Context(models=Models(explore=explorer, write=write or writer), **settings)
        return run_folder(folder, out=tmp_path / "out", context=context)

    return _run
