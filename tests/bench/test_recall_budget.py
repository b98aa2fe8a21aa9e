"""bench/recall_budget.py on the tiny conversation of LoCoMo's shape (tests/bench/locomo_tiny.json):
sessions as memories, when a gist line still says a turn, and one whole run of gist-first
recall against the content in a token budget."""

from __future__ import annotations

from pathlib import Path

from bench_support import load_bench

TINY = Path(__file__).resolve().parent / "locomo_tiny.json"



data = load_bench("recall_data")
budget = load_bench("recall_budget")


def test_a_session_is_one_memory_naming_its_turns():
    (conv,) = data.load(TINY)
    sessions = budget.session_items(conv.turns, data.Item)
    assert [s.key for s in sessions] == ["s-001", "s-002"]
    assert sessions[0].turns == {"D1:1", "D1:2", "D1:3"}
    assert sessions[0].text.splitlines()[0] == conv.turns[0].text
    assert sessions[1].at == conv.turns[3].at


def test_a_gist_line_says_a_turn_when_it_keeps_most_of_its_words():
    turn = "Ada: Hi Ben! I adopted a grey cat named Pixel last week."
    assert budget.says("[s-001] I adopted a grey cat named Pixel last week. (tags: )", turn)
    assert not budget.says("[s-001] Ben grows tomatoes in a raised bed. (tags: )", turn)
    assert budget.says("the the", "the")  # no content term: verbatim


def test_a_whole_run_reports_evidence_per_thousand_tokens(tmp_path):
    recall = load_bench("recall")
    text = budget.report(data.load(TINY), "all", 200, tmp_path, recall.build_vault, data,
                         recall.ASKED_AFTER)
    rows = [line.split() for line in text.splitlines()[2:]]
    assert [(r[0], r[1]) for r in rows] == [(g, f) for g in budget.GRANULARITIES
                                            for f in budget.FORMS]
    for grain, form, evidence, tokens, per_1k, gists in rows:
        assert 0 < float(evidence) <= 1 and 0 < float(tokens) <= 200 and float(per_1k) > 0
        assert form == "gist" or float(gists) == 0
