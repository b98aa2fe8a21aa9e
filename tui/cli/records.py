"""The record verbs of ``memvault``: init, add, list, show, touch, archive, unarchive, delete,
restore, history, relate, gc and stats.

``--json`` prints the file format of each memory (``Memory.model_dump(mode="json")``) plus its
``score`` (a list is a JSON array); docs/cli.md gives each verb's shape. Human
output of list/show/history/gc/stats goes through :mod:`tui.cli.render` (rich), imported only
then, so ``add`` and ``--json`` never load rich.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, cast

import click

from core.model.values import MemoryStatus, now_epoch
from core.store.cache import SortKey
from core.vault import first_words

from ..text import plural
from .common import (ALWAYS, AT_DEFAULT, IDS_ARGUMENT, POSITIVE, UserError, json_option,
                     layout_hint, memory_json, open_readonly, open_writable, print_json,
                     read_query, read_stdin_content, relation_json, report_changed, say, stderr,
                     verb, vault_exists, vault_path)
from .problems import warn_problems

if TYPE_CHECKING:
    from core import Relation, Vault
    from core.ops.provenance import EndState

STATUSES = tuple(s.value for s in MemoryStatus)
SORTS = ("score", "last_used", "created")
IDS = IDS_ARGUMENT


@verb("init")
@click.option("--layout", type=click.Choice(("flat", "sharded")), default=None,
              help="where memories go: memories/{id}.json (flat, the default) or "
                   "memories/ab/{id}.json (sharded, for vaults above 50,000 memories)")
@click.option("--inside-repo", "inside_repo", is_flag=True,
              help="make it even inside another git repository (a folder of a notes "
                   "repository): its commits go into that repository")
@json_option
def init(layout: str | None, inside_repo: bool, as_json: bool) -> int:
    """A new vault is never made inside another git repository (a folder of a repository's work
    tree, or the top of one that holds anything), unless --inside-repo says so."""
    if layout is not None and vault_exists(vault_path()):
        existing = open_readonly()
        if existing.layout.name != layout:
            raise UserError(f"a vault already exists at {existing.root}, in the "
                            f"{existing.layout.name} layout; `memvault migrate-layout --to "
                            f"{layout}` moves its memories (one commit)")
    vault = open_writable(create=ALWAYS, announce_created=False, layout=layout,
                          inside_repo=inside_repo)
    from .importing import index_at_end
    from .progress import SEARCH_BUILD, on_terminal, progress_bar

    with progress_bar(on_terminal(as_json), SEARCH_BUILD) as update:
        index_at_end(vault, update)  # (a vault that exists: a clone's, its index built now)
    if as_json:
        print_json({"path": str(vault.root), "initialised": vault.report.initialised,
                    "memories": len(vault.memories), "layout": vault.layout.name})
    elif vault.report.initialised:
        print(f"initialised a vault at {vault.root} ({vault.layout.name} layout)")
    else:
        count = plural(len(vault.memories), "memory", "memories")
        print(f"a vault already exists at {vault.root} ({count}, {vault.layout.name} layout)")
    return 0


@verb("add")
@click.argument("content", metavar="CONTENT")
@click.option("--tag", "tags", multiple=True, metavar="T", help="a tag (repeatable)")
@click.option("--entity", "entities", multiple=True, metavar="E", help="an entity (repeatable)")
@click.option("--source", metavar="S", help="where the memory came from")
@click.option("--context", metavar="C", help="the context it was made in")
@click.option("--strength", type=float, default=1.0, metavar="F",
              help="decay multiplier (default 1.0; 1.0-2.0 in practice)")
@json_option
def add(content: str, tags: tuple[str, ...], entities: tuple[str, ...], source: str | None,
        context: str | None, strength: float, as_json: bool) -> int:
    """CONTENT is the memory's text ('-' reads stdin). Prints only the new id. Makes the vault
    at the default folder if there is none; at a folder named by --vault or MEMVAULT_PATH only
    with --create (else: no vault at ...)."""
    text = read_stdin_content() if content == "-" else content
    if not text.strip():  # refuse before creating a vault for it
        raise UserError("refused: a memory needs non-empty content")
    vault = open_writable(create=AT_DEFAULT)
    memory = vault.add(text, tags=list(tags), entities=list(entities), source=source,
                       context=context, strength=strength)
    likely = likely_duplicates_of(vault, memory.id)
    if as_json:
        print_json({**memory_json(vault, memory, now_epoch()), "likely_duplicates": likely})
    else:
        print(memory.id)
    return 0


def likely_duplicates_of(vault: Vault, memory_id: str) -> list[dict[str, Any]]:
    """The memories the new one likely duplicates (core.ops.duplicates), each named on stderr
    with its short id and similarity, and how to merge them; never a reason to fail the add."""
    from core.ops.duplicates import DUPLICATE_HINT, duplicates_of

    try:
        found = duplicates_of(vault, memory_id)
    except Exception as exc:  # a suggestion: the memory is saved whatever happens here
        stderr("note", f"could not look for likely duplicates: {exc}")
        return []
    for other, score in found:
        stderr("warning", f"likely duplicate of {other.id[:8]} (similarity {score:.2f}): "
                          f"{first_words(other.text, 60)}")
    if found:
        ids = " ".join([memory_id[:8], *(m.id[:8] for m, _ in found)])
        stderr("hint", f"nothing was merged; to merge them into one memory: memvault "
                       f"consolidate {ids} (likely duplicate: similarity >= {DUPLICATE_HINT:g}, "
                       "see docs/duplicates.md)")
    return [{"id": m.id, "similarity": round(score, 4)} for m, score in found]


@verb("list")
@click.option("--status", type=click.Choice(STATUSES), help="only memories with this status")
@click.option("--tag", "tags", multiple=True, metavar="T",
              help="only memories with this tag (repeatable: any of them)")
@click.option("--query", metavar="Q",
              help='only memories matching Q: words (each in the text, tags, entities or id), '
                   '"a phrase", prefix*, tag:x, entity:y, status:z, has:gist, score<0.1, -term '
                   "(the language of search and the app's / filter)")
@click.option("--sort", type=click.Choice(SORTS), default="score", show_default=True,
              help="order")
@click.option("--limit", type=POSITIVE, metavar="N", help="at most N memories")
@json_option
def list_(status: str | None, tags: tuple[str, ...], query: str | None, sort: str,
          limit: int | None, as_json: bool) -> int:
    parsed = read_query(query) if query else None  # (exit 2 on a term it cannot read)
    vault = open_readonly()
    warn_problems(vault)
    layout_hint(vault)
    now = now_epoch()
    found = vault.search(tags=list(tags) or None, status=status, sort=cast(SortKey, sort))
    if parsed is not None:  # the query language of search and the app's filter
        from core.search.query import select

        found = select(parsed, found, now, score_of=lambda m: vault.score(m, now),
                       relations_of=lambda m: len(vault.relations_of(m.id)))
    shown = found if limit is None else found[:limit]
    if as_json:
        print_json([memory_json(vault, m, now) for m in shown])
        return 0
    from . import render_plain

    if render_plain.piped():  # plain full-width lines, without rich
        render_plain.print_list(vault, shown, now)
        return 0
    from . import render

    render.print_list(vault, shown, now, matched=len(found))
    return 0


@verb("show")
@click.argument("memory_id", metavar="ID")
@json_option
def show(memory_id: str, as_json: bool) -> int:
    """ID is an id or a unique prefix (4+ characters). A relation whose other end is gone names
    it: consumed (the commit that removed it, from history) or not in this vault."""
    from core.ops.provenance import relation_ends

    vault = open_readonly()
    memory = vault.get(memory_id)
    now = now_epoch()
    relations = vault.relations_of(memory.id)
    ends = relation_ends(vault, memory.id, relations)  # one git log a missing end, if any
    if as_json:
        data = memory_json(vault, memory, now)
        data["relations"] = [shown_relation(memory.id, r, ends) for r in relations]
        print_json(data)
        return 0
    from . import render_plain

    if render_plain.piped() and render_plain.print_memory(vault, memory, now, ends):
        return 0  # (without rich)
    from . import render

    render.print_memory(vault, memory, now, ends)
    return 0


def shown_relation(memory_id: str, r: Relation, ends: dict[str, EndState]) -> dict[str, Any]:
    """One relation of ``show --json``: the record, its direction, the other end and what
    became of it when it is not a living memory (``end``: state, commit, subject...)."""
    outgoing = r.from_memory_id == memory_id
    other = r.to_memory_id if outgoing else r.from_memory_id
    end = ends.get(other)
    return {**relation_json(r), "direction": "out" if outgoing else "in", "other": other,
            "end": end.as_json() if end is not None else {"state": "living"}}


@verb("touch")
@IDS
@click.option("--boost", is_flag=True, help="also raise strength by 0.1 (max 2.0)")
@json_option
def touch(ids: tuple[str, ...], boost: bool, as_json: bool) -> int:
    vault = open_writable()
    return report_changed(vault, vault.touch(*ids, boost=boost), "touched", as_json,
                          lambda m: f" (uses {m.use_count}, strength {m.strength:g})")


def _set_status(name: str, ids: tuple[str, ...], as_json: bool) -> int:
    vault = open_writable()
    return report_changed(vault, getattr(vault, name)(*ids), f"{name}d", as_json)


@verb("archive")
@IDS
@json_option
def archive(ids: tuple[str, ...], as_json: bool) -> int:
    return _set_status("archive", ids, as_json)


@verb("unarchive")
@IDS
@json_option
def unarchive(ids: tuple[str, ...], as_json: bool) -> int:
    return _set_status("unarchive", ids, as_json)


@verb("delete")
@IDS
@click.option("--yes", "-y", is_flag=True, help="do not ask for confirmation")
@json_option
def delete(ids: tuple[str, ...], yes: bool, as_json: bool) -> int:
    vault = open_writable()
    keys = list(dict.fromkeys(vault.resolve(k) for k in ids))
    if not yes and not _confirmed(vault, keys):
        return 1
    report = vault.delete(*keys)
    if as_json:
        print_json({"memories": [m.id for m in report.memories],
                    "relations": [r.id for r in report.relations],
                    "kept_relations": [r.id for r in report.kept_relations]})
        return 0
    say("deleted", report.memories)
    if report.relations:
        print(f"deleted {plural(len(report.relations), 'relation')} with them")
    if report.kept_relations:
        print(f"kept {plural(len(report.kept_relations), 'lineage relation')} "
              "(split and merge records outlive the memory)")
    return 0


def _confirmed(vault, ids: list[str]) -> bool:
    """Ask on the terminal (on stderr); refuse when stdin is not one."""
    from core import relations_of_gone

    memories = [vault.memories[i] for i in ids]
    relations = relations_of_gone((r for i in ids for r in vault.relations_of(i)), set(ids)).removed
    what = plural(len(memories), "memory", "memories")
    if relations:
        what += f" and {plural(len(relations), 'relation')}"
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        raise UserError(f"refusing to delete {what} without confirmation: "
                        "stdin is not a terminal (pass --yes)")
    for m in memories:
        print(f"  {m.id[:8]}  {m.status.value:<10} {first_words(m.text, 60)}", file=sys.stderr)
    print(f"Delete {what}? (restorable with `memvault restore ID`) [y/N] ",
          end="", file=sys.stderr, flush=True)
    if stdin.readline().strip().lower() in ("y", "yes"):
        return True
    stderr("note", "nothing deleted")
    return False


@verb("restore")
@click.argument("memory_id", metavar="ID")
@click.option("--at", metavar="REV",
              help="the commit to restore from (default: the version before the last change; "
                   "restores do not count, so a second run changes nothing)")
@json_option
def restore(memory_id: str, at: str | None, as_json: bool) -> int:
    """ID is a living or deleted memory's id (or prefix)."""
    vault = open_writable()
    report = vault.restore(memory_id, at=at)
    if as_json:
        print_json({"memory": memory_json(vault, report.memory, now_epoch()),
                    "relations": [relation_json(r) for r in report.relations],
                    "source_commit": report.source_commit, "unchanged": report.unchanged})
        return 0
    if report.unchanged:
        say("already at", [report.memory],
            lambda m: f" (the version from {report.source_commit[:8]}; nothing written)")
        return 0
    rels = len(report.relations)
    extra = f", with {plural(rels, 'relation')}" if rels else ""
    say("restored", [report.memory], lambda m: f" (from {report.source_commit[:8]}{extra})")
    return 0


@verb("history")
@click.argument("memory_id", metavar="ID")
@json_option
def history(memory_id: str, as_json: bool) -> int:
    """ID is a living or deleted memory's id (or prefix)."""
    vault = open_writable()  # history reads git: a normal open
    key = vault.resolve_any(memory_id)
    entries = vault.history(key)
    from core.git.shallow import shallow_note

    gap = shallow_note(vault.journal.common_dir)  # a shallow clone: say what is missing
    if as_json:
        print_json([{**asdict(e), "operation": e.operation} for e in entries])
        if gap:
            print(gap, file=sys.stderr)
        return 0
    from . import render

    render.print_history(key, entries, now_epoch(), live=vault.find(key) is not None)
    if gap:
        print(gap)
    return 0


@verb("relate")
@click.argument("from_id", metavar="FROM")
@click.argument("to_id", metavar="TO")
@click.argument("relation_type", metavar="TYPE")
@click.option("--strength", type=float, default=1.0, metavar="F", help="0-1 (default 1.0)")
@click.option("--force", is_flag=True, help="accept a relation type memvault does not know")
@json_option
def relate(from_id: str, to_id: str, relation_type: str, strength: float, force: bool,
           as_json: bool) -> int:
    """TYPE is e.g. related, supports, contradicts, causes."""
    vault = open_writable()
    r = vault.relate(from_id, to_id, relation_type, strength=strength, force=force)
    if as_json:
        print_json(relation_json(r))
        return 0
    print(f"related {r.from_memory_id[:8]} -{r.relation_type}-> {r.to_memory_id[:8]} "
          f"(relation {r.id})")
    return 0


@verb("gc")
@click.option("--dry-run", is_flag=True, help="only list what would be collected")
@click.option("--archive", "archive_", is_flag=True, help="archive instead of deleting")
@click.option("--force", is_flag=True,
              help="run even on a machine that is not the vault's maintenance machine")
@json_option
def gc(dry_run: bool, archive_: bool, force: bool, as_json: bool) -> int:
    vault = open_readonly() if dry_run else open_writable()
    now = now_epoch()
    report = vault.gc(dry_run=dry_run, archive=archive_, now=now, force=force)
    if as_json:
        print_json({
            "threshold": report.threshold,
            "applied": report.applied,
            "archived": report.archived,
            "commit": report.commit,
            "candidates": [memory_json(vault, m, now) for m, _ in report.candidates],
            "relations_removed": [relation_json(r) for r in report.relations_removed],
            "relations_kept": [relation_json(r) for r in report.relations_kept],
            "pinned_kept": [m.id for m, _ in report.pinned_kept],
        })
        return 0
    from . import render

    render.print_gc(vault, report, now)
    return 0


@verb("stats")
@json_option
def stats(as_json: bool) -> int:
    vault = open_readonly()
    warn_problems(vault)
    layout_hint(vault)
    now = now_epoch()
    found = vault.stats(now)
    if as_json:
        print_json(found)
        return 0
    from . import render_plain

    if render_plain.piped():  # without rich
        render_plain.print_stats(found, now)
        return 0
    from . import render

    render.print_stats(found, now)
    return 0
