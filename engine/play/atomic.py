"""Writing files atomically: a crash or a full disk mid-write never leaves a truncated file."""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path

# A temporary file of a write older than this was left by a program that was killed mid-write.
STALE_SECONDS = 60.0


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename.

    The old file, if any, stays whole until the new one is complete (a full disk, a file-size
    limit or a crash leave it as it was); OSError on failure. Only a regular file is ever
    replaced (through a link, the file it names): a device, a pipe or a folder is refused.
    Temporary files of earlier writes of ``path`` that a killed program left behind are
    removed once this write is done.
    """
    if "\0" in str(path):  # the system takes no such name; say so as for any other
        raise OSError(errno.EINVAL, "not a file name (it holds a NUL character)", str(path))
    path = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EEXIST, "it exists and is not a regular file", str(path))
    if info is not None:
        mode = info.st_mode & 0o7777
    else:
        mask = os.umask(0)
        os.umask(mask)
        mode = 0o666 & ~mask
    folder = path.parent if str(path.parent) else Path(".")
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
    _remove_stale(folder, path.name)


def _remove_stale(folder: Path, name: str) -> None:
    """Remove the temporary files of writes of ``name`` older than ``STALE_SECONDS`` (a write
    under way in another program is younger); nothing is said if one cannot be removed."""
    pattern = re.compile(re.escape(f".{name[:40]}.") + r"[A-Za-z0-9_]{6,}\.tmp")
    old = time.time() - STALE_SECONDS
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < old:
                os.unlink(entry.path)
        except OSError:
            pass
