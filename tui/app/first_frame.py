"""The app's first frame, painted before the vault, its records' models (pydantic), GitPython
and the main screen are imported: :class:`FirstFrame`, the main screen's layout with the tree's
groups and their counts (:func:`read_first_counts`: from the derived index's counts, read with
sqlite3 alone, or after a clone, when there is no index, from the memories folder's names).

At 100k memories importing the vault and the main screen took about a second before anything
was drawn. The app launched on a path (:func:`~tui.app.app.run_app`) paints this frame first;
a worker then imports the main screen and the service, reads the vault's glance, and the app
puts the main screen in its place (:meth:`~tui.app.app.MemvaultApp.on_main_ready`), which opens
the vault as before. The frame acts on nothing: moving and folding its groups, ``q`` and help.

Nothing here imports more than the standard library, Textual's widgets it draws and the two
modules of core that read a repository's place and the index file's schema; a test checks it
(``tests/tui/app/test_first_frame.py``)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, Input, Static, Tree
from textual.widgets.tree import TreeNode

from core.git.gitdir import find_git_dir, read_head
from core.search.index_counts import INDEX_FILE, read_counts
from core.store.names import MEMORIES_DIR as MEMORIES_FOLDER

from .choices import NO_TAG
from .widgets.keys_footer import KeysFooter

#: The statuses in :class:`core.model.records.MemoryStatus`'s order, the tree's (importing the
#: model would import pydantic; a test checks they agree).
STATUS_ORDER = ("active", "promoted", "archived", "superseded")
#: The filter box's placeholder, the main screen's too.
FILTER_PLACEHOLDER = "filter: words  tag:x  status:archived  score<0.1  (/)"
#: Shown under the tree while the vault opens.
OPENING = "memories · opening…"


@dataclass(frozen=True)
class FirstCounts:
    """What the first frame draws: ``total`` memories; from the index (``statuses``: each
    status with its count and its tags' counts, the tag ``""`` for those without), or after a
    clone only the total, counted from the folder's names (``statuses`` empty)."""

    total: int
    statuses: list[tuple[str, int, dict[str, int]]] = field(default_factory=list)
    #: the index's counts as read (:func:`core.search.index_counts.read_counts`: the commit, of
    #: HEAD, and the rows), for the main screen's glance (not counted again, ~0.1 s at 100k)
    read: tuple[str, list[tuple[str, int]], list[tuple[str, str, int]]] | None = None


def read_first_counts(root: Path) -> FirstCounts | None:
    """The counts of the vault at ``root``: the derived index's, else the memories folder's
    file names; None when neither can be read (the main screen says why once it opens).
    Never writes, never raises."""
    try:
        counts = index_counts(root)
    except (OSError, ValueError, sqlite3.Error):  # (half-written, unreadable: the files then)
        counts = None
    try:
        return counts if counts is not None else folder_count(root)
    except (OSError, ValueError):
        return None


def index_counts(root: Path) -> FirstCounts | None:
    """The index's counts by status and tag of the vault at ``root``, read-only, when its rows
    are of the commit HEAD is at; None when there is no index of this schema, no rows for this
    vault, or rows of another commit (a vault written since by a process that left the index
    behind: the demo's builder, a ``git pull``). Raises sqlite3.Error when the file cannot be
    read (half-written)."""
    found = find_git_dir(root)
    folder = repository_folder(root)
    if found is None or folder is None:
        return None
    commit, by_status, by_tag = read_counts(found[0] / "memvault" / INDEX_FILE, folder)
    if commit is None or commit != read_head(*found):
        return None  # (rows of another commit: their counts may be anything, even 0)
    tags: dict[str, dict[str, int]] = {}
    for status, tag, n in by_tag:
        tags.setdefault(status, {})[tag] = n
    counted = dict(by_status)
    statuses = [(s, counted[s], tags.get(s, {})) for s in STATUS_ORDER if counted.get(s)]
    return FirstCounts(sum(n for _, n, _ in statuses), statuses, (commit, by_status, by_tag))


def repository_folder(root: Path) -> str | None:
    """The vault's folder in its repository (``.`` at the top), as ``git rev-parse
    --show-prefix`` says it, found without running git: the path from the nearest folder
    holding a ``.git`` (a folder, or a file in a linked work tree). None outside one."""
    root = root.resolve()
    for top in (root, *root.parents):
        if (top / ".git").exists():
            return root.relative_to(top).as_posix()  # ("." for the top itself)
    return None


def folder_count(root: Path) -> FirstCounts | None:
    """The memory files of the vault at ``root`` counted by name (``<id>.json``, flat or one
    folder of shards down), symlinks never followed; None without a memories folder."""
    total = 0
    folder = root / MEMORIES_FOLDER
    if folder.is_symlink():
        return None
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_file(follow_symlinks=False):
                    total += entry.name.endswith(".json")
                elif entry.is_dir(follow_symlinks=False):
                    with os.scandir(entry.path) as inner:
                        total += sum(1 for e in inner if e.name.endswith(".json")
                                     and e.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return None
    return FirstCounts(total)


def short_path(path: object) -> str:
    """The vault's path as the header says it: under the home folder, from ``~``."""
    p = Path(str(path))
    try:
        return "~/" + str(p.relative_to(Path.home()))
    except ValueError:
        return str(p)


def count_label(title: str, count: int, style: str = "bold") -> Text:
    """A group's line as the main screen's tree draws it: its title, then its count, dim."""
    label = Text(no_wrap=True)
    label.append(title, style=style)
    label.append(f"  {count}", style="dim")
    return label


def add_tags(node: TreeNode[None], tags: dict[str, int], first_open: bool = False) -> None:
    """Under ``node``, a line for each tag with its count, in the tree's order (by name, the
    memories without tags last); ``first_open``: the first one open, its memories "loading…"
    (the tree opens its first group of memories so)."""
    lines = [count_label(t, tags[t], "") for t in sorted((t for t in tags if t),
                                                        key=lambda t: (t.lower(), t))]
    if tags.get(""):
        lines.append(count_label(NO_TAG, tags[""], "dim"))
    for n, label in enumerate(lines):
        if first_open and n == 0:
            node.add(label, expand=True).add_leaf(Text("loading…", style="dim italic"))
        else:
            node.add_leaf(label)


class FirstFrame(Screen[None]):
    """The main screen's layout, drawn from ``counts`` (:func:`read_first_counts`) while the
    main screen and the vault are imported: the filter box (disabled), the tree of the groups
    and their counts as the main screen's glance draws them in the grouping ``mode`` (status,
    then tag, the first open; or tag), the vault's total in the tree's title; in another
    grouping, or after a clone, the number of memories alone. ``title_path`` in the header.
    Moving and folding work; nothing acts on a memory."""

    AUTO_FOCUS = "#tree"

    def __init__(self, counts: FirstCounts | None, title_path: str,
                 mode: str = "status_tag") -> None:
        super().__init__()
        self.counts = counts
        self.title_path = title_path
        self.mode = mode

    def compose(self) -> ComposeResult:
        yield Header(icon="◆")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Input(placeholder=FILTER_PLACEHOLDER, id="filter", disabled=True)
                yield self.count_tree()
            yield Static("", id="right")
        yield KeysFooter(compact=True)

    def count_tree(self) -> Tree[None]:
        """The groups and their counts (nothing when there are none to show)."""
        tree: Tree[None] = Tree("memories", id="tree")
        tree.show_root = False
        tree.border_title = OPENING
        counts = self.counts
        if counts is None:
            return tree
        if not counts.statuses or self.mode not in ("status_tag", "tag"):
            noun = "memory" if counts.total == 1 else "memories"
            tree.root.add_leaf(Text(f"{counts.total} {noun}, reading them…", style="dim"))
            return tree
        tree.border_title = f"memories {counts.total}"
        if self.mode == "tag":
            totals: dict[str, int] = {}
            for _status, _n, tags in counts.statuses:
                for tag, n in tags.items():
                    totals[tag] = totals.get(tag, 0) + n
            add_tags(tree.root, totals, first_open=True)
            return tree
        for status, n, tags in counts.statuses:
            add_tags(tree.root.add(count_label(status, n), expand=not tree.root.children), tags)
        return tree

    def on_mount(self) -> None:
        self.app.sub_title = f"{self.title_path} · opening…"

    def on_screen_resume(self) -> None:
        """Shown again (help or the settings closed): the main screen, if it is ready."""
        show = getattr(self.app, "show_main", None)
        if show is not None:
            show()
