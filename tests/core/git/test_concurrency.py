"""Several writers at once on one vault: every write lands in HEAD, none is lost, git stays sound."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest

from core import Vault

N = 12  # operations of each kind per writer

WRITER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from core import Vault
    path, name, n, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    shared = sys.argv[5].split(",")
    v = Vault.open(path, lock_timeout=120)
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.005)
    mine = []
    for i in range(n):
        mine.append(v.add(f"{name} memory {i}", memory_id=f"{name}-{i:03d}", tags=[name]).id)
        v.touch(*shared)
        if i % 4 == 3:
            v.relate(mine[-1], mine[-2], "related")
    v.touch(mine[0], boost=True)
    print("done", flush=True)
""")

READER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from core import Vault
    path, go, stop, mode = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
    while not go.exists():
        time.sleep(0.005)
    loads = 0
    while not stop.exists() or loads < 3:
        # read-only, or a full open that would commit files changed outside memvault
        v = Vault.open(path, readonly=(mode == "ro"), lock_timeout=120)
        if v.report.external_commit:
            print("EXTERNAL", v.report.external_paths, flush=True)
            sys.exit(1)
        if v.problems:
            print("PROBLEMS", [str(p) for p in v.problems], flush=True)
            sys.exit(1)
        loads += 1
    print("loads", loads, flush=True)
""")


def _start(args):
    return subprocess.Popen([sys.executable, "-c", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_two_processes_write_at_once(vault_path, tmp_path, git, git_tools):
    v = Vault.open(vault_path)
    shared = [v.add(f"shared {i}", memory_id=f"shared-{i}").id for i in range(3)]
    start_count = git_tools.commit_count(vault_path)
    go, stop = tmp_path / "go", tmp_path / "stop"
    writers = [_start([WRITER, str(vault_path), name, str(N), str(go), ",".join(shared)])
               for name in ("alpha", "beta")]
    readers = [_start([READER, str(vault_path), str(go), str(stop), mode]) for mode in ("ro", "rw")]
    try:
        for w in writers:
            assert w.stdout.readline().strip() == "ready"
        go.touch()
        outputs = [w.communicate(timeout=300) for w in writers]
    finally:
        stop.touch()
        for p in (*writers, *readers):
            if p.poll() is None:
                p.wait(120)
    for w, (out, err) in zip(writers, outputs):
        assert w.returncode == 0, err
        assert out.strip().endswith("done")
    for reader in readers:  # no reader saw a half-written file, no opener an "external" change
        r_out, r_err = reader.communicate(timeout=120)
        assert reader.returncode == 0, r_out + r_err

    # every write is in HEAD
    files = git(vault_path, "ls-tree", "-r", "--name-only", "HEAD").splitlines()
    memory_files = [f for f in files if f.startswith("memories/")]
    relation_files = [f for f in files if f.startswith("relations/")]
    assert len(memory_files) == len(shared) + 2 * N
    for name in ("alpha", "beta"):
        for i in range(N):
            assert f"memories/{name}-{i:03d}.json" in files
    assert len(relation_files) == 2 * (N // 4)
    per_writer = N + N + N // 4 + 1  # adds, touches, relates, final boost
    assert git_tools.commit_count(vault_path) == start_count + 2 * per_writer
    git(vault_path, "fsck", "--strict")
    # the history is one line: no commit was lost to a race on HEAD
    assert git(vault_path, "rev-list", "--merges", "HEAD") == ""

    after = Vault.open(vault_path)
    for sid in shared:
        assert after.get(sid).use_count == 2 * N  # touches from both add up
    assert after.get("alpha-000").use_count == 1 and after.get("alpha-000").strength == 1.1
    assert after.get("beta-000").use_count == 1
    # the first vault object catches up under the lock before its next write
    v.touch(shared[0])
    assert v.get(shared[0]).use_count == 2 * N + 1
    assert len(v.memories) == len(shared) + 2 * N
    git_tools.assert_consistent(v)
    reopened = Vault.open(vault_path)
    assert reopened.memories == v.memories and reopened.relations == v.relations


def test_writer_and_deleter_at_once(vault_path, tmp_path, git, git_tools):
    """One process deletes and gc's while another adds: still one consistent history."""
    v = Vault.open(vault_path)
    doomed = [v.add(f"doomed {i}", memory_id=f"doomed-{i:02d}").id for i in range(N)]
    shared = v.add("shared", memory_id="shared-0").id
    go = tmp_path / "go"
    deleter_script = textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from core import Vault
        path, go, ids = sys.argv[1], Path(sys.argv[2]), sys.argv[3].split(",")
        v = Vault.open(path, lock_timeout=120)
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.005)
        for i in ids:
            v.delete(i)
            v.touch("shared-0")
        print("done", flush=True)
    """)
    adder = _start([WRITER, str(vault_path), "adder", str(N), str(go), shared])
    deleter = _start([deleter_script, str(vault_path), str(go), ",".join(doomed)])
    for p in (adder, deleter):
        assert p.stdout.readline().strip() == "ready"
    go.touch()
    for p in (adder, deleter):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    after = Vault.open(vault_path)
    assert not any(i in after.memories for i in doomed)
    assert len([i for i in after.memories if i.startswith("adder-")]) == N
    assert after.get(shared).use_count == 2 * N
    git(vault_path, "fsck", "--strict")
    git_tools.assert_consistent(after)


@pytest.mark.parametrize("shared_object", [True, False], ids=["one-vault-object", "two-objects"])
def test_threads_write_at_once(vault_path, git, git_tools, shared_object):
    v = Vault.open(vault_path)
    target = v.add("touched by every thread", memory_id="target").id
    errors = []

    def work(name):
        vault = v if shared_object else Vault.open(vault_path)
        try:
            for i in range(N):
                vault.add(f"{name} {i}", memory_id=f"{name}-{i}")
                vault.touch(target)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(f"t{k}",)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert errors == []
    v.touch(target)
    assert len(v.memories) == 1 + 3 * N
    assert v.get(target).use_count == 3 * N + 1
    git(vault_path, "fsck", "--strict")
    git_tools.assert_consistent(v)


def test_processes_create_the_same_new_vault_at_once(tmp_path, git, git_tools):
    path = tmp_path / "fresh"
    go = tmp_path / "go"
    script = textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from core import Vault
        path, go, name = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.002)
        v = Vault.open(path, lock_timeout=120)
        v.add(f"memory of {name}", memory_id=name)
        print("done", flush=True)
    """)
    procs = [_start([script, str(path), str(go), f"p{i}"]) for i in range(3)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    subjects = git(path, "log", "--format=%s").splitlines()
    assert sum(s.startswith("init:") for s in subjects) == 1, subjects
    assert not any(s.startswith("external:") for s in subjects), subjects
    assert len(subjects) == 4
    v = Vault.open(path)
    assert set(v.memories) == {"p0", "p1", "p2"}
    git(path, "fsck", "--strict")
    git_tools.assert_consistent(v)
