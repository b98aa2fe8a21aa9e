"""The merged tree of one sync merge as it is settled, path by path (``MergedTree``): what the
merge has decided so far, the records in it, and where a record's file is; and the two sides
it merges (``MergeSides``)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidIdError
from ..git.journal import TreeChange
from ..vault import Vault
from .report import vault_rel_of

Entry = tuple[str, str]  # (mode, object id) of a file in a tree


@dataclass(frozen=True)
class MergeSides:
    """The commits merged and what each side changed since their merge base."""

    ours: str
    theirs: str
    target: str  # the remote branch ``theirs`` came from, as the report names it
    base: str | None  # None: two histories that share no commit
    ours_changes: dict[str, TreeChange]  # repository path -> the change since ``base``
    theirs_changes: dict[str, TreeChange]


class MergedTree:
    """The merged tree under the vault: ``view`` as settled so far (repository path -> entry),
    ``final`` every path the merge decided (None: deleted), the relations read once."""

    def __init__(self, vault: Vault, view: dict[str, Entry]):
        self.vault, self.journal = vault, vault.journal
        self.view = view
        self.final: dict[str, Entry | None] = {}
        self._relations: dict[str, dict[str, Any]] | None = None

    def path_of(self, kind: str, record_id: str) -> str:
        """The record's repository path in the merged tree (a memory: in either layout, the
        vault's own when it is in neither)."""
        layout = self.vault.layout
        try:
            found = (layout.memory_paths(record_id) if kind == "memory"
                     else [layout.relation_path(record_id)])
        except InvalidIdError:  # an id a remote's record names: no file of the vault's
            return f"{kind}:{record_id}"
        paths = [self.journal.relpath(p) for p in found]
        return next((p for p in paths if p in self.view), paths[0])

    def classify(self, path: str) -> tuple[str, str] | None:
        """(kind, id) of the vault record at a repository path, None for any other file."""
        rel = vault_rel_of(self.journal, path)
        return None if rel is None else self.vault.layout.classify(rel)

    def set(self, path: str, entry: Entry | None) -> None:
        """Settle ``path``: this entry, or deleted (None)."""
        self.final[path] = entry
        if entry is None:
            self.view.pop(path, None)
        else:
            self.view[path] = entry
        if self._relations is not None:
            what = self.classify(path)
            if what is not None and what[0] == "relation":
                record = self.load(entry)
                if record is None:
                    self._relations.pop(path, None)
                else:
                    self._relations[path] = record

    def exists(self, kind: str, record_id: str) -> bool:
        return self.path_of(kind, record_id) in self.view

    def load(self, entry: Entry | None) -> dict[str, Any] | None:
        """The JSON object a blob holds, None when there is none."""
        if entry is None:
            return None
        try:
            data = json.loads(self.journal.objects.read_blob(entry[1]))
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def load_bytes(self, entry: Entry | None) -> bytes | None:
        return None if entry is None else self.journal.objects.read_blob(entry[1])

    def relations(self) -> dict[str, dict[str, Any]]:
        """Every relation of the merged tree (path -> record), read once."""
        if self._relations is None:
            paths = {p: e for p, e in self.view.items()
                     if (c := self.classify(p)) is not None and c[0] == "relation"}
            blobs = self.journal.objects.read_blobs(e[1] for e in paths.values())
            found = {}
            for path, entry in paths.items():
                with contextlib.suppress(ValueError):
                    value = json.loads(blobs.get(entry[1], b""))
                    if isinstance(value, dict):
                        found[path] = value
            self._relations = found
        return self._relations
