"""The scanner's shortcuts (core.secrets.scanner, .prose, .entropy) skip only places where no
secret can be: on huge texts, on texts with secrets planted anywhere (at window borders, at the
end of megabytes, on one endless line), the findings are those of every pattern run
everywhere (``scan_text(text, exhaustive=True)``), and the spots that made the old scanner
super-linear are searched once."""

from __future__ import annotations

import random

import pytest
from secrets_support import AWS, CLEAN, GITHUB, JWT, PASSWORD, PLANTED, PRIVATE_KEY
from test_scanner import NOT_SAID, SAID

from core.secrets import scanner
from core.secrets.scanner import scan_text

SECRETS = [text for _kind, text, _secret in PLANTED + SAID] + [
    "AccountKey=" + "a" * 40 + "B1" * 24, "https://user:pa55word@host.example.com/x",
    "sk_live_" + "a1B2" * 6, "api_key = 'Zx9Qw8Er7Ty6'", "password: hunter2!x",
    "MY_SERVICE_PAT ghp123abcXYZ987qwe", "x.y.mailgun_key: 7c2f8a91b4e3d6f0a5b8c1e4",
    "3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e", '"sha256": "3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e"',
    "user_id=q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6Tc1Ym0Ue", "xoxp-1-2-abc", "1234567890:" + "aB3" * 11 + "c",
    "M" + "a1" * 12 + ".abcdef." + "Q" * 27, "a" * 32 + "-us12", "pin code: 4921ab!",
    "secret key is 9fceb02d0ae598e95dc970b74767f19372d61af8", "PASSWORD=Xy7!pq", GITHUB, JWT]
#: pieces random texts are made of: keywords, names, separators, tokens, and the letters
#: ``re.IGNORECASE`` equates with ASCII ones (``ſ``, ``ı``, the Kelvin sign)
PIECES = ["key", "KEY", "pass", "PASSWORD", "pwd", "pin", "secret", "token", "_PAT", "_KEY",
          " is ", ": ", "=", " ", "-", "_", ".", "\n", "'", "api", "access", "client",
          "personal", "mailgun", "x", "Q7", "9f", "ab12CD34ef56", "q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6Tc1Ym",
          "id", "_id ", "hash: ", "sha1=", "3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e", "\u017f", "\u0131",
          "\u212a", "é", "AKIA", "IOSFODNN7EXAMPLE", "://", "@", '"', "aws", "for the prod ",
          "1234567890", "eyJ", "-----BEGIN RSA PRIVATE KEY-----"]


def prose(size: int) -> str:
    """``size`` characters of Python's documentation topics (prose with code, offline)."""
    from pydoc_data.topics import topics

    text = "\n\n".join(topics[k] for k in sorted(topics))
    return (text * (size // len(text) + 1))[:size]


def spans(text: str, **how: bool) -> list[tuple[str, int, int]]:
    """The scanner's findings as (kind, start, end)."""
    return [(hit.kind, hit.start, hit.end) for hit in scan_text(text, **how)]


def test_a_secret_at_the_end_of_two_megabytes_is_found():
    huge = prose(2_000_000)
    places = []
    for kind, text, secret in PLANTED:
        huge += "\n"
        places.append((kind, len(huge) + text.index(secret),
                       len(huge) + text.index(secret) + len(secret)))
        huge += text
    found = spans(huge)
    assert [hit for hit in found if hit[1] >= 2_000_000] == places
    assert found == spans(huge, exhaustive=True)


def test_findings_are_those_of_every_pattern_run_everywhere_on_the_corpus():
    for text in [text for _kind, text, _secret in PLANTED] + CLEAN + NOT_SAID + SECRETS:
        assert spans(text) == spans(text, exhaustive=True), text


def test_random_keyword_laden_texts_give_the_same_findings_both_ways():
    rng = random.Random(41)
    found_any = 0
    for _ in range(400):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(5, 60)))
        fast = spans(text)
        assert fast == spans(text, exhaustive=True), text
        found_any += bool(fast)
    assert found_any > 50  # (the texts do hold secrets: the check compares something)


@pytest.mark.parametrize("one_line", [False, True], ids=["lines", "one-line"])
def test_secrets_planted_at_random_offsets_in_a_long_text_give_the_same_findings(one_line):
    rng = random.Random(7 + one_line)
    base = prose(200_000)
    for _ in range(3):
        text = base
        for _ in range(6):
            at = rng.randrange(len(text))
            text = (text[:at] + rng.choice(["", " ", "\n", "x", "-", "."]) + rng.choice(SECRETS)
                    + rng.choice(["", " ", "\n", ".", "_"]) + text[at:])
        text = text.replace("\n", " ") if one_line else text
        assert spans(text) == spans(text, exhaustive=True)
        assert spans(text)


def test_a_secret_at_each_offset_around_a_window_border_is_found_the_same_way():
    token = "see /usr/local/lib/python3.11/site-packages for it "  # a window around the path
    for gap in range(0, 90, 3):
        for secret in (AWS, f"db password = {PASSWORD}", "the mailgun key is 7c2f8a91b4e3d6f0a5b8"):
            text = "word " * 40 + token + "x" * gap + " " + secret + " and more words " * 5
            assert spans(text) == spans(text, exhaustive=True), (gap, secret)
            assert spans(text), (gap, secret)


def test_a_text_lower_cannot_fold_is_scanned_the_whole_way():
    from core.secrets.keywords import FoldedText

    text = "\u0130stanbul: the deploy key is 9fceb02d0ae598e95dc970b74767f19372d61af8"
    assert FoldedText(text).fold is None
    assert spans(text) == spans(text, exhaustive=True) == [("named-key", 28, 68)]


def test_many_key_headers_without_an_end_line_look_for_it_once(monkeypatch):
    searches = []
    real = scanner._KEY_END

    class Counting:
        """_KEY_END, counting its searches."""

        def search(self, *args):
            searches.append(args[1:])
            return real.search(*args)

    monkeypatch.setattr(scanner, "_KEY_END", Counting())
    text = "-----BEGIN RSA PRIVATE KEY-----\n" * 500
    assert len(spans(text)) == 1  # (the first block runs to the text's end)
    assert len(searches) <= 2
    closed = (PRIVATE_KEY + "\n") * 3
    step = len(PRIVATE_KEY) + 1
    assert spans(closed) == [("private-key", at, at + step - 1) for at in (0, step, 2 * step)]


def test_a_long_run_of_jwt_starts_is_passed_over_at_once():
    text = "eyJ" * 20_000 + " then eyJhbGciOi.eyJzdWIi.sig"
    matches = list(scanner._finditer(next(p for k, p, _l in scanner._detectors()[0]
                                          if k == "jwt"), text))
    assert [m.group() for m in matches] == ["eyJhbGciOi.eyJzdWIi."]
    assert spans(text) == [("jwt", text.index("eyJhbG"), len(text))]
