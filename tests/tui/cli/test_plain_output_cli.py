"""``list`` and ``stats`` piped print without rich (tui.cli.render_plain) the very lines rich's
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
                                  ["stats"]])
def test_piped_output_without_rich_is_rich_output(argv, varied, run, monkeypatch):
    plain, styled = both(run, monkeypatch, *argv)
    assert plain == styled
    assert plain.strip()


def test_an_empty_vault_says_so_the_same(vdir, run, monkeypatch):
    Vault.open(vdir).close()
    for argv in (["list"], ["stats"]):
        plain, styled = both(run, monkeypatch, *argv)
        assert plain == styled


def test_a_terminal_or_a_styled_pipe_is_left_to_rich(monkeypatch):
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert not render_plain.piped()
