"""Which of a table's columns a model the assignment asks for concerns (tools.fits.column_fits): its
formula's left side or the y of "y against x" where a column holds it, else the other
columns of the table that holds its predictor, else every column its words leave open; and
which it names as predictors (a multiple regression's, fitted by tools.fits.regression)."""

from __future__ import annotations

import re

from labscribe.tools.analysis.data_facts import mentions_words_of, words_in
from labscribe.tools.assignment.requested import Request
from labscribe.tools.assignment.role_phrases import is_symbol, pairings, sentences
from labscribe.tools.assignment.task_files import named_tables
from labscribe.tools.columns.column import Column
from labscribe.tools.columns.column_names import Named, named_by_formula, named_by_pairing
from labscribe.tools.columns.quantity_words import named_quantities
from labscribe.tools.columns.roles import Handout, stays_put
from labscribe.tools.columns.symbol_dimensions import conventional_column
from labscribe.tools.formats.tables import TableSummary
from labscribe.tools.formulas.axis_expressions import written_formulas
from labscribe.tools.formulas.formula_notation import formulas_in
from labscribe.tools.formulas.formula_parse import FormulaError, parse_formula


def request_columns(request: Request, candidates: list[Column], handout: Handout) -> Named:
    """What `request` names among `candidates`: from its formula, else from its task's
    words ("fit ... to T against L")."""
    # its formula, else one its task writes beside a model's name ("a power law p = C·L^m")
    written = [f for s in sentences(request.task) for f in formulas_in(s) + written_formulas(s)]
    for formula in [request.formula] if request.formula else written:
        named = named_by_formula(formula, candidates, handout.glossary)
        if named.responses or named.predictors:
            return named
    # "fit a straight line" after "plot p against T and then ln p against 1/T": the last plot
    # of "V_H–I_M and V_H–I_S curves", the pair this table holds both axes of
    said = [p for s in sentences(request.task) for p in pairings(s)]
    read = [named_by_pairing(pairing, candidates, handout.glossary)
            for pairing in said + list(reversed(pairings(request.plotted_before)))]  # fmt: skip
    both = (named for named in read if named.responses and named.predictors)
    either = (named for named in read if named.responses or named.predictors)
    if (named := next(both, None) or next(either, None)) is not None:
        return named
    # axes written as symbols no column is ("e0·|U_m| v odvisnosti od frekvence ν"): a
    # variable elsewhere; words alone ("the period against the length") may be a column's
    return Named(elsewhere=any(_writes_symbols(p.predictor) for p in said))


def _writes_symbols(phrase: str) -> bool:
    """Whether an axis's phrase writes a symbol (`ν`, `U_m`, `e0·|U_m|`), not words alone
    (a Latin letter alone may be prose: "a straight line")."""
    return any(
        is_symbol(token) and (len(token) > 1 or not token.isascii())
        for token in re.findall(r"[^\W\d]\w*", phrase)
    )


def requests_for(
    requests: list[Request],
    table: TableSummary,
    columns: list[Column],
    tables: list[TableSummary],
    handout: Handout | None = None,
) -> dict[str, list[Request]]:
    """For each of `columns` of `table` (`tables`: all the folder's), by key, the requests
    whose response it is:
    - a request that names a response (its formula's left side, the y of "y against x")
      concerns that column only, in whichever table holds it;
    - one that names only its predictor concerns the other columns of the table holding it
      (those its words name, where they name any);
    - one that names two or more predictors in the table concerns none of them (a multiple
      regression, fitted by the regression module);
    - one that names no column of any table concerns every column, unless its words name
      a column ("fit the voltage with ...") or its predictor is a quantity no column holds;
    - one whose task names data files concerns their tables alone (tools.assignment.task_files)."""
    handout = handout or Handout.of([r.task for r in requests], requests=requests)
    concerned: dict[str, list[Request]] = {c.key: [] for c in columns}
    for request in requests:
        files = named_tables(request.task, [(t.id, t.source) for t in tables])
        if files is not None and table.id not in files:
            continue  # "aus `c.csv`": the task's model is fitted to that file alone
        named = {t.id: request_columns(request, _measured(t), handout) for t in tables}
        here = named.get(table.id) or request_columns(request, _measured(table), handout)
        if len(here.predictors) >= 2:
            continue
        keys = {c.key for c in here.predictors}
        if any(map(stays_put, here.predictors)):
            continue  # "κ gegen T" where T stays at 20 °C (a titration's): not its data
        if here.responses:
            if not here.predictors and (
                _against_no_column(request, table, handout)  # "D gegen den … Linearisierungsterm"
                # "p gegen ϑ", U(x): the table that holds ϑ or x, not another that holds p alone
                or any(n.predictors for n in named.values())
            ):
                continue
            responses = {c.key for c in here.responses} - keys
            chosen = [c for c in columns if c.key in responses]
        elif any(n.responses for n in named.values()):
            continue  # its response is in another table
        elif here.predictors and not here.unnamed:  # not `ln[(C* − C)/(C* − C0)]` vs t
            # the columns its words name where it names any ("Con hResorte(cm) ... x = (g/k)·m")
            chosen = _of_its_dimension(request, [c for c in columns if c.key not in keys])
        elif (
            not any(n.predictors for n in named.values())
            and not here.elsewhere  # its axes are quantities no column holds (e·U against ν)
            and not _names_its_own(request)
            and not _axes_left_open(request, tables)
        ):
            chosen = columns
        else:
            continue
        for column in chosen:
            if here.responses or _mentions_column(request.task, table, column, tables):
                concerned[column.key].append(request)
    return concerned


def _against_no_column(request: Request, table: TableSummary, handout: Handout) -> bool:
    """Whether the task (or the plot before it that its line is of) plots its response
    against a quantity its words name, not a symbol or a measured quantity, and no column of
    `table` holds ("D gegen den jeweiligen Linearisierungsterm"): its line is not one
    against the table's variable."""
    return any(
        named_by_pairing(pairing, _measured(table), handout.glossary).elsewhere
        # words alone that name no quantity: a symbol (`l`) or "the time" may be the
        # variable a column holds under another name (`Length`, `t`)
        and not _writes_symbols(pairing.predictor) and not is_symbol(pairing.predictor.strip())
        and not named_quantities(pairing.predictor)
        for sentence in [*sentences(request.task), request.plotted_before]
        for pairing in pairings(sentence) if pairing.response and pairing.predictor
    )  # fmt: skip


# The placeholders of a formula written for any data: `y = a + b·x` is a line of whatever
# the task plots.
PLACEHOLDERS = frozenset({"x", "y"})


def _names_its_own(request: Request) -> bool:
    """Whether the request's formula writes its quantities by symbols of their own (i, v in
    i = I_s·(exp(v/(n·V_T)) − 1)), which name no column of any table: it is fitted to none
    rather than to whatever columns a file holds (the current of a diode against a time
    axis); a formula in x or y (y = b1·(1 − exp(−b2·t))) is one for any data."""
    if not request.formula:
        return False
    try:
        formula = parse_formula(request.formula)
    except FormulaError:  # `e U = h c/λ`: which is the response waits for the data
        return False
    return formula.x not in PLACEHOLDERS and formula.y not in PLACEHOLDERS


# A logger's transform of a recorded quantity (CASSY's `FFT f_3 / rad`): the quantity's
# spectrum, in its unit, and no recording of it.
_TRANSFORM = re.compile(r"\b(?:fft|fourier|spe[ck]tr)", re.IGNORECASE)


def _of_its_dimension(request: Request, columns: list[Column]) -> list[Column]:
    """Of `columns`, those of the dimension the formula's response symbol conventionally
    stands for where some are (φ(t) of a torsion pendulum: its angle in rad, not the
    logger's frequency or voltage beside it); all of them where none is or none is told."""
    try:
        response = parse_formula(request.formula).y if request.formula else ""
    except FormulaError:
        return columns
    in_time = [c for c in columns if not _TRANSFORM.search(c.name)]
    return conventional_column(response, in_time) or columns


def _axes_left_open(request: Request, tables: list[TableSummary]) -> bool:
    """Whether the task names its axes in words no column's name answers ("Δl (vůči
    výchozí poloze) na celkové hmotnosti závaží": quantities to form) in a folder whose
    columns leave a choice (several tables, or a table of more than two): its line is
    then not any pair of columns there is. Two columns of one table leave none."""
    if not any(pairings(s) for s in sentences(request.task)):
        return False
    return len(tables) > 1 or any(len(_measured(t)) > 2 for t in tables)


def _measured(table: TableSummary) -> list[Column]:
    return [c for c in table.columns if c.uncertainty_of is None and c.ratio_of is None]


def _mentions_column(
    task: str, table: TableSummary, column: Column, tables: list[TableSummary]
) -> bool:
    """Whether the task's words name `column`, or name no column of any table (a task that
    names none concerns them all). One-letter names are left out: prose uses them for
    anything."""
    others = [c for t in tables or [table] for c in t.columns if c.key != t.x and not c.ratio_of]
    words = words_in(task)
    return column.ratio_of is None and (
        mentions_words_of(words, column.name)
        or not any(mentions_words_of(words, c.name) for c in others)
    )
