"""The loop guards' one entry: `judge(state, event, policy)`.

Every event of the explore loop comes here and gets a judgement: what to do, the guard
state after it, and the halt record when it halts. Nothing is counted or tallied anywhere
else. The judgement's state is the one it was given, brought up to date (copying a state
that holds every answer of an attempt would cost more than the decision itself): the node
loads it afresh from the graph's state for each step (`GuardState.load` copies) and stores
the judgement's back. The events, in the order a turn meets them:

- `Reply`: a model reply. Empty replies in a row halt; calls beyond MAX_CALLS_PER_REPLY, and
  every call of a reply cut off by the output limit, are answered "not executed".
- `Asked`: a pending call, before it runs. A terminal call runs uncounted. A mutating call
  is judged on what it asks (its normalised code), and on the run of calls that added
  nothing before it, so a refused figure is never drawn. A read-only call is answered from
  the cache when an identical read of an unchanged target was answered before.
- `Answered`: what the call showed. A read is judged on it: identical calls climb the
  ladder (guard_state.py), cycles of calls are caught (detectors.py), a run of calls that show
  nothing new climbs too (guard_state.py). A failure, a refused call's included, shows its
  error's kind: one already seen adds nothing, and one repeated in a row feeds the failure
  streak (detectors.py).

Detectors answer (detectors.py: the ladder, cycles, streaks; guard_state.py: progress); this
module asks them in the order of SPEC section 3, keeps their tallies in the guard state
(plain data: guard_state.py), and the node acts on the result (nodes/explore.py). Like the
OpenHands stuck detector, it holds no LangGraph or LangChain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from labscribe.guards.bounds import MAX_CALLS_PER_REPLY
from labscribe.guards.detectors import (
    Allow,
    Block,
    FailurePolicy,
    Halt,
    LadderPolicy,
    ToolClass,
    Verdict,
    Warn,
    climb,
    failure_kind,
    judge_cycle,
    judge_silence,
    judge_streak,
    most_severe,
)
from labscribe.guards.guard_state import GuardState, Shown, answer_key, digest, failed, tool_of
from labscribe.guards.messages import (
    CUT_OFF,
    NO_PROGRESS_BEFORE_RUN_BLOCK,
    NO_PROGRESS_BLOCK,
    NO_PROGRESS_HALT_REASON,
    NO_PROGRESS_NUDGE,
    NOT_EXECUTED,
    TOO_MANY_CALLS,
)
from labscribe.guards.statuses import Termination, halt_record


@dataclass(frozen=True)
class Policy:
    """What the guards read of a run's configuration."""

    ladder: LadderPolicy
    failures: FailurePolicy
    classes: Mapping[str, ToolClass]
    """Each tool's class, as declared and re-classed (LadderPolicy.classes)."""


@dataclass(frozen=True)
class Call:
    """A pending call, as the guards know it."""

    id: str
    tool: str
    args: Any
    key: str = ""
    """What it asks: the tool and its arguments by meaning (guard_state.py), for counting."""
    target: str = ""
    """What a read asks without its window: how answers to it are compared."""
    cache_key: str | None = None
    """For a read of an unchanged target: the key its answer is cached under."""
    version: str | None = None
    """Which state of its target a read reads (a file's version)."""
    refused: str | None = None
    """Why it cannot run at all (invalid arguments, an unknown tool): the error to answer."""
    named: tuple[str, ...] = ()
    """The paths it names, as spelled: in its error, they are paths (`failure_kind`)."""

    def shown(self, text: str, lines: tuple[int, int] | None) -> Shown:
        """What an answer of `text` (and, for a window of a file, `lines`) showed."""
        return Shown(self.target, digest(text), lines=lines, version=self.version)


@dataclass(frozen=True)
class Result:
    """What a call that ran showed the explorer."""

    ok: bool
    error: str | None = None
    """The tool's error, for a failed call."""
    shown: Shown | None = None
    """What a read showed (its window, a digest of its text)."""


@dataclass(frozen=True)
class Reply:
    """A model reply, as the guards know it."""

    calls: tuple[str, ...]
    """The ids of its tool calls, in order."""
    text: bool
    """Whether it has text."""
    cut_off: bool
    """Whether the endpoint cut it at the output limit (finish_reason "length")."""


@dataclass(frozen=True)
class Asked:
    call: Call


@dataclass(frozen=True)
class Answered:
    call: Call
    result: Result
    asked: Verdict = field(default_factory=Allow)
    """The verdict the call got when asked (a mutating call's ladder rung)."""


Event = Reply | Asked | Answered


@dataclass(frozen=True)
class Judgement:
    """What the guards decided, and the state after it."""

    state: GuardState
    verdict: Verdict | None = None
    """The loop detectors' verdict on a counted call: Allow, Warn (its nudge closes the
    answer), Block (its message is the answer) or Halt (the call is not run, or its answer
    not shown); None for a call they do not count (terminal, refused). A reply's: the
    empty-reply streak's."""
    run: bool = True
    """Asked: whether the tool runs. Answered: whether its answer is shown."""
    cached: str | None = None
    """Asked: the id of the call whose identical answer stands in for running it."""
    nudges: tuple[str, ...] = ()
    """Texts that close the answer (a warning, the failure streak's reflection)."""
    halt: dict[str, Any] | None = None
    """The halt record, in the one shape every halt has (statuses.halt_record): the
    detectors' halt, or the failure streak's (the answer is shown, and exploration ends)."""
    refuse: tuple[tuple[str, str], ...] = ()
    """Reply: (call id, answer) for each call that will not run."""
    ended: Termination | None = None
    """Reply: how exploration ends, when the reply ends it."""


def judge(state: GuardState, event: Event, policy: Policy) -> Judgement:
    """The guards' judgement of `event`, and `state` brought up to date with it."""
    if isinstance(event, Reply):
        return _reply(state, event, policy)
    if isinstance(event, Asked):
        return _asked(state, event.call, policy)
    return _answered(state, event, policy)


def _reply(state: GuardState, reply: Reply, policy: Policy) -> Judgement:
    silence = record_reply(state, policy.failures, empty=not reply.calls and not reply.text)
    excess = reply.calls[MAX_CALLS_PER_REPLY:]
    refuse = [(i, TOO_MANY_CALLS.format(limit=MAX_CALLS_PER_REPLY)) for i in excess]
    if reply.cut_off:
        refuse += [(i, NOT_EXECUTED.format(why=CUT_OFF)) for i in reply.calls]
        return Judgement(state, refuse=tuple(refuse), ended=Termination.LENGTH)
    if isinstance(silence, Halt):
        record = record_halt(state, silence)
        return Judgement(state, silence, halt=record, refuse=tuple(refuse))
    return Judgement(state, silence, refuse=tuple(refuse))


def _asked(state: GuardState, call: Call, policy: Policy) -> Judgement:
    tool_class = policy.classes.get(call.tool)
    if call.refused is not None or tool_class in (None, ToolClass.TERMINAL):
        return Judgement(state)  # a refused call is judged on its answer; a terminal one runs
    if tool_class is ToolClass.MUTATING:
        ladder = count_identical(state, policy.ladder, call.key, tool_class)
        if isinstance(ladder, Block | Halt) or stalled(state, policy.ladder):
            refused = record_shown(state, policy.ladder, call.tool, None)
            return _settled(state, call, settle(state, ladder, refused), run=False)
        return Judgement(state, ladder)  # settled once the call has shown what it did
    cached = state.cache.get(call.cache_key or "")
    return Judgement(state, Allow(), cached=cached)


def _answered(state: GuardState, answered: Answered, policy: Policy) -> Judgement:
    call, result = answered.call, answered.result
    tool_class = policy.classes.get(call.tool)
    kind = None if result.ok else failure_kind(result.error or "", call.named)
    streak = record_outcome(state, policy.failures, kind)
    # What the call showed: a read its answer, a figure its code, a failure its error's kind.
    shown = failed(kind) if kind is not None else result.shown
    verdict: Verdict | None = None
    if call.refused is None and tool_class is ToolClass.TERMINAL:
        verdict = Allow()  # it runs, and is never counted
    elif call.refused is None and tool_class is ToolClass.MUTATING:
        # what a mutating call shows is what it did: the same code draws the same figure
        shown = shown if kind is not None else Shown(call.key, call.key)
        verdict = _progressed(state, call.tool, answered.asked, shown, call.key, policy)
    elif call.refused is None and tool_class is ToolClass.READ_ONLY:
        if result.ok and call.cache_key is not None:
            state.cache.setdefault(call.cache_key, call.id)
        lines = result.shown.lines if result.shown else None
        key = answer_key(call.tool, call.target, lines, shown.digest if shown else "")
        ladder = count_identical(state, policy.ladder, key, ToolClass.READ_ONLY)
        verdict = _progressed(state, call.tool, ladder, shown, key, policy)
    elif kind is not None:  # refused: not a call of a tool, but a failure all the same
        verdict = _progressed(state, call.tool, Allow(), shown, None, policy)
    if isinstance(streak, Halt):  # the streak's halt is the more telling: its answer is shown
        halt = record_halt(state, streak, tool=call.tool, args=call.args)
        shown_verdict = verdict if not isinstance(verdict, Block | Halt) else Allow()
        return Judgement(state, shown_verdict, nudges=_nudges(shown_verdict), halt=halt)
    if isinstance(verdict, Block | Halt):
        return _settled(state, call, verdict, run=False)
    return Judgement(state, verdict, nudges=_nudges(verdict, streak))


def _nudges(*verdicts: Verdict | None) -> tuple[str, ...]:
    return tuple(verdict.nudge for verdict in verdicts if isinstance(verdict, Warn))


def _progressed(
    state: GuardState,
    tool: str,
    ladder: Verdict,
    shown: Shown | None,
    key: str | None,
    policy: Policy,
) -> Verdict:
    """The ladder's verdict settled with the progress check's on what the call showed."""
    if shown is None:
        return settle(state, ladder)
    return settle(state, ladder, record_shown(state, policy.ladder, tool, shown, key))


def _settled(state: GuardState, call: Call, verdict: Verdict, *, run: bool) -> Judgement:
    """A call the detectors refuse: blocked, or halting exploration."""
    record = record_halt(state, verdict, tool=call.tool, args=call.args) if isinstance(
        verdict, Halt
    ) else None  # fmt: skip
    return Judgement(state, verdict, run=run, halt=record)


# The tallies each detector keeps, in the guard state: changed here and nowhere else.


def count_identical(
    state: GuardState, policy: LadderPolicy, key: str, tool_class: ToolClass
) -> Verdict:
    """Count this call among identical ones; the ladder's and the cycle check's verdict.

    An identical call made after `reread_spacing` productive calls is an occasional
    re-read: its count starts again, so looking back now and then never climbs.
    """
    rungs = policy.rungs_for(tool_class)
    if rungs is None:
        return Allow()
    spacing = policy.progress.reread_spacing if policy.progress else None
    count, mark = state.counts.get(key, [0, state.productive])
    if count and spacing is not None and state.productive - mark >= spacing:
        count = 0
    count += 1
    state.counts[key] = [count, state.productive]
    verdict = climb(rungs, tool_of(key), count)
    if policy.cycles is not None and isinstance(verdict, Allow | Warn):
        state.recent = [*state.recent, key][-policy.cycles.memory :]
        verdict = most_severe(verdict, judge_cycle(policy.cycles, state.recent))
    return verdict


def record_shown(
    state: GuardState, policy: LadderPolicy, tool: str, shown: Shown | None, key: str | None = None
) -> Verdict:
    """Record what the counted call `key` showed (None: nothing, for it was not run); a
    verdict on the run of calls that added nothing, which climbs the read-only rungs one
    call earlier than identical calls do (the first of n identical calls is new, the
    other n - 1 are not).
    """
    if policy.progress is None:
        return Allow()
    new = state.seen.take(shown) if shown is not None else 0.0
    if new >= policy.progress.min_new_share:
        state.productive += 1
        state.idle = 0
        if key in state.counts:  # a productive call is not progress made since itself
            state.counts[key][1] = state.productive
        return Allow()
    state.idle += 1
    rung = policy.read_only.rung(state.idle + 1)
    if rung == "halt":
        reason = NO_PROGRESS_HALT_REASON.format(streak=state.idle)
        return Halt(reason, Termination.NO_PROGRESS)
    if rung == "block":
        block = NO_PROGRESS_BLOCK if shown is not None else NO_PROGRESS_BEFORE_RUN_BLOCK
        return Block(block.format(tool=tool, streak_before=state.idle - 1))
    if rung == "warn":
        return Warn(NO_PROGRESS_NUDGE.format(streak=state.idle))
    return Allow()


def stalled(state: GuardState, policy: LadderPolicy) -> bool:
    """Whether the next call that adds nothing would be refused. A costly call is then
    refused before it runs: whether it adds anything is known only once it has run."""
    rung = policy.read_only.rung(state.idle + 2) if policy.progress is not None else None
    return rung in ("block", "halt")


def settle(state: GuardState, *verdicts: Verdict) -> Verdict:
    """The one verdict a call gets from its detectors, most telling first; tallied.

    The closing nudge is given once per attempt: a warning after it simply runs.
    """
    verdict = most_severe(*verdicts)
    if isinstance(verdict, Warn):
        if state.nudged:
            return Allow()
        state.nudged = True
        state.warned += 1
    elif isinstance(verdict, Block):
        state.blocked += 1
    return verdict


def record_outcome(state: GuardState, policy: FailurePolicy, kind: str | None) -> Verdict:
    """Track the streak of one failure: `kind` is the failure's (`failures.failure_kind`),
    None a success."""
    if kind is None:
        state.failure_streak, state.failure_kind = 0, None
        return Allow()
    state.failure_streak = state.failure_streak + 1 if kind == state.failure_kind else 1
    state.failure_kind = kind
    return judge_streak(policy, state.failure_streak)


def record_reply(state: GuardState, policy: FailurePolicy, *, empty: bool) -> Verdict:
    """Track replies with neither text nor a tool call; any other reply ends the run."""
    state.empty_replies = state.empty_replies + 1 if empty else 0
    return judge_silence(policy, state.empty_replies)


def record_halt(
    state: GuardState, halt: Halt, *, tool: str | None = None, args: Any = None
) -> dict[str, Any]:
    """`halt` in the history, in the one shape every halt has; the node puts it in force."""
    record = halt_record(halt.cause, halt.reason, tool=tool, args=args)
    state.halts.append(record)
    return record
