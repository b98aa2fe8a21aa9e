"""Human output of ``memvault search``: on a terminal, each hit as a line of scores and a line
of snippet with the matches styled (rich Text spans, never markup, so a memory's ``[x]`` stays
text); piped, one plain full-width line a hit."""

from __future__ import annotations

from rich.text import Text

from core import Vault
from core.search import SearchResult, Snippet
from core.textutil import neutralise_line

from .render import STATUS_STYLE, console, plain
from .render_plain import SEARCH_HEADER, one_line, snippet_plain

MATCH_STYLE = "bold reverse"


def snippet_text(snippet: Snippet, style: str = MATCH_STYLE) -> Text:
    """The snippet on one line: newlines and tabs as spaces, control characters as visible
    escapes (each piece neutralised on its own, so the spans still fall on the matches), the
    matches in ``style``, an ellipsis where text was cut."""
    text = Text("…" if snippet.cut_before else "", no_wrap=True, overflow="ellipsis")
    at = 0
    raw = snippet.text
    for start, end in snippet.spans:
        text.append(one_line(raw[at:start]))
        text.append(one_line(raw[start:end]), style=style)
        at = end
    text.append(one_line(raw[at:]))
    if snippet.cut_after:
        text.append("…")
    return text


def print_hits(vault: Vault, result: SearchResult, offset: int) -> None:
    out = console()
    for error in result.query.errors:
        out.print(plain(f"ignored: {error}", style="yellow"))
    for note in result.notes:
        out.print(plain(f"note: {note}", style="dim"))
    if result.query.errors and result.query.empty:  # every term was ignored: not "everything"
        out.print("nothing searched: no term of the query could be read")
        return
    if not result.hits:
        out.print("no memories match" if vault.memories else "the vault holds no memories yet")
        return
    if not out.is_terminal:  # piped: a header, then one plain line a hit
        out.print(SEARCH_HEADER, soft_wrap=True)
        for hit in result.hits:
            out.print(Text(f"{hit.score:>5.3f}  {hit.relevance:>9.3f}  {hit.decay:>5.3f}  "
                           f"{hit.memory.id[:8]}  {hit.memory.status.value:<10}  "
                           + snippet_plain(hit.snippet)), soft_wrap=True)
        return
    for n, hit in enumerate(result.hits, offset + 1):
        m = hit.memory
        head = Text(f"{n:>3}. ", style="dim")
        head.append(m.id[:8], style="bold")
        head.append(f"  {hit.score:.3f}", style="bold")
        parts = f"  relevance {hit.relevance:.2f} × decay {hit.decay:.2f}"
        if hit.cosine is not None:
            parts += f" · cosine {hit.cosine:.2f}"
        head.append(parts, style="dim")
        head.append("  ")
        head.append(m.status.value, style=STATUS_STYLE.get(m.status, ""))
        if m.meta.tags:
            head.append("  " + neutralise_line(", ".join(m.meta.tags)), style="cyan")
        out.print(head, no_wrap=True, overflow="ellipsis")
        line = Text("     ")
        if hit.snippet.field != "content":
            line.append(f"{hit.snippet.field}: ", style="dim")
        line.append_text(snippet_text(hit.snippet))
        out.print(line, no_wrap=True, overflow="ellipsis")
    shown = f"{offset + 1}-{offset + len(result.hits)} of {result.total}"
    out.print(plain(f"{shown} · ranked by {result.mode} · {len(vault.memories)} memories in "
                    f"{vault.root}", style="dim"))
