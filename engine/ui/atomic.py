"""Writing files atomically: a crash or a full disk mid-write never leaves a truncated file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename.

    The old file, if any, stays whole until the new one is complete; OSError on failure.
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name[:40]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
