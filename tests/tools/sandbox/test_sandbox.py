"""The figure sandbox: valid figures render, and a host that cannot build it says why.

Every escape fails at the OS layer on its own (test_sandbox_escapes.py: files, names, the
network; test_sandbox_bombs.py: resources, processes, the kernel): those tests run with
`check_policy=False`, so they prove the OS boundary, not the AST check, and each asserts that
the policy would have refused the same code first. The sandbox is built from user
namespaces, so it must work for a normal user as well as for root (CI):
test_sandbox_users.py runs a corpus of attacks as the caller, as nobody and as uid 0 of a
user namespace.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from sandbox_cases import (
    IN_CI,
    PLOT,
    SINE,
    render,
)

from labscribe.tools.sandbox.figure_names import sanitize_name
from labscribe.tools.sandbox.figure_sandbox import FigureWorker, run_figure
from labscribe.tools.sandbox.sandbox_host import sandbox_problem

# --- valid figures ------------------------------------------------------------------------


def test_run_figure_renders_png_of_requested_size(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    data, out = dirs
    result = worker.render(SINE, data_dir=data, out_dir=out, name="sine")
    assert result.ok, result
    assert result.png == out / "sine.png"
    with Image.open(result.png) as image:
        assert image.format == "PNG"
        assert image.size == (400, 300)
        assert image.getcolors(maxcolors=1) is None


@pytest.mark.usefixtures("worker")  # skips where the host cannot build the sandbox
def test_run_figure_cold_process_renders(dirs: tuple[Path, Path]) -> None:
    data, out = dirs
    result = run_figure(SINE, data_dir=data, out_dir=out, name="cold")
    assert result.ok, result
    assert result.png == out / "cold.png"


def test_run_figure_reads_data_folder(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    code = "import numpy as np\nprint(np.loadtxt('data/run1.csv', delimiter=',', skiprows=1))"
    result = render(worker, dirs, code + PLOT)
    assert result.ok, result
    assert "[[0. 1.]" in result.stdout


def test_run_figure_binds_no_data_folder_but_the_runs(
    worker: FigureWorker, dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    # The folder was swapped for another after the caller checked it: the sandbox checks the
    # folder it binds, so the code finds no data rather than the other folder's.
    data, out = dirs
    started_with = (data.stat().st_dev, data.stat().st_ino)
    data.rename(tmp_path / "kept")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "run1.csv").write_text("t,u\nTOP-SECRET,1\n")
    data.symlink_to(tmp_path / "other")
    code = "import os\nprint(sorted(os.listdir('data')))"
    result = worker.render(
        code + PLOT, data_dir=data, out_dir=out, name="fig", check_policy=False,
        data_identity=started_with,
    )  # fmt: skip
    assert result.ok, result
    assert result.stdout.strip() == "[]"


def test_run_figure_keeps_code_saved_png_only_as_name(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    code = SINE + "fig.savefig('mine.png', dpi=50)\n"
    result = render(worker, dirs, code, name="../Evil Name.png")
    assert result.ok, result
    assert sorted(p.name for p in dirs[1].iterdir()) == ["Evil_Name.png"]
    with Image.open(dirs[1] / "Evil_Name.png") as image:
        assert image.size == (200, 150)


def test_run_figure_rejects_blank_figure(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    result = render(worker, dirs, "import matplotlib.pyplot as plt\nplt.figure()\n")
    assert not result.ok
    assert result.error == "Error: the figure is blank (a single colour); plot some data on it"


def test_run_figure_reports_no_figure(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    result = render(worker, dirs, "x = 1\n")
    assert not result.ok
    assert result.error.startswith("Error: the code made no figure.")


def test_run_figure_reports_exception_readably(
    worker: FigureWorker, dirs: tuple[Path, Path]
) -> None:
    result = render(worker, dirs, "x = 1\ny = x / 0\n")
    assert not result.ok
    assert result.error.startswith("Error: the figure code raised an exception:")
    assert 'File "figure.py", line 2' in result.error
    assert "ZeroDivisionError: division by zero" in result.error
    assert "sandbox.py" not in result.error


def test_run_figure_refuses_policy_violation_without_running(dirs: tuple[Path, Path]) -> None:
    data, out = dirs
    result = run_figure("import os\n" + SINE, data_dir=data, out_dir=out, name="x")
    assert not result.ok
    assert result.error == (
        "The figure code was not run:\n- line 1: import of 'os' is not allowed; "
        "allowed: numpy, pandas, matplotlib, math, statistics, csv, json"
    )
    assert not out.exists()


def test_sanitize_name_strips_path_and_suffix() -> None:
    assert sanitize_name("../../etc/passwd") == "etc_passwd"
    assert sanitize_name("Fig 1.png") == "Fig_1"
    assert sanitize_name("///") == "figure"


def test_figure_worker_serves_many_figures(worker: FigureWorker, dirs: tuple[Path, Path]) -> None:
    for index in range(3):
        assert render(worker, dirs, SINE, name=f"s{index}").ok


# --- hosts that forbid user namespaces: one clear message, and no figure code runs ----------

_FIXES = {
    "unprivileged": "sudo sysctl -w kernel.unprivileged_userns_clone=1",
    "max": "sudo sysctl -w user.max_user_namespaces=10000",
    "apparmor": (
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor "
        "profile that allows `userns,` for this Python"
    ),
}


@pytest.mark.parametrize(
    ("sysctls", "step", "err", "privileged", "cause"),
    [
        (
            {"kernel/unprivileged_userns_clone": "0"},
            "unshare", errno.EPERM, False,
            f"kernel.unprivileged_userns_clone=0 forbids them; allow them with "
            f"{_FIXES['unprivileged']}",
        ),
        (
            {"user/max_user_namespaces": "0"},
            "unshare", errno.ENOSPC, True,
            f"user.max_user_namespaces=0 forbids them; allow them with {_FIXES['max']}",
        ),
        (
            {"kernel/apparmor_restrict_unprivileged_userns": "1"},
            "mount", errno.EPERM, False,
            "kernel.apparmor_restrict_unprivileged_userns=1 forbids them; allow them with "
            f"{_FIXES['apparmor']}",
        ),
        (
            {"user/max_user_namespaces": "1"},
            "nested user namespace", errno.ENOSPC, False,
            f"the limit user.max_user_namespaces=1 is used up; {_FIXES['max']}",
        ),
        (
            {},
            "unshare", errno.EPERM, False,
            "something on this host refuses them (in a container, its seccomp profile: "
            "Docker's default refuses unshare); run where unprivileged user namespaces are "
            "allowed",
        ),
    ],
    ids=["debian-sysctl", "max-zero", "ubuntu-apparmor", "max-used-up", "unknown"],
)  # fmt: skip
def test_sandbox_problem_names_the_cause_and_the_fix(
    sysctls: dict[str, str], step: str, err: int, privileged: bool, cause: str
) -> None:
    problem = sandbox_problem(step, err, privileged=privileged, sysctl=sysctls.get)
    assert problem == (
        f"the figure sandbox cannot build its user namespaces ({step}: {os.strerror(err)}): "
        + cause
    )


def test_sandbox_problem_ignores_unprivileged_settings_for_root() -> None:
    sysctls = {"kernel/apparmor_restrict_unprivileged_userns": "1"}
    problem = sandbox_problem("unshare", errno.EPERM, privileged=True, sysctl=sysctls.get)
    assert "apparmor" not in problem


def test_sandbox_problem_names_missing_libseccomp() -> None:
    assert sandbox_problem("libseccomp", errno.ENOENT, privileged=False) == (
        "the figure sandbox needs libseccomp (libseccomp.so.2) for its syscall filter, and it "
        "is not installed: apt install libseccomp2 (Debian/Ubuntu)"
    )


def test_figure_worker_refuses_to_start_without_user_namespaces(tmp_path: Path) -> None:
    if shutil.which("unshare") is None and not IN_CI:
        pytest.skip("unshare (util-linux) is needed to forbid user namespaces for one process")
    # A user namespace whose limit for further namespaces is 0: what the sysctl does to a host.
    code = (
        "from labscribe.tools.sandbox.figure_output import SandboxUnavailable\n"
        "from labscribe.tools.sandbox.figure_sandbox import FigureWorker\n"
        "try:\n    FigureWorker().start()\n    print('started')\n"
        "except SandboxUnavailable as exc:\n    print(exc)\n"
    )
    shell = 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"'
    done = subprocess.run(
        ["unshare", "-Ur", "sh", "-c", shell, "sh", sys.executable, "-I", "-c", code],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.stdout.strip() == (
        "the figure sandbox cannot build its user namespaces (unshare: No space left on "
        "device): user.max_user_namespaces=0 forbids them; allow them with "
        f"{_FIXES['max']}"
    ), done.stderr[-2000:]
