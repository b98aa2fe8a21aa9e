"""The ``memvault`` command line: one verb per vault operation.

Exit status: 0 on success, 1 on a user error (unknown id, ambiguous prefix, refused input, lock
timeout; one line on stderr, ``memvault: error: ...``), 2 on a usage error (argparse).

``--json`` prints the file format of each memory (``Memory.model_dump(mode="json")``) plus its
``score``; a list is a JSON array. Human output goes through :mod:`tui.render` (rich), imported
only when needed, so ``add`` and ``--json`` never load rich.

Nothing from a vault reaches the terminal as a control sequence: :func:`main` runs every command
with ``sys.stdout``/``sys.stderr`` behind :func:`tui.terminal.neutralised_output` (ESC shown as
``\x1b``...), rich consoles neutralise what they print, and JSON has DEL and C1 escaped
(:func:`tui.terminal.json_text`). The vault's files keep the exact text.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from core import Memory, MemoryStatus, Relation, Vault, VaultError, default_vault_path
from core.layout import MAX_FILE_BYTES, Layout
from core.models import now_epoch
from core.vault import first_words

from .terminal import json_text, neutralised_output

PROG = "memvault"
STATUSES = tuple(s.value for s in MemoryStatus)
SORTS = ("score", "last_used", "created")


class UserError(Exception):
    """A refusal of the CLI itself (exit 1), like core's VaultError."""


#: Vaults opened for writing by the running command: their notices (a file set aside in the
#: quarantine...) are printed on stderr when it ends.
_opened: list[Vault] = []


# -- output helpers --------------------------------------------------------------------------
def _stderr(kind: str, message: str) -> None:
    line = " ".join(str(message).split())  # always one line
    print(f"{PROG}: {kind}: {line}", file=sys.stderr)


def _print_json(value: Any) -> None:
    sys.stdout.write(json_text(value) + "\n")


def memory_json(vault: Vault, memory: Memory, now: int) -> dict[str, Any]:
    """The memory's file format plus its current ``score``."""
    data = memory.model_dump(mode="json")
    data["score"] = vault.score(memory, now)
    return data


def relation_json(relation: Relation) -> dict[str, Any]:
    return relation.model_dump(mode="json")


def _say(verb: str, memories: Iterable[Memory],
         suffix: Callable[[Memory], str] | None = None) -> None:
    for m in memories:
        tail = suffix(m) if suffix else ""
        print(f"{verb} {m.id[:8]} {first_words(m.text)}{tail}")


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


# -- opening the vault -----------------------------------------------------------------------
def vault_path(args: argparse.Namespace) -> Path:
    """``--vault``, else ``MEMVAULT_PATH``, else ``CORTEXGRAPH_STORAGE_PATH``, else per user."""
    given = getattr(args, "vault", None)
    return Path(given).expanduser() if given else default_vault_path()


def vault_exists(path: Path) -> bool:
    layout = Layout(path)
    return path.is_dir() and (layout.memories_dir.is_dir() or layout.meta_path.exists())


def _require_vault(path: Path) -> None:
    if not vault_exists(path):
        raise UserError(f"no vault at {path} (run `memvault init` or `memvault add`)")


def open_readonly(args: argparse.Namespace) -> Vault:
    """The fast path for verbs that only read: no git, nothing committed."""
    path = vault_path(args)
    _require_vault(path)
    return Vault.open(path, readonly=True)


def open_writable(args: argparse.Namespace, *, create: bool = False) -> Vault:
    """A normal open (git, recovery, ``external:`` commits); creates the vault when ``create``."""
    path = vault_path(args)
    if not create:
        _require_vault(path)
    vault = Vault.open(path)
    _opened.append(vault)
    report = vault.report
    if report.recovered:
        _stderr("note", report.recovered)
    if report.writes_refused:  # HEAD detached, a rebase in progress...
        _stderr("note", report.writes_refused)
    if report.external_commit:
        n = len(report.external_paths)
        _stderr("note", f"committed {_plural(n, 'file')} changed outside memvault "
                        f"as commit {report.external_commit[:8]} (external:)")
    refused = report.refused_external
    if refused:
        _stderr("warning", f"{_plural(len(refused), 'file')} changed outside memvault "
                           f"{'is' if len(refused) == 1 else 'are'} not valid and "
                           f"{'was' if len(refused) == 1 else 'were'} not committed "
                           "(fix or remove them):")
        _list_problems(refused)
    if report.initialised and args.command != "init":
        _stderr("note", f"created a new vault at {vault.root}")
    return vault


def _warn_problems(vault: Vault) -> None:
    problems = vault.problems
    if not problems:
        return
    _stderr("warning", f"{_plural(len(problems), 'vault file')} could not be read "
                       f"and {'was' if len(problems) == 1 else 'were'} left untouched:")
    _list_problems(problems)


def _list_problems(problems: list[Any], limit: int = 5) -> None:
    for p in problems[:limit]:
        print(f"  {p}", file=sys.stderr)
    if len(problems) > limit:
        print(f"  ... and {len(problems) - limit} more", file=sys.stderr)


def _print_notices() -> None:
    """What the command's vaults did that a person should hear of (see ``Vault.notices``)."""
    for vault in _opened:
        for notice in vault.notices:
            _stderr("note", notice)
    _opened.clear()


# -- verbs -----------------------------------------------------------------------------------
def cmd_init(args: argparse.Namespace) -> int:
    vault = open_writable(args, create=True)
    if vault.report.initialised:
        print(f"initialised a vault at {vault.root}")
    else:
        count = _plural(len(vault.memories), "memory", "memories")
        print(f"a vault already exists at {vault.root} ({count})")
    return 0


def read_stdin_content() -> str:
    """Standard input as a memory's content, read up to one character past the size a vault
    file may hold: a larger stream is refused without being read into memory."""
    content = sys.stdin.read(MAX_FILE_BYTES + 1)
    if len(content) > MAX_FILE_BYTES:
        raise UserError(f"refused: the content on standard input is larger than the "
                        f"{MAX_FILE_BYTES // (1024 * 1024)} MiB a vault file may hold")
    return content


def cmd_add(args: argparse.Namespace) -> int:
    content = read_stdin_content() if args.content == "-" else args.content
    if not content.strip():  # refuse before creating a vault for it
        raise UserError("refused: a memory needs non-empty content")
    vault = open_writable(args, create=True)
    memory = vault.add(content, tags=args.tag, entities=args.entity, source=args.source,
                       context=args.context, strength=args.strength)
    print(memory.id)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    _warn_problems(vault)
    now = now_epoch()
    found = vault.search(query=args.query, tags=args.tag or None, status=args.status,
                         sort=args.sort)
    shown = found if args.limit is None else found[: args.limit]
    if args.json:
        _print_json([memory_json(vault, m, now) for m in shown])
        return 0
    from . import render

    render.print_list(vault, shown, now, matched=len(found))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    memory = vault.get(args.id)
    now = now_epoch()
    if args.json:
        _print_json(memory_json(vault, memory, now))
        return 0
    from . import render

    render.print_memory(vault, memory, now)
    return 0


def cmd_touch(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    touched = vault.touch(*args.ids, boost=args.boost)
    _say("touched", touched, lambda m: f" (uses {m.use_count}, strength {m.strength:g})")
    return 0


def cmd_archive(args: argparse.Namespace) -> int:
    _say("archived", open_writable(args).archive(*args.ids))
    return 0


def cmd_unarchive(args: argparse.Namespace) -> int:
    _say("unarchived", open_writable(args).unarchive(*args.ids))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    ids = list(dict.fromkeys(vault.resolve(k) for k in args.ids))
    if not args.yes:
        memories = [vault.memories[i] for i in ids]
        relations = {r.id for i in ids for r in vault.relations_of(i)}
        what = _plural(len(memories), "memory", "memories")
        if relations:
            what += f" and {_plural(len(relations), 'relation')}"
        stdin = sys.stdin
        if stdin is None or not stdin.isatty():
            raise UserError(f"refusing to delete {what} without confirmation: "
                            "stdin is not a terminal (pass --yes)")
        for m in memories:
            print(f"  {m.id[:8]}  {m.status.value:<10} {first_words(m.text, 60)}", file=sys.stderr)
        print(f"Delete {what}? (restorable with `memvault restore ID`) [y/N] ",
              end="", file=sys.stderr, flush=True)
        if stdin.readline().strip().lower() not in ("y", "yes"):
            _stderr("note", "nothing deleted")
            return 1
    report = vault.delete(*ids)
    rels = len(report.relations)
    _say("deleted", report.memories)
    if rels:
        print(f"deleted {_plural(rels, 'relation')} with them")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    report = vault.restore(args.id, at=args.at)
    rels = len(report.relations)
    extra = f", with {_plural(rels, 'relation')}" if rels else ""
    _say("restored", [report.memory], lambda m: f" (from {report.source_commit[:8]}{extra})")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    vault = open_writable(args)  # history reads git: a normal open
    memory_id = vault.resolve_any(args.id)
    entries = vault.history(memory_id)
    from core.shallow import shallow_note

    gap = shallow_note(vault.journal.repo.common_dir)  # a shallow clone: say what is missing
    if args.json:
        _print_json([{**asdict(e), "operation": e.operation} for e in entries])
        if gap:
            print(gap, file=sys.stderr)
        return 0
    from . import render

    render.print_history(memory_id, entries, now_epoch(), live=vault.find(memory_id) is not None)
    if gap:
        print(gap)
    return 0


def cmd_relate(args: argparse.Namespace) -> int:
    vault = open_writable(args)
    r = vault.relate(args.from_id, args.to_id, args.type, strength=args.strength, force=args.force)
    print(f"related {r.from_memory_id[:8]} -{r.relation_type}-> {r.to_memory_id[:8]} "
          f"(relation {r.id})")
    return 0


def cmd_gc(args: argparse.Namespace) -> int:
    vault = open_readonly(args) if args.dry_run else open_writable(args)
    now = now_epoch()
    report = vault.gc(dry_run=args.dry_run, archive=args.archive, now=now, force=args.force)
    if args.json:
        _print_json({
            "threshold": report.threshold,
            "applied": report.applied,
            "archived": report.archived,
            "commit": report.commit,
            "candidates": [memory_json(vault, m, now) for m, _ in report.candidates],
            "relations_removed": [relation_json(r) for r in report.relations_removed],
        })
        return 0
    from . import render

    render.print_gc(vault, report, now)
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    vault = open_readonly(args)
    _warn_problems(vault)
    now = now_epoch()
    stats = vault.stats(now)
    if args.json:
        _print_json(stats)
        return 0
    from . import render

    render.print_stats(stats, now)
    return 0


def run_default(args: argparse.Namespace) -> int:
    """``memvault`` with no verb: the app on a terminal (when the vault exists), else an
    overview of the vault and the verbs."""
    from . import app_cli

    path = vault_path(args)
    if app_cli.interactive() and vault_exists(path):
        return app_cli.launch(path)
    if vault_exists(path):
        vault = Vault.open(path, readonly=True)
        counts = {s: 0 for s in STATUSES}
        for m in vault.memories.values():
            counts[m.status.value] += 1
        print(f"vault: {vault.root}")
        print(f"memories: {len(vault.memories)} ("
              + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")")
        print(f"relations: {len(vault.relations)}")
        if vault.problems:
            print(f"unreadable files: {len(vault.problems)} (see `memvault stats`)")
    else:
        print(f"no vault at {path} yet (run `memvault init` or `memvault add`)")
    print()
    print("verbs:")
    for name, help_text in VERB_HELP.items():
        print(f"  {name:<16} {help_text}")
    print()
    print(f"`{PROG} VERB -h` explains a verb; `{PROG} --vault DIR VERB` picks another vault.")
    return 0


# -- the parser ------------------------------------------------------------------------------
VERB_HELP = {
    "init": "create the vault (and its git repository) if it does not exist",
    "add": "add a memory; prints only its id",
    "list": "list memories (filter, sort, --json)",
    "show": "one memory: fields, score, time until forgotten, relations",
    "touch": "reinforce memories (use count + 1, last used = now), one commit",
    "archive": "archive memories",
    "unarchive": "make archived memories active again",
    "delete": "delete memories and their relations (asks first unless --yes)",
    "restore": "bring back a deleted memory or an earlier version",
    "history": "a memory's life from git, also after deletion",
    "relate": "create a typed relation between two memories",
    "gc": "delete (or archive) active memories below the forget threshold",
    "stats": "counts, scores, relation types",
    "split": "decompose a memory into atomic ones (--part per part), one commit",
    "split-candidates": "memories that look composite, with the reasons",
    "suggest-split": "a draft of parts for a memory (to edit and pass to split)",
    "consolidate": "merge memories into one, one commit",
    "clusters": "groups of similar memories, with a suggested action",
    "lineage": "where a memory came from and what was made of it",
    "recall": "the best-matching memories as a gist-first context block (--budget TOKENS)",
    "gist": "make a memory's gist anew (--level light|moderate|aggressive)",
    "backfill-gists": "give every memory without a gist one, in one commit (--dry-run)",
    "tui": "the terminal app on the vault (what `memvault` alone runs on a terminal)",
    "demo": "build a demo vault (DIR, default a new temporary folder) and open the app on it",
    "migrate": "bring a CortexGraph JSONL store into the vault (--from jsonl DIR), one commit",
    "export": "write the vault as CortexGraph JSONL files (--format jsonl DIR)",
    "import-markdown": "import tiered markdown memories (memory/YYYY-MM-DD.md, MEMORY.md)",
    "log": "every change as an event, oldest first (--since REV, --jsonl)",
    "sync": "sync with the other machines through git (install, status, designate MACHINE)",
    "merge-driver": "the memory-latest git merge driver (git runs it as memvault-merge-driver)",
}


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("memvault")
    except Exception:  # pragma: no cover - running from a source tree without metadata
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A git-backed per-file memory vault: every change is one git commit.",
        epilog="The vault is --vault DIR, else $MEMVAULT_PATH, else $CORTEXGRAPH_STORAGE_PATH, "
               "else a per-user data folder ($XDG_DATA_HOME/memvault/vault).",
    )
    parser.add_argument("--vault", metavar="DIR", help="the vault's folder")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.set_defaults(func=run_default, command=None)
    # --vault is accepted after the verb too (`memvault list --vault DIR`).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--vault", metavar="DIR", default=argparse.SUPPRESS,
                        help="the vault's folder")
    sub = parser.add_subparsers(dest="command", metavar="VERB")

    def verb(name: str, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=VERB_HELP[name],
                           description=VERB_HELP[name])
        p.set_defaults(func=func)
        return p

    def json_flag(p: argparse.ArgumentParser) -> None:
        p.add_argument("--json", action="store_true",
                       help="print JSON: the file format plus a score field")

    verb("init", cmd_init)

    p = verb("add", cmd_add)
    p.add_argument("content", metavar="CONTENT", help="the memory's text ('-' reads stdin)")
    p.add_argument("--tag", action="append", default=[], metavar="T", help="a tag (repeatable)")
    p.add_argument("--entity", action="append", default=[], metavar="E",
                   help="an entity (repeatable)")
    p.add_argument("--source", metavar="S", help="where the memory came from")
    p.add_argument("--context", metavar="C", help="the context it was made in")
    p.add_argument("--strength", type=float, default=1.0, metavar="F",
                   help="decay multiplier (default 1.0; 1.0-2.0 in practice)")

    p = verb("list", cmd_list)
    p.add_argument("--status", choices=STATUSES, help="only memories with this status")
    p.add_argument("--tag", action="append", default=[], metavar="T",
                   help="only memories with this tag (repeatable: any of them)")
    p.add_argument("--query", metavar="Q",
                   help="only memories whose text, tags or entities contain every word")
    p.add_argument("--sort", choices=SORTS, default="score", help="order (default: score)")
    p.add_argument("--limit", type=_positive_int, metavar="N", help="at most N memories")
    json_flag(p)

    p = verb("show", cmd_show)
    p.add_argument("id", metavar="ID", help="an id or a unique prefix (4+ characters)")
    json_flag(p)

    p = verb("touch", cmd_touch)
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument("--boost", action="store_true", help="also raise strength by 0.1 (max 2.0)")

    for name, func in (("archive", cmd_archive), ("unarchive", cmd_unarchive)):
        verb(name, func).add_argument("ids", nargs="+", metavar="ID")

    p = verb("delete", cmd_delete)
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")

    p = verb("restore", cmd_restore)
    p.add_argument("id", metavar="ID", help="a living or deleted memory's id (or prefix)")
    p.add_argument("--at", metavar="REV",
                   help="the commit to restore from (default: the version before the last change)")

    p = verb("history", cmd_history)
    p.add_argument("id", metavar="ID", help="a living or deleted memory's id (or prefix)")
    json_flag(p)

    p = verb("relate", cmd_relate)
    p.add_argument("from_id", metavar="FROM")
    p.add_argument("to_id", metavar="TO")
    p.add_argument("type", metavar="TYPE", help="e.g. related, supports, contradicts, causes")
    p.add_argument("--strength", type=float, default=1.0, metavar="F", help="0-1 (default 1.0)")
    p.add_argument("--force", action="store_true",
                   help="accept a relation type memvault does not know")

    p = verb("gc", cmd_gc)
    p.add_argument("--dry-run", action="store_true", help="only list what would be collected")
    p.add_argument("--archive", action="store_true", help="archive instead of deleting")
    p.add_argument("--force", action="store_true",
                   help="run even on a machine that is not the vault's maintenance machine")
    json_flag(p)

    p = verb("stats", cmd_stats)
    json_flag(p)

    from . import gist_cli, lifecycle_cli

    lifecycle_cli.register(verb, json_flag)
    gist_cli.register(verb, json_flag)

    from . import migrate_cli

    migrate_cli.register(verb, json_flag)

    from . import sync_cli

    sync_cli.register(verb, json_flag)

    from . import app_cli

    app_cli.register(verb)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one ``memvault`` command; returns the exit status (2 on a usage error). Everything
    it prints goes through :func:`tui.terminal.neutralised_output`."""
    with neutralised_output():
        try:
            return _run(argv)
        finally:
            _print_notices()


def _run(argv: list[str] | None) -> int:
    _opened.clear()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # usage error (2), or --help / --version (0)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return args.func(args)
    except (VaultError, UserError) as exc:
        _stderr("error", str(exc))
        return 1
    except BrokenPipeError:  # `memvault list | head`
        try:  # keep Python's exit-time flush from raising again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except OSError as exc:
        _stderr("error", str(exc))
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    # `python -m tui.cli`: run the package's own module, so the verbs' modules (which import
    # tui.cli) share its classes, UserError among them. (git runs the merge driver as the
    # installed memvault-merge-driver program, never this way.)
    from tui.cli import main as _main

    sys.exit(_main())
