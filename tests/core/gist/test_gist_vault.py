"""Gists in the vault: made at save, anew when content changes, on demand, by backfill (one
commit), and gist-first recall within a token budget."""

from __future__ import annotations

import subprocess

import pytest

from core import Memory, Vault
from core.gist import generate_gist
from core.ops.recall import recall
from core.model.tokens import estimate_tokens
from tui.cli import main

LONG = (
    "The ingestion queue moved from RabbitMQ to Redis Streams in March after the outage. "
    "We measured 18,000 msg/s sustained with p99 at 12 ms on three nodes. Basically the old "
    "cluster could not keep up with the nightly batch. The migration script lives in "
    "tools/migrate_queue.py and took 40 minutes to run. Kafka was considered but rejected "
    "because of the operational cost for a small team."
)
OTHER = (
    "Postgres 16 upgrade is scheduled for 2026-03-14 and pg_upgrade --link took 4 minutes on "
    "the staging copy. The team agreed to freeze schema changes for the week before. Rollback "
    "means restoring the snapshot taken at 02:00 UTC, which was tested twice in February by "
    "the on-call engineer."
)


def commits(vault: Vault) -> int:
    out = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=vault.root,
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_add_makes_a_gist_for_long_content_only(vault: Vault) -> None:
    long = vault.add(LONG, tags=["infra"])
    short = vault.add("Prefers dark mode.")
    assert long.gist == generate_gist(LONG, tags=["infra"])
    assert long.gist and estimate_tokens(long.gist) < estimate_tokens(LONG)
    assert short.gist is None
    assert Vault.open(vault.root).get(long.id).gist == long.gist  # it is in the file


def test_a_given_gist_is_kept(vault: Vault) -> None:
    assert vault.add(LONG, gist="queue moved to Redis Streams").gist == \
        "queue moved to Redis Streams"


def test_new_content_gets_a_new_gist(vault: Vault) -> None:
    memory = vault.add(LONG)
    changed = vault.update(memory.id, content=OTHER)
    assert changed.gist == generate_gist(OTHER)
    assert changed.gist != memory.gist
    shortened = vault.update(memory.id, content="Now short.")
    assert shortened.gist is None


def test_save_many_can_leave_gists_for_later(vault: Vault) -> None:
    saved = vault.save_many([Memory(id="m1", content=LONG)], make_gists=False)
    assert saved[0].gist is None


def test_regenerate_gist_levels_and_refusal(vault: Vault) -> None:
    memory = vault.add(LONG)
    before = commits(vault)
    aggressive = vault.regenerate_gist(memory.id[:6], "aggressive")
    assert commits(vault) == before + 1
    assert aggressive.gist == generate_gist(LONG, "aggressive")
    assert estimate_tokens(aggressive.gist) < estimate_tokens(memory.gist)
    with pytest.raises(ValueError, match="unknown gist level"):
        vault.regenerate_gist(memory.id, "extreme")
    assert commits(vault) == before + 1


def test_backfill_is_one_commit_and_dry_run_changes_nothing(vault: Vault) -> None:
    vault.save_many([Memory(id=f"m{i}", content=text) for i, text in
                     enumerate([LONG, OTHER, "short"])], make_gists=False)
    before = commits(vault)
    dry = vault.backfill_gists(dry_run=True)
    assert (dry.missing, len(dry.made), dry.commit) == (3, 2, None)
    assert dry.tokens_after < dry.tokens_before
    assert commits(vault) == before and vault.get("m0").gist is None
    seen: list[tuple[int, int]] = []
    done = vault.backfill_gists(progress=lambda d, t: seen.append((d, t)))
    assert commits(vault) == before + 1
    assert seen[-1] == (3, 3)
    assert {m.id for m in done.made} == {"m0", "m1"}
    assert vault.get("m0").gist == generate_gist(LONG)
    log = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=vault.root,
                         capture_output=True, text=True).stdout
    assert log.startswith("gist: backfill 2 memories (moderate)")
    assert vault.backfill_gists().commit is None  # nothing left: no empty commit


def test_recall_is_gist_first_and_fits_the_budget(vault: Vault) -> None:
    queue = vault.add(LONG, tags=["infra"])
    vault.add(OTHER, tags=["db"])
    vault.add("Unrelated note about lunch.")
    result = recall(vault, "redis queue")
    assert [line.memory.id for line in result.lines] == [queue.id]
    assert result.block == f"[{queue.id[:8]}] {queue.gist} (tags: infra)"
    assert result.saved == estimate_tokens(f"[{queue.id[:8]}] {LONG} (tags: infra)") - \
        result.tokens > 0
    full = recall(vault, "redis queue", full=True)
    assert LONG in full.block and full.saved == 0
    both = recall(vault, "queue postgres upgrade")
    assert len(both.lines) == 2
    tight = recall(vault, "queue postgres upgrade", budget=both.lines[1].tokens)
    assert len(tight.lines) == 1 and tight.tokens <= both.lines[1].tokens
    assert recall(vault, "redis", budget=3).lines == []


def test_recall_skips_archived(vault: Vault) -> None:
    memory = vault.add(LONG)
    vault.archive(memory.id)
    assert recall(vault, "redis").lines == []


def test_cli_recall_gist_backfill(tmp_path, capsys) -> None:
    path = str(tmp_path / "v")
    assert main(["--vault", path, "--create", "add", LONG]) == 0
    memory_id = capsys.readouterr().out.strip()
    assert main(["--vault", path, "recall", "redis", "--budget", "500"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith(f"[{memory_id[:8]}] ")
    assert "saved against full content" in out.err
    assert main(["--vault", path, "gist", memory_id[:6], "--level", "aggressive"]) == 0
    assert capsys.readouterr().out.strip() == generate_gist(LONG, "aggressive")
    assert main(["--vault", path, "backfill-gists", "--dry-run"]) == 0
    assert "0 of 0" in capsys.readouterr().out
    assert main(["--vault", path, "gist", memory_id, "--level", "huge"]) == 2
