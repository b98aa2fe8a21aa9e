"""The vault as the memory tool's folder: every memory that is active (or promoted) is one file
under ``/memories``; folders are virtual, made of the files' path segments (a folder exists
while a file lies in it).

A memory's path is the one kept in it (``meta.extra["memory_tool_path"]``, set by ``create``
and ``rename``); a memory without one (added through the CLI, the app, MCP) is shown at
``/memories/<first words>-<id8>.md``, and that path is kept in it at its first write through
the tool, so it does not move when its words change. Two memories can claim the same path
(an archived one brought back, a sync, a person's edit): the older keeps it, the other is
shown at ``/memories/<its id>.md``; so is a claim that would make a file a folder or a folder
a file. Every path shown is unique, and nothing is ever hidden."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from core import Memory, MemoryStatus
from core.vault.reports import subject_words

from .paths import PATH_KEY, ROOT, joined, parents, stored_path

#: the statuses shown as files (an archived or superseded memory is one the tool deleted)
SHOWN = (MemoryStatus.ACTIVE, MemoryStatus.PROMOTED)
_SLUG_WORDS = 48
_NOT_WORD = re.compile(r"[\W_]+")
#: attempts at a free name for a memory whose own path is taken (each a new suffix)
_ATTEMPTS = 1000


def slug(memory: Memory) -> str:
    """``first-words-1a2b3c4d.md`` for a memory without a path of its own: its first words
    (secrets redacted, as in a commit subject), lower case, a hyphen between words."""
    words = _NOT_WORD.sub("-", subject_words(memory.text, _SLUG_WORDS).lower()).strip("-")
    return f"{words}-{memory.id[:8]}.md" if words else f"{memory.id[:8]}.md"


class Slugs:
    """:func:`slug` of each memory, made once for as long as its text stays the same (a slug
    scans the first words for secrets: the vault's every memory at each command otherwise)."""

    def __init__(self) -> None:
        self._made: dict[str, tuple[str, str]] = {}  # id -> (the text it was made of, the slug)

    def __call__(self, memory: Memory) -> str:
        made = self._made.get(memory.id)
        if made is None or made[0] != memory.text:
            made = self._made[memory.id] = (memory.text, slug(memory))
        return made[1]

    def __len__(self) -> int:
        return len(self._made)

    def keep_only(self, ids: Iterable[str]) -> None:
        """Forget the slugs of memories no longer in the vault."""
        ids = set(ids)
        self._made = {k: v for k, v in self._made.items() if k in ids}


@dataclass
class MemoryTree:
    """Paths -> memories, the folders, and each one's size in bytes (a folder's: its files')."""

    files: dict[str, Memory] = field(default_factory=dict)
    folders: set[str] = field(default_factory=lambda: {ROOT})
    sizes: dict[str, int] = field(default_factory=lambda: {ROOT: 0})
    children: dict[str, set[str]] = field(default_factory=lambda: {ROOT: set()})
    #: the memories whose path is not the one kept in them (shown at one made here)
    unkept: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, memories: Iterable[Memory],
           named: Callable[[Memory], str] = slug) -> MemoryTree:
        """The tree of the shown memories: the kept paths first, oldest memory first;
        ``named``: the file name of a memory without a path (:func:`slug`, or a cache of it)."""
        tree = cls()
        shown = sorted((m for m in memories if m.status in SHOWN),
                       key=lambda m: (m.created_at, m.id))
        homeless = []
        for memory in shown:
            path = stored_path(memory.meta.extra.get(PATH_KEY))
            if path is None or not tree.claim(path, memory):
                homeless.append(memory)
        for memory in homeless:  # (after every kept path: a made name never takes one)
            tree.unkept.add(memory.id)
            if not tree.claim(joined([named(memory)]), memory):
                tree.claim_free(memory)
        return tree

    def claim_free(self, memory: Memory) -> None:
        """``memory`` at ``/memories/<id>.md``, or the first free ``<id>.<n>.md``."""
        for n in range(_ATTEMPTS):
            if self.claim(joined([f"{memory.id}.md" if n == 0 else f"{memory.id}.{n}.md"]),
                          memory):
                return
        raise AssertionError("unreachable: at most one path is taken per memory")

    def claim(self, path: str, memory: Memory) -> bool:
        """Put ``memory`` at ``path`` unless it is taken: a file or folder there already, or a
        file where one of its folders would be."""
        if path in self.files or path in self.folders:
            return False
        up = parents(path)
        if any(folder in self.files for folder in up):
            return False
        size = len(memory.content.encode("utf-8"))
        self.files[path] = memory
        self.sizes[path] = size
        child = path
        for folder in up:
            self.folders.add(folder)
            self.sizes[folder] = self.sizes.get(folder, 0) + size
            self.children.setdefault(folder, set()).add(child.rpartition("/")[2])
            child = folder
        return True

    def exists(self, path: str) -> bool:
        """A file or a folder is at ``path``."""
        return path in self.files or path in self.folders

    def under(self, folder: str) -> list[tuple[str, Memory]]:
        """The files inside ``folder`` (at any depth), by path."""
        prefix = folder + "/"
        return sorted((p, m) for p, m in self.files.items() if p.startswith(prefix))

    def path_of(self, memory_id: str) -> str | None:
        """Where the memory ``memory_id`` is shown (None: it is not)."""
        return next((p for p, m in self.files.items() if m.id == memory_id), None)
