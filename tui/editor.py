"""Running the person's text editor on a file, as git does: ``$VISUAL``, else ``$EDITOR``, else
the first of ``sensible-editor``, ``nano``, ``vim``, ``vi`` found; run through ``sh -c '$EDITOR
"$@"'`` so an editor given with arguments (``code --wait``) works and the file's path is passed
as an argument, never as shell text. Shared by ``memvault edit`` and the app's ``e`` (which
suspends itself around it). Plain Python: no textual, no rich."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

FALLBACKS = ("sensible-editor", "nano", "vim", "vi")


class EditorError(Exception):
    """The editor could not be run, or exited with an error (nothing is read back then)."""


def editor_command() -> str:
    for var in ("VISUAL", "EDITOR"):
        value = (os.environ.get(var) or "").strip()
        if value:
            return value
    for name in FALLBACKS:
        if shutil.which(name):
            return name
    raise EditorError("no editor found: set $EDITOR (or $VISUAL)")


def run_editor(path: Path) -> None:
    """Open ``path`` in the editor and wait for it to exit (EditorError when it cannot be run or
    exits with an error status)."""
    editor = editor_command()
    try:
        done = subprocess.run(["sh", "-c", f'{editor} "$@"', editor, str(path)], check=False)
    except OSError as exc:
        raise EditorError(f"cannot run the editor {editor!r}: {exc}") from None
    if done.returncode != 0:
        raise EditorError(f"the editor {editor!r} exited with status {done.returncode}")
