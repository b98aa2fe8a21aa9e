"""``list``, ``search``, ``stats`` and ``show`` piped print without rich (tui.cli.render_plain) the very lines rich's
output off a terminal prints (tui.cli.render, which ``TTY_COMPATIBLE=0`` makes them use)."""

from __future__ import annotations

import pytest

from core import Memory, MemoryMetadata, MemoryStatus, Vault
from core.model.records import now_epoch
from tui.cli import render_plain

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

DAY = 86400


@pytest.fixture
def varied(vdir):
    """Memories with what a line must show safely: control characters, line breaks and tabs,
    a text longer than a line shows, tags, every status, a relation, an old last use."""
    now = now_epoch()
    texts = ["Prefers dark mode\nin every editor", "tab\there and \x1b[31mred\x1b[0m",
             "long " * 400, "ünïcödé ✓ wide 字字", "[bold]not markup[/bold] 100%"]
    with Vault.open(vdir) as vault:
        made = []
        for n, (text, status) in enumerate(zip(texts, MemoryStatus)):
            made.append(vault.save(Memory(
                id=f"m{n}", content=text, gist="a gist\x07" if n == 3 else None,
                status=status, use_count=n * 7, last_used=now - n * 40 * DAY,
                meta=MemoryMetadata(tags=["tag, with comma", f"t{n}"] if n % 2 else []))))
        vault.relate(made[0].id, made[1].id, "supports")
    return vdir


def both(run, monkeypatch, *argv: str) -> tuple[str, str]:
    """(the plain lines, rich's lines off a terminal) of one command."""
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert render_plain.piped()
    plain = run.ok(*argv)
    monkeypatch.setenv("TTY_COMPATIBLE", "0")  # rich's own pipe output
    assert not render_plain.piped()
    styled = run.ok(*argv)
    return plain, styled


@pytest.mark.parametrize("argv", [["list"], ["list", "--sort", "created"],
                                  ["list", "--status", "archived"], ["list", "--query", "zzz"],
                                  ["stats"], ["search", "editor"], ["search", "red", "tab"],
                                  ["search", "long", "--limit", "1", "--offset", "1"],
                                  ["search", "zzz"], ["search", "t1", "-tag:t3"],
                                  ["search", "tag:t1", "--status", "archived"]])
def test_piped_output_without_rich_is_rich_output(argv, varied, run, monkeypatch):
    plain, styled = both(run, monkeypatch, *argv)
    assert plain == styled
    assert plain.strip()


@pytest.mark.parametrize("memory_id", ["m0", "m1", "m2", "m3", "gone"])
def test_piped_show_without_rich_is_rich_output(memory_id, varied, run, monkeypatch):
    """Every field, a gist, a content of several lines or with a tab (rich prints that one),
    relations both ways, and one whose other end was deleted (named, from history)."""
    if memory_id == "gone":
        with Vault.open(varied) as vault:
            vault.save(Memory(id="m5", content="context:\tnone\n[dim]x", gist="g",
                              status=MemoryStatus.PROMOTED, promoted_at=now_epoch(),
                              entities=["vim"], meta=MemoryMetadata(
                                  tags=["t"], source="chat\x1b[2J", context="two\nlines")))
            vault.relate("m5", "m0", "related", strength=0.25)
            vault.relate("m2", "m5", "causes")
            vault.delete("m0")
        memory_id = "m5"
    plain, styled = both(run, monkeypatch, "show", memory_id)
    assert plain == styled
    assert "content" in plain


def test_an_empty_vault_says_so_the_same(vdir, run, monkeypatch):
    Vault.open(vdir).close()
    for argv in (["list"], ["stats"], ["search", "editor"]):
        plain, styled = both(run, monkeypatch, *argv)
        assert plain == styled


def test_a_terminal_or_a_styled_pipe_is_left_to_rich(monkeypatch):
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not render_plain.piped()


def test_a_search_note_holding_a_tab_is_left_to_rich():
    """rich expands a tab and wraps at its width: such a note is printed by rich."""
    from core.search import parse
    from core.search.rank import SearchResult

    result = SearchResult(query=parse("x"), hits=[], ranking=None, mode="bm25",  # type: ignore[arg-type]
                          notes=["one\ttwo"])
    assert render_plain.search_lines(None, result) is None  # type: ignore[arg-type]
    result.notes = ["one two"]
    assert render_plain.search_lines(type("V", (), {"memories": {}})(), result) == [
        "note: one two", "the vault holds no memories yet"]
