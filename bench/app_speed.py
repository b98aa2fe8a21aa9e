"""memvault TUI benchmark: the app on a 10k-memory vault, headless, in this process.

    python bench/app_speed.py [--size 10000] [--repeat 5] [--keep]
    python bench/app_speed.py --keys [--size 10000] [--repeat 3]

Measures, against its targets:

1. app start to first tree paint: from creating the app (vault not yet open) to the first time the
   tree draws lines with memories in them (opening the vault in a worker included). Target 1.5 s.
2. highlight to detail shown: a cursor move (down) in an expanded group until the first screen
   update written after the detail pane took the new memory. Target 50 ms.
3. filter keystroke to redraw: one character typed into the filter box until the first screen
   update after the tree was rebuilt. Target 100 ms.
4. archive keypress to refreshed tree: ``a`` on the highlighted memory until the first screen
   update after the tree took the new state (the git commit included). No target; reported.
5. flat list: ``f`` until the first screen update after the list holds its first rows (every
   memory, sorted by score), and a cursor move (``j``) in it until the detail shows the new
   memory. Targets: as a filter keystroke (100 ms) and a highlight (50 ms). Then ``G`` (the
   list adds every row up to the last: the worst case of adding rows as they come into
   sight). No target; reported.

6. ``--keys`` (issue 42): each key's first visible change (the first screen update written
   after it) and its result, beside a bare Textual app's key, on the demo vault and at
   ``--size``: ``/``, a filter keystroke, archive, undo, archive of 13 marked memories, ``M``,
   ``?``, ``I``, and ``M`` again (the vault unchanged since: its clusters are reused). Targets: first visible change <= 100 ms, result <= 300 ms. Beside them, the CPU
   seconds from the key to its result (the app's threads and its git processes: on a loaded
   machine, the figure that says what the key costs). ``--vault PATH``: a copy of that vault
   instead of one of ``--size``; ``--no-demo``: not on the demo vault.

Keys are sent to the app as the terminal driver would send them; the time runs to the first
screen update written afterwards (``App._display``), not to the pilot's "idle" (which waits).

The vault is built once (``bench/run.py``'s deterministic memories, adopted by ``Vault.open`` as
one commit) and cached in ``bench/.cache/tui-<size>``. Each run works on a copy of it in a
temporary folder (the archive and its undo are commits: the cached vault stays as built), removed
at the end; ``--keep`` keeps that copy and prints its path (open it with ``memvault --vault``).
The app runs with default settings, saved to a temporary folder (never the user's).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the source tree


def _load_corebench():  # type: ignore[no-untyped-def]
    """bench/run.py, for its deterministic memories (importing it sets a reproducible git
    environment)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("memvault_bench_run", HERE / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


corebench = _load_corebench()

from tui.app import MemvaultApp  # noqa: E402
from tui.app.service import VaultService  # noqa: E402
from tui.app.widgets.memory_tree import MemoryTree  # noqa: E402

TARGETS = {"first_paint": 1.5, "highlight": 0.050, "filter": 0.100, "list_toggle": 0.100,
           "list_highlight": 0.050}
SIZE = (120, 40)


def vault_for(size: int) -> Path:
    root = corebench.CACHE / f"tui-{size}"
    if (root / ".meta.json").exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    print(f"building a {size}-memory vault in {root} (once) …", flush=True)
    memories, relations, _stale = corebench.make_dataset(size, seed=5, now=int(time.time()))
    corebench.build_vault(root, memories, relations)
    return root


def cpu_seconds() -> float:
    """This process's CPU seconds (its threads: the UI's and the workers') and its git
    processes' (those reaped)."""
    import os

    times = os.times()
    return time.process_time() + times.children_user + times.children_system


class Meter:
    """Times from a key event sent to the app (as a terminal would send it, without the pilot's
    waits for idleness) to the first screen update written after the app reached the expected
    state, and the CPU seconds spent meanwhile (:attr:`cpu`, the last key's). Whether the state
    is reached is asked as each screen update is written: the wait between polls slowly, so the
    measure takes little of the interpreter from the app."""

    def __init__(self, app: MemvaultApp) -> None:
        self.app = app
        self.displays: list[float] = []
        #: the key waited for: its ``done()``, and the time and CPU of the first screen update
        #: written once it held
        self.done = None
        self.shown: tuple[float, float] | None = None
        self.cpu = 0.0
        self.cpu_at_result = 0.0
        original = app._display

        def display(screen, renderable):  # type: ignore[no-untyped-def]
            now = time.perf_counter()
            self.displays.append(now)
            if self.done is not None and self.shown is None and self.done():
                self.shown = (now, cpu_seconds())
            return original(screen, renderable)

        app._display = display  # type: ignore[method-assign]

    async def key(self, key: str, done, timeout: float = 30.0) -> float:  # type: ignore[no-untyped-def]
        return (await self.key_both(key, done, timeout))[1]

    async def key_both(self, key: str, done,  # type: ignore[no-untyped-def]
                       timeout: float = 30.0) -> tuple[float, float]:
        """(first screen update written after the key, the first after ``done()`` held); a
        key that does not get there within ``timeout`` has an infinite result (the table says
        so) and its CPU to the timeout, and the runs go on."""
        from textual import events

        char = key if len(key) == 1 else None
        started, cpu = time.perf_counter(), cpu_seconds()
        self.app.post_message(events.Key(key, char))
        try:
            result = await self.until(done, started, timeout)
        except TimeoutError:
            result, self.cpu_at_result = float("inf"), cpu_seconds()
        self.cpu = self.cpu_at_result - cpu
        first = min((t for t in self.displays if t >= started), default=float("inf")) - started
        return first, result

    async def until(self, done, started: float, timeout: float = 30.0) -> float:  # type: ignore[no-untyped-def]
        deadline = started + timeout
        self.shown, self.done = None, done
        try:
            while self.shown is None:
                if time.perf_counter() > deadline:
                    raise TimeoutError("the app did not get there in time")
                await asyncio.sleep(0.002)
        finally:
            self.done = None
        at, self.cpu_at_result = self.shown
        return at - started


async def measure(path: Path, repeat: int) -> dict[str, list[float]]:
    from tui.app.settings import Loaded, Settings

    results: dict[str, list[float]] = {"first_paint": [], "highlight": [], "filter": [],
                                       "filter_compute": [], "archive": [], "list_toggle": [],
                                       "list_highlight": [], "list_bottom": []}
    painted: list[float] = []
    original = MemoryTree.render_lines

    def render_lines(self, crop):  # type: ignore[no-untyped-def]
        if not painted and self.view is not None and self.root.children:
            painted.append(time.perf_counter())
        return original(self, crop)

    MemoryTree.render_lines = render_lines  # type: ignore[method-assign]
    try:
        for attempt in range(repeat):
            painted.clear()
            started = time.perf_counter()
            app = MemvaultApp(VaultService(path), poll_interval=0, rescore_interval=0,
                              settings=Loaded(Settings()))
            async with app.run_test(size=SIZE) as pilot:
                meter = Meter(app)
                while not painted:
                    await asyncio.sleep(0.001)
                results["first_paint"].append(painted[0] - started)
                await pilot.pause()
                main = app.main_screen
                # open the first tag group of "active"
                await pilot.press("down", "enter")
                await pilot.pause()
                for _ in range(8):
                    before = main.current
                    results["highlight"].append(await meter.key(
                        "down", lambda b=before: main.current != b and main.detail.row is not None
                        and main.detail.row.id == main.current))
                    await pilot.pause()
                await pilot.press("slash")
                await pilot.pause()
                for ch in "memory"[: 3 + attempt % 3]:
                    want = main.memory_tree.filter.text + ch
                    results["filter"].append(await meter.key(
                        ch, lambda w=want: main.memory_tree.filter.text == w))
                    results["filter_compute"].append(main.filtering.timings["refilter"])
                    await pilot.pause()
                main.query_one("#filter").value = ""  # clear it (not timed)
                await pilot.pause()
                main.memory_tree.focus()
                await pilot.pause()
                if main.current is None:
                    await pilot.press("down")
                    await pilot.pause()
                view = main.view
                results["archive"].append(await meter.key("a", lambda v=view: main.view is not v))
                await pilot.pause()
                view = main.view
                await meter.key("ctrl+z", lambda v=view: main.view is not v)  # put it back
                await app.workers.wait_for_complete()
                await pilot.pause()
                listing = main.memory_list
                results["list_toggle"].append(await meter.key(
                    "f", lambda: main.showing_list and listing.added > 0))
                await pilot.pause()
                for _ in range(5):
                    before = main.current
                    results["list_highlight"].append(await meter.key(
                        "j", lambda b=before: main.current != b and main.detail.row is not None
                        and main.detail.row.id == main.current))
                    await pilot.pause()
                results["list_bottom"].append(await meter.key(
                    "G", lambda: listing.current_id is not None
                    and listing.current_id == listing.ids[-1]))
                await pilot.pause()
                await pilot.press("f")  # back to the tree (the next run starts from defaults)
                await pilot.pause()
    finally:
        MemoryTree.render_lines = original  # type: ignore[method-assign]
    return results


#: issue 42: a key's first visible change and its result
KEY_TARGETS = (0.100, 0.300)


async def bare_key(repeat: int) -> list[tuple[float, float, float]]:
    """A bare Textual app, the floor every key pays: a key that changes one line of text."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Bare(App[None]):
        BINDINGS = [("x", "flip", "")]

        def compose(self) -> ComposeResult:
            yield Static("0", id="n")

        def action_flip(self) -> None:
            self.count = getattr(self, "count", 0) + 1
            self.query_one("#n", Static).update(str(self.count))

    app = Bare()
    samples = []
    async with app.run_test(size=SIZE) as pilot:
        meter = Meter(app)
        await pilot.pause()
        for n in range(repeat):
            samples.append((*await meter.key_both("x", lambda n=n: getattr(app, "count", 0) > n),
                            meter.cpu))
            await pilot.pause()
    return samples


async def measure_keys(path: Path, repeat: int) -> dict[str, list[tuple[float, float, float]]]:
    """Each key's (first visible change, result) on the vault at ``path``: ``/`` (the filter
    box focused) and a character typed in it (the tree filtered), ``a`` (archived), ``ctrl+z``
    (undone), ``a`` on 13 marked memories in the flat list, ``M`` (the consolidate wizard with
    its clusters), ``?`` (help drawn), ``I`` (the inbox with its entries) and ``M`` again."""
    from tui.app.screens.consolidate_wizard import ConsolidateWizard
    from tui.app.screens.help import HelpScreen
    from tui.app.screens.inbox import InboxScreen
    from tui.app.settings import Loaded, Settings

    out: dict[str, list[tuple[float, float, float]]] = {}

    def add(name: str, sample: tuple[float, float]) -> None:
        out.setdefault(name, []).append((*sample, meter.cpu))

    for _ in range(repeat):
        app = MemvaultApp(VaultService(path), poll_interval=0, rescore_interval=0,
                          settings=Loaded(Settings()))
        async with app.run_test(size=SIZE) as pilot:
            meter = Meter(app)
            main = app.main_screen
            while main is None or main.view is None or main.view.partial:
                await asyncio.sleep(0.005)
                main = app.main_screen
            await app.workers.wait_for_complete()
            await pilot.press("down", "enter")
            await pilot.pause()
            box = main.query_one("#filter")
            add("/", await meter.key_both("slash", lambda: app.focused is box))
            await pilot.pause()
            add("filter", await meter.key_both("e", lambda: main.memory_tree.filter.text == "e"))
            await app.workers.wait_for_complete()
            box.value = ""
            await pilot.pause()
            main.memory_tree.focus()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if main.current is None:
                await pilot.press("down")
                await pilot.pause()
            for name in ("archive", "undo"):
                view = main.view
                add(name, await meter.key_both("a" if name == "archive" else "ctrl+z",
                                               lambda v=view: main.view is not v))
                await app.workers.wait_for_complete()
                await pilot.pause()
            await pilot.press("f")
            await app.workers.wait_for_complete()
            for _mark in range(13):
                await pilot.press("space")
            await pilot.pause()
            assert len(main.memory_tree.marks) == 13, len(main.memory_tree.marks)
            view = main.view
            add("bulk archive (13)", await meter.key_both("a", lambda v=view: main.view is not v))
            await app.workers.wait_for_complete()
            await pilot.press("ctrl+z")  # put them back (not timed)
            await app.workers.wait_for_complete()
            await pilot.press("f")
            await app.workers.wait_for_complete()
            await pilot.pause()
            for name, key, kind, ready in (
                    ("M", "M", ConsolidateWizard, lambda s: s.clusters is not None),
                    ("?", "question_mark", HelpScreen, lambda s: bool(s.query("#help-body"))),
                    ("I", "I", InboxScreen, lambda s: s.view is not None),
                    ("M again", "M", ConsolidateWizard, lambda s: s.clusters is not None)):
                add(name, await meter.key_both(
                    key, lambda k=kind, r=ready: isinstance(app.screen, k) and r(app.screen)))
                await app.workers.wait_for_complete()
                await pilot.press("escape")
                while app.screen is not main:
                    await asyncio.sleep(0.005)
                await pilot.pause()
    return out


def print_keys(title: str, rows: dict[str, list[tuple[float, float, float]]]) -> None:
    first_target, result_target = KEY_TARGETS
    print(f"\n{title} (median of first visible change / of result / CPU to the result, the "
          f"app's threads and its git processes; targets <= {first_target * 1000:.0f} / "
          f"<= {result_target * 1000:.0f} ms)")
    for name, samples in rows.items():
        first = statistics.median(f for f, _, _ in samples)
        result = statistics.median(r for _, r, _ in samples)
        cpu = statistics.median(c for _, _, c in samples)
        met = "met" if first <= first_target and result <= result_target else "NOT met"
        print(f"  {name:<20} {first * 1000:8.1f} ms  {result * 1000:8.1f} ms  "
              f"CPU {cpu * 1000:7.1f} ms  {met}")


def keys_main(args: argparse.Namespace, work: Path) -> None:
    """The key timings: a bare Textual app, the demo vault, a vault of ``--size`` (or a copy of
    the one ``--vault`` names)."""
    from tui.demo.build import build_demo

    print_keys("a bare Textual app", {"x (one line)": asyncio.run(bare_key(args.repeat * 3))})
    if not args.no_demo:
        demo = work / "demo"
        build_demo(demo)
        print_keys("the demo vault", asyncio.run(measure_keys(demo, args.repeat)))
    if args.size <= 0:
        return
    path = work / "vault"
    shutil.copytree(args.vault or vault_for(args.size), path, symlinks=True)
    name = f"{args.vault}" if args.vault else f"{args.size} memories"
    print_keys(name, asyncio.run(measure_keys(path, args.repeat)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", action="store_true",
                        help="keep the copy of the vault the runs used (its path is printed)")
    parser.add_argument("--keys", action="store_true",
                        help="only each key's first visible change and result, beside a bare "
                             "Textual app, on the demo vault and at --size")
    parser.add_argument("--no-demo", action="store_true", help="--keys: not on the demo vault")
    parser.add_argument("--vault", type=Path, default=None,
                        help="--keys: a copy of this vault instead of one of --size (--size 0: "
                             "the demo vault alone)")
    args = parser.parse_args(argv)
    import os
    import tempfile

    work = Path(tempfile.mkdtemp(prefix="memvault-tui-bench-"))
    os.environ["MEMVAULT_CONFIG_DIR"] = str(work / "config")  # never the user's settings
    if args.keys:
        try:
            keys_main(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return 0
    path = work / "vault"
    shutil.copytree(vault_for(args.size), path, symlinks=True)
    try:
        results = asyncio.run(measure(path, args.repeat))
    finally:
        if args.keep:
            print(f"\nthe vault the runs used: {path}  (memvault --vault {path})")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\nmemvault TUI, {args.size} memories, {SIZE[0]}x{SIZE[1]}, {args.repeat} runs "
          "(median, max)")
    rows = [
        ("first_paint", "app start to first tree paint"),
        ("highlight", "highlight to detail shown"),
        ("filter", "filter keystroke to redraw"),
        ("filter_compute", "  of which filter + tree rebuild"),
        ("archive", "archive keypress to refreshed tree"),
        ("list_toggle", "f to the flat list shown"),
        ("list_highlight", "highlight in the list to detail shown"),
        ("list_bottom", "G in the list (adds every row)"),
    ]
    for key, label in rows:
        xs = results[key]
        med, worst = statistics.median(xs), max(xs)
        target = TARGETS.get(key)
        verdict = ""
        if target is not None:
            verdict = f"target < {target * 1000:.0f} ms: {'met' if med < target else 'NOT met'}"
        print(f"  {label:<38} {med * 1000:8.1f} ms  {worst * 1000:8.1f} ms  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
