"""A big tree's entries in git's order, each kept as the bytes the tree object holds for it
(:class:`OrderedTree`): a tree a few names away from one known is written by putting those few
entries in their places and joining, not by encoding and ordering thousands of entries again
(a save into a flat ``memories/`` of 10,000 files)."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass

#: (mode, raw object id) of one tree entry, both bytes (as :mod:`.trees` reads them)
Raw = tuple[bytes, bytes]
TREE_B = b"40000"
#: Trees of at least this many entries are kept ordered (smaller ones cost little to encode).
ORDERED_FROM = 1000


def sort_key(name: bytes, mode: bytes) -> bytes:
    """git's order of tree entries: a folder sorts as ``name/``, anything else as its name."""
    return name + b"/" if mode == TREE_B else name


def encoded(name: bytes, entry: Raw) -> bytes:
    """One entry as a tree object holds it: ``mode SP name NUL raw-id``."""
    return b"%s %s\0%s" % (entry[0], name, entry[1])


@dataclass(frozen=True)
class OrderedTree:
    """A tree's entries in git's order: their sort keys, names and encoded bytes."""

    keys: list[bytes]
    names: list[bytes]
    parts: list[bytes]

    @classmethod
    def of(cls, entries: dict[bytes, Raw]) -> OrderedTree:
        """The ordered form of ``entries`` (in any order)."""
        items = sorted(entries.items(), key=lambda item: sort_key(item[0], item[1][0]))
        return cls([sort_key(name, raw[0]) for name, raw in items],
                   [name for name, _ in items], [encoded(name, raw) for name, raw in items])

    def changed(self, changes: list[tuple[bytes, Raw | None, Raw | None]]) -> OrderedTree:
        """This tree with each ``(name, entry before, entry after)`` applied (None: absent).
        ValueError when an entry said to be here is not."""
        keys, names, parts = list(self.keys), list(self.names), list(self.parts)
        for name, before, after in changes:
            if before is not None:
                key = sort_key(name, before[0])
                at = bisect_left(keys, key)
                if at == len(keys) or keys[at] != key:
                    raise ValueError(f"tree entry {name!r} is not where its tree has it")
                if after is not None and sort_key(name, after[0]) == key:
                    parts[at] = encoded(name, after)  # (in place: the order holds)
                    continue
                del keys[at], names[at], parts[at]
            if after is not None:
                key = sort_key(name, after[0])
                at = bisect_left(keys, key)
                keys.insert(at, key)
                names.insert(at, name)
                parts.insert(at, encoded(name, after))
        return OrderedTree(keys, names, parts)

    def data(self) -> bytes:
        """The tree object's bytes."""
        return b"".join(self.parts)

    def in_order(self, entries: dict[bytes, Raw]) -> dict[bytes, Raw]:
        """``entries`` (the same names as this tree's) in this tree's order."""
        return {name: entries[name] for name in self.names}


__all__ = ["ORDERED_FROM", "OrderedTree", "encoded", "sort_key"]
