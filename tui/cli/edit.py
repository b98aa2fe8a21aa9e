"""The verbs that edit one memory or flag memories: ``edit`` (in ``$EDITOR``, the text format of
:mod:`core.io.edit_text`, or non-interactively with ``--content``/``--gist``/``--tag``/
``--entity``/``--strength``), ``promote``, ``pin`` and ``unpin``. Each change is one commit;
an edit that changes nothing writes nothing."""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import click

from core import Memory, Vault, VaultError
from core.io.edit_files import new_edit_file, read_edit_file, remove_edit_file
from core.io.edit_text import EditFields, check_content, parse, parse_strength
from core.model.records import now_epoch
from core.ops.edit import EditConflict, EditResult, apply_edit

from ..editor import EditorError, run_editor
from .common import (UserError, json_option, memory_json, open_writable, print_json,
                     read_stdin_content, say, stderr, verb)


@verb("edit")
@click.argument("memory_id", metavar="ID")
@click.option("--content", metavar="TEXT", help="the new text ('-' reads stdin)")
@click.option("--gist", metavar="TEXT", help="the new gist ('' removes it)")
@click.option("--tag", "tags", multiple=True, metavar="T",
              help="the tags, replacing them all (repeatable; one empty --tag '' removes all)")
@click.option("--entity", "entities", multiple=True, metavar="E",
              help="the entities, replacing them all (repeatable; --entity '' removes all)")
@click.option("--strength", type=float, metavar="F", help="the decay multiplier (>= 0)")
@json_option
def edit(memory_id: str, content: str | None, gist: str | None, tags: tuple[str, ...],
         entities: tuple[str, ...], strength: float | None, as_json: bool) -> int:
    """ID is an id or a unique prefix. Without options, the memory opens in $EDITOR as plain
    text: a small header (gist, tags, entities, strength), a separator line, then the text
    exactly as it is. Saved unchanged: nothing is written. A file that does not parse is kept
    (its path is printed) and, on a terminal, offered to the editor again."""
    vault = open_writable()
    memory = vault.get(memory_id)
    given = (content, gist, tags or None, entities or None, strength)
    if any(v is not None for v in given):
        result = apply_edit(vault, memory.id, memory, _from_options(memory, *given))
    else:
        result = _in_editor(vault, memory)
    if as_json:
        print_json({"memory": memory_json(vault, result.memory, now_epoch()),
                    "changed": result.changed, "commit": result.commit})
    elif result.written:
        say("edited", [result.memory], lambda m: f" ({', '.join(result.changed)})")
    else:
        print(f"unchanged {result.memory.id[:8]} (nothing written)")
    return 0


def _from_options(memory: Memory, content: str | None, gist: str | None,
                  tags: tuple[str, ...] | None, entities: tuple[str, ...] | None,
                  strength: float | None) -> EditFields:
    fields = EditFields.of(memory)
    changes: dict[str, Any] = {}
    if content is not None:
        changes["content"] = check_content(read_stdin_content() if content == "-" else content)
    if gist is not None:
        changes["gist"] = gist or None
    if tags is not None:
        changes["tags"] = tuple(dict.fromkeys(t.strip() for t in tags if t.strip()))
    if entities is not None:
        changes["entities"] = tuple(dict.fromkeys(e.strip() for e in entities if e.strip()))
    if strength is not None:
        changes["strength"] = parse_strength(repr(strength))
    return dataclasses.replace(fields, **changes)


def _in_editor(vault: Vault, memory: Memory) -> EditResult:
    path = new_edit_file(vault, memory)
    while True:
        before = path.read_bytes()
        try:
            run_editor(path)
            result = apply_edit(vault, memory.id, memory, parse(read_edit_file(path), memory))
        except EditorError as exc:
            if path.read_bytes() == before:
                remove_edit_file(path)
                raise UserError(f"{exc}; nothing written") from None
            retry, why = True, str(exc)
        except EditConflict as exc:  # the same text would be refused again
            retry, why = False, str(exc)
        except VaultError as exc:  # it does not parse, a secret refused...: fix it and retry
            retry, why = True, str(exc)
        else:
            remove_edit_file(path)
            return result
        stderr("error", f"{why}; nothing written; your text is kept in {path}")
        if not (retry and _ask_again()):
            raise UserError(f"not saved; your text is kept in {path}")


def _ask_again() -> bool:
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        return False
    print("Edit it again? [Y/n] ", end="", file=sys.stderr, flush=True)
    return stdin.readline().strip().lower() in ("", "y", "yes")
