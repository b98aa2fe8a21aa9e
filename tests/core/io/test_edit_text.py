"""The text a person edits in $EDITOR (core/io/edit_text.py): it round-trips exactly (hostile
content included), a file that does not parse says why and where, and only changed fields are
written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Memory, MemoryMetadata
from core.io.edit_text import (
    SEPARATOR,
    EditFields,
    EditTextError,
    changes,
    format_list,
    from_bytes,
    parse,
    parse_list,
    parse_strength,
    render,
    to_bytes,
)

HOSTILE = [
    "plain",
    "ends with spaces   ",
    "ends with newlines\n\n",
    "\n\nstarts with newlines",
    f"holds the separator\n{SEPARATOR}\nand goes on\n",
    f"{SEPARATOR}",
    "escape \x1b[31mred\x1b[0m bell \x07 nul \x00 del \x7f c1 \x85\x9b",
    "crlf line\r\nand a lone \r carriage return\r\n",
    "unicode: café, 日本語, emoji 🧠, combining e\u0301, rtl \u202e",
    "# looks like a comment\ngist: looks like a header\n",
    "\t tabs \t",
    "lone surrogate \ud800 kept",
    "no final line break",
]


def memory(content: str = "text", **kw) -> Memory:
    meta = MemoryMetadata(tags=kw.pop("tags", []), source="chat", extra={"k": 1})
    return Memory(id="1a2b3c4d-0000-4000-8000-000000000001", content=content, meta=meta, **kw)


@pytest.mark.parametrize("content", HOSTILE)
def test_hostile_content_round_trips_byte_exact(content):
    m = memory(content, gist="a gist", tags=["a", "b"], entities=["E"], strength=1.3)
    text = from_bytes(to_bytes(render(m)))
    assert parse(text, m) == EditFields.of(m)
    assert changes(m, parse(text, m)) == {}


@pytest.mark.parametrize("gist", [None, "", " spaced ", '"quoted"', "[bracket", "two\nlines",
                                  "ctl \x1b[2J", "# hash", "colon: inside"])
@pytest.mark.parametrize("tags", [[], ["a"], ["with, comma"], [" space"], ['"q'], ["[x"],
                                  ["tab\tin"], ["ünï", "🧠"]])
def test_hostile_header_values_round_trip(gist, tags):
    m = memory("body", gist=gist, tags=tags, entities=tags[::-1])
    fields = parse(render(m), m)
    assert fields.tags == tuple(tags) and fields.entities == tuple(tags[::-1])
    assert fields.gist == (gist or None)
    assert changes(m, fields) == {}


@settings(max_examples=150, deadline=None)
@given(content=st.text(min_size=1).filter(str.strip), gist=st.none() | st.text(),
       tags=st.lists(st.text().filter(str.strip), max_size=4, unique=True),
       strength=st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_any_memory_round_trips(content, gist, tags, strength):
    tags = [t for t in dict.fromkeys(tags)]
    m = memory(content, gist=gist, tags=tags, strength=strength)
    text = from_bytes(to_bytes(render(m)))
    fields = parse(text, m)
    assert fields.content == content and fields.strength == strength
    assert changes(m, fields) == {}


def test_the_file_is_plain_text_not_json():
    m = memory("The user prefers pytest.\n", gist="Prefers pytest", tags=["prefs", "python"],
               entities=["pytest"])
    text = render(m)
    assert "gist: Prefers pytest\ntags: prefs, python\nentities: pytest\nstrength: 1.0\n" in text
    assert text.endswith(f"{SEPARATOR}\nThe user prefers pytest.\n\n")
    assert "{" not in text


def test_an_editor_that_drops_the_last_line_break_loses_nothing():
    m = memory("no break")
    assert parse(render(m).rstrip("\n"), m).content == "no break"


def test_edits_are_read_and_keys_left_out_keep_their_value():
    m = memory("old", gist="old gist", tags=["a"], entities=["E"], strength=1.0)
    text = f"tags: x, y ,, x\nstrength: 1.5\n{SEPARATOR}\nnew text\n"
    f = parse(text, m)
    assert f == EditFields("new text", "old gist", ("x", "y"), ("E",), 1.5)
    ch = changes(m, f)
    assert set(ch) == {"content", "meta", "strength"}  # the unchanged gist is made anew
    assert ch["meta"]["tags"] == ["x", "y"] and ch["meta"]["extra"] == {"k": 1}


@pytest.mark.parametrize("text,where,words", [
    ("gist: x\nno separator", None, "separator line is missing"),
    (f"colour: red\n{SEPARATOR}\nx", 1, "not one of gist, tags"),
    (f"strength: strong\n{SEPARATOR}\nx", 1, "strength must be a number"),
    (f"strength: -1\n{SEPARATOR}\nx", 1, "0 or more"),
    (f"strength: nan\n{SEPARATOR}\nx", 1, "finite"),
    (f"#c\ngist: \"open\n{SEPARATOR}\nx", 2, "one JSON string"),
    (f"tags: [1, 2]\n{SEPARATOR}\nx", 1, "JSON array of strings"),
    (f"tags: a\ntags: b\n{SEPARATOR}\nx", 2, "given twice"),
    (f"gist: g\n{SEPARATOR}\n", None, "text is empty"),
    (f"gist: g\n{SEPARATOR}\n  \n\n", None, "text is empty"),
])
def test_what_does_not_parse_says_why_and_where(text, where, words):
    with pytest.raises(EditTextError) as err:
        parse(text, memory())
    assert err.value.line == where and words in str(err.value)


def test_lists_and_strength_helpers():
    assert parse_list('["a, b", "c"]') == ("a, b", "c")
    assert parse_list(format_list(["a, b", "c"])) == ("a, b", "c")
    assert parse_list("  ") == ()
    assert parse_strength(" 2 ") == 2.0
    with pytest.raises(EditTextError):
        parse_strength("inf")


def test_a_file_that_is_not_utf8_is_refused():
    with pytest.raises(EditTextError, match="not UTF-8"):
        from_bytes(b"gist: \xff\xfe")
