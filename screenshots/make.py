"""Regenerate the pictures of the app: ``python screenshots/make.py``.

Builds the demo vault (``tui.demo``) in a temporary folder with a fixed clock and seed, opens the
app on it headless at 120x40 with the same clock, and saves one SVG per view into this folder,
plus a PNG of each when ``rsvg-convert`` is installed (Debian/Ubuntu: ``librsvg2-bin``).
The split and merge results get fresh ids from core, so those ids differ from run to run;
everything else (memories, ages, scores, commit dates) is the same every time.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

NOW = 1_750_000_000  # 2025-06-15 15:06 UTC
SIZE = (120, 40)
SMALL = (80, 24)  # a picture whose name ends in -80x24: the smallest terminal the app is made for

os.environ["TZ"] = "UTC"
time.tzset()
for var in [v for v in os.environ if v.startswith("CORTEXGRAPH_") or v == "MEMVAULT_PATH"]:
    del os.environ[var]
os.environ.setdefault("GIT_AUTHOR_NAME", "memvault demo")
os.environ.setdefault("GIT_AUTHOR_EMAIL", "demo@memvault.invalid")
os.environ.setdefault("GIT_COMMITTER_NAME", "memvault demo")
os.environ.setdefault("GIT_COMMITTER_EMAIL", "demo@memvault.invalid")

from tui.app import MemvaultApp  # noqa: E402
from tui.demo import build_demo  # noqa: E402
from tui.app.service import VaultService  # noqa: E402

Step = Callable[[object], Awaitable[None]]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    from textual.worker import WorkerCancelled

    for _ in range(3):
        await pilot.pause(0.05)
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            pass
        await pilot.pause()


def find(view, words: str) -> str:  # type: ignore[no-untyped-def]
    """The id of the living memory whose text contains ``words``."""
    hits = sorted(i for i, row in view.rows.items() if words.lower() in row.hay)
    if not hits:
        raise SystemExit(f"screenshots: no memory mentions {words!r}")
    return hits[0]


async def shoot(vault: Path, name: str, steps: Callable[[object, object], Awaitable[None]]) -> Path:
    service = VaultService(vault, clock=lambda: NOW)
    service.open()
    from tui.app.settings import Loaded, Settings

    # every picture from the default settings (what one picture changes is saved, not reused)
    app = MemvaultApp(service, poll_interval=0, rescore_interval=0, settings=Loaded(Settings()))
    app.pane_delay = 0.0
    async with app.run_test(size=SMALL if name.endswith("-80x24") else SIZE) as pilot:
        await settle(pilot)
        await steps(app, pilot)
        await settle(pilot)
        svg = app.export_screenshot(title="memvault")
    # librsvg drops leading spaces of text runs unless told to preserve them
    svg = re.sub(r"^<svg ", '<svg xml:space="preserve" ', svg, count=1)
    path = HERE / f"{name}.svg"
    path.write_text(svg, encoding="utf-8")
    return path


def views(view):  # type: ignore[no-untyped-def]
    """name -> what to do before the picture."""
    parents, children = view.provenance()
    # a merge whose sources were deleted (they show dimmed, from history), the biggest
    merged = max((m for m, ps in parents.items() if m in view.rows and ps[0][1] == "merge"
                  and not any(p in view.rows for p, _k in ps)),
                 key=lambda m: (len(parents[m]), m))
    split_original = sorted(k for k, c in children.items() if c[0][1] == "split"
                            and k in view.rows)[0]
    gisted = find(view, "pytest with plain assert")
    edited = find(view, "conference in early october")

    showcase = max((r for r in view.rows.values() if r.memory.gist and "prefs" in
                    r.memory.meta.tags and r.memory.status.value == "active"),
                   key=lambda r: (r.score, r.id)).id

    async def main(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(showcase)
        await settle(pilot)

    async def detail_content(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(gisted)
        await settle(pilot)
        await pilot.press("c")

    async def bands(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("m", "m")
        await settle(pilot)
        await pilot.press("space", "down", "down", "enter", "down", "down")  # the danger zone

    async def lineage(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("m", "m", "m")
        await settle(pilot)
        tree = app.main_screen.memory_tree
        for node in list(tree.root.children)[:4]:
            tree.expand_node(node)
        await settle(pilot)
        await pilot.press("down")

    async def provenance_split(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(split_original)
        await settle(pilot)
        await pilot.press("p")

    async def provenance_merge(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(merged)
        await settle(pilot)
        await pilot.press("p")

    async def history(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(edited)
        await settle(pilot)
        await pilot.press("H")

    async def history_diff(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(edited)
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        await pilot.press("H", "D")  # into the pane; the newest version (the edit) and the last

    async def flat_list(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("slash", *list("python"), "enter")
        await settle(pilot)
        await pilot.press("j", "j")

    async def duplicates(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("m", "m", "m", "m")
        await settle(pilot)
        await settle(pilot)
        await pilot.press("g", "g", "j", "l", "j")

    async def filter_(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("slash", *list("tag:work score<0.35"), "enter")
        await settle(pilot)
        await pilot.press("down", "down", "down")

    async def delete(app, pilot):  # type: ignore[no-untyped-def]
        app.main_screen.jumps.jump(find(view, "quarterly planning"))
        await settle(pilot)
        await pilot.press("x")

    async def gc(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("C")

    async def stats(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("S")

    async def help_(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("question_mark")

    async def settings(app, pilot):  # type: ignore[no-untyped-def]
        await pilot.press("comma")

    # the wizards: the composite memory and the near-duplicates the demo leaves for them
    composite = find(view, "flat and balcony notes")
    dentist = sorted(i for i, row in view.rows.items() if "dentist appointment" in row.hay)

    def split_wizard(*keys: str) -> Callable[[object, object], Awaitable[None]]:
        async def steps(app, pilot):  # type: ignore[no-untyped-def]
            app.main_screen.jumps.jump(composite)
            await settle(pilot)
            await pilot.press("v")
            await settle(pilot)
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
            still(app)

        return steps

    def consolidate_wizard(*keys: str, content: str | None = None, then: tuple[str, ...] = ()
                           ) -> Callable[[object, object], Awaitable[None]]:
        async def steps(app, pilot):  # type: ignore[no-untyped-def]
            for memory_id in dentist[:2]:  # two marked in the tree (●)
                app.main_screen.jumps.jump(memory_id)
                await settle(pilot)
                await pilot.press("space")
            await pilot.press("M")
            await settle(pilot)
            while app.screen.clusters is None:  # (from a daemon thread, not a worker)
                await pilot.pause(0.05)
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
                await settle(pilot)
            if content is not None:
                from textual.widgets import TextArea

                area = app.screen.query_one("#merge-content-text", TextArea)
                area.clear()
                area.insert(content)
                await pilot.pause(0.5)
                await settle(pilot)
            for key in then:
                await pilot.press(key)
                await settle(pilot)
            still(app)

        return steps

    merged_text = "Dentist appointment with Dr Silva on Tuesday 3 July at 09:30."
    return {
        "main": main, "detail-content": detail_content, "bands": bands, "lineage": lineage,
        "provenance-split": provenance_split, "provenance-merge": provenance_merge,
        "history": history, "history-diff": history_diff, "list": flat_list,
        "duplicates": duplicates, "filter": filter_, "delete": delete, "gc": gc, "stats": stats,
        "help": help_, "settings": settings, "main-80x24": main,
        "split-1-memory": split_wizard(),
        "split-2-parts": split_wizard("ctrl+n"),
        "split-3-tags": split_wizard("ctrl+n", "ctrl+n"),
        "split-5-preview": split_wizard("ctrl+n", "ctrl+n", "ctrl+n", "ctrl+n"),
        "consolidate-1-members": consolidate_wizard(),
        "consolidate-2-merged": consolidate_wizard("ctrl+n", content=merged_text),
        "consolidate-4-confirm": consolidate_wizard("ctrl+n", content=merged_text,
                                                    then=("ctrl+n", "ctrl+n")),
    }


def assistant_wrote(vault: Path, view) -> None:  # type: ignore[no-untyped-def]
    """What an assistant might write over MCP (commits dated at the fixed clock), for the inbox
    picture; made after the other pictures, whose headers would count it."""
    from core import Vault

    os.environ["GIT_AUTHOR_DATE"] = os.environ["GIT_COMMITTER_DATE"] = f"{NOW - 5400} +0000"
    try:
        a = Vault.open(vault, via="mcp/claude-code")
        a.archive(find(view, "quarterly planning"))
        pytest_pref = find(view, "pytest with plain assert")
        memory = a.get(pytest_pref)
        a.update(pytest_pref, content=memory.content.replace("plain assert", "plain assert and "
                                                             "hypothesis for property tests"),
                 meta={**memory.meta.model_dump(), "tags": [*memory.meta.tags, "testing"]})
        new = a.add("The user switched the team's editor theme to a dark one and wants "
                    "screenshots in dark mode too.", tags=["prefs", "ui"], source="chat")
        a.relate(new.id, pytest_pref, "related")
        a.delete(find(view, "conference in early october"))
    finally:
        del os.environ["GIT_AUTHOR_DATE"], os.environ["GIT_COMMITTER_DATE"]


async def inbox_steps(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("I")
    await settle(pilot)
    await pilot.press("down")


def still(app) -> None:  # type: ignore[no-untyped-def]
    """No blinking cursors in a picture."""
    from textual.widgets import Input, TextArea

    for widget in [*app.screen.query(TextArea), *app.screen.query(Input)]:
        widget.cursor_blink = False


def main(only: list[str] | None = None) -> int:
    """Every picture, or only those whose names start with one of ``only``."""
    rsvg = shutil.which("rsvg-convert")
    with tempfile.TemporaryDirectory(prefix="memvault-shots-") as tmp:
        os.environ["HOME"] = str(Path(tmp))  # the header shows the vault as ~/memvault-demo
        os.environ["MEMVAULT_CONFIG_DIR"] = str(Path(tmp) / "config")  # default settings
        vault = Path(tmp) / "memvault-demo"
        report = build_demo(vault, now=NOW)
        print(f"demo vault: {report.memories} memories", flush=True)
        service = VaultService(vault, clock=lambda: NOW)
        view = service.open()
        shots = views(view)
        shots["inbox"] = inbox_steps  # last: the assistant's commits first
        for name, steps in shots.items():
            if only and not any(name.startswith(prefix) for prefix in only):
                continue
            if name == "inbox":
                assistant_wrote(vault, view)
            svg = asyncio.run(shoot(vault, name, steps))
            line = f"  {svg.name}"
            if rsvg:
                png = svg.with_suffix(".png")
                subprocess.run([rsvg, str(svg), "-o", str(png)], check=True)
                line += f", {png.name}"
            print(line, flush=True)
    if not rsvg:
        print("rsvg-convert not found: SVGs only (apt-get install librsvg2-bin for PNGs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
