"""A remote that wants to harm the machine that syncs with it: a bare remote, a plain
git clone of it (the attacker, no memvault) that pushes hostile commits, and the victim's vault
running ``core.sync.engine.sync``. After each case: nothing outside the vault was touched, deleted or
committed, the victim's memories are intact, the vault keeps working, and ``git fsck`` is clean.

The hostile commits: ``sync-conflicts`` as a link to elsewhere and a link inside it; ``tui/`` and
``core/`` packages at the repository's root; ``.meta.json`` as a link to a secret JSON file;
records as links and under odd names; a 20 MiB memory; a ``.gitattributes`` naming other merge,
filter and diff drivers."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from vault_support import run_git
from sync_support import LAYOUTS, T0, Attacker, at, make_world, new

from core import VaultError
from core.store.layout import MAX_FILE_BYTES
from core.sync.conflict_markers import has_conflict_markers
from core.sync.engine import last_sync
from tui import cli


@pytest.fixture(params=LAYOUTS)
def world(request, tmp_path):
    """The victim (``world.a``, with memories ``mine`` and ``shared`` pushed) and the attacker
    (``world.evil``, up to date with them)."""
    w = make_world(tmp_path, request.param, second=False)
    new(w.a, "mine", "the victim's own memory")
    new(w.a, "shared", "a memory both machines use")
    assert w.a.sync().pushed
    w.evil = Attacker(w, tmp_path)
    return w


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder outside every repository, with files that must survive untouched."""
    folder = tmp_path / "outside"
    (folder / "deeper").mkdir(parents=True)
    (folder / "decoy.txt").write_text("DECOY-7a6b5c: the person's file, must survive\n")
    (folder / "deeper" / "notes.md").write_text("more of the person's files\n")
    (folder / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (folder / "secret.json").write_text(json.dumps({
        "storage_version": 2, "created_at": T0, "api_key": "SECRET-0f9e8d7c"}))
    return folder


def snapshot(folder: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every entry below ``folder`` (links not followed): mode and content (or link target)."""
    found = {}
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(base) / name
            st = path.lstat()
            if path.is_symlink():
                found[str(path.relative_to(folder))] = (st.st_mode, os.readlink(path))
            elif path.is_file():
                found[str(path.relative_to(folder))] = (st.st_mode, path.read_bytes())
            else:
                found[str(path.relative_to(folder))] = (st.st_mode, b"")
    return found


def assert_unharmed(world, outside: Path, before: dict, secrets: tuple[str, ...] = ()) -> None:
    """Nothing outside changed, nothing from outside in any commit (victim and remote), the
    victim's memories intact, git fsck clean."""
    a = world.a
    assert snapshot(outside) == before
    secrets = secrets + ("SECRET-0f9e8d7c", "root:x:0:0", "DECOY-7a6b5c")
    for repo in (a.repo, world.remote):
        for secret in secrets:  # in no file of any commit, in no commit message
            assert run_git(repo, "log", "--all", "--format=%H", "-S", secret) == "", secret
            assert secret not in run_git(repo, "log", "--all", "--format=%B"), secret
        run_git(repo, "fsck", "--no-progress")
    fresh = a.reopen()
    assert fresh.memories["mine"].content == "the victim's own memory"
    assert "shared" in fresh.memories
    for secret in secrets:
        assert secret not in json.dumps(fresh.meta)
    fresh.add("the vault keeps working after the attack")  # a write still works


def attempt(machine):
    """Sync, returning the report or the VaultError (checks of the harm come first)."""
    try:
        return machine.sync()
    except VaultError as exc:
        return exc


# -- sync-conflicts ----------------------------------------------------------------------------
def test_sync_conflicts_as_a_link_to_elsewhere_deletes_nothing_there(world, outside):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    head = a.head()
    os.symlink(outside, evil.vault / "sync-conflicts")
    evil.push("sync-conflicts, pointing at the person's files")
    result = attempt(a)
    assert snapshot(outside) == before  # 951793c deleted every file in it here
    assert isinstance(result, VaultError) and "sync-conflicts" in str(result)
    assert "nothing was brought in" in str(result)
    assert a.head() == head and not os.path.lexists(a.vault_dir / "sync-conflicts")
    assert last_sync(a.vault)["outcome"] == "error"

    # the same link already in the work tree (a person's `git pull`, an older memvault): every
    # sync refuses it before deleting anything through it
    evil.git("rm", "-q", f"{evil.prefix}sync-conflicts")
    evil.push("remove it again")
    os.symlink(outside, a.vault_dir / "sync-conflicts")
    with pytest.raises(VaultError, match="is a symbolic link"):
        a.sync()
    assert snapshot(outside) == before
    os.unlink(a.vault_dir / "sync-conflicts")
    assert a.sync().ok
    assert_unharmed(world, outside, before)


def test_a_link_inside_sync_conflicts_is_never_written_through(world, outside, monkeypatch):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    (evil.vault / "sync-conflicts").mkdir()
    os.symlink(outside, evil.vault / "sync-conflicts" / "memories")
    evil.push("a link inside sync-conflicts")
    a.git("pull", "-q", "--ff-only", "origin", "main")  # a person pulls it in by hand (sync
    assert os.path.islink(a.vault_dir / "sync-conflicts" / "memories")  # refuses it, above)

    # then a conflict for a person: the file with markers must not land through the link
    evil.git("rm", "-q", "-r", f"{evil.prefix}sync-conflicts")
    (evil.vault / "memories" / "shared.json").write_text('{"id": "shared", "content": ')
    evil.push("a corrupt side, so sync writes a conflict file")
    a.reopen()
    at(monkeypatch, T0 + 50)
    a.vault.touch("shared")
    head = a.head()
    result = attempt(a)
    assert snapshot(outside) == before  # 951793c wrote the conflict file in there
    assert isinstance(result, VaultError) and "is a symbolic link" in str(result)
    assert a.head() == head

    a.git("rm", "-q", "-r", "--cached", f"{evil.prefix}sync-conflicts")
    os.unlink(a.vault_dir / "sync-conflicts" / "memories")
    a.git("-c", "user.name=P", "-c", "user.email=p@e", "commit", "-q", "-m", "person: rm link")
    report = a.sync()
    assert report.outcome == "conflict"  # now in a real folder, for the person
    waiting = a.vault_dir / "sync-conflicts" / "memories" / "shared.json"
    assert not waiting.is_symlink() and has_conflict_markers(waiting.read_bytes())
    assert oct(waiting.stat().st_mode & 0o777) == oct(0o600)
    assert_unharmed(world, outside, before)


# -- the merge driver --------------------------------------------------------------------------
PACKAGE = "open({marker!r}, 'a').write({name!r} + '\\n')\n"


def test_packages_committed_at_the_root_are_never_imported_by_the_driver(world, outside,
                                                                         tmp_path, monkeypatch):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    marker = tmp_path / "pwned"
    for name in ("tui/__init__.py", "tui/cli.py", "tui/__main__.py", "core/__init__.py",
                 "core/sync/__init__.py", "core/sync/merge_driver.py", "core/sync/memory_latest.py",
                 "pydantic/__init__.py"):
        path = evil.repo / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(PACKAGE.format(marker=str(marker), name=name))
    evil.push("packages that run when imported")
    assert a.sync().outcome == "fast-forward"
    assert (a.repo / "tui" / "cli.py").is_file()  # in the work tree git runs the driver in

    # a real change on both sides: git runs the driver
    evil.touch("shared", T0 + 100)
    evil.push("touch shared")
    at(monkeypatch, T0 + 50)
    a.vault.touch("shared")
    report = a.sync()
    assert not marker.exists(), marker.read_text()  # 951793c imported tui/ from the repository
    assert report.outcome == "merged" and report.pushed
    [decision] = [d for d in report.driver if d["path"].endswith("memories/shared.json")]
    assert decision["clean"] and decision["decision"] == "merged"
    shared = a.mem("shared")
    assert (shared.use_count, shared.last_used) == (2, T0 + 100)
    assert_unharmed(world, outside, before)
    assert not marker.exists()


# -- .meta.json and records as links -----------------------------------------------------------
def test_a_meta_link_to_a_secret_file_is_never_read_or_pushed(world, outside):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    (evil.vault / ".meta.json").unlink()
    os.symlink(outside / "secret.json", evil.vault / ".meta.json")
    evil.push("meta, from elsewhere")
    result = attempt(a)
    assert "SECRET" not in json.dumps(a.vault.meta)
    assert isinstance(result, VaultError) and ".meta.json" in str(result)
    a.vault.add("a write after the sync")
    from core.sync.engine import designate

    designate(a.vault, "laptop")  # a write of .meta.json itself
    assert "SECRET" not in json.dumps(a.vault.meta)
    assert isinstance(attempt(a), VaultError)  # refused again: nothing leaves
    assert_unharmed(world, outside, before)


def test_a_meta_link_pulled_by_hand_is_never_read_or_committed(world, outside):
    """The reading side (core/store/layout.py): a link that reached the work tree without sync."""
    a, evil = world.a, world.evil
    before = snapshot(outside)
    (evil.vault / ".meta.json").unlink()
    os.symlink(outside / "secret.json", evil.vault / ".meta.json")
    evil.push("meta, from elsewhere")
    a.git("pull", "-q", "--ff-only", "origin", "main")
    vault = a.reopen()
    assert "SECRET" not in json.dumps(vault.meta)
    vault.add("a write after the pull")
    from core.sync.engine import designate

    designate(vault, "laptop")
    assert "SECRET" not in json.dumps(vault.meta)
    assert "SECRET" not in run_git(a.repo, "log", "-p", "--all")
    assert snapshot(outside) == before


def test_records_as_links_are_refused_and_never_followed(world, outside):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    os.symlink(outside / "passwd", evil.vault / "memories" / "passwd.json")
    (evil.vault / "relations").mkdir(exist_ok=True)
    os.symlink(outside / "passwd", evil.vault / "relations" / "r1.json")
    evil.push("records that are links")
    head = a.head()
    result = attempt(a)
    assert isinstance(result, VaultError), result
    assert "memories/passwd.json" in str(result) and "symbolic link" in str(result)
    assert a.head() == head
    assert "passwd" not in a.vault.memories

    # pulled by hand: still not loaded, not followed, the vault keeps working
    a.git("pull", "-q", "--ff-only", "origin", "main")
    vault = a.reopen()
    assert "passwd" not in vault.memories and "r1" not in vault.relations
    assert sum("symbolic link" in p.reason for p in vault.problems) == 2
    vault.add("still working")
    assert_unharmed(world, outside, before)


ODD_NAMES = ["sub/x.json", ".hidden.json", "dir.json/y.json", "new\nline.json",
             "esc\x1b[31mred.json", "csi\u009b2J.json"]


def test_odd_names_are_reported_not_loaded_and_never_shown_raw(world, outside, capsys):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    for name in ODD_NAMES:
        stem = name.rsplit("/", 1)[-1].removesuffix(".json")
        evil.memory(stem, f"a record under the odd name {name!r}", name=name)
    evil.push("records under odd names \x1b[2J")
    assert cli.main(["--vault", str(a.vault_dir), "sync"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out
    record = last_sync(a.vault)
    assert record["outcome"] == "fast-forward"
    reported = {Path(p["path"]).relative_to(a.vault_dir / "memories").as_posix()
                for p in record["problems"]}
    assert {"sub/x.json", ".hidden.json", "dir.json/y.json", "new\nline.json",
            "esc\x1b[31mred.json", "csi\u009b2J.json"} <= reported
    assert "not loaded" in out and "\\x1b" in out
    vault = a.reopen()
    assert set(vault.memories) == {"mine", "shared"}
    vault.add("still working")
    assert a.sync().pushed
    for subject in a.git("log", "--format=%s", "--author=memvault").splitlines():
        assert "\x1b" not in subject
    assert_unharmed(world, outside, before)


# -- size --------------------------------------------------------------------------------------
@pytest.mark.parametrize("world", ["root"], indirect=True)
def test_a_huge_memory_is_reported_and_the_driver_never_merges_it(world, outside, monkeypatch):
    a, evil = world.a, world.evil
    before = snapshot(outside)
    huge = evil.memory("huge", "x" * (20 * 1024 * 1024))
    assert huge.stat().st_size > MAX_FILE_BYTES
    evil.push("a 20 MiB memory")
    report = a.sync()
    assert report.outcome == "fast-forward"
    [problem] = report.problems
    assert problem["path"].endswith("huge.json") and "larger than 16 MiB" in problem["reason"]
    assert "huge" not in a.vault.memories

    # one side of a memory changed on both sides is that large: a person decides
    evil.touch("shared", T0 + 100, content="y" * (20 * 1024 * 1024))
    evil.push("a 20 MiB side")
    at(monkeypatch, T0 + 50)
    a.vault.touch("shared")
    head = a.head()
    report = a.sync()
    assert report.outcome == "conflict" and not report.pushed and a.head() == head
    [conflict] = report.conflicts
    assert "theirs is" in conflict["reason"] and "larger than the 16 MiB" in conflict["reason"]
    waiting = Path(conflict["file"])
    assert waiting.stat().st_size < 64 * 1024  # the other side only, and a line about this one
    assert has_conflict_markers(waiting.read_bytes())
    assert a.mem("shared").content == "a memory both machines use"
    assert_unharmed(world, outside, before)


# -- .gitattributes ----------------------------------------------------------------------------
def test_a_gitattributes_naming_other_drivers_changes_nothing_here(world, outside, tmp_path,
                                                                   monkeypatch):
    """The person has drivers of their own configured (as git-lfs is); the remote names them,
    and an unconfigured one, for vault files and others. None runs on a vault file, vault files
    merge with memory-latest and are checked out byte for byte; the committed lines come back
    at the next sync and the remote's stay, overruled by this clone's info/attributes."""
    a, evil = world.a, world.evil
    before = snapshot(outside)
    markers = tmp_path / "markers"
    markers.mkdir()
    for key, value in (("merge.evil.driver", f"touch {markers}/merge; exit 1"),
                       ("merge.evil.name", "evil"),
                       ("filter.evil.clean", f"touch {markers}/clean; cat"),
                       ("filter.evil.smudge", f"touch {markers}/smudge; cat"),
                       ("diff.evil.textconv", f"touch {markers}/textconv; cat")):
        a.git("config", "--local", key, value)
    p = evil.prefix
    hostile = (f"* merge=evil2 filter=evil2 diff=evil2\n"
               f"{p}memories/*.json merge=evil filter=evil diff=evil text eol=crlf\n"
               f"{p}relations/*.json merge=evil filter=evil diff=evil\n"
               f"{p}.meta.json merge=evil filter=evil diff=evil working-tree-encoding=UTF-16\n"
               "other.txt merge=evil2 filter=evil2 diff=evil2\n")
    (evil.repo / ".gitattributes").write_text(hostile)
    (evil.repo / "other.txt").write_text("not a vault file\n")
    evil.touch("shared", T0 + 100)
    evil.push("attributes naming other drivers")
    at(monkeypatch, T0 + 50)
    a.vault.touch("shared")
    report = a.sync()
    assert report.outcome == "merged", report
    assert a.mem("shared").use_count == 2  # memory-latest merged it
    a.vault.add("a commit after the attributes came in")
    run_git(a.repo, "log", "-p", "-3")  # a person looks at the history
    assert sorted(os.listdir(markers)) == []  # 951793c ran the person's smudge filter
    for path in (a.vault_dir / "memories").iterdir():
        assert b"\r\n" not in path.read_bytes()
    attrs = run_git(a.repo, "check-attr", "merge", "filter", "text", "diff",
                    "working-tree-encoding", "--", f"{p}memories/shared.json").splitlines()
    assert [line.split(": ")[-1] for line in attrs] == [
        "memory-latest", "unset", "unset", "unspecified", "unset"]

    # the next sync puts the vault's lines back (after the remote's: they win there too)
    evil.pull()
    evil.touch("shared", T0 + 200)
    evil.push("touch again")
    at(monkeypatch, T0 + 150)
    a.vault.touch("shared")
    report = a.sync()
    assert report.outcome == "merged" and report.installed
    assert a.mem("shared").use_count == 4
    committed = a.git("show", "HEAD:.gitattributes").splitlines()
    assert committed[: len(hostile.splitlines())] == hostile.splitlines()
    assert f"{p}memories/*.json merge=memory-latest" in committed
    assert sorted(os.listdir(markers)) == []
    assert_unharmed(world, outside, before)
    assert sorted(os.listdir(markers)) == []
