"""Sets of index rows as the bits of one integer (bit ``r`` for rowid ``r``), made from a list of
rowids without a step of Python a row.

A question's words are grouped by which of them each memory holds with integer operations on
such sets (:mod:`core.search.holdings`); each word's set is made once from its FTS5 matches and
kept while the index does not change (:meth:`core.search.index_reading.IndexReading.rowid_bits`).
A common word of a big vault is in tens of thousands of memories, and setting its bits one
rowid at a time (``bits[r >> 3] |= 1 << (r & 7)``) after parsing them one at a time from a
``group_concat`` string cost Python more than FTS5's walk of its matches (docs/search.md has the
figures): most of a question's time in a process that had not seen its words yet. Here the
rowids come as a JSON
array (``json_group_array``: parsed in C), each sets one byte of a flag array through
``map`` (a loop in C), and the flags read backwards as a binary numeral are the integer
(``int(text, 2)`` is linear for a power-of-two base)."""

from __future__ import annotations

import json
import re
from collections import deque
from itertools import repeat

#: Flag bytes (0 or 1) to the digits of a binary numeral.
_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
_ONE = re.compile("1")


def bits_of(rowids: list[int]) -> int:
    """The integer whose bit ``r`` is set for each ``r`` of ``rowids`` (a negative one is no
    row of the index's and is left out; repeats are set once)."""
    if rowids and min(rowids) < 0:
        rowids = [r for r in rowids if r >= 0]
    if not rowids:
        return 0
    flags = bytearray(max(rowids) + 1)
    deque(map(flags.__setitem__, rowids, repeat(1)), maxlen=0)  # (a C loop: no Python a row)
    flags.reverse()  # (the numeral's first digit is the highest rowid)
    return int(flags.translate(_DIGITS), 2)


def bits_of_json(text: str | None) -> int:
    """:func:`bits_of` the rowids of a JSON array (``json_group_array(rowid)``; None: none)."""
    return bits_of(json.loads(text)) if text else 0


def rowids_of(bits: int) -> list[int]:
    """The rowids whose bits are set."""
    text = format(bits, "b")
    last = len(text) - 1
    return [last - m.start() for m in _ONE.finditer(text)]
