"""The split draft's figures on the sentences it is measured on (``bench/drafts.py`` row 4, own
sentences: ``bench/data/two_fact_sentences.tsv``; docs/gists.md): no change to the draft may
make them worse. 20 sentences of two facts, 20 of one: 17 cut, every cut right (the three
missed: a plain noun as subject, two clauses that point back with *it*)."""

from __future__ import annotations

from pathlib import Path

from core.model.records import Memory
from core.ops.split import suggest_split
from core.ops.split_clauses import two_facts

SENTENCES = Path(__file__).resolve().parents[3] / "bench" / "data" / "two_fact_sentences.tsv"


def _rows() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in SENTENCES.read_text(encoding="utf-8").splitlines():
        facts, sentence, parts = line.split("\t")
        rows.append((facts, sentence, parts.split(" | ") if parts else []))
    return rows


def test_the_own_sentences_are_cut_where_the_figures_say():
    rows = _rows()
    assert len(rows) == 40 and sum(f == "2" for f, _, _ in rows) == 20
    cut = [(f, s, want) for f, s, want in rows if len(two_facts(s)) > 1]
    assert len(cut) >= 17
    assert all(f == "2" and two_facts(s) == want for f, s, want in cut)  # precision 1.0


def test_a_note_made_of_those_sentences_as_paragraphs_is_drafted_as_each_alone():
    """The same draft inside a note of paragraphs (issue 42: a paragraph was one part, so the
    cut was made only in a note of one paragraph): each paragraph gives the parts it gives as
    a note of its own."""
    rows = [s for f, s, want in _rows() if f == "2" and len(two_facts(s)) > 1]

    def draft(text: str) -> list[str]:
        return [p.content for p in suggest_split(Memory(id="m-corpus", content=text))]

    alone = [part for s in rows for part in draft(s)]
    assert len(alone) > len(rows)  # (most are two parts alone; a few facts of one topic rejoin)
    assert draft("\n\n".join(rows)) == alone
