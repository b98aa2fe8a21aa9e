"""A memory as a plain text file a person edits in ``$EDITOR`` (``memvault edit ID``, the app's
``e``), and the fields a person may edit (the app's form uses the same rules).

```
# memvault: edit memory 1a2b3c4d-... and save; an unchanged file writes nothing.
# ...(comment lines: ignored)
gist: Prefers pytest with plain assert
tags: prefs, python
entities: pytest
strength: 1
-------- memvault: everything below this line, to the end of the file, is the memory's text --------
The user prefers pytest ...
```

The rules, chosen so that a file saved unchanged gives back the very same memory, byte for byte:

- The header is ``key: value`` lines (``gist``, ``tags``, ``entities``, ``strength``); lines that
  start with ``#`` and blank lines are ignored; a key left out keeps its value; an unknown key is
  an error (nothing written). ``gist:`` with nothing after it means no gist.
- A value is the rest of its line without the spaces around it, unless it starts with ``"``:
  then it is one JSON string (how a gist with a line break, a control character or spaces at
  its ends is written). A list is comma separated, or a JSON array when it starts with ``[``
  (how a tag holding a comma is written).
- The text is everything after the FIRST separator line, to the end of the file, with one
  exception: the file always ends with a line break that is not part of the text (editors add
  one), so ``render`` writes the text plus ``"\\n"`` and ``parse`` takes one trailing ``"\\n"``
  off (a file whose last line break an editor removed loses nothing). Text that holds the
  separator line itself, control characters, or no final line break round-trips exactly.
- The file is UTF-8; lone surrogates a record may hold are kept (``surrogatepass``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import VaultError
from ..model.records import Memory

SEPARATOR = ("-------- memvault: everything below this line, to the end of the file, is the "
             "memory's text --------")
KEYS = ("gist", "tags", "entities", "strength")
ENCODING, ERRORS = "utf-8", "surrogatepass"
#: What a person may type into a comma-separated list without quoting it
_PLAIN_ITEM_BAD = (",", "\n", "\r")


class EditTextError(VaultError):
    """An edited file or form that does not give a valid memory: what is wrong, where (the
    line, when there is one). Nothing was written."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.reason = message
        self.line = line


@dataclass(frozen=True)
class EditFields:
    """What a person edits of a memory."""

    content: str
    gist: str | None
    tags: tuple[str, ...]
    entities: tuple[str, ...]
    strength: float

    @classmethod
    def of(cls, memory: Memory) -> EditFields:
        return cls(memory.content, memory.gist, tuple(memory.meta.tags), tuple(memory.entities),
                   memory.strength)


# -- values ---------------------------------------------------------------------------------------
def _needs_quotes(value: str) -> bool:
    return (value != value.strip() or value.startswith(('"', "[")) or not value.isprintable())


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_string(value: str) -> str:
    """``value`` as a JSON string on one line of printable characters (letters of any script
    as they are; line breaks, control and other invisible characters as ``\\uXXXX``)."""
    return "".join(c if c.isprintable() else _escaped(c)
                   for c in json.dumps(value, ensure_ascii=False))


def format_value(value: str | None) -> str:
    """A header value as it is written: plain, or a JSON string when plain would not give it
    back exactly."""
    if not value:
        return ""
    return json_string(value) if _needs_quotes(value) else value


def parse_value(text: str, what: str = "value", line: int | None = None) -> str:
    text = text.strip()
    if not text.startswith('"'):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EditTextError(f"{what}: a value starting with \" must be one JSON string "
                            f"({exc.msg} at column {exc.colno})", line) from None
    if not isinstance(value, str):
        raise EditTextError(f"{what}: a value starting with \" must be one JSON string", line)
    return value


def format_list(items: Iterable[str]) -> str:
    """``a, b, c``; a JSON array when an item would not come back from that."""
    items = list(items)
    if any(not i or _needs_quotes(i) or any(c in i for c in _PLAIN_ITEM_BAD) for i in items):
        return "[" + ", ".join(json_string(i) for i in items) + "]"
    return ", ".join(items)


def parse_list(text: str, what: str = "list", line: int | None = None) -> tuple[str, ...]:
    """A comma-separated list (spaces around items dropped, empty items ignored, duplicates
    kept once), or a JSON array of strings when it starts with ``[``."""
    text = text.strip()
    if text.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EditTextError(f"{what}: a list starting with [ must be a JSON array of "
                                f"strings ({exc.msg} at column {exc.colno})", line) from None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise EditTextError(f"{what}: a list starting with [ must be a JSON array of "
                                "strings", line)
        items = value
    else:
        items = [parse_value(part, what, line) for part in text.split(",")]
    return tuple(dict.fromkeys(i for i in items if i.strip()))


def format_strength(value: float) -> str:
    return repr(float(value))


def parse_strength(text: str, line: int | None = None) -> float:
    raw = text.strip()
    try:
        value = float(raw)
    except ValueError:
        raise EditTextError(f"strength must be a number (0 or more, 1.0-2.0 in practice), "
                            f"not {raw!r}", line) from None
    if not math.isfinite(value) or value < 0:
        raise EditTextError(f"strength must be a finite number of 0 or more, not {raw!r}", line)
    return value


def check_content(content: str) -> str:
    if not content.strip():
        raise EditTextError("the memory's text is empty (a memory needs non-empty content); "
                            "nothing was written")
    return content


# -- the file -------------------------------------------------------------------------------------
def render(memory: Memory) -> str:
    """The file a person edits (see the module docstring); ``parse(render(m), m)`` gives back
    ``EditFields.of(m)`` exactly."""
    f = EditFields.of(memory)
    return "".join((
        f"# memvault: edit memory {memory.id}, save and quit; an unchanged file writes nothing.\n",
        "# Lines starting with # are ignored. gist: empty means no gist (a changed text with an\n",
        "# unchanged gist gets a new one). tags and entities: comma separated. strength: >= 0.\n",
        f"gist: {format_value(f.gist)}".rstrip() + "\n",
        f"tags: {format_list(f.tags)}".rstrip() + "\n",
        f"entities: {format_list(f.entities)}".rstrip() + "\n",
        f"strength: {format_strength(f.strength)}\n",
        SEPARATOR, "\n",
        f.content, "\n",
    ))


def to_bytes(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def from_bytes(data: bytes) -> str:
    try:
        return data.decode(ENCODING, ERRORS)
    except UnicodeDecodeError as exc:
        raise EditTextError(f"the file is not UTF-8 (byte {exc.start})") from None


def parse(text: str, base: Memory | EditFields) -> EditFields:
    """The fields an edited file gives; a key the header leaves out keeps ``base``'s value.
    EditTextError (with the line) when it does not parse."""
    old = base if isinstance(base, EditFields) else EditFields.of(base)
    lines = [line + "\n" for line in text.split("\n")]  # only \n ends a line (never \x85...)
    lines[-1] = lines[-1][:-1]
    at = next((i for i, line in enumerate(lines) if line.rstrip("\r\n") == SEPARATOR), None)
    if at is None:
        raise EditTextError("the separator line is missing: the text must follow a line that "
                            f"reads exactly {SEPARATOR!r}")
    values: dict[str, Any] = {}
    for number, line in enumerate(lines[:at], 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition(":")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            raise EditTextError(f"{stripped[:40]!r} is not one of {', '.join(KEYS)} "
                                "(write 'key: value' above the separator line)", number)
        if key in values:
            raise EditTextError(f"{key} is given twice", number)
        if key == "gist":
            values[key] = parse_value(value, "gist", number) or None
        elif key == "strength":
            values[key] = parse_strength(value, number)
        else:
            values[key] = parse_list(value, key, number)
    content = "".join(lines[at + 1:])
    if content.endswith("\n"):
        content = content[:-1]  # the line break the file ends with (render adds it)
    return EditFields(check_content(content), values.get("gist", old.gist),
                      values.get("tags", old.tags), values.get("entities", old.entities),
                      values.get("strength", old.strength))


def changes(base: Memory, fields: EditFields) -> dict[str, Any]:
    """What ``fields`` change in ``base``, as ``Vault.update`` takes it (empty: nothing). A new
    text with the gist left as it was drops the gist from the change, so a new one is made."""
    old = EditFields.of(base)
    out: dict[str, Any] = {}
    if fields.content != old.content:
        out["content"] = fields.content
    if fields.gist != old.gist and not (fields.gist is None and not old.gist):
        out["gist"] = fields.gist
    if fields.tags != old.tags:
        out["meta"] = {**base.meta.model_dump(), "tags": list(fields.tags)}
    if fields.entities != old.entities:
        out["entities"] = list(fields.entities)
    if fields.strength != old.strength:
        out["strength"] = fields.strength
    return out
