"""Settings: the decay model and thresholds (CortexGraph's ``CORTEXGRAPH_*`` variables) and where
the vault lives (``MEMVAULT_PATH``, then CortexGraph's configured storage path, then a per-user
folder)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from ..errors import ConfigError
from .cortexgraph_config import configured_storage_path

DECAY_MODELS = ("power_law", "exponential", "two_component")

# setting name -> (environment variable, type)
_ENV: dict[str, tuple[str, type]] = {
    "decay_model": ("CORTEXGRAPH_DECAY_MODEL", str),
    "pl_alpha": ("CORTEXGRAPH_PL_ALPHA", float),
    "pl_halflife_days": ("CORTEXGRAPH_PL_HALFLIFE_DAYS", float),
    "decay_lambda": ("CORTEXGRAPH_DECAY_LAMBDA", float),
    "decay_beta": ("CORTEXGRAPH_DECAY_BETA", float),
    "tc_lambda_fast": ("CORTEXGRAPH_TC_LAMBDA_FAST", float),
    "tc_lambda_slow": ("CORTEXGRAPH_TC_LAMBDA_SLOW", float),
    "tc_weight_fast": ("CORTEXGRAPH_TC_WEIGHT_FAST", float),
    "forget_threshold": ("CORTEXGRAPH_FORGET_THRESHOLD", float),
    "promote_threshold": ("CORTEXGRAPH_PROMOTE_THRESHOLD", float),
    "promote_use_count": ("CORTEXGRAPH_PROMOTE_USE_COUNT", int),
    "promote_time_window": ("CORTEXGRAPH_PROMOTE_TIME_WINDOW", int),
}
#: setting name -> the environment variable that sets it (what a settings view shows)
ENV_VARS: dict[str, str] = {name: var for name, (var, _kind) in _ENV.items()}


@dataclass(frozen=True)
class DecayConfig:
    """Parameters of the decay score; defaults are CortexGraph 1.2.1's."""

    decay_model: str = "power_law"
    pl_alpha: float = 1.1
    pl_halflife_days: float = 3.0
    decay_lambda: float = 2.673e-6  # exponential: 3-day half-life
    decay_beta: float = 0.6
    tc_lambda_fast: float = 1.603e-5
    tc_lambda_slow: float = 1.147e-6
    tc_weight_fast: float = 0.7
    forget_threshold: float = 0.05
    promote_threshold: float = 0.65
    promote_use_count: int = 5
    promote_time_window: int = 14  # days

    def __post_init__(self) -> None:
        if self.decay_model not in DECAY_MODELS:
            raise ConfigError(
                f"unknown decay model {self.decay_model!r} (CORTEXGRAPH_DECAY_MODEL): "
                f"choose one of {', '.join(DECAY_MODELS)}"
            )
        positive = ("pl_alpha", "pl_halflife_days", "decay_lambda", "tc_lambda_fast",
                    "tc_lambda_slow", "promote_use_count", "promote_time_window")
        for name in positive:
            if not getattr(self, name) > 0:
                raise ConfigError(f"{_ENV[name][0]} must be > 0, got {getattr(self, name)!r}")
        for name in ("tc_weight_fast", "forget_threshold"):
            if not 0 <= getattr(self, name) <= 1:
                raise ConfigError(f"{_ENV[name][0]} must be in 0..1, got {getattr(self, name)!r}")
        if self.decay_beta < 0:
            raise ConfigError(f"CORTEXGRAPH_DECAY_BETA must be >= 0, got {self.decay_beta!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> DecayConfig:
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            var, kind = _ENV[f.name]
            raw = env.get(var)
            if raw is None or raw.strip() == "":
                continue
            try:
                values[f.name] = kind(raw.strip())
            except ValueError:
                raise ConfigError(f"{var}={raw!r} is not a valid {kind.__name__}") from None
        return cls(**values)  # type: ignore[arg-type]


def default_vault_path(environ: Mapping[str, str] | None = None) -> Path:
    """Where the vault is when no path is given: ``MEMVAULT_PATH``, else the storage path
    configured for CortexGraph (``CORTEXGRAPH_STORAGE_PATH`` from the environment or CortexGraph's
    ``.env`` file, as CortexGraph reads it: :mod:`core.model.cortexgraph_config`), else
    ``$XDG_DATA_HOME/memvault/vault``."""
    env = os.environ if environ is None else environ
    if env.get("MEMVAULT_PATH"):
        return Path(env["MEMVAULT_PATH"]).expanduser()
    configured = configured_storage_path(environ)
    if configured is not None:
        return configured
    data_home = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home).expanduser() / "memvault" / "vault"
