"""Run configuration: what a caller (CLI, Python, Studio's form) may set for one run.

Resolved as it is built (`resolve`, over the settings declared in settings.py): what the
caller leaves unset comes from the environment, then the defaults. Passed as LangGraph's
runtime context; never checkpointed, so a resume supplies it again, rebuilt from the options
the `prepare` step recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Literal, get_args

from pydantic import ValidationError
from pydantic.json_schema import SkipJsonSchema

from labscribe.guards.bounds import DEFAULT_MAX_TOOL_ITERS, Budget
from labscribe.guards.detectors import FailurePolicy, LadderPolicy
from labscribe.guards.guard import Policy
from labscribe.nodes.runtime.settings import (
    DEEPSEEK_BASE_URL,
    DEEPSEEK_MODEL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_REQUEST_TIMEOUT,
    EMBEDDED,
    EMBEDDED_MAX_RETRIES,
    EMBEDDED_MODEL,
    EMBEDDED_REQUEST_TIMEOUT,
    ENVIRONMENT,
    REPLY_DEADLINE_TIMEOUTS,
    SECONDS,
    SETTING,
    bundled_gguf,
    environment,
    recorded_with,
)
from labscribe.tools import DECLARED_CLASSES

OnCollapse = Literal["draft", "ask"]
ON_COLLAPSE_CHOICES: tuple[str, ...] = get_args(OnCollapse)


def _doc(description: str) -> dict[str, str]:
    return {"description": description}


@dataclass(kw_only=True)
class Context:
    base_url: str | None = field(
        default=None,
        metadata=_doc(
            "OpenAI-compatible endpoint; default LABSCRIBE_BASE_URL, DeepSeek when "
            "DEEPSEEK_API_KEY is set, else the embedded local model."
        ),
    )
    api_key: str | None = field(
        default=None,
        metadata=_doc("Key for base_url; default LABSCRIBE_API_KEY or DEEPSEEK_API_KEY."),
    )
    explore_model: str | None = field(
        default=None, metadata=_doc("Cheaper model that explores the folder with tools.")
    )
    write_model: str | None = field(
        default=None, metadata=_doc("Main model that drafts and revises the report.")
    )
    vision_model: str | None = field(
        default=None,
        metadata=_doc(
            "A vision-capable model on the same endpoint (LABSCRIBE_VISION_MODEL): read_image "
            "sends images to it; without one, images are read by local OCR."
        ),
    )
    gguf: str | None = field(
        default=None,
        metadata=_doc(
            "The embedded model's GGUF; default LABSCRIBE_LOCAL_GGUF, else the bundled "
            "SmolLM2-135M."
        ),
    )
    context_tokens: int | None = field(
        default=None,
        metadata=_doc(
            f"The explore model's context window in tokens (default "
            f"{ENVIRONMENT['context_tokens']}); its history is kept inside it."
        ),
    )
    request_timeout: float | None = field(
        default=None,
        metadata=_doc(
            f"Seconds a model request may wait; default {ENVIRONMENT['request_timeout']} or "
            f"{DEFAULT_REQUEST_TIMEOUT:g}."
        ),
    )
    reply_deadline: float | None = field(
        default=None,
        metadata=_doc(
            "Seconds a whole model reply may take, streamed or not, on top of the per-read "
            f"request timeout; default {ENVIRONMENT['reply_deadline']} or "
            f"{REPLY_DEADLINE_TIMEOUTS} request timeouts."
        ),
    )
    max_retries: int | None = field(
        default=None,
        metadata=_doc(
            "Retries with backoff of a failing request; default "
            f"{ENVIRONMENT['max_retries']} or {DEFAULT_MAX_RETRIES}."
        ),
    )
    tool_timeout: float = field(
        default=30.0, metadata=_doc("Seconds a tool call may run before it answers with a timeout.")
    )
    on_collapse: OnCollapse = field(
        default="draft",
        metadata=_doc("On a collapse halt: 'draft' with what was found, or 'ask' a human."),
    )
    max_tool_iters: int = field(
        default=DEFAULT_MAX_TOOL_ITERS,
        metadata=_doc("Explore model calls allowed before drafting proceeds."),
    )
    max_tokens: int | None = field(
        default=None, metadata=_doc("Token budget of the exploration (input plus output).")
    )
    reflect: int = field(default=2, metadata=_doc("Critique-and-revise rounds after drafting."))
    figures: bool = field(
        default=True,
        metadata=_doc(
            "Ask the write model for figures of the data (labscribe's own data figures are "
            "always drawn)."
        ),
    )
    all_stages: bool = field(
        default=False,
        metadata=_doc(
            "Spend the embedded model on every stage, also those it was measured never to "
            "pay off in (bench/bench_embedded.py); configured endpoints always run them all."
        ),
    )
    compile: bool = field(default=True, metadata=_doc("Compile the report with xelatex."))
    no_model: bool = field(
        default=False,
        metadata=_doc(
            "The data report alone: scan, analysis, data figures, the report from the data "
            "and its PDF, with no model installed or configured."
        ),
    )
    ladder: LadderPolicy = field(
        default_factory=LadderPolicy,
        metadata=_doc(
            "The warn/block/halt rungs of each tool class, tools re-classed (read-only <-> "
            "mutating), and the cycle and progress checks."
        ),
    )
    failures: FailurePolicy = field(
        default_factory=FailurePolicy,
        metadata=_doc(
            "Failures of one kind in a row that nudge and halt, and empty replies that halt."
        ),
    )
    models: SkipJsonSchema[Any] = field(
        default=None,
        metadata=_doc(
            "In-process only: a Models pair that replaces the endpoint (tests, embedding). "
            "Not in the schema, so Studio's form and the server never offer it."
        ),
    )

    def __post_init__(self) -> None:
        # LangGraph builds the context from JSON (a server run, Studio's form): policies
        # arrive as dicts.
        if isinstance(self.ladder, dict):
            self.ladder = LadderPolicy.model_validate(self.ladder)
        if isinstance(self.failures, dict):
            self.failures = FailurePolicy.model_validate(self.failures)
        self.ladder.classes(DECLARED_CLASSES)  # refuses re-classing the terminal tool
        if self.on_collapse not in ON_COLLAPSE_CHOICES:
            choices = " or ".join(map(repr, ON_COLLAPSE_CHOICES))
            raise ValueError(f"on_collapse must be {choices}, got {self.on_collapse!r}")
        try:
            self.budget  # noqa: B018 - the budget's own check
        except ValidationError as exc:
            said = (error["msg"].removeprefix("Value error, ") for error in exc.errors())
            raise ValueError("; ".join(said)) from None
        if self.reflect < 0:
            raise ValueError(f"reflect must be 0 or more, got {self.reflect}")
        self.tool_timeout = SECONDS.checked(self.tool_timeout, "tool_timeout")
        resolve(self)

    @cached_property
    def guard_policy(self) -> Policy:
        """What the loop guards read of this configuration (guards/guard.py), made once."""
        return Policy(self.ladder, self.failures, self.ladder.classes(DECLARED_CLASSES))

    @cached_property
    def budget(self) -> Budget:
        return Budget(max_tool_iters=self.max_tool_iters, max_tokens=self.max_tokens)

    def options(self) -> dict[str, Any]:
        """What a resume needs to run on the same terms: everything but secrets and objects."""
        secret_or_object = {"api_key", "models"}
        return {
            f.name: _plain(getattr(self, f.name))
            for f in fields(self)
            if f.name not in secret_or_object
        }

    @classmethod
    def from_options(cls, options: dict[str, Any], **overrides: Any) -> Context:
        """The context a thread recorded, with a resume's `overrides` on top."""
        known = {f.name for f in fields(cls)}
        values = recorded_with({k: v for k, v in options.items() if k in known}, overrides)
        return cls(**values)


def _plain(value: Any) -> Any:
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value


def resolve(ctx: Context, env: Mapping[str, str] | None = None) -> None:
    """Check every setting `ctx` gives and fill those it leaves unset: from `env`
    (`os.environ` by default), then the defaults. ConfigError names the field, or the
    variable, whose value cannot be used. The endpoint is the one given, else DeepSeek when
    its key is set, else the embedded model. A run that brings its own models (`models`)
    or none (`no_model`) needs no endpoint. An endpoint without a model name stays so:
    `models.endpoint` refuses it when a model is asked for, after the input was checked."""
    named = environment(env)
    for name in ENVIRONMENT:
        given = getattr(ctx, name)
        if given is not None and given != "":
            setattr(ctx, name, SETTING[name].checked(given, name))
        else:
            setattr(ctx, name, named.get(name))
    if ctx.models is not None or ctx.no_model:
        return
    deepseek_key = named.get("deepseek_key")
    if not ctx.base_url and (ctx.api_key or deepseek_key):
        ctx.base_url = DEEPSEEK_BASE_URL
        ctx.explore_model = ctx.explore_model or DEEPSEEK_MODEL
    if ctx.base_url == DEEPSEEK_BASE_URL:
        ctx.api_key = ctx.api_key or deepseek_key
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
    if ctx.reply_deadline is None:
        ctx.reply_deadline = ctx.request_timeout * REPLY_DEADLINE_TIMEOUTS
    if ctx.max_retries is None:
        ctx.max_retries = EMBEDDED_MAX_RETRIES if embedded else DEFAULT_MAX_RETRIES
