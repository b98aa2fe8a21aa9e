"""The first build of the search index, shown under the tree while it runs (after a clone, at
100k memories, it takes a while): what is being built, a determinate bar with counts, and what
the filter's ranking uses meanwhile. Hidden otherwise."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Label, ProgressBar

#: What each phase of the build (core.search.first_build) is called here.
PHASES = {"search index": "building the search index",
          "word lists": "listing the best memories of common words",
          "near-duplicate keys": "hashing the memories for duplicate checks"}


class IndexProgress(Vertical):
    """A label and a bar; :meth:`show` moves them on, :meth:`finish` hides them."""

    DEFAULT_CSS = """
    IndexProgress {
        display: none;
        height: auto;
        padding: 0 1;
    }
    IndexProgress.-building {
        display: block;
    }
    IndexProgress Label {
        width: 1fr;
    }
    IndexProgress ProgressBar Bar {
        width: 1fr;
    }
    """

    def compose(self) -> ComposeResult:
        yield Label(id="index-progress-label")
        yield ProgressBar(show_eta=False, id="index-progress-bar")

    def show(self, phase: str, done: int, total: int) -> None:
        self.add_class("-building")
        what = PHASES.get(phase, phase)
        unit = "words" if phase == "word lists" else "memories"
        text = Text(f"{what}: {done:,} of {total:,} {unit}", style="bold")
        if phase == "search index":
            text.append(" · the filter ranks those so far", style="dim")
        self.query_one(Label).update(text)
        self.query_one(ProgressBar).update(total=total or None, progress=done)

    def finish(self) -> None:
        self.remove_class("-building")
