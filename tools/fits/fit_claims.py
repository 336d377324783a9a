"""What a note on a fit may claim: a verdict on the standard models tried says which models
it is about, and never reads as a verdict on the model the assignment names.

The fit table shows a standard model only where it describes its data; where none does, the
note under the results is all the report says of them. "No model tried describes these
data" beside no table of fits reads as "no model describes them", the assignment's law
included ("vérifier la loi de Malus"), though that law may not have been fitted at all, or
may be fitted well beside it (the coil's B(z) with a reduced χ² of 1.2). The note names
what was tried and what it is not about.
"""

from __future__ import annotations

from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.assignment.fit_asks import task_ask
from labscribe.tools.assignment.handout_tasks import task_number
from labscribe.tools.assignment.task_fit import differs, not_task_fit
from labscribe.tools.fits.fit_result import Fit

NONE_TRIED = "no model tried describes these data"
NOT_DESCRIBED = "it does not describe the data"
FOLLOWS = "it follows the data, not to within their noise"


def standard_notes(notes: list[str], fit: Fit, analysis: Analysis) -> list[str]:
    """`notes` on `fit`, each as it holds (see standard_note)."""
    if fit.requested or not any(note.startswith(NONE_TRIED) for note in notes):
        return notes
    asked = {
        id(other): not not_task_fit(other, analysis.tasks, analysis.tables)
        for other in analysis.fits
        if other.requested
    }
    return [standard_note(note, fit, analysis.fits, asked) for note in notes]


def standard_note(note: str, fit: Fit, fits: list[Fit], asked: dict[int, bool]) -> str:
    """`note` on a standard model's fit that describes nothing, as it holds: "none of the
    standard models tried (the closest, a quadratic, is not shown) describes these data",
    then that the model the assignment asks for does, where its fit of the same columns
    is good and is the task's (`asked` by fit id: whether it is the fit its task asks for),
    or that no other model was fitted to these columns."""
    if fit.requested or not note.startswith(NONE_TRIED):
        return note
    rest = note.removeprefix(NONE_TRIED)
    same = [
        other
        for other in fits
        if other.requested and other.model and asked.get(id(other), False)
        and (other.table, other.y, other.x) == (fit.table, fit.y, fit.x)
    ]  # fmt: skip
    if any(other.good for other in same):
        after = "; the model the assignment asks for does (see the fits)"
    elif same:
        after = ""
    else:
        after = "; no other model was fitted to them"
    if fit.follows:
        return (f"of the standard models tried, the {fit.model} in the fits "
                f"(R² = {fit.r_squared:.4f}), follows these data but does not describe them to "
                f"within their noise{rest}{after}")  # fmt: skip
    closest = f" (the closest, {fit.model}, is not shown)" if fit.model else ""
    return f"none of the standard models tried{closest} describes these data{rest}{after}"


def asked_by_all(fits: list[Fit], analysis: Analysis) -> str:
    """Why the fits alike in what they show (fit_result.alike: one curve) were made, in one
    phrase: "the model tasks B and C ask for" where each is a task's as it is. The fit
    table's row and the figure's caption both say it."""
    asked = [asked_by(f, analysis) for f in fits]
    labels = [label for _, label in asked if label]
    if len(labels) == len(fits) > 1:
        return f"the model tasks {', '.join(labels[:-1])} and {labels[-1]} ask for"
    return "; ".join(dict.fromkeys(why for why, _ in asked))


def asked_by(fit: Fit, analysis: Analysis) -> tuple[str, str]:
    """Why the fit was made, and the label of the task that asks for it as it is ("" where
    none does: the best standard model, or not the model its task asks for). The fit table
    and the figure's caption both say it: a line of other columns than the task's is never
    "the model the assignment asks for" in either."""
    if not fit.requested:
        return fit.label, ""
    number = analysis.tasks.index(fit.requested) + 1 if fit.requested in analysis.tasks else 0
    if not number:
        return "the model the assignment asks for", ""
    label = task_number(analysis.task_numbers, number)
    if ask := task_ask(fit, analysis.tasks):
        table = next((t for t in analysis.tables if t.id == fit.table), None)
        if differs(fit, ask, table):
            return f"not the model task {label} asks for, which is {ask.text()}", ""
    return f"the model task {label} asks for", label
