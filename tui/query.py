"""The filter box's language: free words plus ``tag:``, ``status:``, ``id:``, ``entity:``,
``has:gist`` and ``score<0.1``-style comparisons; a leading ``-`` negates a term.

Pure Python (no textual): :func:`parse` turns the box's text into a :class:`Query`, whose
:meth:`Query.matches` is called for every memory on each keystroke, so it only does string and
number comparisons against what :class:`tui.view.Row` has precomputed.

    pytest ci                 both words appear (content, gist, tags, entities or id)
    "on call"                 the phrase appears
    tag:python  tag:proj-*    a tag (case-insensitive; * and ? are wildcards)
    status:archived           a status (a unique prefix will do: status:arch)
    id:1a2b                   the id starts with it
    entity:Alice              an entity (case-insensitive; wildcards allowed)
    has:gist                  the memory has a gist
    score<0.1  score>=0.5     the decay score now; also uses>3, strength>=1.5, age>30 (days
                              since created), idle>7 (days since last used)
    -tag:done  -word          anything above, negated
"""

from __future__ import annotations

import fnmatch
import operator
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core import MemoryStatus

if TYPE_CHECKING:
    from .view import Row

DAY = 86400
STATUSES = tuple(s.value for s in MemoryStatus)
_COMPARE = re.compile(r"^(score|uses|strength|age|idle)(<=|>=|!=|<|>|=)(-?\d+(?:\.\d+)?|-?\.\d+)d?$")
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "=": lambda a, b: abs(a - b) < 1e-9, "!=": lambda a, b: abs(a - b) >= 1e-9,
}
FIELDS = ("tag", "status", "id", "entity", "has")
HAS = ("gist", "relations", "tags", "entities")

Test = Callable[["Row", int], bool]


class QueryError(ValueError):
    """A term the filter cannot understand (the rest of the filter still applies)."""


@dataclass
class Query:
    text: str = ""
    tests: list[Test] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)  # free words (for highlighting)

    @property
    def empty(self) -> bool:
        return not self.tests

    def matches(self, row: Row, now: int) -> bool:
        for test in self.tests:
            if not test(row, now):
                return False
        return True


def parse(text: str) -> Query:
    """The query for the filter box's text. Terms it cannot read are reported in ``errors``
    and left out; the others still filter."""
    query = Query(text=text)
    try:
        terms = shlex.split(text)
    except ValueError:  # an unbalanced quote while typing: treat quotes as letters
        terms = text.split()
    for term in terms:
        negate = term.startswith("-") and len(term) > 1
        body = term[1:] if negate else term
        try:
            test = _term(body, query)
        except QueryError as exc:
            query.errors.append(str(exc))
            continue
        if negate:
            query.tests.append(_negated(test))
        else:
            query.tests.append(test)
    return query


def _negated(test: Test) -> Test:
    return lambda row, now: not test(row, now)


def _pattern(value: str) -> Callable[[str], bool]:
    value = value.lower()
    if any(c in value for c in "*?["):
        return lambda s: fnmatch.fnmatchcase(s.lower(), value)
    return lambda s: s.lower() == value


def _term(body: str, query: Query) -> Test:
    compare = _COMPARE.match(body.lower())
    if compare:
        return _comparison(*compare.groups())
    name, sep, value = body.partition(":")
    if sep and name.lower() in FIELDS:
        name = name.lower()
        if not value:
            raise QueryError(f"{name}: needs a value")
        if name == "tag":
            match = _pattern(value)
            return lambda row, now: any(match(t) for t in row.memory.meta.tags)
        if name == "entity":
            match = _pattern(value)
            return lambda row, now: any(match(e) for e in row.memory.entities)
        if name == "status":
            wanted = [s for s in STATUSES if s.startswith(value.lower())]
            if len(wanted) != 1:
                raise QueryError(f"status:{value}: choose one of {', '.join(STATUSES)}")
            status = MemoryStatus(wanted[0])
            return lambda row, now: row.memory.status == status
        if name == "id":
            prefix = value.lower()
            return lambda row, now: row.memory.id.lower().startswith(prefix)
        if name == "has":
            what = value.lower()
            if what not in HAS:
                raise QueryError(f"has:{value}: choose one of {', '.join(HAS)}")
            if what == "gist":
                return lambda row, now: bool(row.memory.gist)
            if what == "tags":
                return lambda row, now: bool(row.memory.meta.tags)
            if what == "entities":
                return lambda row, now: bool(row.memory.entities)
            return lambda row, now: row.relations > 0
    if re.match(r"^(score|uses|strength|age|idle)[<>=!]", body.lower()):
        raise QueryError(f"{body}: expected a number, like score<0.1 or uses>=3")
    word = body.lower()
    query.words.append(word)
    return lambda row, now: word in row.hay


def _comparison(what: str, op: str, number: str, _unit: None = None) -> Test:
    limit = float(number)
    compare = _OPS[op]
    if what == "score":
        return lambda row, now: compare(row.score, limit)
    if what == "uses":
        return lambda row, now: compare(row.memory.use_count, limit)
    if what == "strength":
        return lambda row, now: compare(row.memory.strength, limit)
    if what == "age":
        return lambda row, now: compare((now - row.memory.created_at) / DAY, limit)
    return lambda row, now: compare((now - row.memory.last_used) / DAY, limit)  # idle
