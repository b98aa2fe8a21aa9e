"""A memory without a gist: the detail pane says why (core.gist.reasons), briefly."""

from __future__ import annotations

import pytest

from core import Memory, Vault
from tui.app.widgets.detail import DetailPane

from tui_support import said, FADING, NOW, SIZE, goto, make_app, settle, text_of, until
from tui_support import tui_vault  # noqa: F401  (fixture)

pytestmark = pytest.mark.asyncio

FACT_BOUND_ID = "f0f0f0f0-0000-4000-8000-000000000001"
FACT_BOUND = (
    "The 'gzip' tool reads files ending in '.gz' and writes files of up to 4 GiB; it does not "
    "keep the original unless '-k' is given, and 'gunzip -c' writes to stdout, never to a file "
    "named in '$GZIP' or in '~/.gziprc'."
)


def _with_a_fact_bound_note(path):
    """The app on the test vault plus FACT_BOUND, a note no gist can shorten."""
    vault = Vault.open(path)
    vault.save(Memory(id=FACT_BOUND_ID, content=FACT_BOUND, created_at=NOW, last_used=NOW))
    vault.close()
    return make_app(path)


async def test_the_detail_pane_says_why_a_memory_has_no_gist(tui_vault):
    app = _with_a_fact_bound_note(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        title = app.main_screen.query_one(DetailPane).query_one("#body-title")
        await goto(pilot, FACT_BOUND_ID)
        assert "(no gist: every clause holds a number, identifier or negation)" in " ".join(
            text_of(title).split())
        await goto(pilot, FADING)  # a short note: the content is its own gist, as before
        assert "(no gist: showing the content)" in text_of(title)


async def test_c_on_a_memory_with_no_gist_says_why_nothing_changed(tui_vault):
    app = _with_a_fact_bound_note(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, FACT_BOUND_ID)
        await pilot.press("c")
        await until(pilot, lambda: any("has no gist" in str(n.message)
                                       for n in said(app)))
        told = [str(n.message) for n in said(app) if "has no gist" in str(n.message)]
        assert "now show their content" in told[0] and "memvault gist f0f0f0f0" in told[0]


HUGE_ID = "f0f0f0f0-0000-4000-8000-000000000002"


async def test_a_huge_memory_shows_its_beginning_and_size_not_all_of_it(tui_vault, monkeypatch):
    """700 KB of content (a memory may hold 16 MiB): the pane shows its first characters and
    says how big it is; it never reads the whole into the pane nor the gist's reasons."""
    from core.vault import records
    from tui.text import PANE_PREVIEW

    monkeypatch.setattr(records, "make_gist", lambda *args, **kwargs: None)
    vault = Vault.open(tui_vault)
    vault.save(Memory(id=HUGE_ID, content="the morning coffee ran late " * 25_000,
                      created_at=NOW, last_used=NOW))
    vault.close()
    app = make_app(tui_vault)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = app.main_screen.query_one(DetailPane)
        await goto(pilot, HUGE_ID)
        body = pane.query_one("#body").render()
        assert str(body).endswith("… (700 KB)") and len(str(body)) < PANE_PREVIEW + 20
        assert f"showing its first {PANE_PREVIEW:,} characters of 700 KB" in " ".join(
            text_of(pane.query_one("#body-title")).split())
