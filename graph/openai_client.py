"""ChatOpenAI, tolerant of tool calls whose arguments are not a JSON object.

Models, the embedded one among them, send arguments such as `[1, 2]`, `"."` or `42`, or an
array nested hundreds deep. langchain-openai parses the JSON and builds the reply's
`tool_calls` from it, and a value that is not an object fails its validation: the whole
reply, and with it the run, fails. Here such a call becomes an invalid tool call, which the
explorer answers with an error it can fix, like arguments that are not JSON at all.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI

from labscribe.guards.messages import ARGUMENTS_NOT_AN_OBJECT, ARGUMENTS_TOO_DEEP
from labscribe.guards.repair import MAX_DEPTH


class TolerantChatOpenAI(ChatOpenAI):
    def _create_chat_result(
        self, response: Any, generation_info: dict[str, Any] | None = None
    ) -> ChatResult:
        if not isinstance(response, dict) and hasattr(response, "model_dump"):
            response = response.model_dump(warnings=False)
        set_aside: dict[int, list[dict[str, Any]]] = {}
        for index, choice in enumerate((response or {}).get("choices") or []):
            message = choice.get("message") or {}
            calls = message.get("tool_calls") or []
            kept = []
            for call in calls:
                problem = _not_an_object((call.get("function") or {}).get("arguments"))
                if problem is None:
                    kept.append(call)
                else:
                    set_aside.setdefault(index, []).append({**call, "problem": problem})
            if set_aside.get(index):
                message["tool_calls"] = kept or None
        result = super()._create_chat_result(response, generation_info)
        for index, calls in set_aside.items():
            reply = result.generations[index].message
            if isinstance(reply, AIMessage):
                reply.invalid_tool_calls = [*reply.invalid_tool_calls, *map(_invalid, calls)]
        return result


def _not_an_object(arguments: Any) -> str | None:
    """Why `arguments` (the JSON text of a call's arguments) parse to no object, if they
    parse at all; None for an object, or for text that is not JSON (handled downstream)."""
    if not isinstance(arguments, str):
        return None
    try:
        value = json.loads(arguments)
    except RecursionError:
        return ARGUMENTS_TOO_DEEP.format(depth=MAX_DEPTH)
    except ValueError:
        return None
    if isinstance(value, dict):
        return None
    return ARGUMENTS_NOT_AN_OBJECT.format(kind=type(value).__name__)


def _invalid(call: dict[str, Any]) -> dict[str, Any]:
    function = call.get("function") or {}
    return {
        "type": "invalid_tool_call",
        "name": function.get("name"),
        "args": function.get("arguments"),
        "id": call.get("id"),
        "error": call["problem"],
    }
