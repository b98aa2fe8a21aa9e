"""What every verb module of :mod:`tui.cli` shares: the ``verb`` decorator (registers a click
command under its name in :data:`tui.cli.verbs.VERBS`, with ``--vault`` accepted after the verb),
``--json``, opening the vault, refusals (:class:`UserError`, exit 1), notes on stderr and JSON
printing.

Nothing here imports rich or the app: ``add`` and ``--json`` never load them.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from ..terminal import json_text
from ..text import plural
from .problems import forget_warned, list_problems, warn_later_problems
from .verbs import READING_VERBS, VERB_HELP

if TYPE_CHECKING:
    from core import Memory, Relation, UnknownIdError, Vault
    from core.search.query import Query

# core is imported where it is used: ``memvault -h``, a typo'd verb and a usage error never
# load its records (pydantic) or its git and store modules.


def vault_class() -> type[Vault]:
    """core's :class:`~core.Vault`, imported on first use; every open of the CLI goes through
    it (``common.Vault``: a test may put another class there)."""
    found = globals().get("Vault")
    if found is None:
        from core import Vault as found

        globals()["Vault"] = found
    return cast("type[Vault]", found)


def __getattr__(name: str) -> object:
    """``common.Vault`` (:func:`vault_class`), for the verb modules that open through it."""
    if name == "Vault":
        return vault_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

PROG = "memvault"
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
_VAULT_KEY = "memvault.vault"
F = TypeVar("F", bound=Callable[..., Any])

#: name -> click command, filled as the verb modules are imported (see :func:`verb`)
REGISTRY: dict[str, click.Command] = {}

#: Vaults opened by the running command: their notices (a file set aside in the quarantine, a
#: damaged derived index built again...) are printed on stderr when it ends.
_opened: list[Vault] = []
#: Notes an open leaves for the end of the command (:func:`say_deferred_notes`).
deferred_notes: list[str] = []


def start_command() -> None:
    """Forget what the command before left (its vaults, paths and notes): one process may run
    many commands."""
    _opened.clear()
    opened_paths.clear()
    deferred_notes.clear()
    forget_warned()
    read_plainly(False, writing=False)


def read_plainly(plainly: bool, writing: bool | None = None) -> None:
    """A command that opened no vault to write (``writing``: it now has, or not) reads without
    the models (core.model.plain_records); ``read_plainly(False)`` when it ends."""
    from core.model import plain_records

    _writing[0] = _writing[0] if writing is None else writing
    plain_records.read_without_models(plainly and not _writing[0])


_writing = [False]


def say_deferred_notes(error: str | None = None) -> None:
    """Print the notes left for the end, but one the command's error already says."""
    for note in deferred_notes:
        if note != error:
            stderr("note", note)
    deferred_notes.clear()


class UserError(Exception):
    """A refusal of the CLI itself (exit 1), like core's VaultError."""


# -- declaring verbs ---------------------------------------------------------------------------
def _remember_vault(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:  # given after the verb: wins over one given before it
        ctx.meta[_VAULT_KEY] = value


_CREATE_KEY = "memvault.create"


def _remember_create(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_CREATE_KEY] = True


def vault_option(f: F) -> F:
    """``--vault DIR`` and ``--create`` (on the root group and after every verb)."""
    f = click.option("--create", is_flag=True, expose_value=False, is_eager=True,
                     callback=_remember_create,
                     help="make the vault if there is none at that folder (init always does)")(f)
    return click.option("--vault", metavar="DIR", expose_value=False, is_eager=True,
                        callback=_remember_vault, help="the vault's folder")(f)


_ALLOW_SECRET_KEY = "memvault.allow_secret"


def _remember_allow_secret(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_ALLOW_SECRET_KEY] = True


def allow_secret_option(f: F) -> F:
    """``--allow-secret`` (on the root group and after every verb that writes): a write stores what looks
    like a secret as it is, whatever the secrets policy (docs/secrets.md)."""
    return click.option("--allow-secret", is_flag=True, expose_value=False, is_eager=True,
                        callback=_remember_allow_secret,
                        help="write what looks like a secret anyway (verbs that write)")(f)


def json_option(f: F) -> F:
    """``--json``: the verb's result as JSON on stdout (docs/cli.md lists each verb's shape)."""
    return click.option("--json", "as_json", is_flag=True,
                        help="print JSON instead of text (docs/cli.md gives its shape)")(f)


def verb(name: str, **settings: Any) -> Callable[[Callable[..., int]], click.Command]:
    """``@verb("add")`` above the options: a click command named ``name`` with its help line from
    :data:`~tui.cli.verbs.VERBS`, ``--vault`` after the verb, registered for the root group."""

    def decorate(func: Callable[..., int]) -> click.Command:
        more = inspect.getdoc(func)
        text = VERB_HELP[name] + (f"\n\n{more}" if more else "")
        options = vault_option(func)
        if name not in READING_VERBS:
            options = allow_secret_option(options)
        command = click.command(name, help=text, short_help=VERB_HELP[name],
                                context_settings=CONTEXT, **settings)(options)
        REGISTRY[name] = command
        return command

    return decorate


def read_query(text: str) -> Query:
    """``text`` in the query language (core.search.query). A term it cannot read (``score<abc``,
    ``tags:x``) is a usage error, exit 2 with nothing done: searching the rest would answer a
    question that was not asked."""
    from core.search.query import parse

    query = parse(text)
    if query.errors:
        raise click.UsageError("; ".join(query.errors) + " (nothing searched)")
    return query


POSITIVE = click.IntRange(min=1)
#: ``ID...``: one or more memory ids or unique prefixes
IDS_ARGUMENT = click.argument("ids", nargs=-1, required=True, metavar="ID...")


# -- output ------------------------------------------------------------------------------------
def stderr(kind: str, message: str) -> None:
    """``memvault: KIND: message`` on one line of stderr."""
    line = " ".join(str(message).split())
    print(f"{PROG}: {kind}: {line}", file=sys.stderr)


def print_json(value: Any) -> None:
    sys.stdout.write(json_text(value) + "\n")


def is_terminal(stream: Any = None) -> bool:
    """``stream`` (stdout by default) is a terminal: rich tables; otherwise plain lines."""
    try:
        return bool((stream or sys.stdout).isatty())
    except (AttributeError, ValueError):
        return False


def memory_json(vault: Vault, memory: Memory, now: int) -> dict[str, Any]:
    """The memory's file format plus its current ``score``."""
    data = memory.model_dump(mode="json")
    data["score"] = vault.score(memory, now)
    return data


def relation_json(relation: Relation) -> dict[str, Any]:
    return relation.model_dump(mode="json")


def say(verb_done: str, memories: Iterable[Memory],
        suffix: Callable[[Memory], str] | None = None) -> None:
    """``archived 1a2b3c4d The first words…`` per memory."""
    from core.vault import first_words

    for m in memories:
        tail = suffix(m) if suffix else ""
        print(f"{verb_done} {m.id[:8]} {first_words(m.text)}{tail}")


def report_changed(vault: Vault, changed: Iterable[Memory], verb_done: str, as_json: bool,
                   suffix: Callable[[Memory], str] | None = None) -> int:
    """What a verb that changed memories prints: their records (``--json``, an array), else a
    :func:`say` line each."""
    from core.model.records import now_epoch

    if as_json:
        now = now_epoch()
        print_json([memory_json(vault, m, now) for m in changed])
    else:
        say(verb_done, changed, suffix)
    return 0


# -- opening the vault -------------------------------------------------------------------------
def vault_path() -> Path:
    """``--vault``, else the vault the current folder is in (a clone: ``cd notes && memvault
    sync``; :func:`core.vault.finding.enclosing_vault`), else ``MEMVAULT_PATH``, else
    CortexGraph's configured storage path, else per user (:func:`core.default_vault_path`)."""
    from core import default_vault_path
    from core.vault.finding import enclosing_vault

    return given_vault_path() or enclosing_vault(Path(".")) or default_vault_path()


def path_is_named() -> bool:
    """The vault's folder was named by a person (``--vault``, ``MEMVAULT_PATH``), not found
    (CortexGraph's storage path, the per-user default): a named folder that holds no vault is
    a mistake until ``init`` or ``--create`` says otherwise."""
    return given_vault_path() is not None or bool(os.environ.get("MEMVAULT_PATH"))


def create_asked() -> bool:
    """``--create`` was given (before or after the verb)."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and bool(ctx.meta.get(_CREATE_KEY))


def given_vault_path() -> Path | None:
    """The folder ``--vault`` names (before or after the verb), or None when it was not given."""
    ctx = click.get_current_context(silent=True)
    given = ctx.meta.get(_VAULT_KEY) if ctx is not None else None
    return Path(given).expanduser() if given else None


def vault_exists(path: Path) -> bool:
    """``path`` is a folder holding a vault (:func:`core.vault.finding.holds_vault`)."""
    from core.vault.finding import holds_vault

    return path.is_dir() and holds_vault(path)


def require_vault(path: Path, *, writing: bool = False) -> None:
    """UserError naming ``path`` and how to make a vault there, when it holds none (``writing``:
    the command would make it with ``--create``)."""
    if not vault_exists(path):
        create = ", or add --create to the command" if writing else ""
        raise UserError(f"no vault at {path}; nothing was created (`memvault init --vault "
                        f"{path}` makes one there{create})")


def open_readonly(keep_read: bool = False, search_rows: bool = False) -> Vault:
    """The fast path for verbs that only read: no git, nothing committed. ``keep_read``: the
    bytes of every file read are kept for ``vault.index_files()``; ``search_rows``: the search
    rows are made as the files are read (``Vault``'s docs)."""
    path = vault_path()
    require_vault(path)
    opened_paths.append(path)
    read_plainly(True)
    vault = vault_class().open(path, readonly=True, keep_read=keep_read, search_rows=search_rows)
    _opened.append(vault)  # (its notices too: a damaged derived index built again...)
    return vault


#: The vault folders this command opened (an unknown id is then looked up in their history).
opened_paths: list[Path] = []


def deleted_hint(exc: UnknownIdError) -> str:
    """For an id that is not a living memory of the vault the command opened but one that
    was deleted: what brings it back. "" otherwise (or when history cannot say)."""
    from core import VaultError

    if exc.key is None or exc.kind != "memory" or not opened_paths:
        return ""
    try:
        vault = vault_class().open(opened_paths[-1], readonly=True)
        memory_id = vault.resolve_any(exc.key)
    except VaultError:
        return ""
    if vault.find(memory_id) is not None:
        return ""
    short = memory_id[:8]
    return (f"; {short} was deleted: `memvault restore {short}` brings it back "
            f"(`memvault history {short}` lists its versions)")


#: ``open_writable(create=...)``: the verb makes the vault wherever there is none (``init``)
ALWAYS = "always"
#: ...: the verb makes it at the folder found by default (``add``, the imports: a first
#: ``memvault add`` works), but at a named folder only with ``--create``
AT_DEFAULT = "at-default"


def may_create(create: str | None) -> bool:
    """Whether this command may make a vault where there is none: ``init`` (``ALWAYS``),
    ``--create``, or a verb that creates (``AT_DEFAULT``) at a folder nobody named."""
    return (create == ALWAYS or create_asked()
            or (create == AT_DEFAULT and not path_is_named()))


def open_writable(*, create: str | None = None, announce_created: bool = True,
                  layout: str | None = None, inside_repo: bool = False) -> Vault:
    """A normal open (git, recovery, ``external:`` commits). Makes the vault when there is none
    only as :func:`may_create` says (in ``layout``, flat by default; never inside another git
    repository unless ``inside_repo``: :mod:`core.vault.creating`); else a UserError naming
    the folder, nothing written. Notes on stderr say what the open did (recovered, committed
    outside edits...)."""
    path = vault_path()
    read_plainly(False, writing=True)  # (a record it loads may be written back)
    allowed = may_create(create)
    if not allowed:
        require_vault(path, writing=True)
    ctx = click.get_current_context(silent=True)
    allow = ctx is not None and bool(ctx.meta.get(_ALLOW_SECRET_KEY))  # shared by the chain
    vault = vault_class().open(path, secrets="allow" if allow else None, layout=layout,
                               create=allowed, inside_repo=inside_repo)
    _opened.append(vault)
    opened_paths.append(path)
    report = vault.report
    if report.recovered:
        stderr("note", report.recovered)
    if report.writes_refused:  # HEAD detached, a rebase in progress...
        # said once the command ends: a write it then refused says the same as its error
        deferred_notes.append(report.writes_refused)
    if report.external_commit:
        n = len(report.external_paths)
        stderr("note", f"committed {plural(n, 'file')} changed outside memvault "
                       f"as commit {report.external_commit[:8]} (external:)")
    refused = report.refused_external
    if refused:
        one = len(refused) == 1
        stderr("warning", f"{plural(len(refused), 'file')} changed outside memvault "
                          f"{'is' if one else 'are'} not valid and {'was' if one else 'were'} "
                          "not committed (fix or remove them):")
        list_problems(refused)
    if report.initialised and announce_created:
        stderr("note", f"created a new vault at {vault.root}")
    return vault


def layout_hint(vault: Vault) -> None:
    """A note on stderr when a flat vault holds more memories than the sharded layout is for."""
    from core.store.shards import FLAT, SHARD_SUGGESTED_ABOVE

    count = len(vault.memories)
    if vault.layout.name == FLAT and count > SHARD_SUGGESTED_ABOVE:
        stderr("note", f"this vault holds {count:,} memories in one folder (the flat layout); "
                       "`memvault migrate-layout` moves them into shard folders "
                       "(memories/ab/{id}.json), one commit")


def print_notices() -> None:
    """What the command's vaults did that a person should hear of (see ``Vault.notices``)."""
    for vault in _opened:
        for notice in vault.notices:
            stderr("note", notice)
    warn_later_problems(_opened)
    _opened.clear()


def read_stdin_content() -> str:
    """Standard input as a memory's content, read up to one character past the size a vault
    file may hold: a larger stream is refused without being read into memory."""
    from core.store.layout import MAX_FILE_BYTES

    content = sys.stdin.read(MAX_FILE_BYTES + 1)
    if len(content) > MAX_FILE_BYTES:
        raise UserError(f"refused: the content on standard input is larger than the "
                        f"{MAX_FILE_BYTES // (1024 * 1024)} MiB a vault file may hold")
    return content
