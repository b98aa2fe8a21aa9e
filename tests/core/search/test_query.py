"""The one query language: parsing, the FTS5 expression it makes (never a syntax error, whatever
is typed), the substring filter of ``list --query`` and the app, and the match spans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Memory, MemoryMetadata, MemoryStatus
from core.search.index import SearchIndex
from core.search.query import Plain, compile_filter, fts_expression, parse
from core.search.word_spans import match_spans

ODD = ['"unbalanced quote', 'a "b', '"', '""', '" "', "*", "**", "a*b*", "NEAR(a b)", "a AND b",
       "a OR", "NOT a", "(", ")", "((a))", "a:b", "content:x", "^a", "a + b", "-", "--", "-*",
       '-"', "tag:", "status:", "{a b}", "a'b", "x\x00y", "\x1b[31mred", "ü*", "ß", "日本語",
       "café", "e\u0301", "😀", "a\tb\nc", ":", "tag:*", "-tag:", "NEAR", "AND", "OR", "NOT",
       "a NEAR/2 b", '"a" * "b"', "\\", "%", "_", "a_b", "1.5", "-1", "score<", "score<x"]


def test_terms_of_every_kind():
    q = parse('pytest "on call" deploy* tag:py* entity:Alice status:arch id:1A2B has:gist '
              'score<0.1 -tag:done -flaky')
    kinds = [(t.kind, t.value, t.negated) for t in q.terms]
    assert kinds == [("word", "pytest", False), ("phrase", "on call", False),
                     ("prefix", "deploy", False), ("tag", "py*", False),
                     ("entity", "Alice", False), ("status", "archived", False),
                     ("id", "1a2b", False), ("has", "gist", False), ("compare", "score", False),
                     ("tag", "done", True), ("word", "flaky", True)]
    assert q.errors == [] and q.words == ["pytest", "on call", "deploy"]
    assert q.statuses == {MemoryStatus.ARCHIVED}
    assert fts_expression(q.text_terms) == '"pytest" AND "on call" AND "deploy"*'


def test_an_unknown_field_is_an_error_that_names_the_field_meant():
    q = parse("tags:python deploy")
    assert [t.value for t in q.terms] == ["deploy"]
    assert q.errors == ['tags:python: no field "tags" (did you mean tag:python?); the fields '
                        'are tag:, status:, id:, entity:, has:; quote it ("tags:python") to '
                        "find the words"]
    assert "did you mean entity:Bob?" in parse("entities:Bob").errors[0]
    assert "did you mean" not in parse("content:x").errors[0]
    for word in ("a:b", "10:30", "http://example.org", '"tags:python"', "Tag:py"):
        assert parse(word).errors == [], word


def test_negated_phrase_and_status():
    q = parse('-"on call" -status:active')
    assert [(t.kind, t.value, t.negated) for t in q.terms] == [
        ("phrase", "on call", True), ("status", "active", True)]
    assert MemoryStatus.ACTIVE not in q.statuses and MemoryStatus.ARCHIVED in q.statuses
    assert q.text_terms == [] and not q.has_text


def test_unreadable_terms_are_reported_and_left_out():
    q = parse("score<abc tag: has:wings status:a desk")
    assert len(q.errors) == 4 and q.words == ["desk"]
    q = parse('"unbalanced quote')  # while typing: the quote is a letter
    assert q.errors == [] and q.words == ['"unbalanced', "quote"]
    assert fts_expression(q.text_terms) == '"unbalanced" AND "quote"'


def test_fts_keywords_and_punctuation_are_only_words():
    assert fts_expression(parse("NEAR AND (OR) NOT").text_terms) == \
        '"near" AND "and" AND "or" AND "not"'
    assert fts_expression(parse("pytest-xdist").text_terms) == '"pytest xdist"'
    assert fts_expression(parse("( ) * ^ :").text_terms) is None
    assert not parse("( ) *").has_text


@pytest.mark.parametrize("text", ODD)
def test_odd_input_never_breaks_fts(text):
    index = SearchIndex(None)
    index.sync({"m1": Memory(id="m1", content="near and or not café 日本語 a_b pytest xdist")})
    q = parse(text)
    expression = fts_expression(q.text_terms)
    if expression is not None:
        index.reading.match(expression)  # no sqlite3.OperationalError: fts5 syntax error


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab "*():-^+NEAROTD\\\'{}ü日\x00\n')), max_size=40)
       | st.text(max_size=40))
def test_any_text_parses_into_a_valid_fts_query(text):
    index = _shared_index()
    q = parse(text)
    expression = fts_expression(q.text_terms)
    if expression is not None:
        index.reading.match(expression)


_INDEX: list[SearchIndex] = []


def _shared_index() -> SearchIndex:
    if not _INDEX:
        index = SearchIndex(None)
        index.sync({"m1": Memory(id="m1", content="a b near or and not ü 日本")})
        _INDEX.append(index)
    return _INDEX[0]


def test_filter_matches_substrings_and_fields():
    m = Memory(id="abcd-1", content="Never deploy on Fridays: the on-call rota is thin.",
               meta=MemoryMetadata(tags=["ops", "Work"]), entities=["Alice"])
    c = Plain.of(m, score=0.5, relations=2)

    def ok(text: str) -> bool:
        return compile_filter(parse(text))(c, 0)

    assert ok("FRIDAYS deploy") and ok('"on-call rota"') and ok("dep*") and not ok("ploy*")
    assert ok("tag:work tag:o*") and not ok("tag:home") and ok("-tag:home")
    assert ok("entity:alice") and ok("id:ABCD") and ok("has:relations") and ok("score<0.6")
    assert not ok("has:gist") and not ok("status:archived") and ok("status:active")
    assert not ok("deploy -fridays")


def test_match_spans_find_words_phrases_and_prefixes():
    text = "Deploys go out; the deployment on-call rota. Café déjà vu. CI is fine"
    spans = match_spans(text, parse('deploy "on call" cafe ci').text_terms)
    assert [text[s:e] for s, e in spans] == ["Deploys", "deployment", "on-call", "Café", "CI"]
    assert [text[s:e] for s, e in match_spans(text, parse("dé*").text_terms)] == \
        ["Deploys", "deployment", "déjà"]  # as FTS5 sees it: without diacritics
    assert match_spans(text, parse("is").text_terms) == [(text.index(" is ") + 1,
                                                          text.index(" is ") + 3)]
    assert match_spans("[x] [bold]", parse("bold").text_terms) == [(5, 9)]


def test_a_field_name_with_punctuation_but_no_operator_is_a_word():
    from core.search.query import parse

    for text in ("score!", "age!", "idle?"):
        query = parse(text)
        assert not query.errors and [(t.kind, t.value) for t in query.terms] == [("word", text)]
    for text in ("score!=", "uses>", "age<x"):
        assert parse(text).errors and not parse(text).terms


def test_ranked_terms_leave_out_question_words_and_stopwords():
    assert [t.value for t in parse("When did Caroline go to the LGBTQ support group?")
            .ranked_terms] == ["Caroline", "go", "LGBTQ", "support", "group?"]
    assert [t.value for t in parse("What is Melanie's hobby?").ranked_terms] == \
        ["melanie", "hobby?"]  # a possessive is its name
    assert [t.value for t in parse('the "the who" -of').ranked_terms] == ["the who"]
    assert [t.value for t in parse("what is it").ranked_terms] == ["what", "is", "it"]
    assert parse("( * ) tag:x").ranked_terms == []
