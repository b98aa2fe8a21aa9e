"""The bytes an open keeps of the files it reads (core.store.kept_bytes): KeptWhileSmall keeps
them up to its limit, then none at all; and the first search of a vault too big to keep them
for keeps none, while a smaller one keeps them for the open index."""

from __future__ import annotations

import pytest

from core import Vault
from core.search import first_build, index_path
from core.store.kept_bytes import KeptWhileSmall
from core.vault import indexed_open


def test_it_keeps_up_to_its_limit_then_nothing():
    kept = KeptWhileSmall(2)
    kept["a"] = b"1"
    kept["b"] = b"2"
    assert kept == {"a": b"1", "b": b"2"} and not kept.full
    kept["c"] = b"3"
    assert kept == {} and kept.full
    kept["d"] = b"4"
    assert kept == {} and kept.full


@pytest.mark.parametrize("hand_over_from, kept", [(3, False), (10**6, True)])
def test_the_first_search_keeps_bytes_only_for_a_vault_it_will_not_hand_over(
        vault, monkeypatch, hand_over_from, kept):
    for n in range(5):
        vault.add(f"memory {n}")
    vault.close()
    for leftover in index_path(vault.root).parent.glob("index.sqlite*"):
        leftover.unlink()
    monkeypatch.setattr(first_build, "FIRST_BUILD_FROM", hand_over_from)
    monkeypatch.setattr(indexed_open, "READONLY_INDEX_FROM", 1)
    opened = Vault.open(vault.root, readonly=True, keep_read=True, search_rows=True)
    assert opened.open_index.kept_read is kept
    opened.open_index.search_rows.discard()
    plain = Vault.open(vault.root, readonly=True, keep_read=True)  # (not a search: kept)
    assert plain.open_index.kept_read
