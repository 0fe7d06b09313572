"""``solitaire serve``: the browser table (the optional extra ``web``)."""

from __future__ import annotations

import argparse

from .output import EXIT_INVALID, fail


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return fail(
            "the browser table needs the 'web' extra: pip install 'yaml-solitaire[web]'",
            EXIT_INVALID,
        )
    from ..launch import serve_tables

    try:
        serve_tables(args.port, args.open)
    except OSError as exc:  # the port is taken (PortBusy), or cannot be had
        return fail(f"{exc}; another server may be running there (try --port 0)", EXIT_INVALID)
    return 0
