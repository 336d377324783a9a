"""Invalid tool calls: tolerant repair of argument JSON, and the bounds arguments must keep
to enter the checkpointed state (the errors the model reads are in `messages`); and text
made valid to enter it, whoever wrote it (`valid_text`)."""

from __future__ import annotations

import json
import re
from typing import Any

import json_repair

from labscribe.guards.messages import (
    ARGUMENT_INTEGER_TOO_LARGE,
    ARGUMENT_STRING_TOO_LONG,
    ARGUMENTS_KEPT,
    ARGUMENTS_NOT_AN_OBJECT,
    ARGUMENTS_TOO_DEEP,
    ARGUMENTS_TOO_LARGE,
)

# json-repair spends about 0.1 ms per bracket it opens: a reply of brackets alone (a broken or
# hostile endpoint) would hold the run for seconds. No tool's arguments need this many.
MAX_REPAIRED_BRACKETS = 4_096
# Lone surrogates: what a string may hold and UTF-8 text may not.
_NOT_TEXT = re.compile("[\ud800-\udfff]")


def repair_json_object(raw: str | None) -> dict[str, Any] | None:
    """Parse `raw` as a JSON object, repaired by json-repair when a model slipped (markdown
    fences, trailing commas, Python literals, single quotes, a reply cut short), strings
    left as they were written; None when what it holds is not an object."""
    if raw is None or not raw.strip():
        return {}
    if len(raw) > MAX_ARGUMENTS_CHARS:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        if raw.count("{") + raw.count("[") > MAX_REPAIRED_BRACKETS:
            return None
        try:
            value = json_repair.loads(raw)
        except (ValueError, RecursionError):
            return None
    except RecursionError:
        return None
    return value if isinstance(value, dict) else None


# What a call's arguments may hold and still be checkpointed: msgpack, the checkpoint
# format, takes integers of 64 bits and nesting to a limited depth; no tool argument needs
# more, or strings longer than a figure's code.
MAX_DEPTH = 16
MAX_INT = 2**63 - 1
MAX_STRING = 100_000
MAX_ARGUMENTS_CHARS = 2 * MAX_STRING
"""Of a call's arguments in all: a figure's code and its caption fit, an endless write does
not (a 5 MB argument kept in the history would overflow the window at the next request)."""
KEPT_ARGS_CHARS = 2_000
"""Of an invalid call's arguments: what the history keeps, to show the model its mistake."""


def argument_problem(args: Any) -> str | None:
    """Why `args` cannot be a tool call's arguments (not an object, too deep, a number or a
    string too large), or None when they can."""
    if not isinstance(args, dict):
        return ARGUMENTS_NOT_AN_OBJECT.format(kind=type(args).__name__)
    pending: list[tuple[Any, int]] = [(args, 1)]
    chars = 0
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return ARGUMENTS_TOO_DEEP.format(depth=MAX_DEPTH)
            children = value.values() if isinstance(value, dict) else value
            pending += [(child, depth + 1) for child in children]
            if isinstance(value, dict):
                pending += [(key, depth + 1) for key in value]
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            return ARGUMENT_INTEGER_TOO_LARGE
        elif isinstance(value, str) and len(value) > MAX_STRING:
            return ARGUMENT_STRING_TOO_LONG.format(limit=MAX_STRING)
        elif isinstance(value, str):
            chars += len(value)
            if chars > MAX_ARGUMENTS_CHARS:
                return too_large(chars)
    return None


def too_large(chars: int) -> str:
    return ARGUMENTS_TOO_LARGE.format(chars=chars, limit=MAX_ARGUMENTS_CHARS)


def kept_args(args: Any) -> str | None:
    """An invalid call's arguments as the history keeps them: as text, their first
    KEPT_ARGS_CHARS characters and a note of how many more there were."""
    if args is None:
        return None
    text = args if isinstance(args, str) else json.dumps(args, default=repr, ensure_ascii=False)
    if len(text) <= KEPT_ARGS_CHARS:
        return text
    return text[:KEPT_ARGS_CHARS] + ARGUMENTS_KEPT.format(more=len(text) - KEPT_ARGS_CHARS)


def valid_text(value: Any, depth: int = 0) -> Any:
    """`value` with each code point that is not text in its strings (keys too) replaced by
    U+FFFD: a lone surrogate, as Python keeps a byte of a command line that is not UTF-8 or
    as JSON may escape one (`\\ud800`), cannot be sent or stored. Lists and dicts are
    walked MAX_DEPTH deep, as deep as a call's arguments may nest."""
    if isinstance(value, str):
        return _NOT_TEXT.sub("\ufffd", value)
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {valid_text(key): valid_text(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [valid_text(item, depth + 1) for item in value]
    return value
