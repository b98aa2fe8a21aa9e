"""A person saving a memory file while writers record uses of it: how many of the person's edits
are lost (in no commit, and written over on disk by an older version).

    python bench/race_person_edits.py [--seconds 20] [--writers 2] [--mode use|touch]

``use``: each writer is a vault that records uses in a loop (an MCP server's searches, git's index
updated just after), flushing them every few rounds; ``touch``: each writer runs ``Vault.touch``
(a touch refused because the person saved again at each of its tries is counted as refused).
Three writers or more mostly wait for the write lock (few rounds): two is the measure.
The person saves ``memories/<id>.json`` atomically (temp file, rename) every 5-40 ms with new
content, and before each save reads the file: an edit of theirs found replaced by another
content was written over. An edit is lost when it was written over and no commit holds it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WRITER = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[5])
from core import Vault
try:
    from core.errors import ChangedMeanwhileError
except ImportError:  # (memvault before it)
    ChangedMeanwhileError = KeyboardInterrupt
path, mid, stop, mode = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
v = Vault.open(path, via="mcp/race", lock_timeout=120)
if mode == "use":
    v.journal.git_index.later = True
print("ready", flush=True)
rounds = refused = 0
while not stop.exists():
    if mode == "use":
        v.record_use([mid])
        if rounds % 5 == 4:
            v.flush_use()
    else:
        try:
            v.touch(mid)
        except ChangedMeanwhileError:  # saved again at each try: refused, nothing written
            refused += 1
    rounds += 1
v.flush_use()
v.close()
print(rounds, refused, flush=True)
"""


def person(path: Path, seconds: float) -> tuple[list[str], set[str]]:
    """Save the file with new content until ``seconds`` pass; (contents saved, those found
    written over by another content before the next save)."""
    saved: list[str] = []
    over: set[str] = set()
    end = time.monotonic() + seconds
    i = 0
    while time.monotonic() < end:
        record = json.loads(path.read_bytes())
        if saved and record.get("content") != saved[-1]:
            over.add(saved[-1])
        content = f"person edit {i}"
        record["content"] = content
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".person-")
        with os.fdopen(fd, "w") as fh:
            json.dump(record, fh, indent=2)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
        saved.append(content)
        i += 1
        time.sleep(random.uniform(0.005, 0.04))
    return saved, over


def committed_contents(vault: Path, rel: str) -> set[str]:
    out = subprocess.run(["git", "-C", str(vault), "log", "--all", "--format=%H", "--", rel],
                         check=True, capture_output=True, text=True).stdout.split()
    found = set()
    for commit in out:
        shown = subprocess.run(["git", "-C", str(vault), "show", f"{commit}:{rel}"],
                               capture_output=True, text=True)
        if shown.returncode == 0:
            found.add(json.loads(shown.stdout).get("content"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--mode", choices=("use", "touch"), default="use")
    args = parser.parse_args()
    from core import Vault

    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        v = Vault.open(vault)
        mid = v.add("the first version", memory_id="race-0001").id
        path = v.layout.memory_path(mid)
        v.close()
        stop = Path(tmp) / "stop"
        writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(vault), mid, str(stop),
                                     args.mode, str(ROOT)], stdout=subprocess.PIPE, text=True)
                   for _ in range(args.writers)]
        for writer in writers:  # each has its vault open
            assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        saved, over = person(path, args.seconds)
        stop.touch()
        told = [w.communicate(timeout=120)[0].split() or ["0", "0"] for w in writers]
        rounds = [int(t[0]) for t in told]
        refused = sum(int(t[1]) for t in told)
        final = json.loads(path.read_bytes()).get("content")
        if final != saved[-1]:
            over.add(saved[-1])
        in_commits = committed_contents(vault, path.relative_to(vault).as_posix())
        lost = sorted((c for c in over if c not in in_commits), key=lambda c: int(c.split()[-1]))
        print(f"mode {args.mode}, writers' rounds {rounds} ({refused} refused): "
              f"person's edits {len(saved)}, "
              f"written over {len(over)}, lost {len(lost)}"
              f"{' (the last edit among them)' if saved[-1] in lost else ''}")
        if lost:
            print("lost:", ", ".join(lost[:10]))


if __name__ == "__main__":
    main()
