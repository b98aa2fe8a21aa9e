"""Two facts in one sentence: where the split draft cuts a sentence into the clauses it joins.

*I moved to Lisbon in 2021 and my sister lives in Porto.* says two things; *Likes salt and
pepper on eggs.* says one. A sentence is cut at a clause conjunction (*and*, *but*, *whereas*:
:data:`CONJUNCTIONS`) only when a subject and its verb stand on both sides: the words before it
end a clause with its verb (a memory's clause may leave its subject, the person, unsaid:
*Prefers tea*), and the clause after it opens with a subject of its own that needs nothing
before it (*I*, *we*, *you*, a name, *my sister*, *the hotel*, *there is*, or the pronoun the
sentence opens with; not *he*, *it*, *her key*, which point back) followed at once by its verb,
and points back at nothing. A list (*tea, coffee and the occasional beer*), a pair of names
(*iOS and Android apps*), a shared subject (*moved to Lisbon and loves it*) and anything inside
brackets or quotes stay whole. Each clause becomes a sentence of its own words: its first letter
capitalised, the sentence's closing mark at its end.

Word lists only, like the gist's clause cutter: no tagger, no model. Measured on WikiSplit in
``bench/drafts.py`` (the figures: ``docs/gists.md``).
"""

from __future__ import annotations

import re

from ..gist.asides import leans_on_previous
from ..gist.clause_words import STRICT_AUX
from ..textutil import DATE_WORDS

#: The words that join two clauses a draft may cut apart (*so*, *because*, *since* join a
#: reason to its fact, *while* often a time: one idea; a semicolon is the writer's own join).
CONJUNCTIONS = ("and", "but", "whereas")
#: Subjects that need nothing before them (a pronoun that points back does: *he*, *it*).
STANDALONE_PRONOUNS = frozenset("i we you".split())
#: Words that open a noun phrase a clause may start with (*my sister*, *the hotel*).
OPENERS = frozenset("my our your the a an one every each".split())
#: Verbs and helpers that follow a subject (beyond the ones ending in -s or -ed).
VERBS = STRICT_AUX | frozenset(
    """am 's 're 've 'll 'd won't can't don't doesn't didn't isn't aren't wasn't weren't
    hasn't haven't hadn't shouldn't wouldn't couldn't""".split()
)
#: Words a noun phrase never holds: a subject with one of these is no plain subject.
NOT_IN_SUBJECT = frozenset(
    """i we you he she it they him her them me us this that these those who which whom whose
    and or but if when while whereas because since so than to of in on at for with by from
    as not no never""".split()
)
#: Pronouns that point back, by person: a clause after the conjunction holding one needs the
#: clause before (*and I visit him*, *and I love it*) unless that clause opens with the same
#: person (*He plays as a striker and he has been capped once*).
BACK_POINTERS = {"he": frozenset({"he", "him", "his", "himself"}),
                 "she": frozenset({"she", "her", "hers", "herself"}),
                 "it": frozenset({"it", "its", "itself"}),
                 "they": frozenset({"they", "them", "their", "theirs", "themselves"})}
_POINTING = frozenset().union(*BACK_POINTERS.values())
#: Adverbs that may stand between a subject and its verb (*I also like*).
ADVERBS = frozenset("also still often always never usually already just only now then".split())
#: The most words of a noun phrase before its verb (*the new flat downstairs* is 4).
MAX_SUBJECT_WORDS = 4
#: A longer "sentence" (a paragraph without stops) is left as it is.
MAX_CHARS = 2000

_TOKEN = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*|\S")
#: Words that make an *and* join two parts of one phrase (*both X and Y*, *between X and Y*).
PAIRED = frozenset("both between either neither".split())
_CLAUSE_MARK = re.compile(r"[,;:]\s")
_CUT = re.compile(r",?\s+(" + "|".join(CONJUNCTIONS) + r")\s+", re.IGNORECASE)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _is_verb(word: str, after_pronoun: bool, plural_too: bool = True) -> bool:
    """Whether ``word`` reads as a finite verb after a subject: a helper (*is*, *has*, *will*),
    a word ending in -s or -ed (*lives*, *moved*), or any plain word after *I*/*we*/*you*.
    ``plural_too``: False where a word in -s is more likely a noun in the plural (*the receipts
    and the annual statements by ...*)."""
    low = word.lower()
    if not word[:1].isalpha() or low in NOT_IN_SUBJECT - {"never"}:
        return False
    if low in VERBS:
        return True
    if after_pronoun:
        return word.islower() and low not in OPENERS
    return word.isalpha() and word.islower() and len(low) > 3 and (
        (plural_too and low.endswith("s") and not low.endswith(("ss", "us", "is", "ous")))
        or low.endswith("ed"))


def _plural(pair: list[str]) -> bool:
    """Whether the first of ``pair`` is a noun in the plural, its verb the next word
    (*Rossmann domains are*), not a verb itself."""
    return len(pair) == 2 and pair[0].lower().endswith("s") and pair[1].lower() in VERBS


def opens_with_subject(clause: str, person: str = "", plural_too: bool = True) -> bool:
    """Whether ``clause``, after a conjunction, opens with a subject that needs nothing before
    it and then its verb (a capital there marks a name; a plain word is no subject: *salt and
    pepper*). ``person``: the pronoun the sentence opens with, which the clause may open with
    too; ``plural_too``: as for :func:`_is_verb`, for a noun phrase's verb."""
    toks = []
    for token in _tokens(clause):
        if not token[:1].isalnum():
            break  # a subject and its verb come before any comma or bracket
        toks.append(token)
    if len(toks) < 2:
        return False
    low = toks[0].lower()
    if low in STANDALONE_PRONOUNS or low == person:
        rest = [t for t in toks[1:3] if t.lower() not in ADVERBS] or toks[1:2]
        return _is_verb(rest[0], after_pronoun=True)
    if low == "there":
        return toks[1].lower() in VERBS
    if low in NOT_IN_SUBJECT:
        return False
    if low not in OPENERS:
        if not toks[0][:1].isupper():
            return False  # *salt and pepper*: a plain word is no subject there
        end = 1
        while end < len(toks) and toks[end][:1].isupper():
            end += 1  # a name of several words: *Mr Costa*, *New York*
        rest = [t for t in toks[end:end + 3] if t.lower() not in ADVERBS] or toks[end:end + 1]
        return bool(rest) and _is_verb(rest[0], after_pronoun=False) and not _plural(rest)
    for k, word in enumerate(toks[1:2 + MAX_SUBJECT_WORDS], 1):
        if _is_verb(word, False, plural_too) and not _plural(toks[k:k + 2]):
            return k > 1  # (*the* then a verb: no noun phrase)
        if word.lower() in NOT_IN_SUBJECT:
            return False
    return False


def _inside_pair(text: str, pos: int) -> bool:
    """Whether ``pos`` is inside brackets or quotes of ``text``."""
    head = text[:pos]
    return (head.count("(") > head.count(")") or head.count("[") > head.count("]")
            or head.count('"') % 2 == 1 or head.count("“") > head.count("”"))


def _has_verb(words: list[str]) -> bool:
    """Whether a word after the first of ``words`` reads as a finite verb."""
    return any(_is_verb(words[i], after_pronoun=words[i - 1].lower() in STANDALONE_PRONOUNS)
               for i in range(1, len(words)))


def _ends_a_clause(left: str, right: str, comma: bool) -> bool:
    """Whether the text before a conjunction ends a clause of its own: its last stretch (after
    its last comma, semicolon or colon) holds a verb and no *both*/*between*, and it is not a
    pair of names (*iOS and Android*: a name on each side, no comma; a month or *I* is no
    name there)."""
    last = [t for t in _tokens(_CLAUSE_MARK.split(left)[-1]) if t[:1].isalnum()]
    if len(last) < 2 or any(t.lower() in PAIRED for t in last) or not _has_verb(last):
        return False
    pair = (last[-1][:1].isupper() and last[-1] not in DATE_WORDS and right[:1].isupper()
            and _tokens(right)[0] != "I")
    return comma or not pair


def _ends_in_noun_phrase(left: str) -> bool:
    """Whether ``left`` ends in a noun phrase of its own opened by a determiner (*needs the
    receipts*): an *and* after it may join a second one (*and the annual statements*)."""
    last = [t.lower() for t in _tokens(left)[-3:]]
    return any(t in OPENERS for t in last) and not any(
        _is_verb(t, False) for t in last[[t in OPENERS for t in last].index(True) + 1:-1])


def _sentence(clause: str, closing: str) -> str:
    clause = clause.strip().rstrip(",;:")
    return clause[:1].upper() + clause[1:] + closing


def two_facts(sentence: str) -> list[str]:
    """``sentence`` cut into the clauses it joins when each has its own subject and verb (see
    the module docstring), each a sentence of its own words; ``[sentence]`` when it says one
    thing."""
    text = sentence.strip()
    body = text.rstrip(".!?")
    closing = text[len(body):] or "."
    if "\n" in body or not body.strip() or len(body) > MAX_CHARS:
        return [sentence]
    first = _tokens(body)[0].lower()
    person = first if first in BACK_POINTERS else ""
    allowed = BACK_POINTERS.get(person, frozenset())
    for match in _CUT.finditer(body):
        left, right = body[:match.start()], body[match.end():]
        if _inside_pair(body, match.start()) or len(_tokens(left)) < 3 or not right[:1].isalnum():
            continue
        if not _ends_a_clause(left, right, match.group().startswith(",")):
            continue
        comma = match.group().startswith(",")
        pair = not comma and match.group(1).lower() == "and" and _ends_in_noun_phrase(left)
        if not opens_with_subject(right, person, plural_too=not pair):
            continue
        if (person == "" and leans_on_previous(right)) or any(
                t.lower() in _POINTING - allowed for t in _tokens(right)):
            continue
        return [_sentence(left, closing)] + two_facts(_sentence(right, closing))
    return [sentence]
