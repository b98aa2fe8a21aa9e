"""The lifecycle verbs of ``memvault``: split, split-candidates, suggest-split, consolidate,
clusters and lineage. Refusals (fewer than 2 parts, an unknown id...) are VaultError or
UserError: one line on stderr, exit 1. Human output is :mod:`tui.cli.render_lifecycle` (rich)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from core.ops.consolidate import DEFAULT_THRESHOLD
from core.model.records import now_epoch

from .common import (UserError, json_option, memory_json, open_readonly, open_writable,
                     print_json, relation_json, stderr, verb)

if TYPE_CHECKING:
    from core import Memory, Vault


def _lists(values: tuple[str, ...], parts: int, option: str) -> list[list[str] | None] | None:
    """``--tags a,b --tags c``: the i-th list for the i-th part; parts after the last one get
    those of the original their own words name (core's ``label_parts``). ``--tags ''`` gives a
    part no tags."""
    if not values:
        return None
    if len(values) > parts:
        raise UserError(f"refused: {len(values)} {option} for {parts} parts")
    lists: list[list[str] | None] = [
        list(dict.fromkeys(x.strip() for x in v.split(",") if x.strip())) for v in values]
    return lists + [None] * (parts - len(values))


def part_repeats(vault: Vault, memory_id: str, parts: list[tuple[str, list[str], list[str]]],
                 saved: tuple[str, ...] = ()) -> list[list[tuple[Memory, float]]]:
    """The memories each part likely repeats (core.ops.split_repeats: ``add``'s check, the
    original and the ``saved`` parts left out); never a reason to fail: a check that cannot
    run is said on stderr and names nothing."""
    from core.ops.split_repeats import split_repeats

    try:
        return split_repeats(vault, memory_id, parts, saved)
    except Exception as exc:  # a suggestion: the draft or the split stands whatever happens
        stderr("note", f"could not look for parts that repeat a memory: {exc}")
        return [[] for _ in parts]


def repeats_json(found: list[tuple[Memory, float]]) -> list[dict[str, Any]]:
    """``likely_duplicates`` of a part in ``--json``: each memory's id and similarity."""
    return [{"id": m.id, "similarity": round(score, 4)} for m, score in found]


def warn_repeats(repeats: list[list[tuple[Memory, float]]], names: list[str]) -> None:
    """Each part that likely repeats a memory, on stderr (as ``memvault add`` names a likely
    duplicate), with the consolidate that would merge them."""
    from core.ops.duplicates import DUPLICATE_HINT
    from core.vault import first_words

    for name, found in zip(names, repeats):
        for other, score in found:
            stderr("warning", f"{name} likely repeats {other.id[:8]} (similarity {score:.2f}): "
                              f"{first_words(other.text, 60)}")
    if any(repeats):
        stderr("hint", f"nothing was merged or left out; a part that repeats a memory can be "
                       f"dropped, or merged with it by memvault consolidate (likely duplicate: "
                       f"similarity >= {DUPLICATE_HINT:g}, see docs/duplicates.md)")


@verb("split")
@click.argument("memory_id", metavar="ID")
@click.option("--part", "parts", multiple=True, metavar="TEXT",
              help="the text of one part (repeat, at least twice)")
@click.option("--tags", multiple=True, metavar="A,B",
              help="tags of the n-th part, comma-separated (repeat per part; a part without "
                   "one gets the original's tags its own words mention)")
@click.option("--entities", multiple=True, metavar="A,B",
              help="entities of the n-th part, like --tags (without one: the names its own "
                   "words hold)")
@click.option("--delete-original", is_flag=True, help="delete the original (default: archive it)")
@json_option
def split(memory_id: str, parts: tuple[str, ...], tags: tuple[str, ...],
          entities: tuple[str, ...], delete_original: bool, as_json: bool) -> int:
    """ID is the memory to split (id or unique prefix). A part that likely repeats another
    memory is named on stderr (as `add` names a likely duplicate); nothing is refused."""
    from core.ops.split import execute_split

    texts = list(parts)
    tag_lists = _lists(tags, len(texts), "--tags")
    entity_lists = _lists(entities, len(texts), "--entities")
    vault = open_writable()
    result = execute_split(vault, memory_id, texts, tags=tag_lists, entities=entity_lists,
                           original="delete" if delete_original else "archive")
    repeats = part_repeats(vault, result.original.id,
                           [(m.content, m.meta.tags, m.entities) for m in result.parts],
                           tuple(m.id for m in result.parts))
    warn_repeats(repeats, [f"part {i} ({m.id[:8]})" for i, m in enumerate(result.parts, 1)])
    if as_json:
        now = now_epoch()
        print_json({
            "original": result.original.id,
            "original_fate": "deleted" if result.original_fate == "delete" else "archived",
            "parts": [{**memory_json(vault, m, now), "likely_duplicates": repeats_json(found)}
                      for m, found in zip(result.parts, repeats)],
            "relations": [relation_json(r) for r in result.relations],
            "commit": result.commit,
        })
        return 0
    for part in result.parts:
        print(part.id)
    return 0


@verb("split-candidates")
@json_option
def split_candidates(as_json: bool) -> int:
    from core.ops.split import split_candidates as find

    vault = open_readonly()
    found = find(vault)
    if as_json:
        now = now_epoch()
        print_json([{"id": c.memory.id, "reasons": c.reasons, "weight": c.weight,
                     "memory": memory_json(vault, c.memory, now)} for c in found])
        return 0
    from . import render_lifecycle

    render_lifecycle.print_split_candidates(found)
    return 0


@verb("suggest-split")
@click.argument("memory_id", metavar="ID")
@json_option
def suggest_split(memory_id: str, as_json: bool) -> int:
    from core.ops.split import suggest_split as suggest

    vault = open_readonly()
    memory = vault.get(memory_id)
    parts = suggest(memory)
    repeats = (part_repeats(vault, memory.id, [(p.content, p.tags, p.entities) for p in parts])
               if len(parts) > 1 else [[]])
    if as_json:
        print_json({"id": memory.id, "parts": [
            {"content": p.content, "tags": p.tags, "entities": p.entities,
             "likely_duplicates": repeats_json(found)} for p, found in zip(parts, repeats)]})
        return 0
    from . import render_lifecycle

    render_lifecycle.print_suggested_split(memory, parts, repeats)
    return 0


@verb("consolidate")
@click.argument("ids", nargs=-1, required=True, metavar="ID...")
@click.option("--content", metavar="TEXT", help="the merged text (default: derived from the "
                                                "members)")
@click.option("--archive-sources", is_flag=True,
              help="archive the merged memories (default: delete them)")
@click.option("--force", is_flag=True,
              help="run even on a machine that is not the vault's maintenance machine")
@json_option
def consolidate(ids: tuple[str, ...], content: str | None, archive_sources: bool, force: bool,
                as_json: bool) -> int:
    """ID... are the memories to merge (2 or more)."""
    from core.ops.consolidate import execute_consolidation

    vault = open_writable()
    result = execute_consolidation(vault, list(ids), content=content,
                                   sources="archive" if archive_sources else "delete",
                                   force=force)
    if as_json:
        print_json({
            "merged": memory_json(vault, result.merged, now_epoch()),
            "sources": [m.id for m in result.sources],
            "sources_fate": "archived" if archive_sources else "deleted",
            "cluster_id": result.cluster_id,
            "cohesion": result.cohesion,
            "relations": [relation_json(r) for r in result.relations],
            "moved_relations": [relation_json(r) for r in result.moved_relations],
            "commit": result.commit,
        })
        return 0
    print(result.merged.id)
    return 0


class _Threshold(click.ParamType):
    name = "F"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"not a number: {value!r}", param, ctx)
        if not 0 < number <= 1:
            self.fail(f"must be in (0, 1], got {number:g}", param, ctx)
        return number


@verb("clusters")
@click.option("--threshold", type=_Threshold(), default=DEFAULT_THRESHOLD, metavar="F",
              help=f"similarity that links two memories, 0-1 (default {DEFAULT_THRESHOLD})")
@json_option
def clusters(threshold: float, as_json: bool) -> int:
    from core.ops.consolidate import find_clusters

    vault = open_readonly()
    found = find_clusters(vault, threshold=threshold)
    if as_json:
        print_json([{"cluster_id": c.id, "members": [m.id for m in c.members],
                     "cohesion": c.cohesion, "suggested_action": c.suggested_action}
                    for c in found])
        return 0
    from . import render_lifecycle

    render_lifecycle.print_clusters(found, threshold)
    return 0


@verb("lineage")
@click.argument("memory_id", metavar="ID")
@json_option
def lineage(memory_id: str, as_json: bool) -> int:
    """ID is a living or deleted memory's id (or prefix)."""
    from core.ops.provenance import lineage as find

    vault = open_writable()  # gone memories come from git history: a normal open
    found = find(vault, memory_id)
    if as_json:
        print_json(lineage_json(found))
        return 0
    from . import render_lifecycle

    render_lifecycle.print_lineage(found, vault)
    return 0


def lineage_json(found: Any) -> dict[str, Any]:
    nodes = sorted(found.nodes.values(), key=lambda n: (n.depth, n.id))
    return {
        "root": found.root,
        "nodes": [{"id": n.id, "depth": n.depth, "gone": n.gone,
                   "memory": n.memory.model_dump(mode="json") if n.memory else None,
                   "end": n.end.as_json() if n.end is not None else None}
                  for n in nodes],
        "edges": [relation_json(r) for r in found.edges],
        "other_relations": [relation_json(r) for r in found.other_relations],
        "other_ends": {i: e.as_json() for i, e in found.other_ends.items()},
    }
