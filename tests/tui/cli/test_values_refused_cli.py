"""The command line refuses values no record may hold (core.model.checks) with a clear error,
exit 1 and nothing committed: ``--strength inf`` and ``1e309`` (which once committed
``"strength": null``), text that is not valid UTF-8; ``migrate`` reports a line whose meta is
nested 250 levels deep and migrates the rest."""

from __future__ import annotations

import json

import pytest

from vault_support import run_git
from cli_support import cli_env, run, vdir  # noqa: F401  (fixtures)
from migrate_support import memory_line, write_store


@pytest.mark.parametrize("number", ["inf", "1e309", "-inf", "nan", "-1"])
def test_add_refuses_a_strength_that_is_not_a_finite_number_of_0_or_more(run, number):
    first = run.add("a first memory")
    head = run_git(run.vdir, "rev-parse", "HEAD")
    err = run.fails("add", "x", "--strength", number)
    assert "refused: strength" in err and "Traceback" not in err
    assert run_git(run.vdir, "rev-parse", "HEAD") == head
    assert [m["id"] for m in run.json("list")] == [first]


def test_add_refuses_undecodable_text(run):
    run.add("a first memory")
    err = run.fails("add", "bad \udcff byte")
    assert "not valid UTF-8" in err and "Traceback" not in err


def test_migrate_reports_a_line_nested_too_deep_and_migrates_the_rest(run, tmp_path):
    deep: dict = {}
    for _ in range(250):
        deep = {"a": deep}
    src = write_store(tmp_path / "cg", [
        json.dumps(memory_line("ok1")),
        json.dumps(memory_line("deep", meta={"tags": [], "extra": deep})),
        json.dumps(memory_line("ok2")),
    ])
    code, out, err = run("migrate", str(src))
    assert code == 0, err
    assert "Traceback" not in err and "memories.jsonl:2" in out + err
    assert "nested too deep" in out + err
    assert {m["id"] for m in run.json("list")} == {"ok1", "ok2"}
