"""The write lock: first come, first served; a wait that runs out names the holder; private to
the vault's owner."""

from __future__ import annotations

import os
import stat
import threading
import time

import pytest

from core import LockTimeoutError, Vault
from core.git.journal import Journal


def _queued(journal: Journal) -> int:
    folder = journal.state_dir / "lock-queue"
    try:
        return len([n for n in os.listdir(folder) if not n.startswith(".")])
    except FileNotFoundError:  # a lock without a queue (memvault before 0.2): give it time
        time.sleep(0.1)
        return 1 << 20


def test_waiters_get_the_lock_in_arrival_order(vault_path):
    Vault.open(vault_path).add("x")
    holder = Journal(vault_path)
    order: list[str] = []
    release = threading.Event()

    def wait_turn(name: str, journal: Journal) -> None:
        with journal.lock(timeout=30):
            order.append(name)

    with holder.lock():
        threads = []
        for name in ("first", "second", "third"):
            t = threading.Thread(target=wait_turn, args=(name, Journal(vault_path)))
            t.start()
            threads.append(t)
            deadline = time.monotonic() + 10
            while _queued(holder) < len(threads) + 1 and time.monotonic() < deadline:
                time.sleep(0.005)  # wait until this waiter has its ticket: arrival is fixed
        release.set()
    # the holder comes back at once, as a busy writer would; it must queue behind the others
    with holder.lock(timeout=30):
        order.append("holder again")
    for t in threads:
        t.join(30)
    assert order == ["first", "second", "third", "holder again"]


def test_a_crashed_waiter_does_not_block_the_queue(vault_path):
    Vault.open(vault_path).add("x")
    j = Journal(vault_path)
    queue = j.state_dir / "lock-queue"
    (queue / f"{1:020d}-999999999-dead").write_text("999999999 1\n")  # no such process
    with j.lock(timeout=2):
        pass
    assert not (queue / f"{1:020d}-999999999-dead").exists()


def test_timeout_names_the_holder_and_the_queue(vault_path):
    Vault.open(vault_path).add("x")
    holder, waiter = Journal(vault_path), Journal(vault_path)
    with holder.lock():
        with pytest.raises(LockTimeoutError) as info:
            with waiter.lock(timeout=0.2):
                pass
    assert f"memvault pid {os.getpid()}" in str(info.value)
    assert "gave up after 0.2 s" in str(info.value)
    assert _queued(holder) == 0  # the ticket of the one that gave up is gone


def test_lock_files_are_private(vault_path):
    v = Vault.open(vault_path)
    v.add("x")
    state = v.journal.state_dir
    assert stat.S_IMODE((state / "lock").stat().st_mode) == 0o600
    assert stat.S_IMODE((state / "lock-queue").stat().st_mode) == 0o700
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
