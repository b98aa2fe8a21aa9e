"""A commit's tree built from its parent's trees: the cost of a commit follows the files it
changes, not the size of the vault.

A vault of 100,000 memories has an index of 100,000 entries; staging one file on it and writing
the tree reads and writes all of them. The tree of a commit that changes a few files differs
from its parent's only in those files' blobs and the trees on their paths (a shard of a few
hundred entries, ``memories/``, the root). :class:`TreeWriter` reads exactly those trees (git's
persistent ``cat-file --batch``, through GitPython), puts the new blobs and modes in, and has
git write the changed trees (one ``mktree --batch``, bottom up), checking that git names each
tree as computed here. Blobs are written by one ``hash-object -w --stdin-paths`` over the files
in the work tree, so git applies the same attributes (filters, line endings) as
``update-index`` does, and a file's mode is decided by git's own rule
(:func:`mode_of`). The result is the very tree ``update-index`` + ``write-tree`` would have made
on an index read from the parent commit.

What this cannot do the same way as the index (a symbolic link, a folder, a submodule where a
file goes, a file where a folder was, a path git would have to quote) is reported as :class:`NeedsIndex`; the journal then
commits through the index as before.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .tree_order import ORDERED_FROM, OrderedTree

FILE = "100644"
EXECUTABLE = "100755"
TREE = "40000"
SUBMODULE = "160000"
LINK = "120000"

#: (mode, object id) of one tree entry
Entry = tuple[str, str]


class NeedsIndex(Exception):
    """The change cannot be made from the parent's trees the way the index would make it."""


def mode_of(st: os.stat_result, old_mode: str | None, trust_executable_bit: bool) -> str:
    """The mode ``update-index`` gives a regular file (git's ``ce_mode_from_stat``): 100755 when
    its owner may execute it, else 100644; with ``core.fileMode`` off, the mode it had."""
    if not trust_executable_bit:
        return old_mode if old_mode in (FILE, EXECUTABLE) else FILE
    return EXECUTABLE if st.st_mode & stat.S_IXUSR else FILE


#: One tree entry as git stores it: (mode, raw object id), both bytes.
Raw = tuple[bytes, bytes]
_TREE_B = TREE.encode()
_SUBMODULE_B = SUBMODULE.encode()


def parse_tree(data: bytes, id_length: int) -> dict[bytes, Raw]:
    """A raw tree object as {name: (mode, raw id)}, in the tree's own (git's) order."""
    entry = re.compile(rb"([0-7]+) ([^\0]+)\0(.{%d})" % id_length, re.S)
    entries = {name: (mode, oid) for mode, name, oid in entry.findall(data)}
    if sum(len(m) + len(n) + 2 + id_length for n, (m, _) in entries.items()) != len(data):
        raise ValueError("not a tree object (or one with a name twice)")
    return entries


def _sort_key(item: tuple[bytes, Raw]) -> bytes:
    name, (mode, _) = item
    return name + b"/" if mode == _TREE_B else name  # git's order: a folder sorts as "name/"


def tree_bytes(entries: dict[bytes, Raw], in_order: bool = False) -> bytes:
    """The tree object of ``entries`` (``in_order``: they are in git's order already)."""
    items = entries.items() if in_order else sorted(entries.items(), key=_sort_key)
    return b"".join(b"%s %s\0%s" % (mode, name, oid) for name, (mode, oid) in items)


def object_id(kind: str, data: bytes, object_format: str) -> str:
    digest = hashlib.sha256 if object_format == "sha256" else hashlib.sha1
    return digest(b"%s %d\0" % (kind.encode(), len(data)) + data).hexdigest()


@dataclass
class _Folder:
    """One tree on the path of a change: its entries (read from the parent), the changes below."""

    entries: dict[bytes, Raw]
    base: str | None = None  # the tree the entries were read from
    files: dict[bytes, Raw | None] = field(default_factory=dict)
    folders: dict[bytes, "_Folder"] = field(default_factory=dict)


class TreeWriter:
    """Builds new trees from a parent tree and the changed paths.

    ``read_tree(oid)`` gives a tree object's raw bytes (``read_trees(oids)`` several at once,
    {id: bytes}); ``write_trees(trees)`` has git write the
    trees (raw tree objects, in order: children first) and returns their ids;
    ``hash_files(rels)`` writes the work tree's files as blobs (``hash-object -w``) and returns
    their ids."""

    def __init__(self, read_tree: Callable[[str], bytes],
                 write_trees: Callable[[list[bytes]], list[str]],
                 hash_files: Callable[[list[str]], list[str]],
                 object_format: str = "sha1", trust_executable_bit: bool = True,
                 read_trees: Callable[[list[str]], dict[str, bytes]] | None = None,
                 known: dict[str, dict[bytes, Raw]] | None = None,
                 ordered: dict[str, OrderedTree] | None = None):
        """``known``: trees an earlier commit read or wrote, by id, parsed (a tree's id names
        its entries, so they are never stale): looked up instead of reading and parsing the
        tree again. Only trees on the paths from the base tree are looked up, and those are in
        git's object database with it. ``ordered``: the big ones among them in git's order,
        encoded (:mod:`.tree_order`), likewise."""
        self.read_tree = read_tree
        self.read_trees = read_trees
        self.write_trees = write_trees
        self.hash_files = hash_files
        self.object_format = object_format
        self.id_length = 32 if object_format == "sha256" else 20
        self.trust_executable_bit = trust_executable_bit
        #: trees known to be in git's object database, by id (a writer lives for one commit)
        self._cache: dict[str, dict[bytes, Raw]] = {}
        self._known = known or {}
        #: the trees on the changed paths of the tree :meth:`build` made, read or written
        self.made: dict[str, dict[bytes, Raw]] = {}
        self._made: dict[str, dict[bytes, Raw]] = {}
        self._ordered_known = ordered or {}
        self._ordered: dict[str, OrderedTree] = {}
        #: the big trees of :attr:`made` in git's order, encoded
        self.ordered_made: dict[str, OrderedTree] = {}

    def entries(self, tree: str | None) -> dict[bytes, Raw]:
        """A tree's entries (a copy the caller may change)."""
        return dict(self._read(tree))

    def _read(self, tree: str | None) -> dict[bytes, Raw]:
        if tree is None:
            return {}
        found = self._cache.get(tree)
        if found is None:
            found = self._known.get(tree)
            if found is None:
                found = parse_tree(self.read_tree(tree), self.id_length)
            self._cache[tree] = found
        return found

    def lookup(self, tree: str | None, rels: Iterable[str]) -> dict[str, Entry]:
        """Repository path -> (mode, id) in ``tree`` for those of ``rels`` it holds, reading
        only the trees on their paths, one depth at a time (all the trees of a depth in one
        request: a gc touches most of 256 shard folders)."""
        found: dict[str, Entry] = {}
        pending = [(rel, os.fsencode(rel).split(b"/"), tree) for rel in dict.fromkeys(rels)]
        depth = 0
        while pending:
            self._prefetch({current for _, _, current in pending})
            deeper: list[tuple[str, list[bytes], str | None]] = []
            for rel, parts, current in pending:
                entry = self._read(current).get(parts[depth])
                if entry is None:
                    continue
                if depth == len(parts) - 1:
                    found[rel] = (entry[0].decode(), entry[1].hex())
                elif entry[0] == _TREE_B:
                    deeper.append((rel, parts, entry[1].hex()))
            pending, depth = deeper, depth + 1
        return found

    def _prefetch(self, trees: set[str | None]) -> None:
        missing = [t for t in trees
                   if t is not None and t not in self._cache and t not in self._known]
        if len(missing) < 2 or self.read_trees is None:
            return
        for oid, data in self.read_trees(missing).items():
            if oid not in self._cache:
                self._cache[oid] = parse_tree(data, self.id_length)

    def build(self, base_tree: str | None, worktree: Path, rels: Iterable[str]) -> str:
        """The id of ``base_tree`` with each of ``rels`` (repository paths) taken as it is in
        the work tree now: a regular file's content and mode, or removed when absent. The new
        blobs and trees are written to git's object database. NeedsIndex when the index would
        do something this does not (see the module docstring)."""
        old = self.lookup(base_tree, rels)
        changes: dict[str, Entry | None] = {}
        present: list[tuple[str, os.stat_result]] = []
        for rel in dict.fromkeys(rels):
            if "\n" in rel or rel.startswith('"'):
                raise NeedsIndex(rel)  # hash-object would read it as a quoted path
            try:
                st = os.lstat(worktree / rel)
            except (FileNotFoundError, NotADirectoryError):
                changes[rel] = None
                continue
            if not stat.S_ISREG(st.st_mode):
                raise NeedsIndex(rel)  # a link or a folder: the index's rules
            present.append((rel, st))
        blobs = self.hash_files([rel for rel, _ in present]) if present else []
        for (rel, st), blob in zip(present, blobs, strict=True):
            before = old.get(rel)
            changes[rel] = (mode_of(st, before[0] if before else None, self.trust_executable_bit),
                            blob)
        return self.build_entries(base_tree, changes)

    def build_entries(self, base_tree: str | None, changes: dict[str, Entry | None]) -> str:
        """The id of ``base_tree`` with each repository path set to (mode, object id) or removed
        (None); the new trees are written. NeedsIndex where a file meets a folder."""
        root = _Folder(self.entries(base_tree), base_tree)
        for rel, entry in changes.items():
            parts = os.fsencode(rel).split(b"/")
            if any(p in (b"", b".", b"..") for p in parts) or parts[0] == b".git":
                raise NeedsIndex(rel)
            folder = root
            for part in parts[:-1]:
                child = folder.folders.get(part)
                if child is None:
                    if part in folder.files and folder.files[part] is not None:
                        raise NeedsIndex(rel)  # a file where a folder goes
                    found = folder.entries.get(part)
                    if found is not None and found[0] != _TREE_B:
                        raise NeedsIndex(rel)  # a file (or submodule) where a folder goes
                    base = found[1].hex() if found else None
                    child = _Folder(self.entries(base), base)
                    folder.folders[part] = child
                folder = child
            name = parts[-1]
            found = folder.entries.get(name)
            if (found is not None and found[0] in (_TREE_B, _SUBMODULE_B)) \
                    or name in folder.folders:
                raise NeedsIndex(rel)  # a folder (or submodule) where a file goes
            folder.files[name] = None if entry is None else (entry[0].encode(),
                                                             bytes.fromhex(entry[1]))
        new: dict[str, bytes] = {}
        tree = self._new_tree(root, new)
        if tree is None:  # nothing left at all: the empty tree
            tree = object_id("tree", b"", self.object_format)
            new[tree] = b""
        if new:
            written = self.write_trees(list(new.values()))
            if written != list(new):
                raise NeedsIndex(f"git wrote trees {written} where {list(new)} were computed")
        self.made = {**self._cache, **self._made}
        self.ordered_made = {oid: tree for oid, tree in self._ordered.items() if oid in self.made}
        return tree

    def _new_tree(self, folder: _Folder, new: dict[str, bytes]) -> str | None:
        """The folder's tree id; the trees git does not hold yet go into ``new`` (id -> tree
        object), children before their parent (the order they are written in). None when the
        folder ends up empty (git keeps no empty folder)."""
        entries = folder.entries
        added = 0  # names added go last (a name replaced or removed keeps git's order)
        for name, child in folder.folders.items():
            oid = self._new_tree(child, new)
            added += _set(entries, name, None if oid is None else (_TREE_B, bytes.fromhex(oid)))
        for name, entry in folder.files.items():
            added += _set(entries, name, entry)
        if not entries:
            return None
        before = self._read(folder.base)
        ordered = self._ordered_form(folder.base, before) if len(before) >= ORDERED_FROM else None
        if ordered is not None:  # a big folder: a few entries put in their places
            names = dict.fromkeys([*folder.folders, *folder.files])
            ordered = ordered.changed([(name, before.get(name), entries.get(name))
                                       for name in names if before.get(name) != entries.get(name)])
            if added:
                entries = ordered.in_order(entries)
            data = ordered.data()
        else:
            if added:
                entries = _in_git_order(entries, added)
            data = tree_bytes(entries, in_order=True)
        oid = object_id("tree", data, self.object_format)
        if oid not in self._cache and oid not in new:
            new[oid] = data
        self._made[oid] = entries  # (in git's order, as parse_tree gives them)
        if ordered is not None:
            self._ordered[oid] = ordered
        return oid

    def _ordered_form(self, tree: str | None, entries: dict[bytes, Raw]) -> OrderedTree:
        """The tree's entries in git's order, encoded: kept from an earlier commit, or made."""
        if tree is None:
            return OrderedTree.of(entries)
        found = self._ordered.get(tree) or self._ordered_known.get(tree)
        if found is None:
            found = OrderedTree.of(entries)
        self._ordered[tree] = found
        return found


def _set(entries: dict[bytes, Raw], name: bytes, entry: Raw | None) -> bool:
    """Set or remove one entry; True when it adds a name (last: the order must be made again)."""
    if entry is None:
        entries.pop(name, None)
        return False
    known = name in entries
    entries[name] = entry
    return not known


#: Up to this many names added to a tree are put in their places one by one; more: sorted.
INSERTED_AT_MOST = 16


def _in_git_order(entries: dict[bytes, Raw], added: int) -> dict[bytes, Raw]:
    """``entries`` in git's order, when all but the last ``added`` names are in it already: a
    save adds one name to a folder of 10,000, placed by bisection instead of sorting them all."""
    items = list(entries.items())
    if added > INSERTED_AT_MOST:
        return dict(sorted(items, key=_sort_key))
    placed, extra = items[:-added], items[-added:]
    for item in extra:
        bisect.insort(placed, item, key=_sort_key)
    return dict(placed)
