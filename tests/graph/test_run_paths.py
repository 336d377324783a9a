"""The paths a run reads and writes, as an attacker or a second writer changes them mid-run:
the data folder swapped for a link, and links planted in OUT (issue 20)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from asuser import as_normal_user
from clirun import endpoint_flags, read_record
from scripted import latex
from scripted_server import ScriptedEndpoint, text_reply, tool_reply

from labscribe.tools.messages import FOLDER_CHANGED_ERROR

SECRET = "TOP-SECRET-4711"

# The explorer's first reply swaps the data folder for a link to an outside folder (after
# the scan: the first model call is the explorer's), then every folder tool is tried on it.
SWAP_RUN = """
import json, os, sys
sys.path.insert(0, 'tests')
from pathlib import Path
from scripted import ScriptedChatModel, call, latex, reply
from labscribe.graph import Context, Models, run_folder

data, outside, out = (Path(p) for p in sys.argv[1:4])
figure = "import pandas as pd\\nimport matplotlib.pyplot as plt\\n" \\
    "t = pd.read_csv('data/sweep.csv')\\nplt.plot(t.iloc[:, 0], t.iloc[:, 1])\\n" \\
    "plt.title(t.columns[1])\\n"

def swap(messages):
    data.rename(data.with_name('data.kept'))
    data.symlink_to(outside, target_is_directory=True)
    return reply(call('list_dir'), call('read_file', path='secret.txt'),
                 call('read_image', path='photo.png'), call('make_figure', code=figure, name='f'))

finish = call('finish_exploration', experiment='x', goal='y', key_findings=['z'])
explorer = ScriptedChatModel(replies=[swap, reply(finish)])
writer = ScriptedChatModel(replies=[reply(content=latex())])
# The progress rule would refuse the 4th failure alike: this test is the folder check's alone.
context = Context(models=Models(explore=explorer, write=writer), reflect=0, compile=False,
                  figures=False, ladder={"progress": None})
result = run_folder(data, out=out, db=Path(sys.argv[4]), context=context)
history = json.loads((out / 'history.json').read_text())
print(json.dumps([m['data']['content'] for m in history if m['type'] == 'tool']))
"""


def test_a_data_folder_swapped_for_a_link_mid_run_is_never_read(user_dir: Path, data: Path) -> None:
    mine = user_dir / "data"
    data.rename(mine)
    outside = user_dir / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(f"{SECRET}\n")
    (outside / "sweep.csv").write_text(f"t,{SECRET}\n1,2\n2,3\n")
    (outside / "photo.png").write_bytes((mine / "notes.md").read_bytes())
    args = [str(mine), str(outside), str(user_dir / "out"), str(user_dir / "db.sqlite")]
    done = as_normal_user(
        "import sys; sys.argv[1:] = " + repr(args) + "\n" + SWAP_RUN, owns=[user_dir]
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout.splitlines()[-1])
    changed = "Error: " + FOLDER_CHANGED_ERROR.format(root=mine)
    assert len(answers) == 5 and all(answer.startswith(changed) for answer in answers[:4])
    written = "".join(p.read_text(errors="replace") for p in (user_dir / "out").rglob("*.*"))
    assert SECRET not in written
    assert not (user_dir / "out" / "figures" / "f.png").exists()


needs_xelatex = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)


@needs_xelatex
def test_links_planted_in_out_are_replaced_never_written_through(
    user_dir: Path, data: Path
) -> None:
    mine = user_dir / "data"
    data.rename(mine)
    before = {path.name: path.read_bytes() for path in mine.iterdir()}
    home = user_dir / "home"
    home.mkdir()
    targets = {name: home / name for name in (".bashrc", ".profile", "report.tex", "log")}
    for target in targets.values():
        target.write_text("the user's own\n")
    out = user_dir / "out"
    out.mkdir()
    planted = {
        "events.jsonl": targets[".bashrc"], "run.json": targets[".profile"],
        "report.tex": targets["report.tex"], "history.json": targets["log"],
        "report.pdf": targets["log"], "figures": mine, "build": mine,
    }  # fmt: skip
    for name, target in planted.items():
        (out / name).symlink_to(target)
    finish = ("finish_exploration", {"experiment": "x", "goal": "y", "key_findings": ["z"]})
    script = {"explorer": [tool_reply(finish)], "writer": [text_reply(latex())]}
    with ScriptedEndpoint(script) as server:
        flags = [flag for flag in endpoint_flags(server) if flag != "--no-compile"]
        argv = ["labscribe", "run", str(mine), "--out", str(out),
                "--db", str(user_dir / "db.sqlite"), *flags]  # fmt: skip
        done = as_normal_user(
            f"import runpy, sys; sys.argv = {argv!r}; "
            "runpy.run_module('labscribe.graph.cli', run_name='__main__')",
            owns=[user_dir],
        )
    assert done.returncode == 0, done.stderr
    assert {p.name: p.read_bytes() for p in mine.iterdir()} == before  # nothing added or changed
    assert all(t.read_text() == "the user's own\n" for t in targets.values())
    assert not any((out / name).is_symlink() for name in planted)
    assert read_record(out)["compile"]["status"] == "compiled"
    assert list((out / "figures").glob("*.png"))  # the data figure, in OUT where it belongs
    assert '"event": "milestone"' in (out / "events.jsonl").read_text()
