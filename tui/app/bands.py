"""Decay bands: fresh, fading, the danger zone, critical and below the forget threshold, from
the vault's decay settings; which band a score is in (for a whole view at once, by bisection);
and each band's colour (fixed colours, not the terminal's ANSI palette, whose "yellow" is orange
in some themes)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import partial

from core import DecayConfig

DANGER_LOW, DANGER_HIGH = 0.15, 0.35

BAND_STYLE = {"fresh": "#7ccc4c", "fading": "#e3c948", "danger": "#f59331", "critical": "#ef5b4f",
              "forget": "#c0392b"}


@dataclass(frozen=True)
class Band:
    key: str
    name: str
    low: float  # inclusive
    high: float | None  # exclusive; None: no upper bound
    style: str

    @property
    def range_text(self) -> str:
        if self.high is None:
            return f"≥ {self.low:g}"
        if self.low <= 0:
            return f"< {self.high:g}"
        return f"{self.low:g}–{self.high:g}"


def bands(config: DecayConfig) -> list[Band]:
    """Decay bands, best first: fresh (at or above the promote threshold), fading (down to the
    danger zone), danger zone (0.15–0.35, CortexGraph's review zone), critical (down to the
    forget threshold) and below the forget threshold (what gc prunes)."""
    forget = config.forget_threshold
    promote = max(config.promote_threshold, DANGER_HIGH)
    return [
        Band("fresh", "fresh", promote, None, BAND_STYLE["fresh"]),
        Band("fading", "fading", DANGER_HIGH, promote, BAND_STYLE["fading"]),
        Band("danger", "danger zone", DANGER_LOW, DANGER_HIGH, BAND_STYLE["danger"]),
        Band("critical", "critical", forget, DANGER_LOW, BAND_STYLE["critical"]),
        Band("forget", "below forget threshold", 0.0, forget, BAND_STYLE["forget"]),
    ]


def band_of(score: float, table: list[Band]) -> Band:
    for band in table:
        if score >= band.low:
            return band
    return table[-1]


def band_keys(scores: list[float], table: list[Band]) -> list[str]:
    """``band_of(s, table).key`` of each score, by bisection over the table's lower bounds when
    they fall from best to worst (as :func:`bands` makes them, unless the thresholds are set
    oddly): no Python call per score, for views of 100k memories."""
    lows = [b.low for b in table]
    if not all(a > b for a, b in zip(lows, lows[1:])):
        return [band_of(s, table).key for s in scores]
    ascending, keys, last = lows[::-1], [b.key for b in reversed(table)], table[-1].key
    return [keys[k - 1] if k else last for k in map(partial(bisect_right, ascending), scores)]
