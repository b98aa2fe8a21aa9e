"""Changing many memories at once (bulk): tag, untag and promote take any number of
ids and make ONE commit; a bad input (no id, an empty tag, nothing to change, a memory that
cannot be promoted) is refused and writes nothing. Undo takes the whole commit back."""

from __future__ import annotations

import pytest

from core import MemoryStatus, Vault, VaultError
from core.ops.revert import undo, undo_list


@pytest.fixture
def three(vault: Vault) -> list[str]:
    return [vault.add(text, tags=["old"]).id for text in
            ("Deploys happen on Tuesdays.", "The wiki needs the VPN.", "Payroll runs on the 25th.")]


def commits(git_tools, vault: Vault) -> int:
    return git_tools.commit_count(vault.root)


def test_tag_many_is_one_commit_and_skips_those_that_have_it(vault, three, git_tools):
    a, b, c = three
    vault.tag(a, tags=["work"])
    before = commits(git_tools, vault)
    changed = vault.tag(a, b[:6], c, tags=["work", "urgent"])
    assert commits(git_tools, vault) == before + 1
    assert [m.id for m in changed] == [a, b, c]  # a lacked "urgent"
    subject = git_tools.head_subject(vault.root)
    assert subject.startswith("tag: 3 memories (") and subject.endswith("(+work +urgent)")
    assert vault.get(a).meta.tags == ["old", "work", "urgent"]
    assert vault.get(c).meta.tags == ["old", "work", "urgent"]
    git_tools.assert_consistent(vault)
    on_disk = Vault.open(vault.root, readonly=True)
    assert on_disk.get(b).meta.tags == ["old", "work", "urgent"]


def test_tag_only_writes_the_memories_it_changes(vault, three, git_tools):
    a, b, _ = three
    vault.tag(a, tags=["work"])
    changed = vault.tag(a, b, tags=["work"])
    assert [m.id for m in changed] == [b]
    assert git_tools.head_subject(vault.root).startswith(f"tag: {b[:8]} ")
    out = git_tools.run(vault.root, "show", "--name-only", "--format=", "HEAD")
    assert out.split() == [f"memories/{b}.json"]


def test_untag_many_in_one_commit(vault, three, git_tools):
    a, b, c = three
    vault.tag(a, b, tags=["work"])
    before = commits(git_tools, vault)
    changed = vault.untag(a, b, c, tags=["work"])
    assert [m.id for m in changed] == [a, b]  # c never had it
    assert commits(git_tools, vault) == before + 1
    assert git_tools.head_subject(vault.root).endswith("(-work)")
    assert all(vault.get(i).meta.tags == ["old"] for i in three)


@pytest.mark.parametrize("verb, tags, error", [
    ("tag", ["old"], "already has the tag old"),
    ("untag", ["nope"], "has none of the tag nope"),
    ("tag", [""], "a tag cannot be empty"),
    ("tag", ["   "], "a tag cannot be empty"),
    ("tag", [], "give at least one tag"),
    ("tag", ["bad\x1b[31m"], "control character"),
])
def test_tag_and_untag_refuse_and_write_nothing(vault, three, git_tools, verb, tags, error):
    before = commits(git_tools, vault)
    with pytest.raises(VaultError, match=error.replace("[", r"\[")):
        getattr(vault, verb)(*three, tags=tags)
    assert commits(git_tools, vault) == before
    assert all(vault.get(i).meta.tags == ["old"] for i in three)


def test_tag_without_ids_and_with_an_unknown_id_writes_nothing(vault, three, git_tools):
    before = commits(git_tools, vault)
    with pytest.raises(VaultError, match="no memory ids"):
        vault.tag(tags=["x"])
    with pytest.raises(VaultError):
        vault.tag(three[0], "ffffffff", tags=["x"])
    assert commits(git_tools, vault) == before
    assert vault.get(three[0]).meta.tags == ["old"]


def test_promote_many_is_one_commit(vault, three, git_tools):
    before = commits(git_tools, vault)
    promoted = vault.promote(*three)
    assert commits(git_tools, vault) == before + 1
    assert git_tools.head_subject(vault.root).startswith("promote: 3 memories (")
    assert {m.status for m in promoted} == {MemoryStatus.PROMOTED}
    assert all(m.promoted_at is not None for m in promoted)
    git_tools.assert_consistent(vault)


@pytest.mark.parametrize("first", ["promote", "archive"])
def test_promote_refuses_a_memory_that_is_not_active(vault, three, git_tools, first):
    getattr(vault, first)(three[1])
    before = commits(git_tools, vault)
    with pytest.raises(VaultError, match=f"{three[1][:8]} is .*only an active memory"):
        vault.promote(*three)
    assert commits(git_tools, vault) == before
    assert vault.get(three[0]).status == MemoryStatus.ACTIVE


def test_one_undo_takes_back_a_whole_bulk_change(vault, three):
    vault.tag(*three, tags=["work"])
    vault.promote(*three)
    undo(vault)
    assert {vault.get(i).status for i in three} == {MemoryStatus.ACTIVE}
    undo(vault)
    assert all(vault.get(i).meta.tags == ["old"] for i in three)
    assert [e.subject.split(":")[0] for e in undo_list(vault)][:1] == ["add"]
