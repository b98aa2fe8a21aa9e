"""The app's pure parts: the filter language, decay bands and labels, grouping, the provenance
drawing, and the service's undo and disk-following logic without a UI."""

from __future__ import annotations

import random

from rich.text import Text

from core import DecayConfig, Memory, MemoryStatus, Relation, Vault
from core.ops.provenance import Lineage, LineageNode
from tui.app.graph import draw_lineage
from tui.app.grouping import groups_for, prepare
from tui.app.groups import sort_ids
from tui.app.query import parse
from tui.app.service import VaultService
from tui.app.view import VaultView, band_keys, band_of, bands, leaf_label, score_bar

from tui_support import (
    ARCHIVED,
    COMPOSITE,
    DANGER,
    FADING,
    FRESH,
    NOW,
    PART_IDS,
    STALE,
    STALE2,
    memories,
    tui_vault,  # noqa: F401  (fixture)
)

DAY = 86400


def view_of(items: list[Memory], relations: dict[str, Relation] | None = None) -> VaultView:
    from pathlib import Path

    return VaultView.build(Path("."), items, relations or {}, DecayConfig(), NOW)


def matching(text: str, view: VaultView) -> set[str]:
    q = parse(text)
    return {i for i, row in view.rows.items() if q.matches(row, view.now)}


# -- the filter -------------------------------------------------------------------------------
def test_filter_terms_combine():
    view = view_of(memories())
    assert matching("", view) == set(view.rows)
    assert matching("tag:home", view) == {STALE, STALE2}
    assert matching("tag:HO*", view) == {STALE, STALE2}
    assert parse("status:a").errors  # ambiguous: active, archived; the term is left out
    assert matching("status:a", view) == set(view.rows)
    assert matching("status:archived", view) == {ARCHIVED}
    assert matching("score<0.05 -tag:work", view) == {STALE, STALE2}
    assert matching("score>=1", view) == {FRESH, matching("uses>8", view).pop()}
    assert matching('"plain assert"', view) == {FRESH}
    assert matching("entity:pytest", view) == {FRESH}
    assert matching("idle>60 age>100", view) == {STALE, STALE2}
    assert matching("has:gist", view) == {FRESH}


def test_filter_errors_are_reported_and_skipped():
    q = parse("score<abc tag: has:wings desk")
    assert len(q.errors) == 3 and q.words == ["desk"]
    q = parse('"unbalanced quote')  # while typing
    assert not q.errors and q.words == ['"unbalanced', "quote"]


# -- bands and labels -------------------------------------------------------------------------
def test_bands_cover_every_score_once():
    table = bands(DecayConfig())
    assert [b.name for b in table] == ["fresh", "fading", "danger zone", "critical",
                                       "below forget threshold"]
    danger = next(b for b in table if b.key == "danger")
    assert (danger.low, danger.high) == (0.15, 0.35)
    assert table[-1].high == DecayConfig().forget_threshold
    for a, b in zip(table, table[1:]):
        assert a.low == b.high


def test_labels_are_text_and_keep_brackets():
    m = Memory(id="abcd1234-x", content="A [bold]gist[/bold] with [x] brackets", use_count=1,
               created_at=NOW, last_used=NOW)
    view = view_of([m])
    label = leaf_label(view.rows[m.id])
    assert isinstance(label, Text)
    assert "[bold]gist[/bold] with [x]" in label.plain
    assert label.plain.startswith("1.52 █████ abcd1234 ")
    assert score_bar(0.5, "fading").plain == "██▌░░"
    assert score_bar(0.0, "forget").plain == "░░░░░"


# -- grouping ---------------------------------------------------------------------------------
def test_groups_and_sorting():
    view = view_of(memories())
    ids = list(view.rows)
    top = groups_for(view, ids, "status_tag")
    assert [(g.title, g.count) for g in top] == [("active", 7), ("promoted", 1), ("archived", 1)]
    sub = top[0].subgroups()
    assert ("home", 2) in [(g.title, g.count) for g in sub]
    bands_ = groups_for(view, ids, "band")
    assert sum(g.count for g in bands_) == len(ids)
    by_score = sort_ids(view, ids, "score")
    assert [view.rows[i].score for i in by_score] == sorted(
        (r.score for r in view.rows.values()), reverse=True)
    assert sort_ids(view, ids, "created")[0] == FADING  # created 20 days ago: the newest


def test_a_memory_naming_a_tag_twice_is_one_member_of_its_group():
    items = memories()
    items[0].meta.tags = ["prefs", "prefs", "python"]  # (the model allows it; the glance, once)
    view = view_of(items)
    for groups in (groups_for(view, list(view.rows), "tag"),
                   groups_for(view, list(view.rows), "status_tag")[0].subgroups()):
        prefs = next(g for g in groups if g.title == "prefs")
        assert prefs.count == 1 and prefs.ids == [items[0].id]


def test_prepare_works_out_what_the_tree_opens_and_groups_keep_it():
    view = view_of(memories())
    ids = list(view.rows)
    first = prepare(view, ids, "status_tag", "score", None, None)[0]
    assert first._children is not None  # the first group opens: its subgroups are made
    home = next(g for g in first._children if g.title == "home")
    assert not home._ordered  # a subgroup stays closed
    top = prepare(view, ids, "status_tag", "created", None, {first.key, home.key})
    home = next(g for g in top[0].children() if g.title == "home")
    order = home._ordered["created"][1]
    assert order == sort_ids(view, home.ids, "created")
    assert home.ordered(view, "created") is order  # made once
    rank = {home.ids[-1]: 1.0}
    assert home.ordered(view, "created", rank)[0] == home.ids[-1]  # another ranking: made again
    assert home.ordered(view, "created", dict(rank)) is not home.ordered(view, "created", rank)


def test_lineage_groups_put_roots_first(tui_vault):
    service = VaultService(tui_vault, clock=lambda: NOW)
    view = service.open()
    top = groups_for(view, list(view.rows), "lineage")
    assert top[0].memory_id == COMPOSITE and top[0].descendants == 2
    assert top[-1].title == "no lineage"
    # a filter that only keeps a part still shows its root
    top = groups_for(view, [PART_IDS[1]], "lineage")
    assert [getattr(g, "memory_id", None) for g in top] == [COMPOSITE]


# -- the provenance drawing -------------------------------------------------------------------
def _lineage(root: str, nodes: dict[str, int], edges: list[tuple[str, str, str]]) -> Lineage:
    rels = [Relation(id=f"r{i}", from_memory_id=a, to_memory_id=b, relation_type=t, created_at=i)
            for i, (a, b, t) in enumerate(edges)]
    return Lineage(root, {i: LineageNode(i, None, False, d) for i, d in nodes.items()}, rels)


def _content(i: str) -> tuple[Text, Text, str]:
    return Text(i), Text("words"), ""


def test_split_is_drawn_as_a_bus_with_a_label():
    lineage = _lineage("orig", {"orig": 0, "p1": 1, "p2": 1, "p3": 1},
                       [("p1", "orig", "split_from"), ("p2", "orig", "split_from"),
                        ("p3", "orig", "split_from")])
    drawing = draw_lineage(lineage, _content, width=80)
    text = [line.plain for line in drawing.lines()]
    joined = "\n".join(text)
    assert "split" in joined and "merge" not in joined
    orig, parts = drawing.boxes["orig"], [drawing.boxes[p] for p in ("p1", "p2", "p3")]
    assert all(p.y > orig.y for p in parts) and len({p.y for p in parts}) == 1
    assert text[orig.y + orig.h - 1][orig.center] == "┬"  # the edge leaves the original's box
    for p in parts:
        assert text[p.y][p.center] == "┴"  # and enters each part's box
    bus = next(row for row in text[orig.y + orig.h: parts[0].y] if "─" in row)
    assert sum(bus.count(c) for c in "┌┐┬┼┴") == 3  # one junction per part
    assert drawing.node_at(orig.x + 1, orig.y + 1) == "orig"
    assert drawing.order[0] == "orig"


def test_merge_from_ancestors_above():
    lineage = _lineage("merged", {"a": -1, "b": -1, "merged": 0},
                       [("merged", "a", "consolidated_from"), ("merged", "b", "consolidated_from")])
    drawing = draw_lineage(lineage, _content, width=60)
    joined = "\n".join(line.plain for line in drawing.lines())
    assert "merge" in joined
    assert drawing.boxes["a"].y < drawing.boxes["merged"].y


def test_edges_that_skip_a_layer_are_listed():
    lineage = _lineage("r", {"r": 0, "c": 1, "g": 2},
                       [("c", "r", "split_from"), ("g", "c", "split_from"),
                        ("g", "r", "consolidated_from")])
    drawing = draw_lineage(lineage, _content, width=60)
    assert len(drawing.notes) == 1 and "merge from" in drawing.notes[0].plain


# -- the service --------------------------------------------------------------------------------
def test_service_undo_stack_and_views(tui_vault):
    service = VaultService(tui_vault, clock=lambda: NOW)
    first = service.open()
    change = service.bulk.archive_many([FRESH])
    assert change.view is not first and change.view.rows[FRESH].memory.status == "archived"
    assert first.rows[FRESH].memory.status == "active"  # views are snapshots
    change = service.bulk.delete_many([DANGER])
    assert DANGER not in change.view.rows and change.note.endswith("and 1 relation")
    assert [subject.split(":")[0] for _, subject, _ in service.undo_list()][:2] == \
        ["delete", "archive"]
    change = service.undo()
    assert DANGER in change.view.rows and change.view.relations_of(DANGER)
    change = service.undo()
    assert change.view.rows[FRESH].memory.status == MemoryStatus.ACTIVE
    change = service.redo()  # the archive again
    assert change.view.rows[FRESH].memory.status == MemoryStatus.ARCHIVED


def test_service_notices_changes_on_disk(tui_vault):
    service = VaultService(tui_vault, clock=lambda: NOW)
    service.open()
    assert not service.changed_on_disk()
    other = Vault.open(tui_vault)
    other.archive(FADING)
    other.close()
    assert service.changed_on_disk()
    view = service.reload()
    assert view.rows[FADING].memory.status == MemoryStatus.ARCHIVED
    assert not service.changed_on_disk()
    service.bulk.archive_many([STALE])  # our own change is not "a change underneath"
    assert not service.changed_on_disk()


def test_rescore_only_when_the_clock_moves(tui_vault):
    now = [NOW]
    service = VaultService(tui_vault, clock=lambda: now[0])
    view = service.open()
    assert service.rescore() is None
    now[0] += 30 * DAY
    later = service.rescore()
    assert later is not None and later.rows[FRESH].score < view.rows[FRESH].score


def test_a_view_is_named_shortly():
    """Textual's ``@work`` names a worker by the repr of its arguments: a view's repr must not
    write out its memories (a 10k view's took 0.25 s of every filter keystroke)."""
    from pathlib import Path

    from core import DecayConfig, Memory
    from tui.app.view import VaultView

    memories = [Memory(id=f"m{n}", content="x" * 200) for n in range(50)]
    view = VaultView.build(Path("/v"), memories, {}, DecayConfig(), 1_750_000_000)
    assert repr(view) == "VaultView('/v', 50 memories, now=1750000000)"


def test_band_keys_are_band_of_for_every_score_and_any_thresholds():
    rng = random.Random(3)
    scores = [rng.choice([0.0, -1.0, 0.05, 0.15, 0.35, 0.65, 1.0, 3.0]) for _ in range(50)]
    scores += [rng.uniform(-0.5, 2.5) for _ in range(500)]
    for forget, promote in ((0.05, 0.65), (0.2, 0.65), (0.5, 0.1), (0.15, 0.35)):
        table = bands(DecayConfig(forget_threshold=forget, promote_threshold=promote))
        assert band_keys(scores, table) == [band_of(s, table).key for s in scores]
