"""A big vault's relations loaded by a forked child while the open loads the memories
(core.store.relations_in_child): the same relations, problems, kept bytes and file stamps as the
open's own load; and whenever the child cannot be used (threads running, a child that fails),
the open loads the folder itself."""

from __future__ import annotations

import os
import threading

import pytest

from core import Vault
from core.search import index_path
from core.store import forked, relations_in_child
from core.vault import opening
from core.store.relations_in_child import RelationsInChild


@pytest.fixture(autouse=True)
def one_thread(monkeypatch):
    """Forking allowed (a test runner's worker runs threads of its own: the rule is tested
    alone, below)."""
    monkeypatch.setattr(forked, "fork_is_safe", lambda: True)


@pytest.fixture
def related(related_vault):
    """A vault with relations, one of them a broken file."""
    return related_vault[0]


@pytest.fixture
def started(monkeypatch) -> list[bool]:
    """Whether each RelationsInChild made (in order) forked its child."""
    made: list[bool] = []
    real_init = RelationsInChild.__init__

    def spy(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self.started)

    monkeypatch.setattr(RelationsInChild, "__init__", spy)
    return made


def _loaded(root, monkeypatch, child_from: int) -> Vault:
    monkeypatch.setattr(relations_in_child, "CHILD_FROM", child_from)
    monkeypatch.setattr(opening, "READONLY_INDEX_FROM", 1)  # (the bytes kept: a small vault)
    return Vault.open(root, readonly=True, keep_read=True)


def _relations_of(vault: Vault) -> dict:
    return {i: r.model_dump() for i, r in vault.relations.items()}


def test_the_child_loads_what_the_open_loads(related, monkeypatch, started):
    by_child = _loaded(related.root, monkeypatch, 1)
    itself = _loaded(related.root, monkeypatch, 10**9)
    assert started == [True, False]
    assert _relations_of(by_child) == _relations_of(itself) and len(_relations_of(itself)) == 5
    assert [(str(p.path), p.reason) for p in by_child.problems] == [
        (str(p.path), p.reason) for p in itself.problems] and len(itself.problems) == 1
    kept = itself.open_index.read_at_open
    assert by_child.open_index.read_at_open == kept
    assert sum(path.startswith("relations/") for path in kept) == 5
    relation_paths = {p for p in itself.state.layout.seen if "/relations/" in p}
    assert relation_paths and {p: by_child.state.layout.seen[p] for p in relation_paths} == {
        p: itself.state.layout.seen[p] for p in relation_paths}


def test_no_fork_while_other_threads_run(related, monkeypatch):
    monkeypatch.undo()  # (the real rule)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forked.fork_is_safe()
        assert not RelationsInChild(related.root, related.root / "relations").started
    finally:
        release.set()
        other.join()


def test_a_child_that_fails_leaves_the_folder_to_the_open(related, monkeypatch):
    def fails(root):
        raise RuntimeError("the child's load failed")

    monkeypatch.setattr(relations_in_child, "load", fails)
    monkeypatch.setattr(relations_in_child, "CHILD_FROM", 1)
    child = RelationsInChild(related.root, related.root / "relations")
    assert child.started and child.result() is None and not child.started
    opened = _loaded(related.root, monkeypatch, 1)
    assert len(opened.relations) == 5 and len(opened.problems) == 1


def test_a_child_not_waited_for_is_stopped(related, monkeypatch):
    monkeypatch.setattr(relations_in_child, "CHILD_FROM", 1)
    child = RelationsInChild(related.root, related.root / "relations")
    pid = child.pid
    assert pid is not None
    child.stop()
    assert not child.started
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # reaped


def test_a_writers_open_loads_its_relations_itself(related, monkeypatch, started):
    monkeypatch.setattr(relations_in_child, "CHILD_FROM", 1)
    for leftover in index_path(related.root).parent.glob("index.sqlite*"):
        leftover.unlink()  # (every file read)
    with Vault.open(related.root) as writer:
        assert len(writer.relations) == 5
    assert started == [False]
