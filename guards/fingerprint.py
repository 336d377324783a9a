"""Call fingerprint: a call's identity written down, and the short keys the guards count by."""

from __future__ import annotations

import hashlib
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


def call_key(name: str, identity: Any, *qualifiers: str) -> str:
    """`name|digest` of the call's identity and `qualifiers` (what it returned, a version).

    Fixed-size whatever the arguments (figure code can run to kilobytes), so counting,
    caching and the checkpointed guard state stay small.
    """
    text = "\n".join([fingerprint(name, identity), *qualifiers])
    return f"{name}|{digest(text)}"


def digest(text: str) -> str:
    """A short stable digest of `text`: 96 bits, far from colliding in one run."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def tool_of(key: str) -> str:
    """The tool name a call key starts with."""
    return key.split("|", 1)[0]


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # a broken __repr__ must not take the loop down with it
        return f"<unrepresentable {type(value).__name__}>"
