"""Small text helpers shared by the command line and the app: lengths of time, dates, counted
nouns, short ids and labels of operations (from commit subjects). Plain strings only (no rich,
no textual), so either side may import it."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import time
from datetime import datetime
from pathlib import Path

from core.textutil import neutralise_line

_UNITS = (
    (365 * 86400, "year"),
    (30 * 86400, "month"),
    (7 * 86400, "week"),
    (86400, "day"),
    (3600, "hour"),
    (60, "minute"),
)


#: What ``memvault list`` prints of a memory's text on its line when piped, and what the app's
#: detail pane shows of a body: a memory may hold megabytes (up to the 16 MiB a file may hold),
#: and a person reads neither a line nor a pane of that; ``memvault show`` prints it whole and
#: ``--json`` gives the record as it is.
LIST_PREVIEW = 1_000
PANE_PREVIEW = 20_000


def size_text(n: int) -> str:
    """A size in bytes as a person reads it: ``980 B``, ``9.8 KB``, ``700 KB``, ``2.7 MB``
    (decimal units)."""
    if n < 1000:
        return f"{n} B"
    if n < 10_000:
        return f"{n / 1000:.1f} KB"
    if n < 999_500:
        return f"{n / 1000:.0f} KB"
    return f"{n / 1_000_000:.1f} MB"


def preview(text: str, limit: int) -> str:
    """``text`` when it is at most ``limit`` characters, else its first ``limit`` (cut after a
    word when one ends in the last tenth) then ``… (2.7 MB)``: the whole text's size in UTF-8."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", limit - limit // 10)
    return (cut[:space] if space > 0 else cut) + f"… ({size_text(len(text.encode()))})"


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    """``1 memory``, ``3 memories`` (``plural(3, "memory", "memories")``), ``2 files``."""
    return f"{n} {word if n == 1 else (plural_form or word + 's')}"


def short_id(memory_id: str | None) -> str:
    """The first eight characters of an id or a commit (what every listing shows)."""
    return (memory_id or "")[:8]


def span(seconds: float) -> str:
    """A length of time in its largest whole unit: ``3 days``, ``1 hour``, ``40 seconds``."""
    seconds = abs(seconds)
    for size, name in _UNITS:
        if seconds >= size:
            return plural(int(seconds // size), name)
    return plural(int(seconds), "second")


_SHORT_UNITS = ((365 * 86400, "y"), (30 * 86400, "mo"), (7 * 86400, "w"), (86400, "d"),
                (3600, "h"), (60, "m"))


def short_span(seconds: float) -> str:
    """``3d``, ``2mo``, ``5h``: the largest whole unit."""
    seconds = abs(seconds)
    for size, name in _SHORT_UNITS:
        if seconds >= size:
            return f"{int(seconds // size)}{name}"
    return f"{int(seconds)}s"


def date_text(ts: float) -> str:
    """The local date, ``2025-03-02``."""
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d")


def relative_time(ts: int | float, now: int | float | None = None) -> str:
    """``3 days ago``, ``in 2 hours`` or ``just now``."""
    delta = (time.time() if now is None else now) - ts
    if abs(delta) < 45:
        return "just now"
    return f"{span(delta)} ago" if delta > 0 else f"in {span(delta)}"


def absolute_time(ts: int | float) -> str:
    """Local date and time, to the minute."""
    return datetime.fromtimestamp(ts).astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()


def until_forgotten(seconds: float | None, now: int, threshold: float) -> str:
    if seconds is None:
        return "never"
    if seconds <= 0:
        return f"now (score is below the forget threshold {threshold:g})"
    return f"in {span(seconds)} ({absolute_time(now + seconds)})"


_ONE_MEMORY = re.compile(r"(?P<id>[0-9a-f]{8})(?: (?P<words>.*))?")
_MANY_MEMORIES = re.compile(r"(?P<n>\d+) memories \((?P<ids>[0-9a-f, +]*)\)(?: (?P<words>.*))?")


def operation_label(subject: str) -> str:
    """A commit subject as a short label: ``archive: 3f2a1b2c Never…`` -> ``archive of
    3f2a1b2c``; ``tag: 3 memories (3f2a1b2c, …) (+work)`` -> ``tag of 3 memories (3f2a1b2c,
    …)``; any other ``verb: rest`` stays as it is; a redo (``redo: archive: …``) is named by the
    operation it made again. Control characters are escaped (a remote's commit)."""
    return operation_parts(subject)[0]


def subject_line(message: str) -> str:
    """A commit message's subject: its first line (trailers such as ``Memvault-Reverts:`` and
    the body are left out), control characters escaped."""
    return neutralise_line(message.strip().splitlines()[0] if message.strip() else "")


def operation_parts(subject: str) -> tuple[str, str]:
    """(:func:`operation_label`, what the subject says beyond it: a memory's first words, the
    tags of a tag, or "")."""
    subject = neutralise_line(subject.splitlines()[0] if subject else "")
    while subject.startswith("redo: "):  # a redo does the operation again: name the operation
        subject = subject.removeprefix("redo: ")
    verb, sep, rest = subject.partition(": ")
    if not sep or " " in verb:
        return subject, ""
    if many := _MANY_MEMORIES.fullmatch(rest):
        return f"{verb} of {many['n']} memories ({many['ids']})", many["words"] or ""
    if one := _ONE_MEMORY.fullmatch(rest):
        return f"{verb} of {one['id']}", one["words"] or ""
    return subject, ""


def command_name() -> str:
    """How to run the CLI from a shell here: ``memvault`` when it is on PATH, else this
    interpreter's ``memvault`` script (a venv not activated), else ``python -m tui.cli``."""
    if shutil.which("memvault"):
        return "memvault"
    script = Path(sys.executable).parent / "memvault"
    if script.exists():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m tui.cli"
