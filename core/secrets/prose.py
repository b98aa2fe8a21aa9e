"""Secrets said in words: a value right after the keyword that names it as a secret, in prose
(``HEROKU_API_KEY 3f8c...``, ``the deploy key is 9fceb02...``, ``her bank password is
Tr0ub4dor&3``). ``detect-secrets`` finds neither: its keyword patterns want ``:``/``=``/quotes,
and a key shaped like a uuid or a git object name is (rightly) not high entropy on its own.

What counts, so that ordinary ids stay welcome:

* a **key name** (``api key``, ``access key``, ``secret key``, ``private key``, ``deploy key``,
  ``license key``, ``client secret``, ``access token``, ``auth token``, ``token``, ``secret``,
  or an environment-style name ending in ``_KEY``/``_TOKEN``/``_SECRET``/``_PASSWORD``...)
  followed, after at most ``is``/``was``/``:``/``=`` (and ``for <a few words>``), by a
  **key-shaped value**: 16+ characters of letters, digits and ``_-+/=.``, with both letters and
  digits (a uuid or 40 hex digits included: named as a key, they are one);
* **any name before ``key``** (``the mailgun key is ...``, ``mailgun key: ...``,
  ``the twilio-key = ...``), bridged the same way, when the value looks drawn at random, not
  built: a part of 12+ characters (between ``_-.``) that mixes letters and digits, switching
  between them 4+ times, and not a uuid or a git object name (40 or 64 hex digits). "The
  primary key is user_id", "the sort key is created_at_2024_01_01" or "the cache key is
  <a commit's name>" name no secret; a name in the list above takes any key-shaped value;
* a **password name** (``password``, ``passphrase``, ``passcode``, ``passwd``, ``pwd``, ``PIN code``)
  followed the same way by a value of 6+ characters with a digit, a symbol or mixed case (so
  "the password is required" or "password was reset" are not secrets).

A uuid, a commit's name or any other id that no such keyword names is never a finding here.
On a long text the patterns are tried only where a match could start (:func:`_candidate_starts`),
in the order ``finditer`` would try them: the same findings, in linear time."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .keywords import FoldedText

NAMED_KEY = "named-key"
PASSWORD_IN_PROSE = "password-in-prose"

_SEP = r"[ _-]?"
_KEY_WORDS = (
    rf"(?:api|access|secret|private|deploy|licen[cs]e|auth(?:entication)?|encryption|signing"
    rf"|master|ssh|app|client){_SEP}key"
    rf"|apikey|client{_SEP}secret|(?:access|auth|api|bearer|refresh|session|personal{_SEP}"
    rf"access|app){_SEP}token|token|secret"
)
_PASSWORD_WORDS = r"pass(?:word|phrase|code|wd)|pwd|pin[ _-]?code"  # not "pin": a verb here
_ENV_NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|PAT)"
#: between the name and its value: ``'s``, ``for <up to 4 words>``, then ``is``/``:``/``=``...
_SAID = (r"(?:'s)?(?:\s+(?:for|of|to|on)\s+(?:[\w.@'-]+\s+){0,3}?)?"
         r"\s*(?:\bis\b|\bwas\b|\bequals\b|\bset\s+to\b|\bto\b|:=|=|:|->|→)\s*")
_OPEN = r"[\"'`(\[<]?"
#: a key's name may be followed by its value after a space alone (``HEROKU_API_KEY 3f8c...``);
#: a password's needs ``is``/``:``/``=`` (``password hashes`` names no password)
_BRIDGE = rf"(?:{_SAID}|\s+(?=[^\s]*\d)){_OPEN}"
_VALUE = r"(?P<value>[^\s\"'`)\]>,;]+)"
_NAMED = re.compile(
    rf"(?<![\w-])(?:(?P<key>{_KEY_WORDS})(?![\w-]){_BRIDGE}"
    rf"|(?P<password>{_PASSWORD_WORDS})(?![\w-]){_SAID}{_OPEN}){_VALUE}", re.IGNORECASE)
_ENV = re.compile(rf"(?<![\w-])(?P<env>{_ENV_NAME})(?![\w-]){_BRIDGE}{_VALUE}")
#: any word before ``key`` (``mailgun key``): the value must look random (:func:`_random_key`)
_ANY_KEY = re.compile(rf"(?<![\w-])[A-Za-z][\w.]*{_SEP}key(?![\w-]){_BRIDGE}{_VALUE}",
                      re.IGNORECASE)
_KEY_VALUE = re.compile(r"[A-Za-z0-9_\-+/=.]{16,}")
HINT = re.compile(r"key|pass|pwd|pin|secret|token", re.IGNORECASE)  # (cheap: most text has none)


def named_secrets(text: str, folded: FoldedText | None = None
                  ) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each value named as a secret in ``text``; ``folded`` (the text's
    lower-cased copy) lets the patterns run only where a match could start."""
    fold = folded.fold if folded is not None and folded.text is text else None
    if fold is None:
        if not HINT.search(text):
            return
        starts = None
    else:
        assert folded is not None
        if not any(folded.places(word) for word in _HINT_WORDS):
            return
        # (a keyword every few words: the patterns' own pass over the text is as quick)
        dense = len(folded.places_of_any(_KEYWORDS)) * _DENSE > len(text)
        starts = None if dense else _candidate_starts(text, folded)
    for pattern in (_NAMED, _ENV, _ANY_KEY):
        for match in _matches(pattern, text, starts):
            env = match.groupdict().get("env")
            password = match.groupdict().get("password") or (
                env is not None and env.endswith(("PASSWORD", "PASSWD", "PWD")))
            # a sentence's end is not the value's (a password may well end in ! or ?)
            value = match.group("value").rstrip(".,;:" if password else ".,;:!?")
            start = match.start("value")
            if password and _password_like(value):
                yield PASSWORD_IN_PROSE, start, start + len(value)
            elif not password and _key_like(value) and (
                    pattern is not _ANY_KEY or _random_key(value)):
                yield NAMED_KEY, start, start + len(value)


_HINT_WORDS = ("key", "pass", "pwd", "pin", "secret", "token")  # HINT's words
_KEYWORDS = (*_HINT_WORDS, "_pat")  # one of them is in every match's name
_DENSE = 100  # a keyword every this many characters or fewer: run the patterns everywhere
_BACK = 20  # the farthest a listed name starts before its keyword ("personal access token": 16)
_WORD_START = re.compile(r"(?<![\w-])(?=[^\W\d_])")  # where a name could start
_ANY_KEY_START = re.compile(r"(?<![\w-])[A-Za-z]", re.IGNORECASE)
_NAME_RUN = re.compile(r"[\w.]*")  # what ``[A-Za-z][\w.]*`` (before ``key``) runs over
_WORD_RUN = re.compile(r"\w*")  # what an environment name runs over


def _matches(pattern: re.Pattern[str], text: str, starts: list[int] | None
             ) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)``, trying only ``starts`` (every place a match can start,
    sorted) when given: the same matches, as each is tried where finditer would."""
    if starts is None:
        yield from pattern.finditer(text)
        return
    at = 0
    for start in starts:
        if start < at:
            continue
        match = pattern.match(text, start)
        if match is not None:
            yield match
            at = max(match.end(), start + 1)


def _candidate_starts(text: str, folded: FoldedText) -> list[int]:
    """Every place one of the three patterns can match, sorted. A match starts where no word
    character or ``-`` comes before, and holds a keyword: for a listed name, within ``_BACK``
    characters of its start; for an environment name (``[A-Z0-9_]+_KEY``), the name is the
    run of word characters ending in the keyword, so it starts where that run does; for any
    name before ``key`` (``[A-Za-z][\\w.]*[ _-]?key``), the name runs back along word
    characters and dots (over one space or ``-`` before ``key``), and every start in that run
    but the last few gives the same match as the first one (the name must end right before
    the keyword), so the first start in the run stands for them all."""
    reversed_text = text[::-1]
    word_runs = _RunStarts(text, reversed_text, _WORD_RUN)
    name_runs = _RunStarts(text, reversed_text, _NAME_RUN)
    first_start: dict[int, tuple[int, int]] = {}
    starts: set[int] = set()
    for at in folded.places_of_any(_KEYWORDS):
        starts.update(m.start() for m in _WORD_START.finditer(text, max(0, at - _BACK), at + 1))
        starts.add(word_runs.start(at))
        end = at - 1 if at and text[at - 1] in " -" else at
        run = name_runs.start(end)
        first, looked = first_start.get(run, (-1, run))  # (its first start or -1, looked to)
        if first < 0 and looked < end:
            found = _ANY_KEY_START.search(text, looked, end)
            first, looked = (found.start() if found is not None else -1), end
            first_start[run] = (first, looked)
        if 0 <= first < end:
            starts.add(first)
    return sorted(starts)


class _RunStarts:
    """Where the run of characters ``run`` matches that ends at an offset starts, for offsets
    asked in increasing order: a run is measured once, however many keywords it holds."""

    def __init__(self, text: str, reversed_text: str, run: re.Pattern[str]) -> None:
        self.text, self.reversed_text, self.run = text, reversed_text, run
        self._last: tuple[int, int] = (-1, -1)  # (an offset asked, its run's start)

    def start(self, end: int) -> int:
        """The start of the run ending at ``end`` (``end`` itself when ``text[end - 1]`` is
        not in the run)."""
        asked, start = self._last
        if not 0 <= asked <= end or self._within(asked, end) is False:
            n = len(self.text)
            found = self.run.match(self.reversed_text, n - end)
            start = end - (found.end() - found.start()) if found is not None else end
        self._last = (end, start)
        return start

    def _within(self, asked: int, end: int) -> bool:
        """Whether ``text[asked:end]`` is all run characters (one run from before to now)."""
        found = self.run.match(self.text, asked, end)
        return found is not None and found.end() == end


def _key_like(value: str) -> bool:
    return bool(_KEY_VALUE.fullmatch(value)) and any(c.isdigit() for c in value) \
        and any(c.isalpha() for c in value) and not _placeholder(value)


_PART = re.compile(r"[^_.-]+")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_HEX = re.compile(r"[0-9a-fA-F]+")
_SWITCH = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def _random_key(value: str) -> bool:
    """A value drawn at random rather than built of words, dates and counters: a part of 12+
    characters mixing letters and digits with 4+ switches between them; never a uuid or a git
    object name (ids, not keys, when only an unknown word names them)."""
    if _UUID.fullmatch(value) or (_HEX.fullmatch(value) and len(value) in (40, 64)):
        return False
    return any(len(part) >= 12 and len(_SWITCH.findall(part)) >= 4
               for part in _PART.findall(value))


def _password_like(value: str) -> bool:
    if len(value) < 6 or _placeholder(value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value[1:])
    return has_digit or has_symbol or mixed


def _placeholder(value: str) -> bool:
    """``$VAR``, ``${x}``, ``{x}``, ``<x>``, ``%s``, ``xxxx...``, a path or an address: not a
    secret's value."""
    return (value.startswith(("$", "{", "<", "%", "/", "~", "./", "..")) or "://" in value
            or len(set(value.lower())) <= 2 or value.lower().startswith(("redacted", "[redacted")))
