"""The command palette's actions of the main screen, made from its bindings: each command runs
a binding's own action, and says the keys that run it now (as the keymap has them, from
:mod:`tui.app.keys`), so the palette never names a key the app does not have.

:data:`PALETTE` gives a binding id its title and what it does; :data:`NOT_IN_PALETTE` the ids
left out on purpose (moving keys); a test checks every binding id of the main screen is in one
of them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.actions import parse as parse_action
from textual.app import SystemCommand

from .grouping import MODE_NAMES, MODES, SORT_NAMES, SORTS
from .keys import KeyedAction, keys_text

if TYPE_CHECKING:
    from .main.screen import MainScreen
    from .main.tree import MainTree


def entries(text: str) -> dict[str, tuple[str, str]]:
    """The palette's table from its text: a line ``binding id | title``, then indented lines
    saying what the command does (joined into one line)."""
    table: dict[str, tuple[str, str]] = {}
    binding_id = ""
    for line in text.strip().splitlines():
        if line.startswith(" "):
            title, does = table[binding_id]
            table[binding_id] = (title, f"{does} {line.strip()}".strip())
        else:
            binding_id, title = (part.strip() for part in line.split("|"))
            table[binding_id] = (title, "")
    return table


#: binding id -> (title, what it does), in the order the palette lists them
PALETTE: dict[str, tuple[str, str]] = entries("""
memvault.archive | Archive / unarchive
    archive the marked memories, else the highlighted one (or make them active again)
memvault.delete | Delete
    delete the marked memories, else the highlighted one (asks first)
memvault.undo | Undo
    take back the newest operation not undone yet (a revert of its own changes; later
    touches are kept)
memvault.redo | Redo
    take back the newest undo
memvault.goto | Go to id
    go to a memory by id or unique prefix
memvault.edit_form | Edit…
    edit the highlighted memory's content, gist, tags, entities and strength in a form
memvault.edit_text | Edit in $EDITOR
    the highlighted memory as a text file in your editor
memvault.new | New memory…
    add a memory (likely duplicates shown first)
memvault.pin | Pin / unpin
    a pinned memory is never deleted or archived by gc
memvault.split | Split…
    the split wizard: decompose the highlighted memory (or a split candidate) into atomic
    ones
memvault.consolidate | Consolidate…
    the consolidate wizard: merge the marked memories (or a suggested cluster) into one
memvault.mark | Mark / unmark
    mark the highlighted memory (and go to the next row)
memvault.copy_id | Copy id
    copy the highlighted memory's id to the clipboard
memvault.expand_all | Expand all
    open every group
memvault.collapse_all | Collapse all
    close every group
memvault.outside_edits | Outside edits
    files changed outside memvault: what was committed, what is not valid
memvault.clear_marks | Clear marks
    unmark every marked memory
memvault.mark_group | Mark the group
    mark every memory of the highlighted group
memvault.invert_marks | Invert marks
    mark what is shown and unmarked, unmark the rest
memvault.visual | Visual range
    mark from here to where the cursor goes (the same key ends it)
memvault.tag | Tag / untag…
    tag the marked memories, else the highlighted one (-tag takes it off)
memvault.promote | Promote
    promote the marked memories, else the highlighted one
memvault.touch | Touch
    reinforce the marked memories, else the highlighted one
memvault.undo_list | Undo list…
    what successive undos would take back; undo down to one of them
memvault.filter | Filter
    focus the filter box
memvault.toggle_body | Toggle gist / content
    show the gist or the content
memvault.toggle_view | Flat list / tree
    a flat sortable list of the memories the filter keeps, or the grouped tree
memvault.group | Next grouping
    group the tree the next way
memvault.sort | Next sort
    order the memories the next way
memvault.tab.detail | Show detail
    the detail pane
memvault.tab.provenance | Show provenance
    ancestors and descendants of the memory
memvault.tab.history | Show history
    the memory's git log
memvault.gc | gc preview
    memories below the forget threshold
memvault.stats | Stats
    counts per status and a histogram of scores
memvault.inbox | Review inbox
    what the assistant wrote since you last looked: accept or reject it
memvault.reload | Reload
    read the vault again from disk
memvault.left.narrower | Left pane narrower
    give the right panes more room
memvault.left.wider | Left pane wider
    give the tree more room
memvault.help | Help
    keys, the filter language, group modes
memvault.settings | Settings…
    every saved choice (theme, grouping, sorts, views, pane widths, the keys, the decay model
    and thresholds) changed and saved, where they are stored, what the environment overrides
""")

#: Main-screen bindings the palette leaves out: moving the cursor means nothing there.
NOT_IN_PALETTE = {
    "memvault.down", "memvault.up", "memvault.top", "memvault.bottom", "memvault.expand",
    "memvault.collapse", "memvault.clear_filter", "memvault.mark_up", "memvault.mark_down",
    "memvault.expand.arrow", "memvault.collapse.arrow", "memvault.quit",
}


#: The app's own bindings in the palette (their actions run on the app, the others on the screen).
APP_COMMANDS = {"memvault.help", "memvault.settings"}


def action_callback(targets: tuple[object, ...], action: str) -> Callable[[], object]:
    """The method a binding's action string (``tab('detail')``) runs on the first of
    ``targets`` that has it (the main screen, then its tree: each binds its own keys)."""
    _namespace, name, args = parse_action(action)
    method = next(m for m in (getattr(t, f"action_{name}", None) for t in targets)
                  if m is not None)
    return partial(method, *args) if args else method


def choose_mode(tree: MainTree, mode: str) -> None:
    """The palette's "Group by ...": the tree's grouping (the screen rebuilds it)."""
    tree.mode = mode


def choose_sort(tree: MainTree, sort: str) -> None:
    """The palette's "Sort by ...": the tree's sort (the screen rebuilds it)."""
    tree.sort = sort


def main_commands(main: MainScreen, keyed: list[KeyedAction], display: Callable[[str], str],
                  app: object) -> Iterator[SystemCommand]:
    """The palette's commands for the main screen: one a binding of :data:`PALETTE` (with its
    keys now, shown with ``display``), then a command for each grouping and sort. The app's own
    bindings (:data:`APP_COMMANDS`) run on ``app``, the others on ``main`` or its tree."""
    by_id = {a.binding_id: a for a in keyed}
    for binding_id, (title, help_text) in PALETTE.items():
        action = by_id.get(binding_id)
        if action is None:
            continue
        keys = keys_text(dict.fromkeys(action.keys), display) if not action.lost else "no key"
        targets = (app,) if binding_id in APP_COMMANDS else (main, main.memory_tree)
        yield SystemCommand(title, f"{help_text} ({keys})", action_callback(targets,
                                                                             action.action))
    for mode in MODES:
        yield SystemCommand(f"Group by {MODE_NAMES[mode]}", "change how the tree groups",
                            partial(choose_mode, main.memory_tree, mode))
    for sort in SORTS:
        yield SystemCommand(f"Sort by {SORT_NAMES[sort]}", "change the order of memories",
                            partial(choose_sort, main.memory_tree, sort))
