"""The secret check sits in the one write path (``Writing._commit``): every way in gets it.
Under the default policy each is refused with the kind and the place, and writes nothing (same
HEAD, same ``git status``); ``redact`` stores ``[REDACTED:kind]``; ``allow`` stores it as is;
a secret already in a record is not a new one (touch, archive, split of it go on working)."""

from __future__ import annotations

import json

import pytest

from migrate_support import memory_line, write_store
from secrets_support import AWS, GITHUB, PASSWORD, run_git

from core import Memory, MemoryMetadata, Vault, VaultError
from core.io.markdown_import import import_markdown
from core.io.migrate import migrate_jsonl
from core.ops.split import execute_split
from core.secrets.policy import ENV, SecretRefusedError
from core.vault import Plan


def state(vault: Vault) -> tuple[str, str]:
    return (run_git(vault.root, "rev-parse", "HEAD"),
            run_git(vault.root, "status", "--porcelain", "--untracked-files=all"))


def refused(vault: Vault, write, *says: str) -> SecretRefusedError:
    before = state(vault)
    with pytest.raises(SecretRefusedError) as caught:
        write()
    assert state(vault) == before
    text = str(caught.value)
    assert "nothing was written" in text and "--allow-secret" in text
    for part in says:
        assert part in text
    assert AWS not in text and GITHUB not in text  # the secret itself is never repeated
    return caught.value


def test_add_is_refused_naming_the_kind_and_place(vault):
    error = refused(vault, lambda: vault.add(f"deploy with {AWS} please"),
                    "aws-key in content at offset 12")
    assert error.to_json()[0]["field"] == "content"


@pytest.mark.parametrize("kwargs, where", [
    ({"tags": ["ok", GITHUB]}, "meta.tags[1]"),
    ({"source": f"from {GITHUB}"}, "meta.source"),
    ({"context": f"ctx {GITHUB}"}, "meta.context"),
    ({"entities": [GITHUB]}, "entities[0]"),
])
def test_tags_and_meta_are_checked_too(vault, kwargs, where):
    refused(vault, lambda: vault.add("a plain memory", **kwargs), f"github-token in {where}")


def test_update_and_save_are_refused(vault):
    m = vault.add("a plain memory about coffee")
    refused(vault, lambda: vault.update(m.id, content=f"now {AWS}"), "aws-key in content")
    extra = MemoryMetadata(extra={"password": PASSWORD})
    refused(vault, lambda: vault.update(m.id, meta=extra),
            "password-assignment in meta.extra.password")
    refused(vault, lambda: vault.save(Memory(id="abcd1234", content=f"x {AWS}")), "aws-key")
    assert vault.get(m.id).content == "a plain memory about coffee"


def test_relation_metadata_is_checked(vault):
    a, b = vault.add("first memory"), vault.add("second memory")
    refused(vault, lambda: vault.relate(a.id, b.id, "related", metadata={"note": GITHUB}),
            "github-token in metadata.note")


def test_a_plan_and_its_plain_files_are_checked(vault):
    plan = Plan("import: one", put_memories=[Memory(id="feed0001", content="fine text")],
                put_files={".backup/source.txt": f"line one\ntoken {GITHUB}\n".encode()})
    refused(vault, lambda: vault.apply(plan), ".backup/source.txt (github-token")


def test_migrate_refuses_an_import_file_holding_a_secret(vault, tmp_path):
    store = write_store(tmp_path / "cg", [memory_line("m1", f"my key {AWS} is here"),
                                          memory_line("m2", "clean")])
    refused(vault, lambda: migrate_jsonl(vault, store), "aws-key in content")


def test_markdown_import_refuses_a_secret(vault, tmp_path):
    folder = tmp_path / "md"
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "2026-01-15.md").write_text(
        f"## 14:30 - CI set-up\n\nThe CI token is {GITHUB} for now.\n\nTags: #ci\n")
    refused(vault, lambda: import_markdown(vault, folder), "github-token")


def test_redact_by_environment_stores_placeholders(vault, monkeypatch, tmp_path):
    monkeypatch.setenv(ENV, "redact")
    m = vault.add(f"deploy with {AWS} please", tags=[GITHUB])
    assert m.content == "deploy with [REDACTED:aws-key] please"
    assert m.meta.tags == ["[REDACTED:github-token]"]
    on_disk = json.loads((vault.root / "memories" / f"{m.id}.json").read_text())
    assert on_disk["content"] == m.content and vault.get(m.id) == m
    assert AWS not in run_git(vault.root, "log", "-p", "--all")
    assert any("aws-key in content" in n for n in vault.notices)
    store = write_store(tmp_path / "cg", [memory_line("m1", f"my key {AWS} is here")])
    report = migrate_jsonl(vault, store)
    assert AWS not in run_git(vault.root, "log", "-p", "--all")  # the backup copy too
    assert report.commit


def test_redact_from_the_vaults_meta_and_allow_wins(vault_path, monkeypatch):
    vault = Vault.open(vault_path)
    vault.apply(lambda v: Plan("secrets: policy redact", meta={"secrets": "redact"}))
    assert "[REDACTED:aws-key]" in vault.add(f"k {AWS}").content
    allowed = Vault.open(vault_path, secrets="allow")
    assert allowed.add(f"k {AWS}").content == f"k {AWS}"
    monkeypatch.setenv(ENV, "refuse")  # the environment wins over the meta
    refused(Vault.open(vault_path), lambda: Vault.open(vault_path).add(f"k {AWS}"))
    monkeypatch.setenv(ENV, "sometimes")
    with pytest.raises(VaultError, match="MEMVAULT_SECRETS must be one of"):
        Vault.open(vault_path).add(f"k {AWS}")


def test_a_secret_already_stored_is_not_a_new_one(vault_path):
    allowed = Vault.open(vault_path, secrets="allow")
    m = allowed.add(f"deploy with {AWS} please; the alpha part. And the beta part here.")
    vault = Vault.open(vault_path)
    assert vault.touch(m.id)[0].use_count == 1
    vault.archive(m.id)
    vault.unarchive(m.id)
    vault.update(m.id, content=m.content + " More.")  # same secret, new words: fine
    refused(vault, lambda: vault.update(m.id, content=m.content + f" {GITHUB}"),
            "github-token")
    result = execute_split(vault, m.id, [f"deploy with {AWS} please", "the beta part here."])
    assert len(result.parts) == 2


def test_outside_edits_are_committed_as_the_person_wrote_them(vault_path):
    vault = Vault.open(vault_path)
    m = vault.add("a plain memory")
    other = vault.add("another plain memory")
    path = vault_path / "memories" / f"{m.id}.json"
    record = json.loads(path.read_text())
    record["content"] = f"edited by hand with {AWS}"
    path.write_text(json.dumps(record, indent=2))
    again = Vault.open(vault_path)  # adopted at open (external:), byte for byte
    assert again.get(m.id).content == f"edited by hand with {AWS}"
    assert run_git(vault_path, "status", "--porcelain") == ""
    [note] = [n for n in again.notices if "edited outside memvault" in n]  # and said
    assert f"memories/{m.id}.json" in note and AWS not in note
    again.notices.clear()
    # an edit made while the vault is open is committed before a write to that file, and said
    path = vault_path / "memories" / f"{other.id}.json"
    record = json.loads(path.read_text())
    record["content"] = f"edited while open {GITHUB}"
    path.write_text(json.dumps(record, indent=2))
    again.update(other.id, content=f"edited while open {GITHUB} and more")  # not new: allowed
    assert GITHUB in run_git(vault_path, "log", "-p", "-2")
    [note] = [n for n in again.notices if "edited outside memvault" in n]
    assert f"memories/{other.id}.json" in note and "github-token in content" in note
    assert f"memvault purge {other.id[:8]}" in note and GITHUB not in note


@pytest.mark.parametrize("text", [
    "HEROKU_API_KEY 3f8c2a1e-9b7d-4c3e-8f1a-2b3c4d5e6f70",
    "the deploy key is 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "her bank password is Tr0ub4dor&3",
])
def test_a_secret_said_in_words_is_refused_and_scan_finds_it(vault_path, text):
    from core.secrets.history import scan_history

    vault = Vault.open(vault_path)
    refused(vault, lambda: vault.add(text), "nothing was written")
    kept = vault.add("ids are fine: memory 3f8c2a1e-9b7d-4c3e-8f1a-2b3c4d5e6f70, commit "
                     "9fceb02d0ae598e95dc970b74767f19372d61af8")
    allowed = Vault.open(vault_path, secrets="allow")
    allowed.add(text)
    found = scan_history(Vault.open(vault_path)).findings
    assert found and kept.id not in {getattr(f, "record", "") for f in found}


def test_no_commit_subject_carries_a_secret_whatever_the_policy(vault_path):
    """``--allow-secret`` stores the text byte for byte, but the subjects made of its words
    (add, touch, update, delete) show ``[REDACTED:<kind>]``; so does a secret cut in half at
    the subject's last word, and one a caller's own message names."""
    allowed = Vault.open(vault_path, secrets="allow")
    m = allowed.add(f"deploy with {AWS} please")
    assert allowed.get(m.id).content == f"deploy with {AWS} please"
    assert AWS in (vault_path / "memories" / f"{m.id}.json").read_text()
    cut = allowed.add(f"{GITHUB}/{AWS} and a few words")  # no space: cut inside a secret
    vault = Vault.open(vault_path)
    vault.touch(m.id)
    vault.update(m.id, content=f"deploy with {AWS} please, now")
    vault.save(vault.get(cut.id).model_copy(update={"strength": 1.5}),
               message=f"save: by hand {GITHUB}")
    vault.delete(m.id)
    subjects = run_git(vault_path, "log", "--format=%B")
    assert AWS not in subjects and GITHUB not in subjects
    assert GITHUB[:12] not in subjects and AWS[:8] not in subjects  # never half of one
    assert subjects.count("[REDACTED:aws-key]") == 4  # add, touch, update, delete
    assert "save: by hand [REDACTED:github-token]" in subjects  # a caller's own message
