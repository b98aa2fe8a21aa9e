"""High-entropy tokens (core.secrets.entropy): the checks that look back along a token's line
(a digest's name right before it, an id's name before its first place) answer as
detect-secrets' own and the old search from the line's start did, on lines of any length."""

from __future__ import annotations

import random
import re

from detect_secrets.filters import heuristic

from core.secrets.entropy import _Lines, _named_digest, high_entropy

OLD_DIGEST_NAME = re.compile(r"(?:hash|md5|sha\d*|digest|checksum)[\"']?\s*[:=]\s*[\"']?$",
                             re.IGNORECASE)
TOKEN = "3f0c0f0d5d1b7b2f0a3e1c9d8b7a6f5e"
PIECES = ["hash", "MD5", "sha", "256", "digest", "checksum", '"', "'", " ", "  ", ":", "=",
          "x", "_id", "id", "userid", "s", "-", "\n", ",", TOKEN, "q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6T"]


def test_a_digest_name_right_before_a_token_is_found_as_the_old_search_did():
    rng = random.Random(5)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) + TOKEN
        start = len(text) - len(TOKEN)
        line_start = text.rfind("\n", 0, start) + 1
        old = OLD_DIGEST_NAME.search(text, line_start, start) is not None
        assert _named_digest(text, [], line_start, start) == old, text


def test_an_id_name_before_a_token_is_found_as_detect_secrets_does():
    rng = random.Random(6)
    for _ in range(1500):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 25)))
        lines = _Lines(text)
        for token in sorted({TOKEN, "q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6T"}, key=text.find):
            at = text.find(token)
            if at < 0:
                continue
            line_start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            line = text[line_start: len(text) if end < 0 else end]
            assert lines.likely_id(at, token, heuristic) == \
                heuristic.is_likely_id_string(token, line), text


def test_tokens_on_one_endless_line_are_judged_each_by_its_own_line_part():
    tokens = [f"{i:04d}q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6T" for i in range(2000)]
    text = " ".join(tokens) + ' user_id "ZZ9q8Zr3Lw0Xp7Vn2Ks5Jd9Hf4Gb6T" md5: ' + TOKEN
    found = list(high_entropy(text, heuristic, None))
    assert len(found) == 2000  # the id-named token and the named digest are not secrets
    assert found[-1][1] == text.index(tokens[-1])
