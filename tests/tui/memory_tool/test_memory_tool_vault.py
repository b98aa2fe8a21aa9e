"""The memory tool on the vault: each write ONE commit named as the memory tool's (``Memvault-Via``,
``Memvault-Tool``), in the review inbox, checked for secrets; ``delete`` archives and undo brings
the file back; ``rename`` keeps the memory's id; a refusal writes nothing; the paths round-trip
through the vault. Driven through the SDK's own command objects and ``execute``, offline."""

from __future__ import annotations

import pytest
from anthropic.lib.tools import ToolError
from memory_tool_support import answer, command
from vault_support import commit_count, run_git

from core import MemoryStatus, Vault
from core.ops.inbox import inbox
from core.ops.revert import undo
from tui.memory_tool import PATH_KEY, VaultMemoryTool

NOTE = "/memories/prefs/coffee.md"


@pytest.fixture
def tool(vault):
    return VaultMemoryTool(vault)


def _trailers(vault: Vault) -> str:
    return run_git(vault.root, "log", "-1", "--format=%B")


def _only(vault: Vault):
    (memory,) = [m for m in vault.memories.values()]
    return memory


@pytest.mark.parametrize("name, fields, tool_trailer", [
    ("create", {"path": "/memories/new.md", "file_text": "Fresh"}, "create"),
    ("str_replace", {"path": NOTE, "old_str": "black", "new_str": "white"}, "str_replace"),
    ("insert", {"path": NOTE, "insert_line": 1, "insert_text": "at nine"}, "insert"),
    ("delete", {"path": NOTE}, "delete"),
    ("rename", {"old_path": NOTE, "new_path": "/memories/drinks.md"}, "rename"),
])
def test_each_write_is_one_commit_named_as_the_memory_tool(tool, vault, name, fields, tool_trailer):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\nblack\n"))
    before = commit_count(vault.root)
    tool.execute(command(name, **fields))
    assert commit_count(vault.root) == before + 1
    message = _trailers(vault)
    assert message.startswith(f"{'archive' if name == 'delete' else name}: ")
    assert "Memvault-Via: anthropic/memory-tool" in message
    assert f"Memvault-Tool: {tool_trailer}" in message


def test_a_view_writes_nothing(tool, vault):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
    before = commit_count(vault.root)
    tool.execute(command("view", path="/memories"))
    tool.execute(command("view", path=NOTE, view_range=[1, 1]))
    assert commit_count(vault.root) == before


def test_what_claude_wrote_is_in_the_review_inbox(tool, vault):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\nblack\n"))
    tool.execute(command("str_replace", path=NOTE, old_str="black", new_str="white"))
    (entry,) = inbox(vault)
    assert entry.operation == "added"
    assert entry.clients == ["anthropic/memory-tool"]
    assert len(entry.commits) == 2
    assert entry.exists


@pytest.mark.parametrize("name, fields", [
    ("create", {"path": "/memories/keys.md", "file_text": "deploy key AKIAIOSFODNN7EXAMPLE"}),
    ("str_replace", {"path": NOTE, "old_str": "black", "new_str": "AKIAIOSFODNN7EXAMPLE"}),
    ("insert", {"path": NOTE, "insert_line": 0, "insert_text": "key AKIAIOSFODNN7EXAMPLE"}),
])
def test_a_secret_is_refused_as_a_tool_error_and_nothing_is_written(tool, vault, name, fields):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\nblack\n"))
    head = vault.head
    with pytest.raises(ToolError, match="aws-key .*nothing was written"):
        tool.execute(command(name, **fields))
    assert vault.head == head
    assert "AKIA" not in _only(vault).content


@pytest.mark.parametrize("name, fields", [
    ("create", {"path": NOTE, "file_text": "twice"}),
    ("create", {"path": "/memories/prefs", "file_text": "a folder already"}),
    ("create", {"path": f"{NOTE}/under.md", "file_text": "inside a file"}),
    ("create", {"path": "/memories/empty.md", "file_text": " \n"}),
    ("create", {"path": "/elsewhere/x.md", "file_text": "outside"}),
    ("create", {"path": "/memories/../x.md", "file_text": "climbs out"}),
    ("create", {"path": "/memoriesX/x.md", "file_text": "beside the folder"}),
    ("create", {"path": "/memories/a\x1b[31m.md", "file_text": "a control character"}),
    ("str_replace", {"path": NOTE, "old_str": "absent", "new_str": "x"}),
    ("str_replace", {"path": NOTE, "old_str": "e", "new_str": "x"}),
    ("str_replace", {"path": NOTE, "old_str": "Likes coffee\nblack\n", "new_str": ""}),
    ("insert", {"path": NOTE, "insert_line": 3, "insert_text": "past the end"}),
    ("delete", {"path": "/memories"}),
    ("delete", {"path": "/memories/none.md"}),
    ("rename", {"old_path": NOTE, "new_path": NOTE}),
    ("rename", {"old_path": "/memories/prefs", "new_path": "/memories/prefs/inner"}),
    ("rename", {"old_path": NOTE, "new_path": "/tmp/coffee.md"}),
])
def test_a_refused_command_writes_nothing(tool, vault, name, fields):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\nblack\n"))
    head, files = vault.head, dict(vault.memories)
    with pytest.raises(ToolError):
        tool.execute(command(name, **fields))
    assert vault.head == head
    assert dict(vault.memories) == files
    assert not any(vault.root.parent.glob("*.md")) and not (vault.root / "x.md").exists()


def test_delete_archives_and_undo_brings_the_file_back(tool, vault):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
    memory_id = _only(vault).id
    assert tool.execute(command("delete", path=NOTE)) == f"Successfully deleted {NOTE}"
    archived = vault.get(memory_id)
    assert archived.status == MemoryStatus.ARCHIVED and archived.content == "Likes coffee\n"
    assert answer(tool, "view", path=NOTE).startswith("ToolError: The path")
    undo(vault)
    assert tool.execute(command("view", path=NOTE)).endswith("     1\tLikes coffee\n     2\t")


def test_deleting_a_folder_archives_its_memories_in_one_commit(tool, vault):
    for name in ("a.md", "b.md", "deep/c.md"):
        tool.execute(command("create", path=f"/memories/prefs/{name}", file_text=name))
    tool.execute(command("create", path="/memories/other.md", file_text="stays"))
    before = commit_count(vault.root)
    tool.execute(command("delete", path="/memories/prefs"))
    assert commit_count(vault.root) == before + 1
    statuses = sorted((m.content, m.status.value) for m in vault.memories.values())
    assert statuses == [("a.md", "archived"), ("b.md", "archived"), ("deep/c.md", "archived"),
                        ("stays", "active")]


def test_rename_keeps_the_memorys_id_and_text(tool, vault):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
    before = _only(vault)
    tool.execute(command("rename", old_path="/memories/prefs", new_path="/memories/kept/prefs"))
    after = _only(vault)
    assert (after.id, after.content, after.created_at) == (before.id, before.content,
                                                           before.created_at)
    assert after.meta.extra[PATH_KEY] == "/memories/kept/prefs/coffee.md"
    assert "Likes coffee" in tool.execute(command("view", path="/memories/kept/prefs/coffee.md"))


def test_paths_round_trip_through_the_vault_and_are_kept_as_written(tool, vault):
    tool.execute(command("create", path="/memories/a/./b/../c.md", file_text="x\r\n\ty  \n"))
    vault.close()
    with Vault.open(vault.root) as again:
        memory = _only(again)
        assert memory.meta.extra[PATH_KEY] == "/memories/a/c.md"
        assert memory.content == "x\r\n\ty  \n"  # byte-exact
        listing = VaultMemoryTool(again).execute(command("view", path="/memories"))
    assert listing.splitlines()[1:] == ["8B\t/memories", "8B\t/memories/a/", "8B\t/memories/a/c.md"]


def test_a_vault_opened_by_path_is_the_tools_own_and_closed_with_it(vault_path):
    with VaultMemoryTool(vault_path) as tool:
        tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
        assert tool.memory.vault.via == "anthropic/memory-tool"
    with Vault.open(vault_path, readonly=True) as seen:
        assert [m.meta.extra[PATH_KEY] for m in seen.memories.values()] == [NOTE]


def test_a_read_only_vault_answers_views_and_refuses_writes(vault):
    vault.add("Prefers pytest")
    vault.close()
    with Vault.open(vault.root, readonly=True) as readonly:
        tool = VaultMemoryTool(readonly)
        assert "prefers-pytest-" in tool.execute(command("view", path="/memories"))
        with pytest.raises(ToolError, match="read-only"):
            tool.execute(command("create", path=NOTE, file_text="x"))


def test_a_commit_of_another_process_is_seen_by_the_next_command(tool, vault):
    with Vault.open(vault.root) as other:
        other.add("Written by the command line meanwhile")
    assert "written-by-the-command-line" in tool.execute(command("view", path="/memories"))


def test_renaming_a_folder_moves_each_memory_in_one_commit(tool, vault):
    for name in ("a.md", "deep/b.md"):
        tool.execute(command("create", path=f"/memories/prefs/{name}", file_text=name))
    ids = sorted(m.id for m in vault.memories.values())
    before = commit_count(vault.root)
    tool.execute(command("rename", old_path="/memories/prefs", new_path="/memories/old/prefs"))
    assert commit_count(vault.root) == before + 1
    assert sorted(m.id for m in vault.memories.values()) == ids
    assert sorted(m.meta.extra[PATH_KEY] for m in vault.memories.values()) == [
        "/memories/old/prefs/a.md", "/memories/old/prefs/deep/b.md"]


def test_the_tool_may_name_your_agent_but_never_no_one(vault, vault_path):
    tool = VaultMemoryTool(vault, via="memory-tool/agent 7")
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
    assert "Memvault-Via: memory-tool/agent 7" in _trailers(vault)
    for nobody in ("", "  \n"):
        with pytest.raises(ValueError, match="via must name who writes"):
            VaultMemoryTool(vault_path.parent / "elsewhere", via=nobody)
    assert not (vault_path.parent / "elsewhere").exists()


def test_a_full_disk_is_a_tool_error_saying_nothing_was_written(tool, vault, monkeypatch):
    import errno

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Vault, "save", full)
    head = vault.head
    with pytest.raises(ToolError, match="^failed: No space left on device; nothing was written$"):
        tool.execute(command("create", path=NOTE, file_text="Likes coffee\n"))
    assert vault.head == head and not vault.memories


def test_an_edit_lands_on_what_another_process_wrote_meanwhile_never_over_it(tool, vault):
    tool.execute(command("create", path=NOTE, file_text="Likes coffee\nblack\n"))
    memory_id = _only(vault).id
    with Vault.open(vault.root) as person:
        person.update(memory_id, content="Likes tea now\nblack\n")
    tool.execute(command("str_replace", path=NOTE, old_str="black", new_str="white"))
    assert vault.get(memory_id).content == "Likes tea now\nwhite\n"


def test_commands_from_several_threads_at_once_each_commit_once(tool, vault):
    import threading

    before = commit_count(vault.root)
    errors: list[BaseException] = []

    def write(n: int) -> None:
        try:
            for k in range(3):
                tool.execute(command("create", path=f"/memories/t{n}/{k}.md", file_text=f"{n}.{k}"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and not any(t.is_alive() for t in threads)
    assert commit_count(vault.root) == before + 9
    assert sorted(m.content for m in vault.memories.values()) == sorted(
        f"{n}.{k}" for n in range(3) for k in range(3))
