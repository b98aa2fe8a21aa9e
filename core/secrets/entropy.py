"""High-entropy tokens: 20+ base64 characters with Shannon entropy over 4.5 bits, and 32+ hex
digits over 3.0 (the limits of ``detect-secrets``), that mix letters and digits, and that are
not UUIDs, sequences (``abcdef...``), ids (``user_id=...``), git object names (40 or 64 hex
digits: commits are quoted in memories all the time) or hex digests named so (``"hash":
"<md5>"``, ``sha256: ...``: mem0 keeps an md5 of every memory).

Linear in the text's length, whatever its lines: a token's line is found from the last one
(never searched back from the token over a megabyte-long line), and the two checks that look
back along the line (an id's name before the token, a digest's name right before it) are
answered once a line or from the token backwards, never by a search from the line's start for
every token."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

HIGH_ENTROPY = "high-entropy-string"
HIGH_ENTROPY_HEX = "high-entropy-hex"

BASE64_LIMIT = 4.5  # detect-secrets' Base64HighEntropyString default
HEX_LIMIT = 3.0  # detect-secrets' HexHighEntropyString default
BASE64_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{20,}={0,2}(?![A-Za-z0-9+/=_-])")
HEX_TOKEN = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{32,}(?![0-9A-Za-z])")
_GIT_OBJECT_LENGTHS = (40, 64)
#: a hex token named a digest (``"hash": "<md5>"``, ``sha256: ...``, ``checksum=...``) is one:
#: content digests are written into records (mem0 keeps an md5 of every memory). Matched
#: backwards from the token (on the reversed text): the name must end right before it.
_DIGEST_NAME_REVERSED = re.compile(r"[\"']?\s*[:=]\s*[\"']?(?:hsah|5dm|\d*ahs|tsegid|muskcehc)",
                                   re.IGNORECASE)


def high_entropy(text: str, heuristic: Any, windows: Iterable[tuple[int, int]] | None
                 ) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each high-entropy token of ``text``; only those inside
    ``windows`` (sorted, disjoint (low, high) spans that hold every token of 20+ characters
    mixing letters and digits, whole), or the whole text when None."""
    spans = [(0, len(text))] if windows is None else list(windows)
    reversed_text: list[str] = []  # made on the first hex token that needs it
    for pattern, kind, limit, entropy in (
            (BASE64_TOKEN, HIGH_ENTROPY, BASE64_LIMIT, shannon_entropy),
            (HEX_TOKEN, HIGH_ENTROPY_HEX, HEX_LIMIT, hex_entropy)):
        lines = _Lines(text)
        for low, high in spans:
            for match in pattern.finditer(text, low, high):
                token = match.group()
                if kind == HIGH_ENTROPY_HEX and len(token) in _GIT_OBJECT_LENGTHS:
                    continue
                if not (any(c.isdigit() for c in token) and any(c.isalpha() for c in token)):
                    continue
                if entropy(token) <= limit or heuristic.is_sequential_string(token) \
                        or heuristic.is_potential_uuid(token):
                    continue
                if lines.likely_id(match.start(), token, heuristic):
                    continue
                if kind == HIGH_ENTROPY_HEX and _named_digest(text, reversed_text,
                                                              lines.start, match.start()):
                    continue
                yield kind, match.start(), match.end()


class _Lines:
    """The line around offsets asked in increasing order (each newline looked at once), and
    what detect-secrets' id check says of the line's tokens."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start, self.end = 0, -1  # the line is text[start:end] (end: its newline or len)
        self._id_end: int | None = None  # where the line's first id name ends (None: none)

    def at(self, offset: int) -> None:
        """Move to the line holding ``offset``: from the last line forwards when it is later
        (so every newline is looked at about once), else from the text's start."""
        if self.end >= 0 and self.start <= offset <= self.end:
            return
        # (the last line's end is a newline before offset: the search stops there)
        since = self.end if 0 <= self.end < offset else 0
        self.start = self.text.rfind("\n", since, offset) + 1
        end = self.text.find("\n", offset)
        self.end = len(self.text) if end < 0 else end
        self._id_end = _first_id_end(self.text, self.start, self.end)

    def likely_id(self, offset: int, token: str, heuristic: Any) -> bool:
        """``heuristic.is_likely_id_string(token, line)`` for the token at ``offset``: an id
        name (``_id``, ``user_id``...) before the token's first place in its line."""
        self.at(offset)
        if self._id_end is _UNKNOWN_ID:
            return bool(heuristic.is_likely_id_string(token, self.text[self.start:self.end]))
        if self._id_end is None:
            return False
        # the token's first place in the line is at or after where the id name ends
        return self.text.find(token, self.start, self._id_end - 1 + len(token)) < 0


_UNKNOWN_ID: Any = -1  # (the detect-secrets in use has no id pattern to read: ask it)


def _first_id_end(text: str, start: int, end: int) -> int | None:
    """Where the first match of detect-secrets' id pattern in ``text[start:end]`` ends.
    Its matches are short and end in one place each, so ``search(line, 0, index)`` finds one
    exactly when the first one ends by ``index``."""
    from detect_secrets.filters import heuristic

    get = getattr(heuristic, "_get_id_detector_regex", None)
    if get is None:
        return _UNKNOWN_ID  # type: ignore[no-any-return]
    found = get().search(text[start:end])
    return None if found is None else start + found.end()


def _named_digest(text: str, reversed_text: list[str], line_start: int, start: int) -> bool:
    """A digest's name (``hash:``, ``"md5": "``, ``sha256=``) ends right before ``start``."""
    if not reversed_text:
        reversed_text.append(text[::-1])
    n = len(text)
    return _DIGEST_NAME_REVERSED.match(reversed_text[0], n - start, n - line_start) is not None


def shannon_entropy(data: str) -> float:
    """Shannon entropy of ``data``, in bits a character."""
    counts: dict[str, int] = {}
    for c in data:
        counts[c] = counts.get(c, 0) + 1
    n = len(data)
    return -sum(k / n * math.log2(k / n) for k in counts.values())


def hex_entropy(data: str) -> float:
    """detect-secrets' hex rule: a hex string of digits only counts for less."""
    value = shannon_entropy(data)
    if data.isdigit():
        value -= 1.2 / math.log2(len(data))
    return value
