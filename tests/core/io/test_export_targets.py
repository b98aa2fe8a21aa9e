"""Where an export writes (core.io.export_files): every target checked before anything is
written, so an export that cannot finish leaves nothing behind; a symbolic link named as the
target is refused and what it points at untouched; the report names the path as given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vault_support import FIXTURES
from core import VaultError
from core.io.basic_memory import read_basic_memory
from core.io.basic_memory_export import export_basic_memory
from core.io.export import export_jsonl
from core.io.export_files import export_targets
from core.io.foreign_import import import_snapshot
from core.io.mcp_memory_export import export_mcp_memory

NOTES = FIXTURES / "basic-memory" / "notes"


def files_under(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_basic_memory_export_that_cannot_finish_writes_nothing(vault, tmp_path):
    import_snapshot(vault, read_basic_memory(NOTES))
    vault.add("a memory from elsewhere")  # its note goes to memvault/, which is a file there
    out = tmp_path / "out"
    out.mkdir()
    (out / "memvault").write_text("a person's file\n", "utf-8")
    with pytest.raises(VaultError, match="memvault is not a folder; nothing was written"):
        export_basic_memory(vault, out)
    assert files_under(out) == ["memvault"]


def test_an_existing_note_is_refused_before_any_is_written(vault, tmp_path):
    import_snapshot(vault, read_basic_memory(NOTES))
    out = tmp_path / "out"
    (out / "equipment").mkdir(parents=True)
    (out / "equipment" / "Burr Grinder.md").write_text("mine\n", "utf-8")
    with pytest.raises(VaultError, match="Burr Grinder.md exists"):
        export_basic_memory(vault, out)
    assert files_under(out) == ["equipment", "equipment/Burr Grinder.md"]


def test_a_file_that_would_be_another_files_folder_is_refused(tmp_path):
    with pytest.raises(VaultError, match="both a file and a folder"):
        export_targets(tmp_path, ["a.md", "a.md/b.md"], force=False)


def test_an_export_to_a_symbolic_link_is_refused_and_its_target_untouched(vault, tmp_path):
    vault.add("Ada likes tea")
    real = tmp_path / "real.jsonl"
    real.write_text("", "utf-8")
    link = tmp_path / "memory.jsonl"
    link.symlink_to(real)
    with pytest.raises(VaultError, match="memory.jsonl is a symbolic link"):
        export_mcp_memory(vault, link, force=True)
    assert link.is_symlink() and real.read_text("utf-8") == ""
    folder = tmp_path / "jsonl"
    folder.mkdir()
    (folder / "memories.jsonl").symlink_to(real)
    with pytest.raises(VaultError, match="memories.jsonl is a symbolic link"):
        export_jsonl(vault, folder, force=True)
    assert files_under(folder) == ["memories.jsonl"] and real.read_text("utf-8") == ""


def test_the_report_names_the_path_as_given(vault, tmp_path):
    vault.add("Ada likes tea")
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    given = tmp_path / "link" / "sub" / "memory.jsonl"
    report = export_mcp_memory(vault, given)
    assert report.path == os.path.abspath(given)
    assert (tmp_path / "real" / "sub" / "memory.jsonl").is_file()
