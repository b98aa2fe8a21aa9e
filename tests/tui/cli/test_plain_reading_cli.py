"""A command that only reads makes its records without the models
(core.model.plain_records); a command that writes, and whatever runs after a command in the
same process, gets models, so a plain record is never written."""

from __future__ import annotations

import json

from core import Memory, Vault
from core.model import plain_records
from tui.cli import common
from tui.cli import records as records_cli

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


def test_reading_verbs_read_plainly_and_leave_models_behind(run, vdir, monkeypatch):
    memory_id = run.add("Prefers pytest fixtures", "--tag", "python")
    plainly: list[bool] = []
    real = common.open_readonly

    def spy(*args, **kwargs):
        vault = real(*args, **kwargs)
        plainly.append(plain_records.reading_plainly())
        return vault

    monkeypatch.setattr(records_cli, "open_readonly", spy)
    shown = run.json("show", memory_id[:8])
    assert "Prefers pytest fixtures" in run.ok("list")
    assert plainly == [True, True]
    assert shown["content"] == "Prefers pytest fixtures" and shown["meta"]["tags"] == ["python"]
    assert not plain_records.reading_plainly()  # the command ended: models again
    vault = Vault.open(vdir)
    assert type(vault.get(memory_id)) is Memory
    vault.add("written after a reading command")


def test_a_command_that_reads_then_writes_writes_models(run, vdir, monkeypatch):
    """``init --layout`` on a vault that exists reads it, then opens it to write: models from
    the write's open on."""
    memory_id = run.add("Uses pytest with plain assert")
    plainly: list[bool] = []
    real = common.open_writable

    def spy(*args, **kwargs):
        vault = real(*args, **kwargs)
        plainly.append(plain_records.reading_plainly())
        return vault

    monkeypatch.setattr(records_cli, "open_writable", spy)
    out = run.ok("init", "--layout", "flat")
    assert "already exists" in out and plainly == [False]
    assert not plain_records.reading_plainly()
    run.ok("touch", memory_id[:8])
    assert json.loads((vdir / "memories" / f"{memory_id}.json").read_text())["use_count"] == 1
