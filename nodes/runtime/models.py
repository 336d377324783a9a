"""Model factory: one chat model per role, built lazily from the run's configuration, and
where its requests go (`endpoint`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.callbacks import BaseCallbackHandler

from labscribe.guards.bounds import Usage, valid_text
from labscribe.guards.statuses import (
    Termination,
    classify_model_error,
    fault_detail,
    halt_record,
)
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.local_model import (
    EMBEDDED_CONTEXT_TOKENS,
    LocalModelError,
    check_local_model,
    local_server,
    never_pays_off,
)
from labscribe.nodes.runtime.settings import EMBEDDED, ENVIRONMENT, SETTING, ConfigError
from labscribe.nodes.runtime.state import emit
from labscribe.tools.explorer.vision import VisionReader

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage
    from langchain_core.runnables import Runnable

Role = Literal["explore", "write"]
ROLES: tuple[Role, ...] = ("explore", "write")

DEFAULT_CONTEXT_TOKENS = 32_768  # safe for every current endpoint; raise it with --context-tokens
KNOWN_CONTEXT_TOKENS = {"deepseek-chat": 131_072, "deepseek-reasoner": 131_072}

# Replies the embedded model may write: the rest of its 8k window holds the prompt.
EMBEDDED_REPLY_TOKENS = {"explore": 512, "write": 2_048}
PROGRESS_SECONDS = 3.0  # between two `progress` events of one streaming reply


@dataclass(frozen=True)
class Models:
    """A chat model per role. `Context(models=Models(...))` bypasses endpoint configuration."""

    explore: BaseChatModel
    write: BaseChatModel
    vision: BaseChatModel | None = None
    """Reads images for read_image; None: local OCR."""


@dataclass(frozen=True)
class Endpoint:
    """Where a resolved context's requests go: the server, its key and a model per role."""

    base_url: str
    """The server's URL, or EMBEDDED for the local model labscribe starts itself."""
    api_key: str
    explore_model: str
    write_model: str

    @property
    def embedded(self) -> bool:
        return self.base_url == EMBEDDED

    def model(self, role: str) -> str:
        return self.explore_model if role == "explore" else self.write_model


def endpoint(ctx: Context) -> Endpoint:
    """Where a resolved context's requests go; ConfigError when it names no model."""
    if not ctx.base_url:
        raise ConfigError("this run has no model endpoint (it brings its models, or none)")
    if not ctx.explore_model or not ctx.write_model:
        raise ConfigError(
            f"no model name for {ctx.base_url}: set {ENVIRONMENT['explore_model']} (and "
            f"optionally {ENVIRONMENT['write_model']}), or pass {SETTING['explore_model'].flag}."
        )
    # Local servers (Ollama, vLLM, llama.cpp) accept any key, but the client insists on one.
    key = ctx.api_key or "not-needed"
    return Endpoint(ctx.base_url, key, ctx.explore_model, ctx.write_model)


def check_models(ctx: Context) -> None:
    """Raise ConfigError now, before anything is written, if no model can be built (and one
    is asked for). With no endpoint and no embedded model installed, no stage asks for one
    (`idle_reason`): the run writes the data report, unless every stage is asked to run."""
    if ctx.no_model or ctx.models is not None:
        return
    if endpoint(ctx).embedded and (ctx.gguf is not None or ctx.all_stages):
        try:
            check_local_model(ctx.gguf)
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
    served = endpoint(ctx)
    base_url, reply_tokens = served.base_url, None
    if served.embedded:
        base_url = local_server(ctx.gguf, context_window(ctx, role)).url
        reply_tokens = EMBEDDED_REPLY_TOKENS[role]
    return _openai(
        base_url,
        served.api_key,
        served.model(role),
        timeout=ctx.request_timeout,
        max_retries=ctx.max_retries,
        deadline=ctx.reply_deadline,
        streaming=role == "write",
        max_tokens=reply_tokens,
    )


def vision_reader(ctx: Context) -> VisionReader | None:
    """How read_image reads an image with a vision model, or None for local OCR."""
    if ctx.models is not None:
        model = ctx.models.vision
    elif ctx.vision_model and not ctx.no_model:
        served = endpoint(ctx)
        model = _openai(
            served.base_url,
            served.api_key,
            ctx.vision_model,
            timeout=ctx.request_timeout,
            max_retries=ctx.max_retries,
            deadline=ctx.reply_deadline,
            streaming=False,
            max_tokens=None,
        )
    else:
        return None
    if model is None:
        return None
    return VisionReader(getattr(model, "model_name", None) or type(model).__name__, model)


def context_window(ctx: Context, role: Role = "explore") -> int:
    """A role's context window in tokens: configured, the embedded model's, known, or default.

    `context_tokens` is the explore model's window; the write model shares it when it is
    the same model.
    """
    if ctx.models is not None or ctx.no_model:
        return ctx.context_tokens or DEFAULT_CONTEXT_TOKENS
    served = endpoint(ctx)
    if ctx.context_tokens and served.model(role) == served.explore_model:
        return ctx.context_tokens
    if served.embedded:
        return EMBEDDED_CONTEXT_TOKENS
    return KNOWN_CONTEXT_TOKENS.get(served.model(role), DEFAULT_CONTEXT_TOKENS)


NO_MODEL = "no model: the data report alone (--no-model)"
NO_MODEL_INSTALLED = "no model: no endpoint is configured and no embedded model is installed"


def idle_reason(ctx: Context, stage: str) -> str | None:
    """Why `stage` spends no model call in this run: no model was asked for (`no_model`),
    none is configured or installed, or the embedded model serves it and was measured never
    to pay off there. None, and the stage runs, for any configured endpoint or model, and
    with `all_stages`."""
    if ctx.no_model:
        return NO_MODEL
    if ctx.models is not None or ctx.all_stages or not endpoint(ctx).embedded:
        return None
    if ctx.gguf is None:
        return NO_MODEL_INSTALLED
    return never_pays_off(ctx.gguf, stage)


def role_of(stage: str) -> Role:
    """Which model a stage calls: exploring is cheap work, everything else is writing."""
    return "explore" if stage == "explore" else "write"


class EndpointDown(Exception):
    """A model endpoint that failed for good (authentication, an outage, timeouts that
    outlived the client's retries), with its halt record."""

    def __init__(self, termination: Termination, cause: BaseException) -> None:
        self.record = endpoint_halt(termination, cause)
        super().__init__(self.record["reason"])


def endpoint_halt(termination: Termination, cause: BaseException) -> dict[str, Any]:
    """The halt record of an endpoint's failure, in the shape every halt has."""
    return halt_record(termination, f"{termination.description}: {fault_detail(cause)}"[:500])


def ask(model: Runnable[Any, AIMessage], messages: list[BaseMessage], stage: str) -> AIMessage:
    """`model`'s reply to `messages` in `stage`. While a reply streams, `progress` events
    count its tokens. An endpoint that fails for good (authentication, an outage or
    timeouts that outlived the client's retries) raises EndpointDown: the stage halts, and
    runs again once a human resumes the thread (nodes/halts.py)."""
    try:
        reply = model.invoke(messages, config={"callbacks": [TokenProgress(stage)]})
    except Exception as exc:
        termination = classify_model_error(exc)
        if termination is None:
            raise
        raise EndpointDown(termination, exc) from exc
    # a call's arguments are JSON text until parsed, so an escaped lone surrogate (`\ud800`)
    # appears only now, after the transport made the text valid
    calls = [{**call, "args": valid_text(call["args"])} for call in reply.tool_calls]
    return reply.model_copy(update={"tool_calls": calls}) if calls else reply


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


def spent(stage: str, *replies: AIMessage) -> dict[str, Any]:
    """The state update that records what `replies` cost, under `stage`."""
    usages = [reply.usage_metadata or {} for reply in replies]
    spent = Usage(
        calls=len(replies),
        input=sum(usage.get("input_tokens", 0) for usage in usages),
        output=sum(usage.get("output_tokens", 0) for usage in usages),
    )
    return {"usage": {stage: spent.dump()}}


@lru_cache(maxsize=16)
def _openai(
    base_url: str,
    api_key: str,
    model: str,
    *,
    timeout: float,
    max_retries: int,
    deadline: float,
    streaming: bool,
    max_tokens: int | None,
) -> BaseChatModel:
    # imported on first use: never at import time
    import httpx

    from labscribe.nodes.runtime.openai_client import DeadlineTransport, TolerantChatOpenAI

    return TolerantChatOpenAI(
        http_client=httpx.Client(transport=DeadlineTransport(deadline), timeout=timeout),
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
