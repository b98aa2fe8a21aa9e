"""``ObjectStore.blobs_named``: blobs by id or by ``<rev>:<path>``, read together in two git
processes; the untrusted ones over the size limit, folders and missing names left out, a name
that would read as two refused."""

from __future__ import annotations

import pytest

from core.errors import JournalError


def test_blobs_named_reads_ids_and_files_at_a_commit_and_leaves_out_the_rest(vault):
    vault.add("the user prefers pytest", memory_id="m1")
    journal = vault.journal
    head = journal.head()
    rel = journal.relpath(vault.root / "memories" / "m1.json")
    big = journal.objects.write_blob(b"x" * 50_000)
    names = [f"{head}:{rel}", big, f"{head}:{journal.relpath(vault.root / 'memories')}",
             f"{head}:no/such/file", "0" * 40]
    found = journal.objects.blobs_named(names, limit=20_000)
    assert set(found) == {f"{head}:{rel}"}  # the big blob, a folder, the missing: left out
    assert found[f"{head}:{rel}"] == (vault.root / "memories" / "m1.json").read_bytes()
    assert journal.objects.blobs_named([big], limit=None) == {big: b"x" * 50_000}


def test_blobs_named_refuses_a_name_holding_a_line_break(vault):
    vault.add("the user prefers pytest", memory_id="m1")
    with pytest.raises(JournalError, match="line break"):
        vault.journal.objects.blobs_named([f"{vault.journal.head()}:a\nHEAD:b"])
