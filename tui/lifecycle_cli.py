"""The lifecycle verbs of ``memvault``: split, split-candidates, suggest-split, consolidate,
clusters and lineage. :func:`register` adds them to the parser of :mod:`tui.cli`.

Exit status as the rest of the CLI: refusals (fewer than 2 parts, an unknown id...) are
VaultError or UserError, which ``cli.main`` turns into one line on stderr and status 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from core.consolidate import DEFAULT_THRESHOLD, execute_consolidation, find_clusters
from core.models import now_epoch
from core.provenance import lineage
from core.split import execute_split, split_candidates, suggest_split

from .cli import UserError, _print_json, memory_json, open_readonly, open_writable, relation_json

Verb = Callable[[str, Callable[[argparse.Namespace], int]], argparse.ArgumentParser]


def _lists(values: list[str] | None, parts: int, option: str) -> list[list[str] | None] | None:
    """``--tags a,b --tags c``: the i-th list for the i-th part; parts after the last one keep
    the original's. ``--tags ''`` gives a part no tags."""
    if not values:
        return None
    if len(values) > parts:
        raise UserError(f"refused: {len(values)} {option} for {parts} parts")
    lists: list[list[str] | None] = [
        list(dict.fromkeys(x.strip() for x in v.split(",") if x.strip())) for v in values]
    return lists + [None] * (parts - len(values))


# -- verbs -----------------------------------------------------------------------------------
def cmd_split(args: argparse.Namespace) -> int:
    parts = args.part or []
    tags = _lists(args.tags, len(parts), "--tags")
    entities = _lists(args.entities, len(parts), "--entities")
    vault = open_writable(args)
    result = execute_split(vault, args.id, parts, tags=tags, entities=entities,
                           original="delete" if args.delete_original else "archive")
    if args.json:
        now = now_epoch()
        _print_json({
            "original": result.original.id,
            "original_fate": "deleted" if result.original_fate == "delete" else "archived",
            "parts": [memory_json(vault, m, now) for m in result.parts],
            "relations": [relation_json(r) for r in result.relations],
            "commit": result.commit,
        })
        return 0
    for part in result.parts:
        print(part.id)
    return 0


def cmd_split_candidates(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    found = split_candidates(vault)
    if args.json:
        now = now_epoch()
        _print_json([{"id": c.memory.id, "reasons": c.reasons, "weight": c.weight,
                      "memory": memory_json(vault, c.memory, now)} for c in found])
        return 0
    from . import render_lifecycle

    render_lifecycle.print_split_candidates(found)
    return 0


def cmd_suggest_split(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    memory = vault.get(args.id)
    parts = suggest_split(memory)
    if args.json:
        _print_json({"id": memory.id, "parts": [
            {"content": p.content, "tags": p.tags, "entities": p.entities} for p in parts]})
        return 0
    from . import render_lifecycle

    render_lifecycle.print_suggested_split(memory, parts)
    return 0


def cmd_consolidate(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    result = execute_consolidation(vault, args.ids, content=args.content,
                                   sources="archive" if args.archive_sources else "delete",
                                   force=args.force)
    if args.json:
        _print_json({
            "merged": memory_json(vault, result.merged, now_epoch()),
            "sources": [m.id for m in result.sources],
            "sources_fate": "archived" if args.archive_sources else "deleted",
            "cluster_id": result.cluster_id,
            "cohesion": result.cohesion,
            "relations": [relation_json(r) for r in result.relations],
            "moved_relations": [relation_json(r) for r in result.moved_relations],
            "commit": result.commit,
        })
        return 0
    print(result.merged.id)
    return 0


def cmd_clusters(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    clusters = find_clusters(vault, threshold=args.threshold)
    if args.json:
        _print_json([{"cluster_id": c.id, "members": [m.id for m in c.members],
                      "cohesion": c.cohesion, "suggested_action": c.suggested_action}
                     for c in clusters])
        return 0
    from . import render_lifecycle

    render_lifecycle.print_clusters(clusters, args.threshold)
    return 0


def cmd_lineage(args: argparse.Namespace) -> int:
    vault = open_writable(args)  # gone memories come from git history: a normal open
    found = lineage(vault, args.id)
    if args.json:
        _print_json(lineage_json(found))
        return 0
    from . import render_lifecycle

    render_lifecycle.print_lineage(found, vault)
    return 0


def lineage_json(found: Any) -> dict[str, Any]:
    nodes = sorted(found.nodes.values(), key=lambda n: (n.depth, n.id))
    return {
        "root": found.root,
        "nodes": [{"id": n.id, "depth": n.depth, "gone": n.gone,
                   "memory": n.memory.model_dump(mode="json") if n.memory else None}
                  for n in nodes],
        "edges": [relation_json(r) for r in found.edges],
        "other_relations": [relation_json(r) for r in found.other_relations],
    }


# -- the parser ------------------------------------------------------------------------------
def _threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1], got {value:g}")
    return value


def register(verb: Verb, json_flag: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add the lifecycle verbs (``verb(name, func)`` and ``json_flag(parser)`` of build_parser)."""
    p = verb("split", cmd_split)
    p.add_argument("id", metavar="ID", help="the memory to split (id or unique prefix)")
    p.add_argument("--part", action="append", metavar="TEXT",
                   help="the text of one part (repeat, at least twice)")
    p.add_argument("--tags", action="append", metavar="A,B",
                   help="tags of the n-th part, comma-separated (repeat per part; parts "
                        "without one keep the original's tags)")
    p.add_argument("--entities", action="append", metavar="A,B",
                   help="entities of the n-th part, like --tags")
    p.add_argument("--delete-original", action="store_true",
                   help="delete the original (default: archive it)")
    json_flag(p)

    json_flag(verb("split-candidates", cmd_split_candidates))

    p = verb("suggest-split", cmd_suggest_split)
    p.add_argument("id", metavar="ID")
    json_flag(p)

    p = verb("consolidate", cmd_consolidate)
    p.add_argument("ids", nargs="+", metavar="ID", help="the memories to merge (2 or more)")
    p.add_argument("--content", metavar="TEXT",
                   help="the merged text (default: derived from the members)")
    p.add_argument("--archive-sources", action="store_true",
                   help="archive the merged memories (default: delete them)")
    p.add_argument("--force", action="store_true",
                   help="run even on a machine that is not the vault's maintenance machine")
    json_flag(p)

    p = verb("clusters", cmd_clusters)
    p.add_argument("--threshold", type=_threshold, default=DEFAULT_THRESHOLD, metavar="F",
                   help=f"similarity that links two memories, 0-1 (default {DEFAULT_THRESHOLD})")
    json_flag(p)

    p = verb("lineage", cmd_lineage)
    p.add_argument("id", metavar="ID", help="a living or deleted memory's id (or prefix)")
    json_flag(p)
