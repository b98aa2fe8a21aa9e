"""Drive CortexGraph 1.2.1's own tool functions on its ``JSONLStorage`` and on memvault's
``PerFileStorage``, and say which calls behave the same.

Runs in an environment with ``cortexgraph==1.2.1`` and ``mcp<2`` (CortexGraph imports
``mcp.server.fastmcp``) and memvault's ``core`` importable (the project on ``PYTHONPATH``); the
test beside it builds that environment. By hand::

    python cortexgraph_driver.py --work /tmp/somewhere [--out report.json]

Both stores get the same calls (:mod:`cortexgraph_scenario`), step by step, with the same clock
(``time.time`` is set per call, and stands still during it) and the same ids (CortexGraph's
``uuid.uuid4`` counts, per store), each store in its own folder. When a call leaves the two
stores' records apart (as the per-file rule below expects, or as a difference counted against
that call), the JSONL store is given the vault's records before the next call, so every call is
judged from the same records. The storage is put where CortexGraph's code takes it from: the
``db`` every tool module imported from ``cortexgraph.context``, and for the web API the
``JSONLStorage`` class it constructs (replaced by ``PerFileStorage`` itself, which finds its
folder through ``cortexgraph.config.set_config``, as CortexGraph's own storage does).

A call behaves as on CortexGraph's storage when:

- its result (or the exception it raised) is the same, folder names aside;
- the records after it are the same (the files in ``memories/`` and ``relations/``, ``gist``
  aside), by the per-file spec's rule for relations of a deleted memory: lineage relations
  (``consolidated_from``, ``split_from``) stay, others go with the memory;
- every storage write it made is one commit, changing exactly the files of the records the
  write changed (none for a write that changed nothing), and the vault's git status is clean.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import os
import subprocess
import sys
import time
import types
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

START = 1_767_225_600  # 2026-01-01 00:00:00 UTC: the clock of the first call
LINEAGE = {"consolidated_from", "split_from"}
WRITES = ("save_memory", "save_memories_batch", "update_memory", "delete_memory",
          "delete_memories_batch", "create_relation", "create_relations_batch",
          "delete_relation", "compact")


# -- the clock and the ids, the same for both runs ------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return float(self.now)


CLOCK = Clock()


class Ids:
    """CortexGraph's ``uuid.uuid4``, counted (memvault's own uses of uuid are left alone)."""

    def __init__(self) -> None:
        self.counter = itertools.count(1)

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(int=next(self.counter) << 64 | 0x8000_0000_0000_0000, version=4)


IDS = Ids()


def install_clock_and_ids() -> None:
    time.time = CLOCK
    counted = types.SimpleNamespace(**{k: getattr(uuid, k) for k in dir(uuid)
                                       if not k.startswith("__")})
    counted.uuid4 = lambda: IDS.uuid4()
    for name, module in list(sys.modules.items()):
        if name.startswith("cortexgraph") and getattr(module, "uuid", None) is uuid:
            module.uuid = counted


# -- putting a storage where CortexGraph's tools take it from -------------------------------------
TOOL_MODULES = ("save", "search", "search_unified", "touch", "gc", "promote", "open_memories",
                "create_relation", "read_graph", "cluster", "consolidate", "auto_recall_tool")


def import_cortexgraph() -> dict[str, Any]:
    modules = {name: importlib.import_module(f"cortexgraph.tools.{name}") for name in TOOL_MODULES}
    modules["web"] = importlib.import_module("cortexgraph.web.api")
    importlib.import_module("cortexgraph.core.consolidation")
    importlib.import_module("cortexgraph.core.clustering")
    return modules


def put_storage(storage: Any, storage_class: type) -> None:
    import cortexgraph.context as context
    import cortexgraph.web.api as web

    for name, module in list(sys.modules.items()):
        if name.startswith("cortexgraph") and hasattr(module, "db"):
            module.db = storage
    context._db = storage
    web.JSONLStorage = storage_class


class Counted:
    """The storage with its write calls recorded (and, for a vault, the commits each made)."""

    def __init__(self, storage: Any, vault_dir: Path | None) -> None:
        self._storage = storage
        self._vault_dir = vault_dir
        self.writes: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._storage, name)
        if name not in WRITES:
            return attr

        def write(*args: Any, **kwargs: Any) -> Any:
            before = records_on_disk(self._vault_dir) if self._vault_dir else None
            head = git_head(self._vault_dir) if self._vault_dir else None
            try:
                return attr(*args, **kwargs)
            finally:
                entry: dict[str, Any] = {"method": name}
                if self._vault_dir is not None:
                    after = records_on_disk(self._vault_dir)
                    entry["changed"] = sorted(changed_files(before, after))
                    entry["commits"] = commits_since(self._vault_dir, head)
                self.writes.append(entry)
        return write

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_") or name == "writes":
            object.__setattr__(self, name, value)
        else:
            setattr(self._storage, name, value)


# -- what is on disk and in git -------------------------------------------------------------------
def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def git_head(vault: Path) -> str | None:
    if not vault.is_dir():
        return None
    proc = subprocess.run(["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=vault,
                          capture_output=True, text=True)
    return proc.stdout.strip() or None


def commits_since(vault: Path, head: str | None) -> list[list[str]]:
    """The files each commit since ``head`` changed, oldest first."""
    if not (vault / ".git").exists():
        return []
    spec = f"{head}..HEAD" if head else "HEAD"
    shas = git(vault, "rev-list", "--reverse", spec).split()
    return [sorted(git(vault, "diff-tree", "--root", "--no-commit-id", "--name-only", "-r",
                       sha).split()) for sha in shas]


def records_on_disk(vault: Path) -> dict[str, dict[str, Any]]:
    """``memories/<id>.json`` / ``relations/<id>.json`` -> the record, ``gist`` aside."""
    found = {}
    for folder in ("memories", "relations"):
        for path in sorted((vault / folder).glob("*.json")) if (vault / folder).is_dir() else []:
            data = json.loads(path.read_text("utf-8"))
            data.pop("gist", None)
            found[f"{folder}/{path.name}"] = data
    return found


def changed_files(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def jsonl_records(storage: Any) -> dict[str, dict[str, Any]]:
    found = {}
    for mid, m in storage.memories.items():
        found[f"memories/{mid}.json"] = m.model_dump(mode="json")
    for rid, r in storage.relations.items():
        found[f"relations/{rid}.json"] = r.model_dump(mode="json")
    return found


def expected_records(jsonl: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """JSONLStorage's records by the per-file rule: a relation that is not lineage goes with
    a memory deleted at either end."""
    kept = {}
    for key, data in jsonl.items():
        if key.startswith("relations/") and data["relation_type"] not in LINEAGE:
            ends = (f"memories/{data['from_memory_id']}.json",
                    f"memories/{data['to_memory_id']}.json")
            if not all(e in jsonl for e in ends):
                continue
        kept[key] = data
    return kept


# -- one run -------------------------------------------------------------------------------------
def normalised(value: Any, root: Path) -> Any:
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    if isinstance(value, dict):
        return {str(k): normalised(v, root) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalised(v, root) for v in value]
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, str):
        return value.replace(str(root), "<root>")
    if isinstance(value, Path):
        return str(value).replace(str(root), "<root>")
    return value


class Backend:
    """One storage, its folder, its configuration and its own count of CortexGraph's ids."""

    def __init__(self, name: str, root: Path, explicit_path: bool = False) -> None:
        from cortexgraph.config import Config

        from core.cortexgraph_storage import PerFileStorage

        self.name, self.root, self.store = name, root, root / "store"
        (root / "ltm").mkdir(parents=True)
        self.config = Config(storage_path=self.store, ltm_vault_path=root / "ltm",
                             ltm_promoted_folder="promoted", enable_embeddings=False)
        self.ids = itertools.count(1)
        self.vault_dir = self.store if name == "perfile" else None
        self.storage_class: type = PerFileStorage if name == "perfile" else jsonl_class()
        self.counted: Counted | None = None
        self.enter()
        # the one line a CortexGraph user changes: PerFileStorage() finds its folder through
        # CortexGraph's configuration, as JSONLStorage() does
        storage = (PerFileStorage() if name == "perfile" and not explicit_path
                   else self.storage_class(storage_path=self.store))
        self.open(storage)

    def open(self, storage: Any) -> None:
        storage.connect()
        self.storage = storage
        self.counted = Counted(storage, self.vault_dir)

    def enter(self) -> None:
        from cortexgraph.config import set_config

        set_config(self.config)
        IDS.counter = self.ids
        if self.counted is not None:
            put_storage(self.counted, self.storage_class)

    def call(self, step: Any, ctx: dict[str, Any]) -> dict[str, Any]:
        self.enter()
        assert self.counted is not None
        self.counted.writes = []
        try:
            result: Any = {"ok": normalised(step.call(ctx), self.root)}
        except Exception as exc:  # noqa: BLE001 (what a call raises is part of its behaviour)
            detail = getattr(exc, "detail", None)
            result = {"raised": type(exc).__name__,
                      "message": normalised(str(detail if detail is not None else exc), self.root)}
        if self.vault_dir is not None:
            records = records_on_disk(self.vault_dir)
            status = (git(self.vault_dir, "status", "--porcelain", "--untracked-files=all")
                      if (self.vault_dir / ".git").exists() else "no vault where CortexGraph's "
                      "configuration says the storage is")
        else:
            records, status = jsonl_records(self.storage), ""
        return {"tool": step.tool, "label": step.label, "result": result, "records": records,
                "writes": self.counted.writes, "git_status": status}

    def load(self, records: dict[str, dict[str, Any]]) -> None:
        """Make this JSONL store hold exactly ``records`` (written as CortexGraph writes them)."""
        self.storage.close()
        for folder, name in (("memories", "memories.jsonl"), ("relations", "relations.jsonl")):
            lines = [json.dumps(data) for key, data in sorted(records.items())
                     if key.startswith(folder + "/")]
            (self.store / name).write_text("".join(line + "\n" for line in lines), "utf-8")
        self.open(self.storage_class(storage_path=self.store))


def jsonl_class() -> type:
    from cortexgraph.storage.jsonl_storage import JSONLStorage

    return JSONLStorage


def run(work: Path, steps: list[Any],
        explicit_path: bool = False) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each step on both backends from the same records: where a call leaves the vault other
    than the JSONL store (a difference counted against that call), the JSONL store is set to
    the vault's records before the next call, so each call is judged on its own."""
    jsonl = Backend("jsonl", work / "jsonl")
    perfile = Backend("perfile", work / "perfile", explicit_path)
    contexts: dict[str, dict[str, Any]] = {"jsonl": {}, "perfile": {}}
    seen = []
    for step in steps:
        CLOCK.now += step.advance
        pair = []
        for backend in (jsonl, perfile):
            ctx = contexts[backend.name]
            observed = backend.call(step, ctx)
            if step.keep and "ok" in observed["result"]:
                ctx[step.keep] = step.pick(observed["result"]["ok"])
            pair.append(observed)
        seen.append((pair[0], pair[1]))
        if pair[0]["records"] != pair[1]["records"]:
            jsonl.load(pair[1]["records"])
    jsonl.storage.close()
    perfile.storage.close()
    return seen


# -- the comparison ------------------------------------------------------------------------------
def differences(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    found = []
    if ours["result"] != theirs["result"]:
        found.append("result")
    expected = expected_records(theirs["records"])
    if ours["records"] != expected:
        lineage_only = {k for k in changed_files(ours["records"], expected)
                        if k.startswith("relations/")
                        and expected.get(k, {}).get("relation_type") in LINEAGE
                        and k not in ours["records"]}
        found.append("lineage" if lineage_only == changed_files(ours["records"], expected)
                     else "records")
    for w in ours["writes"]:
        if len(w["commits"]) > 1 or (w["changed"] and len(w["commits"]) != 1) or \
                (not w["changed"] and w["commits"]) or \
                (w["commits"] and w["commits"][0] != w["changed"]):
            found.append(f"commits:{w['method']}")
    if [w["method"] for w in ours["writes"]] != [w["method"] for w in theirs["writes"]]:
        found.append("writes")
    if ours["git_status"]:
        found.append("git_status")
    return found


def compare(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    calls = []
    for theirs, ours in pairs:
        diff = differences(ours, theirs)
        entry = {"tool": ours["tool"], "label": ours["label"], "same": not diff,
                 "differences": diff, "writes": len(ours["writes"]),
                 "commits": sum(len(w["commits"]) for w in ours["writes"])}
        if diff:
            entry["jsonl"] = {"result": theirs["result"]}
            entry["perfile"] = {"result": ours["result"]}
            if "records" in diff or "lineage" in diff:
                expected = expected_records(theirs["records"])
                entry["records_differ"] = sorted(changed_files(ours["records"], expected))
        calls.append(entry)
    return {"calls": calls, "total": len(calls), "same": sum(c["same"] for c in calls),
            "tools": sorted({c["tool"] for c in calls})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True, help="an empty folder to work in")
    parser.add_argument("--out", type=Path, help="write the JSON report here (else stdout)")
    parser.add_argument("--explicit-path", action="store_true",
                        help="give PerFileStorage its folder instead of letting it find it "
                             "through CortexGraph's configuration (to measure older versions)")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    os.chdir(work)  # CortexGraph reads ./.env: there is none here
    home = work / "home"  # nothing outside the work folder is read or written
    os.environ.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                      XDG_DATA_HOME=str(home / ".local" / "share"))
    for var in [v for v in os.environ if v.startswith("CORTEXGRAPH_") or v == "MEMVAULT_PATH"]:
        del os.environ[var]
    import_cortexgraph()
    install_clock_and_ids()
    import cortexgraph_scenario

    steps = cortexgraph_scenario.steps()
    report = compare(run(work, steps, args.explicit_path))
    text = json.dumps(report, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text, "utf-8")
    else:
        print(text)
    print(f"{report['same']} of {report['total']} calls behave as on CortexGraph's storage",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
