"""``memvault search``: ranked search over the vault (:mod:`core.search`).

    memvault search QUERY... [--limit N] [--offset N] [--status S] [--tag T]... [--mode M] [--json]

The words of QUERY are joined with spaces and read in the one query language of search, the
app's ``/`` filter and ``list --query`` (words, ``"phrases"``, ``prefix*``, ``tag:x``,
``entity:y``, ``status:z``, ``-term``...). Hits are ranked by FTS5's bm25 combined with the decay
score (the formula is in :mod:`core.search.rank`); with wordllama installed, ``--mode auto``
(the default) fuses bm25 with semantic similarity. ``--json`` gives both parts of every score,
the formula's inputs and the snippet with its match spans. The vault is opened read-only; the
index in the git directory is brought up to date on the way, except its first build (after a
clone), which a background process does while this search answers from the memories in memory
(:mod:`core.search.background_build`).
"""

from __future__ import annotations

import click

from core.model.values import MemoryStatus, now_epoch

from .common import POSITIVE, json_option, open_readonly, print_json, read_query, verb
from .problems import warn_problems
from .progress import SEARCH_BUILD, on_terminal, progress_bar

STATUSES = tuple(s.value for s in MemoryStatus)
MODES = ("auto", "bm25", "hybrid")


@verb("search")
@click.argument("words", nargs=-1, required=True, metavar="QUERY...")
@click.option("--limit", type=POSITIVE, default=10, show_default=True, metavar="N",
              help="at most N hits")
@click.option("--offset", type=click.IntRange(min=0), default=0, metavar="N",
              help="skip the first N hits")
@click.option("--status", "statuses", multiple=True, type=click.Choice(STATUSES),
              help="only memories with this status (repeatable; default: active, unless "
                   "the query has status:)")
@click.option("--tag", "tags", multiple=True, metavar="T",
              help="only memories with this tag (repeatable: any of them)")
@click.option("--mode", type=click.Choice(MODES), default="auto", show_default=True,
              help="bm25 alone, or hybrid with semantic similarity (needs wordllama); auto: "
                   "hybrid when wordllama is installed")
@json_option
def search(words: tuple[str, ...], limit: int, offset: int, statuses: tuple[str, ...],
           tags: tuple[str, ...], mode: str, as_json: bool) -> int:
    """QUERY: words (any finds one; memories holding all come first), "a phrase", prefix*, tag:x,
    entity:y, status:z, and -term to exclude one. Ranked by relevance (bm25) with the decay
    score (see --json)."""
    from core.search import Searcher
    from core.search import first_build
    from core.search.background_build import HANDED_OVER

    read_query(" ".join(words))  # a term it cannot read: exit 2 before the vault is opened
    vault = open_readonly(keep_read=True, search_rows=True)
    warn_problems(vault)
    now = now_epoch()
    with progress_bar(on_terminal(as_json), SEARCH_BUILD) as update, \
            Searcher(vault, mode=mode, progress=update, in_background=True,
                     read_rows=vault.open_index.search_rows) as searcher:
        result = searcher.search(" ".join(words), statuses=statuses or None, tags=tags or None,
                                 limit=limit, offset=offset, now=now)
        note = searcher.index.note
        handed = HANDED_OVER in result.notes  # the builder writes the open index too
        if vault.kept_read and not handed:  # every file read (a clone): the open index from them
            if update is not None:
                update("open index", 0, 0)
            vault.index_files()
    if note:
        result.notes.append(note)
    # a search while the index is first built answered from every memory: said on stderr too
    # (the figures in --json's index_building), so that a pipe of the hits still sees it
    building = [n for n in result.notes if n.startswith((first_build.NOTE_START, HANDED_OVER))]
    for line in building:
        click.echo(f"note: {line}", err=True)
    if as_json:
        data = result.as_json()
        for hit, shown in zip(result.hits, data["hits"]):
            shown["content"] = hit.memory.content
            shown["gist"] = hit.memory.gist
        data["offset"], data["limit"] = offset, limit
        print_json(data)
        return 0
    from . import render_plain

    result.notes = [n for n in result.notes if n not in building]  # (said on stderr)
    if render_plain.piped() and render_plain.print_search(vault, result):  # without rich
        return 0
    from . import render_search

    render_search.print_hits(vault, result, offset)
    return 0


# ``memvault search deploy -tag:ops``: a negated term is a word of the query, not an option
search.context_settings = {**search.context_settings, "ignore_unknown_options": True}


@verb("reindex")
@json_option
def reindex(as_json: bool) -> int:
    """Build the derived index (.git/memvault/index.sqlite) anew: the search index from the
    vault's files, and the copy of the files at HEAD that lets an open skip reading them. It is
    never committed: memvault rebuilds it by itself when it is missing, unreadable or of an
    older schema, and keeps it level with the files; deleting it loses nothing."""
    from core.search import SearchIndex
    from core.search.completion import complete

    vault = open_readonly(keep_read=True)
    warn_problems(vault)
    index = SearchIndex.for_root(vault.root)
    try:
        index.rebuild("memvault reindex")
        with progress_bar(on_terminal(as_json), SEARCH_BUILD) as update:
            report = complete(index, vault.memories, update)
        where = str(index.path) if index.path is not None else None
        note = index.note
    finally:
        index.close()
    files = vault.index_files() if where is not None else None
    if as_json:
        print_json({"path": where, "memories": report.added, "files": files, "note": note})
        return 0
    if where is None:
        click.echo(f"reindex: {note or 'the vault is in no git repository'}: nothing to build")
        return 0
    click.echo(f"reindex: {report.added} memories indexed in {where}"
               + (f"; {files} files kept for opening" if files is not None else ""))
    return 0
