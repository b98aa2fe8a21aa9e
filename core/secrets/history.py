"""``memvault scan``: every secret in every version of every vault file in history, on every
ref (branches, remote-tracking branches, ``refs/memvault/...``), and in commit messages.

One ``git log --all --raw`` pass lists each commit with the blobs it brought in; each distinct
blob is read once (``git cat-file --batch``, in chunks) and scanned once, however many commits
carry it; a finding is reported for each commit that brought that blob to that path."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from .scanner import Finding, scan_record, scan_text

if TYPE_CHECKING:
    from ..vault.api import Vault

CHUNK = 2000  # blobs read per cat-file process


@dataclass(frozen=True)
class HistoryFinding:
    """One secret in history: in the file at ``path`` (vault-relative; ``record`` says which
    memory or relation it is) as ``commit`` wrote it, or in ``commit``'s message."""

    record_kind: str  # "memory", "relation", "file" or "message"
    record_id: str  # the memory's or relation's id; the path of another file; "" for a message
    path: str
    commit: str
    kind: str
    field: str
    start: int
    end: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class ScanReport:
    findings: list[HistoryFinding] = field(default_factory=list)
    commits: int = 0
    blobs: int = 0
    seconds: float = 0.0

    @property
    def memory_ids(self) -> list[str]:
        return sorted({f.record_id for f in self.findings if f.record_kind == "memory"})

    def to_json(self) -> dict[str, Any]:
        return {"findings": [f.to_json() for f in self.findings], "commits": self.commits,
                "blobs": self.blobs, "memories": self.memory_ids,
                "seconds": round(self.seconds, 3)}


def scan_history(vault: Vault) -> ScanReport:
    """Scan every version of the vault's files and every commit message (see the module)."""
    started = time.perf_counter()
    journal, layout = vault.journal, vault.layout
    report = ScanReport()
    commits = journal.history.commits_with_changes(all_refs=True)
    report.commits = len(commits)
    introduced: dict[str, list[tuple[str, str]]] = {}  # blob -> [(commit, path)]
    for commit in commits:
        for change in commit.changes:
            if change.new_blob is not None and change.path != ".meta.json":
                introduced.setdefault(change.new_blob, []).append((commit.commit, change.path))
        for hit in scan_text(commit.message):
            report.findings.append(HistoryFinding("message", "", "", commit.commit, hit.kind,
                                                  "message", hit.start, hit.end))
    blobs = list(introduced)
    report.blobs = len(blobs)
    for at in range(0, len(blobs), CHUNK):
        contents = journal.objects.read_blobs(blobs[at:at + CHUNK])
        for sha, data in contents.items():
            where = introduced[sha]
            what = layout.classify(where[0][1])
            findings = _scan_blob(data, what)
            for sha_of_commit, path in where:
                what = layout.classify(path)
                record_kind, record_id = (what if what is not None else ("file", path))
                for f in findings:
                    report.findings.append(HistoryFinding(record_kind, record_id, path, sha_of_commit,
                                                          f.kind, f.field, f.start, f.end))
    report.seconds = time.perf_counter() - started
    return report


def _scan_blob(data: bytes, what: tuple[str, str] | None) -> list[Finding]:
    if what is not None and what[0] in ("memory", "relation"):
        try:
            record = json.loads(data)
        except ValueError:
            record = None
        if isinstance(record, dict):
            return scan_record(record)
    text = data.decode("utf-8", "replace")
    path = "text"
    return [Finding(h.kind, path, h.start, h.end, text[h.start:h.end]) for h in scan_text(text)]
