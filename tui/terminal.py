"""What the CLI prints reaches the terminal through here, so that no text from a vault (a memory,
a tag, a relation type, a file name, a git message) can drive the terminal: every C0 control
but newline and tab, DEL and every C1 control (ESC and CSI among them) is shown as a visible
escape (``\\x1b``; :func:`core.textutil.neutralise_controls`). The stored content stays
byte-exact: ``--json`` output carries it exactly, with DEL and C1 written as ``\\u`` escapes.

Three pieces, one rule:

* :func:`neutralised_output` (``tui.cli.main`` runs every command inside it) puts a
  :class:`NeutralisingStream` in front of ``sys.stdout`` and ``sys.stderr``: plain ``print``
  needs no care.
* rich consoles write their own colour codes, so they write to the stream underneath
  (:func:`underlying`) and neutralise the text they are given instead (``tui.cli.render.console``).
* :func:`json_text` for JSON.

No rich here: ``add`` and ``--json`` never load it.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from core.textutil import neutralise_controls

_DEL_AND_C1 = re.compile(r"[\x7f-\x9f]")  # json.dumps escapes C0 itself, not these


class NeutralisingStream(io.TextIOBase):
    """A text stream in front of ``raw`` that writes every string neutralised."""

    def __init__(self, raw: TextIO):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(neutralise_controls(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.raw, "errors", None)


def underlying(stream: TextIO) -> TextIO:
    """The stream a :class:`NeutralisingStream` writes to (``stream`` itself otherwise)."""
    return stream.raw if isinstance(stream, NeutralisingStream) else stream


@contextlib.contextmanager
def neutralised_output() -> Iterator[None]:
    """Run the body with ``sys.stdout`` and ``sys.stderr`` neutralising what is written."""
    saved = sys.stdout, sys.stderr
    sys.stdout = NeutralisingStream(underlying(saved[0]))  # type: ignore[assignment]
    sys.stderr = NeutralisingStream(underlying(saved[1]))  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def json_text(value: Any, *, indent: int | None = 2) -> str:
    """``value`` as JSON (non-ASCII text as is) in which no control character is raw: C0 is
    escaped by ``json`` itself, DEL and C1 as ``\\u007f``-``\\u009f``. Loads back exactly."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return _DEL_AND_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
