"""A note on the standard models' fits says which models it is about, and never reads as a
verdict on the assignment's model (TP_optique_loi_de_Malus, em_lab_coil_axial_field)."""

from labscribe.tools.fits.fit_claims import NONE_TRIED, standard_note
from labscribe.tools.fits.fit_result import Fit

REASON = ": the residuals are larger than the noise (reduced χ² = 10.5)"


def _fit(model: str, requested: str = "", good: bool = False) -> Fit:
    return Fit(table="scan.csv", x="z", y="B", model=model, requested=requested, good=good)


def test_the_standard_models_verdict_names_them_and_what_else_was_fitted() -> None:
    cubic = _fit("cubic")
    alone = standard_note(NONE_TRIED + REASON, cubic, [cubic], {})
    assert alone == (
        "none of the standard models tried (the closest, cubic, is not shown) describes these "
        f"data{REASON}; no other model was fitted to them"
    )
    law = _fit("B(z) = Bmax·R³/[R² + (z − z0)²]^(3/2)", requested="Fit B(z) ...", good=True)
    beside = standard_note(NONE_TRIED + REASON, cubic, [cubic, law], {id(law): True})
    assert beside.endswith("; the model the assignment asks for does (see the fits)")
    # a fit labelled with the task but not the fit it asks for vouches for nothing
    other = standard_note(NONE_TRIED + REASON, cubic, [cubic, law], {id(law): False})
    assert other.endswith("; no other model was fitted to them")
    failed = law.model_copy(update={"good": False})
    note = standard_note(NONE_TRIED + REASON, cubic, [cubic, failed], {id(failed): True})
    assert note.endswith(f"describes these data{REASON}")  # its own row says it fails


def test_notes_of_the_assignments_model_and_other_notes_are_kept() -> None:
    law = _fit("B(z) = ...", requested="Fit B(z) ...")
    note = "the assignment's model does not describe these data" + REASON
    assert standard_note(note, law, [law], {}) == note
    assert standard_note("R² = 0.42 is low", _fit("linear"), [], {}) == "R² = 0.42 is low"
