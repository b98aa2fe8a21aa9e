"""``memvault search``: ranked hits with both parts of each score, snippets with the matches
marked (styled on a terminal, plain when piped, offsets in --json), the filters, and ``list
--query`` reading the same language."""

from __future__ import annotations

import re

from core.search import rank as rank_module
from core.search.rank import ALPHA

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

HOSTILE = "pytest \x1b]0;pwned\x07 [bold]fixtures[/bold] \x1b[2J with [x] brackets"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _vault(run):
    ids = {
        "fix": run.add("Prefers pytest fixtures over setUp methods", "--tag", "python"),
        "ci": run.add("CI runs pytest -n 2 on every push. " + "Long details follow. " * 20,
                      "--tag", "ci"),
        "ops": run.add("Never deploy on Fridays: the on-call rota is thin", "--tag", "ops"),
    }
    ids["old"] = run.add("pytest used to be slow here", "--tag", "python")
    run.ok("archive", ids["old"])
    return ids


def test_json_has_both_parts_the_formula_and_spans(run):
    ids = _vault(run)
    data = run.json("search", "pytest", "fixtures", "--mode", "bm25")
    assert data["mode"] == "bm25" and data["query"] == "pytest fixtures" and data["total"] == 2
    assert data["formula"].startswith("score = relevance") and data["alpha"] == ALPHA
    hit, other = data["hits"]  # every word, then one of them
    assert other["id"] == ids["ci"] and other["relevance"] < 0.5
    assert hit["id"] == ids["fix"] and hit["bm25"] > 0 and hit["relevance"] == 1.0
    assert hit["score"] == hit["relevance"] * (ALPHA + (1 - ALPHA) * min(1, hit["decay"]))
    snippet = hit["snippet"]
    assert [snippet["text"][a:b] for a, b in snippet["spans"]] == ["pytest", "fixtures"]
    assert hit["content"] == "Prefers pytest fixtures over setUp methods"


def test_mode_is_bm25_without_wordllama(run, monkeypatch):
    _vault(run)
    monkeypatch.setattr(rank_module, "semantic_available", lambda: False)
    assert run.json("search", "pytest")["mode"] == "bm25"
    data = run.json("search", "pytest", "--mode", "hybrid")
    assert data["mode"] == "bm25" and "wordllama" in data["notes"][0]


def test_filters_and_paging(run):
    ids = _vault(run)

    def found(*argv: str) -> list[str]:
        return [h["id"] for h in run.json("search", *argv, "--mode", "bm25")["hits"]]

    assert set(found("pytest")) == {ids["fix"], ids["ci"]}  # active only
    assert found("pytest", "--status", "archived") == [ids["old"]]
    assert found("pytest", "status:archived") == [ids["old"]]
    assert found("pytest", "--tag", "ci") == [ids["ci"]]
    assert found("pytest", "-tag:ci") == [ids["fix"]]
    assert len(found("pytest", "--limit", "1")) == 1
    assert found("pytest", "--limit", "1", "--offset", "1") == found("pytest")[1:]
    assert found('"on call"') == [ids["ops"]]
    assert found("NEAR(", "AND", "deploy*") == [ids["ops"]]  # words, never FTS5 syntax
    assert run.fails("search", code=2)  # QUERY is required


def test_piped_output_is_plain_full_width_lines(run):
    ids = _vault(run)
    out = run.ok("search", "pytest", "--mode", "bm25")
    header, *lines = out.strip().splitlines()
    assert header.split() == ["score", "relevance", "decay", "id", "status", "memory"]
    assert len(lines) == 2 and "\x1b[" not in out
    assert lines[0].split()[3] in (ids["fix"][:8], ids["ci"][:8])
    ci_line = next(line for line in lines if ids["ci"][:8] in line)
    assert ci_line.endswith("follow. Long details…") and len(ci_line) > 180  # not cut at 80
    assert "no memories match" in run.ok("search", "zebra", "--mode", "bm25")


def test_terminal_output_styles_matches_and_neutralises_controls(run, monkeypatch):
    memory_id = run.add(HOSTILE)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    out = run.ok("search", "fixtures", "--mode", "bm25")
    assert memory_id[:8] in out and "relevance 1.00" in out
    assert "\x1b[1;7m" in out or "\x1b[7;1m" in out  # the match, bold reverse
    for raw in ("\x1b]0;pwned", "\x1b[2J", "\x07"):
        assert raw not in out
    assert "\\x1b[2J" in out and "[bold]" in out and "[x]" in out  # shown, not interpreted
    monkeypatch.delenv("FORCE_COLOR")
    plain = run.ok("search", "fixtures", "--mode", "bm25")
    assert RAW.search(plain) is None and "[bold]fixtures[/bold]" in plain
    data = run.json("search", "fixtures", "--mode", "bm25")
    assert data["hits"][0]["content"] == HOSTILE  # JSON: the exact text


def test_list_query_takes_the_search_language(run):
    ids = _vault(run)

    def listed(query: str, *extra: str) -> set[str]:
        return {m["id"] for m in run.json("list", "--query", query, *extra)}

    assert listed("FIXTURES pytest") == {ids["fix"]}  # substrings, any case
    assert listed("pyt* tag:py*") == {ids["fix"], ids["old"]}
    assert listed("pytest -tag:ci status:active") == {ids["fix"]}
    assert listed('"on-call rota"') == {ids["ops"]}
    code, out, err = run("list", "--query", "pytest has:wings", "--json")
    assert code == 2 and "has:wings" in err and "nothing searched" in err and out == ""


def test_an_unknown_field_is_named_with_the_field_meant(run):
    _vault(run)
    err = run.fails("search", "tags:python", code=2)
    assert 'no field "tags" (did you mean tag:python?)' in err
    assert "nothing searched" in err  # not the whole vault, unranked
    code, out, err = run("list", "--query", "tags:py*", "--json")
    assert code == 2 and "did you mean tag:py*?" in err and out == ""


def test_a_filter_it_cannot_read_exits_2_with_nothing_searched(run):
    _vault(run)
    for query in ("score<abc", "pytest score<0.3x"):
        err = run.fails("search", query, code=2)
        assert "expected a number, like score<0.1" in err and "nothing searched" in err


def test_reindex_builds_the_index_anew_and_commits_nothing(run, vdir):
    import subprocess

    ids = _vault(run)
    head = subprocess.run(["git", "-C", str(vdir), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout
    index = vdir / ".git" / "memvault" / "index.sqlite"
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"not a database at all")  # a corrupt index
    data = run.json("reindex")
    assert data["memories"] == 4 and data["path"] == str(index)
    assert data["files"] == 4  # the files at HEAD, kept so that an open need not read them
    assert index.stat().st_mode & 0o077 == 0
    found = run.json("search", "fixtures", "--mode", "bm25")
    assert [h["id"] for h in found["hits"]] == [ids["fix"]]
    index.unlink()  # derived: deleting it loses nothing
    assert [h["id"] for h in run.json("search", "fixtures", "--mode", "bm25")["hits"]] == [ids["fix"]]
    assert subprocess.run(["git", "-C", str(vdir), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout == head
    status, out, _ = run("reindex")
    assert status == 0 and out.startswith("reindex: 4 memories indexed in ")
    assert out.rstrip().endswith("; 4 files kept for opening")
