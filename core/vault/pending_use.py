"""The list of use records waiting for a commit (``.git/memvault/pending-use.json``): one line
appended for each :meth:`~core.vault.use.UseRecords.record_use`, naming each memory file written
with the SHA-256 of its bytes; the write path commits them (see :mod:`core.vault.use`)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from ..errors import VaultError
from ..store.layout import read_vault_file, remove_file
from ..textutil import neutralise_line
from .loading import CacheLoader
from .state import VaultState
from ..store.private import make_folders

PENDING_USE_FILE = "pending-use.json"
USE_VERB = "use"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class PendingUse:
    """The pending list of the vault whose cache is ``state`` (``loader`` brings the cache level
    with the files it names)."""

    def __init__(self, state: VaultState, loader: CacheLoader) -> None:
        self.state = state
        self.loader = loader

    def path(self) -> Path:
        return self.state.journal.state_dir / PENDING_USE_FILE

    def read(self) -> dict[str, Any]:
        try:
            data, _ = read_vault_file(self.path())
        except FileNotFoundError:
            return {}
        except OSError:
            record = None
        else:
            record = parse_pending_use(data)
        if record is None:
            self.state.notices.append("the list of pending use records was unreadable and "
                                      "was discarded; the records stay in the files and are "
                                      "committed as outside edits")
            with contextlib.suppress(OSError):
                remove_file(self.path())
            return {}
        return record

    def append(self, entry: dict[str, Any]) -> None:
        """One line at the end of the pending list (made 0600 if absent; a symbolic link or a
        file linked from elsewhere is refused). Not flushed to disk, as the memory files."""
        line = json.dumps(entry, sort_keys=True).encode() + b"\n"
        try:
            make_folders(self.state.journal.state_dir)
            fd = os.open(self.path(),
                         os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600)
            try:
                status = os.fstat(fd)
                if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:
                    raise OSError("not a regular file of its own")
                if status.st_size and os.pread(fd, 1, status.st_size - 1) != b"\n":
                    line = b"\n" + line  # (after a line a killed process cut short)
                view = memoryview(line)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except OSError as exc:
            raise VaultError(f"could not record a use: {exc.strerror or exc}; nothing was "
                             "written") from None

    def files(self, record: dict[str, Any]) -> list[tuple[Path, str]]:
        """(path, memory id) of the pending use records whose files still hold what was
        recorded."""
        adopt: list[tuple[Path, str]] = []
        for rel, recorded in sorted(record.get("paths", {}).items()):
            what = self.state.layout.classify(rel) if isinstance(rel, str) else None
            if what is None or what[0] != "memory":
                continue
            path = self.state.root / rel
            try:
                data, _ = read_vault_file(path)
            except OSError:
                continue
            if digest(data) == recorded:
                adopt.append((path, what[1]))
        return adopt

    def take_into_cache(self) -> bool:
        """The cache takes the pending use records (another process's too) without a commit;
        True when there are some (the lazy mode of
        :meth:`~core.vault.writing.WritePath.transaction`)."""
        record = self.read()
        files = self.files(record) if record else []
        if files:  # (noted as seen as they were read: never a save made since)
            self.loader.reload_paths(p.relative_to(self.state.root).as_posix() for p, _ in files)
        return bool(record)

    def forget(self) -> None:
        """Remove the list (its records are committed, or left out)."""
        with contextlib.suppress(FileNotFoundError):
            remove_file(self.path())


def parse_pending_use(data: bytes) -> dict[str, Any] | None:
    """The pending list from its file: ``{"via": ..., "paths": {path: digest}}``, merged from
    its entries in order (one line for each record_use; a later digest of a path replaces an
    earlier one, the last via is the one committed); a list written as one pretty-printed
    object (by an earlier memvault, or by purge) is an entry too. A line that cannot be read is
    one a process was killed while writing (before it wrote any memory file): it is left out.
    None when nothing in it can be read."""
    text, decoder = data.decode("utf-8", errors="replace"), json.JSONDecoder()
    via, paths, readable, at = None, {}, False, 0
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if at >= len(text):
            break
        try:
            value, end = decoder.raw_decode(text, at)
        except ValueError:
            value, end = None, text.find("\n", at)
            end = len(text) if end < 0 else end
        at = end
        entry = _pending_entry(value)
        if entry is None:
            continue
        readable = True
        paths.update(entry.get("paths", {}))
        via = entry.get("via") or via
    if not readable:
        return None
    return {"via": via, "paths": paths}


def _pending_entry(value: object) -> dict[str, Any] | None:
    if not isinstance(value, dict) or not isinstance(value.get("paths", {}), dict):
        return None
    return value


def use_message_ids(ids: list[str]) -> str:
    shown = ", ".join(i[:8] for i in ids[:8]) + (f", +{len(ids) - 8}" if len(ids) > 8 else "")
    noun = "memory" if len(ids) == 1 else "memories"
    return neutralise_line(f"{USE_VERB}: {len(ids)} {noun} recalled or searched ({shown})")
