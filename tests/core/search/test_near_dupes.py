"""The near-duplicate rows of the derived index (core/search/near_dupes.py): written with the
search rows by every sync, following changes, made again when their parameters differ, and
bounded where many memories share a key."""

from __future__ import annotations

from core import Memory
from core.search import near_dupes
from core.search.index import SearchIndex
from core.search.near_dupes import (
    BANDS,
    NEIGHBOURS,
    STATE_KEY,
    NearDuplicateRows,
    band_keys,
    keys_of_text,
)
from core.wording import terms

BASE = ("the quarterly report for the northern region must be filed with finance before the "
        "end of march every single year by the regional manager")


def _rows(index: SearchIndex) -> dict[str, tuple[int, ...]]:
    """memory id -> its stored keys."""
    import struct

    ids = index.ids_of()
    return {ids[doc]: struct.unpack(f"<{BANDS}q", blob)
            for doc, blob in index.conn.execute("SELECT doc, keys FROM dupe_docs")}


def _bands(index: SearchIndex) -> set[tuple[int, str]]:
    ids = index.ids_of()
    return {(key, ids[doc]) for key, doc in index.conn.execute("SELECT key, doc FROM dupe_bands")}


def _pairs(index: SearchIndex) -> set[tuple[str, str]]:
    ids = index.ids_of()
    return {tuple(sorted((ids[a], ids[b]))) for a, b in index.near_duplicates().pairs()}


def _memories(*texts: str) -> dict[str, Memory]:
    return {f"m{i}": Memory(id=f"m{i}", content=t) for i, t in enumerate(texts)}


def test_keys_follow_the_content_terms_only():
    assert band_keys([]) == [] and keys_of_text("a b ,,") == []  # no token longer than 2
    keys = keys_of_text(BASE)
    assert len(keys) == BANDS and keys == band_keys(terms(BASE.upper() + " !"))
    one_word = keys_of_text(BASE.replace("single", "calendar"))
    assert 0 < len(set(keys) & set(one_word)) < BANDS  # likely similar, not the same


def test_every_sync_keeps_the_rows_level_with_the_memories(tmp_path):
    memories = _memories(BASE, BASE.replace("single", "calendar"), "an unrelated note on tea",
                         "it is the")
    with SearchIndex(tmp_path / "index.sqlite") as index:
        index.sync(memories)
        rows = _rows(index)
        assert set(rows) == {"m0", "m1", "m2"}  # "it is the": no content term, no row
        assert rows["m0"] == tuple(keys_of_text(BASE))
        assert len(_bands(index)) == 3 * BANDS  # one row per (key, memory)
        assert _pairs(index) == {("m0", "m1")}
        # changed, added, removed: the same rows as an index built from nothing
        memories = dict(memories)
        memories["m1"] = Memory(id="m1", content="a completely different note about coffee")
        memories["m4"] = Memory(id="m4", content=BASE + " again")
        del memories["m2"]
        index.sync(memories)
        after = (_rows(index), _bands(index), _pairs(index))
    with SearchIndex(tmp_path / "fresh.sqlite") as fresh:
        fresh.sync(memories)
        assert after == (_rows(fresh), _bands(fresh), _pairs(fresh))
    assert set(after[0]) == {"m0", "m1", "m4"} and after[2] == {("m0", "m4")}


def test_a_sync_after_another_process_wrote_compares_every_memory(tmp_path):
    path = tmp_path / "index.sqlite"
    memories = _memories(BASE, "an unrelated note on tea")
    with SearchIndex(path) as mine, SearchIndex(path) as theirs:
        mine.sync(memories)
        other = dict(memories)
        other["m1"] = Memory(id="m1", content="tea is brewed at eighty degrees for green leaves")
        theirs.sync(other)  # the file now holds their m1
        assert mine.sync(memories).changed == 1  # ours again: m1 rewritten, rows and keys
        assert _rows(mine)["m1"] == tuple(keys_of_text("an unrelated note on tea"))


def test_rows_of_other_parameters_are_made_again_without_touching_the_search_rows(tmp_path):
    path = tmp_path / "index.sqlite"
    memories = _memories(BASE, "an unrelated note on tea")
    with SearchIndex(path) as index:
        index.sync(memories)
        records = index.fingerprints()
        index.conn.execute("UPDATE state SET value = 'older' WHERE key = ?", (STATE_KEY,))
        index.conn.execute("DELETE FROM dupe_docs")
    with SearchIndex(path) as index:  # a later process
        report = index.sync(memories)
        assert (report.added, report.changed, report.removed) == (0, 0, 0)
        assert index.fingerprints() == records
        assert NearDuplicateRows(index.conn).current()
        assert set(_rows(index)) == {"m0", "m1"}


def test_an_index_written_before_the_rows_existed_gets_them_on_its_next_sync(tmp_path):
    path = tmp_path / "index.sqlite"
    memories = _memories(BASE)
    with SearchIndex(path) as index:
        index.sync(memories)
        index.conn.execute("DROP TABLE dupe_docs")
        index.conn.execute("DROP TABLE dupe_bands")
        index.conn.execute("DELETE FROM state WHERE key = ?", (STATE_KEY,))
    with SearchIndex(path) as index:
        index.sync(memories)
        assert set(_rows(index)) == {"m0"}


def test_a_crowded_key_pairs_each_memory_with_its_neighbours_only(tmp_path):
    n = 10_000  # copies of one text: every key shared by all of them
    memories = {f"c{i:05d}": Memory(id=f"c{i:05d}", content=BASE) for i in range(n)}
    with SearchIndex(None) as index:
        index.sync(memories)
        rows = index.near_duplicates()
        pairs = set(rows.pairs())
        assert len(pairs) <= n * NEIGHBOURS  # not n * (n - 1) / 2
        assert {a for a, _ in pairs} | {b for _, b in pairs} == set(index.ids_of())
        assert len(rows.candidates(keys_of_text(BASE), limit=50)) == 50


def _counted_pairs(index: SearchIndex) -> dict[tuple[int, int], int]:
    """How many keys each pair of docs shares, counted pair by pair (a crowded key only between
    neighbours): what pairs(n) must agree with."""
    from collections import Counter
    from itertools import groupby

    from core.search.near_dupes import CROWDED

    rows = index.conn.execute("SELECT key, doc FROM dupe_bands ORDER BY key, doc")
    counts: Counter[tuple[int, int]] = Counter()
    for _key, group in groupby(rows, key=lambda r: r[0]):
        docs = [doc for _, doc in group]
        reach = len(docs) if len(docs) <= CROWDED else NEIGHBOURS + 1
        for x, a in enumerate(docs):
            for b in docs[x + 1:x + reach]:
                counts[(a, b)] += 1
    return counts


def test_pairs_sharing_several_keys_are_those_counted_pair_by_pair():
    import random

    rng = random.Random(5)
    words = [f"word{n}" for n in range(60)]  # a small vocabulary: many keys shared by chance
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) for _ in range(300)]
    texts += [BASE] * 70  # a crowded key: more copies than CROWDED
    texts += [BASE.replace("single", "calendar")] * 3  # shares keys with the crowded copies
    memories = _memories(*texts)
    with SearchIndex(None) as index:
        index.sync(memories)
        counts = _counted_pairs(index)
        rows = index.near_duplicates()
        for need in (1, 2, 3):
            assert rows.pairs(need) == {p for p, n in counts.items() if n >= need}
        assert len(rows.pairs(2)) < len(rows.pairs(1))


def test_a_crowded_key_and_a_plain_one_together_make_two_shared_keys():
    import sqlite3

    from core.search.near_dupes import CROWDED

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    rows = NearDuplicateRows(conn)
    rows.reset()
    crowd = range(1, CROWDED + 10)  # key 7: crowded; key 8: docs 1, 2 and 40 only
    bands = [(7, d) for d in crowd] + [(8, 1), (8, 2), (8, 40)]
    conn.executemany("INSERT INTO dupe_bands (key, doc) VALUES (?, ?)", bands)
    conn.executemany("INSERT INTO dupe_shared (key) VALUES (?)", [(7,), (8,)])
    # 1 and 2: neighbours in the crowded key, and key 8; 1 and 40: key 8 only (too far apart
    # in the crowded key to count it); 2 and 3: neighbours in the crowded key only
    assert rows.pairs(2) == {(1, 2)}
    assert {(1, 40), (2, 40), (2, 3)} <= rows.pairs(1)


def test_a_copy_of_the_same_memories_is_not_compared_again(tmp_path, monkeypatch):
    from core.search import index as index_module

    memories = _memories(BASE, "an unrelated note on tea")
    with SearchIndex(tmp_path / "index.sqlite") as index:
        index.sync(memories)

        def compared(memory):
            raise AssertionError("compared again")

        monkeypatch.setattr(index_module, "fingerprint", compared)
        index._seen.clear()  # (no fingerprint kept either: only the objects can say)
        assert index.sync(dict(memories)).added == 0  # the app's checks take a copy each time
        changed = dict(memories)
        changed["m2"] = Memory(id="m2", content="a third note")
        monkeypatch.undo()
        assert index.sync(changed).added == 1


def test_a_copy_after_a_change_is_compared_only_where_its_objects_differ(tmp_path, monkeypatch):
    from core.search import index as index_module

    memories = _memories(BASE, "an unrelated note on tea", "a third note on coffee")
    with SearchIndex(tmp_path / "index.sqlite") as index:
        index.sync(memories)
        changed = dict(memories)
        changed["m1"] = Memory(id="m1", content="tea is brewed at eighty degrees")
        del changed["m2"]
        changed["m3"] = Memory(id="m3", content=BASE + " again")
        seen: list[str] = []
        real = index_module.fingerprint

        def counted(memory):
            seen.append(memory.id)
            return real(memory)

        monkeypatch.setattr(index_module, "fingerprint", counted)
        index._seen.clear()  # (so that only a compare can ask for a fingerprint)
        report = index.sync(changed)
        assert sorted(seen) == ["m1", "m3"]
        assert (report.added, report.changed, report.removed) == (1, 1, 1)
        assert _pairs(index) == {("m0", "m3")}


def test_band_keys_are_each_bands_fnv_fold_of_its_minhash_values():
    """The keys (stored: every process must make the same) are, for each band, its number + 1
    folded with its :data:`ROWS` MinHash values (``key * prime ^ value``, 63 bits): the
    unrolled loop a first build runs gives exactly those of the plain loop."""
    import random

    from rensa import RMinHash

    def plain(tokens: set[str]) -> list[int]:
        sketch = RMinHash(num_perm=near_dupes.PERMS, seed=near_dupes.SEED)
        sketch.update(list(tokens))
        values, keys = sketch.digest(), []
        for band in range(near_dupes.BANDS):
            key = band + 1
            for value in values[band * near_dupes.ROWS:(band + 1) * near_dupes.ROWS]:
                key = ((key * 0x100000001B3) ^ value) & ((1 << 63) - 1)
            keys.append(key)
        return keys

    rng = random.Random(3)
    for _ in range(300):
        tokens = {f"t{rng.randrange(500)}" for _ in range(rng.randint(1, 60))}
        assert near_dupes.band_keys(tokens) == plain(tokens)
    assert near_dupes.band_keys(set()) == []



def test_a_search_leaves_the_rows_to_the_next_sync_that_reads_them(tmp_path, monkeypatch):
    """A search reads no near-duplicate row: its sync, writing no search row, does not ask
    whether they were made with today's parameters (rensa's version, importlib.metadata); the
    next sync that reads them makes them again."""
    from core import Vault
    from core.search.rank import Searcher

    vault = Vault.open(tmp_path / "v")
    first = vault.add(BASE).id
    second = vault.add("an unrelated note on tea").id
    with SearchIndex.for_root(vault.root) as index:
        index.sync(vault.memories)
        index.conn.execute("UPDATE state SET value = 'older' WHERE key = ?", (STATE_KEY,))
        index.conn.execute("DELETE FROM dupe_docs")
    asked: list[bool] = []
    real = NearDuplicateRows.kept
    monkeypatch.setattr(NearDuplicateRows, "kept", lambda self: asked.append(True) or real(self))
    with Searcher(vault, mode="bm25") as searcher:  # a later process's search
        assert [h.memory.id for h in searcher.search("quarterly").hits] == [first]
        assert asked == []
        index = searcher.index
        assert not NearDuplicateRows(index.conn).current()
        index.sync(vault.memories)  # a reader's sync (core.ops.near_duplicates)
        assert asked and NearDuplicateRows(index.conn).current()
        assert set(_rows(index)) == {first, second}
