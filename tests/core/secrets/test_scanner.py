"""The scanner (core.secrets.scanner): each kind of secret is found at its place, prose and the
ids memories are full of are not, and redaction replaces exactly the secret."""

from __future__ import annotations

import pytest
from secrets_support import AWS, CLEAN, PASSWORD, PLANTED

from core.secrets.scanner import redact_record, redact_text, scan_record, scan_text


@pytest.mark.parametrize("kind, text, secret", PLANTED, ids=[p[0] for p in PLANTED])
def test_each_kind_is_found_where_it_is(kind, text, secret):
    hits = scan_text(text)
    assert [h.kind for h in hits] == [kind]
    assert text[hits[0].start:hits[0].end] == secret


@pytest.mark.parametrize("text", CLEAN)
def test_prose_ids_and_commit_names_are_not_secrets(text):
    assert scan_text(text) == []


def test_redaction_replaces_the_secret_and_keeps_the_rest():
    text = f"key {AWS} and db password = {PASSWORD} done"
    assert redact_text(text, scan_text(text)) == (
        "key [REDACTED:aws-key] and db password = [REDACTED:password-assignment] done")


def test_every_text_field_of_a_record_is_scanned_with_its_place():
    record = {"id": "AKIAIOSFODNN7EXAMPLE", "content": f"xx {AWS}", "gist": None,
              "entities": ["ok", AWS],
              "meta": {"tags": ["fine", AWS], "source": f"from {AWS}", "context": None,
                       "extra": {"password": PASSWORD, "n": 3}},
              "embed": None, "created_at": 1}
    found = {(f.field, f.start, f.kind) for f in scan_record(record)}
    assert found == {("content", 3, "aws-key"), ("entities[1]", 0, "aws-key"),
                     ("meta.tags[1]", 0, "aws-key"), ("meta.source", 5, "aws-key"),
                     ("meta.extra.password", 0, "password-assignment")}  # never the id
    clean, findings = redact_record(record)
    assert len(findings) == 5
    assert clean["meta"]["extra"] == {"password": "[REDACTED:password-assignment]", "n": 3}
    assert clean["meta"]["tags"] == ["fine", "[REDACTED:aws-key]"]
    assert clean["id"] == record["id"]
    assert scan_record(clean) == []


@pytest.mark.parametrize("text", ['"hash": "3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e"',
                                  "md5=9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d",
                                  "checksum: 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"])
def test_a_hex_digest_named_so_is_not_a_secret(text):
    assert scan_text(text) == []
    assert scan_record({"meta": {"extra": {"mem0": {"hash": text.split()[-1].strip('"')}}}}) == []


def test_the_same_hex_without_a_digest_name_still_is():
    assert [h.kind for h in scan_text("key 3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e")] == \
        ["high-entropy-hex"]
    assert [h.kind for h in scan_text('"hash_of_nothing": "x", "token": '
                                      '"3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e"')] == \
        ["high-entropy-hex"]
