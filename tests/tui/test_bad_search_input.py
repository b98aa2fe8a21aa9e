"""Whatever is typed, every search door answers and never hangs: ``memvault search``, the MCP
server's search (:class:`tui.mcp.search.Finder`, what ``search_memory`` and ``recall`` ask) and
the app's ``/`` filter (:func:`tui.app.search_rank.search_filter`, its words searched as
``memvault search`` does), each given a query of stopwords alone, of punctuation alone, of
10,000 words, with control characters, a question in Cyrillic, Chinese or Arabic, and a vault
holding a memory at the 16 MiB size limit. (How long each takes is ``bench/``'s business: a
test only shows that each answers, with what it should.)"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from core import Memory, Vault
from core.store.files import MAX_FILE_BYTES
from tui.app.query import parse
from tui.app.search_rank import close_all, search_filter
from tui.app.service import VaultService
from tui.mcp.search import Finder

from cli_support import Run, cli_env, run, vdir  # noqa: F401  (fixtures)

NOW = 1_800_000_000
MEMORIES = {
    "fixtures": "Prefers pytest fixtures over setUp methods",
    "deploy": "Never deploy on Fridays: the on-call rota is thin",
    "coffee": "Где я записал рецепт кофе: в тетради на кухне",
    "tea": "茶 和 咖啡 都 在 柜子 里",
    "arabic": "القهوة في المطبخ على الرف العلوي",
}
TEN_THOUSAND = " ".join(["pytest"] + [f"w{n}" for n in range(9_999)])
#: name -> (query, the ids the search finds; None: no words, every memory by its decay score)
QUERIES = {
    "stopwords alone": ("the on over", {"fixtures", "deploy"}),
    "punctuation alone": ('?! ... ,,, --- "" (*) : ؟ 。', None),
    "10,000 words": (TEN_THOUSAND, {"fixtures"}),
    "control characters": ("pytest\x00 \x1b[31mfixtures\x07 \x1b]0;x\x07 \x9b2J", {"fixtures"}),
    "Cyrillic": ("Где рецепт кофе?", {"coffee"}),
    "Chinese": ("咖啡 在 哪里?", {"tea"}),
    "Arabic": ("أين القهوة؟", {"arabic"}),
}
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _fill(root) -> None:
    with Vault.open(root, create=True) as vault:
        vault.save_many([Memory(id=i, content=c, created_at=NOW - 10, last_used=NOW - 10)
                         for i, c in MEMORIES.items()])


@pytest.fixture
def filled(vdir):
    _fill(vdir)
    return vdir


@pytest.mark.parametrize("name", list(QUERIES))
def test_memvault_search_answers_any_query(run, filled, name):
    query, found = QUERIES[name]
    code, out, err = run("search", "--json", "--limit", "50", "--", query)
    assert code == 0, err
    answer = json.loads(out)
    ids = {h["id"] for h in answer["hits"]}
    if found is None:
        assert answer["mode"] == "filter" and ids == set(MEMORIES)
    else:
        assert ids == found
    code, out, err = run("search", "--", query)  # printed: no control character raw
    assert code == 0 and not RAW.search(out + err)


@pytest.mark.parametrize("name", list(QUERIES))
def test_the_mcp_search_answers_any_query(filled, name):
    query, found = QUERIES[name]
    finder = Finder()
    try:
        with Vault.open(filled) as vault:
            ids = {m.id for m in finder.find(vault, query, statuses=["active"], limit=50)}
    finally:
        finder.close()
    assert ids == (set(MEMORIES) if found is None else found)


@pytest.mark.parametrize("name", list(QUERIES))
def test_the_app_filter_answers_any_query(filled, name):
    query, found = QUERIES[name]
    view = VaultService(filled, clock=lambda: NOW).open()
    try:
        scores, matched = search_filter(view, parse(query))
    finally:
        close_all()
    if found is None:  # nothing to search: the substrings alone, which no memory holds
        assert scores == {} and matched == []
    else:
        assert set(scores) == found and found <= set(matched)


def test_a_memory_at_the_size_limit_is_found_through_every_door(run, filled):
    """16 MiB of text (committed as a person would, by git: the add's own cost is
    ``bench/huge_note.py``'s), a word in it 250,000 times: each door finds it."""
    unit = "the morning coffee ran late and the build was green again "
    content = (unit * (MAX_FILE_BYTES // len(unit)))[:MAX_FILE_BYTES - 4096]
    record = Memory(id="huge", content=content, created_at=NOW - 10, last_used=NOW - 10)
    (filled / "memories" / "huge.json").write_text(
        json.dumps(record.model_dump(mode="json"), indent=2), encoding="utf-8")
    git = ["git", "-C", str(filled), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "add", "memories/huge.json"], check=True, capture_output=True)
    subprocess.run([*git, "commit", "-qm", "add: huge"], check=True, capture_output=True)
    answer = run.json("search", "coffee ran late", "--limit", "5")
    assert [h["id"] for h in answer["hits"]] == ["huge"]
    assert len(answer["hits"][0]["snippet"]["text"]) <= 200
    finder = Finder()
    try:
        with Vault.open(filled) as vault:
            assert [m.id for m in finder.find(vault, "coffee", statuses=["active"], limit=5)] \
                == ["huge"]
    finally:
        finder.close()
    view = VaultService(filled, clock=lambda: NOW).open()
    try:
        scores, matched = search_filter(view, parse("which coffee ran late?"))
    finally:
        close_all()
    assert list(scores) == ["huge"] and matched == ["huge"]
