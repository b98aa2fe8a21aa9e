"""A rich progress bar on stderr for the verbs that report progress (``progress(phase, done,
total)``): one task a phase, named from the verb's table, gone when done; nothing when stderr
is not a terminal (or the output is ``--json``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

Update = Callable[[str, int, int], None]


@contextmanager
def progress_bar(enabled: bool, names: Mapping[str, str]) -> Iterator[Update | None]:
    """The bar's ``update(phase, done, total)`` (None when not ``enabled``); a phase not in
    ``names`` is shown by its own name."""
    if not enabled:
        yield None
        return
    from rich.progress import Progress

    from .render import console

    with Progress(console=console(stderr=True), transient=True) as bar:
        tasks: dict[str, Any] = {}

        def update(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(names.get(phase, phase), total=total or None)
            bar.update(tasks[phase], completed=done, total=total or None)

        yield update


def on_terminal(as_json: bool = False) -> bool:
    """Whether a bar shows: human output, stderr a terminal."""
    return not as_json and sys.stderr.isatty()


#: The first build of the search index (core.search.first_build's phases).
SEARCH_BUILD = {"search index": "building the search index (once, after a clone)",
                "word lists": "listing the best memories of common words",
                "near-duplicate keys": "hashing the memories for duplicate checks",
                "open index": "keeping the files for the next open"}
