"""The memory tool's six commands on a vault (:class:`VaultMemory`), shared by the sync and the
async tool (:mod:`tui.memory_tool.tools`).

Each command runs on the vault caught up with other processes' commits, one at a time; a write
holds the vault's write lock from its read to its commit and is ONE commit through core, made
as ``vault.acting_for(via=..., tool=<command>)``: its trailers ``Memvault-Via:
anthropic/memory-tool`` and ``Memvault-Tool: <command>`` put it in the review inbox, and
core's write path checks it for secrets (a refusal comes back as :class:`ToolError`, nothing
written). ``delete`` archives (``memvault restore``, ``undo`` or the inbox's reject bring it
back); ``rename`` changes only the path kept in the memory, never its id."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from anthropic.lib.tools import ToolError
from pydantic import ValidationError

from core import Memory, MemoryMetadata, Vault, VaultError, default_vault_path
from core.model.records import now_epoch
from core.textutil import neutralise_line
from core.vault.reports import first_error, op_message

from .answers import file_view, folder_listing, inserted, replaced
from .paths import PATH_KEY, ROOT, checked_path, is_under, parents
from .tree import MemoryTree, Slugs

T = TypeVar("T")

#: who writes: every commit's ``Memvault-Via`` (the review inbox lists it as the client)
DEFAULT_VIA = "anthropic/memory-tool"


def _missing(shown_as: str) -> ToolError:
    return ToolError(f"The path {shown_as} does not exist. Please provide a valid path.")


def _with_path(memory: Memory, path: str, **changes: object) -> Memory:
    """``memory`` keeping ``path`` (and ``changes``); a new content drops the old gist, which
    core makes anew (as ``Vault.update`` does)."""
    extra = {**memory.meta.extra, PATH_KEY: path}
    meta = memory.meta.model_copy(update={"extra": extra})
    if "content" in changes and changes["content"] != memory.content:
        changes["gist"] = None
    return memory.model_copy(update={"meta": meta, **changes})


class VaultMemory:
    """The commands on ``vault`` (opened for writing; one opened read-only answers ``view`` and
    refuses the rest), committing as ``via``."""

    def __init__(self, vault: Vault, *, via: str = DEFAULT_VIA):
        """``via`` must name the writer: a commit without it would be in no review inbox."""
        self.via = checked_via(via)
        self.vault = vault
        self._lock = threading.Lock()  # (the SDK may run several tool calls at once)
        self._slugs = Slugs()
        self._laid_out: tuple[str, MemoryTree] | None = None  # the last tree and its commit

    def tree(self, vault: Vault) -> MemoryTree:
        """The vault as files, now: laid out anew only when the commit the vault's cache shows
        has moved (every change of a memory's text, path or status is a commit; a use record,
        which changes none of them, may wait for one)."""
        head = vault.head
        if head is not None and self._laid_out is not None and self._laid_out[0] == head:
            return self._laid_out[1]
        memories = vault.memories
        if len(self._slugs) > 2 * len(memories):  # (many gone since: a gc, a purge)
            self._slugs.keep_only(memories)
        tree = MemoryTree.of(memories.values(), self._slugs)
        self._laid_out = None if head is None else (head, tree)
        return tree

    # -- reading ------------------------------------------------------------------------------
    def view(self, path: str, view_range: list[int] | None = None) -> str:
        """A folder's listing or a file's lines (:mod:`tui.memory_tool.answers`)."""
        where = checked_path(path)

        def look(vault: Vault) -> str:
            tree = self.tree(vault)
            if where in tree.folders:
                return folder_listing(tree, where, path)
            if where in tree.files:
                return file_view(tree.files[where].content, path, view_range)
            raise _missing(path)
        return self._run(look)

    # -- writing ------------------------------------------------------------------------------
    def create(self, path: str, file_text: str) -> str:
        """A new memory at ``path`` holding ``file_text`` as it is (one ``create:`` commit)."""
        where = checked_path(path)

        def make(vault: Vault) -> str:
            tree = self.tree(vault)
            if tree.exists(where):
                raise ToolError(f"File {path} already exists")
            blocked = next((p for p in parents(where) if p in tree.files), None)
            if blocked is not None:
                raise ToolError(f"The path {blocked} is a file, not a directory; "
                                f"nothing was written")
            _require_text(file_text, path)
            now = now_epoch()
            memory = Memory(id=str(uuid.uuid4()), content=file_text, created_at=now,
                            last_used=now, meta=MemoryMetadata(extra={PATH_KEY: where}))
            vault.save(memory, message=f"{op_message('create', [memory])} at {_said(where)}")
            return f"File created successfully at: {path}"
        return self._write("create", make)

    def str_replace(self, path: str, old_str: str, new_str: str) -> str:
        """The one ``old_str`` in the file replaced by ``new_str`` (one commit)."""
        where = checked_path(path)

        def edit(vault: Vault) -> str:
            memory = self._file(self.tree(vault), where, path)
            content, answer = replaced(memory.content, old_str, new_str, path)
            _require_text(content, path)
            new = _with_path(memory, where, content=content)
            vault.save(new, message=f"{op_message('str_replace', [new])} in {_said(where)}")
            return answer
        return self._write("str_replace", edit)

    def insert(self, path: str, insert_line: int, insert_text: str) -> str:
        """``insert_text`` as a new line after line ``insert_line`` (one commit)."""
        where = checked_path(path)

        def edit(vault: Vault) -> str:
            memory = self._file(self.tree(vault), where, path)
            new = _with_path(memory, where,
                             content=inserted(memory.content, insert_line, insert_text))
            vault.save(new, message=f"{op_message('insert', [new])} in {_said(where)}")
            return f"The file {path} has been edited."
        return self._write("insert", edit)

    def delete(self, path: str) -> str:
        """The file's memory (or every memory in the folder) archived, in one commit: nothing is
        lost (``memvault restore``, ``undo``, the inbox's reject)."""
        where = checked_path(path)

        def archive(vault: Vault) -> str:
            if where == ROOT:
                raise ToolError("Cannot delete the /memories directory itself")
            tree = self.tree(vault)
            if where in tree.files:
                gone = [tree.files[where]]
            elif where in tree.folders:
                gone = [m for _p, m in tree.under(where)]
            else:
                raise ToolError(f"The path {path} does not exist")
            vault.archive(*(m.id for m in gone))
            return f"Successfully deleted {path}"
        return self._write("delete", archive)

    def rename(self, old_path: str, new_path: str) -> str:
        """The file (or every file in the folder) at its new path: only the path kept in each
        memory changes, never its id or text (one commit)."""
        old, new = checked_path(old_path), checked_path(new_path)

        def move(vault: Vault) -> str:
            if old == ROOT:
                raise ToolError("Cannot rename the /memories directory itself")
            tree = self.tree(vault)
            if tree.exists(new):
                raise ToolError(f"The destination {new_path} already exists")
            if old in tree.files:
                moves = [(new, tree.files[old])]
            elif old in tree.folders:
                if is_under(new, old):
                    raise ToolError(f"Cannot move {old_path} into itself ({new_path}); "
                                    "nothing was written")
                moves = [(new + p[len(old):], m) for p, m in tree.under(old)]
            else:
                raise ToolError(f"The path {old_path} does not exist")
            blocked = next((p for p in parents(new) if p in tree.files), None)
            if blocked is not None:
                raise ToolError(f"The path {blocked} is a file, not a directory; "
                                "nothing was written")
            moved = [_with_path(m, to) for to, m in moves]
            verb = op_message("rename", moved)
            vault.save_many(moved, message=f"{verb}: {_said(old)} -> {_said(new)}")
            return f"Successfully renamed {old_path} to {new_path}"
        return self._write("rename", move)

    # -- running a command --------------------------------------------------------------------
    def _file(self, tree: MemoryTree, where: str, shown_as: str) -> Memory:
        """The memory at ``where``, or the SDK's refusal (no such path; a folder)."""
        if where in tree.files:
            return tree.files[where]
        if where in tree.folders:
            raise ToolError(f"The path {shown_as} is not a file.")
        raise _missing(shown_as)

    def _write(self, command: str, job: Callable[[Vault], T]) -> T:
        """``job`` under the write lock, on a view of the vault committing as the memory tool's
        ``command``; the lock held from its read to its commit."""
        def locked(vault: Vault) -> T:
            acting = vault.acting_for(via=self.via, tool=command)
            with acting.transaction(flush_use="lazy"):  # (a refusal commits nothing at all)
                return job(acting)
        return self._run(locked, refresh=False)

    def _run(self, job: Callable[[Vault], T], *, refresh: bool = True) -> T:
        """``job`` on the vault (caught up with other processes' commits first when it only
        reads: a write's transaction catches up itself), one command at a time; core's refusals
        (a secret, a read-only vault, a record too large) as ToolError, nothing written."""
        with self._lock:
            before = self._head()
            try:
                if refresh and not self.vault.readonly:
                    self.vault.refresh()
                return job(self.vault)
            except ToolError:
                raise
            except VaultError as exc:
                raise ToolError(neutralise_line(str(exc))) from None
            except ValidationError as exc:
                raise ToolError(f"refused: {first_error(exc)}; nothing was written") from None
            except OSError as exc:  # a full disk, a file that cannot be read: said, not raised raw
                what = neutralise_line(str(exc.strerror or exc))
                after = self._head()
                if after is not None and before is not None and after != before:
                    raise ToolError(f"failed: {what}; the change was committed ({after[:8]}) "
                                    "before it failed") from None
                raise ToolError(f"failed: {what}; nothing was written") from None

    def _head(self) -> str | None:
        """HEAD as git has it now (None when it cannot be read)."""
        try:
            return self.vault.journal.head()
        except (OSError, VaultError):
            return None

    def close(self) -> None:
        """Let the vault go."""
        self.vault.close()


def _require_text(text: str, shown_as: str) -> None:
    if not text.strip():
        raise ToolError(f"A memory cannot be empty: {shown_as} would hold no text; nothing was "
                        "written (delete the file instead)")


def _said(path: str) -> str:
    """A path in a commit message (one line, no control character: :func:`checked_path`)."""
    return neutralise_line(path)


def checked_via(via: object) -> str:
    """``via`` as the ``Memvault-Via`` trailer carries it (one line); ValueError when it names no
    one."""
    if not isinstance(via, str) or not via.strip():
        raise ValueError(f"via must name who writes (as the review inbox shows it), not {via!r}")
    return " ".join(neutralise_line(via).split())


def open_vault(where: Vault | str | Path | None, via: str) -> tuple[Vault, bool]:
    """The vault to use and whether the tool opened it (and so closes it): ``where`` itself, or
    the vault at that path (``None``: ``$MEMVAULT_PATH``, else memvault's default folder),
    opened for writing as ``via``."""
    via = checked_via(via)  # (before a vault is opened, or made)
    if isinstance(where, Vault):
        return where, False
    if where is None:
        where = default_vault_path()
    return Vault.open(Path(where).expanduser(), via=via), True
