"""A big tree's ordered, encoded form (core.git.tree_order): changed by a few entries, it gives
the very bytes a tree encoded and ordered from scratch gives."""

from __future__ import annotations

import random

import pytest

from core.git.tree_order import OrderedTree
from core.git.trees import tree_bytes

FILE, TREE = b"100644", b"40000"


def _entries(rng: random.Random, n: int) -> dict[bytes, tuple[bytes, bytes]]:
    names = {rng.choice([b"a", b"a-b", b"a.b", b"ab", b"b", b"m"]) + b"%d" % rng.randrange(50)
             for _ in range(n)}
    return {name: (rng.choice([FILE, TREE]), rng.randbytes(20)) for name in names}


@pytest.mark.parametrize("seed", range(20))
def test_changes_put_in_place_give_the_bytes_of_a_tree_made_anew(seed: int) -> None:
    rng = random.Random(seed)
    entries = _entries(rng, 120)
    ordered = OrderedTree.of(entries)
    assert ordered.data() == tree_bytes(entries)
    for _ in range(30):
        pool = [*entries, b"a", b"a.b", b"a-b", *(b"new%d" % rng.randrange(1000) for _ in range(3))]
        names = rng.sample(sorted(set(pool)), rng.randrange(1, 5))  # one change a name
        after = dict(entries)
        for name in names:
            new = rng.choice([None, (FILE, rng.randbytes(20)), (TREE, rng.randbytes(20))])
            if new is None:
                after.pop(name, None)
            else:
                after[name] = new
        changes = [(n, entries.get(n), after.get(n)) for n in names
                   if entries.get(n) != after.get(n)]
        ordered = ordered.changed(changes)
        assert ordered.data() == tree_bytes(after)
        assert list(ordered.in_order(after)) == list(dict(
            sorted(after.items(), key=lambda i: i[0] + b"/" if i[1][0] == TREE else i[0])))
        entries = after


def test_an_entry_that_is_not_there_is_refused() -> None:
    ordered = OrderedTree.of({b"a": (FILE, b"\1" * 20)})
    with pytest.raises(ValueError):
        ordered.changed([(b"b", (FILE, b"\2" * 20), None)])
