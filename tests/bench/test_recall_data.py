"""bench/recall.py's scoring on a tiny conversation of LoCoMo's shape (tests/bench/locomo_tiny.json):
what it reads as turns, facts and questions, R@k and MRR, the fixed split, and one whole run."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from bench_support import load_bench

TINY = Path(__file__).resolve().parent / "locomo_tiny.json"



data = load_bench("recall_data")


def test_locomo_reads_as_turns_facts_and_questions():
    (conv,) = data.load(TINY)
    assert conv.sample_id == "conv-tiny"
    assert [t.key for t in conv.turns] == ["t-d1-1", "t-d1-2", "t-d1-3", "t-d2-1", "t-d2-2"]
    assert conv.turns[0].text == "Ada: Hi Ben! I adopted a grey cat named Pixel last week."
    assert conv.turns[2].text.endswith("[shares a photo of a photo of tomatoes in a raised bed]")
    assert conv.turns[0].at == 1683554160 and conv.turns[3].at > conv.turns[2].at
    assert [sorted(f.turns) for f in conv.facts] == [["D1:1"], ["D1:3"], ["D1:2"], ["D2:1"],
                                                     ["D1:3", "D2:2"]]
    # category 5 and evidence naming no turn of the conversation are left out;
    # "D1:3; D2:2" (one string in the data) is two turns
    assert [(q.qid, sorted(q.evidence)) for q in conv.questions] == [
        ("conv-tiny:0", ["D1:1"]), ("conv-tiny:1", ["D2:1"]), ("conv-tiny:2", ["D1:3", "D2:2"])]


def test_the_older_zip_of_flat_conversations_reads_the_same(tmp_path):
    sample = json.loads(TINY.read_text())[0]
    flat = {**sample["conversation"], **sample["observation"], "qa": sample["qa"]}
    archive = tmp_path / "locomo10.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("data/multimodal_dialog/locomo10_v2/tiny.json", json.dumps(flat))
    (conv,) = data.load(archive)
    (expected,) = data.load(TINY)
    assert conv.sample_id == "conv-tiny"
    assert (conv.turns, conv.facts, conv.questions) == \
        (expected.turns, expected.facts, expected.questions)


def test_recall_at_k_counts_the_evidence_turns_the_top_k_name():
    evidence = frozenset({"D1:3", "D2:2"})
    found = [frozenset({"D1:1"}), frozenset({"D2:2"}), frozenset({"D1:3", "D2:2"})]
    assert data.recall_at(found, evidence, 1) == 0.0
    assert data.recall_at(found, evidence, 2) == 0.5
    assert data.recall_at(found, evidence, 5) == 1.0
    assert data.reciprocal_rank(found, evidence) == 0.5
    assert data.reciprocal_rank(found[:1], evidence) == 0.0
    figures = data.scores([(found, evidence), ([], frozenset({"D1:1"}))])
    assert figures == {"R@1": 0.0, "R@5": 0.5, "R@10": 0.5, "MRR": 0.25, "n": 2.0}


def test_the_split_is_fixed_and_about_even():
    assert data.half_of("conv-26:0") == data.half_of("conv-26:0")
    assert {data.half_of("conv-26:0"), data.half_of("conv-26:1"), data.half_of("conv-26:3")} \
        == set(data.HALVES)
    halves = [data.half_of(f"conv-{c}:{i}") for c in range(10) for i in range(200)]
    assert 0.45 < halves.count("tune") / len(halves) < 0.55


def test_a_whole_run_on_the_tiny_conversation(tmp_path):
    recall = load_bench("recall")
    conversations = data.load(TINY)
    results = recall.run(conversations, "all", tmp_path, ["fts5", "bm25"])
    for grain in ("turns", "facts"):
        for mode in ("fts5", "bm25"):
            figures = results[grain][mode]
            assert figures["n"] == 3
            assert 0 < figures["R@1"] <= figures["R@5"] <= figures["R@10"] <= 1
    assert results["facts"]["bm25"]["R@10"] == pytest.approx(1.0)
