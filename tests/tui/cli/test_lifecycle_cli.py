"""The lifecycle verbs of `memvault` (tui.cli.lifecycle), run in-process through cli.main:
split, split-candidates, suggest-split, consolidate, clusters, lineage."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from rich.text import Text

from core import MemoryStatus, Vault
from core.ops.provenance import lineage
from tui import cli
from tui.cli import render_lifecycle

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

LONG = ("Gardeners who grow tomatoes in containers need deep pots and regular watering in July "
        "and August, because container soil dries out quickly and the fruit cracks.\n\n"
        "The quarterly budget review moved from Tuesday to Thursday, and every department has "
        "to send its revised spending forecast two days before the meeting. " * 2)






def _commits(vdir: Path) -> int:
    return int(subprocess.run(["git", "-C", str(vdir), "rev-list", "--count", "HEAD"],
                              capture_output=True, text=True, check=True).stdout)


def _subject(vdir: Path) -> str:
    return subprocess.run(["git", "-C", str(vdir), "log", "-1", "--format=%s"],
                          capture_output=True, text=True, check=True).stdout.strip()


# -- split ---------------------------------------------------------------------------------------
def test_split_prints_the_new_ids(run, vdir):
    src = run.add("tea at five. walk at six.", "--tag", "daily")
    before = _commits(vdir)
    out = run.ok("split", src[:8], "--part", "tea at five.", "--part", "walk at six.")
    ids = out.split()
    assert len(ids) == 2 and out == "\n".join(ids) + "\n"
    assert _commits(vdir) == before + 1
    assert _subject(vdir) == (f"split: decompose {src[:8]} into 2 atomic memories "
                              f"({ids[0][:8]}, {ids[1][:8]})")
    vault = Vault.open(vdir, readonly=True)
    assert [vault.memories[i].content for i in ids] == ["tea at five.", "walk at six."]
    assert all(vault.memories[i].meta.tags == ["daily"] for i in ids)
    assert vault.memories[src].status == MemoryStatus.ARCHIVED


def test_split_tags_per_part_and_delete_original(run, vdir):
    src = run.add("tea at five. walk at six. read at nine.", "--tag", "daily")
    out = run.ok("split", src, "--part", "tea at five.", "--part", "walk at six.",
                 "--part", "read at nine.", "--tags", "tea, drinks", "--tags", "",
                 "--entities", "Earl Grey", "--delete-original")
    a, b, c = out.split()
    vault = Vault.open(vdir, readonly=True)
    assert vault.memories[a].meta.tags == ["tea", "drinks"]
    assert vault.memories[a].entities == ["Earl Grey"]
    assert vault.memories[b].meta.tags == []
    assert vault.memories[c].meta.tags == ["daily"]  # no --tags for it: its words name none
    assert src not in vault.memories


def test_split_without_labels_gives_each_part_those_its_own_words_name(run, vdir):
    src = run.add("Tea with Anna at five.\n\nA walk to the Rhine at six.", "--tag", "tea",
                  "--tag", "walk", "--entity", "Anna", "--entity", "Rhine")
    tea, walk = run.ok("split", src, "--part", "Tea with Anna at five.",
                       "--part", "A walk to the Rhine at six.").split()
    vault = Vault.open(vdir, readonly=True)
    assert (vault.memories[tea].meta.tags, vault.memories[tea].entities) == (["tea"], ["Anna"])
    assert (vault.memories[walk].meta.tags, vault.memories[walk].entities) == (["walk"], ["Rhine"])


SISTER = "My sister lives in Porto."
TWO_FACTS = "I moved to Lisbon in 2021 and my sister lives in Porto."


def test_suggest_split_names_a_part_that_repeats_a_memory(run):
    sister = run.add(SISTER)
    src = run.add(TWO_FACTS)
    data = run.json("suggest-split", src)
    assert [p["content"] for p in data["parts"]] == ["I moved to Lisbon in 2021.", SISTER]
    assert [[d["id"] for d in p["likely_duplicates"]] for p in data["parts"]] == [[], [sister]]
    out = run.ok("suggest-split", src)
    assert f"likely repeats {sister[:8]} (similarity 1.00): {SISTER}" in out


def test_split_warns_of_a_part_that_repeats_a_memory_and_splits_all_the_same(run):
    sister = run.add(SISTER)
    src = run.add(TWO_FACTS)
    code, out, err = run("split", src, "--part", "I moved to Lisbon in 2021.", "--part", SISTER)
    assert code == 0 and len(out.split()) == 2
    part = out.split()[1]
    assert f"warning: part 2 ({part[:8]}) likely repeats {sister[:8]}" in err
    assert "part 1" not in err and src[:8] not in err  # nor the original it came from
    again = run.add("We adopted a cat in March and the vet is on Rua Augusta.")
    data = run.json("split", again, "--part", "We adopted a cat in March.",
                    "--part", "The vet is on Rua Augusta.")
    assert [p["likely_duplicates"] for p in data["parts"]] == [[], []]


def test_split_json(run):
    src = run.add("tea at five. walk at six.")
    data = run.json("split", src, "--part", "tea at five.", "--part", "walk at six.")
    assert data["original"] == src and data["original_fate"] == "archived"
    assert [p["content"] for p in data["parts"]] == ["tea at five.", "walk at six."]
    assert all("score" in p for p in data["parts"])
    assert [(r["relation_type"], r["to_memory_id"], r["metadata"]) for r in data["relations"]] == [
        ("split_from", src, {"split_index": 0, "total_splits": 2}),
        ("split_from", src, {"split_index": 1, "total_splits": 2})]
    assert len(data["commit"]) == 40


@pytest.mark.parametrize("argv,message", [
    ([], "a split needs at least 2 parts"),
    (["--part", "tea at five."], "a split needs at least 2 parts"),
    (["--part", "tea at five.", "--part", " "], "part 2 is empty"),
    (["--part", "tea at five. walk at six.", "--part", "x"], "part 1 only repeats the original"),
    (["--part", "a", "--part", "b", "--tags", "x", "--tags", "y", "--tags", "z"],
     "3 --tags for 2 parts"),
])
def test_split_refusals_exit_1(run, vdir, argv, message):
    src = run.add("tea at five. walk at six.")
    before = _commits(vdir)
    err = run.fails("split", src, *argv)
    assert err.startswith("memvault: error: refused: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert _commits(vdir) == before


def test_split_unknown_and_archived(run):
    src = run.add("tea at five. walk at six.")
    assert "no memory with id or prefix 'zzzz9999'" in run.fails(
        "split", "zzzz9999", "--part", "a", "--part", "b")
    run.ok("archive", src)
    assert "is archived; only an active memory can be split" in run.fails(
        "split", src, "--part", "a", "--part", "b")


def test_usage_errors_exit_2(run):
    run.add("x")
    run.fails("split", code=2)
    run.fails("consolidate", code=2)
    run.fails("clusters", "--threshold", "1.5", code=2)
    run.fails("clusters", "--threshold", "much", code=2)
    run.fails("lineage", code=2)


# -- candidates and suggestions ------------------------------------------------------------------
def test_split_candidates(run):
    long = run.add(LONG)
    tagged = run.add("many tags", *[f"--tag={t}" for t in "abcde"])
    run.add("plain")
    data = run.json("split-candidates")
    assert [c["id"] for c in data] == [long, tagged]
    assert data[0]["reasons"] == [f"{len(LONG)} characters with 3 distinct ideas"]
    assert data[1]["reasons"] == ["5 tags"]
    assert data[0]["memory"]["id"] == long and "score" in data[0]["memory"]
    out = run.ok("split-candidates")
    assert out.index(long[:8]) < out.index(tagged[:8])
    assert "5 tags" in out and "distinct ideas" in out


def test_split_candidates_none(run):
    run.add("plain")
    assert "no memory looks composite" in run.ok("split-candidates")
    assert run.json("split-candidates") == []


def test_suggest_split(run):
    src = run.add("Tea with Anna at five.\n\nA walk to the Rhine at six.", "--tag", "tea",
                  "--tag", "walk")
    data = run.json("suggest-split", src[:6])
    assert data["id"] == src
    assert data["parts"] == [
        {"content": "Tea with Anna at five.", "tags": ["tea"], "entities": ["Anna"],
         "likely_duplicates": []},
        {"content": "A walk to the Rhine at six.", "tags": ["walk"], "entities": ["Rhine"],
         "likely_duplicates": []}]
    out = run.ok("suggest-split", src)
    assert "2 parts suggested" in out and "part 1" in out and "part 2" in out
    assert (f"memvault split {src[:8]} --part 'Tea with Anna at five.' "
            "--part 'A walk to the Rhine at six.' --tags tea --tags walk "
            "--entities Anna --entities Rhine") in out


def test_suggest_split_of_one_idea(run):
    src = run.add("just one idea")
    assert "nothing in" in run.ok("suggest-split", src)
    assert len(run.json("suggest-split", src)["parts"]) == 1


# -- consolidate and clusters --------------------------------------------------------------------
def test_consolidate_prints_the_new_id(run, vdir):
    a = run.add("tomatoes need deep pots", "--tag", "garden")
    b = run.add("Tomatoes need deep pots!", "--tag", "garden")
    before = _commits(vdir)
    out = run.ok("consolidate", a[:8], b[:8])
    new = out.strip()
    assert out == new + "\n" and len(new) == 36
    assert _commits(vdir) == before + 1
    assert _subject(vdir) == f"consolidate: merge 2 garden memories into {new[:8]} ({a[:8]}, {b[:8]})"
    vault = Vault.open(vdir, readonly=True)
    assert a not in vault.memories and b not in vault.memories
    assert vault.memories[new].content == "Tomatoes need deep pots!"
    assert vault.meta["last_consolidation_at"]


def test_consolidate_content_archive_json(run):
    a, b = run.add("basil likes sun"), run.add("basil needs water")
    data = run.json("consolidate", a, b, "--content", "basil: sun and water", "--archive-sources")
    assert data["merged"]["content"] == "basil: sun and water"
    assert data["sources"] == [a, b] and data["sources_fate"] == "archived"
    assert data["cluster_id"].startswith("clust-") and 0 <= data["cohesion"] <= 1
    assert {r["to_memory_id"] for r in data["relations"]} == {a, b}
    assert all(r["from_memory_id"] == data["merged"]["id"] for r in data["relations"])
    assert len(data["commit"]) == 40
    listed = {m["id"]: m["status"] for m in run.json("list")}
    assert listed[a] == listed[b] == "archived"


@pytest.mark.parametrize("case", ["one", "archived", "empty", "unknown"])
def test_consolidate_refusals_exit_1(run, vdir, case):
    a, b = run.add("one"), run.add("two")
    if case == "archived":
        run.ok("archive", b)
    argv = {"one": [a], "archived": [a, b], "empty": [a, b, "--content", "  "],
            "unknown": [a, "zzzz9999"]}[case]
    before = _commits(vdir)
    err = run.fails("consolidate", *argv)
    assert err.startswith("memvault: error: ")
    assert _commits(vdir) == before


def test_clusters(run):
    a = run.add("garden tomatoes need deep pots and water")
    b = run.add("Garden tomatoes need deep pots, and water!")
    c = run.add("garden tomatoes need deep pots and lots of water")
    run.add("the quarterly budget review")
    data = run.json("clusters")
    assert len(data) == 1
    cluster = data[0]
    assert sorted(cluster["members"]) == sorted([a, b, c])
    assert cluster["cluster_id"].startswith("clust-")
    assert cluster["suggested_action"] in ("merge", "review")
    out = run.ok("clusters")
    assert cluster["cluster_id"] in out and f"{cluster['cohesion']:.3f}" in out
    assert cluster["suggested_action"] in out and a[:8] in out
    (exact,) = run.json("clusters", "--threshold", "1.0")
    assert exact["members"] == sorted([a, b]) and exact["cohesion"] == 1.0
    assert exact["suggested_action"] == "merge" and exact["cluster_id"] != cluster["cluster_id"]


def test_clusters_find_a_rewording_at_the_default_threshold(run):
    """Issue 41: before, only ``--threshold 0.5`` found this pair, labelled "keep separate"."""
    a = run.add("Prefers pytest with plain assert")
    b = run.add("Prefers pytest with plain assert statements over unittest")
    (cluster,) = run.json("clusters")
    assert sorted(cluster["members"]) == sorted([a, b])
    assert cluster["suggested_action"] != "keep separate"


def test_no_clusters(run):
    run.add("alpha"), run.add("beta")
    assert "no clusters" in run.ok("clusters", "--threshold", "0.5")


# -- lineage -------------------------------------------------------------------------------------
@pytest.fixture
def chain(run):
    root = run.add("Tomatoes need sun. Basil needs water.")
    p1, p2 = run.ok("split", root, "--part", "Tomatoes need sun.", "--part", "Basil needs water.",
                    "--delete-original").split()
    split1 = run.json("history", root)[0]["commit"]  # the commit that removed it
    merged = run.ok("consolidate", p1, p2, "--content", "The garden needs sun and water.").strip()
    merge = run.json("history", p1)[0]["commit"]
    q1, q2 = run.ok("split", merged, "--part", "The garden needs sun.", "--part",
                    "The garden needs water.", "--delete-original").split()
    split2 = run.json("history", merged)[0]["commit"]
    bystander = run.add("a bystander")
    run.ok("relate", q1, bystander, "supports")
    return dict(root=root, p1=p1, p2=p2, merged=merged, q1=q1, q2=q2, bystander=bystander,
                split1=split1, merge=merge, split2=split2)


def test_lineage_tree_for_humans(run, chain):
    out = run.ok("lineage", chain["q1"][:8])
    lines = out.splitlines()
    assert lines[0].startswith(f"lineage of {chain['q1'][:8]}  The garden needs sun.")
    ancestors = out.index("ancestors (made from)")
    descendants = out.index("descendants (made into)")
    assert ancestors < descendants
    above = out[ancestors:descendants]
    # a gone memory is named consumed, with the commit that removed it (from history)
    assert f"split {chain['merged'][:8]}  The garden needs sun and water. (consumed in " \
           f"{chain['split2'][:8]} (split))" in above
    assert f"merge {chain['p1'][:8]}  Tomatoes need sun. (consumed in " \
           f"{chain['merge'][:8]} (consolidate))" in above
    assert f"merge {chain['p2'][:8]}  Basil needs water. (consumed in " in above
    assert f"split {chain['root'][:8]}" in above and "(shown above)" in above
    below = out[descendants:]
    assert "nothing" in below.split("other relations")[0]
    assert "other relations" in out and "supports" in out and chain["bystander"][:8] in out
    assert chain["q2"][:8] not in out


def test_lineage_of_a_deleted_memory_shows_descendants(run, chain):
    out = run.ok("lineage", chain["root"])
    assert f"(consumed in {chain['split1'][:8]} (split))" in out.splitlines()[0]
    below = out[out.index("descendants (made into)"):]
    for name in ("p1", "p2", "merged", "q1", "q2"):
        assert chain[name][:8] in below
    assert f"split {chain['q2'][:8]}  The garden needs water." in below
    assert f"split {chain['q2'][:8]}  The garden needs water. (deleted)" not in below


def test_lineage_json(run, chain):
    data = run.json("lineage", chain["merged"])
    assert data["root"] == chain["merged"]
    nodes = {n["id"]: n for n in data["nodes"]}
    assert {i: n["depth"] for i, n in nodes.items()} == {
        chain["merged"]: 0, chain["p1"]: -1, chain["p2"]: -1, chain["root"]: -2,
        chain["q1"]: 1, chain["q2"]: 1}
    assert nodes[chain["merged"]]["gone"] and not nodes[chain["q1"]]["gone"]
    assert nodes[chain["root"]]["memory"]["content"] == "Tomatoes need sun. Basil needs water."
    assert {e["relation_type"] for e in data["edges"]} == {"split_from", "consolidated_from"}
    assert len(data["edges"]) == 6 and data["other_relations"] == []


def test_lineage_unknown_id(run, chain):
    assert "no memory, living or in history" in run.fails("lineage", "zzzz9999")


def test_gone_memories_are_dimmed(run, chain, vdir):
    found = lineage(Vault.open(vdir), chain["q1"])
    gone = render_lifecycle._node_label(found.nodes[chain["merged"]], chain["merged"], "split")
    alive = render_lifecycle._node_label(found.nodes[chain["q1"]], chain["q1"])
    assert isinstance(gone, Text) and gone.plain.endswith(
        f"(consumed in {chain['split2'][:8]} (split))")
    assert any(span.style == "dim" and span.start == 0 and span.end == len(gone.plain)
               for span in gone.spans)
    assert not any(span.style == "dim" for span in alive.spans)


# -- the verbs are part of the CLI ---------------------------------------------------------------
LIFECYCLE = ["split", "split-candidates", "suggest-split", "consolidate", "clusters", "lineage"]


@pytest.mark.parametrize("name", LIFECYCLE)
def test_verb_help(run, name):
    assert name in cli.VERB_HELP
    code, out, _ = run(name, "-h")
    assert code == 0 and cli.VERB_HELP[name] in " ".join(out.split())


def test_overview_lists_the_verbs(run):
    run.add("x")
    out = run.ok()
    for name in LIFECYCLE:
        assert f"  {name} " in out


def test_no_vault_is_a_user_error(run):
    assert "no vault at" in run.fails("split-candidates")
    assert "no vault at" in run.fails("lineage", "abcd")


def test_a_write_on_a_detached_head_says_so_once(run, vdir):
    import subprocess

    a = run.add("the staging server rebuilds nightly")
    run.add("the second memory")
    subprocess.run(["git", "-C", str(vdir), "checkout", "-q", "--detach", "HEAD~1"], check=True)
    err = run.fails("archive", a[:8])
    assert err.count("HEAD is detached") == 1 and "error:" in err


def test_an_id_already_deleted_says_restore_brings_it_back(run):
    a = run.add("the staging server rebuilds nightly")
    run.ok("delete", a[:8], "--yes")
    err = run.fails("delete", a[:8], "--yes")
    assert f"{a[:8]} was deleted: `memvault restore {a[:8]}` brings it back" in err
    assert "restore" in run.fails("archive", a)
    assert "restore" not in run.fails("delete", "ffff0000", "--yes")  # never here: no hint
    run.ok("restore", a[:8])
    assert run.json("show", a)["id"] == a
