"""Finding secrets in text: the detectors of Yelp's ``detect-secrets`` (cloud provider keys,
GitHub/GitLab/Slack/Stripe/OpenAI/... tokens, private key blocks, JWTs, password assignments),
used as a library on strings, plus a high-entropy pass over the tokens of prose.

``detect-secrets`` is made for source files: its keyword detector wants quotes, its entropy
detectors look only inside quoted strings, and some of its patterns capture only a token's
prefix. So this module takes its regular expressions and heuristics, not its file scanner:

* every regex detector's ``denylist`` runs around each run of token characters (the windows);
  the span is the whole match (a capture group of 16+ characters when the pattern has one),
  a JWT's extended over its signature, a private key header over the block to its ``END``;
* password assignments (``password: x``, ``api_key = x``): :mod:`core.secrets.assignments`;
* secrets said in words (``HEROKU_API_KEY 3f8c...``): :mod:`core.secrets.prose`;
* high-entropy tokens: :mod:`core.secrets.entropy`.

Linear in the text's length and quick on megabytes of prose: in each window run only the
detectors whose required text is there (:mod:`core.secrets.keywords`), keywords found with
``str.find``. A shortcut only skips places where no match can be: ``scan_text(text,
exhaustive=True)`` runs every pattern over all of its range, with the same findings (the
tests hold them equal; docs/secrets.md). Offsets are character offsets in the string
scanned. Nothing here reads or writes files.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .assignments import NEEDS, PASSWORD, keyword_matches, passwords
from .entropy import HIGH_ENTROPY, HIGH_ENTROPY_HEX, high_entropy
from .keywords import FoldedText, required_literals
from .prose import named_secrets

#: the ``detect-secrets`` secret types scanned, by the short kind memvault shows
#: (``[REDACTED:<kind>]``); its public-IP detector is left out (an address is not a secret)
KINDS: dict[str, str] = {
    "AWS Access Key": "aws-key",
    "Azure Storage Account access key": "azure-storage-key",
    "Artifactory Credentials": "artifactory-token",
    "Basic Auth Credentials": "basic-auth-credentials",
    "Cloudant Credentials": "cloudant-credentials",
    "Discord Bot Token": "discord-token",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "IBM Cloud IAM Key": "ibm-cloud-key",
    "IBM COS HMAC Credentials": "ibm-cos-key",
    "JSON Web Token": "jwt",
    "Mailchimp Access Key": "mailchimp-key",
    "NPM tokens": "npm-token",
    "OpenAI Token": "openai-key",
    "Private Key": "private-key",
    "PyPI Token": "pypi-token",
    "SendGrid API Key": "sendgrid-key",
    "Slack Token": "slack-token",
    "SoftLayer Credentials": "softlayer-credentials",
    "Square OAuth Secret": "square-oauth-secret",
    "Stripe Access Key": "stripe-key",
    "Telegram Bot Token": "telegram-token",
    "Twilio API Key": "twilio-key",
}
__all__ = ["HIGH_ENTROPY", "HIGH_ENTROPY_HEX", "KINDS", "PASSWORD", "Finding", "Hit",
           "redact_record", "redact_text", "scan_record", "scan_text"]
_JWT_TAIL = re.compile(r"[A-Za-z0-9_\-.+/=]*")
_KEY_END = re.compile(r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----")
_KEY_START = re.compile(r"-----\s*$")
_CANDIDATE = re.compile(r"[A-Za-z0-9_\-+/=.:@]{11,}")
_PLAIN_WORD = re.compile(r"[A-Za-z]?[a-z]+[.,:;]?")
_ANCHORS = re.compile(r"PRIVATE KEY|PuTTY-User-Key|://")
_BEFORE, _AFTER = 64, 16  # context the detectors' patterns look at around a token


@dataclass(frozen=True)
class Hit:
    """One secret in one string: its kind and its span (character offsets)."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class Finding:
    """A secret in a record: ``field`` is where (``content``, ``meta.tags[1]``,
    ``meta.extra.api``), ``start``/``end`` the character offsets in that field's text, and
    ``value`` the secret itself (never printed: messages show the kind and the place)."""

    kind: str
    field: str
    start: int
    end: int
    value: str

    def where(self) -> str:
        return f"{self.field} at offset {self.start}"


@functools.lru_cache(maxsize=1)
def _detectors() -> tuple[list[tuple[str, Any, frozenset[str] | None]], Any, Any]:
    """(kind, compiled pattern, the text one of which its every match holds, or None) of every
    regex detector; the keyword patterns; the filters.
    Imported once, on first use (``detect-secrets`` takes ~0.3 s to import)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins import keyword
    from detect_secrets.plugins.base import RegexBasedDetector

    patterns: list[tuple[str, Any, frozenset[str] | None]] = []
    detectors: dict[str, Any] = get_mapping_from_secret_type_to_class()  # (no types)
    for secret_type, plugin_class in sorted(detectors.items()):
        kind = KINDS.get(secret_type)
        if kind is None or not issubclass(plugin_class, RegexBasedDetector):
            continue
        for pattern in plugin_class().denylist:
            patterns.append((kind, pattern, required_literals(pattern)))
    NEEDS.update({
        keyword.FOLLOWED_BY_COLON_REGEX.pattern: ":",
        keyword.PRECEDED_BY_EQUAL_COMPARISON_SIGNS_QUOTES_REQUIRED_REGEX.pattern: "=",
        keyword.FOLLOWED_BY_EQUAL_SIGNS_REGEX.pattern: "=",
        keyword.FOLLOWED_BY_QUOTES_AND_SEMICOLON_REGEX.pattern: ";",  # and a quote
    })
    return patterns, keyword.CONFIG_DENYLIST_REGEX_TO_GROUP, heuristic


def scan_text(text: str, *, exhaustive: bool = False) -> list[Hit]:
    """Every secret in ``text``, in order, without overlaps (a longer or earlier span wins).
    ``exhaustive`` runs every pattern over all of its range, without the keyword shortcuts:
    slower on long texts, the same findings (the reference the tests compare with)."""
    if not isinstance(text, str) or len(text) < 8:
        return []
    folded = FoldedText(text) if not exhaustive else None
    if folded is not None and folded.fold is None:
        folded = None  # (a text ``str.lower`` cannot fold safely: the whole way)
    windows = _windows(text)
    keywords = keyword_matches(text, folded)
    named = [Hit(kind, start, end) for kind, start, end in named_secrets(text, folded)]
    if not windows and not keywords:  # no token, no keyword: ``detect-secrets`` finds nothing
        return _without_overlaps(named)  # (and is not imported: a commit subject, most prose)
    patterns, keyword_patterns, heuristic = _detectors()
    hits: list[Hit] = []
    every_literal, last_end = _every_literal(), [-1, -1, -1]
    for low, high in windows:
        window = text[low:high]
        present = None
        if folded is not None and folded.fold is not None:
            folded_window = folded.fold[low:high]
            present = {literal for literal in every_literal if literal in folded_window}
        for kind, pattern, literals in patterns:
            if present is not None and literals is not None and literals.isdisjoint(present):
                continue  # (no text this detector needs is here: it cannot match)
            for match in _finditer(pattern, window):
                start, end = _span(match)
                start, end = start + low, end + low
                if kind == "jwt":
                    tail = _JWT_TAIL.match(text, end)
                    end = tail.end() if tail is not None else end
                elif kind == "private-key":
                    start, end = _key_block(text, start, end, last_end)
                if end > start:
                    hits.append(Hit(kind, start, end))
    if keywords:
        hits.extend(Hit(kind, start, end) for kind, start, end in passwords(
            text, keywords, keyword_patterns, heuristic))
    hits.extend(named)
    hits.extend(Hit(kind, start, end) for kind, start, end in high_entropy(
        text, heuristic, None if exhaustive else windows))
    return _without_overlaps(hits)


@functools.lru_cache(maxsize=1)
def _every_literal() -> frozenset[str]:
    """Every text some detector needs (each looked for once a window)."""
    return frozenset(lit for _kind, _pattern, literals in _detectors()[0] for lit in literals or ())


def _windows(text: str) -> list[tuple[int, int]]:
    """The parts of ``text`` the token detectors need to look at: around each run of 11+
    token characters that is not a plain word (every token they know is one), and around a
    private key header or a ``scheme://``; merged. Prose has few: scanning it costs little."""
    spans = []
    for match in _CANDIDATE.finditer(text):
        if not _PLAIN_WORD.fullmatch(match.group()):
            spans.append((match.start() - _BEFORE, match.end() + _AFTER))
    for match in _ANCHORS.finditer(text):
        spans.append((match.start() - _BEFORE, match.end() + _AFTER))
    merged: list[tuple[int, int]] = []
    for low, high in sorted(spans):
        low, high = max(0, low), min(len(text), high)
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


#: detect-secrets' JWT pattern: ``eyJ``, a run of the class below, a ``.``... Tried at every
#: ``eyJ`` of a long run of that class (``eyJeyJ...``), it runs to the run's end each time.
_JWT = r"eyJ[A-Za-z0-9-_=]+\.[A-Za-z0-9-_=]+\.?[A-Za-z0-9-_.+/=]*?"
_JWT_RUN = re.compile(r"[A-Za-z0-9-_=]*")


def _finditer(pattern: re.Pattern[str], window: str) -> Iterator[re.Match[str]]:
    """``pattern.finditer(window)``; for the JWT pattern, each run of its class looked at
    once: a match needs a ``.`` right after the run its ``eyJ`` is in (the run holds no ``.``),
    so every ``eyJ`` of a run not followed by one is passed over at once."""
    if pattern.pattern != _JWT or pattern.flags & ~re.UNICODE:
        yield from pattern.finditer(window)
        return
    at = window.find("eyJ")
    while at >= 0:
        run = _JWT_RUN.match(window, at)
        assert run is not None  # (a starred class always matches)
        if window[run.end():run.end() + 1] != ".":
            at = window.find("eyJ", run.end())
            continue
        match = pattern.match(window, at)
        if match is not None:
            yield match
        at = window.find("eyJ", match.end() if match is not None else at + 1)


def _span(match: re.Match[str]) -> tuple[int, int]:
    best = (match.start(), match.end())
    for group in range(1, (match.re.groups or 0) + 1):
        s, e = match.span(group)
        if s >= 0 and e - s >= 16:
            return s, e
    return best


def _key_block(text: str, start: int, end: int, last_end: list[int]) -> tuple[int, int]:
    """A private key header's block: from the ``-----`` before it on its line to its ``END``
    line (or the text's end). ``last_end`` is the last search for an ``END`` line (from,
    where the one found starts, where it ends; -1 when none): many headers without an
    ``END`` cost one search, not one each."""
    line_start = text.rfind("\n", 0, start) + 1
    dashes = text.rfind("-----", line_start, start)
    if dashes >= 0:
        start = dashes
    since, found_start, found_end = last_end
    if not (0 <= since <= end and (found_start < 0 or found_start >= end)):
        found = _KEY_END.search(text, end)
        last_end[:] = [end, found.start(), found.end()] if found else [end, -1, -1]
        found_end = last_end[2]
    return start, (found_end if found_end >= 0 else len(text))


def _without_overlaps(hits: list[Hit]) -> list[Hit]:
    chosen: list[Hit] = []
    for hit in sorted(hits, key=lambda h: (h.start, -(h.end - h.start))):
        if chosen and hit.start < chosen[-1].end:
            continue
        chosen.append(hit)
    return chosen


def redact_text(text: str, hits: list[Hit]) -> str:
    """``text`` with each hit replaced by ``[REDACTED:<kind>]``."""
    out, at = [], 0
    for hit in sorted(hits, key=lambda h: h.start):
        out.append(text[at:hit.start])
        out.append(f"[REDACTED:{hit.kind}]")
        at = hit.end
    out.append(text[at:])
    return "".join(out)


# -- records --------------------------------------------------------------------------------
#: fields never scanned: ids, numbers and the vector (they are not where secrets are written)
SKIPPED_FIELDS = frozenset({"id", "from_memory_id", "to_memory_id", "promoted_to", "embed",
                            "status"})


def scan_record(record: dict[str, Any]) -> list[Finding]:
    """Every secret in the string fields of a record (a memory's or a relation's file format,
    unknown fields included): content, gist, tags, entities, source, context, meta.extra,
    a relation's type and metadata... A dict entry is scanned as ``key: value`` so that
    ``{"password": "hunter22"}`` is a password assignment."""
    found: list[Finding] = []
    for key, value in record.items():
        if key not in SKIPPED_FIELDS:
            _walk(value, key, found, label=None)
    return found


def _walk(value: Any, field: str, found: list[Finding], label: str | None) -> None:
    if isinstance(value, str):
        prefix = f"{label}: " if label else ""
        text = prefix + value
        for hit in scan_text(text):
            if hit.end <= len(prefix):
                continue
            start = max(0, hit.start - len(prefix))
            end = hit.end - len(prefix)
            found.append(Finding(hit.kind, field, start, end, value[start:end]))
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(item, f"{field}.{key}", found, label=str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, f"{field}[{index}]", found, label=None)


def redact_record(record: dict[str, Any]) -> tuple[dict[str, Any], list[Finding]]:
    """A copy of ``record`` with each secret replaced by ``[REDACTED:<kind>]``, and the findings."""
    findings = scan_record(record)
    if not findings:
        return record, []
    return {k: (v if k in SKIPPED_FIELDS else _redacted(v, None)) for k, v in record.items()}, \
        findings


def _redacted(value: Any, label: str | None) -> Any:
    if isinstance(value, str):
        prefix = f"{label}: " if label else ""
        hits = [Hit(h.kind, max(0, h.start - len(prefix)), h.end - len(prefix))
                for h in scan_text(prefix + value) if h.end > len(prefix)]
        return redact_text(value, hits) if hits else value
    if isinstance(value, dict):
        return {k: _redacted(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_redacted(v, None) for v in value]
    return value
