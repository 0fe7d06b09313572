"""A program run on a pseudo-terminal, for the tests of what only a terminal gets (questions,
the automatic save after every move, a hang-up)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]")


class Terminal:
    """``solitaire ARGS`` with stdin, stdout and stderr on one pseudo-terminal."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80x24
        os.set_blocking(self.master, False)
        full_env = dict(env or os.environ)
        full_env.update(TERM="xterm", COLUMNS="80", LINES="24")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "yaml_solitaire.engine", *args],
            stdin=slave, stdout=slave, stderr=slave, env=full_env, start_new_session=True,
        )  # fmt: skip
        os.close(slave)
        self.text = ""

    def read_until(self, wanted: str, timeout: float = 30.0) -> str:
        """The output until ``wanted`` shows (ANSI codes left out); AssertionError if not."""
        end = time.monotonic() + timeout
        while wanted not in self.text:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{wanted!r} not shown; the screen:\n{self.text[-2000:]}")
            ready, _, _ = select.select([self.master], [], [], min(left, 0.2))
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended
                    chunk = b""
                if not chunk and self.process.poll() is not None:
                    raise AssertionError(f"{wanted!r} not shown before the end:\n{self.text}")
                self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")
            elif self.process.poll() is not None and wanted not in self.text:
                self.drain()
                if wanted not in self.text:
                    raise AssertionError(f"{wanted!r} not shown before the end:\n{self.text}")
        return self.text

    def drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\r").encode())

    def signal(self, number: int) -> None:
        self.process.send_signal(number)

    def wait(self, timeout: float = 30.0) -> int:
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self.drain()
            time.sleep(0.05)
        self.drain()
        code = self.process.wait(timeout=max(0.1, end - time.monotonic()))
        os.close(self.master)
        return code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        with contextlib.suppress(OSError):
            os.close(self.master)
