"""Which ids are safe file names (:func:`check_id`): every record id is a file's name in the
vault, so an id that could name a path elsewhere, or one a file system refuses, is refused."""

from __future__ import annotations

import re
import unicodedata

from ..errors import InvalidIdError

MAX_ID_LENGTH = 128

_WINDOWS_RESERVED = re.compile(r"^(con|prn|aux|nul|com[1-9]|lpt[1-9])$", re.IGNORECASE)
_BAD_CHARS = set('/\\:*?"<>|')
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,127}")  # the common case: uuids, m1, test-123


def check_id(value: object, kind: str = "memory") -> str:
    """Return ``value`` if it is a safe file name for an id, else raise InvalidIdError."""
    if not isinstance(value, str):
        raise InvalidIdError(f"{kind} id must be a string, got {type(value).__name__}")
    if _PLAIN_ID.fullmatch(value) and not _WINDOWS_RESERVED.match(value):
        return value
    problem = None
    if not value:
        problem = "it is empty"
    elif len(value) > MAX_ID_LENGTH:
        problem = f"it is longer than {MAX_ID_LENGTH} characters"
    elif value in (".", "..") or ".." in value:
        problem = "it contains '..'"
    elif value.startswith("."):
        problem = "it starts with a dot"
    elif value != value.strip():
        problem = "it starts or ends with whitespace"
    elif any(c in _BAD_CHARS for c in value):
        problem = "it contains a path separator or a character file systems refuse"
    elif any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for c in value):
        problem = "it contains control or invisible characters"
    elif _WINDOWS_RESERVED.match(value):
        problem = "it is a reserved device name"
    if problem:
        shown = value if len(value) <= 40 else value[:40] + "..."
        raise InvalidIdError(f"refused {kind} id {shown!r}: {problem}")
    return value
