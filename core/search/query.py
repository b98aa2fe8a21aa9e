"""The one query language of ``memvault search``, ``memvault list --query`` and the app's ``/``
filter, parsed into a :class:`Query` of :class:`Term` s.

    pytest ci                 words: each must match (search: a token of content, gist, tags or
                              entities, stemmed; filter: a substring of them or of the id)
    "on call"                 a phrase: the words next to each other
    deploy*                   a prefix: a word starting with it
    tag:python  tag:proj-*    a tag (case-insensitive; * and ? are wildcards)
    entity:Alice              an entity (case-insensitive; wildcards allowed)
    status:archived           a status (a unique prefix will do: status:arch)
    id:1a2b                   the id starts with it
    has:gist                  the memory has a gist (also has:tags, has:entities, has:relations,
                              has:pin: it is pinned, gc never takes it)
    score<0.1  uses>=3        the decay score now; also strength, age and idle (days)
    -tag:done  -word          any term above, negated

Parsing never fails: a term it cannot read is reported in :attr:`Query.errors` and left out, an
unbalanced quote is a letter. Text terms reach SQLite's FTS5 only through :func:`fts_expression`,
which quotes every token, so nothing typed (``"``, ``*``, ``NEAR``, ``AND``, parentheses) can make
an FTS5 syntax error.
"""

from __future__ import annotations

import difflib
import fnmatch
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..model.values import MemoryStatus, is_pinned
from .word_forms import base_word

if TYPE_CHECKING:
    from ..model.records import Memory

DAY = 86400
STATUSES = tuple(s.value for s in MemoryStatus)
FIELDS = ("tag", "status", "id", "entity", "has")
HAS = ("gist", "relations", "tags", "entities", "pin")
TEXT_KINDS = ("word", "phrase", "prefix")
_COMPARE = re.compile(r"^(score|uses|strength|age|idle)(<=|>=|!=|<|>|=)(-?\d+(?:\.\d+)?|-?\.\d+)d?$")
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "=": lambda a, b: abs(a - b) < 1e-9, "!=": lambda a, b: abs(a - b) >= 1e-9,
}
#: What FTS5's unicode61 tokenizer keeps as a token: runs of letters and digits.
TOKEN = re.compile(r"[^\W_]+")
#: English question words, auxiliaries, pronouns, articles and prepositions: a question asked
#: as typed ("What did Caroline say about the race?") ranks by its other words
#: (:meth:`Query.ranked_terms`). Words, not phrases: a quoted "the who" keeps every token.
STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each else ever few for from
further had has have having he her here hers herself him himself his how i if in into is it its
itself just let me might more most must my myself no nor not of off on once only or other ought
our ours ourselves out over own per same shall she should so some such than that the their
theirs them themselves then there these they this those through to too under until up upon us
very was we were what whatever when whenever where whether which while who whom whose why will
with would yet you your yours yourself yourselves s t d ll m re ve
""".split())


@dataclass(frozen=True)
class Term:
    """One term. ``kind``: word, phrase, prefix (``value`` as typed, without the ``*``), tag,
    entity, status (``value`` the full status), id, has, or compare (``value`` the quantity,
    ``op`` and ``number`` the comparison)."""

    kind: str
    value: str
    negated: bool = False
    op: str = ""
    number: float = 0.0

    @property
    def is_text(self) -> bool:
        return self.kind in TEXT_KINDS

    def tokens(self) -> list[str]:
        """The FTS5 tokens of a text term (lowercased, diacritics kept: FTS removes them)."""
        return [t.lower() for t in TOKEN.findall(self.value)]


@dataclass
class Query:
    text: str = ""
    terms: list[Term] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.terms

    @property
    def text_terms(self) -> list[Term]:
        """Words, phrases and prefixes that must match (not negated)."""
        return [t for t in self.terms if t.is_text and not t.negated]

    @property
    def ranked_terms(self) -> list[Term]:
        """The text terms a ranked search scores: :attr:`text_terms` that have a token, less
        the plain words that are only :data:`STOPWORDS` ("what", "did", "the"), unless nothing
        else is left (a search for "the who" still finds them). Stopwords would otherwise count
        in the coverage as much as the words the question is about, and widen the match to
        nearly every memory."""
        terms = [t for t in self.text_terms if t.tokens()]
        content = [_based(_clipped(t)) for t in terms
                   if t.kind != "word" or not STOPWORDS.issuperset(t.tokens())]
        return content or terms

    @property
    def asks_something(self) -> bool:
        """Some wanted term is more than :data:`STOPWORDS` (a phrase, a prefix, or a word with a
        token that is not one): a query of "the on over" asks nothing a memory's meaning could
        answer, so a hybrid search offers no memory by its cosine alone (:func:`.rank.rank`)."""
        return any(t.kind != "word" or not STOPWORDS.issuperset(t.tokens())
                   for t in self.text_terms if t.tokens())

    @property
    def words(self) -> list[str]:
        """The wanted text terms as typed, lowercased (what the app highlights)."""
        return [t.value.lower() for t in self.text_terms]

    @property
    def has_text(self) -> bool:
        """Some wanted word has a token FTS can look up (a query of only ``(*)`` has none)."""
        return any(t.tokens() for t in self.text_terms)

    @property
    def statuses(self) -> set[MemoryStatus] | None:
        """The statuses ``status:`` terms allow (None: no status term)."""
        wanted: set[MemoryStatus] | None = None
        for t in self.terms:
            if t.kind != "status":
                continue
            allowed = {MemoryStatus(t.value)} if not t.negated else \
                {s for s in MemoryStatus if s.value != t.value}
            wanted = allowed if wanted is None else wanted & allowed
        return wanted


def _clipped(term: Term) -> Term:
    """A word without the stopword tokens that end it: ``Melanie's`` -> ``Melanie`` (the
    tokens ``melanie s`` would be a phrase, missing "Melanie: ..."), ``didn't`` -> ``didn``."""
    tokens = term.tokens()
    if term.kind != "word" or len(tokens) < 2 or tokens[-1] not in STOPWORDS:
        return term
    while len(tokens) > 1 and tokens[-1] in STOPWORDS:
        tokens.pop()
    return Term("word", " ".join(tokens), term.negated)


def _based(term: Term) -> Term:
    """A word that is an irregular form as its base form: ``went`` -> ``go``, which the index
    holds beside every irregular form of it (:mod:`.word_forms`)."""
    tokens = term.tokens()
    base = base_word(tokens[0]) if term.kind == "word" and len(tokens) == 1 else None
    return Term("word", base, term.negated) if base else term


# -- parsing ------------------------------------------------------------------------------------
def _split(text: str) -> list[tuple[str, bool]]:
    """Whitespace-separated terms; ``"..."`` groups words (anywhere in a term: ``tag:"a b"``).
    A quote without its closing partner is an ordinary letter. Returns (term, quoted?) pairs,
    quotes removed where they paired."""
    terms: list[tuple[str, bool]] = []
    buf: list[str] = []
    quoted = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            if buf:
                terms.append(("".join(buf), quoted))
            buf, quoted = [], False
        elif c == '"':
            close = text.find('"', i + 1)
            if close == -1:
                buf.append(c)
            else:
                buf.append(text[i + 1:close])
                quoted = True
                i = close
        else:
            buf.append(c)
        i += 1
    if buf:
        terms.append(("".join(buf), quoted))
    return terms


def parse(text: str) -> Query:
    """The query for ``text``. Never raises: unreadable terms go to ``errors``."""
    query = Query(text=text)
    for raw, quoted in _split(text):
        negated = raw.startswith("-") and len(raw) > 1
        body = raw[1:] if negated else raw
        if not body.strip():
            continue
        try:
            query.terms.append(_term(body, quoted, negated))
        except ValueError as exc:
            query.errors.append(str(exc))
    return query


#: What reads as a field's name before a colon (a word of two letters or more: ``tags:``);
#: ``a:b``, ``10:30`` and ``http://`` stay words.
_FIELD_NAME = re.compile(r"^[a-z]{2,20}$")


def _unknown_field(name: str, value: str) -> str:
    """``tags:python: no field "tags" (did you mean tag:python?) ...``."""
    close = difflib.get_close_matches(name, FIELDS, n=1, cutoff=0.6)
    close = close or [f for f in FIELDS if name.startswith(f) or f.startswith(name)][:1]
    hint = f" (did you mean {close[0]}:{value}?)" if close else ""
    return (f'{name}:{value}: no field "{name}"{hint}; the fields are '
            f'{", ".join(f + ":" for f in FIELDS)}; quote it ("{name}:{value}") to find the '
            "words")


def _term(body: str, quoted: bool, negated: bool) -> Term:
    compare = None if quoted else _COMPARE.match(body.lower())
    if compare:
        what, op, number = compare.groups()
        return Term("compare", what, negated, op, float(number))
    name, sep, value = body.partition(":")
    name = name.lower()
    if sep and name in FIELDS:
        if not value.strip():
            raise ValueError(f"{name}: needs a value")
        if name == "status":
            wanted = [s for s in STATUSES if s.startswith(value.lower())]
            if len(wanted) != 1:
                raise ValueError(f"status:{value}: choose one of {', '.join(STATUSES)}")
            return Term("status", wanted[0], negated)
        if name == "has" and value.lower() not in HAS:
            raise ValueError(f"has:{value}: choose one of {', '.join(HAS)}")
        return Term(name, value.lower() if name in ("has", "id") else value, negated)
    if sep and not quoted and value.strip() and _FIELD_NAME.match(name) \
            and not value.startswith("/"):
        raise ValueError(_unknown_field(name, value))
    if not quoted and re.match(r"^(score|uses|strength|age|idle)(!=|[<>=])", body.lower()):
        # an operator with no number after it; "score!" (no operator) is a word, as "uses?" is
        raise ValueError(f"{body}: expected a number, like score<0.1 or uses>=3")
    if quoted:
        return Term("phrase", body, negated)
    if body.endswith("*") and body.rstrip("*"):
        return Term("prefix", body.rstrip("*"), negated)
    return Term("word", body, negated)


# -- FTS5 -----------------------------------------------------------------------------------------
def _fts_string(term: Term) -> str | None:
    tokens = term.tokens()
    if not tokens:
        return None
    quoted = '"' + " ".join(tokens) + '"'  # tokens are letters and digits: nothing to escape
    return quoted + "*" if term.kind == "prefix" else quoted


def fts_expression(terms: Iterable[Term]) -> str | None:
    """An FTS5 MATCH expression that every term must match (AND), or None when no term has a
    token. Every token is quoted, so the expression is always valid FTS5."""
    parts = [p for p in map(_fts_string, terms) if p]
    return " AND ".join(parts) if parts else None


# -- the filter (substring semantics, for list --query and the app's box) -----------------------
class Candidate(Protocol):
    """What the filter reads about a memory (the app's ``tui.app.view.Row`` is one); read only."""

    @property
    def memory(self) -> Memory: ...

    @property
    def score(self) -> float: ...

    @property
    def hay(self) -> str:  # lowercased: id, content, gist, tags, entities
        ...

    @property
    def relations(self) -> int: ...


@dataclass(frozen=True)
class Plain:
    """A :class:`Candidate` made from a memory (``list --query``)."""

    memory: Memory
    score: float = 0.0
    relations: int = 0
    hay: str = ""

    @classmethod
    def of(cls, memory: Memory, score: float = 0.0, relations: int = 0) -> Plain:
        return cls(memory, score, relations, hay_of(memory))


def hay_of(m: Memory) -> str:
    return " ".join([m.id, m.content, m.gist or "", *m.meta.tags, *m.entities]).lower()


Test = Callable[[Candidate, int], bool]


def compile_filter(query: Query, *, text: bool = True) -> Test:
    """One test for every term (AND). ``text=False`` leaves words, phrases and prefixes out
    (search matches them with FTS5 instead)."""
    tests = [_test(t) for t in query.terms if text or not t.is_text]
    if not tests:
        return lambda c, now: True
    if len(tests) == 1:
        return tests[0]
    return lambda c, now: all(test(c, now) for test in tests)


def select(query: Query, memories: Iterable[Memory], now: int, *,
           score_of: Callable[[Memory], float], relations_of: Callable[[Memory], int],
           text: bool = True) -> list[Memory]:
    """The memories every term matches (``text=False``: leaving words, phrases and prefixes
    out). Scores and relation counts are computed only when a term asks for them."""
    test = compile_filter(query, text=text)
    if query.empty or (not text and all(t.is_text for t in query.terms)):
        return list(memories)
    wants_score = any(t.kind == "compare" and t.value == "score" for t in query.terms)
    wants_relations = any(t.kind == "has" and t.value == "relations" for t in query.terms)
    wants_hay = text and any(t.is_text for t in query.terms)
    out = []
    for m in memories:
        candidate = Plain(m, score_of(m) if wants_score else 0.0,
                          relations_of(m) if wants_relations else 0,
                          hay_of(m) if wants_hay else "")
        if test(candidate, now):
            out.append(m)
    return out


def _test(term: Term) -> Test:
    test = _positive(term)
    if term.negated:
        return lambda c, now: not test(c, now)
    return test


def _pattern(value: str) -> Callable[[str], bool]:
    value = value.lower()
    if any(c in value for c in "*?["):
        return lambda s: fnmatch.fnmatchcase(s.lower(), value)
    return lambda s: s.lower() == value


def _positive(term: Term) -> Test:
    kind, value = term.kind, term.value
    if kind == "tag":
        match = _pattern(value)
        return lambda c, now: any(match(t) for t in c.memory.meta.tags)
    if kind == "entity":
        match = _pattern(value)
        return lambda c, now: any(match(e) for e in c.memory.entities)
    if kind == "status":
        status = MemoryStatus(value)
        return lambda c, now: c.memory.status == status
    if kind == "id":
        return lambda c, now: c.memory.id.lower().startswith(value)
    if kind == "has":
        return {
            "gist": lambda c, now: bool(c.memory.gist),
            "tags": lambda c, now: bool(c.memory.meta.tags),
            "entities": lambda c, now: bool(c.memory.entities),
            "pin": lambda c, now: is_pinned(c.memory),
        }.get(value, lambda c, now: c.relations > 0)
    if kind == "compare":
        return _comparison(term)
    word = value.lower()
    if kind == "prefix":
        start = re.compile(r"(?<![^\W_])" + re.escape(word))
        return lambda c, now: start.search(c.hay) is not None
    return lambda c, now: word in c.hay


def _comparison(term: Term) -> Test:
    limit, compare, what = term.number, _OPS[term.op], term.value
    if what == "score":
        return lambda c, now: compare(c.score, limit)
    if what == "uses":
        return lambda c, now: compare(c.memory.use_count, limit)
    if what == "strength":
        return lambda c, now: compare(c.memory.strength, limit)
    if what == "age":
        return lambda c, now: compare((now - c.memory.created_at) / DAY, limit)
    return lambda c, now: compare((now - c.memory.last_used) / DAY, limit)  # idle
