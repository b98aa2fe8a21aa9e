"""A memory written by hand without its times (core.vault.adopted_times): the vault's adoption
of the file (its ``external:`` commit) writes stable times into it, so its age does not restart
at every read, every other byte stays as the person wrote it, and the commit says so."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from core import Vault

WHEN = 1_600_000_000
HAND = ('{\n  "id": "hand",\n  "content": "caf\\u00e9, written by hand  \\n",\n'
        '  "meta": {"tags": ["kept"]},\n  "mine": 1.50\n}\n')


def write_by_hand(path: Path, text: str, mtime: int = WHEN) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, (mtime, mtime))


def last_message(root: Path) -> str:
    return subprocess.run(["git", "log", "-1", "--format=%B"], cwd=root, capture_output=True,
                          text=True, check=True).stdout


def test_a_file_without_times_gets_its_modification_time_once(vault_path: Path) -> None:
    Vault.open(vault_path).close()
    path = vault_path / "memories" / "hand.json"
    write_by_hand(path, HAND)
    first = Vault.open(vault_path)
    memory = first.get("hand")
    assert (memory.created_at, memory.last_used) == (WHEN, WHEN)
    first.close()
    again = Vault.open(vault_path, readonly=True).get("hand")
    assert (again.created_at, again.last_used) == (WHEN, WHEN)  # every read agrees
    data = path.read_bytes()
    assert data == HAND.replace("{\n", f'{{\n  "created_at": {WHEN},\n  "last_used": {WHEN},\n',
                                1).encode()  # every other byte as written
    assert json.loads(data)["content"] == "café, written by hand  \n"
    message = last_message(vault_path)
    assert message.startswith("external: 1 file changed outside memvault (memories/hand.json)")
    assert f"memories/hand.json: created_at={WHEN}, last_used={WHEN} (its modification time)" \
        in message
    status = subprocess.run(["git", "status", "--porcelain"], cwd=vault_path,
                            capture_output=True, text=True, check=True).stdout
    assert status == ""  # what was committed is what is on disk


def test_a_file_with_its_times_is_committed_as_written(vault_path: Path) -> None:
    Vault.open(vault_path).close()
    path = vault_path / "memories" / "timed.json"
    text = '{"id": "timed", "content": "x", "created_at": 5, "last_used": 7}'
    write_by_hand(path, text)
    with Vault.open(vault_path) as vault:
        assert (vault.get("timed").created_at, vault.get("timed").last_used) == (5, 7)
    assert path.read_text() == text
    assert "memvault added" not in last_message(vault_path)


def test_an_edit_that_drops_the_times_keeps_the_committed_ones(vault_path: Path) -> None:
    with Vault.open(vault_path) as vault:
        memory = vault.add("first words")
        path = vault.layout.memory_path(memory.id)
    record = json.loads(path.read_bytes())
    del record["created_at"], record["last_used"]
    record["content"] = "edited by hand"
    write_by_hand(path, json.dumps(record, indent=2), mtime=WHEN)
    with Vault.open(vault_path) as vault:
        edited = vault.get(memory.id)
    assert edited.content == "edited by hand"
    assert (edited.created_at, edited.last_used) == (memory.created_at, memory.last_used)
    assert "(the version committed before)" in last_message(vault_path)


def test_a_file_committed_without_times_takes_its_first_commits_time(vault_path: Path) -> None:
    Vault.open(vault_path).close()
    path = vault_path / "memories" / "hand.json"
    write_by_hand(path, HAND)
    env = {**os.environ, "GIT_AUTHOR_DATE": "@1500000000 +0000",
           "GIT_COMMITTER_DATE": "@1500000000 +0000", "GIT_AUTHOR_NAME": "Person",
           "GIT_AUTHOR_EMAIL": "person@example.org", "GIT_COMMITTER_NAME": "Person",
           "GIT_COMMITTER_EMAIL": "person@example.org"}
    for args in (["add", "memories/hand.json"], ["commit", "-q", "-m", "by hand"]):
        subprocess.run(["git", *args], cwd=vault_path, env=env, check=True)
    write_by_hand(path, HAND.replace("written by hand", "written again"))
    with Vault.open(vault_path) as vault:
        memory = vault.get("hand")
    assert (memory.created_at, memory.last_used) == (1_500_000_000, 1_500_000_000)
    assert "(its first commit)" in last_message(vault_path)


def test_a_relation_without_created_at_gets_it(vault_path: Path) -> None:
    with Vault.open(vault_path) as vault:
        a, b = vault.add("one"), vault.add("two")
    path = vault_path / "relations" / "rel.json"
    write_by_hand(path, json.dumps({"id": "rel", "from_memory_id": a.id, "to_memory_id": b.id,
                                    "relation_type": "related"}))
    with Vault.open(vault_path) as vault:
        assert vault.relations["rel"].created_at == WHEN
    assert json.loads(path.read_bytes())["created_at"] == WHEN


def test_a_file_the_times_would_take_over_the_size_limit_is_adopted_as_written(
        vault_path: Path, monkeypatch) -> None:
    Vault.open(vault_path).close()
    path = vault_path / "memories" / "hand.json"
    write_by_hand(path, HAND)
    monkeypatch.setattr("core.vault.adopted_times.MAX_FILE_BYTES", len(HAND) + 10)
    with Vault.open(vault_path) as vault:
        assert vault.get("hand").content.startswith("café")
    assert path.read_text() == HAND  # committed as it is, never a file no one can read back
    assert "memvault added" not in last_message(vault_path)


def test_a_save_by_the_person_while_the_times_are_worked_out_is_kept(
        vault_path: Path, monkeypatch) -> None:
    from core.vault import adopted_times

    Vault.open(vault_path).close()
    path = vault_path / "memories" / "hand.json"
    write_by_hand(path, HAND)
    newer = HAND.replace("written by hand", "saved again by hand")
    looked_up = adopted_times._first_commit_time

    def person_saves_meanwhile(state, where):  # between memvault's read and its write
        write_by_hand(where, newer)
        return looked_up(state, where)

    monkeypatch.setattr(adopted_times, "_first_commit_time", person_saves_meanwhile)
    Vault.open(vault_path).close()
    assert path.read_text(encoding="utf-8") == newer  # the person's bytes, not memvault's
    committed = subprocess.run(["git", "show", "HEAD:memories/hand.json"], cwd=vault_path,
                               capture_output=True, text=True, check=True).stdout
    assert committed == newer
    assert "added the times" not in last_message(vault_path)
