"""bench/search_questions.txt and the two-word queries bench/scale.py makes of them: 200
questions, each with a query of two words the bench's memories use (so both rows rank hits)."""

from __future__ import annotations

import re
from pathlib import Path

from bench_support import load_bench

BENCH = Path(__file__).resolve().parents[2] / "bench"



def test_each_question_has_a_two_word_query_of_the_vocabulary():
    scale = load_bench("scale")
    source = (BENCH / "run.py").read_text()
    words = set(re.search(r'WORDS = """(.*?)"""', source, re.S).group(1).split())
    questions = scale.load_questions()
    assert len(questions) == len(set(questions)) == 200
    assert all(q.endswith("?") or len(q.split()) >= 6 for q in questions)
    twos = scale.two_word_queries(questions, words)
    assert all(len(t.split()) == 2 and set(t.split()) <= words - scale.FUNCTION_WORDS
               for t in twos)
