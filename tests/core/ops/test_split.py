"""Splitting a memory (core.ops.split): inheritance, provenance, refusals, one commit, suggestions,
candidates, and atomicity under injected faults and a killed process."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

from core import Memory, MemoryMetadata, MemoryStatus, Vault, VaultError
from core.errors import UnknownIdError
from core.decay import score
from core.model.config import DecayConfig
from core.model.records import now_epoch
from core.ops.split import (
    SPLIT_MIN_CHARS,
    execute_split,
    plan_split,
    split_candidates,
    split_reasons,
    suggest_split,
)
from core.textutil import make_gist

from fault_support import fault_hook as _hook
from fault_support import vault_snapshot as _snapshot

DAY = 86400
LONG_A = ("Gardeners who grow tomatoes in containers need deep pots, a sunny balcony and regular "
          "watering in the hot months of July and August, because container soil dries out "
          "quickly and the fruit cracks when the watering is uneven, as several growers in "
          "Bologna reported last year.")
LONG_B = ("The quarterly budget review moved from Tuesday to Thursday, and the finance team asked "
          "every department to send its revised spending forecast, including travel, hardware "
          "and contractor costs, at least two days before the meeting so that Margaret can "
          "prepare the consolidated report.")


def _original(vault: Vault, content: str = "alpha fact. beta fact. gamma fact.", **fields) -> Memory:
    old = now_epoch() - 40 * DAY
    memory = Memory(
        id=fields.pop("id", "orig-0001"), content=content,
        meta=MemoryMetadata(tags=["work", "home"], source="notebook", context="kitchen talk"),
        created_at=old, last_used=old + DAY, use_count=7, strength=1.6,
        entities=["Alice", "Bob"], review_count=3, cross_domain_count=1, **fields)
    return vault.save(memory)


def _count(vault: Vault) -> int:
    out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=vault.root,
                         capture_output=True, text=True, check=True).stdout
    return int(out)


def _git(vault: Vault, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=vault.root, capture_output=True, text=True,
                          check=True).stdout


# -- inheritance and provenance ----------------------------------------------------------------
def test_parts_inherit_from_the_original(vault, consistent):
    src = _original(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact.", "gamma fact."])
    assert len(result.parts) == 3
    for part, text in zip(result.parts, ["alpha fact.", "beta fact.", "gamma fact."]):
        stored = vault.memories[part.id]
        assert stored == part
        assert stored.content == text
        assert stored.strength == 1.6 and stored.use_count == 7
        assert stored.created_at == src.created_at
        assert stored.meta.source == "notebook" and stored.meta.context == "kitchen talk"
        assert stored.last_used == src.last_used  # a split is no use
        # no part names a tag: each gets them all; none names Alice or Bob: no entity
        assert stored.meta.tags == ["work", "home"] and stored.entities == []
        assert stored.status == MemoryStatus.ACTIVE
        assert stored.id != src.id
    consistent(vault)


def test_parts_keep_the_originals_use_count_and_last_used_so_they_rank_where_it_did(vault):
    src = _original(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact."])
    for part in result.parts:
        stored = vault.memories[part.id]
        assert (stored.use_count, stored.last_used) == (src.use_count, src.last_used)
        now = now_epoch()
        assert score(stored, DecayConfig(), now) == pytest.approx(score(src, DecayConfig(), now))


def test_parts_get_their_own_tags_and_entities(vault):
    src = _original(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact with Alice.", "gamma fact."],
                           tags=[["a"], None, []], entities=[None, ["Carol"], []])
    a, b, c = (vault.memories[p.id] for p in result.parts)
    assert a.meta.tags == ["a"] and a.entities == []  # (derived: it names nobody)
    assert b.meta.tags == ["work", "home"] and b.entities == ["Carol"]
    assert c.meta.tags == [] and c.entities == []


def test_a_part_given_no_labels_gets_those_its_own_words_name(vault):
    src = vault.add("Alice plants tomatoes in the garden.\n\nBob files the taxes in April.",
                    tags=["garden", "taxes"], entities=["Alice", "Bob"])
    result = execute_split(vault, src.id, ["Alice plants tomatoes in the garden.",
                                           "Bob files the taxes in April."])
    garden, taxes = (vault.memories[p.id] for p in result.parts)
    assert (garden.meta.tags, garden.entities) == (["garden"], ["Alice"])
    assert (taxes.meta.tags, taxes.entities) == (["taxes"], ["Bob"])


def test_each_part_gets_its_own_gist(vault, monkeypatch):
    import core.gist

    calls = []

    def fake(content, level="moderate", tags=(), entities=(), **_):
        calls.append((content, list(tags), list(entities)))
        return None if len(content) < 40 else f"gist of {content[:20]}"

    src = _original(vault, content=LONG_A + "\n\n" + LONG_B + "\n\nshort")
    monkeypatch.setattr(core.gist, "generate_gist", fake)
    result = execute_split(vault, src.id, [LONG_A, LONG_B, "short"], tags=[["garden"], None, None])
    a, b, c = (vault.memories[p.id] for p in result.parts)
    assert a.gist == f"gist of {LONG_A[:20]}" and b.gist == f"gist of {LONG_B[:20]}"
    assert c.gist is None  # too short: no gist
    assert calls == [(LONG_A, ["garden"], ["Bologna"]),  # the names each part's words hold
                     (LONG_B, ["work", "home"], ["Margaret"]),
                     ("short", ["work", "home"], [])]


def test_gist_from_the_real_generator(vault):
    from core.gist import MIN_WORDS

    short = " ".join(["word"] * (MIN_WORDS - 1))
    src = _original(vault, content=LONG_A + " " + LONG_B + " " + short)
    result = execute_split(vault, src.id, [LONG_A + " " + LONG_B, short])
    long_part, short_part = result.parts
    assert long_part.gist == make_gist(long_part.content, long_part.meta.tags, long_part.entities)
    assert short_part.gist is None


def test_a_gist_failure_never_blocks_the_split(vault, monkeypatch):
    import core.gist

    def boom(*_a, **_k):
        raise RuntimeError("gist exploded")

    src = _original(vault)
    monkeypatch.setattr(core.gist, "generate_gist", boom)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact."])
    assert all(p.gist is None for p in result.parts)


def test_split_from_relations_point_part_to_original(vault, consistent):
    src = _original(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact.", "gamma fact."])
    assert len(result.relations) == 3
    for index, (part, rel) in enumerate(zip(result.parts, result.relations)):
        stored = vault.relations[rel.id]
        assert stored.relation_type == "split_from"
        assert stored.from_memory_id == part.id and stored.to_memory_id == src.id
        assert stored.metadata == {"split_index": index, "total_splits": 3}
    consistent(vault)


def test_original_archived_by_default(vault, consistent):
    src = _original(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact."])
    kept = vault.memories[src.id]
    assert result.original_fate == "archive"
    assert kept.status == MemoryStatus.ARCHIVED
    assert kept.model_dump(exclude={"status"}) == src.model_dump(exclude={"status"})
    consistent(vault)


def test_original_deleted_keeps_provenance_drops_other_relations(vault, consistent):
    src = _original(vault)
    other = vault.add("another memory")
    related = vault.relate(src.id, other.id, "related")
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact."], original="delete")
    assert src.id not in vault.memories
    assert not vault.layout.memory_path(src.id).exists()
    assert related.id not in vault.relations
    for rel in result.relations:  # the lineage stays readable
        assert vault.relations[rel.id].to_memory_id == src.id
    assert other.id in vault.memories
    consistent(vault)


# -- one commit ----------------------------------------------------------------------------------
@pytest.mark.parametrize("fate", ["archive", "delete"])
def test_exactly_one_commit_with_the_message(vault, fate, consistent):
    src = _original(vault)
    count = _count(vault)
    result = execute_split(vault, src.id, ["alpha fact.", "beta fact.", "gamma fact."],
                           original=fate)
    assert _count(vault) == count + 1
    subject = _git(vault, "log", "-1", "--format=%s").strip()
    ids = ", ".join(p.id[:8] for p in result.parts)
    assert subject == f"split: decompose {src.id[:8]} into 3 atomic memories ({ids})"
    assert result.commit == vault.journal.head()
    consistent(vault)
    # History stays readable: each part's file starts in the split commit, and the original's
    # file ends (or changes) there.
    for part in result.parts:
        entries = vault.history(part.id)
        assert [(e.action, e.commit) for e in entries] == [("created", result.commit)]
    first = vault.history(src.id)[0]
    assert first.commit == result.commit
    assert first.action == ("deleted" if fate == "delete" else "changed")
    assert first.operation == "split"


# -- refusals ------------------------------------------------------------------------------------
REFUSALS = [
    ([], None, "at least 2 parts"),
    (["alpha fact."], None, "at least 2 parts"),
    (["alpha fact.", "   "], None, "part 2 is empty"),
    (["", "alpha fact."], None, "part 1 is empty"),
    (["alpha fact. beta fact. gamma fact.", "beta"], None, "part 1 only repeats the original"),
    (["beta", "  ALPHA fact.\n beta FACT. gamma fact. "], None, "part 2 only repeats the original"),
    (["alpha fact. beta fact. gamma fact."] * 2, None, "every part only repeats the original"),
    (["alpha fact.", "Alpha  fact."], None, "two parts are the same (parts 1 and 2"),
    # the same words, punctuation and Unicode forms aside: still the same part (accepted once)
    (["gamma", "Alpha fact", "alpha, fact!"], None, "two parts are the same (parts 2 and 3"),
    (["ﬁx the build", "fix the build."], None, "two parts are the same (parts 1 and 2"),
    (["alpha fact.", "beta fact."], [["x"]], "1 tags lists for 2 parts"),
]


@pytest.mark.parametrize("parts,tags,message", REFUSALS)
def test_refused_with_a_clear_message(vault, parts, tags, message, consistent):
    src = _original(vault)
    count = _count(vault)
    with pytest.raises(VaultError, match=re.escape(message)) as info:
        execute_split(vault, src.id, parts, tags=tags)
    assert str(info.value).startswith("refused: ")
    assert _count(vault) == count
    assert vault.memories[src.id] == src
    consistent(vault)


def test_refused_unknown_id(vault):
    _original(vault)
    with pytest.raises(UnknownIdError, match="no memory with id or prefix 'nope1234'"):
        execute_split(vault, "nope1234", ["a", "b"])


@pytest.mark.parametrize("status", [MemoryStatus.ARCHIVED, MemoryStatus.PROMOTED,
                                    MemoryStatus.SUPERSEDED])
def test_refused_non_active_original(vault, status):
    src = _original(vault, status=status)
    count = _count(vault)
    with pytest.raises(VaultError, match=f"{src.id[:8]} is {status.value}; only an active"):
        execute_split(vault, src.id, ["alpha fact.", "beta fact."])
    assert _count(vault) == count


def test_refused_unknown_fate(vault):
    src = _original(vault)
    with pytest.raises(VaultError, match="original must be 'archive' or 'delete'"):
        execute_split(vault, src.id, ["a", "b"], original="keep")


def test_plan_split_writes_nothing(vault):
    src = _original(vault)
    count = _count(vault)
    change = plan_split(vault, src.id, ["alpha fact.", "beta fact."])
    assert len(change.put_memories) == 3 and len(change.put_relations) == 2
    assert _count(vault) == count and len(vault.memories) == 1


def test_prefix_of_the_original_is_accepted(vault):
    src = _original(vault)
    result = execute_split(vault, src.id[:6], ["alpha fact.", "beta fact."])
    assert result.original.id == src.id


# -- suggestions ---------------------------------------------------------------------------------
def _memory(content: str, tags=(), entities=()) -> Memory:
    return Memory(id="m-suggest", content=content, meta=MemoryMetadata(tags=list(tags)),
                  entities=list(entities))


def test_suggest_split_on_paragraphs():
    m = _memory("Python uses indentation.\nIt is readable.\n\nThe Rhine flows to Rotterdam.",
                tags=["python", "rivers"], entities=["Rhine"])
    parts = suggest_split(m)
    assert [p.content for p in parts] == ["Python uses indentation.\nIt is readable.",
                                          "The Rhine flows to Rotterdam."]
    assert parts[0].tags == ["python"]
    assert parts[1].tags == ["rivers"]
    assert parts[1].entities[0] == "Rhine" and "Rotterdam" in parts[1].entities
    assert "The Rhine" not in parts[1].entities  # a sentence's first word is not an entity


def test_suggest_split_on_list_items():
    m = _memory("Shopping for the party:\n- buy lemons from Lidl\n- rent chairs\n"
                "  for twelve guests\n* call Maria about music\n1. book the hall")
    parts = suggest_split(m)
    assert [p.content for p in parts] == [  # the list's heading is every item's subject
        "Shopping for the party: buy lemons from Lidl",
        "Shopping for the party: rent chairs for twelve guests",
        "Shopping for the party: call Maria about music", "Shopping for the party: book the hall"]
    assert parts[0].entities == ["Lidl"] and parts[2].entities == ["Maria"]


def test_suggest_split_on_topic_shifts():
    m = _memory("The database migration needs a maintenance window. The migration window "
                "needs database backups first. My sister adopted a grey kitten yesterday. "
                "The kitten sleeps on my sister's keyboard.")
    parts = suggest_split(m)
    assert len(parts) == 2
    assert parts[0].content.startswith("The database migration")
    assert parts[0].content.endswith("backups first.")
    assert parts[1].content.startswith("My sister adopted")


def test_a_note_of_two_facts_in_one_sentence_is_drafted_as_two_parts():
    parts = suggest_split(_memory("I moved to Lisbon in 2021 and my sister lives in Porto.",
                                  tags=["moves", "family"]))
    assert [(p.content, p.tags) for p in parts] == [("I moved to Lisbon in 2021.", ["moves"]),
                                                   ("My sister lives in Porto.", ["family"])]


def test_a_sentence_of_one_fact_with_and_is_one_part():
    assert len(suggest_split(_memory("Likes salt and pepper on scrambled eggs."))) == 1


def test_an_aside_stays_with_the_sentence_it_qualifies():
    m = _memory("Practises for twenty minutes before work most days. Said with obvious enthusiasm "
                "while we talked about plans for the weekend and the concert next month. The "
                "passport expires in two years; renew before booking long trips. It came up when "
                "booking the last trip.", tags=["music", "admin"])
    parts = [p.content for p in suggest_split(m)]
    assert parts == [
        "Practises for twenty minutes before work most days. Said with obvious enthusiasm while "
        "we talked about plans for the weekend and the concert next month.",
        "The passport expires in two years; renew before booking long trips. It came up when "
        "booking the last trip."]


def test_a_fact_with_its_asides_is_one_part():
    m = _memory("Plays the piano; currently learning a Bach invention. A steady hobby for many "
                "years that they want to make more time for again this season. Said with obvious "
                "enthusiasm while we talked about plans for the weekend and the concert next "
                "month.", tags=["music"], entities=["Bach"])
    assert len(suggest_split(m)) == 1


def test_a_part_gets_only_the_entities_its_text_names():
    m = _memory("Ana, the neighbour downstairs, looks after the plants.\n\n"
                "The bike room code changed to 4711 in May.\n\n"
                "The building manager, Mr Costa, wants the balcony drain cleared before the "
                "first storms in October.\n\nDentist on Tuesday 3 July with Dr Silva.",
                entities=["Ana", "Mr Costa"])
    parts = suggest_split(m)
    assert [p.entities for p in parts] == [["Ana"], [], ["Mr Costa"], ["Dr Silva"]]
    # "manager" does not name Ana; May, October, Tuesday and July are dates, not entities


def test_suggest_split_of_a_single_idea_is_one_part():
    m = _memory("One short thought about nothing much.", tags=["t"])
    parts = suggest_split(m)
    assert [p.content for p in parts] == ["One short thought about nothing much."]
    assert parts[0].tags == ["t"]  # no guess: the original's tags


def test_suggested_parts_can_be_split_as_they_are(vault):
    src = vault.add("First idea about gardens.\n\nSecond idea about taxes.\n\nThird about cats.")
    parts = suggest_split(src)
    result = execute_split(vault, src.id, [p.content for p in parts],
                           tags=[p.tags for p in parts], entities=[p.entities for p in parts])
    assert len(result.parts) == 3


# -- candidates ----------------------------------------------------------------------------------
def test_split_candidates_with_reasons(vault):
    long_two = vault.add(LONG_A + "\n\n" + LONG_B)
    long_one = vault.add(" ".join([LONG_A.split(",")[0]] * 1) + " " + "and more " * 70)
    tagged = vault.add("tagged", tags=["a", "b", "c", "d", "e"])
    named = vault.add("named", entities=["A1", "B1", "C1", "D1", "E1", "F1"])
    crossing = vault.save(Memory(id="cross-01", content="crossing", cross_domain_count=3))
    everything = vault.add(LONG_A + "\n\n" + LONG_B, tags=["a", "b", "c", "d", "e"],
                           entities=["A1", "B1", "C1", "D1", "E1", "F1"])
    archived = vault.add(LONG_A + "\n\n" + LONG_B + "!")
    vault.archive(archived.id)
    plain = vault.add("plain", tags=["a", "b", "c", "d"], entities=["A", "B", "C", "D", "E"])

    found = split_candidates(vault)
    by_id = {c.memory.id: c for c in found}
    assert found[0].memory.id == everything.id and len(found[0].reasons) == 3
    assert set(by_id) == {long_two.id, tagged.id, named.id, crossing.id, everything.id}
    assert len(long_one.content) > SPLIT_MIN_CHARS and long_one.id not in by_id  # one idea
    assert archived.id not in by_id and plain.id not in by_id
    assert by_id[long_two.id].reasons == [f"{len(long_two.content)} characters with 2 distinct ideas"]
    assert by_id[tagged.id].reasons == ["5 tags"]
    assert by_id[named.id].reasons == ["6 entities"]
    assert by_id[crossing.id].reasons == ["used across 3 domains"]
    weights = [c.weight for c in found]
    assert weights == sorted(weights, reverse=True)


def test_split_reasons_of_a_short_memory_are_empty():
    assert split_reasons(_memory("short and simple")) == []


# -- atomicity: injected faults -----------------------------------------------------------------
STEPS = ["stage", "write-tree", "commit-tree", "update-ref"]
#: writes of the scenario below: 3 parts + 3 relations + the original (archived, or deleted with
#: its one other relation)
WRITES = {"archive": 7, "delete": 8}
FAULTS = ([(fate, "write", k) for fate, n in WRITES.items() for k in range(1, n + 1)]
          + [(fate, step, 1) for fate in WRITES for step in STEPS])
PARTS = ["alpha fact.", "beta fact.", "gamma fact."]




@pytest.fixture
def scenario(vault):
    src = _original(vault)
    other = vault.add("a neighbour")
    vault.relate(src.id, other.id, "related")
    return vault, src


@pytest.mark.parametrize("fate", WRITES)
def test_write_count_of_the_scenario(scenario, fate):
    vault, src = scenario
    calls: list[str] = []
    vault.journal.faults.hook = _hook("none", calls=calls)
    execute_split(vault, src.id, PARTS, original=fate)
    assert calls.count("write") == WRITES[fate]
    assert [c for c in calls if c != "write"] == [*STEPS, "index"]


@pytest.mark.parametrize("fate,step,occurrence", FAULTS)
def test_fault_leaves_the_vault_as_it_was(scenario, git_tools, fate, step, occurrence):
    vault, src = scenario
    before = _snapshot(vault)
    assert before["status"] == ""
    vault.journal.faults.hook = _hook(step, occurrence)
    with pytest.raises(RuntimeError, match="injected fault"):
        execute_split(vault, src.id, PARTS, original=fate)
    vault.journal.faults.hook = None
    assert _snapshot(vault) == before
    assert not vault.journal.recovery.has_intent()
    reopened = Vault.open(vault.root)
    assert reopened.report.recovered is None and reopened.report.external_commit is None
    assert _snapshot(reopened) == before
    # and the same split succeeds afterwards, as one commit
    count = _count(vault)
    execute_split(vault, src.id, PARTS, original=fate)
    assert _count(vault) == count + 1
    git_tools.assert_consistent(vault)


@pytest.mark.parametrize("fate", WRITES)
def test_fault_after_the_commit_point(scenario, git_tools, fate):
    """A failure while updating git's own index: the split has landed, whole."""
    vault, src = scenario
    count = _count(vault)
    vault.journal.faults.hook = _hook("index")
    result = execute_split(vault, src.id, PARTS, original=fate)
    vault.journal.faults.hook = None
    assert _count(vault) == count + 1
    assert _git(vault, "log", "-1", "--format=%s").startswith(f"split: decompose {src.id[:8]}")
    assert git_tools.disk_tree(vault) == git_tools.head_tree(vault)
    assert all(vault.memories[p.id] == p for p in result.parts)
    assert (src.id in vault.memories) == (fate == "archive")
    reopened = Vault.open(vault.root)
    assert reopened.report.recovered and reopened.report.external_commit is None
    assert _count(vault) == count + 1
    assert reopened.memories == vault.memories and reopened.relations == vault.relations
    git_tools.assert_consistent(reopened)


# -- atomicity: a killed process -----------------------------------------------------------------
KILL_SCRIPT = textwrap.dedent("""
    import os, sys
    from core import Vault
    from core.ops.split import execute_split
    path, step, occurrence, fate = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    v = Vault.open(path)
    seen = [0]
    def hook(name):
        if name == step:
            seen[0] += 1
            if seen[0] == occurrence:
                os._exit(1)
    v.journal.faults.hook = hook
    execute_split(v, "orig-0001", ["alpha fact.", "beta fact.", "gamma fact."], original=fate)
    print("finished without reaching the step")
    sys.exit(3)
""")
KILLS = ([("delete", "write", k) for k in range(1, WRITES["delete"] + 1)]
         + [("archive", "write", k) for k in (1, 4, WRITES["archive"])]
         + [(fate, step, 1) for fate in WRITES for step in [*STEPS, "index"]])


@pytest.mark.parametrize("fate,step,occurrence", KILLS)
def test_killed_process_leaves_a_whole_state(scenario, git_tools, fate, step, occurrence):
    vault, src = scenario
    before = _snapshot(vault)
    count = _count(vault)
    proc = subprocess.run([sys.executable, "-c", KILL_SCRIPT, str(vault.root), step,
                           str(occurrence), fate], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr

    reopened = Vault.open(vault.root)
    assert reopened.report.recovered
    assert reopened.report.external_commit is None
    subjects = _git(vault, "log", "--format=%s").splitlines()
    assert not any(s.startswith("external:") for s in subjects)
    if step == "index":  # the commit had landed: all after
        assert _count(vault) == count + 1
        assert subjects[0].startswith(f"split: decompose {src.id[:8]} into 3 atomic memories")
        parts = [m for m in reopened.memories.values() if m.content in PARTS]
        assert len(parts) == 3
        assert (src.id in reopened.memories) == (fate == "archive")
        assert sum(r.relation_type == "split_from" for r in reopened.relations.values()) == 3
    else:  # all before
        assert _count(vault) == count
        assert _snapshot(reopened) == before
    assert _git(vault, "status", "--porcelain", "--untracked-files=all") == ""
    assert not reopened.journal.recovery.has_intent()
    git_tools.assert_consistent(reopened)


def test_deleting_a_merged_original_keeps_its_own_lineage_in_the_plan(vault, consistent):
    """The one rule in the plan (its preview): a split that deletes a memory made by a merge
    keeps the merge's consolidated_from relations to its (consumed) sources, and lists only the
    other relations as going with it."""
    from core import Relation

    src = _original(vault)
    vault.save_relations([Relation(id="merge-edge", from_memory_id=src.id,
                                   to_memory_id="source-gone", relation_type="consolidated_from")])
    other = vault.add("another memory")
    related = vault.relate(other.id, src.id, "supports")
    plan = plan_split(vault, src.id, ["alpha fact.", "beta fact."], original="delete")
    assert plan.drop_memories == [src.id] and plan.drop_relations == [related.id]
    execute_split(vault, src.id, ["alpha fact.", "beta fact."], original="delete")
    assert "merge-edge" in vault.relations and related.id not in vault.relations
    consistent(vault)


def test_a_part_naming_no_tag_is_not_given_the_tags_other_parts_claimed():
    m = _memory("Python uses indentation.\n\nThe Rhine flows to Rotterdam.\n\n"
                "My sister adopted a grey kitten.", tags=["python", "rhine"])
    assert [p.tags for p in suggest_split(m)] == [["python"], ["rhine"], []]


def test_a_tag_no_part_names_goes_to_the_parts_naming_none():
    m = _memory("Python uses indentation.\n\nMy sister adopted a grey kitten.",
                tags=["python", "family"])
    assert [p.tags for p in suggest_split(m)] == [["python"], ["family"]]


def test_a_draft_of_one_part_keeps_every_tag():
    m = _memory("Python uses indentation, which is short.", tags=["python", "style"])
    assert [p.tags for p in suggest_split(m)] == [["python", "style"]]
