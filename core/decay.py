"""Ebbinghaus-style decay: score = (use_count + 1)^beta * f(dt) * strength.

Unlike CortexGraph 1.2.1, which scores every model exponentially, the configured model is used.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .model.config import DecayConfig
from .model.values import now_epoch

if TYPE_CHECKING:
    from .model.records import Memory

SECONDS_PER_DAY = 86400
_NEVER_SECONDS = 100 * 365 * SECONDS_PER_DAY  # beyond this a memory is treated as never forgotten


def decay_function(config: DecayConfig) -> Callable[[float], float]:
    """f(dt), dt in seconds since last use, for the configured model; f(0) == 1."""
    if config.decay_model == "power_law":
        alpha = config.pl_alpha
        t0 = config.pl_halflife_days * SECONDS_PER_DAY / (2.0 ** (1.0 / alpha) - 1.0)
        return lambda dt: (1.0 + dt / t0) ** -alpha
    if config.decay_model == "exponential":
        lam = config.decay_lambda
        return lambda dt: math.exp(-lam * dt)
    w, lf, ls = config.tc_weight_fast, config.tc_lambda_fast, config.tc_lambda_slow
    return lambda dt: w * math.exp(-lf * dt) + (1.0 - w) * math.exp(-ls * dt)


def score_at(
    use_count: int, last_used: int, strength: float, at: int, config: DecayConfig
) -> float:
    dt = max(0.0, float(at - last_used))
    return float((use_count + 1) ** config.decay_beta * decay_function(config)(dt) * strength)


def scores_below(memories: Iterable[Memory], limit: float, config: DecayConfig,
                 now: int | None = None) -> list[tuple[Memory, float]]:
    """(memory, score) of each of ``memories`` scoring below ``limit`` at ``now``, in their
    order: :func:`score`'s very arithmetic, the decay function made once, in one loop without a
    call a memory (gc scores every memory of the vault; at 100,000 the calls cost twice the
    arithmetic)."""
    at = now_epoch() if now is None else now
    f, beta = decay_function(config), config.decay_beta
    found = []
    for memory in memories:
        dt = at - memory.last_used
        value = float((memory.use_count + 1) ** beta * f(float(dt) if dt > 0 else 0.0)
                      * memory.strength)
        if value < limit:
            found.append((memory, value))
    return found


def score(memory: Memory, config: DecayConfig, now: int | None = None) -> float:
    """The memory's decay score now (or at ``now``)."""
    at = now_epoch() if now is None else now
    return score_at(memory.use_count, memory.last_used, memory.strength, at, config)


def seconds_until_forgotten(
    memory: Memory, config: DecayConfig, now: int | None = None
) -> float | None:
    """Seconds until the score falls below the forget threshold: 0 if it already has, None if it
    never will (zero threshold) or not within a century."""
    at = now_epoch() if now is None else now
    threshold = config.forget_threshold
    if score(memory, config, at) < threshold:
        return 0.0
    if threshold <= 0:
        return None
    f = decay_function(config)
    k = (memory.use_count + 1) ** config.decay_beta * memory.strength
    elapsed = max(0.0, float(at - memory.last_used))
    target = threshold / k  # f(dt) must drop below this
    if f(elapsed + _NEVER_SECONDS) >= target:
        return None
    lo, hi = 0.0, 3600.0
    while f(elapsed + hi) >= target:
        lo, hi = hi, hi * 2
    for _ in range(60):  # f is decreasing: bisect to sub-second precision
        mid = (lo + hi) / 2
        if f(elapsed + mid) >= target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 0.5:
            break
    return hi


def forecast(
    memory: Memory, config: DecayConfig, days: int = 30, now: int | None = None
) -> list[float]:
    """The score at now, now + 1 day, ... now + ``days`` days (``days + 1`` values)."""
    at = now_epoch() if now is None else now
    return [score(memory, config, at + d * SECONDS_PER_DAY) for d in range(days + 1)]


def should_promote(memory: Memory, config: DecayConfig, now: int | None = None) -> bool:
    """Promote at score >= promote threshold, or use_count >= N within the window after creation."""
    at = now_epoch() if now is None else now
    if score(memory, config, at) >= config.promote_threshold:
        return True
    within_window = at - memory.created_at <= config.promote_time_window * SECONDS_PER_DAY
    return within_window and memory.use_count >= config.promote_use_count
