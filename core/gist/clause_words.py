"""The words the clause cutter (:mod:`.clause_cutter`) reads: what is filler, what opens a
modifier, what makes a phrase an argument rather than a modifier; and the checks of what must
never go (:func:`is_protected`, :func:`drops_number_or_negation`, :func:`names_in`).

Lower-case English words; a word list is the whole of the cutter's grammar (no tagger, no
model): a phrase is only cut where these lists say it is a modifier, and everything in
:data:`NEGATIONS` stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Words and single punctuation marks of a (masked) sentence.
WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*|\S")


def words(text: str) -> list[str]:
    """The words of ``text`` (no punctuation)."""
    return [w for w in WORD.findall(text) if w[0].isalnum()]


NEGATIONS = frozenset(
    """not no never nothing nor none neither nobody nowhere cannot without unless except only
    hardly barely rarely seldom scarcely nicht kein keine nie pas jamais""".split()
)

CAPITALISABLE = frozenset(
    """a an the this that these those it its we our you your they their there here he she his
    her in on at for to from with by of all some most many several each every one two both any
    other such what which who how why where so then also use run add set make keep call check
    can could should must will would may might do does did is are was were be has have had
    programs applications users developers people""".split()
)

FILLER_WORDS = frozenset(
    """very quite really simply just actually basically essentially generally typically easily
    quickly greatly highly relatively fairly extremely particularly especially mainly largely
    fully completely totally truly certainly indeed somewhat also commonly normally usually
    significantly considerably substantially reasonably perfectly conveniently efficiently
    effectively properly correctly nicely""".split()
)

#: Prepositions whose phrase may close a clause as a mere modifier ("... a library for X.").
PP_OPENERS = frozenset(
    """with for in on at from within across over under between through via by during using""".split()
)

#: Words after which a phrase is an argument, not a modifier ("is in", "used by", "falls in").
PP_HOSTS = frozenset(
    """is are was were be been being am falls fall lies lie resides reside depends depend relies
    rely consists consist results result belongs belong based used designed intended written
    needed required meant made suited suitable responsible able similar equivalent different
    related due according prior interested involved located stored found included contained
    implemented defined provided given known called named run runs ran it them this that these
    those which what who one and or nor but either both comparable compatible identical close
    relative specific equal next""".split()
)

#: Words after which "that", "which" or "who" opens a clause the sentence needs: the object
#: of a verb of saying, asking or knowing ("asked that every decision be written down" is not
#: "asked"), and the relative clause of a pronoun or of "the only ..." ("the only one who knows
#: the billing service" is not "the only one").
THAT_HOSTS = frozenset(
    """note notes mean means meant ensure ensures say says said show shows know knows assume
    assumes indicate indicates so such given is are was were be fact except now than believe
    think guarantee guarantees require requires check checks verify verifies specify specifies
    states state implies imply expect expects make makes sure possible likely true way so
    ask asks asked request requests requested demand demands demanded suggest suggests
    suggested recommend recommends recommended insist insists insisted propose proposes
    proposed decide decides decided agree agrees agreed hope hopes hoped wish wishes wished
    promise promises promised explain explains explained mention mentions mentioned
    confirm confirms confirmed warn warns warned remember remembers remembered learn learns
    learned learnt realise realises realised realize realizes realized find finds found
    feel feels felt prefer prefers preferred
    one ones someone anyone everyone nobody somebody anybody everybody those people person
    only""".split()
)

FILLER_PHRASES = (
    ("as", "well"), ("at", "all"), ("in", "fact"), ("of", "course"), ("as", "mentioned"), ("as", "noted"),
)  # fmt: skip

INTRO_OPENERS = frozenset(
    """for in by with at on from through during as since because to also moreover furthermore
    additionally besides indeed basically essentially generally typically usually currently
    today here similarly likewise of thus hence therefore however finally then""".split()
)

TAIL_OPENERS = (
    "such as",
    "including",
    "as well as",
    "among",
    "like",
    "e.g.",
    "i.e.",
    "for example",
    "for instance",
    "etc",
    "and so on",
    "and many more",
    "and more",
    "especially",
    "particularly",
    "mostly",
    "mainly",
)

RELATIVE = frozenset({"which", "who", "whom", "whose", "whereby"})

CLAUSE_WORDS = frozenset({"and", "or", "but", "that", "which", "who", "to", "when", "if"})

#: Verbs (and the like) whose object a "to"-phrase is ("allows X to Y", "need to"): no cut.
TO_HOSTS = frozenset(
    """allow allows allowed enable enables enabled permit permits help helps cause causes force
    forces require requires ask asks tell tells want wants expect expects use uses used need
    needs needed able going order how what where tries try tried attempt attempts attempted
    have has had is are was were be been being designed intended meant supposed likely unable
    way due according close next prior similar equal related compared""".split()
)

AUX = frozenset(
    """is are was were be has have had can could will would may might must should does do did
    provides contains includes supports allows implements uses offers lets gives makes adds
    creates runs ships describes defines needs requires handles falls permits enables helps
    works tries takes performs produces generates converts reads writes returns calls sets
    gets keeps becomes means stores manages detects yields evaluates assigns executes
    consists depends""".split()
)

STRICT_AUX = frozenset(
    "is are was were can could will would may might must should does do did has have had".split()
)

SUBJECTS = frozenset("it this that which who he she they we you there".split())

COMPLEMENT_HOSTS = frozenset(
    """keep keeps kept make makes made leave leaves left get gets got have has had find finds
    found consider considers considered render renders rendered""".split()
)

DETERMINERS = frozenset(
    """the a an them it its their this these those your our his her all any some each every
    they can will may must should could would is are was were has have had does do also
    then""".split()
)

#: After a cut ending at a comma, what follows must open a clause of its own.
CONNECTORS = frozenset(
    """and but or which who whose so while as because since although though where when if
    unless without with including such whereas yet thus hence""".split()
)


def is_protected(span: str, entities: Sequence[str] = ()) -> bool:
    """True if cutting ``span`` (masked text) would lose a fact or turn the meaning around:
    a number, identifier, path, URL or inline code (masked), a negation or restriction, or an
    entity of the memory."""
    if "zqx" in span or any(c.isdigit() for c in span):
        return True
    low = span.lower()
    if "n't" in low or "n’t" in low:
        return True
    if any(w.lower() in NEGATIONS for w in words(span)):
        return True
    return any(e and e.lower() in low for e in entities)


def names_in(text: str, at_start: bool = False) -> list[str]:
    """Names in ``text``: capitalised words and acronyms (not the word opening a sentence when
    ``at_start``, not "I")."""
    return [
        w
        for i, w in enumerate(words(text))
        if w[0].isupper() and not (i == 0 and at_start) and w != "I"
    ]


def drops_number_or_negation(span: str) -> bool:
    """True if ``span`` (plain text) holds a digit (a number, date, time, version, or an
    identifier with one) or a negation (*not, no, never, without, n't*...; a capitalised
    *None* is a name, not a negation): no cut in a kept sentence may remove it, whichever step
    proposes it."""
    if any(c.isdigit() for c in span):
        return True
    low = span.lower()
    if "n't" in low or "n’t" in low:
        return True
    return any(w[0].islower() and w in NEGATIONS for w in words(span))
