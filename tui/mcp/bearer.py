"""The bearer token of ``memvault mcp --http``: one random token a user, made at the first start
(or by ``memvault mcp token``), kept in the user's config folder (platformdirs, or
``MEMVAULT_CONFIG_DIR``) as ``mcp-token``, mode 0600 in a 0700 folder, written atomically;
``memvault mcp token --rotate`` replaces it. A running server reads the file again when it
changes, so a rotation shuts the old token out at once.

Imports neither the ``mcp`` package nor the vault: ``memvault mcp token`` stays quick.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from core import VaultError
from core.store.files import replace_file
from core.store.private import make_folders

CONFIG_ENV = "MEMVAULT_CONFIG_DIR"
TOKEN_FILE = "mcp-token"
TOKEN_BYTES = 32  # 256 bits, url-safe base64: 43 characters
_TEMP_PREFIX = ".mcp-token-"
_MIN_LENGTH = 32


def token_path() -> Path:
    """Where the token lives: ``$MEMVAULT_CONFIG_DIR/mcp-token``, else the user's config folder
    (``~/.config/memvault/mcp-token`` on Linux)."""
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV]).expanduser() / TOKEN_FILE
    from platformdirs import user_config_path

    return user_config_path("memvault", appauthor=False) / TOKEN_FILE


def _check_private(path: Path) -> None:
    """Refuse a token file others may read or a link (someone else's file in its place)."""
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
        raise VaultError(f"{path} is not a plain file: refusing to use it as the MCP token "
                         "(remove it, then `memvault mcp token --rotate`)")
    if info.st_mode & 0o077:
        raise VaultError(f"{path} can be read by others (mode {stat.S_IMODE(info.st_mode):o}): "
                         "run `memvault mcp token --rotate` for a new, private one")


def read_token(path: Path | None = None) -> str | None:
    """The stored token, or None when there is none yet. A file others can read, a link or a
    token too short to be one of ours is refused (VaultError)."""
    path = token_path() if path is None else path
    try:
        _check_private(path)
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        if isinstance(exc, VaultError):
            raise
        raise VaultError(f"cannot read the MCP token at {path}: {exc}") from None
    if len(text) < _MIN_LENGTH or not text.isprintable() or " " in text:
        raise VaultError(f"{path} does not hold a token memvault made: "
                         "run `memvault mcp token --rotate` for a new one")
    return text


def write_token(path: Path | None = None) -> str:
    """A new random token, stored (0600, atomically, its folder made 0700 if new)."""
    path = token_path() if path is None else path
    if not path.parent.is_dir():
        make_folders(path.parent)
    value = secrets.token_urlsafe(TOKEN_BYTES)
    replace_file(path, (value + "\n").encode("ascii"), _TEMP_PREFIX)
    return value


def ensure_token(path: Path | None = None) -> tuple[str, bool]:
    """The stored token, made now if there is none; and whether it was made now."""
    found = read_token(path)
    if found is not None:
        return found, False
    return write_token(path), True


@dataclass
class _Seen:
    key: tuple[int, ...] | None
    token: str | None


class TokenFile:
    """The token as a running server checks it: the file is looked at (one ``stat``) at each
    check and read again only when it changed; the comparison takes constant time."""

    def __init__(self, path: Path):
        self.path = path
        self._seen = _Seen(None, None)

    def current(self) -> str | None:
        try:
            info = self.path.stat()
        except OSError:
            return None  # removed: nothing is accepted until a token is made again
        key = (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino, info.st_mode)
        if key != self._seen.key:
            try:
                token = read_token(self.path)
            except VaultError:
                token = None  # a file made unsafe meanwhile lets no one in
            self._seen = _Seen(key, token)
        return self._seen.token

    def accepts(self, offered: str) -> bool:
        expected = self.current()
        if not expected or not offered:
            return False
        return hmac.compare_digest(offered.encode("utf-8", "replace"), expected.encode("ascii"))
