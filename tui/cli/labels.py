"""The verbs that change many memories' labels at once, as the app's bulk keys do: ``tag`` and
``untag`` (``--tag T``, repeatable) and ``promote``. Each is ONE commit through core
(``Vault.tag`` / ``untag`` / ``promote``); ``--json`` prints the changed memories (an array, as
``touch`` and ``archive`` do)."""

from __future__ import annotations

import click

from core.model.records import now_epoch

from .common import json_option, memory_json, open_writable, print_json, say, verb

IDS = click.argument("ids", nargs=-1, required=True, metavar="ID...")
TAGS = click.option("--tag", "tags", multiple=True, required=True, metavar="TAG",
                    help="the tag (repeat for several)")


def _report(vault, changed, done: str, as_json: bool, suffix: str = "") -> int:
    if as_json:
        now = now_epoch()
        print_json([memory_json(vault, m, now) for m in changed])
    else:
        say(done, changed, (lambda _m: suffix) if suffix else None)
    return 0


@verb("tag")
@IDS
@TAGS
@json_option
def tag(ids: tuple[str, ...], tags: tuple[str, ...], as_json: bool) -> int:
    """Memories that have every tag already are left as they are; refused (nothing written)
    when none changes."""
    vault = open_writable()
    changed = vault.tag(*ids, tags=tags)
    return _report(vault, changed, "tagged", as_json, " (" + " ".join(f"+{t}" for t in tags) + ")")


@verb("untag")
@IDS
@TAGS
@json_option
def untag(ids: tuple[str, ...], tags: tuple[str, ...], as_json: bool) -> int:
    """Memories without the tags are left as they are; refused (nothing written) when none has
    any of them."""
    vault = open_writable()
    changed = vault.untag(*ids, tags=tags)
    return _report(vault, changed, "untagged", as_json,
                   " (" + " ".join(f"-{t}" for t in tags) + ")")


@verb("promote")
@IDS
@json_option
def promote(ids: tuple[str, ...], as_json: bool) -> int:
    """Only active memories can be promoted (an archived or already promoted one is refused,
    nothing written)."""
    vault = open_writable()
    return _report(vault, vault.promote(*ids), "promoted", as_json)
