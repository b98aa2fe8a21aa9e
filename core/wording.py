"""What a memory says, as a set of normalised content terms: the words two paraphrases share.

:func:`terms` lowercases, drops stopwords (articles, pronouns, auxiliaries, prepositions and
quantifiers: *all* and *every* alike), strips simple endings (*prefers*, *preferred*,
*preference*, *likes* -> *prefer*; *editors* -> *editor*), and turns every negation (*not*, *never*,
*don't*, *without*...) into one term, :data:`NEGATION`. :func:`likeness` compares two term sets:
their Jaccard, except that the terms a longer memory only adds to a short one weigh a quarter
(a short memory repeated inside a longer one is alike), and :func:`conflict` says when they differ in a
way no paraphrase does: a negation on one side only, or two different values of one kind (dark /
light, tabs / spaces, two numbers, two weekdays...). A conflict weighs :data:`CONFLICT_WEIGHT`.

The similarity of memories (:mod:`core.ops.similarity`) and the near-duplicate index's keys
(:mod:`core.search.near_dupes`) both read these terms, so every door flags the same pairs.
"""

from __future__ import annotations

import functools
import math
import re

NEGATION = "~not"
#: A pair in conflict keeps this share of its likeness.
CONFLICT_WEIGHT = 0.3
#: Terms a longer memory only adds to a short one of at least CONTAINED_MIN_TERMS weigh this.
ADDED_WEIGHT, CONTAINED_MIN_TERMS = 0.25, 3
#: A term of one side standing against a term of the other (a swap: a different value, more
#: often than a synonym) weighs this (Jaccard: 2, one term on each side; 3 tuned on half of
#: bench/data/paraphrase_pairs.tsv: bench/paraphrases.py --tune).
SWAPPED_WEIGHT = 3.0

_NUMBER = re.compile(r"\d+[a-z]{0,3}$")  # 42, 5pm, 10k, 8080, 2nd
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_NEGATIONS = frozenset(
    "not no never without cannot nor neither none nobody nothing nowhere don't doesn't didn't "
    "isn't aren't wasn't weren't won't wouldn't shouldn't can't couldn't haven't hasn't hadn't "
    "mustn't dont doesnt didnt isnt arent wont cant shouldnt".split())
STOPWORDS = frozenset(
    "a an the and or but if then than so as of in on at to for from by with into onto over under "
    "about via per this that these those there here it its it's is are was were be been being am "
    "do does did done doing have has had having will would shall should can could may might must "
    "i i'm i've i'd me my mine we we're we've us our you your he she him her his they them their "
    "user user's users person all every each any some both either most more much many several "
    "always usually generally typically often really very just also too quite rather please "
    "like such who whom whose which what when where why how one ones thing things stuff etc "
    "instead whenever wherever whatever".split())
#: Words read as one (after the endings are stripped).
_SAME = {"lik": "prefer", "lov": "prefer", "favorit": "prefer", "favourit": "prefer", "preferenc": "prefer", "prefered": "prefer",
         "utiliz": "us", "utilis": "us", "employ": "us", "colour": "color", "behaviour": "behavior",
         "favour": "favor", "organis": "organiz", "editer": "editor"}
#: Kinds of distinct values: two different words of one kind, one on each side, are a conflict.
_KINDS = (
    "dark light", "tab space", "enable disable", "true false", "yes no", "before after",
    "left right", "min max minimum maximum", "first last", "allow deny block forbid",
    "prefer avoid dislike hate", "accept reject", "include exclude", "increase decrease",
    "open close", "start stop", "public private", "sync async", "local remote",
    "upper lower uppercase lowercase", "single double", "short long", "small large big",
    "fast slow", "old new", "dev development prod production staging test",
    "monday tuesday wednesday thursday friday saturday sunday",
    "january february march april june july august september october november december",
    "red green blue yellow black white orange purple pink grey gray",
    "morning afternoon evening night", "daily weekly monthly yearly",
    "python rust java javascript typescript ruby golang kotlin swift haskell",
    "vim neovim emacs vscode nano sublime", "linux macos windows", "bash zsh fish powershell",
    "npm yarn pnpm", "mysql postgres postgresql sqlite mongodb redis",
    "spaces tabs", "celsius fahrenheit", "metric imperial", "coffee tea",
)


def _stem(word: str) -> str:
    """A crude stem: plural, -ed, -ing and a final -e stripped (alike for *use*, *uses*,
    *used*, *using*), a doubled last consonant undone (*preferred*)."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for ending in ("ing", "ed"):
        if len(word) > len(ending) + 1 and word.endswith(ending):
            word = word[: -len(ending)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]
            break
    if len(word) > 2 and word.endswith("e"):
        word = word[:-1]
    return _SAME.get(word, word)


@functools.lru_cache(maxsize=65536)
def term(word: str) -> str | None:
    """The term of one lowercased word: :data:`NEGATION`, None for a stopword or a single letter
    (a single digit is a number, kept), else its stem."""
    if word in _NEGATIONS or word.endswith("n't"):
        return NEGATION
    if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
        return None
    return _stem(word.replace("'", ""))


def terms(text: str) -> frozenset[str]:
    """The content terms of a text (see the module docstring). A long text's are kept for the
    next ask (one ``add`` reads a huge note's terms for its duplicate check and again for its
    index row): the last two such texts, compared by identity first (a string's own hash)."""
    if len(text) >= _KEPT_FROM:
        return _kept_terms(text)
    return _terms(text)


_KEPT_FROM = 65_536  # characters: a text this long has its terms kept (about 30 ms of work)


@functools.lru_cache(maxsize=2)
def _kept_terms(text: str) -> frozenset[str]:
    return _terms(text)


def _terms(text: str) -> frozenset[str]:
    found = set()
    for word in _words(text.lower().replace("\u2019", "'")):
        t = term(word)
        if t is not None:
            found.add(t)
    return frozenset(found)


def _words(text: str) -> set[str]:
    """``set(_WORD.findall(text))``, each distinct whitespace-separated chunk read once (no
    word spans a space): a long text repeats its chunks, and ``str.split`` is far quicker."""
    if len(text) < _KEPT_FROM:
        return set(_WORD.findall(text))
    words: set[str] = set()
    for chunk in set(text.split()):
        words.update(_WORD.findall(chunk))
    return words


_KIND_OF = {_stem(w): k for k, words in enumerate(_KINDS) for w in words.split()}


def conflict(a: frozenset[str], b: frozenset[str]) -> bool:
    """True when two term sets differ as no paraphrase does: a negation on one side only, or
    words of one kind of value (or two numbers) that differ, one on each side."""
    if (NEGATION in a) != (NEGATION in b):
        return True
    only_a, only_b = a - b, b - a
    if not only_a or not only_b:
        return False
    kinds_a = {k for k in map(_kind, only_a) if k is not None}
    return bool(kinds_a) and any(_kind(t) in kinds_a for t in only_b)


@functools.lru_cache(maxsize=65536)
def _kind(t: str) -> object:
    if _NUMBER.match(t):
        return "number"
    return _KIND_OF.get(t)


def least_shared(size: int, least: float) -> int:
    """The fewest terms a set of ``size`` terms shares with any set it is at least ``least``
    alike with (:func:`likeness`: ``swapped <= shared * (1 - least) / (least * SWAPPED_WEIGHT)``
    for the smaller set; for the larger more still)."""
    if least <= 0:
        return 1
    return max(1, math.ceil(size * least * SWAPPED_WEIGHT / (least * SWAPPED_WEIGHT + 1 - least)
                            - 1e-9))


def largest_partner(size: int, least: float) -> float:
    """The largest set a set of ``size`` terms (the smaller of two) is at least ``least`` alike
    with: its added terms weigh at least ``min(ADDED_WEIGHT, 1)`` each."""
    if least <= 0:
        return math.inf
    return size * (1 + (1 - least) / (min(ADDED_WEIGHT, 1.0) * least)) + 1e-9


def likeness(a: frozenset[str], b: frozenset[str]) -> float:
    """How alike two term sets are, 0..1: ``shared / (shared + SWAPPED_WEIGHT * swapped +
    ADDED_WEIGHT * added)``, where ``swapped`` terms of the smaller set are missing from the larger (each
    stands against one of the larger's own) and ``added`` are the larger's other terms: Jaccard,
    except that words a longer memory only adds to a short one (of at least
    :data:`CONTAINED_MIN_TERMS` terms) weigh :data:`ADDED_WEIGHT`; times
    :data:`CONFLICT_WEIGHT` when the sets :func:`conflict`. It never exceeds ``shared`` over
    the smaller set's size (what prefix filtering relies on:
    :func:`core.ops.similarity.linked_pairs`)."""
    if not a or not b:
        return 0.0
    shared = len(a & b)
    if not shared:
        return 0.0
    swapped, extra = sorted((len(a) - shared, len(b) - shared))
    added = (extra - swapped) * (ADDED_WEIGHT if min(len(a), len(b)) >= CONTAINED_MIN_TERMS
                                 else 1.0)
    score = shared / (shared + SWAPPED_WEIGHT * swapped + added)
    if (NEGATION in a) != (NEGATION in b) or (swapped and conflict(a, b)):
        score *= CONFLICT_WEIGHT  # (no swapped term: only a negation can conflict)
    return score
