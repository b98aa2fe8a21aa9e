"""Shared pieces of the fault-injection tests (split, consolidate, gc): a ``Journal.faults.hook``
that raises at the n-th occurrence of a step, and a snapshot of everything a failed operation
must leave as it was. Below them, the machinery of tests/core/git/test_faults.py."""

from __future__ import annotations

import contextlib
import errno as _errno
import io
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from core import Vault


def fault_hook(step: str, occurrence: int = 1, calls: list | None = None):
    """A hook raising RuntimeError the ``occurrence``-th time ``step`` is reached; every step
    reached is appended to ``calls`` when given."""
    seen = {"n": 0}

    def hook(name: str) -> None:
        if calls is not None:
            calls.append(name)
        if name == step:
            seen["n"] += 1
            if seen["n"] == occurrence:
                raise RuntimeError(f"injected fault at {name} #{occurrence}")
    return hook


def vault_files(root: Path) -> dict[str, bytes]:
    """Every file of the work tree (outside .git), byte for byte."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=vault.root, capture_output=True, text=True,
                          check=True).stdout.strip()


def vault_snapshot(vault: Vault) -> dict:
    """Files on disk, HEAD, the cache, .meta.json and git status."""
    return {
        "files": vault_files(vault.root),
        "head": _git(vault, "rev-parse", "HEAD"),
        "memories": {k: m.model_dump() for k, m in vault.memories.items()},
        "relations": {k: r.model_dump() for k, r in vault.relations.items()},
        "meta": dict(vault.meta),
        "status": _git(vault, "status", "--porcelain", "--untracked-files=all"),
    }


# =============================================================================================
# The fault-injection suite (tests/core/git/test_faults.py): a small template vault copied per trial,
# deterministic ids and clock, whole-state comparison, forked children killed at a step, and
# patched write/rename/unlink/fsync/git primitives.
# =============================================================================================

#: Memories of the template vault: m1 and m2 are long unused (gc prunes them with the three
#: relations among m0, m1, m2); m5 was deleted with its two relations (restore brings it back).
SPLIT_PARTS = ["Alpha fact about apples.", "Beta fact about boats.", "Gamma fact about cars."]
PERSON_MEMORY_ID = "person-added"


def build_template(root: Path) -> int:
    """Make the template vault at ``root`` (5 living memories, 3 relations, one deleted memory
    with 2 relations in history); returns the fixed clock trials run at."""
    from core import Memory, MemoryMetadata, Relation
    from core.model.records import now_epoch

    now = now_epoch()
    old = now - 300 * 86400
    v = Vault.open(root)
    v.save_many([
        Memory(id="m0", content=" ".join(SPLIT_PARTS), meta=MemoryMetadata(tags=["facts"])),
        Memory(id="m1", content="An old note about the garden shed.", last_used=old,
               created_at=old),
        Memory(id="m2", content="An old note about the bicycle lock code.", last_used=old,
               created_at=old),
        Memory(id="m3", content="Delta fact about dogs and their walks.",
               meta=MemoryMetadata(tags=["facts", "dogs"])),
        Memory(id="m4", content="Epsilon note on eels living in rivers."),
        Memory(id="m5", content="A memory that was deleted, with its relations."),
    ], message="add: the fault template")
    v.save_relations([
        Relation(id="r01", from_memory_id="m0", to_memory_id="m1", relation_type="related"),
        Relation(id="r20", from_memory_id="m2", to_memory_id="m0", relation_type="supports"),
        Relation(id="r12", from_memory_id="m1", to_memory_id="m2", relation_type="causes"),
        Relation(id="r53", from_memory_id="m5", to_memory_id="m3", relation_type="related"),
        Relation(id="r45", from_memory_id="m4", to_memory_id="m5", relation_type="supports"),
    ])
    v.delete("m5")
    release(v)
    # fewer files to copy per trial: objects in one pack, no sample hooks
    subprocess.run(["git", "repack", "-a", "-d", "-q"], cwd=root, check=True)
    subprocess.run(["git", "prune-packed"], cwd=root, check=True)
    for sample in (root / ".git" / "hooks").glob("*.sample"):
        sample.unlink()
    return now + 100


def _op_split(v: Vault) -> object:
    from core.ops.split import execute_split
    return execute_split(v, "m0", SPLIT_PARTS, original="delete")


def _op_consolidate(v: Vault) -> object:
    from core.ops.consolidate import execute_consolidation
    return execute_consolidation(v, ["m0", "m3"], sources="delete")


#: Every multi-file operation, on the template vault.
OPS: dict[str, Callable[[Vault], object]] = {
    "add": lambda v: v.add("A new memory about the fault suite.", tags=["new"]),
    "update": lambda v: v.update("m3", content="Delta fact, changed by an update."),
    "touch": lambda v: v.touch("m0", "m3", "m4"),
    "archive": lambda v: v.archive("m0", "m3", "m4"),
    "delete": lambda v: v.delete("m0", "m1"),  # + the 3 relations
    "gc": lambda v: v.gc(),  # m1, m2, the 3 relations and .meta.json
    "restore": lambda v: v.restore("m5"),  # + its 2 relations
    "split": _op_split,  # 3 parts, 3 split_from, m0 and its 2 relations dropped
    "consolidate": _op_consolidate,  # merged, 2 consolidated_from, 2 moved, meta, 2 dropped...
}


def person_edits(root: Path) -> None:
    """What a person does with an editor while no memvault runs: change m3 (valid JSON, new
    content), delete m4, add a new valid memory file."""
    path = root / "memories" / "m3.json"
    record = json.loads(path.read_bytes())
    record["content"] = "Delta fact, rewritten by a person in an editor."
    path.write_text(json.dumps(record, indent=2) + "\n")
    (root / "memories" / "m4.json").unlink()
    new = dict(record, id=PERSON_MEMORY_ID, content="A memory a person wrote by hand.", gist=None)
    (root / "memories" / f"{PERSON_MEMORY_ID}.json").write_text(json.dumps(new, indent=2) + "\n")


# -- deterministic ids and clock -----------------------------------------------------------------
class _FixedClock:
    def __init__(self, now: int):
        self.now = now

    def time(self) -> float:
        return float(self.now)

    def __getattr__(self, name: str):
        return getattr(time, name)


@contextlib.contextmanager
def deterministic(now: int) -> Iterator[None]:
    """uuid4 counts from a fixed start and ``now_epoch`` returns ``now``, so one operation run
    twice on two copies of a vault writes the same bytes (and the same git trees)."""
    import core.model.values  # (now_epoch's clock: the records' times come from it)

    counter = itertools.count(1)
    saved_time, saved_uuid4 = core.model.values.time, uuid.uuid4
    core.model.values.time = _FixedClock(now)
    uuid.uuid4 = lambda: uuid.UUID(int=(next(counter) << 100) | 0xFA17)
    try:
        yield
    finally:
        core.model.values.time, uuid.uuid4 = saved_time, saved_uuid4


# -- whole states ------------------------------------------------------------------------------
@dataclass
class State:
    files: dict[str, bytes]  # every work-tree file outside .git, byte for byte
    commits: list[tuple[str, str, str, str]]  # (sha, parents, tree, subject), newest first

    @property
    def head(self) -> str:
        return self.commits[0][0]


def state_of(root: Path) -> State:
    out = subprocess.run(["git", "log", "--format=%H%x1f%P%x1f%T%x1f%s"], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    return State(vault_files(root), [tuple(line.split("\x1f")) for line in out.splitlines()])


def which_state(now: State, before: State, after: State | None) -> str | None:
    """"before" (same files, same commits), "after" (after's files, one commit on before's
    HEAD with after's tree and subject) or None."""
    if now.files == before.files and now.commits == before.commits:
        return "before"
    if (after is not None and now.files == after.files
            and len(now.commits) == len(before.commits) + 1
            and now.commits[1:] == before.commits
            and now.commits[0][1:] == after.commits[0][1:]):
        return "after"
    return None


def state_difference(now: State, before: State, after: State | None) -> str:
    def diff(a: dict[str, bytes], b: dict[str, bytes]) -> str:
        keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        return ", ".join(keys[:6]) + (f" +{len(keys) - 6}" if len(keys) > 6 else "") or "-"
    text = (f"neither before nor after: {len(now.commits) - len(before.commits):+d} commits "
            f"(HEAD {now.commits[0][3]!r}); files differing from before: "
            f"{diff(now.files, before.files)}")
    if after is not None:
        text += f"; from after: {diff(now.files, after.files)}"
    return text


def external_subjects(state: State) -> list[str]:
    return [c[3] for c in state.commits if c[3].startswith("external:")]


def temp_leftovers(root: Path) -> list[str]:
    """``.tmp-*`` files in the vault and in memvault's state folder in .git."""
    found = [str(p.relative_to(root)) for p in root.rglob(".tmp-*")
             if ".git" not in p.relative_to(root).parts]
    state_dir = root / ".git" / "memvault"
    if state_dir.is_dir():
        found += [f".git/memvault/{p.name}" for p in state_dir.iterdir()
                  if p.name.startswith(".tmp-")]
    return found


def fsck_problems(root: Path) -> str:
    proc = subprocess.run(["git", "fsck", "--no-dangling", "--no-progress"], cwd=root,
                          capture_output=True, text=True)
    text = (proc.stdout + proc.stderr).strip()
    return "" if proc.returncode == 0 and not text else f"git fsck: {text[:300]}"


def cache_of(v: Vault) -> dict:
    return {"memories": {k: m.model_dump() for k, m in v.memories.items()},
            "relations": {k: r.model_dump() for k, r in v.relations.items()}}


def fresh_copy(template: Path, dest: Path) -> Path:
    shutil.copytree(template, dest, symlinks=True)
    return dest


def read_head(root: Path) -> str | None:
    """HEAD from the ref files (no process, no patched call)."""
    git_dir = root / ".git"
    text = (git_dir / "HEAD").read_text().strip()
    if not text.startswith("ref: "):
        return text
    ref = git_dir / text[5:]
    return ref.read_text().strip() if ref.exists() else None


# -- forked children -----------------------------------------------------------------------------
@dataclass
class ChildEnd:
    killed: bool  # ended by SIGKILL
    code: int  # exit code, or the signal number when killed
    log: str  # a traceback the child left

    def __str__(self) -> str:
        how = f"killed by signal {self.code}" if self.killed else f"exited {self.code}"
        return how + (f": {self.log.strip().splitlines()[-1]}" if self.log.strip() else "")


def in_child(body: Callable[[], None], log: Path, timeout: float = 60.0) -> ChildEnd:
    """Run ``body`` in a forked child (which ends with ``os._exit``: 0 when ``body`` returned,
    70 when it raised, the traceback written to ``log``). A child still running after
    ``timeout`` is killed and reported."""
    log.unlink(missing_ok=True)
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 70
        try:
            body()
            code = 0
        except BaseException:
            with contextlib.suppress(BaseException):
                log.write_text(traceback.format_exc())
        finally:
            os._exit(code)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return ChildEnd(False, -1, f"child hung for {timeout:g} s (killed)")
        time.sleep(0.002)
    text = log.read_text() if log.exists() else ""
    if os.WIFSIGNALED(status):
        return ChildEnd(True, os.WTERMSIG(status), text)
    return ChildEnd(False, os.WEXITSTATUS(status), text)


def die() -> None:
    """kill -9 of this process, now."""
    os.kill(os.getpid(), signal.SIGKILL)


def install_hook(v: Vault, hook: Callable[[str], None]) -> None:
    """The one place a test reaches the journal's fault hook."""
    v.journal.faults.hook = hook


# -- patched primitives ----------------------------------------------------------------------------
class GitFault(Exception):
    """Raised by a primitives callback to make the git call fail like git does."""

    def __init__(self, stderr: str):
        super().__init__(stderr)
        self.stderr = stderr


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _short(path: object) -> str:
    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    parent, _, name = text.replace(os.sep, "/").rpartition("/")
    if name.startswith(".tmp-"):
        name = ".tmp-*"
    if not parent or os.path.lexists(os.path.join(parent, ".git")):  # the vault folder itself
        return name
    folder = parent.rpartition("/")[2]
    if folder not in ("memories", "relations"):  # tickets, intent records: names vary per run
        name = re.sub(r"[0-9a-f]{6,}", "*", name)
    return f"{folder}/{name}"


class Primitives:
    """While active, every file write (``open`` for writing, ``os.open`` with write flags),
    ``os.fsync``, ``os.replace``/``os.rename``, ``os.unlink``/``os.remove`` and every git call
    (``git.cmd.Git.execute``, and ``core.git.runner.GitRunner``'s for the reads outside the
    write lock) first calls ``on(kind, detail)``, which may raise (an OSError for a file call,
    :class:`GitFault` for git) or kill the process. Calls made inside another
    patched call (a temp file inside mkstemp...) are not counted again."""

    def __init__(self, on: Callable[[str, str], None]):
        self.on = on
        self._depth = 0
        self._saved: list[tuple[object, str, object]] = []

    def _wrap(self, owner: object, name: str, kind: str, describe: Callable[..., str | None]):
        original = getattr(owner, name)
        prims = self

        def wrapper(*args, **kwargs):
            if prims._depth == 0:
                detail = describe(*args, **kwargs)
                if detail is not None:
                    prims._depth += 1
                    try:
                        prims.on(kind, detail)
                    finally:
                        prims._depth -= 1
            prims._depth += 1
            try:
                return original(*args, **kwargs)
            finally:
                prims._depth -= 1

        self._saved.append((owner, name, original))
        setattr(owner, name, wrapper)

    def __enter__(self) -> Primitives:
        import builtins

        import git

        def open_mode(file, mode="r", *a, **k):
            if isinstance(file, int) or not any(c in mode for c in "wax+"):
                return None
            return _short(file)

        def os_open(path, flags, *a, **k):
            if not flags & _WRITE_FLAGS or os.fspath(path) == os.devnull:
                return None
            return _short(path)

        self._wrap(builtins, "open", "write", open_mode)
        self._wrap(io, "open", "write", open_mode)
        self._wrap(os, "open", "write", os_open)
        self._wrap(os, "fsync", "fsync", lambda fd: "fd")
        self._wrap(os, "replace", "rename", lambda src, dst, **k: _short(dst))
        self._wrap(os, "rename", "rename", lambda src, dst, **k: _short(dst))
        self._wrap(os, "unlink", "unlink", lambda path, **k: _short(path))
        self._wrap(os, "remove", "unlink", lambda path, **k: _short(path))
        self._wrap_git(git)
        return self

    def _wrap_git(self, git) -> None:
        owner, original = git.cmd.Git, git.cmd.Git.execute
        prims = self

        def execute(self_git, command, *args, **kwargs):
            if prims._depth == 0:
                words = [str(c) for c in (command if isinstance(command, (list, tuple))
                                          else [command])]
                detail = " ".join(words[:2])
                prims._depth += 1
                try:
                    prims.on("git", detail)
                except GitFault as fault:
                    if kwargs.get("with_exceptions", True):
                        raise git.GitCommandError(words, 128, stderr=fault.stderr) from None
                    if kwargs.get("with_extended_output"):
                        return (128, "", fault.stderr)
                    return ""
                finally:
                    prims._depth -= 1
            prims._depth += 1
            try:
                return original(self_git, command, *args, **kwargs)
            finally:
                prims._depth -= 1

        self._saved.append((owner, "execute", original))
        owner.execute = execute
        self._wrap_runner()

    def _wrap_runner(self) -> None:
        """The journal's own runner (the reads outside the write lock) fails the same way:
        a failed command, or (starting one in the background) a git that could not start."""
        from core.errors import JournalError
        from core.git.runner import GitRunner

        prims = self
        for name in ("run", "start"):
            original = getattr(GitRunner, name)

            def wrapper(self_runner, args, *a, _name=name, _original=original, **k):
                if prims._depth == 0:
                    prims._depth += 1
                    try:
                        prims.on("git", " ".join(["git", *args[:1]]))
                    except GitFault as fault:
                        if _name == "run":
                            return (128, "", fault.stderr)
                        raise JournalError(f"git could not be started: {fault.stderr}") from None
                    finally:
                        prims._depth -= 1
                prims._depth += 1
                try:
                    return _original(self_runner, args, *a, **k)
                finally:
                    prims._depth -= 1

            self._saved.append((GitRunner, name, original))
            setattr(GitRunner, name, wrapper)

    def __exit__(self, *exc: object) -> None:
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved.clear()


def intent_pending(root: Path) -> bool:
    """An intent record is on disk (``intent.json`` or a file under ``intents/``), read without
    the journal so a recording callback does not make calls of its own."""
    state_dir = root / ".git" / "memvault"
    if (state_dir / "intent.json").exists():
        return True
    intents = state_dir / "intents"
    return intents.is_dir() and any(not p.name.startswith(".") for p in intents.iterdir())


def os_fault(kind: str, detail: str, err: int) -> BaseException:
    """The failure a full (ENOSPC) or broken (EIO) disk gives for this call."""
    if kind == "git":
        reason = "No space left on device" if err == _errno.ENOSPC else "Input/output error"
        return GitFault(f"fatal: unable to write new index file: {reason}")
    return OSError(err, os.strerror(err), detail)


# -- one operation, run once without faults: the states and calls every trial is checked against --
#: A vault's lock wait in these tests: a lock left taken by a fault fails a trial in seconds
#: (and says so) instead of stalling the suite for the default 30 s per trial.
LOCK_TIMEOUT = 2.0


def open_vault(root: Path) -> Vault:
    return Vault.open(root, lock_timeout=LOCK_TIMEOUT)


def unopened_vault(root: Path) -> Vault:
    """A vault whose ``load`` (the opening: recovery, adoption) is still to run."""
    return Vault(root, lock_timeout=LOCK_TIMEOUT)


def open_for(root: Path, op: str) -> Vault:
    """The vault an operation runs on: opened, or (``adopt``: adoption IS the opening) not yet."""
    return unopened_vault(root) if op == "adopt" else open_vault(root)


def run_op(v: Vault, op: str) -> object:
    if op == "adopt":
        v.load()
        return v.report
    return OPS[op](v)


def release(v: Vault) -> None:
    """Close a vault and its git processes (hundreds of trials run in one process)."""
    v.close()
    repo = getattr(v.journal, "_repo", None)
    if repo is not None:
        with contextlib.suppress(Exception):
            repo.close()


@dataclass
class Reference:
    op: str
    base: Path  # the vault every trial of the operation starts from (copied)
    now: int  # the fixed clock
    before: State
    after: State
    before_cache: dict | None
    after_cache: dict
    hooks: list[tuple[str, bool]]  # fault-hook steps, and whether HEAD had moved at each
    calls: list[str]  # the primitive calls (writes, renames, unlinks, fsyncs, git), in order

    @property
    def last_before_commit(self) -> int:
        """1-based index of the last hook call before HEAD moved (every file written)."""
        moved = [i for i, (_, m) in enumerate(self.hooks) if m]
        return moved[0] if moved else len(self.hooks)


def make_reference(template: Path, now: int, op: str, work: Path) -> Reference:
    work.mkdir(parents=True, exist_ok=True)
    base = template
    if op == "adopt":
        base = fresh_copy(template, work / "adopt-base")
        person_edits(base)
    root = fresh_copy(base, work / "reference")
    before = state_of(root)
    v = open_for(root, op)
    before_cache = None if op == "adopt" else cache_of(v)
    hooks: list[tuple[str, bool]] = []
    calls: list[str] = []
    install_hook(v, lambda step: hooks.append((step, read_head(root) != before.head)))
    with deterministic(now), Primitives(lambda kind, detail: calls.append(f"{kind} {detail}")):
        run_op(v, op)
    install_hook(v, None)
    after = state_of(root)
    assert len(after.commits) == len(before.commits) + 1, f"{op} made no commit"
    reference = Reference(op, base, now, before, after, before_cache, cache_of(v), hooks, calls)
    release(v)
    return reference


def git_out(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=True).stdout
