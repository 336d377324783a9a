"""Which of labscribe's own figures an analysis gets, and what each shows: the one plan the
drawing (tools.analysis.data_figures) follows and the checklist (tools.assignment.checklist)
names."""

from __future__ import annotations

from dataclasses import dataclass

from labscribe.tools.analysis.folder import Analysis
from labscribe.tools.fits.fit_result import Fit, alike
from labscribe.tools.formats.tables import TableSummary

MAX_FIGURES = 8
MAX_FIGURES_PER_TABLE = 3
MAX_SERIES = 3  # the columns a figure of the data alone draws against its variable


@dataclass(frozen=True)
class FigureJob:
    summary: TableSummary
    fit: Fit | None
    """The fit drawn over the data; None for a figure of the data alone."""

    @property
    def x(self) -> str:
        """The key of the column along the horizontal axis: a request may name its own x."""
        return self.fit.x if self.fit is not None else self.summary.x or ""

    @property
    def ys(self) -> tuple[str, ...]:
        """The keys of the columns drawn against x."""
        if self.fit is not None:
            return (self.fit.y,)
        drawn = [c.key for c in self.summary.columns if c.key != self.x and c.count]
        return tuple(drawn[:MAX_SERIES])

    def shows(self) -> dict[str, object]:
        """What the figure's record says it shows: its table and columns, by key."""
        return {"table": self.summary.id, "x": self.x, "y": list(self.ys)}


def figure_jobs(analysis: Analysis) -> list[FigureJob]:
    """The figures to draw, in order: each table with an independent variable, with each
    of its fits that describe or follow the data (each curve once), or alone when it has none."""
    jobs: list[FigureJob] = []
    drawn = [group[0] for group in alike(analysis.fits)]  # one model two tasks ask for, once
    for summary in analysis.tables:
        if summary.x is None:
            continue
        fits = [f for f in drawn if f.table == summary.id and (f.good or f.follows)]
        jobs += [FigureJob(summary, fit) for fit in fits[:MAX_FIGURES_PER_TABLE]] or [
            FigureJob(summary, None)
        ]
    return jobs[:MAX_FIGURES]
