"""The drafts memvault makes, measured against token-reducer's tools for the same job; one command.

    python bench/drafts.py        # ~10 s

Three jobs, each on the gist corpus (``tests/fixtures/gist-corpus``) and the demo's notes
(``tui/demo/content.py``), ours and token-reducer's side by side (``tokenizer="character"``
where it takes one: its default tokenizer downloads a file):

1. **Code in short notes** (``compress_code``): the corpus notes with a code block that get no
   moderate gist. Their code blocks are given to ``compress_code`` (it drops ``#`` comments and
   blank lines); printed: how many blocks it changes, how many notes then get a gist, and how
   many of those changes touch something other than a comment (a ``#`` inside a string or a
   grammar, which the note's text needs).
2. **The split draft** (``PropositionExtractor``): the demo's notes made of a fact and its
   aside (the sentence ``TOPICS`` lists with it: each such note is one idea), and its composite
   memories (``COMPOSITES``, each with the parts a person chose). Printed: parts drafted, asides
   left standing alone as a part, parts whose text is not the note's own words.
3. **The consolidate draft** (``SemanticDeduplicator``): the demo's near-duplicate clusters, and
   pairs made of a demo fact alone and with its aside. Printed: words of the draft,
   sentences said twice, numbers/names/negations of the sources missing from the draft.
"""

from __future__ import annotations

import os
import random
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from core.gist import generate_gist  # noqa: E402
from core.gist.sentences import parse_blocks  # noqa: E402
from core.model.records import Memory  # noqa: E402
from core.ops.merge_text import facts_of, merge_texts  # noqa: E402
from core.ops.split import suggest_split  # noqa: E402
from gist_corpus_support import load_corpus  # noqa: E402
from tui.demo.content import CLUSTERS, COMPOSITES, TOPICS, WAITING_DUPLICATES  # noqa: E402

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_NEG = re.compile(r"\b(?:not|no|never|without|unless|except|only|cannot)\b|n't\b", re.IGNORECASE)


def _norm(s: str) -> str:
    return " ".join(re.findall(r"\w+", s.lower()))


def _is_python(code: str) -> bool:
    """Whether ``code`` (a block, or a ``>>>`` session less its prompts) compiles as Python."""
    import textwrap

    lines = [ln.lstrip()[4:] if ln.lstrip()[:4] in (">>> ", "... ") else ln for ln in code.split("\n")]
    try:
        compile(textwrap.dedent("\n".join(lines)), "<note>", "exec")
    except (SyntaxError, ValueError):
        return False
    return True


def code_notes() -> None:
    from token_reducer import compress_code

    notes = load_corpus()
    missing = [n for n in notes if any(k == "code" for k, _ in parse_blocks(n))
               and generate_gist(n, "moderate") is None]
    short = sum(1 for n in missing if len(n.split()) <= 60)
    changed = gisted = touched_other = 0
    for note in missing:
        new = note
        for kind, lines in parse_blocks(note):
            if kind != "code":
                continue
            block = "\n".join(lines)
            out = compress_code(block, tokenizer="character").compressed_code
            if out != block and block in new:
                changed += 1
                new = new.replace(block, out)
                no_blank = "\n".join(line for line in block.split("\n") if line.strip())
                if out != no_blank and not (_is_python(block) and _is_python(out)):
                    touched_other += 1  # it cut at a '#' of code that is not Python (or broke it)
        if new != note and generate_gist(new, "moderate") is not None:
            gisted += 1
    print(f"1. code blocks: {len(missing)} corpus notes with code and no gist ({short} of "
          f"31-60 words); compress_code "
          f"changes {changed} blocks, {touched_other} of them beyond blank lines in code that is "
          f"not Python (grammars, shell, C) or no longer compiles; {gisted} notes then get a gist")


def _topic_notes() -> list[tuple[str, list[str], list[str]]]:
    """(content, its aside sentences, tags) for the demo's notes of a fact and its aside."""
    out = []
    for tags, _ents, entries in TOPICS:
        for entry in entries:
            if isinstance(entry, tuple):
                fact, aside = entry
                out.append((f"{fact} {aside}", [aside], tags))
    return out


def split_drafts() -> None:
    from token_reducer import PropositionExtractor

    notes = _topic_notes()
    ext = PropositionExtractor()

    def ours(text: str, tags: list[str]) -> list[str]:
        return [p.content for p in suggest_split(Memory(id="x", content=text))]

    def theirs(text: str, tags: list[str]) -> list[str]:
        return ext.extract_propositions_from_text(text)

    for name, draft in (("ours (suggest_split)", ours), ("PropositionExtractor", theirs)):
        parts = alone = foreign = 0
        for text, asides, tags in notes:
            got = draft(text, tags)
            parts += len(got)
            alone += sum(1 for p in got if any(_norm(p) == _norm(a) for a in asides))
            foreign += sum(1 for p in got if _norm(p) not in _norm(text))
        comp_parts = comp_right = 0
        for content, _tags, want in COMPOSITES:
            got = draft(content, _tags)
            comp_parts += len(got)
            comp_right += len(got) == len(want)
        print(f"2. split, {name}: {len(notes)} notes of one idea -> {parts} parts, {alone} asides "
              f"alone, {foreign} parts not in the note's words; composites: {comp_right}/"
              f"{len(COMPOSITES)} with the person's number of parts ({comp_parts} parts)")


def _clusters(rng: random.Random) -> list[list[str]]:
    groups = [list(texts) for texts, *_ in CLUSTERS] + [list(t) for t, *_ in WAITING_DUPLICATES]
    for _tags, _ents, entries in TOPICS:
        noted = [entry for entry in entries if isinstance(entry, tuple)]
        for fact, aside in rng.sample(noted, min(3, len(noted))):
            groups.append([fact, f"{fact} {aside}"])
    return groups


#: Sources that differ by one fact: a draft must keep both.
CONTRASTS = [
    ["The deploy runs at 02:00 and pages Bob.", "The deploy runs at 03:00 and pages Bob."],
    ["The deploy runs at 02:00 and pages Bob.", "The deploy runs at 02:00 and pages Alice."],
    ["Alice wants written summaries after calls.", "Alice does not want written summaries after calls."],
    ["The deploy runs at 02:00 and pages Bob.", "The deploy runs at 02:00, and it pages Bob on failure."],
]


def consolidate_drafts() -> None:
    for label, groups in (("demo", _clusters(random.Random(7))), ("contrast pairs", CONTRASTS)):
        _consolidate(label, groups)


def _consolidate(label: str, groups: list[list[str]]) -> None:
    from token_reducer import SemanticDeduplicator


    def joined(texts: list[str]) -> str:  # what the draft was before: the sources pasted
        return "\n\n".join(texts)

    def dedup(threshold: float):
        d = SemanticDeduplicator(use_embeddings=False, similarity_threshold=threshold)
        return lambda texts: " ".join(d.deduplicate([s for t in texts for s in _SENTENCE.split(t)]))

    for name, draft in (("sources pasted (before)", joined), ("ours (merge_texts)", merge_texts),
                        ("SemanticDeduplicator 0.85", dedup(0.85)),
                        ("SemanticDeduplicator 0.6", dedup(0.6))):
        words = twice = lost = 0
        for texts in groups:
            ordered = sorted(texts, key=lambda t: -len(t))
            out = draft(ordered)
            words += len(out.split())
            sents = [_norm(s) for s in _SENTENCE.split(out) if s.strip()]
            twice += len(sents) - len(set(sents))
            have = facts_of(out) | {w.lower() for w in re.findall(r"[\w:.-]+", out)}
            want = set().union(*(facts_of(t) for t in texts))
            lost += len(want - have) + max(0, max(len(_NEG.findall(t)) for t in texts) - len(_NEG.findall(out)))
        print(f"3. consolidate ({label}), {name}: {len(groups)} clusters -> {words} words, {twice} sentences "
              f"said twice, {lost} numbers/names/negations lost")


def main() -> int:
    t0 = time.perf_counter()
    code_notes()
    split_drafts()
    consolidate_drafts()
    print(f"({time.perf_counter() - t0:.1f} s; load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
