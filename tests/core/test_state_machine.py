"""Random sequences of operations keep the cache, the files on disk and the git HEAD tree equal,
and a reopened vault equals the old one."""

from __future__ import annotations

import tempfile
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from core import MemoryStatus, UnknownIdError, Vault, VaultError, is_lineage
from core.model.records import now_epoch

TEXTS = st.sampled_from([
    "Postgres upgrade on Friday", "dark mode everywhere", "Zürich → 東京 🚄", "x",
    "a longer note " * 20, "cache invalidation is hard", "line one\nline two",
])
TAGS = st.lists(st.sampled_from(["db", "ops", "ui", "réseau", "x"]), max_size=3)
REL_TYPES = st.sampled_from(["related", "causes", "supports", "depends_on", "consolidated_from"])


class VaultMachine(RuleBasedStateMachine):
    base: Path  # set by the test
    check = None  # the consistency check from conftest, set by the test

    def __init__(self):
        super().__init__()
        self.path = Path(tempfile.mkdtemp(dir=self.base)) / "vault"
        self.vault = Vault.open(self.path)
        # gc scores at this fixed moment, before any memory: a memory added with strength 0.5
        # scores exactly the 0.5 threshold at once and less a second later, so scoring at the
        # clock's now made a replay of the same steps take other memories (and Hypothesis
        # report its strategy as flaky)
        self.t0 = now_epoch()
        self.commits = 1
        self.graveyard = {}  # id -> the memory as it was when deleted
        self.expected_use = {}  # id -> use_count the model expects
        # Memories and relations are drawn in the order they were made, never by id: most ids
        # are random, so a replay of the same steps sorted by id would draw other records (and
        # Hypothesis would report its data generation as flaky).
        self.made: dict[str, int] = {}

    # -- helpers ---------------------------------------------------------------------------
    def _ids(self):
        return sorted(self.vault.memories)

    def _pick(self, data, pool, min_size=1, max_size=3):
        return data.draw(st.lists(st.sampled_from(sorted(pool, key=self.made.__getitem__)),
                                  min_size=min_size, max_size=max_size, unique=True))

    def _commit_made(self, n=1):
        self.commits += n
        count = int(self.vault.journal.commands.output("rev-list", "--count", "HEAD"))
        assert count == self.commits

    # -- rules -----------------------------------------------------------------------------
    @rule(text=TEXTS, tags=TAGS, strength=st.sampled_from([0.5, 1.0, 1.95, 2.0]),
          own_id=st.booleans())
    def add(self, text, tags, strength, own_id):
        memory_id = None
        if own_id:
            memory_id = f"m{len(self.vault.memories) + len(self.graveyard)}"
            if memory_id in self.vault.memories or memory_id in self.graveyard:
                memory_id = None
        m = self.vault.add(text, tags=tags, strength=strength, memory_id=memory_id)
        self.made[m.id] = len(self.made)
        self.expected_use[m.id] = 0
        self._commit_made()

    @precondition(lambda self: self.vault.memories)
    @rule(data=st.data(), boost=st.booleans())
    def touch(self, data, boost):
        ids = self._pick(data, self.vault.memories)
        before = {i: self.vault.get(i).strength for i in ids}
        self.vault.touch(*ids, boost=boost)
        for i in ids:
            self.expected_use[i] += 1
            assert self.vault.get(i).use_count == self.expected_use[i]
            want = min(2.0, before[i] + 0.1) if boost else before[i]
            assert abs(self.vault.get(i).strength - max(before[i], want)) < 1e-9
        self._commit_made()

    @precondition(lambda self: self.vault.memories)
    @rule(data=st.data(), days=st.sampled_from([1, 30, 400]))
    def age(self, data, days):
        [i] = self._pick(data, self.vault.memories, max_size=1)
        when = now_epoch() - days * 86400
        changes = self.vault.get(i).last_used != when
        self.vault.update(i, last_used=when)
        assert self.vault.get(i).last_used == when
        self._commit_made(1 if changes else 0)  # no empty commits

    @precondition(lambda self: self.vault.memories)
    @rule(data=st.data())
    def archive(self, data):
        [i] = self._pick(data, self.vault.memories, max_size=1)
        if self.vault.get(i).status == MemoryStatus.ARCHIVED:
            try:
                self.vault.archive(i)
            except VaultError:
                return
            raise AssertionError("archiving an archived memory must be refused")
        self.vault.archive(i)
        assert self.vault.get(i).status == MemoryStatus.ARCHIVED
        self._commit_made()

    @precondition(lambda self: self.vault.memories)
    @rule(data=st.data())
    def unarchive(self, data):
        [i] = self._pick(data, self.vault.memories, max_size=1)
        if self.vault.get(i).status != MemoryStatus.ARCHIVED:
            try:
                self.vault.unarchive(i)
            except VaultError:
                return
            raise AssertionError("unarchiving a memory that is not archived must be refused")
        self.vault.unarchive(i)
        assert self.vault.get(i).status == MemoryStatus.ACTIVE
        self._commit_made()

    @precondition(lambda self: self.vault.memories)
    @rule(data=st.data())
    def delete(self, data):
        ids = self._pick(data, self.vault.memories, max_size=2)
        touching = [r for r in self.vault.relations.values()
                    if r.from_memory_id in ids or r.to_memory_id in ids]
        going = {r.id for r in touching if not is_lineage(r)}  # lineage outlives the memory
        kept = {r.id for r in touching if is_lineage(r)}
        gone = {i: self.vault.get(i) for i in ids}
        report = self.vault.delete(*ids)
        assert {r.id for r in report.relations} == going
        assert not going & set(self.vault.relations)
        assert kept <= set(self.vault.relations)
        self.graveyard.update(gone)
        for i in ids:
            self.expected_use.pop(i)
        self._commit_made()

    @precondition(lambda self: len(self.vault.memories) >= 1)
    @rule(data=st.data(), kind=REL_TYPES, strength=st.sampled_from([0.0, 0.5, 1.0]))
    def relate(self, data, kind, strength):
        a = self._pick(data, self.vault.memories, max_size=1)[0]
        b = self._pick(data, self.vault.memories, max_size=1)[0]
        r = self.vault.relate(a, b, kind, strength=strength)
        self.made.setdefault(r.id, len(self.made))  # (relating again may return the same one)
        assert self.vault.relations[r.id] == r
        self._commit_made()

    @precondition(lambda self: self.vault.relations)
    @rule(data=st.data())
    def unrelate(self, data):
        [rid] = self._pick(data, self.vault.relations, max_size=1)
        self.vault.unrelate(rid)
        assert rid not in self.vault.relations
        self._commit_made()

    @precondition(lambda self: self.graveyard or self.vault.memories)
    @rule(data=st.data())
    def restore(self, data):
        pool = set(self.graveyard) | set(self.vault.memories)
        [i] = self._pick(data, pool, max_size=1)
        living = i in self.vault.memories
        current = self.vault.memories.get(i)
        try:
            report = self.vault.restore(i[:6] if len(i) > 6 else i)
        except (VaultError, UnknownIdError):
            # only a living memory with no earlier, different version has nothing to restore
            assert living
            for entry in self.vault.history(i)[1:]:
                if entry.action != "deleted":
                    assert self.vault.version(i, entry.commit) == current
            return
        if not living:
            assert report.memory == self.graveyard.pop(i)
            for r in report.relations:
                assert i in (r.from_memory_id, r.to_memory_id)
                assert r.from_memory_id in self.vault.memories
                assert r.to_memory_id in self.vault.memories
        self.expected_use[i] = report.memory.use_count
        assert self.vault.get(i) == report.memory
        self._commit_made(0 if living and report.memory == current else 1)

    @rule(archive=st.booleans(), threshold=st.sampled_from([None, 0.5, 1.05]),
          dry_run=st.booleans())
    def gc(self, archive, threshold, dry_run):
        report = self.vault.gc(dry_run=dry_run, archive=archive, threshold=threshold,
                               now=self.t0)
        if dry_run or not report.candidates:
            return
        ids = [m.id for m, _ in report.candidates]
        if archive:
            assert all(self.vault.get(i).status == MemoryStatus.ARCHIVED for i in ids)
        else:
            assert not set(ids) & set(self.vault.memories)
            for m, _ in report.candidates:
                self.graveyard[m.id] = m
                self.expected_use.pop(m.id)
        assert self.vault.meta["last_gc_at"] is not None
        self._commit_made()

    @rule()
    def reopen(self):
        old = self.vault
        self.vault = Vault.open(self.path)
        assert self.vault.memories == old.memories
        assert self.vault.relations == old.relations

    # -- invariants ------------------------------------------------------------------------
    @invariant()
    def cache_disk_and_head_agree(self):
        type(self).check(self.vault)
        assert {i: m.use_count for i, m in self.vault.memories.items()} == self.expected_use

    def teardown(self):
        reopened = Vault.open(self.path)
        assert reopened.memories == self.vault.memories
        assert reopened.relations == self.vault.relations
        assert reopened.meta == self.vault.meta
        assert reopened.problems == []
        type(self).check(reopened)


def test_vault_state_machine(tmp_path, consistent):
    VaultMachine.base = tmp_path
    VaultMachine.check = staticmethod(consistent)
    run_state_machine_as_test(
        VaultMachine,
        settings=settings(max_examples=20, stateful_step_count=15, deadline=None,
                          suppress_health_check=list(HealthCheck), derandomize=False,
                          database=None),
    )
