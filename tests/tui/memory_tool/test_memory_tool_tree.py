"""The vault laid out as the memory tool's files: a memory added elsewhere shows at its first
words and keeps that path from its first write through the tool; two memories claiming one path
(an archived one brought back), or a claim making a file a folder, both stay shown at paths of
their own; a path kept in a memory that climbs out of ``/memories`` (a person's edit, a sync)
never reaches a file system."""

from __future__ import annotations

import pytest
from anthropic.lib.tools import ToolError
from memory_tool_support import command

from core import Memory, MemoryMetadata
from tui.memory_tool import PATH_KEY, VaultMemoryTool
from tui.memory_tool.paths import checked_path
from tui.memory_tool.tree import MemoryTree


def _listing(tool: VaultMemoryTool) -> list[str]:
    return [line.split("\t")[1] for line in
            tool.execute(command("view", path="/memories")).splitlines()[1:]]


def test_a_memory_added_elsewhere_shows_at_its_first_words(vault):
    memory = vault.add("Prefers pytest over unittest", tags=["prefs"])
    tool = VaultMemoryTool(vault)
    path = f"/memories/prefers-pytest-over-unittest-{memory.id[:8]}.md"
    assert _listing(tool) == ["/memories", path]
    assert tool.execute(command("view", path=path)).endswith("1\tPrefers pytest over unittest")


def test_its_path_is_kept_at_its_first_write_so_an_edit_does_not_move_it(vault):
    memory = vault.add("Prefers pytest over unittest")
    tool = VaultMemoryTool(vault)
    path = f"/memories/prefers-pytest-over-unittest-{memory.id[:8]}.md"
    tool.execute(command("str_replace", path=path, old_str="pytest", new_str="nose"))
    assert vault.get(memory.id).meta.extra[PATH_KEY] == path
    assert _listing(tool) == ["/memories", path]


def test_a_secret_in_the_first_words_never_reaches_the_path(vault):
    memory = vault.acting_for(secrets="allow").add("AKIAIOSFODNN7EXAMPLE is the deploy key")
    tool = VaultMemoryTool(vault)
    path = f"/memories/redacted-aws-key-is-the-deploy-key-{memory.id[:8]}.md"
    assert _listing(tool) == ["/memories", path]
    tool.execute(command("str_replace", path=path, old_str="deploy", new_str="release"))
    assert vault.get(memory.id).meta.extra[PATH_KEY] == path


def _memory(content: str, path: object, created: int) -> Memory:
    return Memory(id=f"{created:08d}-0000-4000-8000-000000000000", content=content,
                  created_at=created, last_used=created,
                  meta=MemoryMetadata(extra={PATH_KEY: path} if path is not None else {}))


def test_two_memories_claiming_one_path_are_both_shown():
    older, newer = _memory("older", "/memories/a.md", 1), _memory("newer", "/memories/a.md", 2)
    tree = MemoryTree.of([newer, older])
    assert tree.files["/memories/a.md"] is older
    assert tree.path_of(newer.id) == "/memories/newer-00000002.md"
    assert tree.unkept == {newer.id}


def test_a_claim_making_a_file_a_folder_is_shown_apart():
    file, inside = _memory("file", "/memories/a", 1), _memory("inside", "/memories/a/b.md", 2)
    tree = MemoryTree.of([file, inside])
    assert tree.files["/memories/a"] is file
    assert tree.path_of(inside.id) == "/memories/inside-00000002.md"


@pytest.mark.parametrize("kept", ["../../etc/passwd", "/memories/../../etc/passwd", "/etc/x",
                                  "/memories", 42, None, "/memories/a\x00b"])
def test_a_path_kept_badly_shows_the_memory_at_a_path_of_its_own(kept):
    memory = _memory("Some note", kept, 1)
    assert MemoryTree.of([memory]).path_of(memory.id) == "/memories/some-note-00000001.md"


def test_a_made_name_taken_by_a_kept_path_falls_back_to_the_id():
    first = _memory("Some note", "/memories/some-note-00000002.md", 1)
    second = _memory("Some note", None, 2)
    tree = MemoryTree.of([first, second])
    assert tree.path_of(second.id) == f"/memories/{second.id}.md"


def test_archived_memories_are_not_files(vault):
    kept, gone = vault.add("Kept note"), vault.add("Gone note")
    vault.archive(gone.id)
    assert _listing(VaultMemoryTool(vault)) == ["/memories", f"/memories/kept-note-{kept.id[:8]}.md"]


@pytest.mark.parametrize("raw, canonical", [
    ("/memories", "/memories"), ("/memories/", "/memories"), ("/memories//a///b", "/memories/a/b"),
    ("/memories/a/./b/..", "/memories/a"), ("/memories/a/../../memories/b", None),
    ("/memoriesX", None), ("memories/a", None), ("/memories/\u009b2J", None),
])
def test_a_path_is_read_as_text_only(raw, canonical):
    if canonical is None:
        with pytest.raises(ToolError):
            checked_path(raw)
    else:
        assert checked_path(raw) == canonical


def test_a_made_name_is_made_once_while_the_memorys_text_stays(vault, monkeypatch):
    import tui.memory_tool.tree as tree_module

    made: list[str] = []
    real = tree_module.slug
    monkeypatch.setattr(tree_module, "slug", lambda m: made.append(m.id) or real(m))
    memory = vault.add("Prefers pytest")
    tool = VaultMemoryTool(vault)
    for _ in range(3):
        tool.execute(command("view", path="/memories"))
    assert made == [memory.id]
    vault.update(memory.id, content="Prefers nose")
    assert _listing(tool)[1].startswith("/memories/prefers-nose-")
    assert made == [memory.id, memory.id]
