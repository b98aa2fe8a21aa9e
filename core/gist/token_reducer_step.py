"""The token-reducer step: its phrase edits, verified, on masked prose sentences. OFF by default.

It changes no gist on the gist corpus (1194/1194 identical with and without it), so
:data:`ENABLED` is False and :func:`core.gist.pipeline.build_gist` never calls token-reducer
unless a caller switches it on. Used only with ``tokenizer="character"`` (its default tokenizer
downloads a file and fails offline). The figures, and those of token-reducer's other tools
against our drafts: ``docs/gists.md`` (``python bench/gists.py``, ``python bench/drafts.py``).

How it works when switched on
=============================
3. **Phrase pass (token-reducer, verified).** A masked prose sentence that contains one of our
known filler phrases or rewrites (step 4; at most :data:`TR_MAX_UNITS` sentences of up to
:data:`TR_MAX_CHARS` characters per note) goes through token-reducer's
``compress_text(sentence, level=level, tokenizer="character")`` (its default tokenizer
downloads a file and fails offline). Its output is never used as text: it is aligned word
by word with the input, and the sentence's edits are accepted only if every change is the
deletion of a known filler/hedge (``basically``, ``I think``, ``please note that``...) or a
known compact rewrite (``in order to`` -> ``to``, also when expressed as a deletion of
``in order``); any other change (``rather than`` -> ``than``, ``kind of``/``which is``
dropped, ``<URL:...>`` removed, punctuation re-spaced, a placeholder touched) discards
token-reducer's output for that sentence. Accepted edits are re-applied by us to the
original sentence. Sentences without a known phrase are not offered: any change token-reducer
made to them would be rejected anyway. ImportError or any exception: the step is skipped.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

from .phrases import ANYWHERE_DELETE, REWRITES, SAFE_DELETE_PHRASES, START_DELETE, WORD_TOKEN

#: Off: the step changes no gist on the bench corpora (see the module docstring). Switched on
#: by the tests that exercise it and by ``bench/gist.py`` to measure it.
ENABLED = False
#: Offer token-reducer only sentences containing a known filler/hedge phrase or rewrite. Exact:
#: on any other sentence every change it makes is rejected by the verifier, so skipping them
#: changes no gist, only time.
TR_PREFILTER = True
#: At most this many prose sentences per note are offered to token-reducer (it costs ~0.1-0.3 ms
#: a sentence; its aggressive pass is quadratic in the number of sentences).
TR_MAX_UNITS = 40
#: ...and only sentences up to this many characters.
TR_MAX_CHARS = 2000


def token_reducer_edits(
    compress: Any, masked: str, level: str, toks: list[tuple[str, int, int]]
) -> list[tuple[int, int, str | None]] | None:
    """token-reducer's edits to one masked sentence, or None if its output is not acceptable."""
    try:
        result = compress(masked, level=level, tokenizer="character")
        out = result.compressed_text
    except Exception:  # noqa: BLE001 - any failure just skips token-reducer for this sentence
        return None
    if not isinstance(out, str):
        return None
    if out == masked:
        return []
    a = [t[0] for t in toks]
    b = WORD_TOKEN.findall(out)
    # every placeholder must survive exactly, in order
    if [x for x in a if x.startswith("zqx")] != [x for x in b if x.startswith("zqx")]:
        return None
    low_a = [x.lower() for x in a]
    low_b = [x.lower() for x in b]
    edits: list[tuple[int, int, str | None]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, low_a, low_b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "delete":
            s, e = i1, i2
            while s < e and low_a[s] == ",":
                s += 1
            while e > s and low_a[e - 1] == ",":
                e -= 1
            phrase = " ".join(low_a[s:e])
            if s == e:
                return None  # punctuation-only change
            if phrase in SAFE_DELETE_PHRASES:
                if phrase in START_DELETE and phrase not in ANYWHERE_DELETE and s != 0:
                    return None
                edits.append((s, e, None))
                continue
            rewrite = _deletion_as_rewrite(low_a, s, e)
            if rewrite is not None:
                edits.append(rewrite)
                continue
            return None
        if op == "replace":
            phrase = " ".join(low_a[i1:i2])
            if REWRITES.get(phrase) == " ".join(low_b[j1:j2]):
                edits.append((i1, i2, REWRITES[phrase]))
                continue
            return None
        return None  # insertions
    return edits


def _deletion_as_rewrite(low: list[str], s: int, e: int) -> tuple[int, int, str] | None:
    """A deletion that amounts to a known rewrite ("in order" before "to" = "in order to" ->
    "to"; "the purpose of" after "for" = "for the purpose of" -> "for"), as that rewrite."""
    for phrase, repl in REWRITES.items():
        ptoks = phrase.split()
        n = len(ptoks)
        for p in range(max(0, e - n), s + 1):
            if p + n < e or low[p : p + n] != ptoks:
                continue
            rest = low[p:s] + low[e : p + n]
            if rest == repl.split():
                return (p, p + n, repl)
    return None


def load_compress_text() -> Any:
    try:
        from token_reducer import compress_text
    except Exception:  # noqa: BLE001 - ImportError, or a broken install
        return None
    return compress_text
