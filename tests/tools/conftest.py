"""Fixtures of the sandbox's tests (tests/tools/sandbox/test_sandbox*.py): a warm figure
worker per module, and a data folder beside a secret outside it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_cases import IN_CI

from labscribe.tools.sandbox.figure_output import SandboxUnavailable
from labscribe.tools.sandbox.figure_sandbox import FigureWorker


@pytest.fixture(scope="module")
def worker() -> Iterator[FigureWorker]:
    with FigureWorker() as warm:
        try:
            warm.start()
        except SandboxUnavailable as exc:
            if IN_CI:
                raise
            pytest.skip(f"this host cannot build the sandbox: {exc}")
        yield warm


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "run1.csv").write_text("t,u\n0,1\n1,2\n")
    (tmp_path / "secret.txt").write_text("TOP-SECRET-OUTSIDE-DATA")
    return data, tmp_path / "out"
