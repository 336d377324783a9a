"""Whatever the data's names and fields hold, the fallback report compiles and shows them:
controls and bidi overrides as visible `\\uXXXX`, emoji the fonts lack likewise, blank lines
as spaces, and a token of 10,000 letters broken across lines."""

from __future__ import annotations

import os
import random
import shutil
import string
import subprocess
from pathlib import Path

import pytest
from clirun import labscribe, read_record
from scripted import ScriptedChatModel, call, latex, reply

from labscribe.nodes.fallback import NOTE_REPEATS

pytestmark = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)
# What each field carries, and how the PDF shows it.
BAD = {
    "del": ("\x7f", "\\u007f"),
    "esc": ("\x1b[2J", "\\u001b[2J"),
    "c0": ("\x01\x02", "\\u0001\\u0002"),
    "c1": ("\x9b", "\\u009b"),
    "bidi": ("\u202e\u2066", "\\u202e\\u2066"),
    "emoji": ("\U0001f600\u2764\ufe0f", "\\u1f600\\u2764\\ufe0f"),
}
LONG = "x" * 10_000
TOKEN = "".join(random.Random(0).choices(string.ascii_lowercase, k=1_000))


def nasty_folder(root: Path) -> Path:
    folder = root / "data"
    folder.mkdir()
    for kind, (bad, _shown) in [*BAD.items(), ("blank", ("a\n\nb", "a b"))]:
        (folder / f"notes {kind}{bad}.md").write_text(f"Note {kind}: {bad} end of note.\n")
    (folder / f"notes{'y' * 240}.md").write_text("A note under a long name.\n")
    (folder / "notes 0 token.md").write_text(f"Before the token {TOKEN} after it.\n")
    (folder / "notes 1 loop.md").write_text(f"Before the loop {LONG} after it.\n")
    names = [LONG, "volt " + "".join(bad for bad, _shown in BAD.values()) + " a\n\nb"]
    header = ",".join(['"time_s"', *(f'"{name}"' for name in names)])
    rows = [",".join([str(t), *(f"{t * t * 0.1 + n:g}" for n in range(len(names)))])
            for t in range(30)]  # fmt: skip
    (folder / "sweep.csv").write_text("\n".join([header, *rows]) + "\n")
    settings = [f"R_{kind} = 47 {bad}" for kind, (bad, _shown) in BAD.items()]
    (folder / "params.ini").write_text("\n".join(["[circuit]", *settings, f"label = {LONG}"]))
    return folder


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_escaping_the_fallback_of_hostile_names_and_fields_compiles(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = labscribe("run", str(nasty_folder(tmp_path)), "--no-model", "--out", str(out),
                     "--db", str(tmp_path / "c.db"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert read_record(out)["compile"]["status"] == "compiled"
    text = pdf_text(out / "report.pdf")
    words = " ".join(text.split())
    for kind, (_bad, shown) in BAD.items():
        assert f"notes {kind}{shown}.md" in words  # the folder's inventory
        assert f"R_{kind}" in words and f"47 {shown}" in words  # the parameter table
    assert "volt " + "".join(shown for _bad, shown in BAD.values()) + " a b" in words  # a fit
    assert "notes blanka b.md" in words
    assert "Note bidi: \\u202e\\u2066 end of note." in words  # the first note, quoted
    squashed = "".join(text.split())
    assert f"notes{'y' * 240}.md" in squashed  # broken across lines
    assert f"Beforethetoken{TOKEN}" in squashed  # a note: broken across lines
    # the note of one letter repeated is named, not quoted as if it were a model's loop
    assert "notes 1 loop.md (the note continues in the file)" in words
    assert NOTE_REPEATS in (out / "report.tex").read_text()  # a page break may part it


def test_escaping_a_reference_from_the_material_compiles_in_the_bibliography(
    data: Path, run
) -> None:
    (data / "handout.md").write_text(
        "References\n\n[1] A. Smithson, Costs in $ and 50% of {x_1} ^ \x1b[2J\x7f, 2013. "
        "doi:10.1000/xyz\x1b\n"
    )
    writer = ScriptedChatModel(replies=[reply(content=latex("As in \\cite{smithson2013}."))])
    finish = call("finish_exploration", experiment="RLC", goal="f0", key_findings=["f0"])
    result = run(data, ScriptedChatModel(replies=[reply(finish)]), write=writer, compile=True)
    assert result.record["compile"]["status"] == "compiled"
    text = " ".join(pdf_text(result.out / "report.pdf").split())
    assert "A. Smithson, Costs in $ and 50% of x_1 ^ \\u001b[2J\\u007f, 2013." in text
    assert "doi = {10.1000/xyz}" in (result.out / "references.bib").read_text()
