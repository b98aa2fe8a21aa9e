"""bench/search_questions.txt and the two-word queries bench/scale.py makes of them: 200
questions, each with a query of two words the bench's memories use (so both rows rank hits)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _scale():
    spec = importlib.util.spec_from_file_location("memvault_bench_scale", BENCH / "scale.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_question_has_a_two_word_query_of_the_vocabulary():
    scale = _scale()
    source = (BENCH / "run.py").read_text()
    words = set(re.search(r'WORDS = """(.*?)"""', source, re.S).group(1).split())
    questions = scale.load_questions()
    assert len(questions) == len(set(questions)) == 200
    assert all(q.endswith("?") or len(q.split()) >= 6 for q in questions)
    twos = scale.two_word_queries(questions, words)
    assert all(len(t.split()) == 2 and set(t.split()) <= words - scale.FUNCTION_WORDS
               for t in twos)
