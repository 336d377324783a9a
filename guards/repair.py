"""Invalid tool calls: tolerant repair of argument JSON (the errors are in `messages`)."""

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
