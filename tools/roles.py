"""Which column of a table is the response and which the predictor: decided once per table
and recorded on it (`TableSummary.x`, `.response`, `.predictors`, `.roles`), so the requested
fits, the standard fits, the figures and the checklist all read one decision.

The assignment decides where its words name the columns, whatever their order in the file:
its formulas (the left side is the response, the variable the predictor), "plot y against
x", "y as a function of x", "trage y gegen x auf", "作 y-x 图", "以 x 为横坐标"
(tools.role_phrases). A phrase names a column by the column's name or symbol, or by the
words the handout uses for the symbol ("the period T" names a column `period`;
tools.column_names). A column
that only numbers the rows is never the predictor. Where the assignment names neither, the
data's own evidence decides (a set variable is stepped evenly or round, tools.set_values),
and the table records a sentence saying which column was taken and why.

A request that names two or more predictors (a multiple regression) is not fitted here:
`predictors_named` says which columns it names, for the regression that fits it.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field, replace

import numpy as np

from labscribe.tools.axis_expressions import written_formulas
from labscribe.tools.base import Folder, ToolError
from labscribe.tools.clocks import set_aside_clocks
from labscribe.tools.column_names import (
    Named,
    named_by_formula,
    named_by_pairing,
)
from labscribe.tools.columns import (
    SWEPT_NAMES,
    X_NAMES,
    Column,
    follows_counter,
    mark_maxima,
)
from labscribe.tools.data_facts import words_of
from labscribe.tools.directions import direction_note
from labscribe.tools.formula_notation import formulas_in
from labscribe.tools.formula_parse import FormulaError, parse_formula
from labscribe.tools.handout_latex import inline_math_text
from labscribe.tools.parameters import ParameterRow
from labscribe.tools.quantity_words import named_quantities
from labscribe.tools.reading import read_in
from labscribe.tools.requested import FIT_CUE, Request
from labscribe.tools.role_phrases import glossary, is_symbol, pairings, sentences
from labscribe.tools.row_numbers import set_aside, set_aside_letter_counts
from labscribe.tools.set_values import (
    barely_varies,
    labels_rows,
    read_again_and_again,
    scatters_about_one_value,
    set_evidence,
)
from labscribe.tools.tables import Table, TableSummary
from labscribe.tools.task_files import named_tables
from labscribe.tools.tasks import MAX_CHARS, MAX_LINES

MAX_QUOTED = 110  # characters of the assignment's sentence a role note quotes


@dataclass(frozen=True)
class Handout:
    """What of the assignment the roles are read from."""

    tasks: tuple[str, ...] = ()
    text: str = ""
    """The whole handout, tasks included ("" when only the tasks are known)."""
    requests: tuple[Request, ...] = ()
    glossary: dict[str, set[str]] = field(default_factory=dict)
    """Which words name which symbol: {"T": {"period"}} (tools.role_phrases)."""
    values: tuple[ParameterRow, ...] = ()
    """The values the parameter files and the handout's prose state (tools.stated_values):
    what a task's definition of a symbol (V_T = k_B T/e) is worked out from."""
    stated: tuple[ParameterRow, ...] = ()
    """The values of them the handout's prose states ("Die Amplitude der Generatorspannung
    betrug U_0 = 4,2 V"): a formula's symbol among them that no task asks for is fixed."""

    @classmethod
    def of(cls, tasks: list[str], text: str = "", requests: list[Request] = ()) -> Handout:  # type: ignore[assignment]
        return cls(tuple(tasks), text, tuple(requests), glossary(f"{text}\n" + "\n".join(tasks)))


def read_handout(
    folder: Folder, rel: str | None, tasks: list[str], requests: list[Request]
) -> Handout:
    """The handout `rel` names, read as text beside its tasks (its formulas and the words it
    uses for symbols stand in its prose too); only the tasks where it cannot be read."""
    text = ""
    if rel is not None:
        # one that cannot be read is named by the analysis already
        with contextlib.suppress(ToolError):
            text = read_in(folder, rel, limit=MAX_LINES, max_chars=MAX_CHARS)
    return Handout.of(tasks, inline_math_text(_body(text)), requests)  # `$U_{34}$` is U_34


def _body(text: str) -> str:
    """The document's text without the reader's own lines (`[file: lines 1-65 ...]`)."""
    return "\n".join(
        line for line in text.splitlines()
        if not re.match(r"^\s*(?:\[.*\]|--- page \d+.*---)\s*$", line)
    )  # fmt: skip


def decide_roles(tables: list[Table], handout: Handout) -> None:
    """Record on each table which column is the predictor (its `x`) and which the response,
    from the assignment's words where they name the columns, else from the data; a table
    whose x moves gets its columns' maxima marked again."""
    for table in tables:
        summary = table.summary
        before = summary.x
        set_aside_letter_counts(table, f"{handout.text}\n" + "\n".join(handout.tasks))
        _set_aside_labels(table)
        _decide(table, handout)
        set_aside_clocks(table)
        if note := direction_note(summary):
            summary.roles = f"{summary.roles} {note[0].upper()}{note[1:]}".strip()
        if summary.x != before:
            mark_maxima(summary.columns, table.frame, summary.x)


def _set_aside_labels(table: Table) -> None:
    """Set the columns that label the rows (`组号`, `Gruppe`, `NGC`) aside with those that
    number them: no variable, never fitted; the table's variable chosen again without them."""
    summary = table.summary
    measured = _candidates(table)
    labels = [
        c for c in summary.columns
        if c.uncertainty_of is None and c.ratio_of is None and not c.formed
        and labels_rows(c.name, table.frame[c.key].to_numpy(dtype=float))
        and not _numbers_a_sequence(table, c, measured)
    ]  # fmt: skip
    set_aside(table, labels)


def _numbers_a_sequence(table: Table, label: Column, measured: list[Column]) -> bool:
    """Whether `label` (`Sample Number`) numbers the readings of the one quantity the table
    measures as they change (a source's counts, sample by sample): their variable."""
    others = [c for c in measured if c.key != label.key]
    return len(others) == 1 and follows_counter(table.frame, others[0], label)


def _decide(table: Table, handout: Handout) -> None:
    summary = table.summary
    candidates = _candidates(table)
    if summary.x is None or len(candidates) < 2:
        return
    statements = _statements(summary, candidates, handout)
    for number, (text, named) in enumerate(statements):
        responses = {c.key for c in named.responses}
        if responses & {c.key for c in named.predictors}:
            continue  # its words for both axes name one column: it says nothing of the roles
        predictors = [c for c in named.predictors if c.key not in responses]
        response = named.responses[-1] if named.responses else None
        if (len(predictors) >= 2 or (named.symbols and response is None)) and not FIT_CUE.search(
            text
        ):
            continue  # a formula that defines a quantity (FF = P/(V·I), N = Z/Δt) asks no fit
        if len(predictors) >= 2:
            _several(summary, predictors, response, text)
            return
        if not predictors and response is not None and len(candidates) == 2 and not named.elsewhere:
            predictors = [c for c in candidates if c.key != response.key]
        if not predictors:
            continue
        x = predictors[0]
        if response is None:  # a later statement may name what is fitted against x
            later = [(t, n.responses[-1]) for t, n in statements[number + 1 :] if n.responses]
            text, response = next(
                ((t, c) for t, c in later if c.key != x.key), (text, None)
            )  # the statement that names the response is the one quoted for it
        summary.x = x.key
        summary.response = response.key if response and response.key != x.key else None
        what = (
            f"{response.name} is taken as the response to {x.name}" if summary.response
            else f"{x.name} is taken as the variable"
        )  # fmt: skip
        summary.roles = f"{what}, as the assignment says ({_quote(text)})."
        return
    _decide_from_data(table, candidates)


def _several(
    summary: TableSummary, predictors: list[Column], response: Column | None, text: str
) -> None:
    """Record a statement that names two or more predictors: a multiple regression's."""
    summary.predictors = [c.key for c in predictors]
    summary.response = response.key if response else None
    names = " and ".join(c.name for c in predictors)
    of = f" of {response.name}" if response else ""
    summary.roles = (
        f"The assignment names {names} as predictors{of} ({_quote(text)}): a fit on several "
        "predictors at once."
    )
    if summary.x not in summary.predictors:
        summary.x = predictors[0].key


def _candidates(table: Table) -> list[Column]:
    """The measured columns that may be a response or a predictor (those that only number
    the rows are set aside when the table is read: tools.counting)."""
    return [
        c for c in table.summary.columns
        if c.uncertainty_of is None and c.ratio_of is None and c.count
    ]  # fmt: skip


def _statements(
    summary: TableSummary, candidates: list[Column], handout: Handout
) -> list[tuple[str, Named]]:
    """What the assignment says of this table's columns: first what its tasks say of the
    axes ("plot T against L"; a pair this table holds both axes of before one it holds one
    of), then the formulas its tasks ask to fit, then the rest of the handout, its words
    before its formulas."""
    words = handout.glossary
    tasks = [s for task in handout.tasks for s in sentences(task)]
    rest = [s for s in sentences(handout.text) if s not in tasks]
    said = [(s, named_by_pairing(p, candidates, words)) for s in tasks for p in pairings(s)]
    found = sorted(
        said, key=lambda statement: not (statement[1].responses and statement[1].predictors)
    )
    found += [(r.task, named_by_formula(r.formula, candidates, words))
              for r in handout.requests if r.formula]  # fmt: skip
    found += [(s, named_by_pairing(p, candidates, words)) for s in rest for p in pairings(s)]
    # a formula of the prose defines or states (`x = R_max·ρ`, `T = const`): where its right
    # side names no column, the table's other column is not its variable
    found += [(s, replace(named, elsewhere=not named.predictors))
              for s in rest for f in formulas_in(s)
              for named in [named_by_formula(f, candidates, words)]]  # fmt: skip
    return [(text, named) for text, named in found if named.responses or named.predictors]


def _quote(text: str) -> str:
    cut = text if len(text) <= MAX_QUOTED else text[: MAX_QUOTED - 1].rsplit(" ", 1)[0] + "…"
    return f"“{cut}”"


def _condition(column: Column) -> bool:
    """Whether `column` holds a condition recorded beside the readings (tools.set_values)."""
    return barely_varies(column.minimum, column.maximum, column.unit)


def _timed_side_by_side(table: Table, candidates: list[Column]) -> bool:
    """Whether the columns, of one unit, are each one quantity read again and again (a
    sphere's and a cylinder's times of four swings, ten of each) and none follows another:
    nothing was set, so nothing is measured against."""
    frame = table.frame
    if len({c.unit for c in candidates}) != 1 or not candidates[0].unit:
        return False
    if not all(read_again_and_again(frame[c.key].to_numpy(dtype=float)) for c in candidates):
        return False
    return not any(
        follows_counter(frame, one, other)
        for i, one in enumerate(candidates)
        for other in candidates[i + 1 :]
    )


def _decide_from_data(table: Table, candidates: list[Column]) -> None:
    """The variable where the assignment names none: the chosen x where its values show it
    was set, else the one column whose values do, else the chosen x; with a sentence."""
    summary = table.summary
    if all(
        scatters_about_one_value(table.frame[c.key].to_numpy(dtype=float)) for c in candidates
    ) or _timed_side_by_side(table, candidates):
        summary.x = None  # a table of repeats: each column's mean is its analysis
        summary.roles = (
            f"{_names(candidates)} are each read again and again: their values scatter "
            "about one value and none was set, so none is fitted against another."
        )
        return
    evidence = {c.key: set_evidence(table.frame[c.key].to_numpy(dtype=float)) for c in candidates}
    chosen = summary.column(summary.x or "")
    if chosen not in candidates:  # a column that numbers the rows is no variable
        setting = [c for c in candidates if evidence[c.key]]
        chosen = setting[0] if len(setting) == 1 else candidates[0]
        summary.x = chosen.key
    others = [c for c in candidates if c.key != chosen.key]
    if not evidence[chosen.key] and not _named_variable(chosen):
        # a logger's setpoint is round but no variable beside its clock: only a column whose
        # values run in order as the rows do takes the place of one that also runs in order
        ordered = _in_order(table, chosen)
        setting = [c for c in others if evidence[c.key] and (_in_order(table, c) or not ordered)]
        if len(setting) == 1:
            chosen = setting[0]
            summary.x = chosen.key
            others = [c for c in candidates if c.key != chosen.key]
    measured = [c for c in others if not evidence[c.key]]
    if evidence[chosen.key]:
        tail = f", {_possessive(measured)} are measured" if measured else ""
        summary.roles = f"{chosen.name} was taken as the variable: {evidence[chosen.key]}{tail}."
    else:
        summary.roles = (
            f"{chosen.name} was taken as the variable by its place and name in the table: "
            "neither the assignment nor the values say which column was set."
        )


def _named_variable(column: Column) -> bool:
    """Whether the column is named as a variable is (`time`, `frequency`, `λ`)."""
    name = column.name.strip()
    # a one-letter name keeps its case: `t` is a time, `T` a period or a temperature
    return name in X_NAMES if len(name) == 1 else name.lower() in X_NAMES | SWEPT_NAMES


def _in_order(table: Table, column: Column) -> bool:
    steps = np.diff(table.frame[column.key].dropna().to_numpy(dtype=float))
    return bool(len(steps)) and bool(np.all(steps >= 0) or np.all(steps <= 0))


def _names(columns: list[Column]) -> str:
    names = [c.name for c in columns]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _possessive(columns: list[Column]) -> str:
    names = [f"{c.name}'s" for c in columns[:3]]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def predictors_named(request: Request, table: TableSummary, handout: Handout) -> list[Column]:
    """The columns of `table` that `request` names as predictors: the symbols on its
    formula's right side, or the phrase after "against" / "as a function of" in its task.
    Two or more mean a multiple regression, fitted by the regression module, not here."""
    candidates = [c for c in table.columns if c.uncertainty_of is None and c.ratio_of is None]
    return list(request_columns(request, candidates, handout).predictors)


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
    - one whose task names data files concerns their tables alone (tools.task_files)."""
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
        if any(_condition(c) for c in here.predictors):
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
            chosen = [c for c in columns if c.key not in keys]
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
    words = frozenset(re.findall(r"[a-z0-9_]+", task.lower()))

    def mentions(c: Column) -> bool:
        return bool({w for w in words_of(c.name) if len(w) >= 2} & words)

    others = [c for t in tables or [table] for c in t.columns if c.key != t.x and not c.ratio_of]
    return column.ratio_of is None and (mentions(column) or not any(map(mentions, others)))
