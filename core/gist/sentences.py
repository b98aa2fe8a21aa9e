"""Parsing a note into blocks (code, list items, prose) and prose into sentences.

1. **Parse into units.** Lines are read once. Fenced code (```` ``` ```` / ``~~~``), ``>>>``
sessions and indented blocks (3+ spaces or a tab after a blank line) that look like code
become *code units*: kept byte for byte or left out whole, never edited (indented blocks
that read as prose are dedented and parsed as prose). A sentence that does not end in
``. ! ?`` right before a code unit (``...as follows:``) is bound to it: both go or both stay.
List items and headings are one unit each. Prose paragraphs are split into *sentences* at
``. ! ? …`` followed by whitespace and a capital, digit or opening quote, and at ``。！？``;
not after abbreviations (``e.g.``, ``i.e.``, ``Dr.``, ``z.B.``...), initials, dotted acronyms
or German dates (``15. Dezember``), and never inside inline code, URLs or short parentheses.
Decimals, versions, paths and ``dotted.names`` never split because a boundary needs
whitespace after the mark. Rules (``====``) are dropped, and so are exact repeats of an
earlier unit.
"""

from __future__ import annotations

import re

from .facts import ABBREV_MAY_END, ABBREV_NEVER_END, INLINE_CODE, LEAD_PUNCT, TRAIL_PUNCT, URL, is_plain_word

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_LIST = re.compile(r"^[ \t]{0,3}(?:[-*+•]|\d{1,3}[.)])[ \t]+\S")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+\S")
_RULE = re.compile(r"^[ \t]*([=\-*#~^_+])\1{2,}[ \t]*$")
_CODE_INDENT = re.compile(r"^(?: {3,}|\t)\S")
_RULE_CHARS = frozenset("=-*#~^_+")
_LIST_LEADS = frozenset("-*+•#0123456789")
_NEWLINES = re.compile(r"[ \t]*\n[ \t]*")

# sentence boundaries: western marks need whitespace after; CJK marks do not
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]»]*(?=\s)|[。！？]+[」』）\"”]*")

_MONTHS = frozenset(
    """januar jänner februar märz april mai juni juli august september oktober november
    dezember january february march may june july october december janvier février mars avril
    juin juillet août septembre octobre novembre décembre""".split()
)
_NEXT_WORD = re.compile(r"[^\W\d_]+")


def parse_blocks(content: str, depth: int = 0) -> list[tuple[str, list[str]]]:
    """Split content into ("code"|"item"|"prose", lines) blocks in one pass over its lines.

    An indented block is code only if it looks like code (:func:`_looks_like_prose`); indented
    prose (reST definition bodies, quoted paragraphs) is dedented and parsed again.
    """
    blocks: list[tuple[str, list[str]]] = []
    cur_kind: str | None = None  # "fence" | "indent" | "doctest" | "item" | "prose"
    cur: list[str] = []
    fence: str | None = None
    pending_blank: list[str] = []
    prev_blank = True

    def close() -> None:
        nonlocal cur_kind, cur
        if cur_kind is not None and cur:
            if cur_kind == "indent":
                blocks.extend(_indented_blocks(cur, depth))
            elif cur_kind in ("fence", "doctest"):
                blocks.append(("code", cur))
            else:
                blocks.append((cur_kind, cur))
        cur_kind, cur = None, []

    for line in content.splitlines():
        if fence is not None:
            cur.append(line)
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and not stripped.strip(fence[0]):
                close()
                fence = None
            continue
        lead = line.lstrip()[:1]
        m = _FENCE.match(line) if lead in ("`", "~") else None
        if m:
            close()
            pending_blank = []
            fence = m.group(1)
            cur_kind, cur = "fence", [line]
            prev_blank = False
            continue
        if not line.strip():
            if cur_kind in ("indent", "doctest"):
                pending_blank.append(line)
            else:
                close()
            prev_blank = True
            continue
        if cur_kind in ("indent", "doctest") and line[:1] in (" ", "\t"):
            cur.extend(pending_blank)
            pending_blank = []
            cur.append(line)
            prev_blank = False
            continue
        if cur_kind == "doctest" and not pending_blank and not line.lstrip().startswith(">>>"):
            cur.append(line)  # doctest output line
            continue
        if cur_kind in ("indent", "doctest"):
            close()
        pending_blank = []
        if lead in _RULE_CHARS and _RULE.match(line):
            close()
            prev_blank = True
            continue
        listy = lead in _LIST_LEADS and (_LIST.match(line) or _HEADING.match(line))
        if lead == ">" and line.lstrip().startswith(">>>"):
            if cur_kind != "doctest":
                close()
                cur_kind, cur = "doctest", []
            cur.append(line)
        elif prev_blank and line[:1] in (" ", "\t") and _CODE_INDENT.match(line) and not listy:
            close()
            cur_kind, cur = "indent", [line]
        elif listy:
            close()
            cur_kind, cur = "item", [line]
        elif cur_kind in ("prose", "item"):
            cur.append(line)
        else:
            close()
            cur_kind, cur = "prose", [line]
        prev_blank = False
    close()
    return blocks


_CODE_HINT = re.compile(r"[=;{}<>]|\)\s*:?$|^\s*(?:def|class|import|from|return|if|for|while|try|except|with)\b.*:\s*$|::=")


def _looks_like_prose(lines: list[str]) -> bool:
    """Indented text that reads as sentences (mostly plain words, sentence punctuation)."""
    words = 0
    plain = 0
    code_lines = 0
    for line in lines:
        if _CODE_HINT.search(line):
            code_lines += 1
        for tok in line.split():
            words += 1
            core = tok.strip(TRAIL_PUNCT + LEAD_PUNCT)
            if core and is_plain_word(core):
                plain += 1
    if words < 8 or plain < 0.7 * words or code_lines * 3 > len(lines):
        return False
    text = " ".join(lines)
    return ". " in text or text.rstrip().endswith((".", ":", "?", "!"))


def _indented_blocks(lines: list[str], depth: int) -> list[tuple[str, list[str]]]:
    """Blocks of one indented region: code-like paragraphs stay code, prose is re-parsed."""
    groups: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            groups[-1].append(line)
        elif groups[-1]:
            groups.append([])
    out: list[tuple[str, list[str]]] = []
    for group in groups:
        if not group:
            continue
        if depth < 3 and _looks_like_prose(group):
            indent = min(len(ln) - len(ln.lstrip()) for ln in group)
            out.extend(parse_blocks("\n".join(ln[indent:] for ln in group), depth + 1))
        elif out and out[-1][0] == "code":
            out[-1][1].extend(["", *group])
        else:
            out.append(("code", list(group)))
    return out


_PARENS = re.compile(r"[()]")


def paren_regions(text: str) -> list[tuple[int, int]]:
    """Spans of matched, short (<= 300 chars) parentheses, outermost only, in one pass."""
    stack: list[int] = []
    regions: list[tuple[int, int]] = []
    for m in _PARENS.finditer(text):
        i = m.start()
        if m.group() == "(":
            stack.append(i)
            if len(stack) > 50:
                del stack[0]
        elif stack:
            start = stack.pop()
            if not stack and i - start <= 300:
                regions.append((start, i + 1))
    return regions


def split_sentences(text: str) -> list[str]:
    """Sentences of one prose paragraph (text may contain newlines)."""
    protected = [(m.start(), m.end()) for m in INLINE_CODE.finditer(text)]
    protected.extend((m.start(), m.end()) for m in URL.finditer(text))
    if "(" in text:
        protected.extend(paren_regions(text))
    protected.sort()
    pi = 0
    out: list[str] = []
    start = 0
    n = len(text)
    for m in _BOUNDARY.finditer(text):
        end = m.end()
        pos = m.start()
        while pi < len(protected) and protected[pi][1] <= pos:
            pi += 1
        if pi < len(protected) and protected[pi][0] <= pos < protected[pi][1]:
            continue
        mark = m.group()
        if mark[0] not in "。！？":
            # next non-space character decides
            j = end
            while j < n and text[j].isspace():
                j += 1
            if j >= n:
                continue
            nxt = text[j]
            if nxt.isalpha() and nxt.islower():
                continue
            if not (nxt.isalpha() or nxt.isdigit() or nxt in "\"'“‘«([`*_"):
                continue
            if mark == "." or mark[0] == "." and len(mark.rstrip("\"'”’)]»")) == 1:
                # word ending at this period
                lo = max(start, pos - 40)
                k = max(text.rfind(" ", lo, pos), text.rfind("\n", lo, pos), lo - 1) + 1
                word = text[k : pos + 1].lstrip("\"'“‘«([").lower()
                if word in ABBREV_NEVER_END:
                    continue
                core = word[:-1]
                if core.isdigit() and len(core) <= 2:
                    nm = _NEXT_WORD.match(text, j)
                    if nm and nm.group().lower() in _MONTHS:
                        continue  # German-style date: "am 15. Dezember"
                if len(core) == 1 and core.isalpha():
                    continue  # initial: "J. R. R. Tolkien"
                if len(core) >= 3 and core.replace(".", "").isalpha() and re.fullmatch(
                    r"(?:[a-z]\.)+[a-z]", core
                ):
                    continue  # dotted acronym: "U.S."
                if word in ABBREV_MAY_END and not nxt.isupper():
                    continue
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        start = end
    piece = text[start:].strip()
    if piece:
        out.append(piece)
    return out


def normalise_ws(text: str) -> str:
    return _NEWLINES.sub(" ", text.strip())
