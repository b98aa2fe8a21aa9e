"""Undo as revert: exactly one operation's own changes reversed, as a new commit; a later change
by another process is never written over (refused), later touches are kept; undo and redo read
the log, so they work across processes and restarts."""

from __future__ import annotations

import pytest

from core import Vault, VaultError
from core.ops.revert import NothingToUndoError, RevertRefusedError, redo, revert, undo, undo_list


@pytest.fixture
def v(vault):
    vault.add("the user prefers pytest", memory_id="m1", tags=["prefs"])
    vault.add("CI runs pytest -n 2", memory_id="m2")
    vault.add("deploys on Tuesdays", memory_id="m3")
    vault.relate("m2", "m1", "supports")
    return vault


def _subjects(vault, git, n=3):
    return git(vault.root, "log", f"-{n}", "--format=%s").splitlines()


def test_undo_archive_keeps_a_later_touch_from_another_process(v, vault_path, git, consistent):
    v.archive("m1")
    other = Vault.open(vault_path)  # the CLI, while the app has the vault open
    other.touch("m1")
    other.touch("m1")
    report = undo(v)
    m = v.get("m1")
    assert m.status == "active"  # the archive is undone
    assert m.use_count == 2  # the later touches are kept
    assert report.kept_touches == ["m1"] and report.memories == ["m1"]
    assert _subjects(v, git, 1)[0].startswith("undo: archive: m1")
    assert f"Memvault-Reverts: {report.reverted}" in git(vault_path, "log", "-1", "--format=%B")
    consistent(v)


def test_revert_refuses_when_a_later_commit_changed_the_same_field(v, vault_path, git):
    v.update("m1", content="edited once")
    edit = git(vault_path, "rev-parse", "HEAD")
    Vault.open(vault_path).update("m1", content="edited again, elsewhere")
    head = git(vault_path, "rev-parse", "HEAD")
    with pytest.raises(RevertRefusedError, match="memory m1.*nothing was written"):
        revert(v, edit)
    assert git(vault_path, "rev-parse", "HEAD") == head
    assert Vault.open(vault_path).get("m1").content == "edited again, elsewhere"


def test_revert_keeps_a_later_edit_of_another_field(v, vault_path, git):
    v.archive("m1")
    archive = git(vault_path, "rev-parse", "HEAD")
    Vault.open(vault_path).update("m1", strength=1.5)
    revert(v, archive)
    m = Vault.open(vault_path).get("m1")
    assert m.status == "active" and m.strength == 1.5


def test_undo_delete_brings_back_the_memory_and_its_relations(v, consistent):
    before = {k: r.model_dump() for k, r in v.relations.items()}
    v.delete("m1")
    assert "m1" not in v.memories and not v.relations
    report = undo(v)
    assert "m1" in v.memories
    assert {k: r.model_dump() for k, r in v.relations.items()} == before
    assert report.relations == sorted(before)
    consistent(v)


def test_undo_twice_goes_further_back_and_redo_takes_it_back(v, vault_path, git, consistent):
    v.archive("m1")
    v.delete("m3")
    undo(v)  # the delete
    assert "m3" in v.memories
    undo(v)  # then the archive
    assert v.get("m1").status == "active"
    entries = undo_list(Vault.open(vault_path))  # another process reads the same list
    assert entries[0].subject.startswith("relate:")
    redone = redo(Vault.open(vault_path))  # redo across processes: the archive again
    assert redone.subject.startswith("undo: archive:")
    assert Vault.open(vault_path).get("m1").status == "archived"
    assert _subjects(v, git, 1)[0].startswith("redo: archive: m1")
    v2 = Vault.open(vault_path)
    redo(v2)  # and the delete
    assert "m3" not in v2.memories
    with pytest.raises(NothingToUndoError):
        redo(v2)
    consistent(v2)


def test_undo_passes_over_touches_and_redo_survives_them(v, vault_path):
    v.archive("m1")
    Vault.open(vault_path).touch("m2")  # an assistant's use record, after the archive
    assert [e.subject.split(":")[0] for e in undo_list(v)][:1] == ["archive"]
    undo(v)
    Vault.open(vault_path).touch("m2")
    redo(v)
    assert v.get("m1").status == "archived" and v.get("m2").use_count == 2


def test_redo_is_refused_after_a_new_operation(v):
    v.archive("m1")
    undo(v)
    v.add("a new memory")
    with pytest.raises(NothingToUndoError, match="nothing to redo"):
        redo(v)


def test_undo_of_an_add_and_nothing_left(vault, git):
    vault.add("only one", memory_id="m1")
    undo(vault)
    assert vault.memories == {}
    with pytest.raises(NothingToUndoError):
        undo(vault)  # the vault's creation is not undone


def test_revert_of_an_unknown_commit_is_a_clear_error(v):
    with pytest.raises(VaultError, match="unknown revision"):
        revert(v, "not-a-commit")


def test_undo_survives_a_restart(v, vault_path):
    v.archive("m2", "m3")
    v.close()
    again = Vault.open(vault_path)
    report = undo(again)
    assert set(report.memories) == {"m2", "m3"}
    assert again.get("m2").status == "active" and again.get("m3").status == "active"


def test_the_undo_list_after_redos_and_undos_of_them_lists_each_change_once(v):
    """A redo in effect stands for the operation it made again (that operation is not listed a
    second time), and a redo undone since no longer cancels its undo: each step of undo, redo,
    undo of a redo... leaves a list whose every entry the next undo really takes back."""
    v.tag("m1", tags=["x"])
    v.archive("m1")

    def listed() -> list[str]:
        return [e.subject for e in undo_list(v)]

    undo(v)
    undo(v)
    assert listed()[0].startswith("relate:")
    redo(v)  # the tag again
    assert listed()[:2] == ["redo: tag: m1 the user prefers pytest (+x)", listed()[1]]
    assert listed()[1].startswith("relate:")  # the tag itself is not listed twice
    undo(v)  # the redo: the tag is off again ("undo: tag: ...", never "undo: redo: ...")
    assert listed()[0].startswith("relate:") and v.get("m1").meta.tags == ["prefs"]
    redo(v)  # the undo of the redo, taken back: the tag is on again
    assert listed()[0] == "redo: tag: m1 the user prefers pytest (+x)"  # subjects never nest
    assert listed()[1].startswith("relate:") and v.get("m1").meta.tags == ["prefs", "x"]
    redo(v)  # and the archive
    assert listed()[0].startswith("redo: archive: m1")
    while listed():  # every entry listed is one undo that works, down to nothing
        expected = listed()[0]
        assert undo(v).subject == expected
    assert not v.memories and not v.relations  # back to the empty vault
