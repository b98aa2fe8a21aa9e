"""The review inbox: what the assistant (commits with a Memvault-Via trailer) wrote since the
person last looked, one entry per memory; accept moves the mark (or records some memories);
reject takes the assistant's change back by the undo rules and never a person's later change."""

from __future__ import annotations

import json

import pytest

from core import UnknownIdError, Vault, VaultError
from core.ops.inbox import InboxRefusedError, accept, inbox, reject, review
from core.ops.inbox_state import ACCEPTED_FILE, REF
from core.ops.revert import undo
from secrets_support import GITHUB


@pytest.fixture
def person(vault):
    vault.add("the user prefers pytest", memory_id="p1", tags=["prefs"])
    vault.add("deploys happen on Tuesdays", memory_id="p2", tags=["ops"])
    return vault


@pytest.fixture
def assistant(person, vault_path):
    v = Vault.open(vault_path, via="mcp/test")
    yield v
    v.close()


def _ids(vault):
    return [e.memory_id for e in inbox(vault)]


def _head(git, vault):
    return git(vault.root, "rev-parse", "HEAD")


def test_no_mark_lists_every_assistant_change_in_history_and_no_person_change(person, assistant):
    assert inbox(person) == []  # only a person's commits: nothing to review
    assistant.add("the user likes dark mode", memory_id="a1", tags=["ui"])
    (entry,) = inbox(person)
    assert entry.memory_id == "a1" and entry.operation == "added"
    assert entry.clients == ["mcp/test"] and len(entry.commits) == 1
    assert entry.subjects[0].startswith("add: a1")
    assert {c.field: c.after for c in entry.changes}["tags"] == ["ui"]
    assert {c.field for c in entry.changes} == {"content", "tags"}
    assert "content: 'the user likes dark mode'" in entry.summary()
    assert entry.blocked is None and entry.exists


def test_operations_and_short_diffs(person, assistant):
    assistant.update("p1", content="the user prefers pytest with plain assert",
                     meta={"tags": ["prefs", "python"]})
    assistant.archive("p2")
    entries = {e.memory_id: e for e in inbox(person)}
    changed = entries["p1"]
    assert changed.operation == "changed"
    fields = {c.field: (c.before, c.after) for c in changed.changes}
    assert fields["content"] == ("the user prefers pytest",
                                 "the user prefers pytest with plain assert")
    assert fields["tags"] == (["prefs"], ["prefs", "python"])
    assert "tags: +python" in changed.summary()
    assert entries["p2"].operation == "archived"
    assert [c.field for c in entries["p2"].changes] == ["status"]
    assistant.delete("p2")
    assert {e.memory_id: e.operation for e in inbox(person)}["p2"] == "removed"
    assert next(e for e in inbox(person) if e.memory_id == "p2").exists is False


def test_use_records_are_not_entries(person, assistant, vault_path):
    assistant.touch("p1", "p2")
    assistant.update("p1", use_count=7, last_used=1_900_000_000)  # use fields only
    assert inbox(person) == []
    assistant.touch("p1", boost=True)  # a touch commit: a use record even with its boost
    assert inbox(person) == []


def test_added_then_removed_again_is_not_listed(person, assistant):
    assistant.add("scratch", memory_id="tmp1")
    assistant.delete("tmp1")
    assert inbox(person) == []


def test_accept_all_moves_the_mark_and_later_changes_show_against_it(person, assistant, git):
    assistant.add("a note", memory_id="a1")
    report = accept(person)
    assert report.all and report.accepted == ["a1"]
    assert git(person.root, "rev-parse", REF) == _head(git, person)
    assert inbox(person) == []
    assistant.update("a1", content="a better note")
    (entry,) = inbox(person)
    assert entry.operation == "changed" and len(entry.commits) == 1
    assert {c.field: c.before for c in entry.changes}["content"] == "a note"


def test_accept_some_ids_survives_a_restart_and_moves_the_mark_when_none_is_left(
        person, assistant, vault_path, git):
    assistant.add("first", memory_id="a1")
    assistant.add("second", memory_id="a2")
    report = accept(person, ["a1"])
    assert report.accepted == ["a1"] and not report.all and report.mark is None
    assert git(person.root, "rev-parse", "-q", "--verify", REF, check=False) == ""
    state_file = person.journal.state_dir / ACCEPTED_FILE
    assert json.loads(state_file.read_text())["accepted"] == {"a1": _head(git, person)}
    assert oct(state_file.stat().st_mode & 0o777) == "0o600"
    again = Vault.open(vault_path)  # a new process: the state is on disk
    assert _ids(again) == ["a2"]
    assistant.update("a1", content="first, changed")  # a later change shows again
    assert sorted(_ids(again)) == ["a1", "a2"]
    accept(again, ["a1", "a2"])
    assert _ids(again) == []
    assert git(person.root, "rev-parse", REF) == _head(git, person)
    assert not state_file.exists()  # the mark covers everything: the set is cleared


def test_accept_upto_accepts_only_what_was_shown(person, assistant, git):
    assistant.add("shown", memory_id="a1")
    shown = review(person)
    assistant.add("arrived later", memory_id="a2")
    accept(person, upto=shown.head)
    assert _ids(person) == ["a2"]
    assert git(person.root, "rev-parse", REF) == shown.head


def test_accept_refuses_unknown_ids_and_memories_with_nothing_to_review(person, assistant):
    assistant.add("x", memory_id="a1")
    with pytest.raises(UnknownIdError, match="zzzz"):
        accept(person, ["zzzz"])
    with pytest.raises(VaultError, match="p1 has nothing to review"):
        accept(person, ["p1"])
    assert _ids(person) == ["a1"]


def test_reject_a_change_puts_it_back_in_one_commit(person, assistant, git):
    assistant.update("p1", content="the user hates pytest", meta={"tags": ["wrong"]})
    before = int(git(person.root, "rev-list", "--count", "HEAD"))
    report = reject(person, "p1")
    assert int(git(person.root, "rev-list", "--count", "HEAD")) == before + 1
    m = Vault.open(person.root).get("p1")
    assert m.content == "the user prefers pytest" and m.meta.tags == ["prefs"]
    subject = git(person.root, "log", "-1", "--format=%s")
    assert subject.startswith("reject: p1 ") and report.commit == _head(git, person)
    assert "Memvault-Via" not in git(person.root, "log", "-1", "--format=%B")
    assert inbox(person) == []  # rejected is reviewed


def test_a_reject_subject_never_carries_a_secret_cut_at_its_last_word(person, vault_path, git):
    """A secret the assistant stored (its policy allowed it) straddling the subject's cut is
    redacted before the words are cut: never half of it in the ``reject:`` subject."""
    allowing = Vault.open(vault_path, via="mcp/test", secrets="allow")
    text = "words words words words words words " + GITHUB + " tail"
    allowing.add(text, memory_id="s1")
    assert inbox(person)[0].preview.startswith("words words")
    reject(person, "s1")
    subject = git(person.root, "log", "-1", "--format=%s")
    assert subject.startswith("reject: s1 ") and GITHUB[:8] not in subject


def test_reject_refuses_over_a_persons_later_change_and_writes_nothing(person, assistant, git):
    assistant.update("p1", content="assistant's version")
    Vault.open(person.root).update("p1", content="the person's own version")
    (entry,) = inbox(person)
    assert entry.blocked and "you changed memory p1" in entry.blocked
    assert entry.later and entry.later[0].fields[0] == "content"
    head = _head(git, person)
    with pytest.raises(InboxRefusedError, match="nothing was written"):
        reject(person, "p1")
    assert _head(git, person) == head
    assert Vault.open(person.root).get("p1").content == "the person's own version"
    assert _ids(person) == ["p1"]  # still to review


def test_reject_keeps_a_persons_later_change_to_another_field_and_later_touches(
        person, assistant):
    assistant.archive("p1")
    Vault.open(person.root).update("p1", strength=1.7)
    assistant.touch("p1")
    (entry,) = inbox(person)
    assert entry.blocked is None and [c.fields for c in entry.later] == [("strength",)]
    report = reject(person, "p1")
    m = Vault.open(person.root).get("p1")
    assert m.status == "active" and m.strength == 1.7 and m.use_count == 1
    assert report.kept_fields == ["strength"] and report.kept_touches


def test_reject_an_add_and_a_delete_with_their_relations(person, assistant):
    assistant.add("invented fact", memory_id="a1")
    assistant.relate("a1", "p1", "supports")
    assistant.touch("a1")
    entries = {e.memory_id: e for e in inbox(person)}
    assert entries["a1"].relations[0].operation == "added"
    assert "p1" not in entries  # a relation-only commit belongs to its "from" memory
    report = reject(person, "a1")
    after = Vault.open(person.root)
    assert after.find("a1") is None and after.relations == {}
    assert len(report.relations) == 1
    person.relate("p2", "p1", "supports")
    assistant.delete("p2")
    (entry,) = inbox(person)
    assert entry.operation == "removed" and entry.relations[0].operation == "removed"
    reject(person, "p2")
    after = Vault.open(person.root)
    assert after.get("p2").content == "deploys happen on Tuesdays"
    assert len(after.relations_of("p2")) == 1


def test_reject_unknown_and_reviewed(person, assistant):
    with pytest.raises(UnknownIdError):
        reject(person, "nope")
    with pytest.raises(VaultError, match="nothing to review"):
        reject(person, "p1")


def test_other_clients_and_prefixes(person, vault_path):
    Vault.open(vault_path, via="mcp/claude-code").add("from claude", memory_id="abcd1234")
    Vault.open(vault_path, via="mcp/cursor").update("abcd1234", strength=2.0)
    (entry,) = inbox(person)
    assert entry.clients == ["mcp/claude-code", "mcp/cursor"] and len(entry.commits) == 2
    assert entry.operation == "added"
    accept(person, ["abcd"])
    assert inbox(person) == []


def test_a_change_the_person_already_undid_is_not_listed(person, assistant):
    assistant.archive("p1")
    assistant.add("invented", memory_id="a1")
    assistant.relate("a1", "p2", "supports")
    undo(person)  # the relation
    undo(person)  # the add
    undo(person)  # the archive
    assert inbox(person) == []


def test_a_vault_inside_a_larger_repository(tmp_path, git):
    outer = tmp_path / "notes"
    outer.mkdir()
    git(outer, "init", "-q")
    (outer / "README.md").write_text("my notes\n")
    Vault.open(outer / "memories-vault", inside_repo=True).add("a person's note", memory_id="p1")
    Vault.open(outer / "memories-vault", via="mcp/test").update("p1", content="the assistant's")
    v = Vault.open(outer / "memories-vault")
    (entry,) = inbox(v)
    assert entry.memory_id == "p1" and entry.changes[0].before == "a person's note"
    reject(v, "p1")
    assert Vault.open(outer / "memories-vault").get("p1").content == "a person's note"
    assert inbox(v) == []
