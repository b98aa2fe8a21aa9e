"""Why a note keeps no gist (core.gist.reasons): the settled goal for short notes."""

from __future__ import annotations

from core.gist import generate_gist
from core.gist.reasons import clauses, every_clause_carries_a_fact, no_gist_reason
from gist_corpus_support import load_corpus

# 31-60 words, every clause holds a number, an identifier or a negation
FACT_BOUND = (
    "The 'gzip' tool reads files ending in '.gz' and writes files of up to 4 GiB; it does not "
    "keep the original unless '-k' is given, and 'gunzip -c' writes to stdout, never to a file "
    "named in '$GZIP' or in '~/.gziprc'."
)


def test_a_short_note_whose_every_clause_holds_a_fact_keeps_no_gist_and_says_why() -> None:
    assert 31 <= len(FACT_BOUND.split()) <= 60
    assert every_clause_carries_a_fact(FACT_BOUND)
    assert generate_gist(FACT_BOUND, "moderate") is None
    assert no_gist_reason(FACT_BOUND) == "every clause holds a number, identifier or negation"


def test_reasons_for_the_other_cases() -> None:
    assert no_gist_reason("A short note.") == "under 30 words, it is its own gist"
    prose = ("curl is a command line tool for transferring data with URL syntax, supporting "
             "DICT, FILE, FTP, FTPS, GOPHER, HTTP, HTTPS, IMAP, IMAPS, LDAP, LDAPS, POP3, "
             "POP3S, RTMP, RTSP, SCP, SFTP, SMTP, SMTPS, TELNET and TFTP.")
    assert not every_clause_carries_a_fact(prose)
    assert no_gist_reason(prose) == "no version 20%-40% shorter keeps every fact"
    code = ("The grammar of a slicing is as follows, in the notation of the reference:\n\n"
            "    slicing ::= primary \"[\" slice_list \"]\"\n    slice_list ::= slice_item "
            "(\",\" slice_item)* [\",\"]\n    slice_item ::= expression | proper_slice\n")
    assert no_gist_reason(code) == "its code is kept whole"


def test_a_long_note_is_never_called_fact_bound() -> None:
    long = " ".join([FACT_BOUND] * 3)
    assert not every_clause_carries_a_fact(long)
    assert clauses("One, two; three: four. Five") == ["One,", "two;", "three:", "four.", "Five"]


def test_the_corpus_notes_without_a_gist_each_get_a_reason() -> None:
    notes = [n for n in load_corpus() if 31 <= len(n.split()) <= 60]
    missing = [n for n in notes if generate_gist(n, "moderate") is None]
    reasons = {no_gist_reason(n) for n in missing}
    assert "every clause holds a number, identifier or negation" in reasons
    assert "its code is kept whole" in reasons
    assert all(r and "under" not in r for r in reasons)
