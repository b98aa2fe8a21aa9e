"""Hostile ids and files: refused on write (nothing written), or reported at open (path and
reason) while every other memory loads; a bad file is never changed on disk."""

from __future__ import annotations

import json
import os

import pytest

from core import InvalidIdError, Memory, PerFileStorage, Relation, UnknownIdError, Vault, check_id

BAD_IDS = {
    "slash": "a/b",
    "backslash": "a\\b",
    "dotdot": "..",
    "dotdot-path": "../escape",
    "dotdot-inside": "a..b",
    "leading-dot": ".hidden",
    "dot": ".",
    "newline": "line\nbreak",
    "tab": "tab\tid",
    "escape": "esc\x1bid",
    "nul": "nul\x00id",
    "zero-width": "zero\u200bwidth",
    "too-long": "x" * 129,
    "empty": "",
    "whitespace": " padded ",
    "absolute": "/etc/passwd",
    "reserved": "NUL",
}


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_check_id_refuses(bad):
    with pytest.raises(InvalidIdError) as info:
        check_id(bad)
    assert "refused" in str(info.value) or "must be" in str(info.value)


@pytest.mark.parametrize("bad", [None, 5, b"bytes"])
def test_check_id_refuses_non_strings(bad):
    with pytest.raises(InvalidIdError):
        check_id(bad)


@pytest.mark.parametrize("good", ["m1", "test-123", "x" * 128, "3f2a9c1e-0000-4000-8000-000000000000",
                                  "note_1", "a.b", "Zürich", "日本"])
def test_check_id_accepts(good):
    assert check_id(good) == good


def _written(vault_path):
    return sorted(p.relative_to(vault_path).as_posix() for p in vault_path.rglob("*")
                  if ".git" not in p.relative_to(vault_path).parts)


@pytest.mark.parametrize("bad", BAD_IDS.values(), ids=BAD_IDS.keys())
def test_bad_id_never_written(vault_path, tmp_path, git_tools, bad):
    v = Vault.open(vault_path)
    keep = v.add("keep me")
    before_files = _written(vault_path)
    before_outside = sorted(p.name for p in tmp_path.iterdir())
    count = git_tools.commit_count(vault_path)
    with pytest.raises(InvalidIdError):
        v.add("content", memory_id=bad)
    with pytest.raises(InvalidIdError):
        v.save(Memory.model_construct(**{**Memory(id="tmp", content="c").model_dump(), "id": bad}))
    with pytest.raises(InvalidIdError):
        v.save_relations([Relation(id=bad, from_memory_id=keep.id, to_memory_id=keep.id,
                                   relation_type="related")])
    storage = PerFileStorage(storage_path=vault_path)
    storage.connect()
    with pytest.raises(InvalidIdError):
        storage.save_memory(Memory.model_construct(
            **{**Memory(id="tmp", content="c").model_dump(), "id": bad}))
    assert _written(vault_path) == before_files
    assert sorted(p.name for p in tmp_path.iterdir()) == before_outside
    assert git_tools.commit_count(vault_path) == count
    assert set(v.memories) == {keep.id}
    git_tools.assert_consistent(v)


@pytest.mark.parametrize("bad", ["../x", "a/b", "..", "", "x" * 300, "nul\x00"])
def test_bad_keys_in_lookups_are_unknown(vault, bad):
    vault.add("x", memory_id="m1")
    for call in (vault.get, vault.history, vault.restore, vault.touch, vault.delete):
        with pytest.raises((UnknownIdError, InvalidIdError)):
            call(bad)


# -- hostile files on disk -----------------------------------------------------------------
def _memory_json(memory_id, content="hand written"):
    return json.dumps({"id": memory_id, "content": content}).encode()


def _make(kind, folder, outside):
    """Create a hostile entry in ``folder``; return (path, expected words in the reason)."""
    if kind == "name-differs":
        p = folder / "alias.json"
        p.write_bytes(_memory_json("other-id"))
        return p, "differs"
    if kind == "invalid-json":
        p = folder / "broken.json"
        p.write_bytes(b'{"id": "broken", "content": ')
        return p, "JSON"
    if kind == "empty-file":
        p = folder / "empty.json"
        p.write_bytes(b"")
        return p, "JSON"
    if kind == "json-list":
        p = folder / "listy.json"
        p.write_bytes(b'[1, 2, 3]')
        return p, ""
    if kind == "json-string":
        p = folder / "stringy.json"
        p.write_bytes(b'"just a string"')
        return p, ""
    if kind == "missing-content":
        p = folder / "nocontent.json"
        p.write_bytes(b'{"id": "nocontent"}')
        return p, "content"
    if kind == "wrong-types":
        p = folder / "wrongtypes.json"
        p.write_bytes(b'{"id": "wrongtypes", "content": "x", "use_count": "many", "strength": -1}')
        return p, "invalid field"
    if kind == "non-utf8":
        p = folder / "latin1.json"
        p.write_bytes(b'{"id": "latin1", "content": "caf\xe9 \xff\xfe"}')
        return p, ""
    if kind == "symlink":
        target = outside / "secret.json"
        target.write_bytes(_memory_json("linked"))
        p = folder / "linked.json"
        p.symlink_to(target)
        return p, "symbolic link"
    if kind == "dangling-symlink":
        p = folder / "dangling.json"
        p.symlink_to(outside / "does-not-exist.json")
        return p, "symbolic link"
    if kind == "directory":
        p = folder / "x.json"
        p.mkdir()
        (p / "inner.json").write_bytes(_memory_json("inner"))
        return p, "regular file"
    if kind == "huge":
        p = folder / "huge.json"
        with open(p, "wb") as fh:
            fh.write(b'{"id": "huge", "content": "')
            fh.truncate(17 * 1024 * 1024)
        return p, "MiB"
    if kind == "bad-file-name":
        p = folder / ("bad\x01name.json")
        p.write_bytes(_memory_json("bad\x01name"))
        return p, "not a valid"
    if kind == "dot-file":
        p = folder / ".dotted.json"
        p.write_bytes(_memory_json(".dotted"))
        return p, "not a valid"
    if kind == "too-long-name":
        name = "y" * 200
        p = folder / f"{name}.json"
        p.write_bytes(_memory_json(name))
        return p, "not a valid"
    if kind == "not-json-suffix":
        p = folder / "notes.txt"
        p.write_bytes(b"a person's notes")
        return p, "not a .json"
    raise AssertionError(kind)


KINDS = ["name-differs", "invalid-json", "empty-file", "json-list", "json-string",
         "missing-content", "wrong-types", "non-utf8", "symlink", "dangling-symlink",
         "directory", "huge", "bad-file-name", "dot-file", "too-long-name", "not-json-suffix"]


def _snapshot_entry(p):
    if p.is_symlink():
        return ("link", os.readlink(p))
    if p.is_dir():
        return ("dir", sorted((c.name, c.read_bytes()) for c in p.iterdir()))
    return ("file", p.read_bytes())


@pytest.mark.parametrize("kind", KINDS)
def test_hostile_memory_file_reported(vault_path, tmp_path, git_tools, kind):
    v = Vault.open(vault_path)
    good = [v.add(f"good {i}") for i in range(3)]
    rel = v.relate(good[0].id, good[1].id, "related")
    v.close()
    outside = tmp_path / "outside"
    outside.mkdir()
    bad, reason_word = _make(kind, vault_path / "memories", outside)
    before = _snapshot_entry(bad)
    outside_before = {p.name: p.read_bytes() for p in outside.iterdir()}

    v = Vault.open(vault_path)
    assert {m.id for m in good} == set(v.memories)
    assert set(v.relations) == {rel.id}
    problems = [p for p in v.problems if p.path == bad]
    assert len(problems) == 1, v.problems
    assert len(v.problems) == 1
    assert problems[0].reason
    assert reason_word in problems[0].reason
    assert str(bad) in str(problems[0])
    assert _snapshot_entry(bad) == before

    # the vault keeps working, and the bad file stays as it is through operations and reopening
    v.touch(good[0].id)
    new = v.add("written after")
    v.delete(good[2].id)
    v2 = Vault.open(vault_path)
    assert set(v2.memories) == {good[0].id, good[1].id, new.id}
    assert [p.path for p in v2.problems] == [bad]
    assert _snapshot_entry(bad) == before
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == outside_before
    head = git_tools.head_tree(v2)
    assert f"memories/{new.id}.json" in head and f"memories/{good[2].id}.json" not in head
    git_tools.run(vault_path, "fsck", "--strict")


@pytest.mark.parametrize("kind", ["invalid-json", "name-differs", "wrong-relation", "symlink"])
def test_hostile_relation_file_reported(vault_path, tmp_path, kind):
    v = Vault.open(vault_path)
    a, b = v.add("a"), v.add("b")
    rel = v.relate(a.id, b.id, "related")
    v.close()
    folder = vault_path / "relations"
    outside = tmp_path / "outside"
    outside.mkdir()
    if kind == "wrong-relation":
        bad = folder / "r-bad.json"
        bad.write_bytes(json.dumps({"id": "r-bad", "from_memory_id": a.id, "to_memory_id": b.id,
                                    "relation_type": "related", "strength": 3}).encode())
    elif kind == "name-differs":
        bad = folder / "r-alias.json"
        bad.write_bytes(json.dumps({"id": "r-other", "from_memory_id": a.id,
                                    "to_memory_id": b.id, "relation_type": "related"}).encode())
    else:
        bad, _ = _make(kind, folder, outside)
    before = _snapshot_entry(bad)
    v = Vault.open(vault_path)
    assert set(v.memories) == {a.id, b.id} and set(v.relations) == {rel.id}
    assert [p.path for p in v.problems] == [bad]
    v.delete(a.id)  # removes the good relation; the bad file is not touched
    assert _snapshot_entry(bad) == before
    assert v.relations == {}


def test_symlink_target_never_written(vault_path, tmp_path):
    v = Vault.open(vault_path)
    v.close()
    target = tmp_path / "precious.json"
    target.write_bytes(_memory_json("victim", "precious data"))
    (vault_path / "memories" / "victim.json").symlink_to(target)
    v = Vault.open(vault_path)
    assert "victim" not in v.memories
    try:
        v.save(Memory(id="victim", content="overwrite attempt"))
    except Exception:
        pass
    v.touch(v.add("other").id)
    assert target.read_bytes() == _memory_json("victim", "precious data")


def test_same_id_in_two_files(vault_path):
    v = Vault.open(vault_path)
    real = v.add("the real one", memory_id="dup")
    v.close()
    (vault_path / "memories" / "impostor.json").write_bytes(_memory_json("dup", "impostor"))
    v = Vault.open(vault_path)
    assert v.get("dup") == real
    assert [p.path.name for p in v.problems] == ["impostor.json"]


def test_many_hostile_files_at_once(vault_path, tmp_path, git_tools):
    v = Vault.open(vault_path)
    good = {v.add(f"good {i}").id for i in range(5)}
    v.close()
    outside = tmp_path / "outside"
    outside.mkdir()
    made = {}
    for kind in KINDS:
        path, _ = _make(kind, vault_path / "memories", outside)
        made[path] = _snapshot_entry(path)
    v = Vault.open(vault_path)
    assert set(v.memories) == good
    assert {p.path for p in v.problems} == set(made)
    for path, snap in made.items():
        assert _snapshot_entry(path) == snap
    # stats report them too
    assert len(v.stats()["problems"]) == len(made)


def test_corrupt_meta_does_not_stop_open(vault_path):
    v = Vault.open(vault_path)
    m = v.add("x")
    v.close()
    (vault_path / ".meta.json").write_bytes(b"\xff not json")
    v = Vault.open(vault_path)
    assert v.get(m.id) == m
    assert (vault_path / ".meta.json").read_bytes() == b"\xff not json"
