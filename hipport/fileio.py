"""Reading and writing users' files without ever losing or corrupting one.

Reads are bytes (no decoding: the translator is byte-exact), size-capped, and fail with a
one-line :class:`InputError` naming the file.  Writes go to a temporary file in the same
directory and are renamed into place, so a crash never leaves a half-written file; in-place
writes keep a backup first.
"""

from __future__ import annotations

import functools
import os
import stat
import tempfile
from pathlib import Path

MAX_BYTES = 64 * 1024 * 1024


class InputError(Exception):
    """A file that cannot be processed; str() is a one-line message naming it."""


def read_source(path: str | os.PathLike, *, max_bytes: int = MAX_BYTES) -> bytes:
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: not a regular file")
    if st.st_size > max_bytes:
        raise InputError(f"{path}: file too large ({st.st_size} bytes; limit {max_bytes})")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"\x00" in data[:8192] and _binary(data[:8192]):
        raise InputError(f"{path}: looks like a binary file (NUL bytes); skipped")
    return data


def _binary(head: bytes) -> bool:
    """NUL bytes in code: a binary file.  A stray NUL in a comment (nvcc compiles such a file) is not."""
    from hipport.cxx.scan import masked_spans

    spans = masked_spans(head)
    at = head.find(b"\x00")
    while at >= 0:
        if not any(s <= at < e for s, e in spans):
            return True
        at = head.find(b"\x00", at + 1)
    return False


def write_atomic(path: str | os.PathLike, data: bytes, *, backup_suffix: str | None = None,
                 mode: int | None = None) -> None:
    """Write *data* to *path* atomically; with *backup_suffix*, keep the old file beside it.

    A backup already there is kept: it holds the file as it was before the first in-place run,
    which a second run (another option, a newer hipport) must not replace with translated text.
    A symlink stays a symlink: the file it points to is the one written (and backed up)."""
    p = Path(path)
    try:
        special = not stat.S_ISREG(os.stat(p).st_mode)
    except OSError:
        special = False
    if special:
        # `-o /dev/stdout`, a FIFO, a device: written into, never replaced by a regular file
        with open(p, "wb") as fh:
            fh.write(data)
        return
    if p.is_symlink():
        p = Path(os.path.realpath(p))
    parent = p.parent if str(p.parent) else Path(".")
    parent.mkdir(parents=True, exist_ok=True)
    owner = None
    if p.exists():
        st = p.stat()
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
        if backup_suffix:
            backup = p.with_name(p.name + backup_suffix)
            if not backup.exists():
                _copy_atomic(p, backup)
    if mode is None:  # a new file: what open() would give it (mkstemp's 0600 is for secrets)
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        if owner is not None and hasattr(os, "chown"):
            try:  # (run as root on a user's mounted sources: the file stays the user's, as with sed -i)
                os.chown(tmp, *owner)
            except OSError:
                pass
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@functools.lru_cache(maxsize=1)
def _umask() -> int:
    """Read once: reading the umask means setting it (put back at once), which is not to be
    repeated while other threads create files."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _copy_atomic(src: Path, dst: Path) -> None:
    st = src.stat()
    write_atomic(dst, src.read_bytes(), mode=stat.S_IMODE(st.st_mode))
    if hasattr(os, "chown"):
        try:
            os.chown(dst, st.st_uid, st.st_gid)
        except OSError:
            pass
