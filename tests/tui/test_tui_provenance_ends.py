"""The provenance pane and the delete modal under the one rule for relations when a memory goes
(core.model.relation_rule): a lineage end that is gone is named consumed, with the commit that
removed it; an end no commit of this vault ever held is "not in this vault", never "deleted"
("the provenance pane calls a dangling, never-seen end 'deleted'"); deleting a
memory keeps its lineage relations, and the modal says so."""

from __future__ import annotations

import pytest

from core import Relation, Vault
from tui.app.screens.delete import DeleteScreen
from tui.app.widgets.provenance import ProvenanceGraph, ProvenancePane

from tui_support import (
    COMPOSITE,
    FRESH,
    NOW,
    PART_IDS,
    SIZE,
    make_app,
    on_disk,
    settle,
    text_of,
    until,
    tui_vault,  # noqa: F401  (fixture)
)

pytestmark = pytest.mark.asyncio

GHOST = "9a9a9999-never-in-this-vault"


def _pane_text(pane: ProvenancePane) -> str:
    graph = pane.query_one(ProvenanceGraph)
    drawn = "\n".join(line.plain for line in graph.drawing.lines()) if graph.drawing else ""
    options = pane.query_one("#prov-relations")
    rows = [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]
    return "\n".join([text_of(pane.query_one("#prov-title")), drawn, *rows])


async def _provenance_of(app, pilot, memory_id: str) -> ProvenancePane:
    """The provenance pane once it shows ``memory_id``'s lineage (drawn, not "reading…"):
    on a busy machine its worker may land well after a fixed number of pauses."""
    app.main_screen.jumps.jump(memory_id)
    await settle(pilot, 1)
    await pilot.press("p")

    def shown() -> bool:
        panes = app.main_screen.query(ProvenancePane)
        if not panes:
            return False
        pane = panes.first()
        return pane.memory_id == memory_id and pane.display and \
            "reading…" not in text_of(pane.query_one("#prov-title"))

    await until(pilot, shown)
    return app.main_screen.query_one(ProvenancePane)


async def test_a_consumed_ancestor_is_named_with_its_commit(tui_vault):
    vault = Vault.open(tui_vault)
    report = vault.delete(COMPOSITE)  # the split original: its split_from relations stay
    deleting = vault.journal.head()
    assert len(report.kept_relations) == 2 and report.relations == []
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _provenance_of(app, pilot, PART_IDS[0])
        graph = pane.query_one(ProvenanceGraph)
        assert set(graph.drawing.boxes) == {COMPOSITE, PART_IDS[0]}
        text = _pane_text(pane)
        assert f"{COMPOSITE[:8]} consumed" in text  # its box in the drawing
        subject = vault.journal.history.log(vault.layout.memory_path(COMPOSITE))[0].message
        assert subject.startswith("delete: ")
        assert f"{COMPOSITE[:8]} consumed in {deleting[:8]} ({subject.splitlines()[0]})" in text
        assert "1 consumed (dim)" in text
        assert "deleted" not in text


async def test_a_never_seen_end_is_not_called_deleted(tui_vault):
    vault = Vault.open(tui_vault)  # relations to an id no commit of this vault ever held
    vault.save_relations([
        Relation(id="7e7e9991-ghost-lineage", from_memory_id=PART_IDS[0], to_memory_id=GHOST,
                 relation_type="split_from", created_at=NOW),
        Relation(id="7e7e9992-ghost-related", from_memory_id=FRESH, to_memory_id=GHOST,
                 relation_type="related", created_at=NOW),
    ])
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await _provenance_of(app, pilot, PART_IDS[0])
        text = _pane_text(pane)
        assert f"{GHOST[:8]} not in vault" in text  # its box in the drawing
        assert f"{GHOST[:8]} not in this vault" in text  # and under the title
        assert "1 not in this vault" in text
        assert "deleted" not in text and "consumed" not in text
        pane = await _provenance_of(app, pilot, FRESH)
        text = _pane_text(pane)
        assert f"related      {GHOST[:8]} not in this vault" in text  # the other relations
        assert "deleted" not in text


async def test_delete_modal_says_the_lineage_relations_stay(tui_vault):
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.main_screen.jumps.jump(COMPOSITE)
        await settle(pilot, 1)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, DeleteScreen)
                    and app.screen.query(".dialog-note"))
        modal = app.screen
        notes = " ".join(text_of(s) for s in modal.query(".dialog-note"))
        assert "No relations go with it." in notes
        assert "Its 2 lineage relations (split, merge) stay" in notes
        await pilot.press("y")
        await until(pilot, lambda: COMPOSITE not in on_disk(tui_vault).memories)
    after = Vault.open(tui_vault, readonly=True)
    assert COMPOSITE not in after.memories
    assert {r.relation_type for r in after.store.relations_of(COMPOSITE)} == {"split_from"}
    assert len(after.store.relations_of(COMPOSITE)) == 2
