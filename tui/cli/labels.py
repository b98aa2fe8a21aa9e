"""The verbs that change many memories' labels at once, as the app's keys do: ``tag`` and
``untag`` (``--tag T``, repeatable), ``promote``, ``pin`` and ``unpin``. Each is ONE commit
through core (``Vault.tag`` / ``untag`` / ``promote`` / ``pin`` / ``unpin``); ``--json`` prints
the changed memories (an array, as ``touch`` and ``archive`` do)."""

from __future__ import annotations

import click

from .common import IDS_ARGUMENT as IDS
from .common import json_option, open_writable, report_changed, verb

TAGS = click.option("--tag", "tags", multiple=True, required=True, metavar="TAG",
                    help="the tag (repeat for several)")


@verb("tag")
@IDS
@TAGS
@json_option
def tag(ids: tuple[str, ...], tags: tuple[str, ...], as_json: bool) -> int:
    """Memories that have every tag already are left as they are; refused (nothing written)
    when none changes."""
    vault = open_writable()
    changed = vault.tag(*ids, tags=tags)
    added = " (" + " ".join(f"+{t}" for t in tags) + ")"
    return report_changed(vault, changed, "tagged", as_json, lambda _m: added)


@verb("untag")
@IDS
@TAGS
@json_option
def untag(ids: tuple[str, ...], tags: tuple[str, ...], as_json: bool) -> int:
    """Memories without the tags are left as they are; refused (nothing written) when none has
    any of them."""
    vault = open_writable()
    changed = vault.untag(*ids, tags=tags)
    taken = " (" + " ".join(f"-{t}" for t in tags) + ")"
    return report_changed(vault, changed, "untagged", as_json, lambda _m: taken)


@verb("promote")
@IDS
@json_option
def promote(ids: tuple[str, ...], as_json: bool) -> int:
    """Only active memories can be promoted (an archived or already promoted one is refused,
    nothing written)."""
    vault = open_writable()
    return report_changed(vault, vault.promote(*ids), "promoted", as_json)


@verb("pin")
@IDS
@json_option
def pin(ids: tuple[str, ...], as_json: bool) -> int:
    """A pinned memory is never deleted or archived by gc (meta.extra.pinned = true, which
    CortexGraph keeps); one commit."""
    vault = open_writable()
    return report_changed(vault, vault.pin(*ids), "pinned", as_json)


@verb("unpin")
@IDS
@json_option
def unpin(ids: tuple[str, ...], as_json: bool) -> int:
    vault = open_writable()
    return report_changed(vault, vault.unpin(*ids), "unpinned", as_json)
