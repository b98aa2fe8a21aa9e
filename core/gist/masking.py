"""Protecting names, numbers and code from the phrase-level passes.

2. **Protect.** In every prose unit, inline code spans, URLs and every word that is not plain
letters (numbers, paths, identifiers, flags, ``time.sleep(0.5)``...) are replaced by opaque
letter-only placeholders. All phrase-level work below happens on this masked text, so no
pass can split, join or re-space a protected span; placeholders are restored at the end.
"""

from __future__ import annotations

import re

from .facts import INLINE_CODE, URL, WS_TOKEN, is_plain_word, strip_token

_PLACEHOLDER = re.compile(r"zqx([a-p]+)xqz")


def mask(text: str, table: list[str]) -> str | None:
    """Replace inline code, URLs and every non-plain word by placeholders (appending to table).

    Returns None if the text already contains our placeholder pattern (then no phrase edits).
    """
    if "zqx" in text:
        return None
    pieces: list[str] = []
    pos = 0
    spans = [(m.start(), m.end()) for m in INLINE_CODE.finditer(text)]
    spans.extend((m.start(), m.end()) for m in URL.finditer(text))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))

    def ph(original: str) -> str:
        table.append(original)
        return "zqx" + _b16(len(table) - 1) + "xqz"

    def mask_words(chunk: str) -> str:
        out: list[str] = []
        last = 0
        for m in WS_TOKEN.finditer(chunk):
            tok = m.group()
            core = strip_token(tok)
            if not core or is_plain_word(core):
                continue
            i = tok.find(core)
            s = m.start() + i
            out.append(chunk[last:s])
            out.append(ph(core))
            last = s + len(core)
        out.append(chunk[last:])
        return "".join(out)

    for s, e in merged:
        pieces.append(mask_words(text[pos:s]))
        pieces.append(ph(text[s:e]))
        pos = e
    pieces.append(mask_words(text[pos:]))
    return "".join(pieces)


def _b16(n: int) -> str:
    """Placeholder index in letters a-p (base 16): never contains the x/q/z of the delimiters."""
    letters = []
    while True:
        n, r = divmod(n, 16)
        letters.append(chr(97 + r))
        if n == 0:
            break
    return "".join(reversed(letters))


def _unb16(s: str) -> int:
    n = 0
    for ch in s:
        n = n * 16 + (ord(ch) - 97)
    return n


def unmask(text: str, table: list[str]) -> str:
    if "zqx" not in text:
        return text

    def repl(m: re.Match[str]) -> str:
        idx = _unb16(m.group(1))
        return table[idx] if idx < len(table) else m.group()

    return _PLACEHOLDER.sub(repl, text)
