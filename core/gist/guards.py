"""The last checks on a gist: not too long, and nothing in it that the content does not say.

8. **Guard and check.** The gist is assembled (sentences joined by a space, code and list items
on their own lines) and counted with :func:`core.model.tokens.estimate_tokens`. A gist longer than
:data:`GUARD_RATIO` (0.85) x the content's tokens is not kept (``None``); for ``light`` the
ceiling is :data:`LIGHT_GUARD_RATIO` (0.95), because the light band itself (5-15% fewer
tokens) lies between 0.85 and 0.95 x content, so a 0.85 ceiling would make every light gist
impossible. Finally every number, path and identifier in the gist must occur verbatim in the
content; otherwise the phrase edits are abandoned and the gist is rebuilt from whole units
(and if even that failed, ``None``).
"""

from __future__ import annotations

import re

from .facts import classify, strip_token
from .levels import GUARD_RATIO, LIGHT_GUARD_RATIO

def too_long(gist_tokens: int, content_tokens: int, level: str) -> bool:
    """True if a gist of ``gist_tokens`` is too long to keep for content of ``content_tokens``."""
    limit = LIGHT_GUARD_RATIO if level == "light" else GUARD_RATIO
    return gist_tokens / content_tokens > limit or gist_tokens >= content_tokens


_VERIFY_TOKEN = re.compile(r"\S*[^\s\w'’-]\S*|\S*[\d_]\S*")


def is_corrupted(gist: str, content: str) -> bool:
    """True if a number, path or identifier in the gist does not occur verbatim in the content.

    Only tokens with a digit, underscore or punctuation are checked: the phrase passes never
    create a plain-letter token other than an ordinary word.
    """
    content_cores: set[str] | None = None
    for m in _VERIFY_TOKEN.finditer(gist):
        core = strip_token(m.group())
        if classify(core) not in ("num", "ident"):
            continue
        if content_cores is None:
            content_cores = {strip_token(t) for t in content.split()}
        if core not in content_cores and core not in content:
            return True
    return False
