"""A short tour of memvault on a throwaway vault: ``python -m tui.tour [DIR]``.

Creates a vault (in a new temporary folder, or in DIR if it is new or empty), then adds, touches,
relates, archives, deletes and restores a few memories through :class:`core.Vault`, printing the
``memvault`` command that does the same and what the CLI would show. Runs offline in about a
second; every step is one git commit in the vault.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path

from rich.rule import Rule
from rich.text import Text

from core import Memory, MemoryMetadata, Vault, VaultError
from core.model.records import now_epoch

from .cli import render
from .text import command_name

DAY = 86400

# (content, tags, entities, days since last use)
MEMORIES = [
    ("The user prefers pytest with plain assert statements over unittest classes.",
     ["preferences", "python"], ["pytest"], 0),
    ("Production database is PostgreSQL 15 on db.internal; migrations run with alembic.",
     ["infrastructure"], ["PostgreSQL", "alembic"], 0),
    ("Never deploy on Fridays: the on-call rota is thin at weekends.",
     ["ops", "policy"], [], 0),
    ("The user is Dana; works in UTC+2 and prefers short answers with code first.",
     ["user"], ["Dana"], 0),
    ("Clearing the CI pip cache fixed the flaky build on the payments service.",
     ["ci"], ["payments"], 60),
    ("Decided to version the REST API by URL path (/v2/...), not by header.",
     ["decision", "api"], [], 10),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.tour", description=__doc__.splitlines()[0])
    parser.add_argument("dir", nargs="?", metavar="DIR",
                        help="where to create the vault (default: a new temporary folder)")
    args = parser.parse_args(argv)
    if args.dir:
        path = Path(args.dir).expanduser()
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            print(f"tour: {path} is not an empty folder; give a new one", file=sys.stderr)
            return 1
    else:
        path = Path(tempfile.mkdtemp(prefix="memvault-tour-")) / "vault"
    try:
        run(path)
    except VaultError as exc:
        print(f"tour: error: {exc}", file=sys.stderr)
        return 1
    return 0


def run(path: Path) -> Vault:
    out = render.console()
    cli = command_name()
    vault_arg = f"--vault {shlex.quote(str(path))}"

    def step(title: str, *commands: str) -> None:
        out.print()
        out.print(Rule(title, align="left", style="cyan"), width=render.display_width(out))
        for command in commands:
            out.print(Text(f"$ memvault {command}", style="bold"), soft_wrap=True)

    step("1. create a vault: a folder of JSON files with its own git repository",
         f"{vault_arg} init")
    vault = Vault.open(path)
    out.print(f"vault at {vault.root} (the commands below leave out {vault_arg})", soft_wrap=True)

    step("2. add six memories (two of them last used weeks ago, as if imported)",
         'add "The user prefers pytest ..." --tag preferences --entity pytest')
    now = now_epoch()
    ids = []
    for content, tags, entities, days in MEMORIES:
        if days == 0:
            memory = vault.add(content, tags=tags, entities=entities, source="tour")
        else:
            then = now - days * DAY
            memory = vault.save(Memory(
                id=_new_id(), content=content, entities=entities, created_at=then, last_used=then,
                meta=MemoryMetadata(tags=tags, source="tour", context=f"last used {days} days ago"),
            ))
        ids.append(memory.id)
        out.print(Text(memory.id, style="dim"))
    pytest_id, db_id, friday_id, dana_id, ci_id, api_id = ids
    step("list: sorted by decay score; old, unused memories fade", "list")
    render.print_list(vault, vault.search(), now_epoch(), matched=len(vault.memories))

    step("3. reinforce two memories in ONE commit (use count + 1, strength + 0.1)",
         f"touch {pytest_id[:8]} {dana_id[:8]} --boost")
    for m in vault.touch(pytest_id, dana_id, boost=True):
        out.print(f"touched {m.id[:8]}: uses {m.use_count}, strength {m.strength:g}")

    step("4. relate memories (typed edges, also files)",
         f"relate {api_id[:8]} {db_id[:8]} depends_on",
         f"relate {ci_id[:8]} {pytest_id[:8]} related")
    for a, b, kind in ((api_id, db_id, "depends_on"), (ci_id, pytest_id, "related")):
        r = vault.relate(a, b, kind)
        out.print(f"{r.from_memory_id[:8]} -{r.relation_type}-> {r.to_memory_id[:8]}")

    step("5. archive a memory that no longer applies", f"archive {friday_id[:8]}")
    vault.archive(friday_id)
    out.print(f"archived {friday_id[:8]}")

    step("6. delete a memory: its relations go with it, in one commit",
         f"delete {ci_id[:8]} --yes")
    report = vault.delete(ci_id)
    out.print(f"deleted {ci_id[:8]} and {len(report.relations)} relation(s)")

    step("7. nothing is lost: the deleted memory's history is in git", f"history {ci_id[:8]}")
    render.print_history(ci_id, vault.history(ci_id), now_epoch(), live=False)

    step("8. restore brings it back, with its relation, as a new commit", f"restore {ci_id[:8]}")
    restored = vault.restore(ci_id)
    out.print(f"restored {ci_id[:8]} with {len(restored.relations)} relation(s) "
              f"from commit {restored.source_commit[:8]}")

    step("9. what gc would prune: active memories below the forget threshold", "gc --dry-run")
    now = now_epoch()
    render.print_gc(vault, vault.gc(dry_run=True, now=now), now)

    step("10. one memory in full", f"show {pytest_id[:8]}")
    render.print_memory(vault, vault.get(pytest_id), now_epoch())

    step("the vault now")
    render.print_list(vault, vault.search(), now_epoch(), matched=len(vault.memories))
    out.print()
    out.print(f"Every step above is one git commit: git -C {shlex.quote(str(vault.root))} "
              "log --oneline", soft_wrap=True)
    out.print("Explore the vault:")
    out.print(Text(f"  {cli} --vault {shlex.quote(str(vault.root))} list", style="bold"),
              soft_wrap=True)
    vault.close()
    return vault


def _new_id() -> str:
    import uuid

    return str(uuid.uuid4())


if __name__ == "__main__":
    sys.exit(main())
