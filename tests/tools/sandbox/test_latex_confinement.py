"""TeX compiles with its file access confined to the build folder: a model-written report
(steered, perhaps, by a prompt injection in the data) cannot put outside files into the PDF,
into the log that the fix model and run.json see, or anywhere else."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from asuser import as_normal_user
from PIL import Image
from scripted import FILLER, ScriptedChatModel, call, reply

from labscribe.tools.sandbox.latex import compile_latex, with_fonts

pytestmark = pytest.mark.skipif(
    shutil.which("xelatex") is None and not os.environ.get("CI"),
    reason="xelatex is not installed here (CI installs texlive-xetex: .ci/run)",
)
SECRET = "SECRET-FROM-OUTSIDE-4242"
FINISH = call("finish_exploration", experiment="x", goal="y", key_findings=["z"])


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Files beside the build folder, which no report may read."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.tex").write_text(f"{SECRET}\n")
    Image.new("RGB", (40, 40), "red").save(folder / "photo.png")
    return folder


def report(body: str) -> str:
    preamble = "\\documentclass{article}\n\\usepackage{graphicx}\n"
    return f"{preamble}\\begin{{document}}\n{FILLER}\n{body}\n\\end{{document}}\n"


def attacks(outside: Path) -> dict[str, str]:
    secret = outside / "secret.tex"
    return {
        "input an absolute path": f"\\input{{{secret}}}",
        "input a relative path out": "\\input{../../outside/secret.tex}",
        "openin, read, errmessage": (
            f"\\newread\\r \\openin\\r={secret} \\read\\r to\\x \\closein\\r \\errmessage{{\\x}}"
        ),
        "openin, read, typeset": f"\\newread\\r \\openin\\r={secret} \\read\\r to\\x [\\x]",
        "includegraphics an outside picture": f"\\includegraphics{{{outside / 'photo.png'}}}",
        "verbatim via a package": (f"\\makeatletter\\@input{{{secret}}}\\makeatother"),
        "openout outside": (
            f"\\newwrite\\w \\immediate\\openout\\w={outside}/written.tex "
            "\\immediate\\write\\w{x}\\immediate\\closeout\\w"
        ),
        "shell escape": "\\immediate\\write18{cat /etc/passwd > leak.txt}",
        "pipe input": '\\input{|"cat /etc/passwd"}',
    }


@pytest.mark.parametrize("attack", list(attacks(Path("/x"))))
def test_tex_reads_and_writes_nothing_outside_the_build_folder(
    tmp_path: Path, outside: Path, attack: str
) -> None:
    build = tmp_path / "build"
    compiled = compile_latex(report(attacks(outside)[attack]), None, build)
    assert SECRET not in compiled.log.describe()
    assert SECRET not in (build / "report.log").read_text(errors="replace")
    if compiled.pdf is not None:
        text = subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True,
                              text=True, check=True).stdout  # fmt: skip
        assert SECRET not in text and "root:" not in text
        if attack == "includegraphics an outside picture":
            images = subprocess.run(["pdfimages", "-list", str(compiled.pdf)],
                                    capture_output=True, text=True).stdout  # fmt: skip
            assert len(images.strip().splitlines()) <= 2  # the header lines only: no image
    assert not (outside / "written.tex").exists()
    assert not (build / "leak.txt").exists()


def test_tex_sees_no_secret_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kpathsea expands $VARIABLES in file names, and the name lands in the log.
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-secret-in-env")
    compiled = compile_latex(report("\\input{$DEEPSEEK_API_KEY}"), None, tmp_path / "build")
    assert "sk-secret-in-env" not in (tmp_path / "build" / "report.log").read_text()
    assert "sk-secret-in-env" not in compiled.log.describe()


def test_tex_cannot_see_the_data_folder_or_the_home_even_in_the_sandbox(
    tmp_path: Path, data: Path
) -> None:
    (data / "private.tex").write_text(f"{SECRET}\n")
    probe = (
        "\\makeatletter"
        f"\\IfFileExists{{{data / 'private.tex'}}}{{DATAVISIBLE}}{{DATAHIDDEN}} "
        f"\\IfFileExists{{{Path.home() / '.bashrc'}}}{{HOMEVISIBLE}}{{HOMEHIDDEN}}"
        "\\makeatother"
    )
    compiled = compile_latex(report(probe), None, tmp_path / "build")
    assert compiled.pdf is not None, compiled.log.describe()
    text = subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    assert "DATAHIDDEN" in text and "HOMEHIDDEN" in text


def test_a_plain_report_still_compiles_in_the_sandbox_with_chinese_and_bibtex(
    tmp_path: Path,
) -> None:
    tex = report("共振频率 \\cite{x}\n\\bibliographystyle{plain}\\bibliography{references}")
    bib = "@book{x, title={Electricity and Magnetism}, author={Purcell, E. M.}, year={2013}}\n"
    compiled = compile_latex(tex, bib, tmp_path / "build")
    assert compiled.ok, compiled.log.describe()
    text = subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    assert "共振频率" in text.replace(" ", "").replace("\n", "") and "Purcell" in text


def test_korean_words_keep_their_spaces_and_chinese_stays_unspaced(tmp_path: Path) -> None:
    # eval14's Korean handout title lost every space between its words
    tex = report("물리계측실험 — RC 저역통과 필터의 주파수 응답. 共振频率")
    compiled = compile_latex(tex, None, tmp_path / "build")
    assert compiled.ok, compiled.log.describe()
    text = subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    assert "저역통과 필터의 주파수 응답" in text, text
    assert "CJKspace" not in with_fonts(report("共振频率"))


def test_cyrillic_greek_and_subscript_digits_print_in_the_pdf(tmp_path: Path) -> None:
    """A Russian handout's words, a Greek letter in text and `B₀` (a Polish tangent
    galvanometer): Latin Modern has none of them, so the report is set in a font that has
    (the log names no missing character), unless it chose its own fonts."""
    tex = report("Частота резонанса f₁ = 3,16 кГц; λ = 589 nm; B₀ = 20 µT.")
    compiled = compile_latex(tex, None, tmp_path / "build")
    assert compiled.ok, compiled.log.describe()
    log = (tmp_path / "build" / "report.log").read_text(errors="replace")
    assert "Missing character" not in log
    text = subprocess.run(["pdftotext", str(compiled.pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    assert "Частота резонанса" in text and "B₀" in text and "λ" in text
    own = "\\documentclass{article}\n\\usepackage{fontspec}\n\\setmainfont{Latin Modern Roman}\n"
    assert with_fonts(own + "\\begin{document}Частота\\end{document}").startswith(own)


def test_a_report_steered_to_read_outside_leaks_nothing_to_the_fix_model_or_run_json(
    data: Path, outside: Path, run
) -> None:
    attack = attacks(outside)["openin, read, errmessage"]
    writer = ScriptedChatModel(replies=[reply(content=report(attack))])
    result = run(data, ScriptedChatModel(replies=[reply(FINISH)]), write=writer, compile=True)
    for request in writer.requests:
        assert all(SECRET not in message.text for message in request)
    assert SECRET not in (result.out / "run.json").read_text()
    assert SECRET not in (result.out / "events.jsonl").read_text()
    assert sys.executable


def test_tex_compiles_confined_as_a_normal_user(user_dir: Path) -> None:
    build = user_dir / "build"
    build.mkdir()
    Image.new("RGB", (40, 40), "red").save(user_dir / "photo.png")  # readable by that user
    body = f"\\includegraphics{{{user_dir / 'photo.png'}}}"
    code = (
        "from pathlib import Path\n"
        "from labscribe.tools.sandbox.latex import compile_latex\n"
        f"ok = compile_latex({report('Plain words.')!r}, None, Path({str(build / 'a')!r}))\n"
        f"bad = compile_latex({report(body)!r}, None, Path({str(build / 'b')!r}))\n"
        "print(ok.ok, bad.pdf is None)\n"
    )
    done = as_normal_user(code, owns=[build])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr
