"""Model factory: one chat model per role, built lazily from the run's configuration."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from labscribe.graph.context import Context

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage

Role = Literal["explore", "write"]
ROLES: tuple[Role, ...] = ("explore", "write")

DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"
DEFAULT_CONTEXT_TOKENS = 32_768  # safe for every current endpoint; raise it with --context-tokens
KNOWN_CONTEXT_TOKENS = {"deepseek-chat": 131_072, "deepseek-reasoner": 131_072}

NO_ENDPOINT_MESSAGE = (
    "no model endpoint is configured. Set DEEPSEEK_API_KEY for DeepSeek, or point labscribe "
    "at any OpenAI-compatible server with LABSCRIBE_BASE_URL (plus LABSCRIBE_API_KEY and "
    "LABSCRIBE_EXPLORE_MODEL / LABSCRIBE_WRITE_MODEL), or the flags --base-url, --api-key, "
    "--explore-model and --write-model."
)


class ConfigError(ValueError):
    """The configuration cannot work; the message says what to set."""


@dataclass(frozen=True)
class Models:
    """A chat model per role. `Context(models=Models(...))` bypasses endpoint configuration."""

    explore: BaseChatModel
    write: BaseChatModel


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str
    explore_model: str
    write_model: str


def resolve_endpoint(ctx: Context, env: Mapping[str, str] = os.environ) -> Endpoint:
    """Where each role's requests go: explicit settings, then LABSCRIBE_*, then DeepSeek."""
    base_url = ctx.base_url or env.get("LABSCRIBE_BASE_URL")
    api_key = ctx.api_key or env.get("LABSCRIBE_API_KEY")
    explore = ctx.explore_model or env.get("LABSCRIBE_EXPLORE_MODEL")
    write = ctx.write_model or env.get("LABSCRIBE_WRITE_MODEL")
    if not base_url and (api_key or env.get("DEEPSEEK_API_KEY")):
        base_url = DEEPSEEK_BASE_URL
        api_key = api_key or env["DEEPSEEK_API_KEY"]
        explore = explore or DEEPSEEK_MODEL
    if not base_url:
        raise ConfigError(NO_ENDPOINT_MESSAGE)
    if not explore and not write:
        raise ConfigError(
            f"no model name for {base_url}: set LABSCRIBE_EXPLORE_MODEL (and optionally "
            "LABSCRIBE_WRITE_MODEL), or pass --explore-model."
        )
    explore = explore or write
    # Local servers (Ollama, vLLM, llama.cpp) accept any key, but the client insists on one.
    return Endpoint(base_url, api_key or "not-needed", explore, write or explore)


def check_models(ctx: Context) -> None:
    """Raise ConfigError now, before anything is written, if no model can be built."""
    if ctx.models is None:
        resolve_endpoint(ctx)


def chat_model(ctx: Context, role: Role) -> BaseChatModel:
    """The chat model for `role`, built on first use and reused after."""
    if ctx.models is not None:
        return getattr(ctx.models, role)
    endpoint = resolve_endpoint(ctx)
    name = endpoint.explore_model if role == "explore" else endpoint.write_model
    return _openai(endpoint.base_url, endpoint.api_key, name, ctx.request_timeout, ctx.max_retries)


def context_window(ctx: Context) -> int:
    """The explore model's context window in tokens: configured, known, or a safe default."""
    if ctx.context_tokens:
        return ctx.context_tokens
    if ctx.models is None:
        try:
            name = resolve_endpoint(ctx).explore_model
        except ConfigError:
            name = ""
        return KNOWN_CONTEXT_TOKENS.get(name, DEFAULT_CONTEXT_TOKENS)
    return DEFAULT_CONTEXT_TOKENS


def role_of(stage: str) -> Role:
    """Which model a stage calls: exploring is cheap work, everything else is writing."""
    return "explore" if stage == "explore" else "write"


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
    base_url: str, api_key: str, model: str, timeout: float, max_retries: int
) -> BaseChatModel:
    from langchain_openai import ChatOpenAI  # imported on first use: never at import time

    return ChatOpenAI(
        base_url=base_url,
        api_key=api_key,
        model=model,
        timeout=timeout,
        max_retries=max_retries,
        temperature=0.2,
    )
