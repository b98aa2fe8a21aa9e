"""One rule for naming a record by its id or a prefix of it, shared by the store, the app's
view, history (ids that exist only in git) and the inbox: an exact id, or a prefix of at least
:data:`MIN_PREFIX` characters that starts exactly one id. A refusal says why in words a person
can act on: a prefix too short (and how many ids start with it), none, or several (listed)."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import AmbiguousIdError, UnknownIdError
from ..textutil import neutralise_line

#: the shortest prefix that names a record (shorter ones match too much by chance)
MIN_PREFIX = 4


def resolve_prefix(key: str, ids: Iterable[str], kind: str = "memory", where: str = "") -> str:
    """The one id of ``ids`` that ``key`` names (exactly, or as a prefix of >= MIN_PREFIX
    characters). UnknownIdError when none does (``where``, like " in the inbox", ends its
    message), AmbiguousIdError when several do."""
    pool = ids if isinstance(ids, (set, frozenset, dict)) else list(ids)
    if key in pool:
        return key
    shown = neutralise_line(key)
    if len(key) < MIN_PREFIX:
        n = sum(1 for i in pool if i.startswith(key)) if key else 0
        start = (f"; 1 {kind} starts with it" if n == 1 else
                 f"; {n} {_plural(kind)} start with it" if n else "")
        raise UnknownIdError(f"no {kind} with id {shown!r}{where} (a prefix needs at least "
                             f"{MIN_PREFIX} characters{start})", key, kind)
    matches = sorted(i for i in pool if i.startswith(key))
    if not matches:
        raise UnknownIdError(f"no {kind} with id or prefix {shown!r}{where}", key, kind)
    if len(matches) > 1:
        raise AmbiguousIdError(key, matches)
    return matches[0]


def _plural(kind: str) -> str:
    return "memories" if kind == "memory" else kind + "s"
