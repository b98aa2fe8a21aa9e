"""The two layouts of a vault's memories, and the rules that tie an id to its shard folder.

```
flat      {root}/memories/{id}.json
sharded   {root}/memories/{shard}/{id}.json     shard = the id's first two characters
```

The layout a vault writes is recorded in ``.meta.json`` (``"layout": "flat" | "sharded"``; no
key means flat, as in every vault made before it existed). Readers always accept both: after a
merge of a flat clone and a sharded clone a vault may hold both for a while.

**The shard** of an id is its first two characters with ASCII letters lower-cased (uuids are
hex: 256 folders ``00``..``ff``). Any other character (``-``, ``_``, a non-ASCII letter) and a
missing second character (a one-character id) become ``_``, so a shard folder name is always two
of ``[0-9a-z_]``: the same on case-insensitive file systems, and never a name a file system
refuses (``a.``, ``a ``). Ids ``ab1`` and ``AB2`` share the folder ``ab``.

**Relations stay flat.** The spec sketches sharding for memories only, and relations are far
fewer (one per relate, split or consolidation link); a layout names only where memories go.

**Two files for one id** (``memories/{id}.json`` and ``memories/{shard}/{id}.json``; only a
merge of clones, or a person's copy, makes them): both are read, the one :func:`newer_copy`
picks is loaded, the other is reported as a load problem and left untouched. When the memory is
next written, the other copy is set aside in the quarantine and removed in that same commit
(``memvault migrate-layout`` does it for every such id at once). Nothing is lost.
"""

from __future__ import annotations

import json
import re
from typing import Any

FLAT = "flat"
SHARDED = "sharded"
LAYOUTS = (FLAT, SHARDED)
LAYOUT_KEY = "layout"  # the key in .meta.json
#: Above this many memories a flat vault is told about ``memvault migrate-layout``.
SHARD_SUGGESTED_ABOVE = 50_000

_SHARD_NAME = re.compile(r"[0-9a-z_]{2}")


def shard_of(record_id: str) -> str:
    """The shard folder of an id: its first two characters, ASCII lower-cased, anything but an
    ASCII letter or digit (and a missing second character) as ``_``."""
    head = record_id[:2]
    if len(head) == 2 and head.isascii() and head.isalnum():  # the common case: uuids, m1
        return head.lower()
    return "".join(c.lower() if c.isascii() and c.isalnum() else "_" for c in head).ljust(2, "_")


def is_shard_name(name: str) -> bool:
    return _SHARD_NAME.fullmatch(name) is not None


def layout_in(meta: dict[str, Any] | None) -> str:
    """The layout ``.meta.json`` names (flat when it names none; an unknown name as it is)."""
    value = (meta or {}).get(LAYOUT_KEY, FLAT)
    return value if isinstance(value, str) else repr(value)


def newer_copy(first: Any, second: Any, first_home: bool) -> bool:
    """Of two copies of one memory (two files for one id), True when ``first`` is the one to
    keep: the later ``last_used``, then the higher ``use_count``, then the one at the path the
    vault's layout names (``first_home``), then the larger canonical JSON. The same on every
    machine; the merge driver's rule, plus the home path."""
    return _rank(first, first_home) >= _rank(second, not first_home)


def _rank(memory: Any, home: bool) -> tuple[int, int, bool, str]:
    canonical = json.dumps(memory.model_dump(mode="json"), sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False)
    return (memory.last_used, memory.use_count, home, canonical)
