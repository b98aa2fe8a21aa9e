"""The server's own performance figures, behind CortexGraph's ``get_performance_metrics`` and
``reset_performance_metrics``: every ``tools/call`` timed from the moment the server has read it
to its answer (argument checks, the tool, the answer's conversion), per tool, the last
:data:`KEPT` calls of each. CortexGraph's shape (``{tool: {count, avg_ms, min_ms, max_ms,
total_ms}, "<tool>_count": n}``) with p50 and p95 added."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque
from typing import Any

KEPT = 1000  # CortexGraph keeps the last 1,000 timings of each operation


def _percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


class ToolTimings:
    """Timings per tool name, safe to record from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._timings: dict[str, deque[float]] = defaultdict(lambda: deque(maxlen=KEPT))
        self._counts: dict[str, int] = defaultdict(int)
        self.since = time.time()

    def record(self, tool: str, seconds: float) -> None:
        with self._lock:
            self._timings[tool].append(seconds)
            self._counts[tool] += 1

    def stats(self) -> dict[str, Any]:
        with self._lock:
            timings = {k: sorted(v) for k, v in self._timings.items() if v}
            counts = dict(self._counts)
        out: dict[str, Any] = {}
        for tool, ordered in sorted(timings.items()):
            total = sum(ordered)
            out[tool] = {"count": len(ordered), "avg_ms": round(total * 1000 / len(ordered), 3),
                         "min_ms": round(ordered[0] * 1000, 3),
                         "max_ms": round(ordered[-1] * 1000, 3),
                         "total_ms": round(total * 1000, 3),
                         "p50_ms": round(_percentile(ordered, 50) * 1000, 3),
                         "p95_ms": round(_percentile(ordered, 95) * 1000, 3)}
        for tool, count in sorted(counts.items()):
            out[f"{tool}_count"] = count
        return out

    def reset(self) -> None:
        with self._lock:
            self._timings.clear()
            self._counts.clear()
            self.since = time.time()


def timing_middleware(timings: ToolTimings) -> Any:
    """A server middleware timing each tools/call (by the tool's name)."""

    async def time_tool(ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        name = (ctx.params or {}).get("name")
        began = time.perf_counter()
        try:
            return await call_next(ctx)
        finally:
            if isinstance(name, str) and len(name) <= 64:
                timings.record(name, time.perf_counter() - began)

    return time_tool
