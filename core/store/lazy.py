"""Records held as their file's bytes until first read: what an open from the derived index
fills the cache with (:mod:`core.vault.indexed_open`), so that opening a vault of 10k memories
parses none of them, and a command that reads three parses three.

The bytes are a row of the index, written from the blob git holds and validated then
(:meth:`~core.vault.indexed_open.OpenIndex.write_index`): a row whose bytes do not make a
valid record of its id is never kept with its bytes, and the open reads that file from disk and
reports it as before; and the open hands over only bytes that are the blob their row names
(hashed as read: :meth:`~core.vault.indexed_open.OpenIndex.load_from_index`), never a copy
damaged or changed inside the index file. So parsing here does not fail; if it ever did (a model changed without the
index's schema version), the error is raised as it comes, never hidden.

:class:`LazyRecords` is a full mapping (``dict(...)``, ``.values()``, ``.items()``, ``in``,
``len``...) that only ever hands out parsed records: a row is parsed the first time it is read,
and every record at once the first time all of them are asked for (``values()``, ``items()``),
with the cyclic collector paused as the open pauses it. A mapping can also be filled only when
it is first used at all (:meth:`LazyRecords.fill_later`: a read-only open leaves a big
relations folder unread until something asks for relations).

An open with no index (after a clone) holds the bytes of the files it read *unchecked*
(:meth:`LazyRecords.fill_unchecked`): not yet known to make a valid record of their id. Such a
mapping never hands out a record it has not checked, nor an id whose file turns out to be no
record: reading one id checks that one (a bad file is then dropped and reported, as the open
would have reported it: ``refused``), and anything that shows the ids (iterating, counting,
``values()``) checks every record first (:meth:`LazyRecords.settle`).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, ItemsView, Iterator, MutableMapping, ValuesView
from typing import Generic, TypeVar

R = TypeVar("R")
_MISSING = object()
#: How many changes a mapping remembers (see LazyRecords.changed_since).
_LOG_LIMIT = 8192
#: Held while a mapping is filled on its first use (LazyRecords.fill_later): re-entrant, as a
#: load may read other mappings.
_LATER = threading.RLock()


class LazyRecords(MutableMapping[str, R], Generic[R]):
    """id -> record, where a value may still be the record's bytes (``bytes``), parsed with
    ``make(bytes)`` on first read and kept parsed from then on (in place: the order of the ids
    never changes)."""

    __slots__ = ("_check", "_filled", "_items", "_later", "_lock", "_log", "_log_base", "_make",
                 "_raw", "_refused", "_unchecked")

    def __init__(self, make: Callable[[bytes], R]) -> None:
        self._items: dict[str, R | bytes] = {}
        self._make = make
        self._raw = 0  # how many values are still bytes
        # (the app reads the vault from workers too: a value is swapped and counted under it)
        self._lock = threading.Lock()
        # the ids set or deleted, in order: what changed since a version (see changed_since)
        self._log: list[str] = []
        self._log_base = 0  # the version before self._log[0]
        self._later: Callable[[], None] | None = None  # fills it on first use (fill_later)
        # a mapping filled unchecked (fill_unchecked): parses one, or raises ValueError (kept
        # once all are checked: a reader that found bytes just before still checks them)
        self._check: Callable[[str, bytes], R] | None = None
        self._refused: Callable[[str, ValueError], None] | None = None
        self._unchecked = False  # whether some bytes held are not checked yet
        # what a mapping filled on first use held as it was filled (see as_filled)
        self._filled: dict[str, R | bytes] | None = None

    # -- what changed -----------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Grows with every record set or deleted (and every fill)."""
        return self._log_base + len(self._log)

    def changed_since(self, version: int) -> set[str] | None:
        """The ids set or deleted since ``version``; None when that is no longer known (too
        long ago, or the mapping was filled since): the caller compares everything."""
        if self._later is not None:
            self._fill_due()
        if self._unchecked:
            self.settle()
        with self._lock:
            if not self._log_base <= version <= self._log_base + len(self._log):
                return None
            return set(self._log[version - self._log_base:])

    def _logged(self, key: str) -> None:  # (the lock is held)
        self._log.append(key)
        if len(self._log) > _LOG_LIMIT:  # forget the older half: a reader that old compares all
            half = len(self._log) // 2
            del self._log[:half]
            self._log_base += half

    # -- filling ----------------------------------------------------------------------------
    def fill(self, raw: dict[str, bytes] | dict[str, R], *, parsed: bool = False) -> None:
        """Hold every record of ``raw`` (id -> bytes) as its bytes, or, ``parsed``, every record
        it holds (id -> record): an empty mapping only (what an open fills at once; the dict is
        taken, not copied). A mapping waiting to be filled on first use (:meth:`fill_later`)
        is filled by this instead, and keeps its version: what it holds now is what it stood
        for since ``fill_later`` (a reader that noted its version then sees no change)."""
        with self._lock:
            if self._items:
                raise ValueError("fill() is for an empty mapping")
            due = self._later is not None and not self._log
            self._later = self._check = self._refused = None
            self._unchecked = False
            self._items = raw  # type: ignore[assignment]
            self._raw = 0 if parsed else len(raw)
            if not due:
                self._log_base += len(self._log) + 1  # (every earlier version is unknown now)
            self._log = []
            self._filled = dict(raw) if due else None  # (a copy: ~3 ms at 100k)

    def fill_unchecked(self, raw: dict[str, bytes], check: Callable[[str, bytes], R],
                       refused: Callable[[str, ValueError], None]) -> None:
        """Hold every record of ``raw`` (id -> bytes) as its bytes, not yet known to make a
        valid record of its id: each is made with ``check(id, bytes)``, which raises ValueError
        (saying why) for a file that is no record of that id; such an id is dropped from the
        mapping and handed to ``refused(id, error)`` (under the mapping's lock: it must not use
        the mapping). An empty mapping only; the dict is taken, not copied."""
        self.fill(raw)
        if raw:
            with self._lock:
                self._check, self._refused, self._unchecked = check, refused, True

    @property
    def unchecked(self) -> bool:
        """Whether it still holds bytes not yet checked (:meth:`fill_unchecked`)."""
        return self._unchecked

    def settle(self) -> None:
        """Check every record still unchecked (:meth:`fill_unchecked`): what a use of the
        whole mapping does first, so that every id it shows is a record's."""
        if self._unchecked:
            self.parse_all()

    def fill_later(self, load: Callable[[], None]) -> None:
        """Have ``load()`` fill this empty mapping (with :meth:`fill`) the first time it is
        used in any way (read, counted, iterated, changed); until then it holds nothing and
        costs nothing. A ``load`` that raises leaves it due: the next use tries again."""
        with self._lock:
            if self._items or self._later is not None:
                raise ValueError("fill_later() is for an empty mapping")
            self._later = load

    def as_filled(self) -> dict[str, R | bytes] | None:
        """What a mapping filled on first use (:meth:`fill_later`) held as it was filled, each
        record as its bytes or its record (filled now when due): what it stood for since
        ``fill_later``, for a reader that noted its version then and finds a record changed
        since. None for a mapping filled otherwise."""
        if self._later is not None:
            self._fill_due()
        return self._filled

    @property
    def due(self) -> bool:
        """Whether it waits for its first use to be filled (:meth:`fill_later`)."""
        return self._later is not None

    def _fill_due(self) -> None:
        with self._lock:
            load = self._later
        if load is None:
            return
        with _LATER:  # (one load, whichever thread uses it first; fill takes self._lock)
            if self._later is load:
                load()
                self._later = None

    @property
    def raw(self) -> int:
        """How many records are still held as bytes."""
        if self._later is not None:
            self._fill_due()
        return self._raw

    def _parse(self, key: str, body: bytes) -> R:
        check = self._check
        if check is not None:
            return self._parse_unchecked(key, body, check)
        record = self._make(body)
        with self._lock:
            current = self._items.get(key, _MISSING)
            if current is not body:  # parsed by another thread meanwhile, or replaced, or gone
                return record if current is _MISSING else current  # type: ignore[return-value]
            self._items[key] = record
            self._raw -= 1
        return record

    def _parse_unchecked(self, key: str, body: bytes, check: Callable[[str, bytes], R]) -> R:
        """One unchecked record (see :meth:`_parse`); KeyError when it is refused (dropped)."""
        refusal: ValueError | None = None
        try:
            record: R | None = check(key, body)
        except ValueError as exc:
            record, refusal = None, exc
        with self._lock:
            current = self._items.get(key, _MISSING)
            if current is not body:  # (checked by another thread meanwhile, replaced, or gone)
                if current is _MISSING:
                    raise KeyError(key)
                return current  # type: ignore[return-value]
            self._raw -= 1
            if record is None:
                del self._items[key]
                if self._refused is not None and refusal is not None:
                    self._refused(key, refusal)
                raise KeyError(key)
            self._items[key] = record
            if not self._raw:
                self._unchecked, self._refused = False, None
        return record

    def parse_all(self) -> None:
        """Parse every record still held as bytes (with the cyclic collector paused, then the
        records frozen out of its scans, as the open does for what it loads)."""
        if self._later is not None:
            self._fill_due()
        if not self._raw:
            if self._unchecked:  # (the last unchecked one was replaced)
                with self._lock:
                    self._unchecked, self._refused = False, None
            return
        collecting = gc.isenabled()
        gc.disable()
        try:
            with self._lock:  # (one pass, under the lock: another reader waits, then finds it)
                items, make, check = self._items, self._make, self._check
                for key in list(items):  # (not a list of the values: each body freed as parsed)
                    value = items[key]
                    if type(value) is not bytes:
                        continue
                    if check is None:
                        items[key] = make(value)
                    else:
                        try:
                            items[key] = check(key, value)
                        except ValueError as exc:
                            del items[key]
                            if self._refused is not None:
                                self._refused(key, exc)
                    self._raw -= 1
                self._unchecked, self._refused = False, None
        finally:
            if collecting:
                gc.freeze()
                gc.enable()

    # -- the mapping ------------------------------------------------------------------------
    def __getitem__(self, key: str) -> R:
        if self._later is not None:
            self._fill_due()
        value = self._items[key]
        if type(value) is bytes:
            return self._parse(key, value)
        return value  # type: ignore[return-value]

    def get(self, key: str, default: R | None = None) -> R | None:  # type: ignore[override]
        if self._later is not None:
            self._fill_due()
        value = self._items.get(key, _MISSING)
        if value is _MISSING:
            return default
        if type(value) is bytes:
            try:
                return self._parse(key, value)
            except KeyError:  # (an unchecked file that is no record: refused)
                return default
        return value  # type: ignore[return-value]

    def __setitem__(self, key: str, record: R) -> None:
        if self._later is not None:
            self._fill_due()
        with self._lock:
            if type(self._items.get(key)) is bytes:
                self._raw -= 1
            self._items[key] = record
            self._logged(key)

    def __delitem__(self, key: str) -> None:
        if self._later is not None:
            self._fill_due()
        with self._lock:
            if type(self._items[key]) is bytes:
                self._raw -= 1
            del self._items[key]
            self._logged(key)

    def held(self, key: str) -> R | bytes:
        """The value held for ``key`` as it is: the record, or its file's bytes when it was not
        parsed yet (never parsed here: a caller that can use the bytes, such as the search
        index comparing them with what its row was made from, spares the parse)."""
        if self._later is not None:
            self._fill_due()
        value = self._items[key]
        if self._check is not None and type(value) is bytes:  # (never bytes not yet checked)
            return self._parse(key, value)
        return value

    def __contains__(self, key: object) -> bool:
        if self._later is not None:
            self._fill_due()
        if self._check is not None and isinstance(key, str) \
                and type(self._items.get(key)) is bytes:
            return self.get(key) is not None
        return key in self._items

    def __iter__(self) -> Iterator[str]:
        if self._later is not None:
            self._fill_due()
        if self._unchecked:
            self.settle()
        return iter(self._items)

    def __len__(self) -> int:
        if self._later is not None:
            self._fill_due()
        if self._unchecked:
            self.settle()
        return len(self._items)

    def values(self) -> ValuesView[R]:
        self.parse_all()  # (fills a mapping still due first)
        return self._items.values()  # type: ignore[return-value]

    def items(self) -> ItemsView[str, R]:
        self.parse_all()
        return self._items.items()  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRecords):
            other = dict(other.items())
        return dict(self.items()) == other

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        if self._later is not None:
            return f"<{type(self).__name__}: filled on first use>"
        return f"<{type(self).__name__}: {len(self)} records, {self._raw} not parsed yet>"
