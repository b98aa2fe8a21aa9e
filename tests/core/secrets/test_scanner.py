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


# -- secrets said in words (core.secrets.prose) -------------------------------------------------
UUID = "3f8c2a1e-9b7d-4c3e-8f1a-2b3c4d5e6f70"
HEX40 = "9fceb02d0ae598e95dc970b74767f19372d61af8"
SAID = [
    ("named-key", f"HEROKU_API_KEY {UUID}", UUID),
    ("named-key", f"the deploy key is {HEX40}, keep it safe", HEX40),
    ("named-key", f"our api key: {HEX40[:32]}", HEX40[:32]),
    ("named-key", "client secret is q8Zt3nR5vW7yB2mK9pL4.", "q8Zt3nR5vW7yB2mK9pL4"),
    ("named-key", f"set STRIPE_WEBHOOK_SECRET to {UUID}", UUID),
    ("named-key", "the mailgun key is 7c2f8a91b4e3d6f0a5b8c1e4", "7c2f8a91b4e3d6f0a5b8c1e4"),
    ("named-key", "mailgun key: 7c2f8a91b4e3d6f0.", "7c2f8a91b4e3d6f0"),
    ("named-key", "our twilio-key = 'q8Zt3nR5vW7yB2mK9pL4'", "q8Zt3nR5vW7yB2mK9pL4"),
    ("named-key", "The Mailgun key is key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
     "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    ("named-key", "sendgrid token = 7c2f8a91b4e3d6f0a5b8c1e4", "7c2f8a91b4e3d6f0a5b8c1e4"),
    ("password-in-prose", "her bank password is Tr0ub4dor&3", "Tr0ub4dor&3"),
    ("password-in-prose", "the wifi password for the guest network is 'CoffeeShop2024'",
     "CoffeeShop2024"),
    ("password-in-prose", "DB_PASSWORD hunter22!", "hunter22!"),
]
NOT_SAID = [
    f"memory {UUID} was merged into the parent",
    f"fixed in commit {HEX40} (see the changelog)",
    f"the request id was {UUID} and it timed out",
    "the password is required for every login",
    "password was reset on 2024-01-02 by the admin",
    "bcrypt-based password hashes are slow on purpose",
    "the token count is 123456 for this prompt",
    "the primary key is the uuid column",
    "the primary key is user_12345678901234",
    "the sort key is created_at_2024_01_01 in that table",
    f"the cache key is {HEX40}",
    f"the idempotency key is {UUID}",
    "the release key is build-2024.01.15-rc1",
    "the api key is stored in $HEROKU_API_KEY, never in the repo",
    "rotate the deploy key every 90 days",
    "the secret to good coffee is freshly ground beans",
    "use the API key from https://vault.example.com/v1/secret/data/app",
    "password is [REDACTED:password-in-prose] now",
    "pin: 3f2a1b4c keep this one",  # memvault's own commit messages
]


@pytest.mark.parametrize("kind, text, secret", SAID, ids=[t[:24] for _k, t, _s in SAID])
def test_a_secret_named_by_its_keyword_in_prose_is_found(kind, text, secret):
    hits = scan_text(text)
    assert [(h.kind, text[h.start:h.end]) for h in hits] == [(kind, secret)]


@pytest.mark.parametrize("text", NOT_SAID)
def test_ids_and_words_near_a_keyword_are_not_secrets(text):
    assert scan_text(text) == []
