"""``core`` stands alone: importing it pulls in neither textual nor rich, and not GitPython."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import core

UI_PACKAGES = ("textual", "rich")


def _modules_after(code: str, cwd: Path) -> list[str]:
    script = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _offending(modules: list[str], packages: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)]


def _core_modules() -> list[str]:
    names = sorted(m.name for m in pkgutil.walk_packages(core.__path__, "core."))
    assert {"core.vault", "core.cortexgraph_storage", "core.decay", "core.model.records", "core.model.config",
            "core.store.layout", "core.store.cache", "core.git.journal", "core.ops.split",
            "core.sync.engine", "core.sync.merge_driver", "core.io.migrate"} <= set(names)
    return names


def test_core_imports_neither_textual_nor_rich(tmp_path):
    imports = "\n".join(f"import {name}" for name in ["core", *_core_modules()])
    modules = _modules_after(imports, tmp_path)
    assert "core.vault" in modules and "core.cortexgraph_storage" in modules
    assert _offending(modules, UI_PACKAGES) == []


def test_using_core_imports_neither_textual_nor_rich(tmp_path):
    code = f"""
import core
from core import Vault, PerFileStorage
v = Vault.open({str(tmp_path / 'v')!r})
m = v.add("hello")
v.touch(m.id)
v.history(m.id)
v.gc(dry_run=True)
v.stats()
with PerFileStorage(storage_path={str(tmp_path / 'v')!r}) as s:
    s.get_knowledge_graph()
"""
    modules = _modules_after(code, tmp_path)
    assert "git" in modules  # writing does use GitPython...
    assert _offending(modules, UI_PACKAGES) == []  # ...but never the UI libraries


def test_import_core_does_not_import_git(tmp_path):
    modules = _modules_after("import core", tmp_path)
    assert "core" in modules
    assert _offending(modules, ("git",)) == []
    assert _offending(modules, UI_PACKAGES) == []


def test_reading_a_vault_does_not_import_git(tmp_path):
    from core import Vault

    Vault.open(tmp_path / "v").add("something to read")
    code = f"""
from core import Vault
v = Vault.open({str(tmp_path / 'v')!r}, readonly=True)
assert len(v.memories) == 1, v.memories
v.search("something")
"""
    modules = _modules_after(code, tmp_path)
    assert _offending(modules, ("git",)) == []
