"""Personal facts: what a note says about the person (a preference, an allergy, a diet, a name).

A gist keeps such a sentence before the asides and circumstances around it (:mod:`.units` gives
it :data:`PERSONAL_BONUS`): *The user is vegetarian.* is what an assistant must not forget,
whatever else the note says. Word lists only, like the rest of the gist: no tagger, no model.
"""

from __future__ import annotations

import re

#: What a personal fact adds to a unit's value (the topic sentence's weighs 4.0, a tag 2.0).
PERSONAL_BONUS = 4.0

#: Words of a personal fact wherever they stand: allergies, diets, names.
_PERSONAL = re.compile(
    r"\b(?:allerg(?:y|ies|ic)|intoleran(?:t|ce)|anaphyla\w*"
    r"|vegetarian|vegan|pescatarian|gluten|lactose|dairy-free|halal|kosher|teetotal"
    r"|(?:my|their|his|her|the user's) name is|goes by|pronouns)\b",
    re.IGNORECASE,
)
#: A preference, said of the person: the note's own opening verb (*Prefers ...*), or after the
#: user, *I* or a name (*Sam prefers ...*), not after a thing (*It prefers JSON::XS*).
_PREFERENCE = re.compile(
    r"^\s*(?:i\s+(?:prefer|like|love|hate|dislike|avoid|enjoy)\b|(?:(?:the user|user"
    r"|(?!(?:it|this|that|they|these|those|there|he|she|we|you)\b)(?-i:[A-Z][a-z]+))\s+)?"
    r"(?:prefers|likes|loves|hates|dislikes|avoids|enjoys|favou?rite)\b)",
    re.IGNORECASE,
)
#: The person as the subject: *The user is ...*, *I have ...*.
_ABOUT_THE_PERSON = re.compile(
    r"^\s*(?:the user|user|i)\s+(?:is|are|am|was|has|have|wants?|needs?|eats?|drinks?|never"
    r"|always|can't|cannot|does ?n[o']t)\b",
    re.IGNORECASE,
)


def is_personal_fact(sentence: str) -> bool:
    """True if ``sentence`` states a personal fact: a preference, an allergy or intolerance, a
    diet, a name, or opens with the person as its subject (*The user is ...*)."""
    return bool(_PERSONAL.search(sentence) or _PREFERENCE.match(sentence)
                or _ABOUT_THE_PERSON.match(sentence))
