"""Errors a vault raises. Every one carries a message meant for a person to read as is."""

from __future__ import annotations


class VaultError(Exception):
    """A refused operation or bad input. Nothing on disk or in git was changed."""


class InvalidIdError(VaultError):
    """An id that cannot be a file name in the vault (path separators, '..', too long...)."""


class UnknownIdError(VaultError):
    """No memory (or relation) has this id or prefix. ``key``: what was looked up (for a
    memory: the CLI then says when it is one that was deleted), None when not said."""

    def __init__(self, message: str, key: str | None = None, kind: str = "memory"):
        super().__init__(message)
        self.key = key
        self.kind = kind


class AmbiguousIdError(VaultError):
    """A prefix that matches more than one id."""

    def __init__(self, prefix: str, candidates: list[str]):
        self.prefix = prefix
        self.candidates = sorted(candidates)
        shown = ", ".join(self.candidates[:10])
        more = f" and {len(self.candidates) - 10} more" if len(self.candidates) > 10 else ""
        super().__init__(f"id prefix {prefix!r} is ambiguous: {shown}{more}")


class InvalidRecordError(VaultError):
    """A record holding a value no record may hold (:mod:`core.model.checks`); nothing was
    written."""


class LockTimeoutError(VaultError):
    """Another process held the vault's write lock for longer than we were willing to wait."""


class JournalError(VaultError):
    """git refused a step of a commit; the vault was put back as it was."""


class ChangedMeanwhileError(JournalError):
    """A file an operation was about to write changed on disk after it was read (a person's
    save): it was kept as they left it and nothing of the operation was written. ``path``: the
    file. The write path takes the person's edit and does the operation again on top."""

    def __init__(self, message: str, path: object = None):
        super().__init__(message)
        self.path = path


class HeadMovedError(ChangedMeanwhileError):
    """Another process (a person's ``git commit``) moved HEAD between the start of a commit and
    its ``update-ref``: what the operation wrote was put back, nothing was committed. The write
    path catches up with that commit and does the operation again."""


class ConfigError(VaultError):
    """A setting (an environment variable, a path) that cannot be used."""
