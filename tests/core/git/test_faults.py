"""Fault injection: every multi-file operation, and the adoption of a person's edits
at open, must leave the vault exactly as before or exactly as after, whatever stops it:

A. a kill -9 at every step (``Journal.faults.hook`` calls, enumerated by a recording run);
B. ENOSPC / EIO at every write, fsync, rename, unlink and git call, once (transient) or from
   that call on (disk full), in-process;
C. two processes: a long-lived vault (the TUI) keeps working after another process crashes;
D. a kill -9 during the rollback of a failed operation and during the recovery at open.

Each trial starts from a copy of a small template vault (5 memories, 3 relations, a deleted
memory in history). Ids and the clock are made deterministic, so "after" is compared byte for
byte with a run of the same operation without faults. A test is one operation: it loops over
every fault point and reports all the points that fail, not only the first.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

import fault_support as fs
from core import Vault, VaultError

OPS = list(fs.OPS)
_TEMPLATE: dict = {}
_REFERENCES: dict[str, fs.Reference] = {}


@pytest.fixture
def template(tmp_path_factory) -> tuple[Path, int]:
    """The template vault, built once per test process (under the first test's isolated HOME)."""
    if not _TEMPLATE:
        root = tmp_path_factory.mktemp("fault-template") / "vault"
        now = fs.build_template(root)
        _TEMPLATE.update(root=root, now=now)
    return _TEMPLATE["root"], _TEMPLATE["now"]


@pytest.fixture
def reference(template, tmp_path_factory):
    """``reference(op)``: the operation run once without faults (states, hook steps, calls)."""
    def get(op: str) -> fs.Reference:
        if op not in _REFERENCES:
            work = tmp_path_factory.mktemp(f"reference-{op}")
            _REFERENCES[op] = fs.make_reference(template[0], template[1], op, work)
        return _REFERENCES[op]
    return get


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200] if text else ''}"


def _report(what: str, failures: list[str], trials: int) -> None:
    if failures:
        shown = "\n  ".join(failures[:40])
        more = f"\n  ... and {len(failures) - 40} more" if len(failures) > 40 else ""
        pytest.fail(f"{what}: {len(failures)} of {trials} trials failed:\n  {shown}{more}",
                    pytrace=False)


def check_reopened(root: Path, ref: fs.Reference, git_tools, *, allowed=("before", "after"),
                   adopt: bool = False, fsck: bool = True) -> list[str]:
    """Open the vault as the next command would and check it: exactly ``allowed`` state, no
    ``external:`` commit of the operation's files, no intent, no temp files, git fsck clean,
    git's index agrees with HEAD, and it keeps working (one more add)."""
    problems: list[str] = []
    try:
        v = fs.open_vault(root)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        return [f"Vault.open raised {_one_line(exc)}"]
    try:
        now = fs.state_of(root)
        if adopt:  # the person's three changes are kept, committed once as external
            if not (now.files == ref.after.files
                    and len(now.commits) == len(ref.before.commits) + 1
                    and now.commits[1:] == ref.before.commits
                    and now.commits[0][2] == ref.after.commits[0][2]
                    and now.commits[0][3].startswith("external:")):
                problems.append("the person's edits were not kept as one external commit: "
                                + fs.state_difference(now, ref.before, ref.after))
        else:
            where = fs.which_state(now, ref.before, ref.after)
            if where not in allowed:
                problems.append(f"state is {where}, expected {' or '.join(allowed)}"
                                if where else fs.state_difference(now, ref.before, ref.after))
            external = fs.external_subjects(now)
            if external:
                problems.append(f"committed as an outside edit: {external[0][:100]!r}")
        if v.journal.recovery.has_intent():
            problems.append("an intent record is left after the open")
        leftovers = fs.temp_leftovers(root)
        if leftovers:
            problems.append(f"temp files left: {leftovers[:4]}")
        broken = fs.fsck_problems(root) if fsck else ""
        if broken:
            problems.append(broken)
        try:
            git_tools.assert_consistent(v)
        except AssertionError as exc:
            problems.append(f"cache/disk/HEAD/index disagree: {str(exc).splitlines()[0][:200]}")
        if not problems:
            try:
                v.add("one more memory after the fault")
                git_tools.assert_consistent(v)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"the vault stopped working: {_one_line(exc)}")
    finally:
        fs.release(v)
    return problems


def _killer(k: int):
    """A fault hook that kills the process (SIGKILL) at its k-th call."""
    seen = [0]

    def hook(step: str) -> None:
        seen[0] += 1
        if seen[0] == k:
            fs.die()
    return hook


# -- A. kill -9 at every step ------------------------------------------------------------------
@pytest.mark.parametrize("op", [*OPS, "adopt"])
def test_kill_at_every_step(op, reference, tmp_path, git_tools):
    """kill -9 at the k-th fault-hook call, for every k; the next open gives exactly the state
    before or after (for ``adopt``: the person's edits, committed as ``external:``)."""
    ref = reference(op)
    assert ref.hooks, f"{op}: Journal.faults.hook was never called"
    failures = []
    for k, (step, _) in enumerate(ref.hooks, 1):
        root = fs.fresh_copy(ref.base, tmp_path / f"k{k}")

        def body(root=root, k=k):
            with fs.deterministic(ref.now):
                v = fs.open_for(root, op)
                fs.install_hook(v, _killer(k))
                fs.run_op(v, op)

        end = fs.in_child(body, tmp_path / "child.log")
        if not end.killed:
            failures.append(f"k={k} ({step}): the child was not killed at the step: {end}")
            continue
        problems = check_reopened(root, ref, git_tools, adopt=op == "adopt")
        if problems:
            failures.append(f"k={k} ({step}): " + "; ".join(problems))
    _report(f"{op}: kill -9 at each of {len(ref.hooks)} steps", failures, len(ref.hooks))


# -- B. ENOSPC / EIO at every write, rename, unlink, fsync and git call --------------------------
B_OPS = ["add", "delete", "archive", "gc", "consolidate", "split", "restore"]


B_CASES = [(op, mode) for op in B_OPS for mode in ("transient", "disk-full")
           if not (op == "restore" and mode == "disk-full")]


@pytest.mark.parametrize("op,mode", B_CASES)
def test_disk_fault_at_every_call(op, mode, reference, tmp_path, git_tools):
    """transient: the k-th primitive call fails (ENOSPC for odd k, EIO for even k; EIO for an
    unlink), for every k. disk-full: from the k-th call on, every write, fsync, rename and git
    call fails with ENOSPC until the test lifts it (unlinks still work: they free space), for
    every k that is not an unlink. The operation raises VaultError (never a bare OSError or
    GitCommandError); transient: the vault is at once exactly before (disk, HEAD, cache, no
    intent) or exactly after; disk-full: a half-applied vault keeps its intent record. Either
    way the next open (fault lifted) ends exactly as before or after."""
    ref = reference(op)
    points = [(k, call) for k, call in enumerate(ref.calls, 1)
              if mode == "transient" or not call.startswith("unlink")]
    failures = []
    for k, call in points:
        err = errno.ENOSPC if mode == "disk-full" or (k % 2 and not call.startswith("unlink")) \
            else errno.EIO
        label = f"k={k} {errno.errorcode[err]} at {call}"
        root = fs.fresh_copy(ref.base, tmp_path / f"k{k}")
        v = fs.open_vault(root)
        count = [0]

        def on(kind, detail, k=k, err=err):
            count[0] += 1
            if count[0] == k or (mode == "disk-full" and count[0] > k and kind != "unlink"):
                raise fs.os_fault(kind, detail, err)

        raised: BaseException | None = None
        with fs.deterministic(ref.now), fs.Primitives(on):
            try:
                fs.run_op(v, op)
            except BaseException as exc:  # noqa: BLE001 - checked below
                raised = exc
        # the fault is lifted here
        problems = []
        if raised is not None and not isinstance(raised, VaultError):
            problems.append(f"raised {_one_line(raised)} instead of a VaultError")
        now = fs.state_of(root)
        where = fs.which_state(now, ref.before, ref.after)
        if mode == "transient":
            if where is None:
                problems.append("at once: " + fs.state_difference(now, ref.before, ref.after))
            elif raised is None and where == "before":
                problems.append("returned normally but nothing was committed")
            elif where == "before":
                if fs.cache_of(v) != ref.before_cache:
                    problems.append("the in-memory cache differs from before")
                if v.journal.recovery.has_intent():
                    problems.append("the intent record is kept although the vault is as before")
            elif fs.cache_of(v) != ref.after_cache:
                problems.append("the in-memory cache differs from after")
        elif where is None and not v.journal.recovery.has_intent():
            problems.append("half applied and the intent record is gone: "
                            + fs.state_difference(now, ref.before, ref.after))
        fs.release(v)
        allowed = (where,) if mode == "transient" and where else ("before", "after")
        problems += ["next open: " + p for p in check_reopened(root, ref, git_tools,
                                                                allowed=allowed, fsck=False)]
        if problems:
            failures.append(f"{label}: " + "; ".join(problems))
    _report(f"{op}, {mode}: a failing call at each of {len(points)} calls", failures,
            len(points))


# -- C. two processes, one crashing ------------------------------------------------------------
C_OPS = ["delete", "archive", "consolidate"]


@pytest.mark.parametrize("op", C_OPS)
def test_other_process_crashes(op, reference, tmp_path, git_tools):
    """A long-lived vault A (like the TUI) is open; another process runs ``op`` on the same
    vault and is killed at step k. A's next write succeeds, the crashed operation is rolled back
    (or completed, if its commit landed), nothing is committed as ``external:``, git's index
    agrees with HEAD, and A's cache equals a fresh open's."""
    ref = reference(op)
    failures = []
    for k, (step, _) in enumerate(ref.hooks, 1):
        root = fs.fresh_copy(ref.base, tmp_path / f"k{k}")
        a = fs.open_vault(root)

        def body(root=root, k=k):
            with fs.deterministic(ref.now):
                v = fs.open_vault(root)
                fs.install_hook(v, _killer(k))
                fs.run_op(v, op)

        end = fs.in_child(body, tmp_path / "child.log")
        problems = []
        if not end.killed:
            problems.append(f"the child was not killed at the step: {end}")
        try:
            a.add("written by the long-lived process after the crash")
        except Exception as exc:  # noqa: BLE001
            problems.append(f"A.add raised {_one_line(exc)}")
        problems += _check_two_processes(root, ref, a, git_tools)
        fs.release(a)
        if problems:
            failures.append(f"k={k} ({step}): " + "; ".join(problems))
    _report(f"{op}: another process killed at each of {len(ref.hooks)} steps", failures,
            len(ref.hooks))


def _check_two_processes(root: Path, ref: fs.Reference, a: Vault, git_tools) -> list[str]:
    problems = []
    now = fs.state_of(root)
    external = fs.external_subjects(now)
    if external:
        problems.append(f"committed as an outside edit: {external[0][:100]!r}")
    # A's own commit is HEAD; apart from the files it wrote, the vault is exactly before or after
    mine = set(fs.git_out(root, "diff", "--name-only", "HEAD~1", "HEAD").split())

    def rest(files):
        return {p: d for p, d in files.items() if p not in mine}
    added = len(now.commits) - len(ref.before.commits)
    whole_before = (added == 1 and now.commits[1:] == ref.before.commits
                    and rest(now.files) == rest(ref.before.files))
    whole_after = (added == 2 and now.commits[2:] == ref.before.commits
                   and now.commits[1][1:] == ref.after.commits[0][1:]
                   and rest(now.files) == rest(ref.after.files))
    if not (whole_before or whole_after):
        problems.append("besides A's commit: " + fs.state_difference(
            fs.State(rest(now.files), now.commits[1:]), ref.before,
            fs.State(rest(ref.after.files), ref.after.commits)))
    try:
        git_tools.assert_consistent(a)
    except AssertionError as exc:
        problems.append(f"A: cache/disk/HEAD/index disagree: {str(exc).splitlines()[0][:200]}")
    fresh = fs.open_vault(root)
    try:
        if fs.cache_of(fresh) != fs.cache_of(a):
            problems.append("A's cache differs from a fresh open's")
        if fresh.report.external_commit:
            problems.append("the next open committed an outside edit")
        if fresh.journal.recovery.has_intent():
            problems.append("an intent record is left")
        try:
            git_tools.assert_consistent(fresh)
        except AssertionError as exc:
            problems.append(f"fresh open: disagree: {str(exc).splitlines()[0][:200]}")
    finally:
        fs.release(fresh)
    return problems


# -- D. kill -9 during the rollback, and during the recovery at open -------------------------------
D_OPS = ["delete", "consolidate"]


class _Events:
    """Counts events (hook steps and primitive calls) once ``armed``; kills the process at the
    ``kill_at``-th; when recording, notes whether an intent record was pending at each (events
    after the last pending one only kill a finished process: not worth a trial)."""

    def __init__(self, root: Path, kill_at: int | None = None, armed: bool = True):
        self.root, self.kill_at, self.armed = root, kill_at, armed
        self.seen: list[tuple[str, bool]] = []
        self._busy = False

    def __call__(self, name: str) -> None:
        if not self.armed or self._busy:
            return
        self._busy = True
        try:
            pending = fs.intent_pending(self.root) if self.kill_at is None else True
        finally:
            self._busy = False
        self.seen.append((name, pending))
        if self.kill_at is not None and len(self.seen) == self.kill_at:
            fs.die()

    def on(self, kind: str, detail: str) -> None:
        self(f"{kind} {detail}")

    def hook(self, step: str) -> None:
        self(f"hook {step}")

    def kill_points(self) -> list[str]:
        """The events while an intent was pending, and the one after."""
        last = max((i for i, (_, p) in enumerate(self.seen) if p), default=-1)
        return [name for name, _ in self.seen[:last + 2]]


def _fail_then(events: _Events, fail_at: int):
    """A fault hook raising at its ``fail_at``-th call, which arms ``events``; later hook steps
    (the rollback's) are events too."""
    count = [0]

    def hook(step: str) -> None:
        count[0] += 1
        if count[0] == fail_at and not events.armed:
            events.armed = True
            raise RuntimeError(f"injected fault at {step}")
        events.hook(step)
    return hook


@pytest.mark.parametrize("op", D_OPS)
def test_kill_during_rollback(op, reference, tmp_path, git_tools):
    """The operation fails at its last step before the commit point (every file written), and
    the process is killed at every step of the rollback that follows (hook steps, named
    ``rollback...`` once the journal reports them, and every write/rename/unlink/git call while
    the intent record exists). The next open ends exactly before."""
    ref = reference(op)
    fail_at = ref.last_before_commit
    root = fs.fresh_copy(ref.base, tmp_path / "record")
    v = fs.open_vault(root)
    recorder = _Events(root, armed=False)
    fs.install_hook(v, _fail_then(recorder, fail_at))
    with fs.deterministic(ref.now), fs.Primitives(recorder.on), pytest.raises(Exception):
        fs.run_op(v, op)
    fs.release(v)
    points = recorder.kill_points()
    assert points, f"{op}: the rollback made no call at all"
    failures = []
    for j, event in enumerate(points, 1):
        root = fs.fresh_copy(ref.base, tmp_path / f"j{j}")

        def body(root=root, j=j):
            with fs.deterministic(ref.now):
                v = fs.open_vault(root)
                events = _Events(root, kill_at=j, armed=False)
                fs.install_hook(v, _fail_then(events, fail_at))
                with fs.Primitives(events.on):
                    fs.run_op(v, op)

        end = fs.in_child(body, tmp_path / "child.log")
        if not end.killed:
            failures.append(f"j={j} ({event}): the child was not killed: {end}")
            continue
        problems = check_reopened(root, ref, git_tools, allowed=("before",))
        if problems:
            failures.append(f"j={j} ({event}): " + "; ".join(problems))
    named = sorted({e.split()[1] for e in points if e.startswith("hook ")})
    _report(f"{op}: killed at each of {len(points)} rollback events (hook steps seen: "
            f"{named or 'none'})", failures, len(points))


@pytest.mark.parametrize("op", D_OPS)
def test_kill_during_recovery(op, reference, tmp_path, git_tools):
    """A process running ``op`` is killed at its last step before the commit point (the next
    open must roll it back) or at the first after it (roll forward); the open that recovers is
    itself killed at every step (hook steps, ``recover...`` once reported, and every call while
    the intent record exists). The open after that ends exactly before (resp. after)."""
    ref = reference(op)
    crash_points = [(ref.last_before_commit, "before")]
    if ref.last_before_commit < len(ref.hooks):
        crash_points.append((ref.last_before_commit + 1, "after"))
    failures, trials, named = [], 0, set()
    for crash_at, expected in crash_points:
        crashed = fs.fresh_copy(ref.base, tmp_path / f"crashed-{crash_at}")

        def crash(crashed=crashed, crash_at=crash_at):
            with fs.deterministic(ref.now):
                v = fs.open_vault(crashed)
                fs.install_hook(v, _killer(crash_at))
                fs.run_op(v, op)

        end = fs.in_child(crash, tmp_path / "child.log")
        assert end.killed, f"{op}: the crash at step {crash_at} did not happen: {end}"
        # the recovering open's events, recorded in-process on a copy
        root = fs.fresh_copy(crashed, tmp_path / f"record-{crash_at}")
        recorder = _Events(root)
        v = fs.unopened_vault(root)
        fs.install_hook(v, recorder.hook)
        with fs.Primitives(recorder.on):
            v.load()
        fs.install_hook(v, None)
        fs.release(v)
        points = recorder.kill_points()
        named |= {e.split()[1] for e in points if e.startswith("hook ")}
        for j, event in enumerate(points, 1):
            trials += 1
            root = fs.fresh_copy(crashed, tmp_path / f"c{crash_at}-j{j}")

            def body(root=root, j=j):
                events = _Events(root, kill_at=j)
                v = fs.unopened_vault(root)
                fs.install_hook(v, events.hook)
                with fs.Primitives(events.on):
                    v.load()

            end = fs.in_child(body, tmp_path / "child.log")
            if not end.killed:
                failures.append(f"crash at step {crash_at}, j={j} ({event}): the recovering "
                                f"open was not killed: {end}")
                continue
            problems = check_reopened(root, ref, git_tools, allowed=(expected,))
            if problems:
                failures.append(f"crash at step {crash_at} ({ref.hooks[crash_at - 1][0]}), "
                                f"j={j} ({event}): " + "; ".join(problems))
    _report(f"{op}: the recovering open killed at each of its events (hook steps seen: "
            f"{sorted(named) or 'none'})", failures, trials)
