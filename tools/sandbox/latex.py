"""The LaTeX toolchain: the one probe for it, and a bounded, confined compile.

The report is model-written, and a prompt injection in the data can steer it, so the whole
compile runs in the TeX sandbox (`tex_sandbox`): it sees the TeX installation, its fonts and
the build folder only, with kpathsea's paranoid file access inside, no shell escape, no rc
file for latexmk, and no secret in its environment.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pypdf

from labscribe.guards.latex_log import LogSummary, parse_log
from labscribe.guards.output import add_to_preamble
from labscribe.tools.formats.pdf_text import PDF_LIMITS
from labscribe.tools.sandbox import children
from labscribe.tools.sandbox.out_files import copy_files, fresh_folder, out_folder, write_whole
from labscribe.tools.sandbox.tex_sandbox import confined, tex_confinement_problem

COMPILE_SECONDS = 180  # latexmk with bibtex reruns; a report that takes longer is stuck

CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")
CJK_PREAMBLE = "\\usepackage{xeCJK}\n\\setCJKmainfont{Noto Serif CJK SC}\n"
# Korean writes spaces between its words, which xeCJK drops between CJK letters by default.
HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
HANGUL_PREAMBLE = "\\xeCJKsetup{CJKspace=true}\n"
NO_XELATEX = (
    "xelatex or latexmk is not on PATH, so no PDF was made: install texlive-xetex, latexmk "
    "and fonts-noto-cjk (Debian/Ubuntu) for PDFs"
)


@lru_cache(maxsize=1)
def toolchain_problem() -> str | None:
    """Why no PDF can be made here, or None. Probed once per process: the plan and the
    compile stage follow one answer."""
    if not (shutil.which("xelatex") and shutil.which("latexmk")):
        return NO_XELATEX
    return tex_confinement_problem()


@dataclass(frozen=True)
class Compiled:
    ok: bool
    """A PDF was written and the log has no errors."""
    pdf: Path | None
    log: LogSummary


# Letters xelatex's default font (Latin Modern) does not have: Greek and Cyrillic text, the
# sub- and superscript digits a handout writes (`B₀`). A report holding any is set in a font
# that has them, where one is installed (fonts-dejavu-core; Noto CJK has them too).
WIDE_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u2070-\u209f]")
WIDE_PREAMBLE = (
    "\\usepackage{fontspec}\n"
    "\\IfFontExistsTF{DejaVu Serif}{\\setmainfont{DejaVu Serif}}"
    "{\\IfFontExistsTF{Noto Serif CJK SC}{\\setmainfont{Noto Serif CJK SC}}{}}\n"
)
_OWN_FONTS = re.compile(r"\\setmainfont|\\usepackage(?:\[[^\]]*\])?\{(?:polyglossia|babel|ctex)\}")


def with_fonts(tex: str) -> str:
    """`tex`, able to print with xelatex the scripts it holds: Chinese, Japanese and Korean
    through xeCJK; Greek, Cyrillic and sub- and superscripts in a font that has them,
    unless the document chose its fonts itself."""
    if CJK.search(tex) and "xeCJK" not in tex and "ctex" not in tex:
        korean = HANGUL_PREAMBLE if HANGUL.search(tex) else ""
        tex = add_to_preamble(tex, CJK_PREAMBLE + korean)
    if WIDE_SCRIPT.search(tex) and not _OWN_FONTS.search(tex):
        tex = add_to_preamble(tex, WIDE_PREAMBLE)
    return tex


def compile_latex(
    tex: str, bibliography: str | None, workdir: Path, figures: Path | None = None
) -> Compiled:
    """Compile `tex` (with `bibliography` as references.bib, and the `figures` folder as
    figures/) in `workdir` with latexmk."""
    # Fresh, and a real folder: TeX writes into it, so a link planted there (into the data
    # folder) must not take its output, nor an earlier file its input.
    fresh_folder(workdir)
    if figures is not None and figures.is_dir():
        copy_files(figures, out_folder(workdir / "figures"))
    write_whole(workdir / "report.tex", with_fonts(tex))
    if bibliography:
        write_whole(workdir / "references.bib", bibliography)
    command = [
        "latexmk", "-norc", "-xelatex", "-latexoption=-no-shell-escape",
        "-interaction=nonstopmode", "-halt-on-error", "-file-line-error", "report.tex",
    ]  # fmt: skip
    with children.started(
        confined(command, workdir),
        cwd=workdir,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    ) as process:
        try:
            process.wait(timeout=COMPILE_SECONDS)
        except subprocess.TimeoutExpired:
            children.stop(process)
    log_file = workdir / "report.log"
    log = parse_log(
        log_file.read_text(encoding="utf-8", errors="replace") if log_file.exists() else ""
    )
    if process.returncode != 0 and not log.errors:
        log.errors.append(f"latexmk exited with code {process.returncode} (see report.log)")
    pdf = workdir / "report.pdf"
    ok = process.returncode == 0 and pdf.exists() and not log.errors
    return Compiled(ok, pdf if pdf.exists() else None, log)


def typeset_text(pdf: Path) -> str | None:
    """The text of a PDF a compile made, every page, under the decoding limits any PDF
    meets; None when it cannot be read (then nothing can be judged by it)."""
    try:
        with pypdf.apply_configuration(**PDF_LIMITS):
            return "\n".join(page.extract_text() or "" for page in pypdf.PdfReader(pdf).pages)
    except Exception:  # pypdf signals broken files with many exception types
        return None
