"""Runs without OUT (the LangGraph server's) keep their figures in a folder of the user's
own: never a shared one another user made first, which could refuse them or plant figures."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from asuser import NOBODY, as_normal_user

from labscribe.nodes.runtime.state import figures_dir, private_scratch

SCRATCH = (
    "import json; from labscribe.nodes.runtime.state import figures_dir, private_scratch; "
    "figures = figures_dir({'folder': '/data/lab-4'}); figures.mkdir(parents=True); "
    "(figures / 'probe.png').write_text('mine'); "
    "base = private_scratch(); info = base.lstat(); "
    "print(json.dumps([str(base), info.st_uid, oct(info.st_mode & 0o777)]))"
)


@pytest.fixture
def shared_tmp(user_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temp folder every user shares, as /tmp is, and a cache of the user's own."""
    tmp = user_dir / "tmp"
    tmp.mkdir()
    tmp.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setenv("XDG_CACHE_HOME", str(user_dir / "cache"))
    return tmp


def test_a_normal_user_gets_a_private_folder_of_its_own(shared_tmp: Path, user_dir: Path):
    (shared_tmp / "labscribe-figures").mkdir(mode=0o755)  # what root's runs used to make
    done = as_normal_user(SCRATCH)
    assert done.returncode == 0, done.stderr
    base, owner, mode = json.loads(done.stdout)
    assert base == str(shared_tmp / f"labscribe-{NOBODY if os.geteuid() == 0 else os.geteuid()}")
    assert owner != 0 and mode == "0o700"


def test_a_folder_another_user_planted_in_the_shared_tmp_is_passed_by(
    shared_tmp: Path, user_dir: Path
):
    if os.geteuid() != 0:
        pytest.skip("planting a folder under another user's name needs root (CI runs as root)")
    planted = shared_tmp / f"labscribe-{NOBODY}"
    planted.mkdir(mode=0o777)  # root's, and anyone may write into it
    planted.chmod(0o777)
    (user_dir / "cache").mkdir(mode=0o755)
    done = as_normal_user(SCRATCH, owns=[user_dir / "cache"])
    assert done.returncode == 0, done.stderr
    base, owner, mode = json.loads(done.stdout)
    assert base == str(user_dir / "cache" / "labscribe" / "scratch")
    assert owner == NOBODY and mode == "0o700"
    assert not list(planted.iterdir())


def test_a_writable_by_others_scratch_of_ones_own_is_refused_too(shared_tmp: Path):
    mine = shared_tmp / f"labscribe-{os.getuid()}"
    mine.mkdir()
    mine.chmod(0o777)
    assert private_scratch() != mine
    assert stat.S_IMODE(private_scratch().stat().st_mode) == 0o700


def test_a_run_without_out_keeps_its_figures_in_the_scratch(shared_tmp: Path):
    folder = figures_dir({"folder": "/data/lab-4"})
    assert folder.parent.parent == private_scratch()
    assert figures_dir({"folder": "/data/lab-4", "out": "/o"}) == Path("/o/figures")
