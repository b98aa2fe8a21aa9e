"""tui/app/inbox_service.py: the app's door to the review inbox: texts neutralised for the terminal,
the entries cached only while nothing moved, accept and reject with their notes, several
rejects stopping at the first refusal."""

from __future__ import annotations

import pytest

from core import Vault, VaultError
from tui.app.inbox_service import InboxService


@pytest.fixture
def vault_dir(tmp_path):
    path = tmp_path / "v"
    person = Vault.open(path)
    person.add("a person's note", memory_id="p1")
    person.add("another note", memory_id="p2")
    return path


def test_entries_are_neutralised_and_cached_until_something_moves(vault_dir):
    Vault.open(vault_dir, via="mcp/evil\x1b[2J").add("dark \x1b]0;title\x07 mode",
                                                    memory_id="a1", tags=["u\x1bi"])
    service = InboxService(vault_dir)
    view = service.review()
    (entry,) = view.entries
    shown = repr(entry.as_dict())
    assert "\x1b" not in entry.preview and "\x07" not in entry.preview
    assert all("\x1b" not in str(c.after) for c in entry.changes)
    assert "\\x1b" in entry.preview and "\x1b" not in entry.clients[0]
    assert "\x1b" not in shown.replace("\\x1b", "")
    assert service.review() is view  # nothing moved: the same answer
    Vault.open(vault_dir, via="mcp/test").archive("p1")
    assert service.count() == 2
    service.accept(["p1"])
    assert [e.memory_id for e in service.review().entries] == ["a1"]


def test_reject_and_reject_many(vault_dir):
    assistant = Vault.open(vault_dir, via="mcp/test")
    assistant.archive("p1")
    assistant.update("p2", content="the assistant's version")
    Vault.open(vault_dir).update("p2", content="the person's version")
    service = InboxService(vault_dir)
    with pytest.raises(VaultError, match="rejected 1 of 2; cannot reject p2"):
        service.reject_many(["p1", "p2"])
    assert Vault.open(vault_dir).get("p1").status.value == "active"
    assert [e.memory_id for e in service.review().entries] == ["p2"]
    result = service.accept(None, upto=service.review().head)
    assert result.note == "Accepted 1 entry (the review mark moved)"
    assert service.count() == 0


def test_a_persons_write_beside_the_entries_is_counted_without_reading_them_again(
        vault_dir, monkeypatch):
    """Issue 42: the count after each write of the app ran the whole review again (11 git
    processes on the demo). A person's commit that touches no memory with an entry leaves the
    entries as they were: the count is read from the commits in between; one that touches an
    entry's memory, or an assistant's, reads them again."""
    import core.ops.inbox as inbox

    Vault.open(vault_dir, via="mcp/test").add("the assistant's note", memory_id="a1")
    service = InboxService(vault_dir)
    assert service.count() == 1
    reviews = []
    real = inbox.review
    monkeypatch.setattr(inbox, "review", lambda v: reviews.append(1) or real(v))
    person = Vault.open(vault_dir)
    person.archive("p1")
    person.update("p2", content="edited by the person")
    view = service.review()
    assert [e.memory_id for e in view.entries] == ["a1"] and reviews == []
    assert view.head == person.journal.head()
    person.update("a1", content="the person's word on it")  # an entry's memory
    assert [e.later for e in service.review().entries] != [[]] and reviews == [1]
    Vault.open(vault_dir, via="mcp/test").add("another", memory_id="a2")
    assert service.count() == 2 and reviews == [1, 1]
