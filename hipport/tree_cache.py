"""The incremental cache of ``convert_tree``: ``DST/.hipport-cache.json``.

A file is redone unless its entry matches: same content (SHA-256 of the source), and its output
still present in DST with the size that was written.  The content hash is read only when the
source's size or modification time changed since the entry was written (git's index does the
same), so an unchanged re-run costs one ``stat`` per file and per output.  Entries are only
valid under the same *key*: hipport version, translator options, AMD targets and renames;
any difference discards the whole cache.  A corrupt or foreign cache file is ignored, never
trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

CACHE_NAME = ".hipport-cache.json"
FORMAT = 1


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hash_path(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Cache:
    def __init__(self, dst: Path, key: str, enabled: bool = True):
        self.path = dst / CACHE_NAME
        self.key = key
        self.enabled = enabled
        self.old: dict[str, dict] = {}
        self.new: dict[str, dict] = {}
        if enabled:
            self._load()

    def _load(self) -> None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(raw, dict) and raw.get("format") == FORMAT and raw.get("key") == self.key \
                and isinstance(raw.get("files"), dict):
            self.old = raw["files"]

    def lookup(self, rel: str, src: Path, st: os.stat_result, dst_root: Path) -> dict | None:
        """The cached entry for ``rel`` if the source and its output are unchanged, else None."""
        entry = self.old.get(rel)
        if not self.enabled or not isinstance(entry, dict):
            return None
        if entry.get("size") != st.st_size:
            return None
        if entry.get("mtime_ns") != st.st_mtime_ns:
            try:
                if hash_path(src) != entry.get("hash"):
                    return None
            except OSError:
                return None
            entry = dict(entry, mtime_ns=st.st_mtime_ns)
        out = entry.get("output")
        if out is not None:
            try:
                ost = os.lstat(dst_root / out)
            except OSError:
                return None
            if ost.st_size != entry.get("out_size"):
                return None
        return entry

    def store(self, rel: str, entry: dict) -> None:
        self.new[rel] = entry

    def save(self) -> None:
        if not self.enabled:
            return
        from hipport.fileio import write_atomic

        text = json.dumps({"format": FORMAT, "key": self.key, "files": self.new}, sort_keys=True)
        write_atomic(self.path, text.encode("utf-8"))
