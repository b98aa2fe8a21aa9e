"""The Vault API: every operation is one commit named by its verb, the cache matches disk and HEAD."""

from __future__ import annotations

import contextlib
import json
import stat
import uuid

import pytest

from core import (
    AmbiguousIdError,
    InvalidIdError,
    JournalError,
    Memory,
    MemoryStatus,
    Relation,
    UnknownIdError,
    Vault,
    VaultError,
)
from core.model.records import now_epoch

DAY = 86400


@pytest.fixture
def one_commit(git_tools):
    """``with one_commit(vault, "verb"):`` asserts the block made exactly one commit whose
    message starts with ``verb:``, and left the vault consistent and git status clean."""

    @contextlib.contextmanager
    def check(vault, verb):
        before = git_tools.commit_count(vault.root)
        yield
        assert git_tools.commit_count(vault.root) == before + 1
        assert git_tools.head_subject(vault.root).startswith(f"{verb}: ")
        git_tools.assert_consistent(vault)

    return check


@pytest.fixture
def no_commit(git_tools):
    @contextlib.contextmanager
    def check(vault):
        before_count = git_tools.commit_count(vault.root)
        before_disk = git_tools.disk_tree(vault)
        before_cache = {k: m.model_dump() for k, m in vault.memories.items()}
        before_rel = {k: r.model_dump() for k, r in vault.relations.items()}
        yield
        assert git_tools.commit_count(vault.root) == before_count
        assert git_tools.disk_tree(vault) == before_disk
        assert {k: m.model_dump() for k, m in vault.memories.items()} == before_cache
        assert {k: r.model_dump() for k, r in vault.relations.items()} == before_rel
        git_tools.assert_consistent(vault)

    return check


def age(vault, memory_id, days, **extra):
    """Set last_used (and created_at) ``days`` in the past."""
    t = now_epoch() - int(days * DAY)
    return vault.update(memory_id, last_used=t, created_at=t, **extra)


# -- opening ---------------------------------------------------------------------------------
def test_new_vault_is_initialised(vault_path, git_tools):
    v = Vault.open(vault_path)
    assert (vault_path / ".git").is_dir()
    assert (vault_path / "memories").is_dir() and (vault_path / "relations").is_dir()
    meta = json.loads((vault_path / ".meta.json").read_text())
    assert meta["storage_version"] == 2
    for key in ("created_at", "machine_id", "last_gc_at", "last_consolidation_at", "migrated_from"):
        assert key in meta
    assert git_tools.commit_count(vault_path) == 1
    assert git_tools.head_subject(vault_path).startswith("init: ")
    assert v.report.initialised
    git_tools.assert_consistent(v)
    # opening again adds nothing
    v2 = Vault.open(vault_path)
    assert git_tools.commit_count(vault_path) == 1
    assert not v2.report.initialised


def test_readonly_vault_refuses_writes(vault_path, vault):
    m = vault.add("x")
    ro = Vault.open(vault_path, readonly=True)
    assert ro.get(m.id) == m
    with pytest.raises(VaultError):
        ro.add("y")
    with pytest.raises(VaultError):
        ro.touch(m.id)


def test_readonly_missing_vault(tmp_path):
    with pytest.raises(VaultError):
        Vault.open(tmp_path / "nothing", readonly=True)
    assert not (tmp_path / "nothing").exists()


# -- add / get ------------------------------------------------------------------------------
def test_add_writes_one_file_one_commit(vault, one_commit):
    with one_commit(vault, "add"):
        m = vault.add("Postgres 16 upgrade is scheduled", tags=["db", "ops", "db"],
                      entities=["Postgres"], source="chat", context="planning", strength=1.5)
    assert str(uuid.UUID(m.id, version=4)) == m.id
    assert m.meta.tags == ["db", "ops"]
    assert m.entities == ["Postgres"] and m.meta.source == "chat" and m.meta.context == "planning"
    assert m.strength == 1.5 and m.use_count == 0 and m.status == MemoryStatus.ACTIVE
    path = vault.root / "memories" / f"{m.id}.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text("utf-8")
    assert text.startswith('{\n  "id": ')  # pretty-printed, indent=2
    assert text.endswith("\n")
    assert json.loads(text)["content"] == "Postgres 16 upgrade is scheduled"
    assert vault.get(m.id) == m
    subject = vault.history(m.id)[0].message
    assert subject.startswith(f"add: {m.id[:8]} Postgres 16 upgrade")


def test_add_keeps_unicode(vault_path, vault):
    m = vault.add("Zürich → 東京 🚄 naïve café", tags=["reise"])
    again = Vault.open(vault_path).get(m.id)
    assert again.content == "Zürich → 東京 🚄 naïve café"


def test_add_refuses_empty_content(vault, no_commit):
    with no_commit(vault):
        for content in ("", "   \n"):
            with pytest.raises(VaultError):
                vault.add(content)


@pytest.mark.parametrize("bad", ["a/b", "..", "../x", ".hidden", "a\x00b", "tab\there", "x" * 129,
                                 "", "a\\b", "con"])
def test_add_refuses_invalid_ids(vault, no_commit, bad):
    with no_commit(vault):
        with pytest.raises(InvalidIdError):
            vault.add("content", memory_id=bad)
    assert list((vault.root / "memories").iterdir()) == []


@pytest.mark.parametrize("good", ["m1", "test-123", "mem_42", "x" * 128, "a.b", "émile"])
def test_add_accepts_safe_existing_ids(vault, one_commit, good):
    with one_commit(vault, "add"):
        m = vault.add("content", memory_id=good)
    assert m.id == good and vault.get(good) == m


def test_prefix_resolution(vault):
    a = vault.add("a", memory_id="abcd1111")
    b = vault.add("b", memory_id="abcd2222")
    vault.add("c", memory_id="zzzz0000")
    assert vault.resolve("abcd1111") == a.id
    assert vault.resolve("abcd1") == a.id
    assert vault.get("abcd2").id == b.id
    assert vault.resolve("zzzz") == "zzzz0000"
    with pytest.raises(AmbiguousIdError) as info:
        vault.resolve("abcd")
    assert info.value.candidates == ["abcd1111", "abcd2222"]
    assert "abcd1111" in str(info.value) and "abcd2222" in str(info.value)
    with pytest.raises(UnknownIdError):
        vault.resolve("zzz")  # unique, but shorter than 4 characters
    with pytest.raises(UnknownIdError):
        vault.resolve("nope")
    assert vault.find("abcd1") is None  # find is exact only
    assert vault.find("abcd1111") == a


def test_ambiguous_prefix_refused_by_operations(vault, no_commit):
    vault.add("a", memory_id="abcd1111")
    vault.add("b", memory_id="abcd2222")
    with no_commit(vault):
        for op in (vault.touch, vault.archive, vault.delete):
            with pytest.raises(AmbiguousIdError):
                op("abcd")


# -- touch ----------------------------------------------------------------------------------
def test_touch(vault, one_commit):
    m = vault.add("x")
    m = age(vault, m.id, 5)
    before = now_epoch()
    with one_commit(vault, "touch"):
        [t] = vault.touch(m.id[:6])
    assert t.use_count == 1 and t.last_used >= before and t.strength == m.strength
    assert vault.get(m.id) == t
    with one_commit(vault, "touch"):
        vault.touch(m.id)
    assert vault.get(m.id).use_count == 2


def test_touch_boost_capped(vault, one_commit):
    m = vault.add("x", strength=1.95)
    n = vault.add("y", strength=2.0)
    o = vault.add("z", strength=1.0)
    with one_commit(vault, "touch"):
        touched = vault.touch(m.id, n.id, o.id, boost=True)
    assert [t.strength for t in touched] == [pytest.approx(2.0), 2.0, pytest.approx(1.1)]
    vault.touch(m.id, boost=True)
    assert vault.get(m.id).strength == 2.0


def test_touch_several_is_one_commit(vault, one_commit):
    ids = [vault.add(f"memory {i}").id for i in range(5)]
    with one_commit(vault, "touch"):
        vault.touch(*ids, ids[0])  # a repeated id counts once
    assert [vault.get(i).use_count for i in ids] == [1] * 5


def test_touch_unknown_changes_nothing(vault, no_commit):
    m = vault.add("x")
    with no_commit(vault):
        with pytest.raises(UnknownIdError):
            vault.touch(m.id, "ffffffff-unknown")
        with pytest.raises(VaultError):
            vault.touch()


# -- archive / unarchive ----------------------------------------------------------------------
def test_archive_unarchive(vault, one_commit, no_commit):
    a, b = vault.add("a"), vault.add("b")
    with one_commit(vault, "archive"):
        vault.archive(a.id, b.id[:5])
    assert vault.get(a.id).status == vault.get(b.id).status == MemoryStatus.ARCHIVED
    with no_commit(vault):
        with pytest.raises(VaultError, match="already archived"):
            vault.archive(a.id)
    with one_commit(vault, "unarchive"):
        vault.unarchive(a.id)
    assert vault.get(a.id).status == MemoryStatus.ACTIVE
    with no_commit(vault):
        with pytest.raises(VaultError):
            vault.unarchive(a.id)  # active, not archived
        with pytest.raises(VaultError):
            vault.archive(a.id, b.id)  # b is already archived: the whole operation is refused
    assert vault.get(a.id).status == MemoryStatus.ACTIVE


def test_unarchive_refuses_promoted(vault, no_commit):
    m = vault.add("x")
    vault.update(m.id, status=MemoryStatus.PROMOTED)
    with no_commit(vault):
        with pytest.raises(VaultError):
            vault.unarchive(m.id)


def test_unarchive_gives_a_promoted_memory_its_promotion_back(vault, one_commit):
    """Archiving a promoted memory and unarchiving it made it active: the promotion was lost.
    Archiving keeps promoted_at/promoted_to, and unarchive goes back to promoted from them."""
    m = vault.add("promoted knowledge")
    promoted = vault.update(m.id, status=MemoryStatus.PROMOTED, promoted_at=1_700_000_000,
                            promoted_to="notes/prefs.md")
    vault.archive(m.id)
    with one_commit(vault, "unarchive"):
        [back] = vault.unarchive(m.id)
    assert back.status == MemoryStatus.PROMOTED and vault.get(m.id) == promoted.model_copy(
        update={"last_used": back.last_used})
    plain = vault.add("never promoted")
    vault.archive(plain.id)
    assert vault.unarchive(plain.id)[0].status == MemoryStatus.ACTIVE


# -- delete ---------------------------------------------------------------------------------
def test_delete_removes_relations(vault, one_commit):
    a, b, c = vault.add("a"), vault.add("b"), vault.add("c")
    r1 = vault.relate(a.id, b.id, "related")
    r2 = vault.relate(c.id, a.id, "supports")
    r3 = vault.relate(b.id, c.id, "causes")
    with one_commit(vault, "delete"):
        report = vault.delete(a.id)
    assert [m.id for m in report.memories] == [a.id]
    assert {r.id for r in report.relations} == {r1.id, r2.id}
    assert set(vault.relations) == {r3.id}
    assert a.id not in vault.memories
    assert not (vault.root / "memories" / f"{a.id}.json").exists()
    assert not (vault.root / "relations" / f"{r1.id}.json").exists()
    assert vault.relations_of(b.id) == [r3]


def test_delete_several_one_commit(vault, one_commit):
    ids = [vault.add(f"m{i}").id for i in range(4)]
    vault.relate(ids[0], ids[1], "related")
    with one_commit(vault, "delete"):
        report = vault.delete(ids[0], ids[1][:6], ids[2])
    assert len(report.memories) == 3 and len(report.relations) == 1
    assert set(vault.memories) == {ids[3]}


def test_delete_unknown_changes_nothing(vault, no_commit):
    m = vault.add("x")
    with no_commit(vault):
        with pytest.raises(UnknownIdError):
            vault.delete(m.id, "unknown-id")


# -- relations -------------------------------------------------------------------------------
def test_relate(vault, one_commit, no_commit):
    a, b = vault.add("a"), vault.add("b")
    with one_commit(vault, "relate"):
        r = vault.relate(a.id[:6], b.id[:6], "depends_on", strength=0.4, metadata={"why": "x"})
    assert (r.from_memory_id, r.to_memory_id, r.relation_type) == (a.id, b.id, "depends_on")
    assert r.strength == 0.4 and r.metadata == {"why": "x"}
    assert vault.relations[r.id] == r
    assert vault.relations_of(a.id) == [r] and vault.relations_of(b.id) == [r]
    with no_commit(vault):
        with pytest.raises(VaultError, match="unknown relation type"):
            vault.relate(a.id, b.id, "likes")
        with pytest.raises(VaultError):
            vault.relate(a.id, b.id, "  ")
        with pytest.raises(UnknownIdError):
            vault.relate(a.id, "missing-memory", "related")
    with one_commit(vault, "relate"):
        forced = vault.relate(a.id, b.id, "likes", force=True)
    assert forced.relation_type == "likes"
    with one_commit(vault, "relate"):
        vault.unrelate(forced.id)
    assert set(vault.relations) == {r.id}
    with no_commit(vault):
        with pytest.raises(UnknownIdError):
            vault.unrelate(forced.id)


def test_save_relations_accepts_any_type_and_missing_ends(vault, one_commit):
    rel = Relation(id="rel-1", from_memory_id="gone-a", to_memory_id="gone-b",
                   relation_type="cortexgraph_custom")
    with one_commit(vault, "relate"):
        vault.save_relations([rel])
    assert vault.relations["rel-1"] == rel


# -- update / save ---------------------------------------------------------------------------
def test_update(vault, one_commit, no_commit):
    m = vault.add("old content", gist="old gist")
    with one_commit(vault, "update"):
        u = vault.update(m.id, content="new content")
    assert u.content == "new content" and u.gist is None
    with no_commit(vault):
        with pytest.raises(VaultError):
            vault.update(m.id, id="other")
        with pytest.raises(VaultError):
            vault.update(m.id, use_count=-1)
        with pytest.raises(VaultError):
            vault.update(m.id, content=" ")


def test_save_unchanged_makes_no_commit(vault, no_commit):
    m = vault.add("x")
    with no_commit(vault):
        vault.save(vault.get(m.id))


def test_save_many_one_commit(vault, one_commit):
    mems = [Memory(id=f"m{i}", content=f"memory {i}") for i in range(10)]
    with one_commit(vault, "add"):
        vault.save_many(mems)
    assert set(vault.memories) == {f"m{i}" for i in range(10)}


# -- search ----------------------------------------------------------------------------------
@pytest.fixture
def populated(vault):
    ids = {}
    ids["pg"] = vault.add("Postgres upgrade scheduled", tags=["db", "ops"], entities=["Postgres"]).id
    ids["redis"] = vault.add("Redis cache eviction policy", tags=["db", "cache"]).id
    ids["ui"] = vault.add("User prefers dark mode", tags=["ui"]).id
    ids["old"] = vault.add("An old note about the build", tags=["ops"]).id
    ids["arch"] = vault.add("Archived Postgres tuning note", tags=["db"]).id
    age(vault, ids["old"], 40)
    age(vault, ids["redis"], 2)
    age(vault, ids["ui"], 1)
    vault.update(ids["pg"], created_at=now_epoch() - 3 * DAY)
    vault.archive(ids["arch"])
    return ids


def test_search_text(vault, populated):
    found = {m.id for m in vault.search("postgres")}
    assert found == {populated["pg"], populated["arch"]}
    assert {m.id for m in vault.search("POSTGRES upgrade")} == {populated["pg"]}  # every word
    assert {m.id for m in vault.search("cache")} == {populated["redis"]}  # content or tag
    assert vault.search("nothing matches this") == []


def test_search_tags_status_window(vault, populated):
    assert {m.id for m in vault.search(tags=["db"])} == {populated["pg"], populated["redis"],
                                                         populated["arch"]}
    assert {m.id for m in vault.search(tags=["ui", "cache"])} == {populated["ui"],
                                                                  populated["redis"]}
    assert {m.id for m in vault.search(tags=["db"], status="active")} == {populated["pg"],
                                                                          populated["redis"]}
    assert {m.id for m in vault.search(status=MemoryStatus.ARCHIVED)} == {populated["arch"]}
    assert len(vault.search(status=["active", "archived"])) == 5
    assert populated["old"] not in {m.id for m in vault.search(window_days=30)}
    assert populated["old"] in {m.id for m in vault.search(window_days=60)}
    assert {m.id for m in vault.search(window_days=1.5)} == {populated["pg"], populated["ui"],
                                                             populated["arch"]}


def test_search_sort_limit_offset(vault, populated):
    by_last_used = [m.id for m in vault.search(sort="last_used")]
    assert by_last_used[-3:] == [populated["ui"], populated["redis"], populated["old"]]
    by_created = [m.id for m in vault.search(sort="created")]
    assert by_created[-1] == populated["old"]
    assert by_created.index(populated["pg"]) > by_created.index(populated["arch"])
    by_score = vault.search(sort="score")
    scores = [vault.score(m) for m in by_score]
    assert scores == sorted(scores, reverse=True)
    assert by_score[-1].id == populated["old"]
    assert [m.id for m in vault.search(sort="last_used", limit=2)] == by_last_used[:2]
    assert [m.id for m in vault.search(sort="last_used", limit=2, offset=2)] == by_last_used[2:4]
    assert [m.id for m in vault.search(sort="last_used", offset=4)] == by_last_used[4:]
    with pytest.raises(ValueError):
        vault.search(sort="size")


# -- history ---------------------------------------------------------------------------------
def test_history(vault):
    m = vault.add("first words here")
    vault.touch(m.id)
    vault.archive(m.id)
    hist = vault.history(m.id)
    assert [e.action for e in hist] == ["changed", "changed", "created"]
    assert [e.operation for e in hist] == ["archive", "touch", "add"]
    assert hist[-1].message.startswith(f"add: {m.id[:8]}")
    assert vault.history(m.id[:5]) == hist
    assert all(len(e.commit) == 40 for e in hist)


def test_history_of_deleted_memory(vault):
    m = vault.add("soon gone", memory_id="deadbeef-1234")
    vault.add("other", memory_id="cafe0000")
    vault.touch(m.id)
    vault.delete(m.id)
    hist = vault.history("deadbeef-1234")
    assert [e.action for e in hist] == ["deleted", "changed", "created"]
    assert vault.history("deadb") == hist  # prefix of a deleted id
    with pytest.raises(UnknownIdError):
        vault.history("nothing-like-it")


def test_history_ambiguous_deleted_prefix(vault):
    vault.add("a", memory_id="beef0001")
    vault.add("b", memory_id="beef0002")
    vault.delete("beef0001", "beef0002")
    with pytest.raises(AmbiguousIdError) as info:
        vault.history("beef")
    assert info.value.candidates == ["beef0001", "beef0002"]


# -- restore ---------------------------------------------------------------------------------
def test_restore_deleted_memory_with_relations(vault, one_commit):
    a, b, c = vault.add("a memory"), vault.add("b memory"), vault.add("c memory")
    r1 = vault.relate(a.id, b.id, "related")
    r2 = vault.relate(c.id, a.id, "supports")
    a = vault.touch(a.id)[0]
    vault.delete(a.id)
    with one_commit(vault, "restore"):
        report = vault.restore(a.id[:6])
    assert report.memory == a and vault.get(a.id) == a
    assert {r.id for r in report.relations} == {r1.id, r2.id}
    assert vault.relations[r1.id] == r1 and vault.relations[r2.id] == r2


def test_restore_skips_relations_to_still_deleted_memories(vault):
    a, b, c = vault.add("a"), vault.add("b"), vault.add("c")
    r_ab = vault.relate(a.id, b.id, "related")
    r_ac = vault.relate(a.id, c.id, "related")
    vault.delete(a.id, b.id)
    report = vault.restore(a.id)
    assert [r.id for r in report.relations] == [r_ac.id]
    assert r_ab.id not in vault.relations


def test_restore_earlier_version_of_living_memory(vault, one_commit):
    m = vault.add("version one")
    v2 = vault.update(m.id, content="version two")
    vault.update(m.id, content="version three")
    with one_commit(vault, "restore"):
        report = vault.restore(m.id)
    assert report.memory == v2 and vault.get(m.id).content == "version two"
    add_commit = vault.history(m.id)[-1].commit
    with one_commit(vault, "restore"):
        vault.restore(m.id, at=add_commit)
    assert vault.get(m.id) == m
    hist = vault.history(m.id)
    assert hist[0].operation == "restore" and len(hist) == 5


def test_restore_twice_is_restoring_once(vault, one_commit, no_commit):
    """"restore" means the version before the memory's last change, restores not counted: a
    second run finds the memory at that version already and writes nothing (it used to go back
    yet another version each time)."""
    m = vault.add("version one")
    v2 = vault.update(m.id, content="version two")
    vault.delete(m.id)
    with one_commit(vault, "restore"):
        assert vault.restore(m.id).memory == v2
    with no_commit(vault):
        again = vault.restore(m.id)
    assert again.unchanged and again.memory == v2 and vault.get(m.id) == v2
    # a living memory: back to the version before the last edit, then nothing more
    v3 = vault.update(m.id, content="version three")
    with one_commit(vault, "restore"):
        first = vault.restore(m.id)
    assert first.memory.content == "version two" and not first.unchanged
    with no_commit(vault):
        assert vault.restore(m.id).unchanged
    assert vault.get(m.id).content == "version two" and v3.content == "version three"
    solo = vault.add("a single version")
    vault.delete(solo.id)
    vault.restore(solo.id)
    with no_commit(vault):
        assert vault.restore(solo.id).unchanged
    never_changed = vault.add("never changed")
    with no_commit(vault):
        with pytest.raises(VaultError, match="no earlier version"):
            vault.restore(never_changed.id)


def test_restore_at_the_current_version_writes_nothing(vault, no_commit):
    m = vault.add("one")
    vault.update(m.id, content="two")
    with no_commit(vault):
        report = vault.restore(m.id, at="HEAD")
    assert report.unchanged and vault.get(m.id).content == "two"


def test_restore_at_short_rev_and_head_relative(vault):
    m = vault.add("one")
    vault.update(m.id, content="two")
    vault.update(m.id, content="three")
    short = vault.history(m.id)[-1].commit[:10]
    vault.restore(m.id, at=short)
    assert vault.get(m.id).content == "one"
    vault.restore(m.id, at="HEAD~1")  # the commit before the restore: "three"
    assert vault.get(m.id).content == "three"


def test_restore_refusals(vault, no_commit):
    m = vault.add("only version")
    other = vault.add("other")
    with no_commit(vault):
        with pytest.raises(VaultError):
            vault.restore(m.id)  # no earlier version
        with pytest.raises(JournalError):
            vault.restore(m.id, at="no-such-rev")
        first = vault.history(other.id)[0].commit
        with pytest.raises(VaultError):
            vault.restore(m.id, at=f"{first}~2")  # before m existed
        with pytest.raises(UnknownIdError):
            vault.restore("ffff-never-existed")


def test_restore_undoes_gc(vault):
    m = vault.add("will be pruned")
    age(vault, m.id, 365)
    vault.gc()
    assert m.id not in vault.memories
    vault.restore(m.id)
    assert m.id in vault.memories


# -- gc --------------------------------------------------------------------------------------
@pytest.fixture
def gc_vault(vault):
    ids = {}
    ids["fresh"] = vault.add("fresh").id
    ids["stale1"] = vault.add("stale one").id
    ids["stale2"] = vault.add("stale two").id
    ids["stale_archived"] = vault.add("stale but archived").id
    ids["stale_promoted"] = vault.add("stale but promoted").id
    for key in ("stale1", "stale2", "stale_archived", "stale_promoted"):
        age(vault, ids[key], 200 if key != "stale2" else 300)
    vault.archive(ids["stale_archived"])
    vault.update(ids["stale_promoted"], status=MemoryStatus.PROMOTED)
    ids["r_fresh_stale"] = vault.relate(ids["fresh"], ids["stale1"], "related").id
    ids["r_stale_stale"] = vault.relate(ids["stale1"], ids["stale2"], "related").id
    ids["r_keep"] = vault.relate(ids["fresh"], ids["stale_archived"], "related").id
    return vault, ids


def test_gc_dry_run(gc_vault, no_commit):
    vault, ids = gc_vault
    with no_commit(vault):
        report = vault.gc(dry_run=True)
    assert not report.applied
    assert report.threshold == 0.05
    assert [m.id for m, _ in report.candidates] == [ids["stale2"], ids["stale1"]]  # lowest first
    for m, s in report.candidates:
        assert s == pytest.approx(vault.score(m), rel=1e-3) and s < 0.05
    assert vault.meta.get("last_gc_at") is None


def test_gc_apply(gc_vault, one_commit, git_tools):
    vault, ids = gc_vault
    with one_commit(vault, "gc"):
        report = vault.gc()
    assert report.applied and report.commit == vault.journal.head()
    assert {m.id for m, _ in report.candidates} == {ids["stale1"], ids["stale2"]}
    assert {r.id for r in report.relations_removed} == {ids["r_fresh_stale"], ids["r_stale_stale"]}
    assert set(vault.memories) == {ids["fresh"], ids["stale_archived"], ids["stale_promoted"]}
    assert set(vault.relations) == {ids["r_keep"]}
    assert git_tools.head_subject(vault.root) == "gc: prune 2 memories below 0.05"
    meta = json.loads((vault.root / ".meta.json").read_text())
    assert isinstance(meta["last_gc_at"], int) and meta["last_gc_at"] >= now_epoch() - 5
    assert vault.meta["last_gc_at"] == meta["last_gc_at"]
    assert meta["storage_version"] == 2
    # nothing left to collect: no commit
    count = git_tools.commit_count(vault.root)
    again = vault.gc()
    assert again.candidates == [] and again.commit is None
    assert git_tools.commit_count(vault.root) == count


def test_gc_archive_mode(gc_vault, one_commit, git_tools):
    vault, ids = gc_vault
    with one_commit(vault, "gc"):
        report = vault.gc(archive=True)
    assert report.archived
    assert vault.get(ids["stale1"]).status == MemoryStatus.ARCHIVED
    assert vault.get(ids["stale2"]).status == MemoryStatus.ARCHIVED
    assert len(vault.relations) == 3  # archiving keeps relations
    assert vault.meta["last_gc_at"] is not None
    assert git_tools.head_subject(vault.root).startswith("gc: archive 2 memories")


def test_gc_threshold_and_now(gc_vault):
    vault, ids = gc_vault
    later = now_epoch() + 365 * DAY
    report = vault.gc(dry_run=True, now=later)
    assert {m.id for m, _ in report.candidates} == {ids["fresh"], ids["stale1"], ids["stale2"]}
    report = vault.gc(dry_run=True, threshold=2.0)
    assert ids["fresh"] in {m.id for m, _ in report.candidates}


# -- every operation: one commit, clean status, reopen equal ---------------------------------
def test_every_operation_one_commit(vault, vault_path, one_commit):
    with one_commit(vault, "add"):
        a = vault.add("alpha memory")
    with one_commit(vault, "add"):
        b = vault.add("beta memory")
    with one_commit(vault, "touch"):
        vault.touch(a.id, b.id)
    with one_commit(vault, "relate"):
        r = vault.relate(a.id, b.id, "related")
    with one_commit(vault, "update"):
        vault.update(a.id, strength=1.5)
    with one_commit(vault, "archive"):
        vault.archive(a.id)
    with one_commit(vault, "unarchive"):
        vault.unarchive(a.id)
    with one_commit(vault, "delete"):
        vault.delete(a.id)
    with one_commit(vault, "restore"):
        vault.restore(a.id)
    with one_commit(vault, "relate"):
        vault.unrelate(r.id)
    age(vault, b.id, 400)
    with one_commit(vault, "gc"):
        vault.gc()
    reopened = Vault.open(vault_path)
    assert reopened.memories == vault.memories
    assert reopened.relations == vault.relations
    assert reopened.meta == vault.meta


def test_stats(gc_vault):
    vault, ids = gc_vault
    s = vault.stats()
    assert s["memories"] == 5 and s["relations"] == 3
    assert s["by_status"]["archived"] == 1 and s["by_status"]["promoted"] == 1
    assert s["below_forget_threshold"] == 2
    assert s["decay_model"] == "power_law"
    assert sum(b["count"] for b in s["score_histogram"]) == 5


def test_vault_sees_commits_of_another_vault_object(vault_path, vault):
    other = Vault.open(vault_path)
    m = other.add("written by the other object")
    assert m.id not in vault.memories
    n = vault.add("written by the first")  # catching up happens under the write lock
    assert vault.get(m.id) == m
    other.delete(m.id)
    vault.touch(n.id)
    assert m.id not in vault.memories


@pytest.mark.parametrize("content", [
    "nul \x00 inside", "\x00", "-m looks like an option", "--all", "\u202eright-to-left",
    "crlf\r\nline", "emoji 🧠 and 東京", "x" * 100_000, "\n\nleading blank lines",
], ids=["nul", "only-nul", "dash-m", "dash-dash", "rtl", "crlf", "unicode", "100k", "blank"])
def test_awkward_content_round_trips(vault_path, vault, one_commit, content):
    with one_commit(vault, "add"):
        m = vault.add(content, tags=["t\x00ag"], entities=["-e"])
    with one_commit(vault, "touch"):
        vault.touch(m.id)
    with one_commit(vault, "relate"):
        vault.relate(m.id, m.id, "self\x00loop", force=True)
    again = Vault.open(vault_path).get(m.id)
    assert again.content == content and again.meta.tags == ["t\x00ag"]
