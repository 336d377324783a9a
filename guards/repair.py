"""Invalid tool calls: tolerant repair of argument JSON, and the bounds arguments must keep
to enter the checkpointed state (the errors the model reads are in `messages`)."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$")
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


def repair_json_object(raw: str | None) -> dict[str, Any] | None:
    """Parse `raw` as a JSON object, repairing common model slips; None if it stays broken.

    Repairs: markdown fences, trailing commas, Python literals, single-quoted strings,
    and brackets or a string left open by a reply cut short.
    """
    if raw is None or not raw.strip():
        return {}
    text = _FENCE.sub("", raw.strip())
    for candidate in _candidates(text):
        try:
            value = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    return None


def _candidates(text: str) -> list[str]:
    fixed = _TRAILING_COMMA.sub(r"\1", text)
    for python, json_literal in _PY_LITERALS.items():
        fixed = re.sub(rf"\b{python}\b", json_literal, fixed)
    if "'" in fixed and '"' not in fixed:
        fixed = fixed.replace("'", '"')
    return [text, fixed, _close_open(fixed)]


def _close_open(text: str) -> str:
    """Close a string and any brackets a truncated reply left open, innermost first."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    closing = '"' if in_string else ""
    return _TRAILING_COMMA.sub(r"\1", text + closing + "".join(reversed(stack)))


# What a call's arguments may hold and still be checkpointed: msgpack, the checkpoint
# format, takes integers of 64 bits and nesting to a limited depth; no tool argument needs
# more, or strings longer than a figure's code.
MAX_DEPTH = 16
MAX_INT = 2**63 - 1
MAX_STRING = 100_000


def argument_problem(args: Any) -> str | None:
    """Why `args` cannot be a tool call's arguments (not an object, too deep, a number or a
    string too large), or None when they can."""
    if not isinstance(args, dict):
        return f"the arguments are a JSON {type(args).__name__}, not an object"
    pending: list[tuple[Any, int]] = [(args, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                return f"the arguments are nested deeper than {MAX_DEPTH} levels"
            children = value.values() if isinstance(value, dict) else value
            pending += [(child, depth + 1) for child in children]
            if isinstance(value, dict):
                pending += [(key, depth + 1) for key in value]
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            return "an argument is an integer too large (at most 2**63 - 1)"
        elif isinstance(value, str) and len(value) > MAX_STRING:
            return f"an argument is a string longer than {MAX_STRING:,} characters"
    return None
