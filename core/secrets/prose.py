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

A uuid, a commit's name or any other id that no such keyword names is never a finding here."""

from __future__ import annotations

import re
from collections.abc import Iterator

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


def named_secrets(text: str) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each value named as a secret in ``text``."""
    if not HINT.search(text):
        return
    for pattern in (_NAMED, _ENV, _ANY_KEY):
        for match in pattern.finditer(text):
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
