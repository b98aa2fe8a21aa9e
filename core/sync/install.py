"""``memvault sync install``: the ``memory-latest`` merge driver in a clone.

* git's config (the clone's own ``.git/config``): ``merge.memory-latest.driver`` is the
  installed ``memvault-merge-driver`` program by its absolute path (git runs it with the
  repository's root as the working directory; ``python -m`` would import a ``core/`` or
  ``tui/`` package committed there). A clone set up by an older memvault (a ``python -m``
  command line naming the CLI's module) gets the new command at its next ``sync`` or
  ``sync install``.
* ``$GIT_DIR/info/attributes``: the vault's lines with :data:`PINNED`. That file outranks every
  ``.gitattributes`` and no remote can change it, so vault files always merge with our driver
  and are never filtered, converted (eol, encoding, keywords) or diffed by a driver a
  ``.gitattributes`` names.
* the committed ``.gitattributes``: the vault's ``merge=memory-latest`` lines, for a person's
  own ``git merge`` in a clone set up this way. Lines a remote removed come back at the next
  sync (one ``sync: install merge driver`` commit); lines it added stay, overruled here.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import VaultError
from ..git.journal import Journal
from ..store.layout import write_atomic
from .merge_driver import DRIVER_NAME, PROGRAM
from ..vault import Vault
from ..store.private import make_folders

ATTRIBUTES_FILE = ".gitattributes"
LOCAL_ATTRIBUTES = "info/attributes"  # in the git directory: this clone's, outranks the tree's
DRIVER_LABEL = "memvault: keep the later memory (memory-latest)"
ATTRIBUTES_COMMENT = "# memvault: merge vault files with the memory-latest driver (memvault sync install)"
LOCAL_ATTRIBUTES_COMMENT = ("# memvault: how this clone merges and checks out vault files, whatever "
                            "a .gitattributes says (memvault sync install)")
#: Pinned for vault files in info/attributes: our driver; no filter, eol or encoding conversion,
#: keyword expansion or diff driver that a .gitattributes from a remote could name.
PINNED = f"merge={DRIVER_NAME} -filter -text -ident -working-tree-encoding !diff"


# -- the driver program ---------------------------------------------------------------------------
def driver_program() -> Path:
    """The absolute path of the installed ``memvault-merge-driver`` program: next to this
    Python (its environment's scripts), else on PATH (absolute entries only: never a program
    found through ``.`` in the repository). VaultError when it is not installed."""
    beside = Path(sys.executable).parent / PROGRAM
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside.absolute()
    search = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                             if d and os.path.isabs(d))
    found = shutil.which(PROGRAM, path=search) if search else None
    if found is None:
        raise VaultError(f"refused: the {PROGRAM} program is not installed (looked next to "
                         f"{sys.executable} and on PATH); reinstall memvault (pip install "
                         "memvault, or pip install -e . in a checkout), then sync again")
    return Path(found).absolute()


def driver_command() -> str:
    """The driver's command line for git's config: the installed program by its absolute path
    (git runs it with the repository's root as the working directory, so nothing is imported
    from there), quoted for the shell, ``%`` doubled for git; git fills in the file names."""
    program = shlex.quote(str(driver_program())).replace("%", "%%")
    return f"{program} %O %A %B %P"


def _glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def _attribute_pattern(pattern: str) -> str:
    if any(c.isspace() or c == '"' for c in pattern) or pattern.startswith("#"):
        return '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return pattern


def attribute_lines(journal: Journal, attributes: str = f"merge={DRIVER_NAME}") -> list[str]:
    """The ``.gitattributes`` lines for a vault, with paths relative to the repository root."""
    rel = journal.relpath(journal.root)
    prefix = "" if rel == "." else _glob_escape(rel) + "/"
    return [f"{_attribute_pattern(prefix + tail)} {attributes}"
            for tail in ("memories/*.json", "memories/*/*.json",  # flat and sharded layouts
                         "relations/*.json", ".meta.json")]


def _local_attributes(journal: Journal) -> Path:
    return Path(journal.common_dir) / LOCAL_ATTRIBUTES


def _pin(journal: Journal) -> bool:
    """Add the vault's pinned lines to the clone's ``info/attributes`` (kept: every other line);
    True when it changed."""
    path = _local_attributes(journal)
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except FileNotFoundError:
        text = ""
    present = set(text.splitlines())
    missing = [line for line in attribute_lines(journal, PINNED) if line not in present]
    if not missing:
        return False
    if text and not text.endswith("\n"):
        text += "\n"
    if LOCAL_ATTRIBUTES_COMMENT not in present:
        text += LOCAL_ATTRIBUTES_COMMENT + "\n"
    text += "".join(line + "\n" for line in missing)
    make_folders(path.parent)
    write_atomic(path, text.encode())
    return True


def _pinned(journal: Journal) -> bool:
    try:
        present = set(_local_attributes(journal).read_bytes().decode("utf-8", "replace")
                      .splitlines())
    except OSError:
        return False
    return all(line in present for line in attribute_lines(journal, PINNED))


@dataclass
class InstallReport:
    attributes_file: str
    lines: list[str]
    added_lines: list[str] = field(default_factory=list)
    config_changed: list[str] = field(default_factory=list)
    commit: str | None = None
    pinned: bool = False  # the clone's info/attributes got the vault's lines

    @property
    def changed(self) -> bool:
        return bool(self.added_lines or self.config_changed or self.pinned)


def install(vault: Vault) -> InstallReport:
    """Register the driver in the clone's git config (its absolute path: a clone set up by an
    older memvault gets the new command), pin the vault's lines in the clone's
    ``info/attributes``, and add them to the repository's ``.gitattributes`` (one ``sync:
    install merge driver`` commit). Idempotent."""
    journal = vault.journal
    command = driver_command()  # before anything changes: VaultError when not installed
    with vault.transaction():
        path = journal.worktree / ATTRIBUTES_FILE
        report = InstallReport(str(path), attribute_lines(journal))
        for key, value in ((f"merge.{DRIVER_NAME}.name", DRIVER_LABEL),
                           (f"merge.{DRIVER_NAME}.driver", command)):
            if journal.config_get(key) != value:
                journal.remote.config_set(key, value)
                report.config_changed.append(key)
        report.pinned = _pin(journal)
        committed = journal.history.show("HEAD", path) if journal.head() else None
        present = set((committed or b"").decode("utf-8", "replace").splitlines())
        missing = [line for line in report.lines if line not in present]
        if not missing:
            return report
        if os.path.islink(path) or (committed is not None and journal.objects.ls_tree(
                "HEAD", ATTRIBUTES_FILE).get(ATTRIBUTES_FILE, ("",))[0] == "120000"):
            raise VaultError(f"refused: {path} is a symbolic link (a remote may have committed "
                             "it); memvault never writes through one. Replace it with a regular "
                             "file (git rm it and commit), then sync again")
        on_disk = path.read_bytes() if path.exists() else None
        if on_disk != committed:
            raise VaultError(f"refused: {path} has changes that are not committed; commit or "
                             "revert them, then run `memvault sync install` again")
        text = (committed or b"").decode("utf-8", "replace")
        if text and not text.endswith("\n"):
            text += "\n"
        if ATTRIBUTES_COMMENT not in present:
            text += ATTRIBUTES_COMMENT + "\n"
        text += "".join(line + "\n" for line in missing)
        report.commit = vault.write_path.commit_repository_files(
            "sync: install merge driver", {path: text.encode()})
        report.added_lines = missing
    return report


def installed(vault: Vault) -> bool:
    journal = vault.journal
    try:
        command = driver_command()
    except VaultError:
        return False
    if journal.config_get(f"merge.{DRIVER_NAME}.driver") != command or journal.head() is None \
            or not _pinned(journal):
        return False
    committed = journal.history.show("HEAD", journal.worktree / ATTRIBUTES_FILE) or b""
    present = set(committed.decode("utf-8", "replace").splitlines())
    return all(line in present for line in attribute_lines(journal))


__all__ = ["ATTRIBUTES_FILE", "PINNED", "InstallReport", "attribute_lines", "driver_command",
           "driver_program", "install", "installed"]
