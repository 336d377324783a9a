"""What the command line sets: a run's Context, and the flags and context a batch hands its
runs (as `labscribe run` flags, or as a server assistant's context)."""

from __future__ import annotations

import argparse
from typing import Any

from labscribe.graph.runner import BadInput
from labscribe.nodes.runtime.context import Context
from labscribe.nodes.runtime.settings import ENVIRONMENT, checked_flag, environment

ENDPOINT_FLAGS = (
    "base_url",
    "api_key",
    "explore_model",
    "write_model",
    "context_tokens",
    "reply_deadline",
)


def endpoint_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The endpoint flags given, checked: a bad value is ConfigError naming its flag."""
    given = {name: getattr(args, name) for name in ENDPOINT_FLAGS}
    return {name: checked_flag(name, value) for name, value in given.items() if value is not None}


def run_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The run options given on the command line; what is not given, Context decides."""
    given = {
        "on_collapse": args.on_collapse,
        "max_tool_iters": args.max_tool_iters,
        "reflect": args.reflect,
        "figures": False if args.no_figures else None,
        "all_stages": True if args.all_stages else None,
        "compile": False if args.no_compile else None,
        "no_model": True if args.no_model else None,
    }
    return {name: value for name, value in given.items() if value is not None}


def context_of(args: argparse.Namespace) -> Context:
    try:
        return Context(**endpoint_settings(args), **run_settings(args))
    except ValueError as exc:
        raise BadInput(str(exc)) from exc


def run_flags_of(args: argparse.Namespace) -> list[str]:
    """The run options given, as `labscribe run` flags, for the runs of a batch."""
    flags = []
    for name, value in run_settings(args).items():
        if isinstance(value, bool):  # a switch: --no-figures, --all-stages, --no-model
            flags.append(f"--no-{name}" if value is False else flag(name))
        else:
            flags += [flag(name), str(value)]
    return flags


def endpoint_flags_of(args: argparse.Namespace) -> list[str]:
    """The endpoint flags but the key, which a batch hands its runs in the environment."""
    settings = endpoint_settings(args)
    settings.pop("api_key", None)
    return [part for name, value in settings.items() for part in (flag(name), str(value))]


def served_context(context: Context, args: argparse.Namespace) -> dict[str, Any]:
    """The assistant's context for a server batch: what `labscribe run` would use here (the
    options given, and the endpoint and models this environment names), never the key (the
    server's environment holds it, or each run carries it: see docs/deployment.md). What neither
    sets, the server's environment decides."""
    named_here = set(environment()) & set(ENVIRONMENT)
    options = context.options()  # resolved, without the key
    given = named_here | set(endpoint_settings(args)) | set(run_settings(args))
    return {name: options[name] for name in given if name in options}


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")
