"""Editing a memory (core/ops/edit.py): one update commit with only the changed fields, nothing
written when nothing changed, never over a field another writer changed since."""

from __future__ import annotations

import dataclasses

import pytest

from core.io.edit_text import EditFields, parse, render
from core.ops.edit import EditConflict, apply_edit

from vault_support import commit_count, head_subject


def test_an_unchanged_edit_writes_nothing(vault, vault_path):
    m = vault.add("The user prefers pytest.", tags=["prefs"])
    before = commit_count(vault_path)
    result = apply_edit(vault, m.id, m, parse(render(m), m))
    assert not result.written and result.changed == [] and commit_count(vault_path) == before


def test_an_edit_is_one_update_commit_of_the_changed_fields(vault, vault_path, consistent):
    m = vault.add("The user prefers pytest with plain assert statements over unittest "
                  "classes, and fixtures in conftest.py.", tags=["prefs"])
    vault.pin(m.id)
    m = vault.get(m.id)
    before = commit_count(vault_path)
    fields = dataclasses.replace(EditFields.of(m), tags=("prefs", "python"), strength=1.5,
                                 entities=("pytest",))
    result = apply_edit(vault, m.id, m, fields)
    assert result.written and result.changed == ["entities", "strength", "tags"]
    assert commit_count(vault_path) == before + 1
    assert head_subject(vault_path).startswith(f"update: {m.id[:8]}")
    new = vault.get(m.id)
    assert new.meta.tags == ["prefs", "python"] and new.strength == 1.5
    assert new.meta.extra == {"pinned": True} and new.meta.source == m.meta.source
    assert new.content == m.content and new.gist == m.gist
    consistent(vault)


def test_a_new_text_with_the_gist_left_as_it_was_gets_a_new_gist(vault):
    m = vault.add("short", gist="an old gist")
    long_text = ("The staging database runs Postgres 16 while production is still on 15; the "
                 "upgrade waits for the extension audit, which the platform team owns, and the "
                 "migration window is the first weekend of the quarter.")
    result = apply_edit(vault, m.id, m, dataclasses.replace(EditFields.of(m), content=long_text))
    assert result.changed == ["content"]
    assert result.memory.content == long_text and result.memory.gist != "an old gist"


def test_a_field_changed_by_another_writer_since_is_never_written_over(vault, vault_path):
    m = vault.add("original text", tags=["a"])
    vault.update(m.id, content="changed elsewhere")  # another writer, after the person opened it
    before = commit_count(vault_path)
    with pytest.raises(EditConflict, match="changed since you started"):
        apply_edit(vault, m.id, m, dataclasses.replace(EditFields.of(m), content="mine"))
    assert commit_count(vault_path) == before and vault.get(m.id).content == "changed elsewhere"
    # a field nobody else touched is written, the other writer's change kept
    result = apply_edit(vault, m.id, m, dataclasses.replace(EditFields.of(m), tags=("b",)))
    assert result.written and vault.get(m.id).content == "changed elsewhere"
    assert vault.get(m.id).meta.tags == ["b"]


def test_hostile_content_is_stored_byte_exact(vault, vault_path):
    m = vault.add("x")
    hostile = "esc \x1b[2J\x00 nul\r\n  trailing  \n\n"
    apply_edit(vault, m.id, m, dataclasses.replace(EditFields.of(m), content=hostile))
    from core import Vault

    assert Vault.open(vault_path, readonly=True).get(m.id).content == hostile
    assert "\x1b" not in head_subject(vault_path)
