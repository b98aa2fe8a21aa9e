"""Consolidation (core.ops.consolidate): similarity, clusters, merged fields, provenance, refusals,
one commit, and atomicity of consolidation and gc under injected faults and a killed process."""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import subprocess
import sys
import textwrap

import pytest

from core import Memory, MemoryMetadata, MemoryStatus, Vault, VaultError
from core.ops.consolidate import (
    DEFAULT_THRESHOLD,
    MAX_CLUSTER_SIZE,
    apply_consolidation,
    cluster_id,
    execute_consolidation,
    find_clusters,
    merged_content,
    plan_consolidation,
    preview_consolidation,
    suggested_action,
)
from core.ops.similarity import Features, cohesion, feature_similarity, linked_pairs, similarity
from core.errors import UnknownIdError
from core.model.records import now_epoch
from core.textutil import content_tokens, make_gist

from fault_support import fault_hook as _hook
from fault_support import vault_snapshot as _snapshot

DAY = 86400


def _mem(content: str, id: str | None = None, tags=(), entities=(), embed=None, **fields) -> Memory:
    return Memory(id=id or f"m-{abs(hash((content, tuple(tags), tuple(entities)))) % 10**8:08d}",
                  content=content, meta=MemoryMetadata(tags=list(tags)),
                  entities=list(entities), embed=embed, **fields)


def _count(vault: Vault) -> int:
    return int(_git(vault, "rev-list", "--count", "HEAD"))


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=vault.root, capture_output=True, text=True,
                          check=True).stdout.strip()


def _words(start: int, stop: int) -> str:
    return " ".join(f"tok{i:02d}" for i in range(start, stop))


# -- similarity ----------------------------------------------------------------------------------
def test_content_tokens_rule():
    assert content_tokens("The cat, the DOG! an ox; Zebra-crossing at 10:30") == {
        "the", "cat", "dog", "zebra", "crossing"}


def test_similarity_is_term_likeness_blended_with_tags_and_entities():
    """Two terms shared, one swapped (weighs SWAPPED_WEIGHT = 3): 2 / 5."""
    a, b = _mem("Alpha beta gamma."), _mem("alpha, BETA! delta at")
    assert similarity(a, b) == pytest.approx(0.4)
    a, b = _mem("Alpha beta gamma", tags=["x"]), _mem("alpha beta delta", tags=["x", "y"])
    assert similarity(a, b) == pytest.approx((0.7 * 0.4 + 0.15 * 0.5) / 0.85)
    a = _mem("Alpha beta gamma", tags=["x"], entities=["E"])
    b = _mem("alpha beta delta", tags=["X"], entities=["F"])
    assert similarity(a, b) == pytest.approx((0.7 * 0.4 + 0.15 * 1.0 + 0.15 * 0.0) / 1.0)
    assert similarity(a, _mem("alpha beta delta")) == pytest.approx(0.4)  # (no tags: no say)


def test_similarity_uses_cosine_when_both_have_embed():
    a = _mem("completely different", embed=[1.0, 0.0, 1.0])
    b = _mem("nothing shared here", embed=[1.0, 0.0, 0.0])
    assert similarity(a, b) == pytest.approx(1 / math.sqrt(2))
    assert similarity(a, _mem("completely different")) == pytest.approx(1.0)  # text


# -- clusters ------------------------------------------------------------------------------------
def test_single_linkage_chains_at_the_threshold(vault):
    a, b, c = _mem(_words(1, 21), "a"), _mem(_words(2, 22), "b"), _mem(_words(3, 23), "c")
    far = _mem(_words(40, 60), "far")
    assert similarity(a, b) == pytest.approx(19 / 22) and similarity(a, c) == pytest.approx(18 / 24)
    clusters = find_clusters(vault, threshold=0.85, memories=[a, b, c, far])
    assert len(clusters) == 1
    cluster = clusters[0]
    assert [m.id for m in cluster.members] == ["a", "b", "c"]
    assert cluster.cohesion == pytest.approx((19 / 22 + 19 / 22 + 18 / 24) / 3)
    assert cluster.id == cluster_id([c, a, b]) and cluster.id.startswith("clust-")
    assert cluster.suggested_action == "review"
    # above the weakest link, the chain breaks
    assert find_clusters(vault, threshold=0.87, memories=[a, b, c, far]) == []


def test_default_threshold_is_cortexgraphs():
    assert DEFAULT_THRESHOLD == 0.83 and MAX_CLUSTER_SIZE == 12


def test_clusters_have_at_most_12_members(vault):
    same = [_mem("the very same words again", f"dup-{i:02d}") for i in range(15)]
    clusters = find_clusters(vault, memories=same)
    assert sorted(len(c.members) for c in clusters) == [3, 12]
    assert all(c.cohesion == pytest.approx(1.0) and c.suggested_action == "merge"
               for c in clusters)


def test_many_duplicates_of_common_words_are_found(vault):
    """Duplicates made of words that are in every memory still cluster (no token is ignored
    for being common)."""
    same = [_mem("the cat sat on the mat", f"dup-{i:03d}") for i in range(200)]
    clusters = find_clusters(vault, memories=same)
    assert sum(len(c.members) for c in clusters) == 200
    assert max(len(c.members) for c in clusters) == MAX_CLUSTER_SIZE


def test_only_active_memories_cluster(vault):
    a = _mem("garden tomatoes need water", "a")
    b = _mem("garden tomatoes need water", "b", status=MemoryStatus.ARCHIVED)
    assert find_clusters(vault, memories=[a, b]) == []


def test_vault_memories_by_default(vault):
    one = vault.add("garden tomatoes need deep pots and water")
    two = vault.add("Garden tomatoes need deep pots, and water!")
    vault.add("the quarterly budget review")
    clusters = find_clusters(vault)
    assert [sorted(m.id for m in c.members) for c in clusters] == [sorted([one.id, two.id])]


def test_embeddings_when_every_member_has_one(vault):
    x = _mem("apples and pears", "x", embed=[1.0, 0.0])
    y = _mem("quantum field theory", "y", embed=[1.0, 0.0])
    z = _mem("apples and pears", "z", embed=[0.0, 1.0])
    clusters = find_clusters(vault, memories=[x, y, z])
    assert [[m.id for m in c.members] for c in clusters] == [["x", "y"]]
    assert clusters[0].cohesion == pytest.approx(1.0)
    assert cohesion([x, z]) == pytest.approx(0.0)  # cosine


def test_text_features_when_a_memory_has_no_embed(vault):
    """One memory without embed: the pool is compared on text, and cohesion measures the same
    thing that linked the members."""
    x = _mem("apples and pears", "x", embed=[1.0, 0.0])
    z = _mem("apples and pears", "z", embed=[0.0, 1.0])
    w = _mem("something else entirely", "w")
    clusters = find_clusters(vault, memories=[x, z, w])
    assert [[m.id for m in c.members] for c in clusters] == [["x", "z"]]
    assert clusters[0].cohesion == pytest.approx(1.0)
    assert clusters[0].suggested_action != "keep separate"


@pytest.mark.parametrize("value,action", [(1.0, "merge"), (0.9, "merge"), (0.8999, "review"),
                                          (0.75, "review"), (0.7499, "keep separate"),
                                          (0.0, "keep separate")])
def test_suggested_action_by_cohesion(value, action):
    assert suggested_action(value) == action


@pytest.mark.parametrize("threshold", [0, -0.5, 1.01])
def test_bad_threshold_refused(vault, threshold):
    with pytest.raises(VaultError, match="threshold must be in"):
        find_clusters(vault, threshold=threshold)


@pytest.mark.parametrize("seed", range(6))
def test_candidate_pairs_miss_nothing(seed):
    """The prefix filter finds exactly the pairs a comparison of every pair finds."""
    rng = random.Random(seed)
    vocab = [f"w{i:02d}x" for i in range(rng.choice([6, 12, 30]))]
    feats = []
    for _ in range(60):
        words = rng.sample(vocab, rng.randint(0, min(8, len(vocab))))
        tags = rng.sample(["t1", "t2", "t3"], rng.randint(0, 2))
        ents = rng.sample(["E1", "E2"], rng.randint(0, 1))
        feats.append(Features(_mem(" ".join(words), tags=tuple(tags), entities=tuple(ents))))
    for threshold in (0.1, 0.25, 0.31, 0.5, 0.7, 0.83, 0.9, 1.0):
        brute = {(i, j) for i, j in itertools.combinations(range(len(feats)), 2)
                 if feature_similarity(feats[i], feats[j], False) >= threshold}
        found = {(i, j) for _s, i, j in linked_pairs(feats, threshold, False)}
        assert found == brute, threshold


# -- merging -------------------------------------------------------------------------------------
def test_merged_content_rule():
    long = _mem("Tomatoes need deep pots. They also need daily water in July.", "a")
    short = _mem("tomatoes  NEED deep pots.", "b")
    assert merged_content([short, long]) == long.content
    other = _mem("Basil likes sun.", "c")
    dup = _mem("basil likes SUN", "d")
    assert merged_content([other, short, long, dup]) == long.content + "\n\nBasil likes sun."


@pytest.fixture
def trio(vault):
    now = now_epoch()
    m1 = vault.save(Memory(
        id="srcA-001", content="Tomatoes need deep pots.",
        meta=MemoryMetadata(tags=["garden", "tomato"], source="book", context="balcony",
                            extra={"k": 1}),
        entities=["Bologna"], created_at=now - 30 * DAY, last_used=now - 5 * DAY, use_count=2,
        strength=1.2))
    m2 = vault.save(Memory(
        id="srcB-002", content="Tomatoes need deep pots. They also need daily water in July.",
        meta=MemoryMetadata(tags=["garden"], source="forum"), entities=["July"],
        created_at=now - 10 * DAY, last_used=now - 1 * DAY, use_count=3, strength=1.5))
    m3 = vault.save(Memory(
        id="srcC-003", content="tomatoes  need deep pots.",
        meta=MemoryMetadata(tags=["garden", "pots"], source="book", context="balcony"),
        entities=["Bologna", "Italy"], created_at=now - 20 * DAY, last_used=now - 3 * DAY,
        use_count=4, strength=1.0))
    return vault, [m1, m2, m3]


def test_merged_fields(trio, consistent):
    vault, (m1, m2, m3) = trio
    members = [m1, m2, m3]
    result = execute_consolidation(vault, [m.id for m in members])
    merged = vault.memories[result.merged.id]
    assert merged == result.merged
    assert merged.content == m2.content  # the longest, which contains the others
    assert set(merged.meta.tags) == {"garden", "tomato", "pots"}
    assert len(merged.meta.tags) == 3
    assert set(merged.entities) == {"Bologna", "July", "Italy"} and len(merged.entities) == 3
    assert merged.meta.source == "forum; book"  # distinct values, longest content first
    assert merged.meta.context == "balcony"
    assert merged.meta.extra == {"k": 1}
    assert merged.created_at == m1.created_at
    assert merged.last_used == m2.last_used
    assert merged.use_count == 9
    score = cohesion(members)
    assert result.cohesion == pytest.approx(score)
    assert merged.strength == pytest.approx(min(1.5 + min(score * 3 * 0.1, 0.5), 2.0))
    assert merged.gist == make_gist(merged.content, merged.meta.tags, merged.entities)
    assert merged.status == MemoryStatus.ACTIVE
    consistent(vault)


def test_distinct_contents_joined_longest_first(vault):
    a = vault.add("Basil likes sun.")
    b = vault.add("Basil needs water every second day.")
    c = vault.add("basil likes SUN")
    result = execute_consolidation(vault, [a.id, b.id, c.id])
    assert result.merged.content == "Basil needs water every second day.\n\nBasil likes sun."


def test_edited_content(vault):
    a, b = vault.add("Basil likes sun."), vault.add("Basil needs water.")
    result = execute_consolidation(vault, [a.id, b.id], content="  Basil: sun and water.  ")
    assert vault.memories[result.merged.id].content == "Basil: sun and water."


@pytest.mark.parametrize("strengths,n,expected", [
    ([1.9, 1.95], 2, 2.0),  # capped at 2.0
    ([1.0] * 6, 6, 1.5),  # bonus capped at 0.5
    ([1.0, 1.3], 2, 1.5),  # 1.3 + 1.0 * 2 * 0.1
])
def test_strength_formula(vault, strengths, n, expected):
    ids = [vault.save(Memory(id=f"s-{i:04d}", content="the same words", strength=s)).id
           for i, s in enumerate(strengths)]
    result = execute_consolidation(vault, ids)
    assert result.cohesion == pytest.approx(1.0)
    assert vault.memories[result.merged.id].strength == pytest.approx(expected)


def test_consolidated_from_relations(trio, consistent):
    vault, members = trio
    result = execute_consolidation(vault, [m.id for m in members])
    rels = [r for r in vault.relations.values() if r.relation_type == "consolidated_from"]
    assert len(rels) == 3 and {r.id for r in rels} == {r.id for r in result.relations}
    assert {r.to_memory_id for r in rels} == {m.id for m in members}
    for r in rels:
        assert r.from_memory_id == result.merged.id
        assert r.metadata == {"cluster_id": cluster_id(members),
                              "cluster_cohesion": round(cohesion(members), 4)}
    assert result.cluster_id == cluster_id(members)
    consistent(vault)


def test_sources_deleted_by_default_relations_moved(trio, consistent):
    vault, (m1, m2, m3) = trio
    outside = vault.add("the water schedule")
    out_rel = vault.relate(m1.id, outside.id, "supports")
    in_rel = vault.relate(outside.id, m2.id, "related")
    internal = vault.relate(m1.id, m3.id, "related")
    earlier = vault.add("earlier")
    older = vault.relate(m2.id, earlier.id, "split_from")  # a lifecycle edge of a source
    result = execute_consolidation(vault, [m1.id, m2.id, m3.id])
    merged = result.merged.id
    for m in (m1, m2, m3):
        assert m.id not in vault.memories and not vault.layout.memory_path(m.id).exists()
    for r in (out_rel, in_rel, internal):
        assert r.id not in vault.relations
    assert older.id in vault.relations  # history of the sources stays
    moved = {(r.from_memory_id, r.to_memory_id, r.relation_type)
             for r in vault.relations.values() if r.relation_type in ("supports", "related")}
    assert moved == {(merged, outside.id, "supports"), (outside.id, merged, "related")}
    assert len(result.moved_relations) == 2
    consistent(vault)


def test_sources_archived(trio, consistent):
    vault, members = trio
    outside = vault.add("the water schedule")
    rel = vault.relate(members[0].id, outside.id, "supports")
    result = execute_consolidation(vault, [m.id for m in members], sources="archive")
    for m in members:
        kept = vault.memories[m.id]
        assert kept.status == MemoryStatus.ARCHIVED
        assert kept.model_dump(exclude={"status"}) == m.model_dump(exclude={"status"})
    assert vault.relations[rel.id] == rel and result.moved_relations == []
    consistent(vault)


@pytest.mark.parametrize("sources", ["delete", "archive"])
def test_one_commit_with_message_and_last_consolidation_at(trio, sources, consistent):
    vault, members = trio
    count = _count(vault)
    before = now_epoch()
    result = execute_consolidation(vault, [m.id[:6] for m in members], sources=sources)
    assert _count(vault) == count + 1
    ids = ", ".join(m.id[:8] for m in members)
    subject = _git(vault, "log", "-1", "--format=%s")
    assert subject == f"consolidate: merge 3 garden memories into {result.merged.id[:8]} ({ids})"
    assert re.match(r"consolidate: merge 3 \S+ memories into [0-9a-f-]{8}", subject)
    assert result.commit == vault.journal.head()
    meta = json.loads((vault.root / ".meta.json").read_text())
    assert before <= meta["last_consolidation_at"] <= now_epoch()
    assert vault.meta["last_consolidation_at"] == meta["last_consolidation_at"]
    assert vault.stats()["last_consolidation_at"] == meta["last_consolidation_at"]
    # the commit names every id; each source's file history ends (or changes) there
    files = _git(vault, "show", "--name-status", "--format=", "HEAD").splitlines()
    assert any(result.merged.id in f for f in files)
    for m in members:
        assert vault.history(m.id)[0].commit == result.commit
    consistent(vault)


def test_preview_writes_nothing(trio, git_tools):
    vault, members = trio
    count = _count(vault)
    preview = preview_consolidation(vault, [m.id for m in members])
    assert _count(vault) == count and preview.merged.id not in vault.memories
    assert preview.message.startswith("consolidate: merge 3 garden memories into ")
    assert [m.id for m in preview.sources] == [m.id for m in members]
    result = execute_consolidation(vault, [m.id for m in members])
    assert result.merged.content == preview.merged.content
    assert result.merged.strength == preview.merged.strength
    git_tools.assert_consistent(vault)


# -- refusals ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["none", "one", "same-twice", "prefix-and-id"])
def test_refused_fewer_than_two(vault, case):
    a = vault.add("lonely memory")
    ids = {"none": [], "one": [a.id], "same-twice": [a.id, a.id],
           "prefix-and-id": [a.id[:6], a.id]}[case]
    count = _count(vault)
    with pytest.raises(VaultError, match="refused: a consolidation needs at least 2 different"):
        execute_consolidation(vault, ids)
    assert _count(vault) == count


def test_refused_archived_member(vault):
    a, b = vault.add("one"), vault.add("two")
    vault.archive(b.id)
    count = _count(vault)
    with pytest.raises(VaultError, match=f"refused: {b.id[:8]} is archived; only active"):
        execute_consolidation(vault, [a.id, b.id])
    assert _count(vault) == count and vault.memories[a.id].status == MemoryStatus.ACTIVE


@pytest.mark.parametrize("content", ["", "   \n\t"])
def test_refused_empty_content(vault, content, git_tools):
    a, b = vault.add("one"), vault.add("two")
    count = _count(vault)
    with pytest.raises(VaultError, match="refused: the merged content is empty"):
        execute_consolidation(vault, [a.id, b.id], content=content)
    assert _count(vault) == count
    git_tools.assert_consistent(vault)


def test_refused_unknown_id(vault):
    a = vault.add("one")
    with pytest.raises(UnknownIdError, match="nope1234"):
        execute_consolidation(vault, [a.id, "nope1234"])


def test_refused_unknown_fate(vault):
    a, b = vault.add("one"), vault.add("two")
    with pytest.raises(VaultError, match="sources must be 'delete' or 'archive'"):
        execute_consolidation(vault, [a.id, b.id], sources="keep")


# -- atomicity: consolidation and gc under injected faults --------------------------------------
STEPS = ["stage", "write-tree", "commit-tree", "update-ref"]




@pytest.fixture
def scene(vault):
    """Three similar sources with relations (one leaving the cluster, one inside it), and two
    old memories that gc collects."""
    old = now_epoch() - 300 * DAY
    for i in range(3):
        vault.save(Memory(id=f"src-{i}", content=f"tomatoes need deep pots {i}"))
    outside = vault.add("an outside memory")
    vault.relate("src-0", outside.id, "supports")
    vault.relate("src-0", "src-1", "related")
    for i in range(2):
        vault.save(Memory(id=f"old-{i}", content=f"an old memory {i}", last_used=old))
    vault.relate("old-0", "old-1", "related")
    vault.relate("old-0", outside.id, "causes")
    return vault


OPS = {
    "consolidate": lambda v: execute_consolidation(v, ["src-0", "src-1", "src-2"]),
    "consolidate-archive": lambda v: execute_consolidation(v, ["src-0", "src-1", "src-2"],
                                                           sources="archive"),
    "gc": lambda v: v.gc(),
    "gc-archive": lambda v: v.gc(archive=True),
}
#: writes of each operation in the scene (checked by test_write_counts)
WRITES = {
    # meta, 3 sources, 2 relations dropped, merged, 3 consolidated_from, 1 moved relation
    "consolidate": 11,
    # meta, merged, 3 archived sources, 3 consolidated_from
    "consolidate-archive": 8,
    # meta, 2 memories, 2 relations
    "gc": 5,
    # meta, 2 archived memories
    "gc-archive": 3,
}
SUBJECT = {"consolidate": "consolidate: merge 3 ", "consolidate-archive": "consolidate: merge 3 ",
           "gc": "gc: prune 2 memories", "gc-archive": "gc: archive 2 memories"}
FAULTS = ([(op, "write", k) for op, n in WRITES.items() for k in range(1, n + 1)]
          + [(op, step, 1) for op in OPS for step in STEPS])


@pytest.mark.parametrize("op", OPS)
def test_write_counts(scene, op):
    calls: list[str] = []
    scene.journal.faults.hook = _hook("none", calls=calls)
    OPS[op](scene)
    assert calls.count("write") == WRITES[op]
    assert [c for c in calls if c != "write"] == [*STEPS, "index"]
    assert _git(scene, "log", "-1", "--format=%s").startswith(SUBJECT[op])


@pytest.mark.parametrize("op,step,occurrence", FAULTS)
def test_fault_leaves_the_vault_as_it_was(scene, git_tools, op, step, occurrence):
    before = _snapshot(scene)
    assert before["status"] == ""
    scene.journal.faults.hook = _hook(step, occurrence)
    with pytest.raises(RuntimeError, match="injected fault"):
        OPS[op](scene)
    scene.journal.faults.hook = None
    assert _snapshot(scene) == before
    assert not scene.journal.recovery.has_intent()
    reopened = Vault.open(scene.root)
    assert reopened.report.recovered is None and reopened.report.external_commit is None
    assert _snapshot(reopened) == before
    count = _count(scene)
    OPS[op](scene)  # it works afterwards, as one commit
    assert _count(scene) == count + 1
    git_tools.assert_consistent(scene)


@pytest.mark.parametrize("op", OPS)
def test_fault_after_the_commit_point(scene, git_tools, op):
    count = _count(scene)
    scene.journal.faults.hook = _hook("index")
    OPS[op](scene)  # git's index lags; the operation itself has landed
    scene.journal.faults.hook = None
    assert _count(scene) == count + 1
    assert _git(scene, "log", "-1", "--format=%s").startswith(SUBJECT[op])
    assert git_tools.disk_tree(scene) == git_tools.head_tree(scene)
    assert set(scene.memories) == {p[len("memories/"):-5] for p in git_tools.head_tree(scene)
                                   if p.startswith("memories/")}
    reopened = Vault.open(scene.root)
    assert reopened.report.recovered and reopened.report.external_commit is None
    assert _count(scene) == count + 1
    assert reopened.memories == scene.memories and reopened.relations == scene.relations
    assert reopened.meta == scene.meta
    git_tools.assert_consistent(reopened)


KILL_SCRIPT = textwrap.dedent("""
    import os, sys
    from core import Vault
    from core.ops.consolidate import execute_consolidation
    path, step, occurrence = sys.argv[1], sys.argv[2], int(sys.argv[3])
    v = Vault.open(path)
    seen = [0]
    def hook(name):
        if name == step:
            seen[0] += 1
            if seen[0] == occurrence:
                os._exit(1)
    v.journal.faults.hook = hook
    execute_consolidation(v, ["src-0", "src-1", "src-2"])
    sys.exit(3)
""")


@pytest.mark.parametrize("step,occurrence", [("write", 1), ("write", 6), ("write", 11),
                                             ("stage", 1), ("update-ref", 1), ("index", 1)])
def test_killed_consolidation_leaves_a_whole_state(scene, git_tools, step, occurrence):
    before = _snapshot(scene)
    count = _count(scene)
    proc = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(scene.root), step,
                           str(occurrence)], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    reopened = Vault.open(scene.root)
    assert reopened.report.recovered and reopened.report.external_commit is None
    if step == "index":
        assert _count(scene) == count + 1
        assert not any(f"src-{i}" in reopened.memories for i in range(3))
        assert reopened.meta["last_consolidation_at"]
    else:
        assert _snapshot(reopened) == before
    subjects = _git(scene, "log", "--format=%s").splitlines()
    assert not any(s.startswith("external:") for s in subjects)
    git_tools.assert_consistent(reopened)


def test_the_plan_lists_what_goes_and_keeps_the_sources_lineage(trio, consistent):
    """The one rule in the preview: the plan removes the sources' other relations (moved to the
    merged memory) and none of their lineage relations."""
    vault, (m1, m2, m3) = trio
    outside = vault.add("the water schedule")
    out_rel = vault.relate(m1.id, outside.id, "supports")
    part_of = vault.relate(m3.id, outside.id, "split_from")  # m3 was split from outside
    preview = plan_consolidation(vault, [m1.id, m2.id, m3.id])
    assert preview.plan.drop_relations == [out_rel.id]
    assert part_of.id not in preview.plan.drop_relations
    assert [(r.from_memory_id, r.relation_type) for r in preview.moved_relations] == [
        (preview.merged.id, "supports")]
    apply_consolidation(vault, preview)
    assert part_of.id in vault.relations and out_rel.id not in vault.relations
    consistent(vault)


def test_a_paraphrase_pair_clusters_at_the_default_threshold_not_kept_separate(vault):
    """Issue 41: before, the pair linked only at 0.5 and was labelled "keep separate"; the
    same pair with light mode for dark does not cluster."""
    short = vault.add("Prefers pytest with plain assert")
    long = vault.add("Prefers pytest with plain assert statements over unittest")
    vault.add("Prefers dark mode in every editor")
    vault.add("Prefers light mode in every editor")
    clusters = find_clusters(vault)
    assert [sorted(m.id for m in c.members) for c in clusters] == [sorted([short.id, long.id])]
    assert clusters[0].suggested_action != "keep separate"
