"""The CLI's warnings of vault files that are no record (tui/cli/problems.py): a verb warns of
those known when it asks without checking the records an open after a clone holds unchecked,
and of those its own reads then found when it ends; a bad file it shows or uses is never
silent."""

from __future__ import annotations

import pytest

from core import Vault
from core.search import index_path
from tui.cli import problems

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)


def _after_a_clone(run: Run, bad: str) -> tuple[str, str]:
    """Two memories, a relation and a file ``bad`` (vault-relative) that is no record; the
    open index dropped. Returns the two memories' ids."""
    first = run.add("Never deploy on Fridays")
    second = run.add("We deploy on Tuesdays")
    run.ok("relate", first, second, "related")
    (run.vdir / bad).write_text("{not json")
    index_path(run.vdir).unlink(missing_ok=True)
    return first, second


def test_warning_of_problems_checks_no_record(run, capsys):
    _after_a_clone(run, "relations/broken.json")
    vault = Vault.open(run.vdir, readonly=True, keep_read=True)  # (its relations unchecked)
    assert vault.store.unchecked
    problems.forget_warned()
    problems.warn_problems(vault)
    assert vault.store.unchecked and capsys.readouterr().err == ""
    assert len(vault.relations) == 1  # (listing them checks them all)
    problems.warn_later_problems([])
    err = capsys.readouterr().err
    assert "1 vault file could not be read" in err and "broken.json" in err
    problems.warn_later_problems([])  # (said once)
    assert capsys.readouterr().err == ""
    vault.close()


def test_a_later_problem_is_one_more_when_some_were_said(run, capsys):
    _after_a_clone(run, "relations/broken.json")
    (run.vdir / "memories" / "junk.txt").write_text("not a record")
    vault = Vault.open(run.vdir, readonly=True, keep_read=True)
    problems.forget_warned()
    problems.warn_problems(vault)
    assert "junk.txt" in capsys.readouterr().err
    vault.store.settle()
    problems.warn_later_problems([])
    err = capsys.readouterr().err
    assert "1 more vault file could not be read" in err and "broken.json" in err
    assert "junk.txt" not in err
    vault.close()


def test_a_search_after_a_clone_warns_of_a_broken_memory_file(run):
    _after_a_clone(run, "memories/" + "ab" * 13 + ".json")
    code, out, err = run("search", "deploy", "--json")
    assert code == 0 and '"hits"' in out
    assert "could not be read" in err and "ab" * 13 in err


def test_a_broken_relation_file_is_said_by_the_verb_that_uses_relations(run):
    """A search never reads relations: it says nothing of a broken relation file, and the
    next verb that uses them (stats counts them) says it, when it ends."""
    _after_a_clone(run, "relations/broken.json")
    code, _, err = run("search", "deploy", "--json")
    assert code == 0 and "could not be read" not in err
    code, out, err = run("stats")
    assert code == 0 and "could not be read" in err and "broken.json" in err


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The id of every record file parsed (checked), in order."""
    from core.store import record_loading
    from core.vault import loading

    seen: list[str] = []
    real = record_loading.check_record

    def spy(model, record_id, data):
        seen.append(record_id)
        return real(model, record_id, data)

    monkeypatch.setattr(record_loading, "check_record", spy)
    monkeypatch.setattr(loading, "check_record", spy)
    return seen


def test_showing_a_memory_after_a_clone_parses_that_one(run, parsed):
    bad = "ab" * 13
    first, second = _after_a_clone(run, f"memories/{bad}.json")
    parsed.clear()
    code, out, err = run("show", first, "--json")
    assert code == 0 and first in out and err == ""
    assert first in parsed and bad not in parsed  # (its relation and their other end too)


def test_showing_a_broken_memory_file_after_a_clone_says_why(run):
    bad = "ab" * 13
    _after_a_clone(run, f"memories/{bad}.json")
    code, _, err = run("show", bad)
    assert code == 1 and f"{bad}.json" in err and "not valid JSON" in err
