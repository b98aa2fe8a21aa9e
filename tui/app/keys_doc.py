"""The keys part of ``docs/app.md``, made from the bindings (:mod:`tui.app.keys`):
``python -m tui.app.keys_doc`` writes it between the file's markers; a test checks the file
says what the code binds."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from .keys import bindings_of, keys_text
from .palette import PALETTE

#: Where keys work, in the order the document lists them: (title, "module:Class").
PLACES: list[tuple[str, str]] = [
    ("Everywhere", "tui.app.app:MemvaultApp"),
    ("The main screen", "tui.app.main.screen:MainScreen"),
    ("The tree", "tui.app.main.tree:MainTree"),
    ("The flat list (f)", "tui.app.widgets.memory_list:MemoryList"),
    ("The filter box", "tui.app.widgets.filter_input:FilterInput"),
    ("The history pane", "tui.app.widgets.history:HistoryTable"),
    ("The provenance graph", "tui.app.widgets.provenance:ProvenanceGraph"),
    ("A version of a memory", "tui.app.screens.version:VersionScreen"),
    ("The word diff of two versions", "tui.app.screens.version_diff:VersionDiffScreen"),
    ("Every list of a screen or modal", "tui.app.widgets.lists:RowTable"),
    ("The edit form (ctrl+e)", "tui.app.screens.edit_form:EditFormScreen"),
    ("An edit that failed", "tui.app.screens.edit_failed:EditFailedScreen"),
    ("A new memory (n)", "tui.app.screens.new_memory:NewMemoryScreen"),
    ("The split and consolidate wizards", "tui.app.screens.wizard:WizardScreen"),
    ("A part in the split wizard", "tui.app.widgets.split_parts:PartEditor"),
    ("The gc preview (C)", "tui.app.screens.gc:GcScreen"),
    ("The review inbox (I)", "tui.app.screens.inbox:InboxScreen"),
    ("The undo list (u)", "tui.app.screens.undo_list:UndoListScreen"),
    ("Go to id (i)", "tui.app.screens.goto:GoToScreen"),
    ("Tag (T)", "tui.app.screens.tag:TagScreen"),
    ("Delete (x)", "tui.app.screens.delete:DeleteScreen"),
    ("A question", "tui.app.screens.confirm:ConfirmScreen"),
    ("Outside edits (E)", "tui.app.screens.outside_edits:OutsideEditsScreen"),
    ("Stats (S)", "tui.app.screens.stats:StatsScreen"),
    ("Help (?)", "tui.app.screens.help:HelpScreen"),
    ("Settings (,)", "tui.app.screens.settings_screen:SettingsScreen"),
    ("The settings' choices", "tui.app.screens.settings_screen:ChoiceTable"),
]

BEGIN = "<!-- keys: made by `python -m tui.app.keys_doc` from the bindings; do not edit -->"
END = "<!-- end of keys -->"
DOC = Path(__file__).resolve().parents[2] / "docs" / "app.md"


def place_classes(places: list[tuple[str, str]]) -> list[type]:
    classes = []
    for _title, where in places:
        module, _, name = where.partition(":")
        classes.append(getattr(importlib.import_module(module), name))
    return classes


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def keys_markdown() -> str:
    """One table a place: key, what it does, the binding id ``MEMVAULT_KEYMAP`` takes."""
    out: list[str] = []
    for (title, _), part in zip(PLACES, place_classes(PLACES)):
        rows = [b for b in bindings_of(part, own=True) if b.description]
        if not rows:
            continue
        out += [f"### {title}", "", "| key | does | binding id |", "|---|---|---|"]
        seen: set[str | None] = set()
        for binding in rows:
            if binding.id in seen and binding.id is not None:
                continue
            seen.add(binding.id)
            keys = keys_text(k.strip() for k in binding.key.split(","))
            shown = " ".join(f"`{k}`" for k in keys.split(" "))
            title, does = PALETTE.get(binding.id or "", ("", ""))
            does = f"{title}: {does}" if does else binding.description
            out.append(f"| {_cell(shown)} | {_cell(does)} | "
                       f"{'`' + binding.id + '`' if binding.id else ''} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def with_keys(document: str) -> str:
    """``document`` with the part between the markers made anew."""
    head, sep, rest = document.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError(f"{DOC} has no {BEGIN!r} ... {END!r} markers")
    return f"{head}{BEGIN}\n\n{keys_markdown()}\n{END}{tail}"


def main() -> int:
    DOC.write_text(with_keys(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the keys of {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
