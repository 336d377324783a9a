"""Model factory: one chat model per role, built lazily from the run's configuration."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.callbacks import BaseCallbackHandler
from langgraph.types import interrupt

from labscribe.graph.context import Context
from labscribe.graph.local_model import (
    EMBEDDED_CONTEXT_TOKENS,
    LocalModelError,
    check_local_model,
    local_server,
    never_pays_off,
)
from labscribe.graph.progress import emit
from labscribe.guards.human import halt_request
from labscribe.guards.statuses import HaltKind, Termination, classify_model_error
from labscribe.tools.images import VisionReader

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.runnables import Runnable

Role = Literal["explore", "write"]
ROLES: tuple[Role, ...] = ("explore", "write")

DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"
DEFAULT_CONTEXT_TOKENS = 32_768  # safe for every current endpoint; raise it with --context-tokens
KNOWN_CONTEXT_TOKENS = {"deepseek-chat": 131_072, "deepseek-reasoner": 131_072}

DEFAULT_REQUEST_TIMEOUT = 120.0  # seconds; a streamed reply counts it per chunk, not in all
DEFAULT_MAX_RETRIES = 2  # the client's own retries, with exponential backoff
# The embedded model shares 2 cores with everything else: a long reply under load can take
# minutes, and a retry would only queue behind the generation still running, so it gets
# a longer timeout and no retries.
EMBEDDED_REQUEST_TIMEOUT = 900.0
# Replies the embedded model may write: the rest of its 8k window holds the prompt.
EMBEDDED_REPLY_TOKENS = {"explore": 512, "write": 2_048}
EMBEDDED = "embedded"
PROGRESS_SECONDS = 3.0  # between two `progress` events of one streaming reply


class ConfigError(ValueError):
    """The configuration cannot work; the message says what to set."""


@dataclass(frozen=True)
class Models:
    """A chat model per role. `Context(models=Models(...))` bypasses endpoint configuration."""

    explore: BaseChatModel
    write: BaseChatModel
    vision: BaseChatModel | None = None
    """Reads images for read_image; None: local OCR."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    """The server's URL, or EMBEDDED for the local model labscribe starts itself."""
    api_key: str
    explore_model: str
    write_model: str

    @property
    def embedded(self) -> bool:
        return self.base_url == EMBEDDED

    def model(self, role: Role) -> str:
        return self.explore_model if role == "explore" else self.write_model


ENDPOINT_VARIABLES = {
    "base_url": "LABSCRIBE_BASE_URL",
    "api_key": "LABSCRIBE_API_KEY",
    "explore_model": "LABSCRIBE_EXPLORE_MODEL",
    "write_model": "LABSCRIBE_WRITE_MODEL",
}
"""The Context field each environment variable stands in for when the field is not set."""


def resolve_endpoint(ctx: Context, env: Mapping[str, str] = os.environ) -> Endpoint:
    """Where requests go: explicit settings, then LABSCRIBE_*, then DeepSeek, then embedded."""
    base_url, api_key, explore, write = (
        getattr(ctx, field) or env.get(variable) for field, variable in ENDPOINT_VARIABLES.items()
    )
    if not base_url and (api_key or env.get("DEEPSEEK_API_KEY")):
        base_url = DEEPSEEK_BASE_URL
        api_key = api_key or env["DEEPSEEK_API_KEY"]
        explore = explore or DEEPSEEK_MODEL
    if not base_url:
        return Endpoint(EMBEDDED, "not-needed", "local", "local")
    if not explore and not write:
        raise ConfigError(
            f"no model name for {base_url}: set LABSCRIBE_EXPLORE_MODEL (and optionally "
            "LABSCRIBE_WRITE_MODEL), or pass --explore-model."
        )
    explore = explore or write
    # Local servers (Ollama, vLLM, llama.cpp) accept any key, but the client insists on one.
    return Endpoint(base_url, api_key or "not-needed", explore, write or explore)


def check_models(ctx: Context) -> None:
    """Raise ConfigError now, before anything is written, if no model can be built (and one
    is asked for)."""
    if ctx.no_model:
        return
    if ctx.models is None and resolve_endpoint(ctx).embedded:
        try:
            check_local_model()
        except LocalModelError as exc:
            raise ConfigError(str(exc)) from exc


def chat_model(ctx: Context, role: Role) -> BaseChatModel:
    """The chat model for `role`, built on first use and reused after.

    The write model streams: a long report then keeps the request timeout meaningful, since
    it applies to each chunk rather than to the whole reply, and its tokens are counted as
    they come for the progress bar (`ask`).
    """
    if ctx.models is not None:
        return getattr(ctx.models, role)
    endpoint = resolve_endpoint(ctx)
    timeout, retries = DEFAULT_REQUEST_TIMEOUT, DEFAULT_MAX_RETRIES
    base_url, reply_tokens = endpoint.base_url, None
    if endpoint.embedded:
        base_url = local_server(context_window(ctx, role)).url
        reply_tokens = EMBEDDED_REPLY_TOKENS[role]
        timeout, retries = EMBEDDED_REQUEST_TIMEOUT, 0
    return _openai(
        base_url,
        endpoint.api_key,
        endpoint.model(role),
        **_client_limits(ctx, timeout, retries),
        streaming=role == "write",
        max_tokens=reply_tokens,
    )


def _client_limits(ctx: Context, timeout: float, retries: int) -> dict[str, Any]:
    """Request timeout and retries: the run's settings, else LABSCRIBE_*, else these defaults."""
    env = os.environ
    return {
        "timeout": ctx.request_timeout or float(env.get("LABSCRIBE_REQUEST_TIMEOUT", timeout)),
        "max_retries": ctx.max_retries
        if ctx.max_retries is not None
        else int(env.get("LABSCRIBE_MAX_RETRIES", retries)),
    }


def vision_reader(ctx: Context) -> VisionReader | None:
    """How read_image reads an image with a vision model, or None for local OCR."""
    if ctx.models is not None:
        model = ctx.models.vision
    else:
        name = ctx.vision_model or os.environ.get("LABSCRIBE_VISION_MODEL")
        endpoint = resolve_endpoint(ctx)
        if not name or endpoint.embedded:
            return None
        model = _openai(
            endpoint.base_url,
            endpoint.api_key,
            name,
            **_client_limits(ctx, DEFAULT_REQUEST_TIMEOUT, DEFAULT_MAX_RETRIES),
            streaming=False,
            max_tokens=None,
        )
    if model is None:
        return None
    return VisionReader(getattr(model, "model_name", None) or type(model).__name__, model)


def context_window(ctx: Context, role: Role = "explore") -> int:
    """A role's context window in tokens: configured, the embedded model's, known, or default.

    `context_tokens` is the explore model's window; the write model shares it when it is
    the same model.
    """
    if ctx.models is not None:
        return ctx.context_tokens or DEFAULT_CONTEXT_TOKENS
    endpoint = resolve_endpoint(ctx)
    if ctx.context_tokens and endpoint.model(role) == endpoint.explore_model:
        return ctx.context_tokens
    if endpoint.embedded:
        return EMBEDDED_CONTEXT_TOKENS
    return KNOWN_CONTEXT_TOKENS.get(endpoint.model(role), DEFAULT_CONTEXT_TOKENS)


NO_MODEL = "no model: the data report alone (--no-model)"


def idle_reason(ctx: Context, stage: str) -> str | None:
    """Why `stage` spends no model call in this run: no model was asked for (`no_model`),
    or the embedded model serves it and was measured never to pay off there. None, and the
    stage runs, for any configured endpoint or model, and with `all_stages`."""
    if ctx.no_model:
        return NO_MODEL
    if ctx.models is not None or ctx.all_stages or not resolve_endpoint(ctx).embedded:
        return None
    return never_pays_off(stage)


def role_of(stage: str) -> Role:
    """Which model a stage calls: exploring is cheap work, everything else is writing."""
    return "explore" if stage == "explore" else "write"


def ask(model: Runnable[Any, AIMessage], messages: list[BaseMessage], stage: str) -> AIMessage:
    """`model`'s reply to `messages` in `stage`. While a reply streams, `progress` events
    count its tokens. When the endpoint fails for good (authentication, an outage or
    timeouts that outlived the client's retries) the thread pauses with an interrupt that
    records the halt; resuming the thread asks again.

    A paused thread is resumable like any interrupt (`labscribe resume`, Studio, the
    server's API), and the halt is in its checkpoint for `labscribe status` and Studio.
    """
    while True:
        try:
            return model.invoke(messages, config={"callbacks": [TokenProgress(stage)]})
        except Exception as exc:
            termination = classify_model_error(exc)
            if termination is None:
                raise
            interrupt(halt_request(infrastructure_halt(termination, exc)))


class TokenProgress(BaseCallbackHandler):
    """Counts a streaming reply's tokens and reports them as `progress` events, at most one
    every PROGRESS_SECONDS: the bar moves while a long report is written."""

    def __init__(self, stage: str) -> None:
        self.stage, self.tokens, self.reported = stage, 0, time.monotonic()

    def on_llm_new_token(self, token: str, **kwargs: Any) -> None:
        self.tokens += 1
        if time.monotonic() - self.reported >= PROGRESS_SECONDS:
            self.reported = time.monotonic()
            detail = f"writing: {self.tokens} tokens so far"
            emit(
                {"event": "progress", "stage": self.stage, "detail": detail, "tokens": self.tokens}
            )


def infrastructure_halt(termination: Termination, exc: BaseException) -> dict[str, Any]:
    """The halt record of an endpoint failure, in the shape collapse halts have."""
    return {
        "termination": termination.value,
        "kind": HaltKind.INFRASTRUCTURE.value,
        "reason": f"{termination.description}: {exc}"[:500],
        "tool": None,
        "args": None,
    }


def spent(stage: str, *replies: AIMessage) -> dict[str, Any]:
    """The state update that records what `replies` cost, under `stage`."""
    usages = [reply.usage_metadata or {} for reply in replies]
    counters = {
        "calls": len(replies),
        "input": sum(usage.get("input_tokens", 0) for usage in usages),
        "output": sum(usage.get("output_tokens", 0) for usage in usages),
    }
    return {"usage": {stage: counters}}


@lru_cache(maxsize=16)
def _openai(
    base_url: str,
    api_key: str,
    model: str,
    *,
    timeout: float,
    max_retries: int,
    streaming: bool,
    max_tokens: int | None,
) -> BaseChatModel:
    # imported on first use: never at import time
    from labscribe.graph.openai_client import TolerantChatOpenAI

    return TolerantChatOpenAI(
        base_url=base_url,
        api_key=api_key,
        model=model,
        timeout=timeout,
        max_retries=max_retries,
        streaming=streaming,
        stream_usage=True,
        max_tokens=max_tokens,
        temperature=0.2,
    )
