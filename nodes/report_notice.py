"""What the report from the data tells the student about itself, in a student's words: what
it is, what a language model would add and how to configure one, and what a model that read
the material noted. The technical reasons (which stage was skipped, which check a draft
failed, which guard halted) stay in run.json: the PDF never names labscribe's stages,
modules, benches or guards."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_config

from labscribe.guards.statuses import Termination
from labscribe.nodes.latex_text import escape_latex
from labscribe.nodes.runtime.outputs import resume_line

# What a model writes that the data alone cannot: said once, in both boxes.
MODEL_ADDS = "the introduction, theory, discussion and conclusion in prose"
# `...` marks what the student types: set in typewriter type in the PDF.
ENDPOINT = (
    "an OpenAI-compatible endpoint (`LABSCRIBE_BASE_URL` or `--base-url`, with a model name in "
    "`LABSCRIBE_WRITE_MODEL` or `--write-model`) or `DEEPSEEK_API_KEY`"
)
# A thread run with --no-model keeps it when resumed (its recorded options apply again), so
# the way to a model's report is a new run; a thread whose model's drafts failed is drafted
# again by `resume --from draft` with another model.
NO_MODEL_NOTICE = (
    "This report was written from the data alone: its tables, fits and the assignment's "
    "checklist were computed without a language model. A language model would add "
    f"{MODEL_ADDS}; to add them, configure {ENDPOINT} and run labscribe on this folder "
    "again. Until then, the tasks marked as left for you are not done: check every value "
    "before you hand the report in."
)
DRAFTS_FAILED_NOTICE = (
    "A language model was asked to write this report, but none of its drafts passed the "
    "checks, so this is the report from the data: its tables, fits and the assignment's "
    f"checklist, without {MODEL_ADDS}. To try another model, configure {ENDPOINT} and run "
    "`{resume}`. The tasks marked as left for you are not done: check every value before "
    "you hand the report in."
)
EXPLORATION_TITLE = "What the model noted"
READ_IT = "A language model read the material before this report was written"
STOPPED = "A language model began to read the material but stopped before it finished"
NOTED = "what it noted is listed below as it wrote it, not checked against the data"
NOTED_NOTHING = "it noted nothing this report uses"


def notice(*, model_tried: bool, thread: str | None = None) -> str:
    """The report's boxed statement as text: written from the data alone (`model_tried`
    False), or because no draft of the model passed; how to add a model, with this run's
    thread."""
    return _marked(model_tried, thread).replace("`", "")


def notice_latex(*, model_tried: bool, thread: str | None = None) -> str:
    """The boxed statement as LaTeX: what the student types in typewriter type, its `--`
    kept two hyphens."""
    parts = _marked(model_tried, thread).split("`")
    return "".join(
        f"\\texttt{{{escape_latex(part).replace('--', '-{}-')}}}" if odd else escape_latex(part)
        for odd, part in ((i % 2 == 1, part) for i, part in enumerate(parts))
    )


def _marked(model_tried: bool, thread: str | None) -> str:
    thread = thread if thread is not None else current_thread()
    # A backtick in a thread's name would end the typewriter span: it is read as a quote.
    resume = resume_line((thread or "THREAD").replace("`", "'"), "--from draft")
    template = DRAFTS_FAILED_NOTICE if model_tried else NO_MODEL_NOTICE
    return template.format(resume=resume)


def current_thread() -> str:
    """The thread this run writes to; "" outside a run."""
    try:
        return str(get_config()["configurable"].get("thread_id") or "")
    except RuntimeError:
        return ""


def exploration_account(state: dict[str, Any]) -> str | None:
    """How a model's reading of the material went, in a sentence; None when no model read
    it (the report then says nothing of it)."""
    ended = (state.get("exploration") or {}).get("termination")
    found = (state.get("findings") or {}).get("key_findings") or []
    if ended == Termination.SKIPPED.value or (ended is None and not found):
        return None
    done = ended in (Termination.FINISHED.value, Termination.FINAL_ANSWER.value)
    halted = bool((state.get("guard") or {}).get("halts"))
    opening = READ_IT if done and not halted else STOPPED
    return f"{opening}; {NOTED if found else NOTED_NOTHING}."
