"""``solitaire serve``: the browser table's server, on the loopback interface only.

Starlette answers the page (static files shipped in the package) and a small JSON API
(docs/web.md); uvicorn serves it on 127.0.0.1. Every answer of the API is one JSON object; a
request that cannot be played is refused with one, ``{"ok": false, "error": "..."}``, and a 4xx
status. Work that can take a while (a hint's search, a deal) runs off the event loop.
"""

from __future__ import annotations

import contextlib
import errno
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...play.records import RecordError
from .tables import Refused, Tables, command_answer, command_text

HOST = "127.0.0.1"
MAX_BODY = 16_384  # bytes of a request's body: a command or a deck is far less
STATIC = Path(__file__).with_name("static")

Handler = Callable[[Request], Awaitable[Response]]


def refusal(message: str, status: int) -> JSONResponse:
    return JSONResponse({"ok": False, "error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read no further than ``MAX_BODY`` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(f"the body is larger than {MAX_BODY:,} bytes", 413)
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Refused(f"the body is larger than {MAX_BODY:,} bytes", 413)
    try:
        data = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, ValueError):
        raise Refused("the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused("the body must be a JSON object")
    return data


def _guarded(handler: Handler) -> Handler:
    """Every refusal as one line of JSON and a 4xx status; never a traceback."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as exc:
            return refusal(str(exc), exc.status)
        except RecordError as exc:  # a save that cannot be used, or played elsewhere
            return refusal(str(exc), 409)

    return run


def make_app(tables: Tables | None = None) -> Starlette:
    """The web application; ``tables`` keeps the open games (a fresh set by default)."""
    kept = tables if tables is not None else Tables()

    async def page(_: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def games(_: Request) -> Response:
        from ....rules.catalog import shipped_games

        found = await run_in_threadpool(shipped_games)
        return JSONResponse({"ok": True, "games": [g.as_json() for g in found]})

    async def saves(_: Request) -> Response:
        found = await run_in_threadpool(kept.store.all)
        listing = []
        for save in found:
            record = save.as_json()
            del record["file"]  # the page needs the id, not where the file lies
            listing.append(record)
        return JSONResponse({"ok": True, "saves": listing})

    async def open_table(request: Request) -> Response:
        body = await _body(request)
        uid, table = await run_in_threadpool(kept.open, body)
        record = await run_in_threadpool(table.opening)
        return JSONResponse({**record, "table": uid})

    async def show_table(request: Request) -> Response:
        table = kept.get(request.path_params["table"])
        record = await run_in_threadpool(table.current)
        return JSONResponse({**record, "table": request.path_params["table"]})

    async def command(request: Request) -> Response:
        table = kept.get(request.path_params["table"])
        body = await _body(request)
        text, answer = command_text(body), command_answer(body)
        record = await run_in_threadpool(table.command, text, answer)
        return JSONResponse(record, status_code=200 if record["ok"] else 422)

    async def close_table(request: Request) -> Response:
        uid = request.path_params["table"]
        table = kept.get(uid)
        await run_in_threadpool(table.close)
        return JSONResponse({"ok": True})

    async def unknown(request: Request) -> Response:
        return refusal("no such address", 404)

    routes = [
        Route("/", page),
        Route("/play/{game}", page),
        Route("/api/games", _guarded(games)),
        Route("/api/saves", _guarded(saves)),
        Route("/api/tables", _guarded(open_table), methods=["POST"]),
        Route("/api/tables/{table}", _guarded(show_table)),
        Route("/api/tables/{table}/command", _guarded(command), methods=["POST"]),
        Route("/api/tables/{table}/close", _guarded(close_table), methods=["POST"]),
        Mount("/static", _Static(directory=STATIC)),
        Route("/{rest:path}", unknown),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(kept.close_all)  # each game saved, its lock let go

    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_exception_handler(500, lambda _r, _e: refusal("the server failed on this request", 500))
    app.add_exception_handler(404, lambda _r, _e: refusal("no such address", 404))
    app.add_exception_handler(405, lambda _r, _e: refusal("method not allowed here", 405))
    return app


class _Static(StaticFiles):
    """The page's files, asked again of the server each time (a newer version is never
    hidden by a browser's cache; an unchanged file is answered 304 from its ETag)."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


class PortBusy(OSError):
    """The port asked for is taken (by another program, or another ``serve``)."""


def bind(port: int) -> socket.socket:
    """A listening socket on the loopback interface; port 0 picks a free one."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, errno.EACCES):
            raise PortBusy(f"port {port} on {HOST} is busy: {exc.strerror}") from None
        raise
    sock.listen(128)
    return sock


def serve(port: int, open_browser: bool = False, first: str = "/") -> None:
    """Serve until Ctrl-C (KeyboardInterrupt); the address is printed on stdout first."""
    import uvicorn

    sock = bind(port)
    address = f"http://{HOST}:{sock.getsockname()[1]}{first}"
    config = uvicorn.Config(make_app(), log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    print(f"serving the table at {address} (Ctrl-C stops)", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    try:
        server.run(sockets=[sock])  # Ctrl-C: uvicorn shuts down, then raises it again
    finally:
        sock.close()
