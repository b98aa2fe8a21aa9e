"""Where the files a person edits in ``$EDITOR`` live (:mod:`core.io.edit_text` is their format):
``{state_dir}/edits/{id8}-{UTC time}-{pid}.txt`` in the git directory's ``memvault/`` folder
(``Journal.state_dir``: private, never committed, never loaded as a record), folder 0700, files
0600. A file is removed once its edit is committed (or was unchanged); a file that did not
parse, or whose edit was refused, stays there and the person is told its path."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.records import Memory
from ..store.files import write_atomic
from .edit_text import EditTextError, from_bytes, render, to_bytes

if TYPE_CHECKING:
    from ..vault import Vault

EDITS_DIR = "edits"
MAX_EDIT_BYTES = 64 * 1024 * 1024  # read at most this much back (a vault file holds 16 MiB)


def edits_folder(vault: Vault) -> Path:
    folder = vault.journal.state_dir / EDITS_DIR
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def new_edit_file(vault: Vault, memory: Memory) -> Path:
    """A new private file holding ``memory`` as :func:`~core.io.edit_text.render` writes it."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = edits_folder(vault) / f"{memory.id[:8]}-{stamp}-{os.getpid()}.txt"
    n = 1
    while path.exists():
        n += 1
        path = path.with_name(f"{memory.id[:8]}-{stamp}-{os.getpid()}-{n}.txt")
    write_atomic(path, to_bytes(render(memory)))
    return path


def read_edit_file(path: Path) -> str:
    with open(path, "rb") as fh:
        data = fh.read(MAX_EDIT_BYTES + 1)
    if len(data) > MAX_EDIT_BYTES:
        raise EditTextError(f"the file is larger than {MAX_EDIT_BYTES // (1024 * 1024)} MiB")
    return from_bytes(data)


def edited_memory(path: Path) -> str | None:
    """The id of the memory an edit file was made for (its first line names it), or None."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(4096).decode("utf-8", "replace")
    except OSError:
        return None
    found = re.match(r"# memvault: edit memory (\S+?),", first)
    return found.group(1) if found else None


def remove_edit_file(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
