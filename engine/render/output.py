"""Writing files so that a reader never sees a partial one."""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path


def atomic_write_text(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to a temporary file beside ``target``, then rename it into place.

    The temporary file is created like any new file (0666 less the umask) and removed on any
    failure, interruptions included, so ``target`` is either untouched or complete. OSError
    propagates to the caller, which knows how to word it.
    """
    path = Path(target)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path
