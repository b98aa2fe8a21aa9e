"""Undo and redo run few git processes whatever the operation (issue 42: the app's undo waited
on sixteen): the log they read names the commit (no ``rev-parse``, no second ``log``), and the
files before, after and now are read together in two (one ``cat-file --batch-check``, one
``cat-file --batch``), not three each."""

from __future__ import annotations



from core.ops.revert import redo, undo


def test_an_undo_and_a_redo_of_an_archive_each_run_at_most_seven_git_processes(vault, git_runs,
                                                                              consistent):
    vault.add("the user prefers pytest", memory_id="m1")
    vault.archive("m1")
    git_runs.clear()
    undo(vault)
    # log, diff-tree, cat-file --batch-check, cat-file --batch, commit-tree, update-ref,
    # update-index (it was 16: rev-parse, log -1 and three cat-files for each of three reads)
    assert len(git_runs) <= 7, git_runs
    assert vault.get("m1").status == "active"
    git_runs.clear()
    redo(vault)
    assert len(git_runs) <= 7, git_runs
    assert vault.get("m1").status == "archived"
    consistent(vault)


def test_an_undo_of_many_memories_reads_their_files_in_at_most_three_git_processes(
        vault, git_runs, consistent):
    ids = [f"m{n:02}" for n in range(30)]  # (more than a few: their current files in a listing)
    for memory_id in ids:
        vault.add(f"fact number {memory_id}", memory_id=memory_id)
    vault.archive(*ids)
    git_runs.clear()
    undo(vault)
    reads = [argv for argv in git_runs if argv[0] in ("cat-file", "ls-tree")]
    assert len(reads) <= 3, reads
    assert all(vault.get(i).status == "active" for i in ids)
    consistent(vault)


def test_an_undo_names_the_commit_it_takes_back_by_gits_own_subject(vault, git):
    """The subject is read from the walked log's message as ``%s`` says it (the first
    paragraph, its lines joined), as the second ``git log`` it no longer runs said it."""
    vault.add("the user prefers pytest", memory_id="m1")
    path = vault.root / "memories" / "m1.json"
    path.write_text(path.read_text().replace("prefers pytest", "prefers unittest"))
    git(vault.root, "-c", "user.name=A Person", "-c", "user.email=a@example.org", "commit",
        "-qam", "a person's edit\nover two lines\n\nwhy: a test")
    vault = type(vault).open(vault.root)
    report = undo(vault)
    assert report.subject == "a person's edit over two lines"
    assert report.subject == git(vault.root, "log", "-1", "--format=%s", report.reverted)
    assert "prefers pytest" in vault.get("m1").content
