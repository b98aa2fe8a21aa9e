"""A view's relations read on first use (tui/app/view_relations.py, issue 43): the open's view
parses no relation (the first screen shows none; at 100k memories parsing 33k relations took
1.7 s before every action was ready), a memory's relations and the provenance read them then,
a view stays the snapshot it was, and the view after an operation takes what the one before it
read."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import Vault
from tui.app import view_rows
from tui.app.query import parse
from tui.app.service import VaultService

NOW = 1_750_000_000


def _vault(root: Path) -> tuple[list[str], list[str]]:
    """Five memories, each related to the next (one of them split from another), opened once
    so that the index holds every file (an open from it holds the relations as bytes)."""
    with Vault.open(root, create=True) as vault:
        ids = [vault.add(f"memory {i} about the harbour").id for i in range(5)]
        rels = [vault.relate(a, b, "related").id for a, b in zip(ids, ids[1:])]
        rels.append(vault.relate(ids[4], ids[0], "split_from").id)
    Vault.open(root).close()
    return ids, rels


@pytest.fixture
def big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view_rows, "SUMMARIES_FROM", 1)


def test_the_open_view_parses_no_relation_until_a_memorys_relations_are_asked_for(tmp_path, big):
    ids, rels = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    assert vault.relations.raw == len(rels)  # none parsed for the view (was: every one)
    assert not view.relations.parsed and len(view.relations) == len(rels)
    assert {r.id for r in view.relations_of(ids[0])} == {rels[0], rels[-1]}
    assert view.relations.parsed and view.relations[rels[1]] == vault.relations[rels[1]]
    parents, children = view.provenance()
    assert parents == {ids[4]: [(ids[0], "split")]} and children == {ids[0]: [(ids[4], "split")]}


def test_a_views_relations_stay_the_snapshot_they_were(tmp_path, big):
    ids, rels = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    vault.relate(ids[0], ids[2], "related")
    vault.unrelate(rels[0])
    assert {r.id for r in view.relations_of(ids[0])} == {rels[0], rels[-1]}
    assert len(view.relations) == len(rels)


def test_the_view_after_an_operation_takes_the_relations_the_one_before_read(tmp_path, big):
    ids, rels = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    made = vault.relate(ids[0], ids[3], "related").id
    assert view.relations_of(ids[1])  # (read in this view)
    after = service.state.next_view([ids[0], ids[3]])
    assert all(after.relations[r] is view.relations[r] for r in rels)  # not parsed again
    assert {r.id for r in after.relations_of(ids[0])} == {rels[0], rels[-1], made}
    assert [after.rows[i].relations for i in ids] == [3, 2, 2, 3, 2]  # (has:relations reads)
    assert [view.rows[i].relations for i in ids] == [2, 2, 2, 2, 2]


def test_a_rows_relation_count_reads_the_relations_of_its_view_on_first_read(tmp_path, big):
    ids, rels = _vault(tmp_path / "v")
    view = VaultService(tmp_path / "v", clock=lambda: NOW).open()
    assert not view.relations.parsed
    assert view.rows[ids[2]].relations == 2 and view.relations.parsed


def test_the_filter_has_relations_keeps_the_rows_their_views_relations_touch(tmp_path, big):
    ids, rels = _vault(tmp_path / "v")
    with Vault.open(tmp_path / "v") as vault:
        alone = vault.add("a memory no relation touches").id
    Vault.open(tmp_path / "v").close()
    view = VaultService(tmp_path / "v", clock=lambda: NOW).open()
    query = parse("has:relations")
    assert {i for i in view.rows if query.matches(view.rows[i], NOW)} == set(ids)
    assert alone in view.rows
