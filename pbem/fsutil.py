"""Writing files so that a crash never leaves half of one: write a
temporary file in the same folder, fsync it, then link or rename it into
place, and fsync the folder."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pbem.errors import UsageError


def atomic_write(path: Path, data: bytes, *, overwrite: bool = False, mode: int = 0o644) -> None:
    """Write ``data`` so that ``path`` is either absent, the old file, or the
    whole new file: temp file in the same folder, fsync, rename.  Refuses to
    replace an existing file unless ``overwrite``."""
    path = Path(path)
    if path.exists() and not overwrite:
        if path.read_bytes() == data:
            return
        raise UsageError(f"{path} already exists; not overwriting it")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, path)
        else:
            # link() fails if the name appeared meanwhile: never clobber.
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise UsageError(f"{path} already exists; not overwriting it") from None
            finally:
                os.unlink(tmp)
        fsync_dir(path.parent)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
