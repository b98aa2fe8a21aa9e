"""A big vault's view from the derived index's summaries (tui/app/view_rows.py, issue 43): the
open's view parses no memory, each row's memory is parsed on first read and is the vault's, a
view stays the snapshot it was, and an index that cannot answer (deleted, of another commit)
means the view is built from every memory parsed, as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core import Vault
from core.model.records import now_epoch
from core.search.index import index_path
from core.vault.preview import MemorySummary
from tui.app import view_rows
from tui.app.grouping import prepare
from tui.app.service import VaultService
from tui.app.view import leaf_label

NOW = 1_750_000_000
ESC = "\x1b"


def _vault(root: Path, n: int = 12) -> list[str]:
    """A vault of ``n`` memories (one with an escape sequence in its content), opened once so
    that the index holds their summaries at HEAD."""
    with Vault.open(root, create=True) as vault:
        ids = [vault.add(f"memory {i} about the harbour and its boats" + " long" * 80,
                         tags=["harbour", f"t{i % 3}"]).id for i in range(n)]
        ids.append(vault.add(f"a title {ESC}[2J that clears the screen", tags=["x"]).id)
    Vault.open(root).close()  # (an open from the index, which it leaves at HEAD)
    return ids


@pytest.fixture
def big(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(view_rows, "SUMMARIES_FROM", 1)


def test_the_open_view_parses_no_memory_and_each_row_reads_its_own(tmp_path, big):
    ids = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    assert vault.memories.raw == len(ids)  # no memory parsed for the view (was: every one)
    assert all(isinstance(view.rows[i].brief, MemorySummary) for i in ids)
    groups = prepare(view, list(view.rows), "status_tag", "score", {}, None)
    assert groups and vault.memories.raw == len(ids)  # the groups read summaries alone
    labels = [leaf_label(view.rows[i]).plain for i in ids]
    assert all(i[:8] in label for i, label in zip(ids, labels))
    assert vault.memories.raw == len(ids)
    row = view.rows[ids[0]]
    assert row.memory == vault.memories[ids[0]]  # the whole memory, not its summary's start
    assert row.memory.content.endswith(" long")
    assert vault.memories.raw == len(ids) - 1  # parsed once, in the cache: the vault's own
    assert row.score == pytest.approx(view_rows.decay.score(row.memory, view.config, NOW))


def test_a_rows_memory_shows_control_characters_as_escapes(tmp_path, big):
    ids = _vault(tmp_path / "v")
    view = VaultService(tmp_path / "v", clock=lambda: NOW).open()
    row = view.rows[ids[-1]]
    assert isinstance(row.brief, MemorySummary)
    assert ESC not in row.brief.text and ESC not in leaf_label(row).plain
    assert ESC not in row.memory.content and "\\x1b" in row.memory.content


def test_a_view_stays_the_snapshot_it_was_when_the_memory_changes_after(tmp_path, big):
    ids = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    assert isinstance(view.rows[ids[1]].brief, MemorySummary)
    before = view.rows[ids[1]].brief.text
    vault.update(ids[1], content="rewritten")
    vault.delete(ids[2])
    assert view.rows[ids[1]].memory.content.startswith(before[:20])  # the view's bytes
    assert view.rows[ids[2]].memory.id == ids[2]  # gone from the vault: the view keeps it
    after = service.state.next_view([ids[1], ids[2]])
    assert after.rows[ids[1]].memory.content == "rewritten" and ids[2] not in after.rows


@pytest.mark.parametrize("damage", ["deleted", "older schema", "half written"])
def test_an_index_that_cannot_answer_means_every_memory_parsed(tmp_path, big, damage):
    ids = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    assert isinstance(service.open().rows[ids[0]].brief, MemorySummary)
    path = index_path(tmp_path / "v")
    if damage == "deleted":
        path.unlink()
    elif damage == "older schema":
        import sqlite3

        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA user_version = 1")
    else:
        path.write_bytes(path.read_bytes()[:4096])
    service.state.current = None  # (a view made anew, as an open's)
    view = service.state.rebuild()
    vault = service.state.vault
    assert vault.memories.raw == 0 and len(view) == len(ids)
    assert all(not isinstance(view.rows[i].brief, MemorySummary) for i in ids)
    assert ESC not in view.rows[ids[-1]].memory.content


def test_summaries_of_another_commit_are_not_used(tmp_path, big):
    ids = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    assert isinstance(service.open().rows[ids[0]].brief, MemorySummary)
    with Vault.open(tmp_path / "v") as other:  # another process moves on, and the index too
        other.update(ids[0], content="changed elsewhere")
    Vault.open(tmp_path / "v").close()
    service.state.current = None  # (a view made anew, as an open's)
    view = service.state.rebuild()  # (the service's vault is still at the older commit)
    assert view.rows[ids[0]].memory.content != "changed elsewhere"
    assert not isinstance(view.rows[ids[0]].brief, MemorySummary)


def test_a_commit_elsewhere_and_the_scores_again_parse_only_what_changed(tmp_path, big):
    ids = _vault(tmp_path / "v")
    clock = [NOW]
    service = VaultService(tmp_path / "v", clock=lambda: clock[0])
    first = service.open()
    vault = service.state.vault
    with Vault.open(tmp_path / "v") as other:  # another process
        other.update(ids[0], content="changed elsewhere")
    view = service.reload()  # (HEAD moved: the service's vault catches up)
    assert service.state.vault is vault
    assert view.rows[ids[0]].memory.content == "changed elsewhere"
    assert vault.memories.raw == len(ids) - 1  # the one that changed, and no other
    assert view.rows[ids[1]].brief is first.rows[ids[1]].brief
    clock[0] = now_epoch() + 30 * 86400
    later = service.rescore()
    assert later is not None and later.now == clock[0]
    assert vault.memories.raw == len(ids) - 1
    for i in ids[1:]:
        assert later.rows[i].score == pytest.approx(
            view_rows.decay.score(later.rows[i].memory, later.config, clock[0]))
        assert later.rows[i].score < view.rows[i].score
    assert later.rows[ids[0]].memory.content == "changed elsewhere"


@pytest.mark.asyncio
async def test_the_app_shows_the_open_vault_parsing_only_the_memory_it_details(tmp_path, big):
    from tui_support import SIZE, make_app, settle, until

    ids = _vault(tmp_path / "v")
    app = make_app(tmp_path / "v", open_now=False)
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await until(pilot, lambda: main.view is not None and not main.view.partial
                    and main.memory_tree.painted is main.view)
        await settle(pilot)
        vault = app.service.state.vault
        assert vault.memories.raw == len(ids)  # the tree, its groups and their figures: none
        tree = main.memory_tree
        for _ in range(30):  # down to the first memory
            if tree.cursor_node is not None and tree.cursor_node.data.kind == "memory":
                break
            await pilot.press("l" if tree.cursor_node.allow_expand else "j")
        await until(pilot, lambda: main.detail.row is not None)
        await settle(pilot)
        shown = main.detail.row.id
        assert vault.memories.raw == len(ids) - 1 and type(vault.memories.held(shown)) is not bytes
        view = main.view
        await pilot.press("a")  # an action on it works
        await until(pilot, lambda: main.view is not view)
        assert vault.memories[shown].status.value == "archived"


def test_the_apps_open_reads_the_index_copies_only_once_the_first_screen_is_made(tmp_path, big):
    """The view is made from the summaries alone, the vault's cache waiting for the index's
    copies (core/vault/later_copies.py): at 100k memories, reading and hashing them was 1.0 s
    of CPU of the 2.8 s of the open and its view. A row's memory, or the worker that reads them
    once the open vault is painted (``copies_read``), reads them then."""
    ids = _vault(tmp_path / "v")
    service = VaultService(tmp_path / "v", clock=lambda: NOW)
    view = service.open()
    vault = service.state.vault
    assert vault.memories.due and vault.relations.due  # (was: every copy read by the open)
    assert not view.partial and sorted(view.rows) == sorted(ids)
    assert all(isinstance(view.rows[i].brief, MemorySummary) for i in ids)
    assert not view.relations.parsed and vault.relations.due
    assert service.copies_read() is None  # nothing to tell: the view stands
    assert not vault.memories.due and vault.memories.raw == len(ids)
    assert view.rows[ids[0]].memory == vault.memories[ids[0]]


def test_a_damaged_copy_found_after_the_first_screen_makes_the_view_again(tmp_path, big):
    ids = _vault(tmp_path / "v")
    root = (tmp_path / "v").resolve()
    conn = sqlite3.connect(index_path(root))
    (body,) = conn.execute("SELECT body FROM files WHERE record_id = ?", (ids[0],)).fetchone()
    conn.execute("UPDATE files SET body = ? WHERE record_id = ?",
                 (body.replace(b"harbour", b"HARBOUR"), ids[0]))
    conn.commit()
    conn.close()
    service = VaultService(root, clock=lambda: NOW)
    service.open()
    found = service.copies_read()
    assert found is not None
    view, notes = found
    assert len(notes) == 1 and "damaged copy" in notes[0]
    assert "harbour" in view.rows[ids[0]].memory.content
    assert "HARBOUR" not in view.rows[ids[0]].memory.content
    assert service.copies_read() is None


@pytest.mark.parametrize("index", ["summaries", "none"])
def test_the_view_is_made_with_the_cyclic_collector_paused(tmp_path, big, monkeypatch, index):
    """A big vault's 100k rows (and, without an index, its 100k memories parsed) are long-lived
    objects and no garbage: the collector only rescanned them while they were made (a third of
    the view's CPU at 100k, 0.55 -> 0.33 s). It is on again once the view is made."""
    import gc

    from tui.app.view import VaultView

    ids = _vault(tmp_path / "v")
    if index == "none":  # (as after a clone: every memory parsed for the view)
        index_path(tmp_path / "v").unlink()
    seen: list[bool] = []
    build = VaultView.build.__func__  # type: ignore[attr-defined]

    def spy(cls, *args, **kwargs):
        seen.append(gc.isenabled())
        return build(cls, *args, **kwargs)

    monkeypatch.setattr(VaultView, "build", classmethod(spy))
    view = VaultService(tmp_path / "v", clock=lambda: NOW).open()
    assert sorted(view.rows) == sorted(ids)
    assert seen == [False] and gc.isenabled()
