"""Helpers shared by the migration, import, export and event-log tests."""

from __future__ import annotations

import json
from pathlib import Path

import vault_support


def memory_line(mid: str, content: str = "text", **fields) -> dict:
    """A full CortexGraph 1.2.1 memory record (every key, as it writes them)."""
    record = {
        "id": mid, "content": content,
        "meta": {"tags": [], "source": None, "context": None, "extra": {}},
        "created_at": 1_700_000_000, "last_used": 1_700_000_000, "use_count": 0,
        "strength": 1.0, "status": "active", "promoted_at": None, "promoted_to": None,
        "embed": None, "entities": [], "review_priority": 0.0, "last_review_at": None,
        "review_count": 0, "cross_domain_count": 0,
    }
    record.update(fields)
    return record


def relation_line(rid: str, a: str, b: str, kind: str = "related", **fields) -> dict:
    record = {"id": rid, "from_memory_id": a, "to_memory_id": b, "relation_type": kind,
              "strength": 1.0, "created_at": 1_700_000_000, "metadata": {}}
    record.update(fields)
    return record


def tombstone(rid) -> dict:
    return {"id": rid, "_deleted": True}


def write_store(folder: Path, memories: list, relations: list | None = None) -> Path:
    """Lines are dicts (dumped as CortexGraph does) or raw str/bytes (written as they are)."""
    folder.mkdir(parents=True, exist_ok=True)

    def encode(lines: list) -> bytes:
        out = b""
        for line in lines:
            if isinstance(line, dict):
                out += json.dumps(line).encode() + b"\n"
            elif isinstance(line, str):
                out += line.encode() + b"\n"
            else:
                out += line + b"\n"
        return out

    (folder / "memories.jsonl").write_bytes(encode(memories))
    if relations is not None:
        (folder / "relations.jsonl").write_bytes(encode(relations))
    return folder


def assert_consistent(vault) -> None:
    """vault_support's check (cache == disk == HEAD, clean status) with a migration's committed
    backup under ``.backup/`` checked on its own: on disk as in HEAD."""
    head = vault_support.head_tree(vault)
    backup = {p: sha for p, sha in head.items() if p.startswith(".backup/")}
    for path, sha in backup.items():
        assert vault_support.blob_sha((vault.root / path).read_bytes()) == sha, path
    real = vault_support.head_tree
    vault_support.head_tree = lambda v: {p: s for p, s in real(v).items() if p not in backup}
    try:
        vault_support.assert_consistent(vault)
    finally:
        vault_support.head_tree = real
