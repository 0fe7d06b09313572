"""A ``solitaire serve`` started for a test: its address, and JSON requests to it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser table needs the 'web' extra")
pytest.importorskip("uvicorn", reason="the browser table needs the 'web' extra")


class Server:
    def __init__(self, process: subprocess.Popen[str], base: str) -> None:
        self.process = process
        self.base = base

    def request(
        self, method: str, path: str, body: Any = None, raw: bytes | None = None
    ) -> tuple[int, dict[str, Any]]:
        """The status and the JSON object of one request."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            text = exc.read()
            return exc.code, json.loads(text)

    def open(self, **body: Any) -> dict[str, Any]:
        status, record = self.request("POST", "/api/tables", body)
        assert status == 200, record
        return record

    def command(self, table: str, command: str) -> tuple[int, dict[str, Any]]:
        return self.request("POST", f"/api/tables/{table}/command", {"command": command})


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from yaml_solitaire.engine.ui.cli import main; "
            "raise SystemExit(main())", "serve", *args]  # fmt: skip


@contextmanager
def running(cwd: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A server on a free port, in folder ``cwd``, stopped with Ctrl-C at the end."""
    process = subprocess.Popen(
        serve_command("--port", "0"),
        cwd=cwd,
        env=env or dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found, (line, process.stderr.read() if process.stderr else "")
        yield Server(process, found.group(0))
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
