"""A person working in the vault while memvault writes: saving a memory's file in their editor,
committing with git. Nothing of theirs is lost, and their commits never delete memvault's."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from bench_support import BENCH, load_bench
from core import Vault

#: A writer in a loop until ``stop`` exists, the bench's own (bench/race_person_edits.py):
#: ``use`` records uses as the MCP server does (git's index updated just after, a flush every
#: few rounds), ``touch`` as ``memvault touch`` does (refused when the person saved again at
#: each of its tries); it says "ready" once its vault is open, and "ROUNDS REFUSED" at the end.
WRITER = load_bench("race_person_edits").WRITER
ROOT = str(BENCH.parent)

#: The person: ``n`` atomic saves of the file with new content (an editor's temp file renamed
#: into place), each after reading it, and each next one once memvault has written the file
#: again (a use recorded, a touch: at most 2 s), so that every save meets a writer's round;
#: prints, as JSON, the contents saved and those found replaced by another content before their
#: next save.
PERSON = textwrap.dedent("""
    import json, os, sys, tempfile, time
    from pathlib import Path
    path, n = Path(sys.argv[1]), int(sys.argv[2])
    saved, over = [], []
    for i in range(n):
        record = json.loads(path.read_bytes())
        if saved and record.get("content") != saved[-1]:
            over.append(saved[-1])
        record["content"] = f"person edit {i}"
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".person-")
        with os.fdopen(fd, "w") as fh:
            json.dump(record, fh, indent=2)
        os.replace(tmp, path)
        saved.append(record["content"])
        mine = os.stat(path)
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:  # memvault's next write of the file
            now = os.stat(path)
            if (now.st_ino, now.st_mtime_ns) != (mine.st_ino, mine.st_mtime_ns):
                break
            time.sleep(0.001)
    print(json.dumps({"saved": saved, "over": over}), flush=True)
""")


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _contents_in_history(git, vault_path, rel: str) -> set[str]:
    found = set()
    for commit in git(vault_path, "log", "--format=%H", "--", rel).split():
        shown = subprocess.run(["git", "-C", str(vault_path), "show", f"{commit}:{rel}"],
                               capture_output=True, text=True)
        if shown.returncode == 0:
            found.add(json.loads(shown.stdout)["content"])
    return found


def test_a_persons_saves_are_never_written_over_by_use_records_and_touches(
        vault_path, tmp_path, git, git_tools):
    """Was: 12 of 205 saves replaced on disk by the previous version, in no commit (two MCP
    servers recording uses), 2 of 222 with two ``touch`` loops: the read-modify-write wrote
    back over a save made after it read. Now each save is kept: committed as the person's
    (``external:``), the use recorded on top of it."""
    v = Vault.open(vault_path)
    mid = v.add("the first version", memory_id="edited-by-hand").id
    path = v.layout.memory_path(mid)
    rel = path.relative_to(vault_path).as_posix()
    stop = tmp_path / "stop"
    writers = [_start(WRITER, str(vault_path), mid, str(stop), mode, ROOT)
               for mode in ("use", "touch")]
    for writer in writers:
        assert writer.stdout.readline().strip() == "ready", writer.communicate()[1]
    person = _start(PERSON, str(path), "300")
    out, err = person.communicate(timeout=300)
    stop.touch()
    for writer in writers:
        w_out, w_err = writer.communicate(timeout=300)
        assert writer.returncode == 0, w_err
        assert int(w_out.split()[0]) > 0  # its rounds
    assert person.returncode == 0, err
    told = json.loads(out)
    over = set(told["over"])
    if json.loads(path.read_bytes())["content"] != told["saved"][-1]:
        over.add(told["saved"][-1])  # their last save, written over after it
    history = _contents_in_history(git, vault_path, rel)
    lost = sorted(over - history)
    assert lost == [], f"{len(lost)} of {len(told['saved'])} saves lost"
    # their last save is on disk and in HEAD, with the uses recorded on top
    assert json.loads(path.read_bytes())["content"] == told["saved"][-1]
    assert json.loads(git(vault_path, "show", f"HEAD:{rel}"))["content"] == told["saved"][-1]
    git(vault_path, "fsck", "--strict")
    git_tools.assert_consistent(Vault.open(vault_path))


#: An MCP server's saves back to back until ``stop`` exists (git's index updated just after
#: each answer, by a thread: behind HEAD most of the time); prints each acknowledged id, and
#: each refusal's message prefixed with ``refused:``.
SAVER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from core import Vault
    from core.errors import JournalError
    path, stop = sys.argv[1], Path(sys.argv[2])
    v = Vault.open(path, via="mcp/race", lock_timeout=120)
    v.journal.git_index.later = True
    print("ready", flush=True)
    i = 0
    while not stop.exists():
        try:
            print(v.add(f"saved while the person commits {i}", memory_id=f"saved-{i:04d}").id,
                  flush=True)
        except JournalError as exc:
            print("refused:", str(exc).replace("\\n", " "), flush=True)
        i += 1
    v.close()
""")

#: The person: ``n`` times, edit a file of their own, ``git add`` it and ``git commit`` (again
#: when git refuses); prints how many commits git made and how many tries it refused (git's own
#: message: the index is locked, or HEAD moved under it).
COMMITTER = textwrap.dedent("""
    import subprocess, sys
    from pathlib import Path
    root, n = Path(sys.argv[1]), int(sys.argv[2])
    made = refused = 0
    said = ""
    for i in range(n):
        (root / "notes.txt").write_text(f"my own notes {i}\\n")
        for _try in range(50):  # (refused: they run it again, as git's message says)
            done = subprocess.run(["git", "-C", str(root), "add", "notes.txt"],
                                  capture_output=True, text=True)
            if done.returncode == 0:
                done = subprocess.run(["git", "-C", str(root), "-c", "user.name=A Person",
                                       "-c", "user.email=person@example.org", "commit", "-q",
                                       "-m", f"notes {i}"], capture_output=True, text=True)
            if done.returncode == 0:
                made += 1
                break
            refused += 1
            said = done.stderr
    print(made, refused, repr(said[:200]), flush=True)
""")


def test_a_persons_git_commits_never_delete_what_the_server_saves(vault_path, tmp_path, git):
    """Was: 12 of 38 of the person's commits deleted memories the server had acknowledged (git's
    index behind HEAD between memvault's ``update-ref`` and its index update), and a save that
    lost ``update-ref`` to their commit failed with git's raw error. Now memvault holds
    ``index.lock`` across that step: their commit waits or is refused by git, and a save that
    loses the race is done again."""
    Vault.open(vault_path).add("the first memory", memory_id="first")
    stop = tmp_path / "stop"
    saver = _start(SAVER, str(vault_path), str(stop))
    assert saver.stdout.readline().strip() == "ready", saver.communicate()[1]
    first = saver.stdout.readline()  # (its first save done: the two now run side by side)
    person = _start(COMMITTER, str(vault_path), "40")
    out, err = person.communicate(timeout=300)
    stop.touch()
    s_out, s_err = saver.communicate(timeout=300)
    s_out = first + s_out
    assert person.returncode == 0 and saver.returncode == 0, err + s_err
    made, _refused = (int(x) for x in out.split()[:2])
    saved = [line for line in s_out.splitlines() if line.startswith("saved-")]
    refusals = [line for line in s_out.splitlines() if line.startswith("refused:")]
    assert made > 0 and saved, (out, s_out)
    deleted = [line for line in git(vault_path, "log", "--diff-filter=D", "--name-only",
                                    "--format=", "HEAD").splitlines() if line]
    # (a save that lost update-ref to their commit was done again)
    assert (deleted, refusals) == ([], []), f"{made} commits of the person's"
    in_head = set(git(vault_path, "ls-tree", "-r", "--name-only", "HEAD", "memories").split())
    assert {f"memories/{i}.json" for i in saved} <= in_head
    assert git(vault_path, "status", "--porcelain", "--", "memories") == ""
    git(vault_path, "fsck", "--strict")
    assert set(saved) <= set(Vault.open(vault_path).memories)
