"""Gists: the short trace of a memory that recall reads first.

A memory's ``content`` is its verbatim trace; its ``gist`` is a shorter trace made of the
content's own words: whole sentences (or, when it must, whole clauses) in their original order,
with filler taken out. :func:`generate_gist` is deterministic, offline, never raises for a
``str`` and runs in time linear in the content (~1.5 ms for an ordinary note, ~0.1 s of CPU for
a 100k-character one).

Algorithm
=========

0. **No gist for short notes.** Under :data:`MIN_WORDS` words (CJK text counts one word per two
   characters) the content is its own gist: ``None``.

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

2. **Protect.** In every prose unit, inline code spans, URLs and every word that is not plain
   letters (numbers, paths, identifiers, flags, ``time.sleep(0.5)``...) are replaced by opaque
   letter-only placeholders. All phrase-level work below happens on this masked text, so no
   pass can split, join or re-space a protected span; placeholders are restored at the end.

3. **Phrase pass (token-reducer, verified).** A masked prose sentence that contains one of our
   known filler phrases or rewrites (step 4; at most :data:`TR_MAX_UNITS` sentences of up to
   :data:`TR_MAX_CHARS` characters per note) goes through token-reducer's
   ``compress_text(sentence, level=level, tokenizer="character")`` (its default tokenizer
   downloads a file and fails offline). Its output is never used as text: it is aligned word
   by word with the input, and the sentence's edits are accepted only if every change is the
   deletion of a known filler/hedge (``basically``, ``I think``, ``please note that``...) or a
   known compact rewrite (``in order to`` -> ``to``, also when expressed as a deletion of
   ``in order``); any other change (``rather than`` -> ``than``, ``kind of``/``which is``
   dropped, ``<URL:...>`` removed, punctuation re-spaced, a placeholder touched) discards
   token-reducer's output for that sentence. Accepted edits are re-applied by us to the
   original sentence. Sentences without a known phrase are not offered: any change token-reducer
   made to them would be rejected anyway. ImportError or any exception: the step is skipped.

4. **Phrase pass (ours).** The same filler/hedge deletions and compact rewrites, found by a
   linear phrase matcher, so the result does not depend on token-reducer being installed.
   Hedges are not deleted after a negation (``not really``); sentence-opening hedges only when
   followed by a comma; an edit that would leave a sentence opening with something we cannot
   safely capitalise (a name, an identifier) is not made.

5. **Extractive pass (sentences).** Each unit is valued by the *facts* it carries: named
   entities (capitalised words not at sentence start, acronyms, and the caller's ``entities``),
   numbers, identifiers/paths/flags/URLs, inline code (weighs more than the same identifier
   inside a code block), the memory's ``tags`` it mentions, words shared with other units
   (topic centrality) and position. The first unit (the topic sentence) is never dropped. Units
   are dropped greedily, cheapest value per token first, where a fact still present in another
   kept unit is nearly free to lose (so restatements go first). Keys are re-evaluated lazily
   (a heap; values only grow as units go), so this is O(n log n). A drop that would take the
   gist past the band's upper edge is skipped; dropping stops once the lower edge is reached.
   The lower edge is measured against the content re-flowed the way the gist is assembled
   (re-joining hard-wrapped lines saves newline tokens but compresses nothing), the upper edge
   against the content itself. Kept units stay whole and in their original order.

6. **Extractive pass (clauses).** Only if whole units cannot reach the band (few sentences, one
   very long sentence): parentheticals and dash asides, then clauses (split at ``;`` ``,``
   ``—``) are cut the same way, cheapest value per token first. Never a sentence's first
   clause, nothing after a subordinate opening (*If X, ..., Y.*), no clause that restricts the
   sentence (starting with *if, unless, except, only, not, without, when, but, as...*), no list
   element (under 4 words), nothing with unbalanced brackets or quotes. ``light`` cuts only
   asides and clauses that carry no fact (no name, number or identifier).

7. **Last resort.** If the band is still out of reach (two or three sentences of similar
   size), one more whole unit may go if that overshoots the band's upper edge by at most
   :data:`OVERSHOOT` (3 points for ``light``, 10 otherwise); else the result stays short of
   the band and the guard decides.

8. **Guard and check.** The gist is assembled (sentences joined by a space, code and list items
   on their own lines) and counted with :func:`core.tokens.estimate_tokens`. A gist longer than
   :data:`GUARD_RATIO` (0.85) x the content's tokens is not kept (``None``); for ``light`` the
   ceiling is :data:`LIGHT_GUARD_RATIO` (0.95), because the light band itself (5-15% fewer
   tokens) lies between 0.85 and 0.95 x content, so a 0.85 ceiling would make every light gist
   impossible. Finally every number, path and identifier in the gist must occur verbatim in the
   content; otherwise the phrase edits are abandoned and the gist is rebuilt from whole units
   (and if even that failed, ``None``).

Bands (fewer tokens than the content): ``light`` 5-15%, ``moderate`` 20-40%, ``aggressive``
50-75%. ``bench/gist.py`` measures them on real text.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from typing import Any

from .tokens import estimate_tokens

__all__ = [
    "BANDS",
    "GUARD_RATIO",
    "LEVELS",
    "LIGHT_GUARD_RATIO",
    "MIN_WORDS",
    "format_memory_for_context",
    "generate_gist",
    "word_count",
]

LEVELS: tuple[str, ...] = ("light", "moderate", "aggressive")

#: Target reduction in tokens (fraction fewer than the content), per level.
BANDS: dict[str, tuple[float, float]] = {
    "light": (0.05, 0.15),
    "moderate": (0.20, 0.40),
    "aggressive": (0.50, 0.75),
}

#: How far beyond a band's upper edge the last-resort step may go when no combination of whole
#: units and clauses lands inside the band.
OVERSHOOT: dict[str, float] = {"light": 0.03, "moderate": 0.10, "aggressive": 0.10}
#: Content under this many words gets no gist.
MIN_WORDS = 30
#: A gist longer than this share of the content's tokens is not kept (moderate, aggressive).
GUARD_RATIO = 0.85
#: The same ceiling for ``light``, whose band (5-15% fewer tokens) lies above 0.85.
LIGHT_GUARD_RATIO = 0.95
#: Offer token-reducer only sentences containing a known filler/hedge phrase or rewrite. Exact:
#: on any other sentence every change it makes is rejected by the verifier, so skipping them
#: changes no gist, only time.
TR_PREFILTER = True
#: At most this many prose sentences per note are offered to token-reducer (it costs ~0.1-0.3 ms
#: a sentence; its aggressive pass is quadratic in the number of sentences).
TR_MAX_UNITS = 40
#: ...and only sentences up to this many characters.
TR_MAX_CHARS = 2000

# --------------------------------------------------------------------------------------------
# character classes and small regexes
# --------------------------------------------------------------------------------------------

_CJK = "\u1100-\u11ff\u2e80-\u2fdf\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
_CJK_CHAR = re.compile(f"[{_CJK}]")
_NON_CJK_WORD = re.compile(f"[^\\s{_CJK}]+")

_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_LIST = re.compile(r"^[ \t]{0,3}(?:[-*+•]|\d{1,3}[.)])[ \t]+\S")
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+\S")
_RULE = re.compile(r"^[ \t]*([=\-*#~^_+])\1{2,}[ \t]*$")
_CODE_INDENT = re.compile(r"^(?: {3,}|\t)\S")
_RULE_CHARS = frozenset("=-*#~^_+")
_LIST_LEADS = frozenset("-*+•#0123456789")

_INLINE_CODE = re.compile(r"``[^\n]{1,300}?``|`[^`\n]{1,300}`")
_URL = re.compile(
    r"(?:(?:https?|ftp|file|git)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]"
)  # never ends in punctuation: "see https://x.org/a." ends the sentence
_WS_TOKEN = re.compile(r"\S+")
_NEWLINES = re.compile(r"[ \t]*\n[ \t]*")

# sentence boundaries: western marks need whitespace after; CJK marks do not
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]»]*(?=\s)|[。！？]+[」』）\"”]*")

_ABBREV_NEVER_END = frozenset(
    """e.g. i.e. cf. vs. viz. mr. mrs. ms. dr. prof. st. jr. sr. no. nos. fig. figs. eq.
    approx. al. inc. ltd. co. corp. dept. est. vol. ch. sec. p. pp. ca. resp. incl. esp.
    ed. eds. rev. gen. gov. lt. col. sgt. jan. feb. mar. apr. jun. jul. aug. sep. sept. oct.
    nov. dec. mon. tue. wed. thu. fri. sat. sun. z.b. d.h. u.a. bzw. vgl. ggf. evtl. bspw. s.
    nr. ca. op. cit. ibid. sq. ft. in. min. max. e.v.""".split()
)
_MONTHS = frozenset(
    """januar jänner februar märz april mai juni juli august september oktober november
    dezember january february march may june july october december janvier février mars avril
    juin juillet août septembre octobre novembre décembre""".split()
)
_NEXT_WORD = re.compile(r"[^\W\d_]+")
_ABBREV_MAY_END = frozenset("etc. usw. etc.) usw.)".split())

# word tokens for the phrase passes (on masked text)
_TOK = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_PLACEHOLDER = re.compile(r"zqx([a-p]+)xqz")

_STOP = frozenset(
    """a an and are as at be been being but by can could did do does for from had has have he
    her hers him his how i if in into is it its itself just may me might more most must my no
    nor not of off on once one only or other our ours out over own same she should so some such
    than that the their theirs them then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your
    also about after again against all am any because before below between both during each
    few further here above down ll re ve don doesn didn isn aren wasn weren won wouldn shouldn
    use used using via per within without upon onto toward towards among including can't
    der die das und ist ein eine nicht mit von zu den dem des sich auf für im auch es als
    le la les des et est un une du en que qui pas pour dans sur au""".split()
)

# Lower-case words we may capitalise when an edit leaves them at the start of a sentence.
_CAPITALISABLE = frozenset(
    """a an the this that these those it its we our you your they their there here he she his
    her i in on at for to from with by of if when while because although before after now
    since as all some most many several each every no one two both any other such what which
    who how why where so then also each use run add set make keep call check avoid can could
    should must will would may might do does did is are was were be has have had""".split()
)

# ---- filler / hedge deletions and compact rewrites (lower-case token tuples) ----------------

_ANYWHERE_DELETE = [
    "basically",
    "essentially",
    "literally",
    "actually",
    "really",
    "i think that",
    "i think",
    "i believe that",
    "i believe",
    "i guess",
    "i suppose",
    "i feel like",
    "in my opinion",
    "it seems that",
    "it seems like",
    "needless to say",
]
_START_DELETE = [
    "please note that",
    "it should be noted that",
    "it is important to note that",
    "it's important to note that",
    "it is worth noting that",
    "it's worth noting that",
    "note that",
    "as you know",
    "as you may know",
    "as mentioned before",
    "as mentioned earlier",
    "as mentioned above",
    "as noted above",
    "in other words",
    "to be honest",
    "honestly",
    "frankly",
    "of course",
    "obviously",
    "clearly",
    "anyway",
    "well",
    "so",
    "ok",
    "okay",
    "also",
]
_REWRITES = {
    "in order to": "to",
    "in order for": "for",
    "due to the fact that": "because",
    "owing to the fact that": "because",
    "in view of the fact that": "because",
    "in the event that": "if",
    "at this point in time": "now",
    "at the present time": "now",
    "in spite of the fact that": "although",
    "despite the fact that": "although",
    "for the purpose of": "for",
    "is able to": "can",
    "are able to": "can",
    "has the ability to": "can",
    "have the ability to": "can",
    "prior to": "before",
    "subsequent to": "after",
    "a large number of": "many",
    "the vast majority of": "most",
    "the majority of": "most",
    "in the near future": "soon",
    "make use of": "use",
    "makes use of": "uses",
    "made use of": "used",
}
_NEGATIONS = frozenset({"not", "no", "never", "nothing", "nor", "hardly", "nicht", "kein", "pas"})
# Clauses that restrict their sentence: never cut.
_RESTRICTIVE = frozenset(
    """if unless except only not no never without when whenever until while unlike but however
    otherwise provided once before after instead rather nor whereas although though as so
    yet except""".split()
)


def _phrase_index(phrases: Iterable[str]) -> dict[str, list[tuple[str, ...]]]:
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in phrases:
        toks = tuple(p.split())
        index.setdefault(toks[0], []).append(toks)
    for lst in index.values():
        lst.sort(key=len, reverse=True)  # longest match first
    return index


_ANYWHERE_IDX = _phrase_index(_ANYWHERE_DELETE)
_TRIGGER = re.compile(
    r"\b(?:"
    + "|".join(
        r"\s+".join(re.escape(w).replace("'", "['’]") for w in p.split())
        for p in sorted({*_ANYWHERE_DELETE, *_START_DELETE, *_REWRITES}, key=len, reverse=True)
    )
    + r")\b",
    re.IGNORECASE,
)
_START_IDX = _phrase_index(_START_DELETE)
_REWRITE_IDX = _phrase_index(_REWRITES)
_SAFE_DELETE_PHRASES = frozenset(_ANYWHERE_DELETE) | frozenset(_START_DELETE)


# --------------------------------------------------------------------------------------------
# public helpers
# --------------------------------------------------------------------------------------------


def check_level(level: object) -> str:
    """``level`` if it is one of :data:`LEVELS`, else ValueError naming them."""
    if not isinstance(level, str) or level not in BANDS:
        raise ValueError(f"unknown gist level {level!r}; expected one of {', '.join(LEVELS)}")
    return level


def word_count(text: str) -> int:
    """Words in ``text`` for the :data:`MIN_WORDS` rule (CJK: one word per two characters)."""
    cjk = len(_CJK_CHAR.findall(text))
    return len(_NON_CJK_WORD.findall(text)) + cjk // 2


def format_memory_for_context(memory: Any) -> str:
    """One memory as a line of LLM context: ``[{id[:8]}] {gist or content} (tags: a, b)``."""
    text = memory.gist or memory.content
    tags = getattr(getattr(memory, "meta", None), "tags", None) or []
    return f"[{memory.id[:8]}] {text} (tags: {', '.join(tags)})"


# --------------------------------------------------------------------------------------------
# units
# --------------------------------------------------------------------------------------------


class _Unit:
    __slots__ = (
        "kind",
        "order",
        "para",
        "text",
        "masked",
        "tokens",
        "facts",
        "base",
        "first",
    )

    def __init__(self, kind: str, order: int, para: int, text: str) -> None:
        self.kind = kind  # "sent" | "item" | "code"
        self.order = order
        self.para = para
        self.text = text  # original text of the unit (whitespace-normalised for prose)
        self.masked = text  # masked (and later edited) text; code units: == text
        self.tokens = 0
        self.facts: dict[str, float] = {}
        self.base = 0.0
        self.first = False


def _parse_blocks(content: str, depth: int = 0) -> list[tuple[str, list[str]]]:
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
            core = tok.strip(_TRAIL_PUNCT + _LEAD_PUNCT)
            if core and _is_plain_word(core):
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
            out.extend(_parse_blocks("\n".join(ln[indent:] for ln in group), depth + 1))
        elif out and out[-1][0] == "code":
            out[-1][1].extend(["", *group])
        else:
            out.append(("code", list(group)))
    return out


_PARENS = re.compile(r"[()]")


def _paren_regions(text: str) -> list[tuple[int, int]]:
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


def _split_sentences(text: str) -> list[str]:
    """Sentences of one prose paragraph (text may contain newlines)."""
    protected = [(m.start(), m.end()) for m in _INLINE_CODE.finditer(text)]
    protected.extend((m.start(), m.end()) for m in _URL.finditer(text))
    if "(" in text:
        protected.extend(_paren_regions(text))
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
                if word in _ABBREV_NEVER_END:
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
                if word in _ABBREV_MAY_END and not nxt.isupper():
                    continue
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        start = end
    piece = text[start:].strip()
    if piece:
        out.append(piece)
    return out


def _normalise_ws(text: str) -> str:
    return _NEWLINES.sub(" ", text.strip())


# --------------------------------------------------------------------------------------------
# facts (entities, numbers, identifiers) and masking
# --------------------------------------------------------------------------------------------

_LEAD_PUNCT = "\"'“‘«([{<*_"
_TRAIL_PUNCT = ".,;:!?\"'”’»)]}>…*_"


def _strip_token(tok: str) -> str:
    """A whitespace token without surrounding punctuation (keeping balanced brackets)."""
    tok = tok.lstrip(_LEAD_PUNCT) if tok[:1] in _LEAD_PUNCT else tok
    while tok and tok[-1] in _TRAIL_PUNCT:
        last = tok[-1]
        if last == ")" and tok.count("(") >= tok.count(")"):
            break
        if last == "]" and tok.count("[") >= tok.count("]"):
            break
        if last == "}" and tok.count("{") >= tok.count("}"):
            break
        tok = tok[:-1]
    return tok


def _is_plain_word(core: str) -> bool:
    return core.replace("'", "").replace("’", "").replace("-", "").isalpha()


_DIGIT = re.compile(r"\d")
_ALPHA = re.compile(r"[^\W\d_]")
_IDENT_CHARS = re.compile(r"[/_\\=()\[\]{}<>@#$%&*+|~^`:]")


def _classify(core: str) -> str | None:
    """Kind of fact a stripped token is: "num", "ident", "acro", or None (plain word)."""
    if not core:
        return None
    if core.isalpha():  # fast path: letters only
        if len(core) >= 2 and core.isupper():
            return "acro"
        if core.islower() or core.istitle():
            return None
        for a, b in zip(core, core[1:]):  # CamelCase inside the word: PostgreSQL, iPhone
            if a.islower() and b.isupper():
                return "ident"
        return None
    has_digit = _DIGIT.search(core) is not None
    has_alpha = _ALPHA.search(core) is not None
    if has_digit:
        if not has_alpha and not any(c in core for c in "/_\\"):
            return "num"
        return "ident"
    if not has_alpha:
        return None
    if _IDENT_CHARS.search(core) or core.startswith("-"):
        return "ident"
    if "." in core:
        low = core.lower() + "."
        if low in _ABBREV_NEVER_END or low in _ABBREV_MAY_END:
            return None
        return "ident"
    if _is_plain_word(core):
        letters = core.replace("'", "").replace("’", "").replace("-", "")
        if len(letters) >= 2 and letters.isupper():
            return "acro"
        for a, b in zip(core, core[1:]):
            if a.islower() and b.isupper():
                return "ident"
        return None
    return "ident"


# Weights of the facts a unit carries. Identifiers inside a code block weigh less than the same
# identifier in prose: a sentence that names `time.sleep(0.5)` is a better gist than the block.
_FACT_WEIGHT = {
    "num": 1.0,
    "ident": 1.2,
    "acro": 1.0,
    "ent": 1.0,
    "given": 2.0,
    "inline": 1.5,
    "code": 0.6,
}


_FACTS_MAX_TOKENS = 2000
_TAG_BONUS = 2.0  # per tag of the memory that a unit mentions


def _unit_facts(text: str, is_code: bool) -> dict[str, float]:
    """Fact key -> weight for one unit (keys are the verbatim strings)."""
    facts: dict[str, float] = {}
    if is_code:
        # identifiers and numbers in code blocks (cheap scan; capped), fence lines skipped
        for i, m in enumerate(_WS_TOKEN.finditer(text)):
            if i > 400:
                break
            core = _strip_token(m.group()).strip("`")
            if core and _classify(core) is not None and not core.startswith("~~~"):
                facts.setdefault(core, _FACT_WEIGHT["code"])
        return facts
    for m in _INLINE_CODE.finditer(text):
        code = m.group().strip("`").strip()
        if code:
            facts[code] = _FACT_WEIGHT["inline"]
    for m in _URL.finditer(text):
        facts[_strip_token(m.group())] = _FACT_WEIGHT["ident"]
    first = True
    for i, m in enumerate(_WS_TOKEN.finditer(text)):
        if i >= _FACTS_MAX_TOKENS:
            break  # a unit this long is scored on its beginning
        tok = m.group()
        core = _strip_token(tok)
        if "`" in core:
            first = False
            continue  # part of an inline code span, counted whole above
        kind = _classify(core)
        if kind is not None:
            facts.setdefault(core, _FACT_WEIGHT[kind])
        elif (
            not first
            and core[:1].isupper()
            and core != "I"
            and _is_plain_word(core)
        ):
            facts.setdefault(core, _FACT_WEIGHT["ent"])
        first = False
    return facts


def _mask(text: str, table: list[str]) -> str | None:
    """Replace inline code, URLs and every non-plain word by placeholders (appending to table).

    Returns None if the text already contains our placeholder pattern (then no phrase edits).
    """
    if "zqx" in text:
        return None
    pieces: list[str] = []
    pos = 0
    spans = [(m.start(), m.end()) for m in _INLINE_CODE.finditer(text)]
    spans.extend((m.start(), m.end()) for m in _URL.finditer(text))
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
        for m in _WS_TOKEN.finditer(chunk):
            tok = m.group()
            core = _strip_token(tok)
            if not core or _is_plain_word(core):
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


def _unmask(text: str, table: list[str]) -> str:
    if "zqx" not in text:
        return text

    def repl(m: re.Match[str]) -> str:
        idx = _unb16(m.group(1))
        return table[idx] if idx < len(table) else m.group()

    return _PLACEHOLDER.sub(repl, text)


# --------------------------------------------------------------------------------------------
# phrase edits
# --------------------------------------------------------------------------------------------


def _tokens_with_spans(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOK.finditer(text)]


def _find_own_edits(toks: list[tuple[str, int, int]]) -> list[tuple[int, int, str | None]]:
    """Edits (start_tok, end_tok, replacement or None for delete) from our phrase tables."""
    low = [t[0].lower() for t in toks]
    n = len(low)
    edits: list[tuple[int, int, str | None]] = []
    i = 0
    while i < n:
        w = low[i]
        hit = None
        if w in _REWRITE_IDX:
            for ph in _REWRITE_IDX[w]:
                if tuple(low[i : i + len(ph)]) == ph:
                    hit = (i, i + len(ph), _REWRITES[" ".join(ph)])
                    break
        if hit is None and w in _ANYWHERE_IDX:
            for ph in _ANYWHERE_IDX[w]:
                if tuple(low[i : i + len(ph)]) == ph:
                    hit = (i, i + len(ph), None)
                    break
        if hit is None and i == 0 and w in _START_IDX:
            for ph in _START_IDX[w]:
                k = len(ph)
                # sentence-start hedges must be followed by a comma or be a "that"-phrase
                if tuple(low[:k]) == ph and (
                    (k < n and low[k] == ",") or ph[-1] == "that"
                ):
                    hit = (0, k, None)
                    break
        if hit is not None:
            edits.append(hit)
            i = hit[1]
        else:
            i += 1
    return edits


def _apply_edits(masked: str, toks: list[tuple[str, int, int]], edits: list[tuple[int, int, str | None]]) -> str:
    """Apply token-range edits to ``masked``, fixing commas, spacing and capitalisation.

    Each edit is checked on its own; one that cannot be applied cleanly is skipped.
    """
    n = len(toks)
    low = [t[0].lower() for t in toks]
    out: list[str] = []
    pos = 0
    applied = False
    for s, e, repl in edits:
        if s >= e or e > n or toks[s][1] < pos:
            continue
        if repl is None:
            # negation guard: "not really", "isn't basically"
            prev = low[s - 1] if s > 0 else ""
            if prev in _NEGATIONS or prev.endswith("n't") or prev.endswith("n’t"):
                continue
            # comma handling: ", basically," -> ","; "Basically, we" -> "We"
            ee = e
            if ee < n and low[ee] == "," and (s == 0 or low[s - 1] == ","):
                ee += 1
            if s == 0 and ee >= n:
                continue
            if s == 0:
                nxt = low[ee]
                if nxt not in _CAPITALISABLE and not toks[ee][0][:1].isupper():
                    continue
                cut_from, cut_to = toks[s][1], toks[ee][1]
                out.append(masked[pos:cut_from])
                pos = cut_to
                applied = True
                continue
            if ee >= n or not toks[ee][0][0].isalnum() and toks[ee][0] not in "([\"'“‘":
                # deletion before punctuation / at end: remove the preceding whitespace instead
                # (and a comma left dangling: "it works, basically." -> "it works.")
                before = s - 1
                if low[before] == "," and before > 0:
                    before -= 1
                cut_from, cut_to = toks[before][2], toks[ee - 1][2]
            else:
                cut_from, cut_to = toks[s][1], toks[ee][1]
            if cut_from < pos:
                continue
            out.append(masked[pos:cut_from])
            pos = cut_to
            applied = True
        else:
            cut_from, cut_to = toks[s][1], toks[e - 1][2]
            if cut_from < pos:
                continue
            original = masked[cut_from:cut_to]
            if original[:1].isupper():
                repl = repl[:1].upper() + repl[1:]
            out.append(masked[pos:cut_from])
            out.append(repl)
            pos = cut_to
            applied = True
    if not applied:
        return masked
    out.append(masked[pos:])
    result = "".join(out)
    stripped = result.lstrip()
    if not stripped:
        return masked
    if masked.lstrip()[:1].isupper() and stripped[:1].islower():
        # an edit removed the sentence's opening words: capitalise what now opens it, if that
        # is an ordinary word (never a name or identifier); otherwise keep the sentence as is
        first = re.match(r"[^\W\d_]+", stripped)
        if first is None or first.group().lower() not in _CAPITALISABLE or "zqx" in first.group():
            return masked
        lead = len(result) - len(stripped)
        result = result[:lead] + stripped[:1].upper() + stripped[1:]
    return result


def _tr_edits(
    compress: Any, masked: str, level: str, toks: list[tuple[str, int, int]]
) -> list[tuple[int, int, str | None]] | None:
    """token-reducer's edits to one masked sentence, or None if its output is not acceptable."""
    try:
        result = compress(masked, level=level, tokenizer="character")
        out = result.compressed_text
    except Exception:  # noqa: BLE001 - any failure just skips token-reducer for this sentence
        return None
    if not isinstance(out, str):
        return None
    if out == masked:
        return []
    a = [t[0] for t in toks]
    b = _TOK.findall(out)
    # every placeholder must survive exactly, in order
    if [x for x in a if x.startswith("zqx")] != [x for x in b if x.startswith("zqx")]:
        return None
    low_a = [x.lower() for x in a]
    low_b = [x.lower() for x in b]
    edits: list[tuple[int, int, str | None]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, low_a, low_b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "delete":
            s, e = i1, i2
            while s < e and low_a[s] == ",":
                s += 1
            while e > s and low_a[e - 1] == ",":
                e -= 1
            phrase = " ".join(low_a[s:e])
            if s == e:
                return None  # punctuation-only change
            if phrase in _SAFE_DELETE_PHRASES:
                if phrase in _START_DELETE and phrase not in _ANYWHERE_DELETE and s != 0:
                    return None
                edits.append((s, e, None))
                continue
            rewrite = _deletion_as_rewrite(low_a, s, e)
            if rewrite is not None:
                edits.append(rewrite)
                continue
            return None
        if op == "replace":
            phrase = " ".join(low_a[i1:i2])
            if _REWRITES.get(phrase) == " ".join(low_b[j1:j2]):
                edits.append((i1, i2, _REWRITES[phrase]))
                continue
            return None
        return None  # insertions
    return edits


def _deletion_as_rewrite(low: list[str], s: int, e: int) -> tuple[int, int, str] | None:
    """A deletion that amounts to a known rewrite ("in order" before "to" = "in order to" ->
    "to"; "the purpose of" after "for" = "for the purpose of" -> "for"), as that rewrite."""
    for phrase, repl in _REWRITES.items():
        ptoks = phrase.split()
        n = len(ptoks)
        for p in range(max(0, e - n), s + 1):
            if p + n < e or low[p : p + n] != ptoks:
                continue
            rest = low[p:s] + low[e : p + n]
            if rest == repl.split():
                return (p, p + n, repl)
    return None


def _load_compress_text() -> Any:
    try:
        from token_reducer import compress_text  # type: ignore[import-not-found]
    except Exception:  # noqa: BLE001 - ImportError, or a broken install
        return None
    return compress_text


# --------------------------------------------------------------------------------------------
# clause-level cuts
# --------------------------------------------------------------------------------------------

_CLAUSE_SEP = re.compile(r"\s*;\s+|,\s+|\s+[—–]\s+|\s+--?\s+")
_PAREN_CUT = re.compile(r"\s\([^()\n]{1,200}\)(?=[\s.,;:!?]|$)|\s+[—–]\s+[^—–\n]{1,200}?\s+[—–](?=\s)")


_SUBORDINATE = frozenset(
    """if unless when whenever while although though because since as after before once until
    whereas where whether in on at for from by with without during despite given to for
    after""".split()
)


def _balanced(span: str) -> bool:
    return (
        span.count("(") == span.count(")")
        and span.count("[") == span.count("]")
        and span.count('"') % 2 == 0
        and span.count("“") == span.count("”")
        and span.count("`") % 2 == 0
    )


_MAX_CLAUSES = 300


def _clause_candidates(masked: str) -> list[tuple[int, int]]:
    """(start, end) spans of cuttable clauses in a masked sentence.

    Never the first clause; none at all when the first clause is subordinate ("If X, and Y, Z":
    the main clause may come anywhere after it); not the second when the first is short
    ("Today, we ..."); never a clause that restricts the sentence (_RESTRICTIVE); never a span
    with unbalanced brackets or quotes.
    """
    seps = []
    capped = False
    for m in _CLAUSE_SEP.finditer(masked):
        seps.append((m.start(), m.end()))
        if len(seps) >= _MAX_CLAUSES:
            capped = True  # a "sentence" with more clauses is not prose; its tail stays whole
            break
    if not seps:
        return []
    body_end = len(masked.rstrip())
    while body_end > 0 and masked[body_end - 1] in ".!?…。！？":
        body_end -= 1
    first_clause = masked[: seps[0][0]].split()
    if first_clause and first_clause[0].lower().strip("\"'“(") in _SUBORDINATE:
        return []  # "If X, (and Y,) Z." - the main clause may come anywhere after
    protect_second = len(first_clause) < 6
    parens = _paren_regions(masked) if "(" in masked else []  # sorted by start
    pi = 0
    cands: list[tuple[int, int]] = []
    for idx, (s, e) in enumerate(seps):
        if idx == 0 and protect_second:
            continue
        if capped and idx == len(seps) - 1:
            break
        while pi < len(parens) and parens[pi][1] <= s:
            pi += 1
        if pi < len(parens) and parens[pi][0] < s:
            continue  # separator inside parentheses
        nxt = seps[idx + 1][0] if idx + 1 < len(seps) else body_end
        if nxt <= e:
            continue
        first_word = masked[e:nxt].split(None, 1)
        if not first_word:
            continue
        fw = first_word[0].strip(",;:\"'“(").lower()
        if fw in _RESTRICTIVE:
            continue
        if not _balanced(masked[s:nxt]):
            continue
        if len(masked[e:nxt].split()) < 4:
            continue  # a list element ("x86, x86-64, and ARM"), not a clause
        cands.append((s, nxt))
    return cands


# --------------------------------------------------------------------------------------------
# generation
# --------------------------------------------------------------------------------------------


def _build_units(content: str) -> list[_Unit]:
    units: list[_Unit] = []
    order = 0
    for para, (kind, lines) in enumerate(_parse_blocks(content)):
        if kind == "code":
            text = "\n".join(lines).rstrip()
            if text.strip():
                units.append(_Unit("code", order, para, text))
                order += 1
        elif kind == "item":
            text = _normalise_ws("\n".join(lines))
            if text:
                units.append(_Unit("item", order, para, text))
                order += 1
        else:
            for sent in _split_sentences("\n".join(lines)):
                text = _normalise_ws(sent)
                if text:
                    units.append(_Unit("sent", order, para, text))
                    order += 1
    return units


def _bind_intros(units: list[_Unit]) -> list[_Unit]:
    """Merge a sentence ending in ':' into the code unit right after it (kept or dropped together)."""
    out: list[_Unit] = []
    for u in units:
        if (
            u.kind == "code"
            and out
            and out[-1].kind != "code"
            and not out[-1].text.rstrip().endswith((".", "!", "?", "…", "。", "！", "？"))
        ):
            intro = out.pop()
            u.text = intro.text + "\n" + u.text
            u.masked = u.text
            u.first = intro.order == 0
        u.order = len(out)
        out.append(u)
    return out


def _dedupe(units: list[_Unit]) -> list[_Unit]:
    """Drop exact repeats of an earlier unit (same words, any spacing/case): pure redundancy."""
    seen: set[str] = set()
    out: list[_Unit] = []
    for u in units:
        key = " ".join(u.text.lower().split())
        if key in seen:
            continue
        seen.add(key)
        u.order = len(out)
        out.append(u)
    return out


def _score_units(units: list[_Unit], tags: Sequence[str], entities: Sequence[str]) -> None:
    n = len(units)
    tag_list = [t.lower().strip() for t in tags if isinstance(t, str) and t.strip()]
    ent_list = [e.lower().strip() for e in entities if isinstance(e, str) and e.strip()]
    word_sets: list[set[str]] = []
    df: dict[str, int] = {}
    for u in units:
        u.facts = _unit_facts(u.text, u.kind == "code")
        if u.kind == "code":
            words: set[str] = set()
        else:
            words = {
                w
                for w in (x.lower() for x in re.findall(r"[^\W\d_]{3,}", u.text[:2000]))
                if w not in _STOP
            }
        word_sets.append(words)
        for w in words:
            df[w] = df.get(w, 0) + 1
    # the topic sentence: the first unit, unless the note opens with bare code
    first_prose = next((u for u in units if u.kind != "code" or u.first), None)
    if first_prose is not None:
        first_prose.first = True
    for u, words in zip(units, word_sets):
        low = u.text.lower()
        if ent_list or tag_list:
            for e in ent_list:
                if e in low:
                    u.facts["\x00" + e] = _FACT_WEIGHT["given"]
            for t in tag_list:
                if t in low or (
                    (parts := [p for p in re.split(r"[\W_]+", t) if len(p) >= 3])
                    and all(p in words for p in parts)
                ):
                    u.base += _TAG_BONUS
        central = sum(min(df[w] - 1, 3) for w in words) / 3.0 if n > 1 else 0.0
        u.base += 0.05 * len(words) + 0.15 * central
        if u.first:
            u.base += 4.0
        elif u.kind != "code":
            u.base += 0.3 * (1.0 - u.order / max(n, 1))
        if u.kind != "code" and low.startswith(("for example", "for instance", "e.g.", "see also")):
            u.base *= 0.5


def _assemble(units: list[_Unit], keep: list[bool], texts: list[str]) -> str:
    parts: list[str] = []
    prev: _Unit | None = None
    for u, k, t in zip(units, keep, texts):
        if not k or not t:
            continue
        if prev is not None:
            if u.kind != "sent" or prev.kind != "sent":
                parts.append("\n")
            else:
                parts.append(" ")
        parts.append(t)
        prev = u
    return "".join(parts)


def _sep_cost(units: list[_Unit], keep: list[bool]) -> int:
    """Tokens spent on newlines between kept units (sentences are joined by free spaces)."""
    cost = 0
    prev: _Unit | None = None
    for u, k in zip(units, keep):
        if not k:
            continue
        if prev is not None and (u.kind != "sent" or prev.kind != "sent"):
            cost += 1
        prev = u
    return cost


def _gist_core(
    content: str,
    level: str,
    tags: Sequence[str],
    entities: Sequence[str],
    phrase_edits: bool,
    stats: dict[str, Any] | None,
) -> str | None:
    lo, hi = BANDS[level]
    total = estimate_tokens(content)
    if total <= 0:
        return None
    units = _dedupe(_bind_intros(_build_units(content)))
    if not units:
        return None
    _score_units(units, tags, entities)

    # ---- protect + phrase passes -------------------------------------------------------------
    table: list[str] = []
    masked_ok: list[bool] = []
    for u in units:
        if u.kind == "code":
            masked_ok.append(False)
            continue
        m = _mask(u.text, table)
        if m is None:
            masked_ok.append(False)
        else:
            u.masked = m
            masked_ok.append(True)
    texts = [u.text for u in units]
    if phrase_edits:
        compress = _load_compress_text()
        tr_budget = TR_MAX_UNITS
        for i, u in enumerate(units):
            if not masked_ok[i]:
                continue
            toks = _tokens_with_spans(u.masked)
            if len(toks) < 4:
                continue
            edits: list[tuple[int, int, str | None]] = []
            if (
                compress is not None
                and tr_budget > 0
                and len(u.masked) <= TR_MAX_CHARS
                and (not TR_PREFILTER or _TRIGGER.search(u.masked) is not None)
            ):
                tr_budget -= 1
                tr = _tr_edits(compress, u.masked, level, toks)
                if stats is not None:
                    stats["tr_calls"] = stats.get("tr_calls", 0) + 1
                    if tr is None:
                        stats["tr_rejected"] = stats.get("tr_rejected", 0) + 1
                    elif tr:
                        stats["tr_accepted"] = stats.get("tr_accepted", 0) + 1
                if tr:
                    edits = tr
            if edits:
                edited = _apply_edits(u.masked, toks, edits)
                if stats is not None and edited != u.masked:
                    stats["tr_saved"] = stats.get("tr_saved", 0) + (
                        estimate_tokens(_unmask(u.masked, table))
                        - estimate_tokens(_unmask(edited, table))
                    )
                u.masked = edited
                toks = _tokens_with_spans(u.masked)
            own = _find_own_edits(toks)
            if own:
                u.masked = _apply_edits(u.masked, toks, own)
            texts[i] = _unmask(u.masked, table)
    basis_tokens = 0
    for u, t in zip(units, texts):
        u.tokens = estimate_tokens(t)
        basis_tokens += u.tokens if t == u.text else estimate_tokens(u.text)

    keep = [True] * len(units)
    current = sum(u.tokens for u in units) + _sep_cost(units, keep)
    # The band's lower edge is reached against the content re-flowed the way the gist is
    # assembled (same units, nothing dropped, no edits): re-joining hard-wrapped lines saves
    # newline tokens but compresses nothing, so it must not count toward the level's minimum.
    # The upper edge (how much may be lost) is checked against the content itself.
    basis = max(basis_tokens + _sep_cost(units, keep), 1)

    def reduction(cur: int) -> float:
        return 1.0 - cur / basis

    def too_far(cur: int) -> bool:
        return 1.0 - cur / total > hi

    # ---- sentence-level extractive pass ------------------------------------------------------
    counts: dict[str, int] = {}
    for u in units:
        for f in u.facts:
            counts[f] = counts.get(f, 0) + 1

    def loss(u: _Unit) -> float:
        value = u.base
        for f, w in u.facts.items():
            value += w if counts.get(f, 0) <= 1 else 0.1 * w
        return value

    def sep(a: int, b: int) -> int:
        if a < 0 or b >= len(units):
            return 0
        return 0 if units[a].kind == "sent" and units[b].kind == "sent" else 1

    kept_count = len(units)
    if reduction(current) < lo and kept_count > 1:
        prev_k = list(range(-1, len(units) - 1))  # doubly linked list of kept units
        next_k = list(range(1, len(units) + 1))
        heap = [(loss(u) / max(u.tokens, 1), -u.order) for u in units if not u.first]
        heapq.heapify(heap)
        while heap and reduction(current) < lo and kept_count > 1:
            key, neg = heapq.heappop(heap)
            u = units[-neg]
            fresh = loss(u) / max(u.tokens, 1)
            if fresh > key + 1e-12 and heap and fresh > heap[0][0]:
                heapq.heappush(heap, (fresh, neg))
                continue
            o = u.order
            p, q = prev_k[o], next_k[o]
            new = current - u.tokens - sep(p, o) - sep(o, q) + (sep(p, q) if p >= 0 else 0)
            if too_far(new):
                continue
            keep[o] = False
            if p >= 0:
                next_k[p] = q
            if q < len(units):
                prev_k[q] = p
            current = new
            kept_count -= 1
            for f in u.facts:
                counts[f] -= 1

    # ---- clause-level pass -------------------------------------------------------------------
    if reduction(current) < lo and phrase_edits:
        cands: list[tuple[float, int, int, int, int]] = []  # (key, order, kind, start, end)
        for u in units:
            if not keep[u.order] or u.kind == "code" or not masked_ok[u.order]:
                continue
            for m in _PAREN_CUT.finditer(u.masked):
                cands.append((0.0, u.order, 0, m.start(), m.end()))
            for s, e in _clause_candidates(u.masked):
                cands.append((0.0, u.order, 1, s, e))
        scored: list[tuple[float, int, int, int, int, int]] = []
        for _, order, kind, s, e in cands:
            u = units[order]
            span = _unmask(u.masked[s:e], table)
            saved = estimate_tokens(span)
            if saved <= 0:
                continue
            facts = _unit_facts(span.strip(" ,;:—–-()"), False)
            if level == "light" and facts:
                continue  # light is near-verbatim: it only drops fact-free asides and clauses
            value = 0.3 + 0.05 * len(re.findall(r"[^\W\d_]{3,}", span))
            for f, w in facts.items():
                value += w if counts.get(f, 0) <= 1 else 0.1 * w
            if kind == 1:
                value += 0.5  # a clause costs more readability than a parenthetical
            scored.append((value / saved, order, kind, s, e, saved))
        scored.sort()
        cuts: dict[int, list[tuple[int, int]]] = {}
        for _, order, _kind, s, e, saved in scored:
            if reduction(current) >= lo:
                break
            spans = cuts.setdefault(order, [])
            if any(not (e <= cs or s >= ce) for cs, ce in spans):
                continue
            if too_far(current - saved):
                continue
            spans.append((s, e))
            current -= saved
        for order, spans in cuts.items():
            if not spans:
                continue
            u = units[order]
            m = u.masked
            pieces: list[str] = []
            pos = 0
            for s, e in sorted(spans):
                pieces.append(m[pos:s])
                pos = e
            pieces.append(m[pos:])
            texts[order] = _unmask("".join(pieces), table)

    # ---- last resort: one unit more, overshooting the band a little ---------------------------
    # Two or three sentences of similar size often leave no way into a 20-point band: dropping
    # one more unit, up to OVERSHOOT beyond the band's upper edge, beats having no gist at all.
    if reduction(current) < lo and kept_count > 1:
        best: tuple[float, float, int] | None = None
        for u in units:
            if not keep[u.order] or u.first:
                continue
            new = current - estimate_tokens(texts[u.order])
            if reduction(new) < lo or 1.0 - new / total > hi + OVERSHOOT[level]:
                continue
            cand = (1.0 - new / total, loss(u), u.order)
            if best is None or cand < best:
                best = cand
        if best is not None:
            keep[best[2]] = False
            current = sum(estimate_tokens(t) for t, k in zip(texts, keep) if k)

    gist = _assemble(units, keep, texts).strip()
    if not gist:
        return None
    g_tokens = estimate_tokens(gist)
    ratio = g_tokens / total
    limit = LIGHT_GUARD_RATIO if level == "light" else GUARD_RATIO
    if ratio > limit or g_tokens >= total:
        return None
    return gist


_VERIFY_TOKEN = re.compile(r"\S*[^\s\w'’-]\S*|\S*[\d_]\S*")


def _corrupted(gist: str, content: str) -> bool:
    """True if a number, path or identifier in the gist does not occur verbatim in the content.

    Only tokens with a digit, underscore or punctuation are checked: the phrase passes never
    create a plain-letter token other than an ordinary word.
    """
    content_cores: set[str] | None = None
    for m in _VERIFY_TOKEN.finditer(gist):
        core = _strip_token(m.group())
        if _classify(core) not in ("num", "ident"):
            continue
        if content_cores is None:
            content_cores = {_strip_token(t) for t in content.split()}
        if core not in content_cores and core not in content:
            return True
    return False


def generate_gist(
    content: str,
    level: str = "moderate",
    tags: Sequence[str] = (),
    entities: Sequence[str] = (),
    *,
    _stats: dict[str, Any] | None = None,
) -> str | None:
    """A gist of ``content`` at ``level`` (see the module docstring), or None.

    None means "no gist": the content is short (under :data:`MIN_WORDS` words), or no version
    short enough was found. Raises ValueError for an unknown level, and nothing else.
    """
    check_level(level)
    try:
        if not isinstance(content, str) or not content.strip():
            return None
        if word_count(content) < MIN_WORDS:
            return None
        tags = (tags,) if isinstance(tags, str) else tuple(tags or ())
        entities = (entities,) if isinstance(entities, str) else tuple(entities or ())
        gist = _gist_core(content, level, tags, entities, True, _stats)
        if gist is not None and _corrupted(gist, content):
            gist = _gist_core(content, level, tags, entities, False, None)
            if gist is not None and _corrupted(gist, content):
                return None
        return gist
    except Exception:  # noqa: BLE001 - a gist never blocks a save
        return None
