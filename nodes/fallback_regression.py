"""The fallback report's multiple regressions: for each task that asks for a response on
several predictors, a table of its coefficients (each ± its standard error with its unit),
R², adjusted R² and the number of points, with what the residuals say; or a plain sentence
that it was not done, and why."""

from __future__ import annotations

from labscribe.nodes.latex_text import itemize, paragraphs, table
from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.fits.fit_result import format_value
from labscribe.tools.fits.model_choice import EXACT
from labscribe.tools.fits.regression import Regression
from labscribe.tools.fits.regression_text import on_what

REGRESSION_EXPLAINED = (
    "A task that asks for a response on several predictors together was fitted as a multiple "
    "linear regression by least squares (statsmodels; each point weighted by 1/σ² where the "
    "response has an uncertainty column), computed on centred and scaled predictors so that "
    "no digits are lost, and stated for the terms as the task writes them. Each coefficient "
    "is given with its unit, the response's over its term's; ± is one standard error, and p "
    "is the two-sided t-test's probability of so large a coefficient were its term to add "
    "nothing. R² is "
    "the share of the response's variation the predictors reproduce together, adjusted R² "
    "the same corrected for the number of coefficients. A regression whose residuals keep a "
    "shape (a runs test and a moving average, in the order of the fitted values) does not "
    "describe the data, whatever its R²."
)


def regression_blocks(analysis: Analysis) -> list[str]:
    """The LaTeX blocks of the regressions the tasks ask for; none when none does."""
    if not analysis.regressions:
        return []
    blocks = [paragraphs(REGRESSION_EXPLAINED)]
    for regression in analysis.regressions:
        blocks += _blocks(regression)
    return blocks


def _blocks(regression: Regression) -> list[str]:
    what = f"a multiple linear regression of {on_what(regression)}"
    if not regression.done:
        where = f" in {regression.table}" if regression.table else ""
        return [paragraphs(f"Task {regression.number} asks for {what}{where}. It was not "
                           f"done, because {regression.why_not}.")]  # fmt: skip
    rows = [[c.name, "constant" if c.term == "1" else c.term, format_value(c),
             "–" if c.p_value is None else f"{c.p_value:.2g}"]
            for c in regression.coefficients]  # fmt: skip
    model = f", the model {regression.formula}" if regression.formula else ""
    weighted = f", weighted by {regression.weighted_by}" if regression.weighted_by else ""
    spread = (
        f", residual standard deviation {regression.residual_sd:.3g}"
        + (f" {regression.response_unit}" if regression.response_unit else "")
        if regression.residual_sd is not None
        else f", reduced χ² {regression.reduced_chi_square:.3g}"
    )
    if not regression.good:
        verdict = "it does not describe the data (see below)"
    elif (regression.r_squared or 0.0) > 1 - EXACT:
        verdict = "an exact fit"
    else:
        verdict = "its residuals look like noise"
    caption = (
        f"Task {regression.number}: {what} ({regression.table}){model}. "
        f"R² = {regression.r_squared:.4f}, adjusted R² = {regression.adjusted_r_squared:.4f}, "
        f"{regression.points} points{weighted}{spread}; {verdict}"
    )
    blocks = [table(["Coefficient", "Multiplies", "Value ± standard error", "p"], rows,
                    (0.22, 0.26, 0.3, 0.12), caption)]  # fmt: skip
    if regression.notes:
        blocks.append(itemize(regression.notes))
    return blocks
