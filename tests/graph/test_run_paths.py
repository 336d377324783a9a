"""The paths a run reads and writes, as an attacker or a second writer changes them mid-run:
the data folder swapped for a link, and links planted in OUT (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path

from asuser import as_normal_user

from labscribe.tools.base import FOLDER_CHANGED_ERROR

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
context = Context(models=Models(explore=explorer, write=writer), reflect=0, compile=False,
                  figures=False)
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
