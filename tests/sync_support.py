"""Shared pieces of the sync tests (test_sync, test_hostile_remote): a machine (a clone with its
vault), a world of a bare remote and two machines with a shared history, the consistency check
after a sync, and helpers to make memories at a fixed time."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from vault_support import disk_tree, head_tree, run_git

from core import Memory, Vault
from core.store.layout import Layout
from core.sync.engine import sync

DAY = 86400
T0 = 1_750_000_000  # a fixed "now" for memories made by the tests
LAYOUTS = ("root", "subfolder")  # the vault at the clone's root, or in notes/vault


class Machine:
    """One clone with its vault."""

    def __init__(self, name: str, repo: Path, vault_dir: Path):
        self.name, self.repo, self.vault_dir = name, repo, vault_dir
        self.vault = Vault.open(vault_dir, inside_repo=True)  # (layout "sub": a notes repository)

    def git(self, *args: str, check: bool = True) -> str:
        return run_git(self.repo, *args, check=check)

    def sync(self, **kwargs):
        return sync(self.vault, **kwargs)

    def head(self) -> str:
        return self.git("rev-parse", "HEAD")

    def reopen(self) -> Vault:
        self.vault = Vault.open(self.vault_dir, inside_repo=True)
        return self.vault

    def mem(self, memory_id: str) -> Memory:
        return self.vault.memories[memory_id]


def make_world(tmp_path: Path, layout: str = "root", *, second: bool = True) -> SimpleNamespace:
    """``world.a`` (and ``world.b`` unless not ``second``): machines on the bare remote
    ``world.remote``, with a shared history (A synced first, B cloned it)."""
    remote = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    sub = None if layout == "root" else Path("notes") / "vault"

    def machine(name: str, *, first: bool) -> Machine:
        repo = tmp_path / name
        if first:
            repo.mkdir()
            run_git(repo, "init", "-q", "-b", "main")
            if sub is not None:
                (repo / "README.md").write_text("my notes\n")
                run_git(repo, "add", "README.md")
                run_git(repo, "-c", "user.name=P", "-c", "user.email=p@example.com",
                        "commit", "-q", "-m", "person: notes")
            run_git(repo, "remote", "add", "origin", str(remote))
        else:
            run_git(tmp_path, "clone", "-q", str(remote), str(repo))
        return Machine(name, repo, repo if sub is None else repo / sub)

    w = SimpleNamespace(layout=layout, remote=remote, sub=sub, machine=machine)
    w.a = machine("a", first=True)
    report = w.a.sync()
    assert report.outcome == "pushed" and report.pushed
    if second:
        w.b = machine("b", first=False)
        assert w.b.sync().outcome == "up-to-date"
    return w


def assert_consistent(vault: Vault) -> None:
    """Cache == files on disk (in the vault's format) == HEAD, and a clean git status. (In the
    root layout ``.gitattributes`` and a person's files sit in the vault folder: not records.)"""
    assert vault.problems == [], vault.problems
    head = {k: v for k, v in head_tree(vault).items()
            if k.startswith(("memories/", "relations/")) or k == ".meta.json"}
    assert disk_tree(vault) == head
    in_head = [vault.layout.classify(p)[1] for p in head if p.startswith("memories/")]
    assert sorted(in_head) == sorted(vault.memories)  # one file per memory, in either layout
    assert {p[10:-5] for p in head if p.startswith("relations/")} == set(vault.relations)
    for mid, memory in vault.memories.items():
        [path] = [p for p in vault.layout.memory_paths(mid) if p.exists()]
        assert path.read_bytes() == vault.layout.encode(memory)
    for rid, relation in vault.relations.items():
        data = (vault.root / "relations" / f"{rid}.json").read_bytes()
        assert data == vault.layout.encode(relation)
    assert run_git(vault.journal.worktree, "status", "--porcelain", "--untracked-files=all",
                   "--", *map(str, vault.layout.vault_paths())) == ""


def at(monkeypatch, when: int) -> None:
    """Make the vault's clock read ``when`` (touch and the other operations)."""
    for module in ("records", "upkeep", "use"):  # the vault's parts that read the clock
        monkeypatch.setattr(f"core.vault.{module}.now_epoch", lambda: when)


def new(machine: Machine, memory_id: str, content: str, **fields) -> Memory:
    fields.setdefault("created_at", T0)
    fields.setdefault("last_used", T0)
    return machine.vault.save(Memory(id=memory_id, content=content, **fields))


class Attacker:
    """A plain git clone of the remote that commits whatever it likes and pushes it."""

    def __init__(self, world, tmp_path: Path):
        self.repo = tmp_path / "attacker"
        run_git(tmp_path, "clone", "-q", str(world.remote), str(self.repo))
        self.vault = self.repo if world.sub is None else self.repo / world.sub
        self.prefix = "" if world.sub is None else f"{world.sub.as_posix()}/"
        # the attacker's own clone ignores the attributes it commits for others
        (self.repo / ".git" / "info").mkdir(exist_ok=True)
        (self.repo / ".git" / "info" / "attributes").write_text(
            "* -working-tree-encoding -text -filter\n")

    def git(self, *args: str) -> str:
        return run_git(self.repo, "-c", "user.name=Eve", "-c", "user.email=eve@example.com",
                       *args)

    def pull(self) -> None:
        self.git("fetch", "-q", "origin")
        self.git("reset", "-q", "--hard", "origin/main")

    def push(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        self.git("push", "-q", "origin", "HEAD:main")

    def memory(self, memory_id: str, content: str, name: str | None = None, **fields) -> Path:
        fields.setdefault("created_at", T0)
        fields.setdefault("last_used", T0)
        path = self.vault / "memories" / (name or f"{memory_id}.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(Layout.encode(Memory(id=memory_id, content=content, **fields)))
        return path

    def touch(self, memory_id: str, when: int, **changes) -> None:
        path = self.vault / "memories" / f"{memory_id}.json"
        memory = Memory.model_validate_json(path.read_bytes())
        changes = {"use_count": memory.use_count + 1, "last_used": when, **changes}
        path.write_bytes(Layout.encode(memory.model_copy(update=changes)))
