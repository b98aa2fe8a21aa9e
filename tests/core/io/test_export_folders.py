"""Every folder an export or an import makes is 0700 (core.store.private.make_folders): the
file names of a basic-memory export are each memory's first line, and the import's
``.backup/`` holds the source's text, so no other local user may list them; a folder that was
there already is left as it is."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from core.io.basic_memory_export import export_basic_memory
from core.io.export import export_jsonl
from core.io.foreign_import import import_snapshot
from core.io.mcp_memory import read_mcp_memory
from core.io.mcp_memory_export import export_mcp_memory
from core.store.private import make_folders


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_make_folders_makes_every_missing_level_0700_under_a_loose_umask(tmp_path):
    old = os.umask(0o022)
    try:
        make_folders(tmp_path / "a" / "b" / "c")
    finally:
        os.umask(old)
    assert [mode(tmp_path / p) for p in ("a", "a/b", "a/b/c")] == [0o700] * 3
    (tmp_path / "shared").mkdir(mode=0o755)
    os.chmod(tmp_path / "shared", 0o755)
    make_folders(tmp_path / "shared" / "new")
    assert mode(tmp_path / "shared") == 0o755 and mode(tmp_path / "shared" / "new") == 0o700


def test_every_export_makes_its_folders_0700(vault, tmp_path):
    vault.add("Ada likes tea")
    old = os.umask(0o022)
    try:
        export_basic_memory(vault, tmp_path / "bm" / "project")
        export_mcp_memory(vault, tmp_path / "mcp" / "dir" / "memory.jsonl")
        export_jsonl(vault, tmp_path / "jsonl" / "dir")
    finally:
        os.umask(old)
    made = ["bm", "bm/project", "bm/project/memvault", "mcp", "mcp/dir", "jsonl", "jsonl/dir"]
    assert {p: oct(mode(tmp_path / p)) for p in made} == {p: "0o700" for p in made}


def test_the_backup_folder_of_an_import_is_0700(vault, tmp_path):
    source = tmp_path / "memory.jsonl"
    source.write_text('{"type":"entity","name":"Ada","entityType":"person"}\n', "utf-8")
    old = os.umask(0o022)
    try:
        report = import_snapshot(vault, read_mcp_memory(source))
    finally:
        os.umask(old)
    backup = vault.root / str(report.backup)
    assert oct(mode(backup.parent)) == "0o700" and oct(mode(backup)) == "0o700"
