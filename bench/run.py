"""memvault benchmark: figures and ratios from ONE run, printed side by side.

    python bench/run.py [--sizes 1000,10000 | --size 100000] [--repeat N] [--peer-python PATH]
                        [--json FILE] [--queries N]

Builds vaults of deterministic, realistic memories in a temporary folder and measures, at each size:

1. open, process start to ready: wall time of a fresh ``python -c`` that imports core and opens
   the vault (read-write and read-only), next to ``python -c pass``, ``import core`` and the same
   for CortexGraph 1.2.1's ``JSONLStorage`` on the same memories. An open from the derived index
   parses each record when it is first read, so the same open followed by reading every record
   is printed too (CortexGraph's connect parses every record).
2. open after imports: in a fresh subprocess that has already imported core and git, only
   ``Vault.open(path)``; side by side CortexGraph's ``JSONLStorage(storage_path=...).connect()``
   on the same memories written as CortexGraph JSONL, and a plain per-file loop
   (``Memory.model_validate_json`` on every file). Ratio: ours / CortexGraph.
3. one archive including its commit (``vault.archive(id)`` in-process) against raw
   ``git add <file> && git commit -q -m msg`` of the same kind of change (one memory file's
   status field) in the same repository, alternating. Ratio: ours / git.
4. gc of 1,000 memories in one commit (``vault.gc()``), checking that it made exactly one commit.
5. big vaults (``bench/scale.py``): open with no index (cold: every file read, the
   derived index written) and with a warm index, read-only, and CortexGraph's connect, with the
   peak RSS of each; search p50/p95 (memvault's ranked search against CortexGraph's own
   ``search_memory`` tool, both top 10, on the same memories and queries); the TUI from process
   start to the first painted tree.

The vault is built with the git CLI (files written, ``git add -A``, one commit, ``git gc``), so a
100k vault takes a minute or two, not memvault's own adoption of 100k outside edits.

Nothing here asserts; it prints numbers and, for each target, whether it is met.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
DEFAULT_PEER_VENV = CACHE / "peer-venv"
PEER_PACKAGE = "cortexgraph==1.2.1"
#: cortexgraph 1.2.1's tools import ``mcp.server.fastmcp``, gone in mcp 2 (its pin allows 2)
PEER_EXTRA = "mcp<2"
STALE = 1000  # memories below the forget threshold, pruned by the gc measurement
DAY = 86400

# The targets at 10k memories.
TARGET_SIZE = 10_000
TARGET_OPEN_RATIO = 1.5
TARGET_ARCHIVE_RATIO = 1.2
TARGET_GC_SECONDS = 2.0
# Writes that do not grow with the vault (at 100k, against git itself and against 10k).
TARGET_ARCHIVE_GIT_RATIO_100K = 0.25
TARGET_ARCHIVE_GROWTH = 2.0  # archive(100k) / archive(10k)
TARGET_GC_GIT_RATIO_100K = 1.0
# The first minute with a big vault (issue 43), at 10k and 100k alike.
TARGET_FIRST_SEARCH_RATIO = 1.5  # memvault search after a clone / warm, whole process
TARGET_COLD_OPEN_RATIO = 0.8  # open with no index (after a clone) / cortexgraph's load
TARGET_FILL_CPU_100K = 15.0  # CPU seconds filling a new index's search rows and word lists
TARGET_TUI_PAINT = 0.5  # process start to the first painted tree
TARGET_TUI_READY = 2.0  # process start to every action ready
TARGET_READY_10K = 0.45  # import core; Vault.open(path), process start to ready, at 10k
# Questions (issue 41): p95 at most twice that of two-word queries of the same words, in the
# same run, at 10k and 100k; at 100k below 50 ms.
TARGET_QUESTION_RATIO = 2.0
TARGET_QUESTION_P95_100K = 0.050
PHASES = ("open", "search", "tui", "archive", "gc")
#: Every measurement runs at least this many times; the table prints its median and range.
MIN_REPEAT = 3

# A reproducible git: no user or system config (hooks, gpg signing, fsmonitor...), a fixed identity.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_TERMINAL_PROMPT": "0",
}
# The bench measures the default decay settings whatever the caller's environment says.
for _var in [v for v in os.environ if v.startswith("CORTEXGRAPH_") or v == "MEMVAULT_PATH"]:
    del os.environ[_var]
os.environ.update(GIT_ENV)
# Installed packages have bytecode caches (pip writes them; the peer venv has them). Let the
# subprocesses write core's too, else every fresh `python -c` would recompile core from source.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from core import DecayConfig, Memory, MemoryMetadata, MemoryStatus, Relation, Vault  # noqa: E402
from core.store.layout import LAYOUTS, Layout  # noqa: E402
from core.vault.relayout import suggested_layout  # noqa: E402
from core.model.records import KNOWN_RELATION_TYPES  # noqa: E402

import scale  # noqa: E402  (bench/scale.py, beside this file)
from scale import git, run_json, series  # noqa: E402

# -- deterministic data ------------------------------------------------------------------------
WORDS = """the a of to and in for on with is that this it as by from at be are was we use not
when if then so but or our their its after before under over into out about via per each new old
vault memory memories file files commit commits branch merge rebase index tree blob journal lock
cache tag tags entity entities relation relations decay score threshold archive prune restore
history review promote gist summary token tokens context source session agent assistant user
person project repo repository python pydantic textual rich git status diff log reflog hook
config setting default env variable path folder json jsonl line record field schema model
migration import export test tests fixture benchmark figure ratio target latency throughput
open close read write fsync rename atomic crash recovery intent process thread worker queue
deadline meeting decision reason because prefers likes dislikes always never usually sometimes
monday friday morning evening week month quarter release version bug fix feature issue ticket
api endpoint client server request response timeout retry backoff cache invalidation shard
notes obsidian markdown heading link backlink graph node edge cluster duplicate split consolidate
""".split()
TAGS = [f"{a}-{b}" for a in ("work", "home", "proj", "lang", "tool", "team", "idea", "todo")
        for b in ("alpha", "beta", "gamma", "delta", "core", "ui")]
ENTITIES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
            "memvault", "CortexGraph", "GitHub", "Obsidian", "Postgres", "Redis", "Textual",
            "Pydantic", "Linux", "macOS", "Berlin", "Lisbon", "Q3 roadmap", "release 1.2"]
SOURCES = ["claude-code", "chat", "import:notes", "cli", "mcp:save_memory"]
REL_TYPES = sorted(KNOWN_RELATION_TYPES)


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    return " ".join(words).capitalize() + rng.choice(".....!?")


def _content(rng: random.Random) -> str:
    target = rng.randint(200, 600)
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < target:
        parts.append(_sentence(rng))
    return " ".join(parts)[:target].rstrip() + "."


def make_dataset(n: int, seed: int, now: int) -> tuple[list[Memory], list[Relation], set[str]]:
    """``n`` memories (the first min(STALE, n) far below the forget threshold, the rest recent
    enough to stay above it), about one relation per three memories, and the stale ids."""
    rng = random.Random(seed * 1_000_003 + n)
    stale_count = min(STALE, n)
    memories: list[Memory] = []
    for i in range(n):
        mid = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        content = _content(rng)
        stale = i < stale_count
        if stale:  # unused for 200-400 days: power-law score ~0.006, far below 0.05
            created = now - rng.randint(300, 500) * DAY
            last_used = now - rng.randint(200, 400) * DAY
            use_count, strength, status = 0, 1.0, MemoryStatus.ACTIVE
        else:  # used within the last 20 days: score >= ~0.12 at use_count 0
            created = now - rng.randint(0, 180) * DAY - rng.randint(0, DAY)
            last_used = max(created, now - rng.randint(0, 20 * DAY))
            use_count = rng.choice([0, 0, 1, 1, 2, 3, 5, 8, 13])
            strength = round(rng.uniform(1.0, 2.0), 2)
            roll = rng.random()
            status = (MemoryStatus.ARCHIVED if roll < 0.04 else
                      MemoryStatus.PROMOTED if roll < 0.06 else MemoryStatus.ACTIVE)
        promoted = status == MemoryStatus.PROMOTED
        memories.append(Memory(
            id=mid,
            content=content,
            gist=(" ".join(content.split()[:12]) if rng.random() < 0.3 else None),
            meta=MemoryMetadata(
                tags=rng.sample(TAGS, rng.randint(1, 4)),
                source=rng.choice(SOURCES) if rng.random() < 0.6 else None,
                context=_sentence(rng) if rng.random() < 0.3 else None,
                extra={"project": rng.choice(TAGS)} if rng.random() < 0.2 else {},
            ),
            created_at=created,
            last_used=last_used,
            use_count=use_count,
            strength=strength,
            status=status,
            promoted_at=last_used if promoted else None,
            promoted_to=f"vault/notes/{mid[:8]}.md" if promoted else None,
            entities=rng.sample(ENTITIES, rng.randint(0, 3)),
            review_priority=round(rng.random(), 3),
            last_review_at=last_used if rng.random() < 0.2 else None,
            review_count=rng.randint(0, 3),
            cross_domain_count=rng.randint(0, 2),
        ))
    relations: list[Relation] = []
    for _ in range(n // 3):
        a, b = rng.sample(memories, 2)
        relations.append(Relation(
            id=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
            from_memory_id=a.id,
            to_memory_id=b.id,
            relation_type=rng.choice(REL_TYPES),
            strength=round(rng.uniform(0.1, 1.0), 2),
            created_at=max(a.created_at, b.created_at),
            metadata={"note": _sentence(rng)} if rng.random() < 0.25 else {},
        ))
    return memories, relations, {m.id for m in memories[:stale_count]}


# -- building ------------------------------------------------------------------------------------
def build_vault(root: Path, memories: list[Memory], relations: list[Relation],
                layout_name: str | None = None) -> dict[str, Any]:
    """The files as memvault writes them, committed with the git CLI (``bench/scale.py``), in
    ``layout_name`` (default: the layout memvault suggests for that many memories, sharded
    above 50,000: ``memvault migrate-layout``)."""
    layout = Layout(root, layout_name or suggested_layout(len(memories)))
    built = scale.build_vault_fast(root, layout, memories, relations, layout.new_meta())
    built["layout"] = layout.initial
    return built


def write_peer_jsonl(folder: Path, memories: list[Memory], relations: list[Relation]) -> None:
    """The same records as CortexGraph 1.2.1 JSONL: one object per line, every key but ``gist``."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "memories.jsonl", "w") as fh:
        for m in memories:
            fh.write(json.dumps(m.model_dump(mode="json", exclude={"gist"})) + "\n")
    with open(folder / "relations.jsonl", "w") as fh:
        for r in relations:
            fh.write(json.dumps(r.model_dump(mode="json")) + "\n")


# -- the peer (CortexGraph 1.2.1 in a throwaway venv) ---------------------------------------------
def peer_version(python: str) -> str | None:
    try:
        out = subprocess.run(
            [python, "-c", "import importlib.metadata as m, cortexgraph.storage.jsonl_storage;"
                           "print(m.version('cortexgraph'))"],
            capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def find_peer(given: str | None, log) -> tuple[str | None, str]:
    """(python with cortexgraph importable, note) or (None, why the peer columns are skipped)."""
    if given:
        version = peer_version(given)
        if version is None:
            return None, f"--peer-python {given} cannot import cortexgraph: peer columns skipped"
        return given, f"cortexgraph {version} at {given}"
    python = DEFAULT_PEER_VENV / "bin" / "python"
    if python.exists():
        version = peer_version(str(python))
        if version is not None:
            return str(python), f"cortexgraph {version} at {python}"
    log(f"installing {PEER_PACKAGE} into {DEFAULT_PEER_VENV} (once; bench/.cache is gitignored)")
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(DEFAULT_PEER_VENV)], check=True,
                           capture_output=True, timeout=300)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        PEER_PACKAGE, PEER_EXTRA], check=True, capture_output=True, timeout=900)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        tail = detail.decode(errors="replace").strip().splitlines()[-1:] if detail else [str(exc)]
        return None, (f"could not install {PEER_PACKAGE} (offline?): {' '.join(tail)}; "
                      f"peer columns skipped (pass --peer-python PATH to use an existing one)")
    version = peer_version(str(python))
    if version is None:
        return None, f"{PEER_PACKAGE} installed but does not import: peer columns skipped"
    return str(python), f"cortexgraph {version} at {python} (installed by this run)"


# -- subprocess snippets ---------------------------------------------------------------------------
# Each prints one JSON line: the in-process seconds and what was loaded.
OURS_AFTER_IMPORTS = textwrap.dedent("""
    import json, sys, time
    import core, git
    from core import Vault
    path, readonly = sys.argv[1], sys.argv[2] == "1"
    t = time.perf_counter()
    vault = Vault.open(path, readonly=readonly)
    dt = time.perf_counter() - t
    t = time.perf_counter()  # then every record read (an open from the index parses on read)
    list(vault.memories.values()), list(vault.relations.values())
    print(json.dumps({"seconds": dt, "read_all": time.perf_counter() - t,
                      "memories": len(vault.memories), "relations": len(vault.relations),
                      "problems": len(vault.problems),
                      "external_commit": vault.report.external_commit}))
""")
PEER_AFTER_IMPORTS = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from cortexgraph.config import get_config
    from cortexgraph.storage.jsonl_storage import JSONLStorage
    get_config()
    path = Path(sys.argv[1])
    t = time.perf_counter()
    storage = JSONLStorage(storage_path=path)
    storage.connect()
    dt = time.perf_counter() - t
    print(json.dumps({"seconds": dt, "memories": len(storage.memories),
                      "relations": len(storage.relations)}))
""")
LOOP_AFTER_IMPORTS = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    import core
    from core import Memory, Relation
    root = Path(sys.argv[1])
    t = time.perf_counter()
    memories = {}
    # both layouts: memories/{id}.json and memories/{shard}/{id}.json (sharded above 50k)
    for p in [*(root / "memories").glob("*.json"), *(root / "memories").glob("*/*.json")]:
        m = Memory.model_validate_json(p.read_bytes())
        memories[m.id] = m
    relations = {}
    for p in (root / "relations").glob("*.json"):
        r = Relation.model_validate_json(p.read_bytes())
        relations[r.id] = r
    dt = time.perf_counter() - t
    print(json.dumps({"seconds": dt, "memories": len(memories), "relations": len(relations)}))
""")
OURS_PROCESS = "import sys, core; core.Vault.open(sys.argv[1], readonly=sys.argv[2] == '1')"
# the same, then every record read: an open from the index parses a record when it is first read
OURS_PROCESS_READ_ALL = ("import sys, core; v = core.Vault.open(sys.argv[1]); "
                         "list(v.memories.values()), list(v.relations.values())")
PEER_PROCESS = ("import sys; from cortexgraph.storage.jsonl_storage import JSONLStorage; "
                "JSONLStorage(storage_path=sys.argv[1]).connect()")


def wall(argv: list[str]) -> float:
    t = time.perf_counter()
    out = subprocess.run(argv, capture_output=True)
    dt = time.perf_counter() - t
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} failed: {out.stderr.decode()[-2000:]}")
    return dt


# -- measurements ----------------------------------------------------------------------------------
def measure_open_process(vault: Path, peer_dir: Path, peer: str | None, n: int) -> dict[str, Any]:
    py = sys.executable
    runs: dict[str, tuple[list[str], list[float]]] = {
        "python_pass": ([py, "-c", "pass"], []),
        "import_core": ([py, "-c", "import core"], []),
        "ours": ([py, "-c", OURS_PROCESS, str(vault), "0"], []),
        "ours_readonly": ([py, "-c", OURS_PROCESS, str(vault), "1"], []),
        "ours_read_all": ([py, "-c", OURS_PROCESS_READ_ALL, str(vault)], []),
    }
    if peer:
        runs["peer"] = ([peer, "-c", PEER_PROCESS, str(peer_dir)], [])
    for argv, _ in runs.values():  # warm-up: bytecode caches, page cache
        wall(argv)
    for _ in range(n):  # interleaved, so drift hits every column alike
        for argv, samples in runs.values():
            samples.append(wall(argv))
    return {k: series(s) for k, (_, s) in runs.items()}


def measure_open_after_imports(vault: Path, peer_dir: Path, peer: str | None,
                               n: int) -> dict[str, Any]:
    py = sys.executable
    runs: dict[str, tuple[list[str], list[float]]] = {
        "ours": ([py, "-c", OURS_AFTER_IMPORTS, str(vault), "0"], []),
        "ours_readonly": ([py, "-c", OURS_AFTER_IMPORTS, str(vault), "1"], []),
        "loop": ([py, "-c", LOOP_AFTER_IMPORTS, str(vault)], []),
    }
    if peer:
        runs["peer"] = ([peer, "-c", PEER_AFTER_IMPORTS, str(peer_dir)], [])
    loaded: dict[str, Any] = {}
    read_all: dict[str, list[float]] = {}
    for key, (argv, _) in runs.items():
        loaded[key] = run_json(argv)  # warm-up, and what each one loaded
    for _ in range(n):
        for key, (argv, samples) in runs.items():
            result = run_json(argv)
            if result.get("external_commit"):
                raise RuntimeError("opening the committed vault made a commit: it was not clean")
            samples.append(result["seconds"])
            if "read_all" in result:
                read_all.setdefault(key, []).append(result["seconds"] + result["read_all"])
    result = {k: series(s) for k, (_, s) in runs.items()}
    for key, samples in read_all.items():
        result[key]["with_read_all"] = series(samples)
    result["loaded"] = {k: {"memories": v["memories"], "relations": v["relations"]}
                        for k, v in loaded.items()}
    return result


def _status_to_archived(path: Path) -> None:
    text = path.read_text()
    changed = text.replace('"status": "active"', '"status": "archived"', 1)
    assert changed != text, f"{path} is not active"
    path.write_text(changed)


def measure_archive(root: Path, candidates: list[str], n: int) -> dict[str, Any]:
    """Per round, alternating: raw git (add + commit of one memory file whose status changed),
    then ``vault.archive`` right after that foreign commit (the vault catches up first), then
    ``vault.archive`` again (steady state: only memvault has written since)."""
    vault = Vault.open(root, config=DecayConfig())
    used = candidates[: 3 * (n + 1)]
    if len(used) < 3 * (n + 1):
        raise RuntimeError(f"not enough active memories for {n} archive rounds")
    pool = iter(used)
    git_s: list[float] = []
    ours_s: list[float] = []
    ours_after_foreign: list[float] = []
    commits_before = int(git(root, "rev-list", "--count", "HEAD"))
    for i in range(n + 1):  # round 0 is a warm-up
        mid = next(pool)
        path = vault.layout.memory_path(mid)
        rel = os.path.relpath(path, root)
        _status_to_archived(path)
        t = time.perf_counter()
        subprocess.run(["git", "add", rel], cwd=root, check=True)
        subprocess.run(["git", "commit", "-q", "-m", f"archive: {mid[:8]} (raw git)"],
                       cwd=root, check=True)
        dt_git = time.perf_counter() - t
        t = time.perf_counter()
        vault.archive(next(pool))
        dt_foreign = time.perf_counter() - t
        t = time.perf_counter()
        vault.archive(next(pool))
        dt_ours = time.perf_counter() - t
        if i:
            git_s.append(dt_git)
            ours_after_foreign.append(dt_foreign)
            ours_s.append(dt_ours)
    commits = int(git(root, "rev-list", "--count", "HEAD")) - commits_before
    # Put every memory archived here back to active (one commit, not timed), so the gc phase
    # finds the same stale memories whichever ones were used.
    vault.unarchive(*used)
    dirty = git(root, "status", "--porcelain")
    vault.close()
    return {"ours": series(ours_s), "ours_after_foreign_commit": series(ours_after_foreign),
            "git": series(git_s), "commits_made": commits, "expected_commits": 3 * (n + 1),
            "clean_after": not dirty}


class UnlinkMeter:
    """Counts the time ``core.git.commit`` spends removing deleted vault files (``remove_file``
    one by one, ``remove_many`` for a big commit's) while active: how much of a gc is the
    filesystem deleting files. Measures nothing (and says so) if core no longer has those
    hooks."""

    HOOKS = ("remove_file", "remove_many")

    def __init__(self) -> None:
        import core.git.commit as journal

        self.module = journal
        self.originals = {name: getattr(journal, name) for name in self.HOOKS
                          if hasattr(journal, name)}
        self.seconds = 0.0
        self.calls = 0

    @property
    def available(self) -> bool:
        return bool(self.originals)

    def __enter__(self) -> "UnlinkMeter":
        for name, original in self.originals.items():
            setattr(self.module, name, self._timed(original))
        return self

    def _timed(self, original: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> None:
            t = time.perf_counter()
            try:
                original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t
                self.calls += 1

        return timed

    def __exit__(self, *exc: object) -> None:
        for name, original in self.originals.items():
            setattr(self.module, name, original)


def measure_gc(root: Path, memories: list[Memory], relations: list[Relation], stale: set[str],
               n: int) -> dict[str, Any]:
    """``n`` rounds of: ``vault.gc()`` of the stale memories (timed), put them back, the same
    deletions by hand (unlink each file, ``git add -A -- memories relations``,
    ``git commit -q``; timed), put them back.
    Putting back is two commits through the vault, not timed. Before each timed step the files
    are synced to disk (``os.sync()``), as a long-lived vault's files are: deleting a file whose
    blocks are on disk costs more than deleting one still in the page cache."""
    by_id = {m.id: m for m in memories}
    vault = Vault.open(root, config=DecayConfig())
    seconds: list[float] = []
    git_seconds: list[float] = []
    unlink_seconds: list[float] = []
    checks: list[dict[str, Any]] = []
    removed: list[Relation] = []

    def put_back() -> None:
        # If a folder went away with its last file (at 1k gc prunes them all), the vault's write
        # path would not create it again (FileNotFoundError from the temp file), so make sure.
        vault.layout.ensure_dirs()
        vault.save_many([by_id[s] for s in sorted(stale)], message="bench: put pruned back",
                        make_gists=False)
        vault.save_relations(removed, message="bench: put relations back")

    for i in range(n):
        if i:
            put_back()
        os.sync()
        head = git(root, "rev-parse", "HEAD")
        count = int(git(root, "rev-list", "--count", "HEAD"))
        with UnlinkMeter() as meter:
            t = time.perf_counter()
            report = vault.gc()
            dt = time.perf_counter() - t
        seconds.append(dt)
        if meter.available:
            unlink_seconds.append(meter.seconds)
        removed = list(report.relations_removed)
        new_count = int(git(root, "rev-list", "--count", "HEAD"))
        files = git(root, "diff-tree", "--no-commit-id", "-r", "--name-only", "HEAD").splitlines()
        checks.append({
            "pruned": len(report.candidates),
            "relations_removed": len(removed),
            "commits_added": new_count - count,
            "parent_is_old_head": git(root, "rev-parse", "HEAD^") == head,
            "message": git(root, "log", "-1", "--format=%s"),
            "files_in_commit": len(files),
        })
        # The same deletions by hand with git's CLI, for scale. (`git rm` with 1,600 pathspecs
        # is avoided: its pathspec matching alone takes seconds at 10k.)
        deleted = sorted(f for f in files if not f.endswith(".meta.json"))
        put_back()
        os.sync()
        time.sleep(1.1)  # as at setup: no racily clean entries for git to re-hash
        git(root, "update-index", "-q", "--really-refresh")
        t = time.perf_counter()
        for rel in deleted:
            os.unlink(root / rel)
        subprocess.run(["git", "add", "-A", "--", "memories", "relations"], cwd=root, check=True)
        subprocess.run(["git", "commit", "-q", "-m", f"gc: prune {len(deleted)} files (raw git)"],
                       cwd=root, check=True)
        git_seconds.append(time.perf_counter() - t)
    put_back()
    dirty = git(root, "status", "--porcelain")
    vault.close()
    ok = all(c["commits_added"] == 1 and c["parent_is_old_head"] and c["pruned"] == len(stale)
             for c in checks)
    return {"gc": series(seconds), "git": series(git_seconds),
            "gc_unlink": series(unlink_seconds) if unlink_seconds else None,
            "files_deleted": checks[0]["pruned"] + checks[0]["relations_removed"],
            "checks": checks, "one_commit_each": ok,
            "clean_after": not dirty}


# -- report ----------------------------------------------------------------------------------------
def fmt_s(x: float | None) -> str:
    if x is None:
        return "-"
    return f"{x * 1000:.1f} ms" if x < 1 else f"{x:.3f} s"


def fmt_x(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def _short(x: float, like: float) -> str:
    """``x`` in the unit ``like`` is shown in (ms below a second), without the unit."""
    return f"{x * 1000:.1f}" if like < 1 else f"{x:.2f}"


def fmt_spread(node: Any, ratio: bool = False) -> str:
    """A series (:func:`scale.series`) as its median, then its range: ``7.5 ms (7.1-8.0)``;
    a lone figure as itself."""
    if node is None:
        return "-"
    if not isinstance(node, dict):
        return fmt_x(node) if ratio else fmt_s(node)
    median, low, high = node["median"], node.get("min"), node.get("max")
    if ratio:
        shown = fmt_x(median)
        return shown if low is None or low == high else f"{shown} ({low:.2f}-{high:.2f})"
    shown = fmt_s(median)
    if low is None or low == high:
        return shown
    return f"{shown} ({_short(low, median)}-{_short(high, median)})"


def fmt_ratio_spread(a: Any, b: Any) -> str:
    """``a / b`` of two series: the ratio of their medians, then the range of the ratios of
    their samples taken in the same round (interleaved runs), or of their extremes."""
    if not a or not b or not b.get("median"):
        return "-"
    shown = fmt_x(a["median"] / b["median"])
    xs, ys = a.get("samples") or [], b.get("samples") or []
    if len(xs) == len(ys) and len(xs) > 1 and all(ys):
        pairs = [x / y for x, y in zip(xs, ys)]
        low, high = min(pairs), max(pairs)
    elif a.get("min") is not None and b.get("max") and b.get("min"):
        low, high = a["min"] / b["max"], a["max"] / b["min"]
    else:
        return shown
    return f"{shown} ({low:.2f}-{high:.2f})"


def filesystem_of(path: Path) -> str:
    """``type (options)`` of the mount holding ``path``, from /proc/mounts where there is one."""
    best, found = "", "unknown"
    try:
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 4 and str(path).startswith(parts[1].rstrip("/") + "/") \
                    and len(parts[1]) >= len(best):
                best, found = parts[1], f"{parts[2]} on {parts[0]} at {parts[1]} ({parts[3]})"
    except OSError:
        pass
    return found


def machine_info() -> dict[str, Any]:
    import git as gitpython
    import pydantic

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "python_executable": sys.executable,
        "git": subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip(),
        "pydantic": pydantic.VERSION,
        "gitpython": gitpython.__version__,
        "load_average": os.getloadavg(),
    }


def render(results: dict[str, Any]) -> str:
    sizes = [int(s) for s in results["sizes"]]
    cols = [f"{s:,}" for s in sizes]
    label_w = 58
    col_w = 26
    lines: list[str] = []

    def head(title: str) -> None:
        lines.append("")
        lines.append(title)

    def row(label: str, cells: list[str], target: str = "") -> None:
        """One row: a figure per size (median, then min-max), its target beside it."""
        lines.append((f"  {label:<{label_w}}" + "".join(f"{c:>{col_w}}" for c in cells)
                      + (f"   {target}" if target else "")).rstrip())

    def cell(size: int, *keys: str) -> str:
        return fmt_spread(get(size, *keys))

    def xcell(size: int, a: tuple[str, ...], b: tuple[str, ...]) -> str:
        return fmt_ratio_spread(get(size, *a), get(size, *b))

    def xcell_runs(size: int, *keys: str) -> str:
        return fmt_spread(get(size, *keys), ratio=True)

    def get(size: int, *keys: str) -> Any:
        node: Any = results["sizes"][str(size)]
        for k in keys:
            if not isinstance(node, dict) or k not in node:
                return None
            node = node[k]
        return node

    def med(size: int, *keys: str) -> float | None:
        node = get(size, *keys)
        return node["median"] if node else None

    def ratio(size: int, a: tuple[str, ...], b: tuple[str, ...]) -> float | None:
        x, y = med(size, *a), med(size, *b)
        return x / y if x is not None and y else None

    m = results["machine"]
    r = results["repeat"]
    lines.append("memvault bench " + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(results["started"])))
    lines.append(f"machine: {m['cpu_count']} CPUs ({m['cpu']}), {m['platform']}")
    lines.append(f"         Python {m['python']}, {m['git']}, pydantic {m['pydantic']}, "
                 f"GitPython {m['gitpython']}")
    load = " -> ".join(", ".join(f"{x:.2f}" for x in la) for la in
                       (m["load_average"], results.get("load_average_end", m["load_average"])))
    lines.append(f"load:    1/5/15-min load average at start -> end: {load}"
                 + ("  (busy machine: figures are noisy)"
                    if max(m["load_average"][0], results.get("load_average_end", [0])[0])
                    > 0.5 * (m["cpu_count"] or 1) else ""))
    lines.append(f"vaults:  {results['tmpdir']}: {results['filesystem']}")
    lines.append("layout:  " + ", ".join(f"{int(n):,}: {e['build'].get('layout', '?')}"
                                         for n, e in results["sizes"].items())
                 + f"; phases: {', '.join(results.get('phases', PHASES))}")
    lines.append(f"peer:    {results['peer_note']}")
    lines.append(f"data:    seed {results['seed']}; per size: ~200-600 char contents, 1-4 tags, 0-3 "
                 f"entities, 1 relation per 3 memories; min({STALE:,}, N) of them stale (at 1k: all)")
    lines.append(f"runs:    medians of {r['open']} (opens), {r['archive']} (archive), {r['gc']} (gc), "
                 f"{r.get('search', MIN_REPEAT)} (search processes), with (min-max) beside; "
                 f"page cache warm; git with no user/system config")
    lines.append("")
    row("", cols)

    head("1. open, process start to ready (wall time of a fresh `python -c`)")
    row("python -c pass", [cell(s, "open_process", "python_pass") for s in sizes])
    row("python -c 'import core'", [cell(s, "open_process", "import_core") for s in sizes])
    row("import core; Vault.open(path)", [cell(s, "open_process", "ours") for s in sizes],
        f"<= {TARGET_READY_10K:g} s at 10k")
    row("import core; Vault.open(path, readonly=True)",
        [cell(s, "open_process", "ours_readonly") for s in sizes])
    row("import core; Vault.open(path); read every record",
        [cell(s, "open_process", "ours_read_all") for s in sizes])
    if results["peer"]:
        row("cortexgraph: import; JSONLStorage(...).connect()",
            [cell(s, "open_process", "peer") for s in sizes])
        row("ratio memvault / cortexgraph",
            [xcell(s, ("open_process", "ours"), ("open_process", "peer")) for s in sizes])
        row("ratio memvault, every record read / cortexgraph",
            [xcell(s, ("open_process", "ours_read_all"), ("open_process", "peer"))
             for s in sizes])

    head("2. open after imports (fresh subprocess, core+git already imported; open only)")
    row("memvault Vault.open(path)", [cell(s, "open_after_imports", "ours") for s in sizes])
    row("  the same, then every record read (parsed on read)",
        [cell(s, "open_after_imports", "ours", "with_read_all") for s in sizes])
    row("memvault Vault.open(path, readonly=True)",
        [cell(s, "open_after_imports", "ours_readonly") for s in sizes])
    row("plain per-file loop (model_validate_json per file)",
        [cell(s, "open_after_imports", "loop") for s in sizes])
    if results["peer"]:
        row("cortexgraph JSONLStorage(storage_path=...).connect()",
            [cell(s, "open_after_imports", "peer") for s in sizes])
        row("ratio memvault / cortexgraph",
            [xcell(s, ("open_after_imports", "ours"), ("open_after_imports", "peer"))
             for s in sizes], f"<= {TARGET_OPEN_RATIO:g}x at 10k")
        row("ratio memvault readonly / cortexgraph",
            [xcell(s, ("open_after_imports", "ours_readonly"), ("open_after_imports", "peer"))
             for s in sizes])
        row("ratio plain loop / cortexgraph",
            [xcell(s, ("open_after_imports", "loop"), ("open_after_imports", "peer"))
             for s in sizes])
    else:
        row("(cortexgraph skipped: see peer above)", ["-" for _ in sizes])
    row("ratio memvault / plain per-file loop",
        [xcell(s, ("open_after_imports", "ours"), ("open_after_imports", "loop"))
         for s in sizes])

    head("3. archive one memory, including its commit (alternating)")
    row("memvault vault.archive(id), in-process", [cell(s, "archive", "ours") for s in sizes])
    row("  the same, right after a foreign commit (catch-up)",
        [cell(s, "archive", "ours_after_foreign_commit") for s in sizes])
    row("git add <file> && git commit -q -m msg (subprocesses)",
        [cell(s, "archive", "git") for s in sizes])
    row("ratio memvault / git",
        [xcell(s, ("archive", "ours"), ("archive", "git")) for s in sizes],
        f"<= {TARGET_ARCHIVE_RATIO:g}x at 10k, <= {TARGET_ARCHIVE_GIT_RATIO_100K:g}x at 100k")
    row("ratio after a foreign commit / git",
        [xcell(s, ("archive", "ours_after_foreign_commit"), ("archive", "git"))
         for s in sizes])

    head("4. gc: prune the stale memories (1,000; at 1k all) and their relations, one commit")
    row("memvault vault.gc()", [cell(s, "gc", "gc") for s in sizes],
        f"< {TARGET_GC_SECONDS:g} s at 10k")
    row("  of which unlink() of the deleted files (filesystem)",
        [cell(s, "gc", "gc_unlink") for s in sizes])
    row("unlink the same files; git add -A; git commit -q (for scale)",
        [cell(s, "gc", "git") for s in sizes])
    row("ratio memvault / git", [xcell(s, ("gc", "gc"), ("gc", "git")) for s in sizes],
        f"<= {TARGET_GC_GIT_RATIO_100K:g}x at 100k")
    row("memories pruned / relations removed per gc",
        [(f"{get(s, 'gc', 'checks')[0]['pruned']:,} / {get(s, 'gc', 'checks')[0]['relations_removed']:,}"
          if get(s, "gc", "checks") else "-") for s in sizes])
    row("exactly one new commit per gc (parent = old HEAD)",
        [("-" if get(s, "gc") is None else "yes" if get(s, "gc", "one_commit_each") else "NO")
         for s in sizes])

    head("5. big vaults: open cold and warm, RSS, search, TUI (bench/scale.py)")
    row("open, no index (cold: reads every file, writes the index)",
        [cell(s, "opens", "cold") for s in sizes])
    row("  the same, until the open index is written (a thread)",
        [cell(s, "opens", "cold", "index_written") for s in sizes])
    row("open, warm index", [cell(s, "opens", "warm") for s in sizes])
    row("  the same, then every record read (parsed on read)",
        [cell(s, "opens", "warm", "with_read_all") for s in sizes])
    row("open, read-only (reads every file, no git)",
        [cell(s, "opens", "readonly") for s in sizes])
    if results["peer"]:
        row("cortexgraph connect()", [cell(s, "opens", "peer") for s in sizes])
        row("ratio warm / cortexgraph",
            [xcell(s, ("opens", "warm"), ("opens", "peer")) for s in sizes], "<= 1x")
        row("ratio cold (after a clone) / cortexgraph",
            [xcell(s, ("opens", "cold"), ("opens", "peer")) for s in sizes],
            f"<= {TARGET_COLD_OPEN_RATIO:g}x")
    row("peak RSS, warm open, every record read (MB)",
        [_mb(get(s, "opens", "warm", "rss_mb")) for s in sizes], "<= 1x cortexgraph's")
    if results["peer"]:
        row("peak RSS, cortexgraph connect (MB)",
            [_mb(get(s, "opens", "peer", "rss_mb")) for s in sizes])
    row("search p50, memvault ranked (bm25 + decay), top 10",
        [cell(s, "search", "ours", "p50_runs") for s in sizes])
    row("search p95, memvault", [cell(s, "search", "ours", "p95_runs") for s in sizes],
        f"< {TARGET_QUESTION_P95_100K * 1000:g} ms at 100k")
    row("first search (fills a new index: search rows, word lists)",
        [cell(s, "search", "ours", "first") for s in sizes])
    row("  its CPU time (process and children)",
        [cell(s, "search", "ours", "first_cpu") for s in sizes],
        f"<= {TARGET_FILL_CPU_100K:g} s at 100k")
    row("memvault search after a clone (process; from memory)",
        [cell(s, "first_search", "first") for s in sizes])
    row("  its background build of the index, done after",
        [cell(s, "first_search", "built") for s in sizes])
    row("memvault search, warm (process)", [cell(s, "first_search", "warm") for s in sizes])
    row("ratio after a clone / warm",
        [xcell(s, ("first_search", "first"), ("first_search", "warm")) for s in sizes],
        f"<= {TARGET_FIRST_SEARCH_RATIO:g}x")
    row("questions p50 (bench/search_questions.txt), top 10, no snippets",
        [cell(s, "questions", "questions", "p50_runs") for s in sizes])
    row("questions p95", [cell(s, "questions", "questions", "p95_runs") for s in sizes],
        f"< {TARGET_QUESTION_P95_100K * 1000:g} ms at 100k")
    row("two-word queries of the same words, p50", [cell(s, "questions", "two_words", "p50_runs")
                                                    for s in sizes])
    row("two-word queries, p95", [cell(s, "questions", "two_words", "p95_runs") for s in sizes])
    row("ratio questions / two words, p95",
        [xcell_runs(s, "questions", "p95_ratio_runs") for s in sizes],
        f"<= {TARGET_QUESTION_RATIO:g}x")
    if results["peer"]:
        row("questions p50, cortexgraph search_memory",
            [cell(s, "questions", "peer", "p50_runs") for s in sizes])
        row("questions p95, cortexgraph", [cell(s, "questions", "peer", "p95_runs")
                                           for s in sizes])
    if results["peer"]:
        row("search p50, cortexgraph search_memory, top 10",
            [cell(s, "search", "peer", "p50_runs") for s in sizes])
        row("search p95, cortexgraph", [cell(s, "search", "peer", "p95_runs") for s in sizes])
    row("TUI: process start to first painted tree",
        [cell(s, "tui") for s in sizes], f"<= {TARGET_TUI_PAINT:g} s")
    row("TUI: process start to the vault open (actions ready)",
        [cell(s, "tui", "ready") for s in sizes], f"<= {TARGET_TUI_READY:g} s")
    row("TUI after a clone (no index): first painted tree",
        [cell(s, "tui_cold") for s in sizes], f"<= {TARGET_TUI_PAINT:g} s")
    row("TUI after a clone (no index): actions ready",
        [cell(s, "tui_cold", "ready") for s in sizes], f"<= {TARGET_TUI_READY:g} s")
    row("TUI: CPU s to first paint / to ready (warm)",
        [f"{cell(s, 'tui', 'cpu')} / {cell(s, 'tui', 'ready_cpu')}" for s in sizes])
    row("TUI: CPU s to first paint / to ready (after a clone)",
        [f"{cell(s, 'tui_cold', 'cpu')} / {cell(s, 'tui_cold', 'ready_cpu')}" for s in sizes])
    row("TUI: peak RSS (MB)", [_mb(get(s, "tui", "rss_mb")) for s in sizes])

    head(f"Targets (at {TARGET_SIZE:,} memories; big-vault targets at 10k and 100k)")
    for t in results["targets"]:
        lines.append(f"  {t['name']:<{label_w}}{t['figure']:>{col_w}}   {t['verdict']}")
    if results.get("notes"):
        head("Notes")
        for note in results["notes"]:
            lines.append("  - " + note)
    return "\n".join(lines)


def _p95_ratio(questions: dict[str, Any] | None) -> float | None:
    """Questions' p95 over the two-word queries' p95, in the same run."""
    if not questions or not questions["two_words"]["p95"]:
        return None
    return questions["questions"]["p95"] / questions["two_words"]["p95"]


def _mb(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def scale_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The big-vault targets, at each of 10k and 100k that was measured."""
    found: list[dict[str, Any]] = []

    def add(name: str, value: float | None, limit: float, figure: str, unit: str) -> None:
        verdict = "not measured" if value is None else ("met" if value <= limit else "MISSED")
        found.append({"name": f"{name} <= {limit:g}{unit}", "value": value, "limit": limit,
                      "figure": figure if value is not None else "-", "verdict": verdict})

    def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
        return a["median"] / b["median"] if a and b and b.get("median") else None

    for n in (10_000, 100_000):
        size = results["sizes"].get(str(n))
        if size is None:
            continue
        label = f"{n // 1000}k"
        if "questions" in size:
            r = _p95_ratio(size["questions"])
            add(f"{label}: question p95 / two-word p95", r, TARGET_QUESTION_RATIO, fmt_x(r), "x")
            if n == 100_000:
                p95 = size["questions"]["questions"]["p95"]
                add(f"{label}: question p95", p95, TARGET_QUESTION_P95_100K, fmt_s(p95), " s")
        opens = size.get("opens")
        peer = opens.get("peer") if opens else None
        if opens:
            r = ratio(opens["warm"], peer)
            add(f"{label}: open with a warm index / cortexgraph", r, 1.0, fmt_x(r), "x")
            r = ratio(opens["cold"], peer)
            add(f"{label}: first open (no index, after a clone) / cortexgraph", r,
                TARGET_COLD_OPEN_RATIO, fmt_x(r), "x")
        if n == 10_000 and "open_process" in size:
            ready = size["open_process"]["ours"]["median"]
            add(f"{label}: process start to ready", ready, TARGET_READY_10K, fmt_s(ready), " s")
        first = size.get("first_search")
        if first:
            r = ratio(first["first"], first["warm"])
            add(f"{label}: memvault search after a clone / warm (process)", r,
                TARGET_FIRST_SEARCH_RATIO, fmt_x(r), "x")
        if "search" in size and "first_cpu" in size["search"]["ours"]:
            cpu = size["search"]["ours"]["first_cpu"]["median"]
            add(f"{label}: a new index filled, CPU (15 s at 100k, pro rata)", cpu,
                TARGET_FILL_CPU_100K * n / 100_000, fmt_s(cpu), " s")
        if "tui" in size:
            paint, ready = size["tui"]["median"], size["tui"]["ready"]["median"]
            add(f"{label}: TUI first painted tree", paint, TARGET_TUI_PAINT, fmt_s(paint), " s")
            add(f"{label}: TUI every action ready", ready, TARGET_TUI_READY, fmt_s(ready), " s")
        if "tui_cold" in size:
            paint, ready = size["tui_cold"]["median"], size["tui_cold"]["ready"]["median"]
            add(f"{label}: TUI after a clone, first painted tree", paint, TARGET_TUI_PAINT,
                fmt_s(paint), " s")
            add(f"{label}: TUI after a clone, every action ready", ready, TARGET_TUI_READY,
                fmt_s(ready), " s")
        if n == 100_000:
            if "search" in size:
                p95 = size["search"]["ours"]["p95"]
                add(f"{label}: search p95", p95, 0.050, fmt_s(p95), " s")
            if opens:
                rss = opens["warm"]["rss_mb"] / peer["rss_mb"] if peer else None
                add(f"{label}: peak RSS / cortexgraph's", rss, 1.0, fmt_x(rss), "x")
    return found + write_targets(results)


def write_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Writes that do not grow with the vault: at 100k, archive against git's own add and
    commit, archive against archive at 10k, gc against the same deletions by hand."""
    found: list[dict[str, Any]] = []
    sizes = results["sizes"]
    big, small = sizes.get("100000"), sizes.get("10000")

    def add(name: str, value: float | None, limit: float) -> None:
        verdict = "not measured" if value is None else ("met" if value <= limit else "MISSED")
        found.append({"name": f"{name} <= {limit:g}x", "value": value, "limit": limit,
                      "figure": fmt_x(value), "verdict": verdict})

    def ratio(a: dict[str, Any] | None, b: dict[str, Any] | None) -> float | None:
        return a["median"] / b["median"] if a and b and b["median"] else None

    if big is None:
        return found
    archive = big.get("archive") or {}
    add("100k: archive / git add && git commit", ratio(archive.get("ours"), archive.get("git")),
        TARGET_ARCHIVE_GIT_RATIO_100K)
    if small is not None and "archive" in small:
        add("archive at 100k / at 10k", ratio(archive.get("ours"), small["archive"]["ours"]),
            TARGET_ARCHIVE_GROWTH)
    gc = big.get("gc") or {}
    add("100k: gc of 1,000 / the same deletions by hand", ratio(gc.get("gc"), gc.get("git")),
        TARGET_GC_GIT_RATIO_100K)
    return found


def evaluate_targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    size = results["sizes"].get(str(TARGET_SIZE))
    targets: list[dict[str, Any]] = []

    def add(name: str, value: float | None, limit: float, unit: str,
            why: str = "peer unavailable") -> None:
        if size is None:
            verdict, figure = f"not measured ({TARGET_SIZE:,} not in --sizes)", "-"
        elif value is None:
            verdict, figure = f"not measured ({why})", "-"
        else:
            verdict = "met" if value <= limit else "MISSED"
            figure = fmt_x(value) if unit == "x" else fmt_s(value)
        shown = f"{limit:g}x" if unit == "x" else f"{limit:g} s"
        targets.append({"name": f"{name} <= {shown}" if unit == "x" else f"{name} < {shown}",
                        "value": value, "limit": limit, "figure": figure, "verdict": verdict})

    open_ratio = archive_ratio = gc_s = None
    if size is not None:
        oa = size.get("open_after_imports", {})
        if "peer" in oa:
            open_ratio = oa["ours"]["median"] / oa["peer"]["median"]
        if "archive" in size:
            archive_ratio = size["archive"]["ours"]["median"] / size["archive"]["git"]["median"]
        if "gc" in size:
            gc_s = size["gc"]["gc"]["median"]
    add("open after imports, memvault / cortexgraph", open_ratio, TARGET_OPEN_RATIO, "x")
    add("archive incl. commit, memvault / git CLI", archive_ratio, TARGET_ARCHIVE_RATIO, "x",
        "phase not run")
    add("gc of 1,000 in one commit", gc_s, TARGET_GC_SECONDS, "s", "phase not run")
    if size is not None and "gc" in size and not size["gc"]["one_commit_each"]:
        targets[-1]["verdict"] += " (but NOT exactly one commit)"
    return targets + scale_targets(results)


def parse_sizes(text: str) -> list[int]:
    sizes = []
    for part in text.split(","):
        part = part.strip().lower().replace("_", "")
        if not part:
            continue
        sizes.append(int(float(part[:-1]) * 1000) if part.endswith("k") else int(part))
    if not sizes or any(s < 3 for s in sizes):
        raise argparse.ArgumentTypeError("sizes must be integers >= 3, e.g. 1000,10000")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=parse_sizes, default=[1000, 10000],
                        help="vault sizes, comma-separated (default: 1000,10000)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="repetitions of every measurement (default: 7 for opens, 15 for "
                             "archive, 3 for gc)")
    parser.add_argument("--peer-python", default=None,
                        help="a python with cortexgraph 1.2.1 installed (default: "
                             "bench/.cache/peer-venv, created and installed on first use)")
    parser.add_argument("--size", type=parse_sizes, dest="sizes",
                        help="one size (or several), the same as --sizes: --size 100000")
    parser.add_argument("--queries", type=int, default=200,
                        help="timed search queries per size (default 200)")
    parser.add_argument("--json", dest="json_file", default=None, help="also save results here")
    parser.add_argument("--seed", type=int, default=1, help="data seed (default: 1)")
    parser.add_argument("--tmpdir", default=None,
                        help="where to build the vaults (default: the system's temp folder); "
                             "the filesystem matters for gc, see bench/README.md")
    parser.add_argument("--keep", action="store_true", help="keep the temporary vaults")
    parser.add_argument("--layout", choices=LAYOUTS, default=None,
                        help="the vaults' layout (default: the one memvault suggests for the "
                             "size: sharded above 50,000 memories)")
    parser.add_argument("--phases", default=",".join(PHASES),
                        help=f"what to measure, comma-separated (default: all: {','.join(PHASES)})")
    args = parser.parse_args(argv)
    phases = {p.strip() for p in args.phases.split(",") if p.strip()}
    if not phases or phases - set(PHASES):
        parser.error(f"--phases takes some of {','.join(PHASES)}")
    if args.repeat is not None and args.repeat < MIN_REPEAT:
        parser.error(f"--repeat must be >= {MIN_REPEAT}: every figure is a median with its range")

    def log(msg: str) -> None:
        print(f"[bench] {msg}", file=sys.stderr, flush=True)

    repeat = {"open": args.repeat or 7, "archive": args.repeat or 15, "gc": args.repeat or 3,
              "search": args.repeat or MIN_REPEAT}
    started = time.time()
    peer, peer_note = find_peer(args.peer_python, log)
    results: dict[str, Any] = {
        "started": started, "seed": args.seed, "repeat": repeat, "machine": machine_info(),
        "peer": peer, "peer_note": peer_note, "sizes": {}, "notes": [],
        "phases": sorted(phases),
    }
    if peer is None:
        results["notes"].append(peer_note)
    tmp = Path(tempfile.mkdtemp(prefix="memvault-bench-", dir=args.tmpdir)).resolve()
    results["tmpdir"] = str(tmp)
    results["filesystem"] = filesystem_of(tmp)
    try:
        for n in args.sizes:
            now = int(time.time())
            t0 = time.perf_counter()
            log(f"{n:,}: generating data")
            memories, relations, stale = make_dataset(n, args.seed, now)
            vault_dir = tmp / f"vault-{n}"
            peer_dir = tmp / f"cortexgraph-{n}"
            log(f"{n:,}: building the vault and the CortexGraph JSONL copy")
            build = build_vault(vault_dir, memories, relations, args.layout)
            write_peer_jsonl(peer_dir, memories, relations)
            entry: dict[str, Any] = {"memories": n, "relations": len(relations),
                                     "stale": len(stale), "build": build}
            if "open" in phases:
                log(f"{n:,}: open, process start to ready")
                entry["open_process"] = measure_open_process(vault_dir, peer_dir, peer,
                                                             repeat["open"])
                log(f"{n:,}: open after imports")
                entry["open_after_imports"] = measure_open_after_imports(
                    vault_dir, peer_dir, peer, repeat["open"])
                log(f"{n:,}: open cold / warm index / read-only, with RSS")
                entry["opens"] = scale.measure_opens(vault_dir, peer_dir, peer, repeat["open"])
            if "search" in phases:
                log(f"{n:,}: search, {args.queries} queries")
                queries = scale.make_queries(memories, args.queries, args.seed)
                entry["search"] = scale.measure_search(vault_dir, peer_dir, peer, queries,
                                                       repeat["search"])
                log(f"{n:,}: questions beside two-word queries of their words")
                entry["questions"] = scale.measure_questions(
                    vault_dir, peer_dir, peer, scale.load_questions(), set(WORDS),
                    repeat["search"])
                log(f"{n:,}: memvault search after a clone / warm, process start to end")
                entry["first_search"] = scale.measure_first_search(
                    vault_dir, queries[0], max(MIN_REPEAT, repeat["open"] // 2))
            if "tui" in phases:
                log(f"{n:,}: TUI start to first paint")
                entry["tui"] = scale.measure_tui_paint(vault_dir,
                                                       max(MIN_REPEAT, repeat["open"] // 2))
                log(f"{n:,}: TUI start to first paint after a clone (no index)")
                entry["tui_cold"] = scale.measure_tui_paint(
                    vault_dir, max(MIN_REPEAT, repeat["open"] // 2), cold=True)
            if "archive" in phases:
                log(f"{n:,}: archive vs git add && git commit")
                active = [m.id for m in memories if m.status == MemoryStatus.ACTIVE]
                active.sort(key=lambda i: i in stale)  # recent ones first; stale ones if need be
                entry["archive"] = measure_archive(vault_dir, active, repeat["archive"])
            if "gc" in phases:
                log(f"{n:,}: gc of {len(stale):,}")
                entry["gc"] = measure_gc(vault_dir, memories, relations, stale, repeat["gc"])
            entry["seconds_total"] = time.perf_counter() - t0
            loaded = entry.get("open_after_imports", {}).get("loaded", {})
            if any(v["memories"] != n or v["relations"] != len(relations) for v in loaded.values()):
                results["notes"].append(f"{n:,}: not every opener loaded every record: {loaded}")
            archive = entry.get("archive")
            if archive and archive["commits_made"] != archive["expected_commits"]:
                results["notes"].append(f"{n:,}: archive phase made {archive['commits_made']} "
                                        f"commits, expected {archive['expected_commits']}")
            if not all(entry[k]["clean_after"] for k in ("archive", "gc") if k in entry):
                results["notes"].append(f"{n:,}: the work tree was not clean after a phase")
            results["sizes"][str(n)] = entry
            if not args.keep:
                shutil.rmtree(vault_dir, ignore_errors=True)
                shutil.rmtree(peer_dir, ignore_errors=True)
    finally:
        if args.keep:
            log(f"vaults kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    results["load_average_end"] = os.getloadavg()
    results["targets"] = evaluate_targets(results)
    results["seconds_total"] = time.time() - started
    results["notes"].append(f"whole run: {results['seconds_total']:.0f} s")
    print(render(results))
    if args.json_file:
        Path(args.json_file).write_text(json.dumps(results, indent=2, default=str) + "\n")
        log(f"results saved to {args.json_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
