from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_dev import LANGGRAPH, LanggraphDev
from scripted import ScriptedChatModel, latex, reply

from labscribe.graph.runner import RunResult, run_folder
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.models import Models
from labscribe.nodes.runtime.settings import ENVIRONMENT, SETTING

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "rlc-resonance"


def pytest_configure(config: pytest.Config) -> None:
    """Each xdist worker on a core of its own: the embedded model's llama.cpp threads spin
    while they wait on each other, and two workers sharing two cores made its tests run
    several times slower (448 s instead of 136 s for the end-to-end test). The model takes
    its thread count from the cores it may use (nodes/runtime/local_server.py)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cores = sorted(os.sched_getaffinity(0))
    if worker.startswith("gw") and len(cores) > 1:
        os.sched_setaffinity(0, {cores[int(worker[2:]) % len(cores)]})


@pytest.fixture(autouse=True)
def _no_endpoint_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never reach a real endpoint by accident, and keep their threads to themselves."""
    for name in [SETTING["deepseek_key"].variable, *ENVIRONMENT.values()]:
        if name != ENVIRONMENT["gguf"]:  # the embedded model's tests serve the one installed
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
def user_dir() -> Iterator[Path]:
    """A folder a normal user can reach (pytest's own tmp_path is private to root), for the
    tests that run code as a normal user (`asuser.as_normal_user`)."""
    folder = Path(tempfile.mkdtemp(prefix="labscribe-user-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


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
        db: str | None = None,
        **settings: Any,
    ) -> RunResult:
        settings = {"reflect": 0, "compile": False, "figures": False} | settings
        context = Context(models=Models(explore=explorer, write=write or writer), **settings)
        return run_folder(folder, out=tmp_path / "out", context=context, db=db)

    return _run


@pytest.fixture(scope="session")
def langgraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LanggraphDev]:
    """One real `langgraph dev` for the session (one per xdist worker), offline, with its
    state in a folder of its own. Tests that restart or lose a server start their own."""
    if os.environ.get("CI") is None and not LANGGRAPH.exists():
        pytest.skip("langgraph-cli is not installed here (.ci/setup --test installs it)")
    served = LanggraphDev(tmp_path_factory.mktemp("langgraph-dev"))
    served.start()
    yield served
    served.stop()


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The PostgreSQL server `.ci/postgres` starts: a URL whose role may create databases."""
    url = os.environ.get("LABSCRIBE_TEST_POSTGRES")
    if not url:
        if os.environ.get("CI"):
            pytest.fail("LABSCRIBE_TEST_POSTGRES is not set: .ci/run starts PostgreSQL and sets it")
        pytest.skip("no PostgreSQL here: run `export LABSCRIBE_TEST_POSTGRES=$(bash .ci/postgres)`")
    return url


@pytest.fixture
def postgres_db(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the test server, dropped afterwards."""
    import psycopg

    name = f"labscribe_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield postgres_server.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each checkpoint backend in turn: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "threads.sqlite")
    return request.getfixturevalue("postgres_db")
