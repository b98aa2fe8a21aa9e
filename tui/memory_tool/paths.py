"""The memory tool's paths: virtual, never a place on disk. A path Claude sends is read as text
(``/memories`` then ``/``-separated names; ``.`` and ``..`` settled in the text, as the SDK's
own backend settles them with ``Path.resolve``), so no traversal, link or ``..`` ever reaches a
file system.

What the SDK's backend refuses is refused with its own words
(:class:`anthropic.lib.tools.ToolError`); what it would only fail on later (a control character
in a name) is refused here, with words of ours."""

from __future__ import annotations

from anthropic.lib.tools import ToolError

from core.textutil import has_controls, neutralise_line

ROOT = "/memories"
#: where a memory keeps the path the memory tool gave it (``meta.extra``): the path round-trips
#: through the vault, sync and export, and ``rename`` changes only this
PATH_KEY = "memory_tool_path"


def checked_path(raw: str) -> str:
    """``raw`` as a canonical path (``/memories`` or ``/memories/a/b.md``), or ToolError: one
    outside ``/memories`` (the SDK's words), one whose ``..`` climbs out of it (the SDK's words),
    one holding a control character (ours: a name no listing could show as it is)."""
    if not isinstance(raw, str) or not raw.startswith(ROOT):
        raise ToolError(f"Path must start with {ROOT}, got: {raw}")
    rest = raw[len(ROOT):]
    if rest and not rest.startswith("/"):  # "/memoriesX": another folder beside /memories
        raise ToolError(f"Path {raw} would escape {ROOT} directory")
    if has_controls(raw, single_line=True):
        raise ToolError(f"Path {neutralise_line(raw)} holds a control character; "
                        "a memory's path is one line of printable characters")
    names: list[str] = []
    for name in rest.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if not names:
                raise ToolError(f"Path {raw} would escape {ROOT} directory")
            names.pop()
        else:
            names.append(name)
    return joined(names)


def joined(names: list[str]) -> str:
    """The path of ``names`` under ``/memories``."""
    return ROOT + "".join(f"/{name}" for name in names)


def stored_path(value: object) -> str | None:
    """A path read back from a memory (untrusted: a person's edit, a sync), canonical; None when
    it is not a valid path under ``/memories`` (that memory is then shown at a path of its own)."""
    if not isinstance(value, str):
        return None
    try:
        path = checked_path(value)
    except ToolError:
        return None
    return path if path != ROOT else None


def parents(path: str) -> list[str]:
    """The folders holding ``path``, nearest first, ``/memories`` last."""
    out = []
    while path != ROOT:
        path = path.rpartition("/")[0]
        out.append(path)
    return out


def is_under(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` itself or lies inside it."""
    return path == folder or path.startswith(folder + "/")
