"""Call fingerprint: what makes two tool calls "the same call"."""

from __future__ import annotations

import json
from typing import Any


def fingerprint(name: str, args: Any) -> str:
    """`name|canonical JSON of all arguments`, keys sorted at every depth.

    Every argument counts, so `read_file` at offset 0 and at offset 100 are different
    calls and legitimate paging is never punished. Key order never matters. It never
    raises: arguments JSON cannot encode fall back to their `repr`.
    """
    try:
        canonical = json.dumps(args, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        canonical = _safe_repr(args)
    return f"{name}|{canonical}"


def tool_of(key: str) -> str:
    """The tool name a fingerprint (or a call key built on one) starts with."""
    return key.split("|", 1)[0]


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # a broken __repr__ must not take the loop down with it
        return f"<unrepresentable {type(value).__name__}>"
