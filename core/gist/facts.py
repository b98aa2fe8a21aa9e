"""What a unit of text carries that a gist must not lose: numbers, identifiers, names.

Every whitespace token is classified (:func:`classify`): a number, an identifier (paths,
flags, ``dotted.names``, CamelCase, anything with digits or code punctuation), an acronym, or a
plain word. :func:`unit_facts` turns a unit into fact -> weight for the extractive passes:

5. **Extractive pass (sentences).** Each unit is valued by the *facts* it carries: named
entities (capitalised words not at sentence start, acronyms, and the caller's ``entities``),
numbers, identifiers/paths/flags/URLs, inline code (weighs more than the same identifier
inside a code block), the memory's ``tags`` it mentions, words shared with other units
"""

from __future__ import annotations

import re

INLINE_CODE = re.compile(r"``[^\n]{1,300}?``|`[^`\n]{1,300}`")
URL = re.compile(
    r"(?:(?:https?|ftp|file|git)://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]"
)  # never ends in punctuation: "see https://x.org/a." ends the sentence
WS_TOKEN = re.compile(r"\S+")

ABBREV_NEVER_END = frozenset(
    """e.g. i.e. cf. vs. viz. mr. mrs. ms. dr. prof. st. jr. sr. no. nos. fig. figs. eq.
    approx. al. inc. ltd. co. corp. dept. est. vol. ch. sec. p. pp. ca. resp. incl. esp.
    ed. eds. rev. gen. gov. lt. col. sgt. jan. feb. mar. apr. jun. jul. aug. sep. sept. oct.
    nov. dec. mon. tue. wed. thu. fri. sat. sun. z.b. d.h. u.a. bzw. vgl. ggf. evtl. bspw. s.
    nr. ca. op. cit. ibid. sq. ft. in. min. max. e.v.""".split()
)
ABBREV_MAY_END = frozenset("etc. usw. etc.) usw.)".split())


LEAD_PUNCT = "\"'“‘«([{<*_"
TRAIL_PUNCT = ".,;:!?\"'”’»)]}>…*_"


def strip_token(tok: str) -> str:
    """A whitespace token without surrounding punctuation (keeping balanced brackets)."""
    tok = tok.lstrip(LEAD_PUNCT) if tok[:1] in LEAD_PUNCT else tok
    while tok and tok[-1] in TRAIL_PUNCT:
        last = tok[-1]
        if last == ")" and tok.count("(") >= tok.count(")"):
            break
        if last == "]" and tok.count("[") >= tok.count("]"):
            break
        if last == "}" and tok.count("{") >= tok.count("}"):
            break
        tok = tok[:-1]
    return tok


def is_plain_word(core: str) -> bool:
    return core.replace("'", "").replace("’", "").replace("-", "").isalpha()


_DIGIT = re.compile(r"\d")
_ALPHA = re.compile(r"[^\W\d_]")
_IDENT_CHARS = re.compile(r"[/_\\=()\[\]{}<>@#$%&*+|~^`:]")


def classify(core: str) -> str | None:
    """Kind of fact a stripped token is: "num", "ident", "acro", or None (plain word)."""
    if not core:
        return None
    if core.isalpha():  # fast path: letters only
        if len(core) >= 2 and core.isupper():
            return "acro"
        if core.islower() or core.istitle():
            return None
        for a, b in zip(core, core[1:]):  # CamelCase inside the word: PostgreSQL, iPhone
            if a.islower() and b.isupper():
                return "ident"
        return None
    has_digit = _DIGIT.search(core) is not None
    has_alpha = _ALPHA.search(core) is not None
    if has_digit:
        if not has_alpha and not any(c in core for c in "/_\\"):
            return "num"
        return "ident"
    if not has_alpha:
        return None
    if _IDENT_CHARS.search(core) or core.startswith("-"):
        return "ident"
    if "." in core:
        low = core.lower() + "."
        if low in ABBREV_NEVER_END or low in ABBREV_MAY_END:
            return None
        return "ident"
    if is_plain_word(core):
        letters = core.replace("'", "").replace("’", "").replace("-", "")
        if len(letters) >= 2 and letters.isupper():
            return "acro"
        for a, b in zip(core, core[1:]):
            if a.islower() and b.isupper():
                return "ident"
        return None
    return "ident"


# Weights of the facts a unit carries. Identifiers inside a code block weigh less than the same
# identifier in prose: a sentence that names `time.sleep(0.5)` is a better gist than the block.
FACT_WEIGHT = {
    "num": 1.0,
    "ident": 1.2,
    "acro": 1.0,
    "ent": 1.0,
    "given": 2.0,
    "inline": 1.5,
    "code": 0.6,
    "negation": 0.5,
}

#: Words that turn a statement around (*not, never, without*...); a kept negation is a fact.
_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|nor|none|neither|nobody|cannot|without|unless|except)\b(?:\s+\w+){0,2}"
    r"|\w+n[’']t\b(?:\s+\w+){0,2}"
)


_FACTS_MAX_TOKENS = 2000


def unit_facts(text: str, is_code: bool) -> dict[str, float]:
    """Fact key -> weight for one unit (keys are the verbatim strings)."""
    facts: dict[str, float] = {}
    if is_code:
        # identifiers and numbers in code blocks (cheap scan; capped), fence lines skipped
        for i, m in enumerate(WS_TOKEN.finditer(text)):
            if i > 400:
                break
            core = strip_token(m.group()).strip("`")
            if core and classify(core) is not None and not core.startswith("~~~"):
                facts.setdefault(core, FACT_WEIGHT["code"])
        return facts
    for m in INLINE_CODE.finditer(text):
        code = m.group().strip("`").strip()
        if code:
            facts[code] = FACT_WEIGHT["inline"]
    for m in URL.finditer(text):
        facts[strip_token(m.group())] = FACT_WEIGHT["ident"]
    for m in _NEGATION.finditer(text[:20000]):
        # keyed by the words it turns around: a restatement of the same negation is no new fact
        facts.setdefault("\x01" + " ".join(m.group().lower().split()), FACT_WEIGHT["negation"])
    first = True
    for i, m in enumerate(WS_TOKEN.finditer(text)):
        if i >= _FACTS_MAX_TOKENS:
            break  # a unit this long is scored on its beginning
        tok = m.group()
        core = strip_token(tok)
        if "`" in core:
            first = False
            continue  # part of an inline code span, counted whole above
        kind = classify(core)
        if kind is not None:
            facts.setdefault(core, FACT_WEIGHT[kind])
        elif (
            not first
            and core[:1].isupper()
            and core != "I"
            and is_plain_word(core)
        ):
            facts.setdefault(core, FACT_WEIGHT["ent"])
        first = False
    return facts
