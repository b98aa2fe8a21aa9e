"""The memory-latest merge driver: the decision rule (core.sync.memory_latest), unit by unit, then the
`memvault-merge-driver` program as git runs it (a real `git merge` in a temporary repository)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.store.layout import MAX_FILE_BYTES, Layout
from core.sync.conflict_markers import conflict_text, has_conflict_markers
from core.sync.memory_latest import canonical, kind_of, merge
from core.sync.merge_driver import main, run
from core.model.records import Memory, MemoryMetadata, MemoryStatus, Relation

MEM = "vault/memories/m1.json"
REL = "vault/relations/r1.json"
META = "vault/.meta.json"


def mem(**fields) -> Memory:
    base = dict(id="m1", content="the user prefers pytest", created_at=1_000, last_used=1_000,
                use_count=0)
    base.update(fields)
    return Memory(**base)


def rel(**fields) -> Relation:
    base = dict(id="r1", from_memory_id="a", to_memory_id="b", relation_type="related",
                created_at=1_000)
    base.update(fields)
    return Relation(**base)


def enc(record) -> bytes:
    return Layout.encode(record)


def as_memory(data: bytes) -> Memory:
    return Memory.model_validate_json(data)


def both_ways(ancestor, ours, theirs, path=MEM):
    """Merge with the sides one way and the other: every machine must decide the same."""
    one = merge(ancestor, ours, theirs, path)
    two = merge(ancestor, theirs, ours, path)
    assert one.clean and two.clean, (one.reason, two.reason)
    assert one.data == two.data
    return one


# -- the winner ----------------------------------------------------------------------------------
def test_kind_from_the_path():
    assert kind_of("memories/x.json") == "memory"
    assert kind_of("a/b/memories/x.json") == "memory"
    assert kind_of("notes/vault/relations/r.json") == "relation"
    assert kind_of(".meta.json") == "meta" and kind_of("v/.meta.json") == "meta"
    assert kind_of("notes/todo.md") == "unknown"


def test_later_last_used_wins_whole_record_without_ancestor():
    early = mem(last_used=2_000, use_count=5, strength=1.5)
    late = mem(last_used=3_000, use_count=1, strength=1.0, content="newer text")
    out = both_ways(b"", enc(early), enc(late))
    got = as_memory(out.data)
    assert got.content == "newer text" and got.last_used == 3_000 and got.strength == 1.0
    assert got.use_count == 5  # no ancestor: the larger count, never lost
    assert "later last_used" in out.reason


def test_tie_on_last_used_goes_to_higher_use_count():
    a, b = mem(last_used=2_000, use_count=3, content="A"), mem(last_used=2_000, use_count=4,
                                                                 content="B")
    out = both_ways(None, enc(a), enc(b))
    assert as_memory(out.data).content == "B"
    assert "higher use_count" in out.reason


def test_full_tie_broken_by_canonical_json_the_same_on_both_machines():
    a = mem(last_used=2_000, use_count=3, content="apple")
    b = mem(last_used=2_000, use_count=3, content="banana")
    out = both_ways(None, enc(a), enc(b))
    winner = max((a, b), key=lambda m: canonical(m.model_dump(mode="json")))
    assert as_memory(out.data).content == winner.content
    assert "fixed order" in out.reason


def test_same_bytes_on_both_sides():
    out = merge(None, enc(mem()), enc(mem()), MEM)
    assert out.clean and out.decision == "same" and out.data == enc(mem())


# -- field by field with an ancestor -------------------------------------------------------------
def test_touches_on_both_machines_all_count_and_later_last_used_wins():
    base = mem(use_count=2, last_used=1_000)
    ours = base.model_copy(update={"use_count": 5, "last_used": 2_000})  # touched 3 times
    theirs = base.model_copy(update={"use_count": 3, "last_used": 3_000})  # once, later
    out = both_ways(enc(base), enc(ours), enc(theirs))
    got = as_memory(out.data)
    assert got.last_used == 3_000
    assert got.use_count == 2 + 3 + 1  # not max(5, 3): no touch is lost
    assert any("use_count" in n for n in out.notes)


def test_a_change_on_the_losing_side_is_not_lost():
    base = mem(content="old text", gist=None, meta=MemoryMetadata(tags=["a"]))
    edited = base.model_copy(update={"content": "edited text", "gist": "edited",
                                     "meta": MemoryMetadata(tags=["a"], source="chat")})
    touched = base.model_copy(update={"last_used": 5_000, "use_count": 1,
                                      "meta": MemoryMetadata(tags=["a", "b"])})
    out = both_ways(enc(base), enc(edited), enc(touched))
    got = as_memory(out.data)
    assert (got.content, got.gist) == ("edited text", "edited")  # content and gist together
    assert got.last_used == 5_000 and got.use_count == 1
    assert got.meta.tags == ["a", "b"] and got.meta.source == "chat"  # meta key by key
    assert out.decision == "merged"


def test_content_changed_on_both_sides_takes_the_winners_content_and_gist():
    base = mem(content="base", gist="g0")
    a = base.model_copy(update={"content": "from A", "gist": "gA", "last_used": 2_000})
    b = base.model_copy(update={"content": "from B", "gist": None, "last_used": 3_000})
    got = as_memory(both_ways(enc(base), enc(a), enc(b)).data)
    assert (got.content, got.gist) == ("from B", None)


def test_status_group_and_one_sided_boost():
    base = mem(strength=1.0)
    archived = base.model_copy(update={"status": MemoryStatus.ARCHIVED})
    boosted = base.model_copy(update={"strength": 1.1, "use_count": 1, "last_used": 4_000})
    got = as_memory(both_ways(enc(base), enc(archived), enc(boosted)).data)
    assert got.status == MemoryStatus.ARCHIVED and got.strength == 1.1 and got.use_count == 1


def test_unknown_keys_survive_a_merge():
    base = json.loads(enc(mem()))
    ours = dict(base, future_field={"x": 1})
    theirs = dict(base, last_used=9_000)
    out = both_ways(json.dumps(base).encode(), json.dumps(ours).encode(),
                    json.dumps(theirs).encode())
    data = json.loads(out.data)
    assert data["future_field"] == {"x": 1} and data["last_used"] == 9_000


def test_result_is_in_the_vaults_own_format():
    base = mem()
    ours = json.dumps(json.loads(enc(base.model_copy(update={"use_count": 1}))),
                      separators=(",", ":")).encode()  # hand-written, compact
    out = merge(enc(base), ours, enc(base.model_copy(update={"last_used": 7_000})), MEM)
    assert out.data == enc(as_memory(out.data))


# -- relations and .meta.json ----------------------------------------------------------------------
def test_relation_later_created_at_wins_and_fields_merge():
    base = rel(strength=0.5)
    a = base.model_copy(update={"strength": 0.9})
    b = base.model_copy(update={"metadata": {"why": "seen together"}})
    got = Relation.model_validate_json(both_ways(enc(base), enc(a), enc(b), REL).data)
    assert got.strength == 0.9 and got.metadata == {"why": "seen together"}
    early, late = rel(created_at=1_000, strength=0.1), rel(created_at=2_000, strength=0.2)
    out = both_ways(b"", enc(early), enc(late), REL)
    assert Relation.model_validate_json(out.data).strength == 0.2
    assert "later created_at" in out.reason


def test_meta_times_and_the_maintenance_setting():
    base = {"storage_version": 2, "created_at": 100, "machine_id": "a", "last_gc_at": None,
            "last_consolidation_at": None, "migrated_from": None}
    ours = dict(base, last_gc_at=500, machine_id="laptop")
    theirs = dict(base, maintenance_machine="laptop", last_consolidation_at=300)
    out = both_ways(enc(base), enc(ours), enc(theirs), META)
    data = json.loads(out.data)
    assert data["last_gc_at"] == 500 and data["last_consolidation_at"] == 300
    assert data["maintenance_machine"] == "laptop" and data["machine_id"] == "laptop"
    two_inits = both_ways(b"", enc(dict(base, created_at=100)), enc(dict(base, created_at=50)),
                          META)
    assert json.loads(two_inits.data)["created_at"] == 50


# -- what is never merged ------------------------------------------------------------------------
@pytest.mark.parametrize("bad_side", ["ours", "theirs"])
@pytest.mark.parametrize("bad", [b"{not json", b"[1, 2]", b'{"id": "m1"}',
                                 b"<<<<<<< ours\n{}\n=======\n{}\n>>>>>>> theirs\n"])
def test_a_side_that_does_not_parse_gives_conflict_markers(bad_side, bad):
    good = enc(mem(last_used=9_999))
    ours, theirs = (bad, good) if bad_side == "ours" else (good, bad)
    out = merge(enc(mem()), ours, theirs, MEM)
    assert not out.clean and out.decision == "conflict"
    assert f"{bad_side} is not a valid memory" in out.reason
    assert has_conflict_markers(out.data)
    assert ours.strip() in out.data and theirs.strip() in out.data  # both kept for a person
    assert out.data.startswith(b"<<<<<<< ours") and b"\n=======\n" in out.data
    assert b"||||||| ancestor" in out.data


def test_a_file_whose_id_is_not_its_name_on_either_side_is_a_conflict():
    out = merge(None, enc(mem(id="x")), enc(mem(id="y")), MEM)
    assert not out.clean and "neither side" in out.reason


def test_a_rename_pairing_keeps_the_files_own_record():
    # git paired a deleted m9 with the new m1 (similar files): m1's version stands as it is
    ours = enc(mem(id="m9", last_used=9_000, use_count=7))
    theirs = enc(mem(id="m1", content="consolidated"))
    out = both_ways(enc(mem(id="m9")), ours, theirs)
    assert as_memory(out.data).id == "m1" and as_memory(out.data).content == "consolidated"


def test_not_a_vault_record_is_a_conflict():
    out = merge(b"a\n", b"b\n", b"c\n", "notes/todo.md")
    assert not out.clean and has_conflict_markers(out.data)


def test_conflict_text_and_markers():
    text = conflict_text(None, b"{}", b"{", "memories/m1.json", "theirs is bad")
    assert text == (b"<<<<<<< ours: memories/m1.json\n{}\n=======\n{\n"
                    b">>>>>>> theirs: theirs is bad\n")
    assert has_conflict_markers(text) and not has_conflict_markers(enc(mem()))


# -- symmetry and validity over many records -------------------------------------------------------
_times = st.integers(min_value=1_000, max_value=1_010)
_counts = st.integers(min_value=0, max_value=4)
_side = st.fixed_dictionaries({
    "last_used": _times, "use_count": _counts, "content": st.sampled_from(["a", "b", "c"]),
    "tags": st.lists(st.sampled_from(["x", "y", "z"]), max_size=2, unique=True),
    "strength": st.sampled_from([1.0, 1.1, 1.5]),
    "status": st.sampled_from(list(MemoryStatus)),
})


def _from(d) -> Memory:
    return mem(last_used=d["last_used"], use_count=d["use_count"], content=d["content"],
               meta=MemoryMetadata(tags=d["tags"]), strength=d["strength"], status=d["status"])


@settings(max_examples=150, deadline=None)
@given(base=_side, ours=_side, theirs=_side, with_base=st.booleans())
def test_every_machine_decides_the_same_and_nothing_is_lost(base, ours, theirs, with_base):
    b, o, t = _from(base), _from(ours), _from(theirs)
    b = b.model_copy(update={"use_count": min(b.use_count, o.use_count, t.use_count),
                             "last_used": min(b.last_used, o.last_used, t.last_used)})
    ancestor = enc(b) if with_base else b""
    one, two = merge(ancestor, enc(o), enc(t), MEM), merge(ancestor, enc(t), enc(o), MEM)
    assert one.clean and one.data == two.data
    got = as_memory(one.data)
    assert got.last_used == max(o.last_used, t.last_used)
    assert got.use_count >= max(o.use_count, t.use_count)
    if with_base and enc(o) != enc(t):  # identical sides: git never calls a driver
        assert got.use_count == b.use_count + (o.use_count - b.use_count) + (
            t.use_count - b.use_count)
    assert one.data == enc(got)


# -- the driver as a program ---------------------------------------------------------------------
def test_run_writes_the_result_into_the_current_file(tmp_path):
    o, a, b = (tmp_path / n for n in ("O", "A", "B"))
    o.write_bytes(enc(mem()))
    a.write_bytes(enc(mem(use_count=1, last_used=2_000)))
    b.write_bytes(enc(mem(use_count=1, last_used=3_000)))
    log = tmp_path / "log"
    assert run(str(o), str(a), str(b), MEM, log_file=str(log)) == 0
    got = as_memory(a.read_bytes())
    assert (got.use_count, got.last_used) == (2, 3_000)
    entry = json.loads(log.read_text())
    assert entry["path"] == MEM and entry["decision"] == "merged" and entry["clean"]


def test_the_command_takes_paths_as_arguments_only(tmp_path):
    """Names with spaces, quotes and shell syntax are file names, nothing else (the installed
    program git runs)."""
    from core.sync.install import driver_program

    program = str(driver_program())
    folder = tmp_path / "we'ird $(touch pwned) `x`"
    folder.mkdir()
    o, a, b = (folder / f"{n} ; rm -rf ~.json" for n in ("O", "A", "B"))
    o.write_bytes(b"")
    a.write_bytes(enc(mem(last_used=2_000)))
    b.write_bytes(b"{broken")
    proc = subprocess.run([program, str(o), str(a), str(b), "memories/m1.json"],
                          capture_output=True, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert has_conflict_markers(a.read_bytes()) and b"{broken" in a.read_bytes()
    assert b"conflict markers left" in proc.stderr
    assert not (tmp_path / "pwned").exists()
    b.write_bytes(enc(mem(last_used=3_000)))
    a.write_bytes(enc(mem(last_used=2_000)))
    proc = subprocess.run([program, str(o), str(a), str(b), "memories/m1.json"],
                          capture_output=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert as_memory(a.read_bytes()).last_used == 3_000


def test_a_side_larger_than_a_vault_file_is_never_merged(tmp_path, capsys):
    """Too large to be a vault file: not read, conflict markers around the other side and a
    line saying so, for a person; an ancestor that large is left out."""
    o, a, b = (tmp_path / n for n in ("O", "A", "B"))
    o.write_bytes(enc(mem()))
    a.write_bytes(enc(mem(use_count=1, last_used=2_000)))
    b.write_bytes(enc(mem(content="x" * (MAX_FILE_BYTES + 1), last_used=3_000)))
    log = tmp_path / "log"
    assert run(str(o), str(a), str(b), MEM, log_file=str(log)) == 1
    out = a.read_bytes()
    assert has_conflict_markers(out) and len(out) < 10_000 and b"xxxx" not in out
    assert f"theirs: {b.stat().st_size} bytes, larger than the 16 MiB".encode() in out
    assert b'"use_count": 1' in out  # ours, as it was
    entry = json.loads(log.read_text())
    assert not entry["clean"] and "theirs is" in entry["reason"] and "not merged" in entry["reason"]
    assert "larger than the 16 MiB" in capsys.readouterr().err

    a.write_bytes(enc(mem(use_count=1, last_used=2_000)))
    b.write_bytes(enc(mem(use_count=1, last_used=3_000)))
    o.write_bytes(b"x" * (MAX_FILE_BYTES + 1))  # a huge ancestor: merged as if both added it
    assert run(str(o), str(a), str(b), MEM, log_file=None) == 0
    assert as_memory(a.read_bytes()).last_used == 3_000


def test_main_takes_exactly_four_file_names(tmp_path, capsys):
    assert main([]) == 2 and main(["--help"]) == 2
    assert "usage: memvault-merge-driver" in capsys.readouterr().err
    o, a, b = (tmp_path / n for n in ("O", "A", "B"))
    o.write_bytes(b"")
    a.write_bytes(enc(mem(last_used=2_000)))
    b.write_bytes(enc(mem(last_used=3_000)))
    assert main([str(o), str(a), str(b), "-memories/m1.json"]) == 0  # a name, never an option
    assert as_memory(a.read_bytes()).last_used == 3_000


def test_the_driver_never_shows_control_characters_raw(tmp_path, capsys):
    o, a, b = (tmp_path / n for n in ("O", "A", "B"))
    o.write_bytes(b"")
    a.write_bytes(enc(mem()))
    b.write_bytes(b"{broken")
    assert run(str(o), str(a), str(b), "memories/\x1b[2Jm1.json") == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b[2J" in err


def _git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
                          cwd=cwd, capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_git_merge_runs_the_installed_driver(tmp_path):
    """A person's own `git merge` in a clone where `memvault sync install` ran: git runs the
    driver; a corrupt side leaves the file conflicted, with markers, for the person."""
    from core import Vault
    from core.sync.engine import install

    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    vault = Vault.open(repo / "notes" / "vault", inside_repo=True)
    install(vault)
    assert _git(repo, "check-attr", "merge", "--", "notes/vault/memories/m1.json").stdout \
        .strip().endswith("merge: memory-latest")
    vault.save(mem(id="m1"))
    _git(repo, "checkout", "-q", "-b", "other")
    path = repo / "notes" / "vault" / "memories" / "m1.json"
    path.write_bytes(enc(mem(id="m1", use_count=1, last_used=3_000)))
    _git(repo, "commit", "-q", "-am", "theirs: touch")
    _git(repo, "checkout", "-q", "main")
    path.write_bytes(enc(mem(id="m1", use_count=1, last_used=2_000, content="edited here")))
    _git(repo, "commit", "-q", "-am", "ours: edit + touch")
    _git(repo, "merge", "-q", "--no-edit", "other")
    got = as_memory(path.read_bytes())
    assert (got.content, got.last_used, got.use_count) == ("edited here", 3_000, 2)

    _git(repo, "checkout", "-q", "-b", "broken")
    path.write_bytes(b"{ this is not json\n")
    _git(repo, "commit", "-q", "-am", "theirs: corrupt")
    _git(repo, "checkout", "-q", "main")
    path.write_bytes(enc(got.model_copy(update={"use_count": 9})))
    _git(repo, "commit", "-q", "-am", "ours: touch")
    proc = _git(repo, "merge", "--no-edit", "broken", check=False)
    assert proc.returncode != 0
    assert "CONFLICT" in proc.stdout
    assert has_conflict_markers(path.read_bytes())
    assert b"{ this is not json" in path.read_bytes()
    unmerged = _git(repo, "ls-files", "-u").stdout
    assert "notes/vault/memories/m1.json" in unmerged
    _git(repo, "merge", "--abort")
