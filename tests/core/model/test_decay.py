"""Decay scores: the configured model, CortexGraph's settings, forgetting and promotion."""

from __future__ import annotations

import math

import pytest

from core import ConfigError, DecayConfig, Memory, Vault
from core import decay

DAY = 86400
NOW = 1_800_000_000


def mem(days_ago: float = 7, use_count: int = 0, strength: float = 1.0,
        created_days_ago: float | None = None) -> Memory:
    last_used = int(NOW - days_ago * DAY)
    created = int(NOW - (created_days_ago if created_days_ago is not None else days_ago) * DAY)
    return Memory(id="m1", content="x", last_used=last_used, created_at=created,
                  use_count=use_count, strength=strength)


def test_power_law_seven_days():
    s = decay.score(mem(), DecayConfig(), NOW)
    assert s == pytest.approx(0.293, abs=0.002)
    # the formula written out: t0 = H / (2^(1/alpha) - 1)
    t0 = 3 * DAY / (2 ** (1 / 1.1) - 1)
    assert s == pytest.approx((1 + 7 * DAY / t0) ** -1.1, rel=1e-9)


def test_power_law_is_the_default():
    assert DecayConfig().decay_model == "power_law"
    assert DecayConfig.from_env({}).decay_model == "power_law"


def test_power_law_half_life():
    assert decay.score(mem(days_ago=3), DecayConfig(), NOW) == pytest.approx(0.5, rel=1e-9)


def test_exponential_seven_days():
    s = decay.score(mem(), DecayConfig(decay_model="exponential"), NOW)
    assert s == pytest.approx(0.198, abs=0.002)
    assert s == pytest.approx(math.exp(-2.673e-6 * 7 * DAY), rel=1e-9)


def test_two_component_seven_days():
    s = decay.score(mem(), DecayConfig(decay_model="two_component"), NOW)
    dt = 7 * DAY
    expected = 0.7 * math.exp(-1.603e-5 * dt) + 0.3 * math.exp(-1.147e-6 * dt)
    assert s == pytest.approx(expected, rel=1e-9)
    assert s == pytest.approx(0.150, abs=0.002)


@pytest.mark.parametrize("model", ["power_law", "exponential", "two_component"])
def test_fresh_memory_scores_its_strength(model):
    cfg = DecayConfig(decay_model=model)
    assert decay.score(mem(days_ago=0), cfg, NOW) == pytest.approx(1.0)
    assert decay.score(mem(days_ago=0, strength=1.5), cfg, NOW) == pytest.approx(1.5)


@pytest.mark.parametrize("model", ["power_law", "exponential", "two_component"])
def test_models_differ(model):
    others = {"power_law", "exponential", "two_component"} - {model}
    s = decay.score(mem(), DecayConfig(decay_model=model), NOW)
    for other in others:
        assert s != pytest.approx(decay.score(mem(), DecayConfig(decay_model=other), NOW), rel=0.01)


def test_beta_effect():
    cfg = DecayConfig()
    base = decay.score(mem(use_count=0), cfg, NOW)
    used = decay.score(mem(use_count=3), cfg, NOW)
    assert used / base == pytest.approx(4 ** 0.6, rel=1e-9)
    flat = DecayConfig(decay_beta=0.0)
    assert decay.score(mem(use_count=3), flat, NOW) == pytest.approx(
        decay.score(mem(use_count=0), flat, NOW))
    steep = DecayConfig(decay_beta=1.0)
    assert decay.score(mem(use_count=3), steep, NOW) == pytest.approx(4 * base)


def test_strength_multiplies():
    cfg = DecayConfig()
    assert decay.score(mem(strength=2.0), cfg, NOW) == pytest.approx(
        2 * decay.score(mem(strength=1.0), cfg, NOW))


def test_future_last_used_does_not_exceed_fresh():
    m = Memory(id="m", content="x", last_used=NOW + 1000, created_at=NOW)
    assert decay.score(m, DecayConfig(), NOW) == pytest.approx(1.0)


def test_env_vars_are_read():
    env = {
        "CORTEXGRAPH_DECAY_MODEL": "two_component",
        "CORTEXGRAPH_PL_ALPHA": "1.5",
        "CORTEXGRAPH_PL_HALFLIFE_DAYS": "5",
        "CORTEXGRAPH_DECAY_LAMBDA": "1e-5",
        "CORTEXGRAPH_DECAY_BETA": "0.4",
        "CORTEXGRAPH_TC_LAMBDA_FAST": "2e-5",
        "CORTEXGRAPH_TC_LAMBDA_SLOW": "2e-6",
        "CORTEXGRAPH_TC_WEIGHT_FAST": "0.5",
        "CORTEXGRAPH_FORGET_THRESHOLD": "0.1",
        "CORTEXGRAPH_PROMOTE_THRESHOLD": "0.8",
        "CORTEXGRAPH_PROMOTE_USE_COUNT": "7",
        "CORTEXGRAPH_PROMOTE_TIME_WINDOW": "21",
    }
    cfg = DecayConfig.from_env(env)
    assert cfg == DecayConfig(
        decay_model="two_component", pl_alpha=1.5, pl_halflife_days=5.0, decay_lambda=1e-5,
        decay_beta=0.4, tc_lambda_fast=2e-5, tc_lambda_slow=2e-6, tc_weight_fast=0.5,
        forget_threshold=0.1, promote_threshold=0.8, promote_use_count=7, promote_time_window=21)


def test_env_vars_from_process_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CORTEXGRAPH_DECAY_MODEL", "exponential")
    monkeypatch.setenv("CORTEXGRAPH_FORGET_THRESHOLD", "0.2")
    cfg = DecayConfig.from_env()
    assert cfg.decay_model == "exponential" and cfg.forget_threshold == 0.2
    v = Vault.open(tmp_path / "v")
    assert v.config.decay_model == "exponential"
    assert v.score(mem(), NOW) == pytest.approx(0.198, abs=0.002)


def test_halflife_env_changes_power_law():
    cfg = DecayConfig.from_env({"CORTEXGRAPH_PL_HALFLIFE_DAYS": "7"})
    assert decay.score(mem(days_ago=7), cfg, NOW) == pytest.approx(0.5, rel=1e-9)


@pytest.mark.parametrize("var,value", [
    ("CORTEXGRAPH_PL_ALPHA", "fast"),
    ("CORTEXGRAPH_DECAY_BETA", "-1"),
    ("CORTEXGRAPH_DECAY_LAMBDA", "0"),
    ("CORTEXGRAPH_PROMOTE_USE_COUNT", "2.5"),
    ("CORTEXGRAPH_TC_WEIGHT_FAST", "1.5"),
    ("CORTEXGRAPH_FORGET_THRESHOLD", "nan-ish"),
    ("CORTEXGRAPH_DECAY_MODEL", "linear"),
    ("CORTEXGRAPH_PL_HALFLIFE_DAYS", "-3"),
])
def test_bad_env_value_names_the_variable(var, value):
    with pytest.raises(ConfigError) as info:
        DecayConfig.from_env({var: value})
    assert var in str(info.value)


def test_bad_env_value_stops_vault_open(monkeypatch, tmp_path):
    monkeypatch.setenv("CORTEXGRAPH_PL_ALPHA", "abc")
    with pytest.raises(ConfigError, match="CORTEXGRAPH_PL_ALPHA"):
        Vault.open(tmp_path / "v")


@pytest.mark.parametrize("model", ["power_law", "exponential", "two_component"])
@pytest.mark.parametrize("use_count,strength", [(0, 1.0), (4, 1.3), (20, 2.0)])
def test_seconds_until_forgotten_consistent_with_score(model, use_count, strength):
    cfg = DecayConfig(decay_model=model)
    m = mem(days_ago=1, use_count=use_count, strength=strength)
    t = decay.seconds_until_forgotten(m, cfg, NOW)
    assert t is not None and t > 0
    at = NOW + math.ceil(t)
    # score at now + t is at the threshold: just below at t, still above a few seconds earlier
    assert decay.score(m, cfg, at) < cfg.forget_threshold
    assert decay.score(m, cfg, at - 3) >= cfg.forget_threshold
    assert decay.score(m, cfg, at) == pytest.approx(cfg.forget_threshold, rel=1e-3)


def test_seconds_until_forgotten_edges():
    cfg = DecayConfig()
    gone = mem(days_ago=3650)
    assert decay.score(gone, cfg, NOW) < cfg.forget_threshold
    assert decay.seconds_until_forgotten(gone, cfg, NOW) == 0
    assert decay.seconds_until_forgotten(mem(), DecayConfig(forget_threshold=0.0), NOW) is None


def test_seconds_until_forgotten_shorter_with_higher_threshold():
    m = mem(days_ago=0)
    low = decay.seconds_until_forgotten(m, DecayConfig(forget_threshold=0.05), NOW)
    high = decay.seconds_until_forgotten(m, DecayConfig(forget_threshold=0.2), NOW)
    assert high < low


@pytest.mark.parametrize("model", ["power_law", "exponential", "two_component"])
def test_forecast(model):
    cfg = DecayConfig(decay_model=model)
    m = mem(days_ago=1, use_count=2)
    values = decay.forecast(m, cfg, days=30, now=NOW)
    assert len(values) == 31
    assert values[0] == pytest.approx(decay.score(m, cfg, NOW))
    assert values[10] == pytest.approx(decay.score(m, cfg, NOW + 10 * DAY))
    assert all(a > b for a, b in zip(values, values[1:]))
    assert len(decay.forecast(m, cfg, days=7, now=NOW)) == 8


def test_vault_helpers_use_vault_config(tmp_path):
    v = Vault.open(tmp_path / "v", config=DecayConfig(decay_model="exponential"))
    m = mem()
    assert v.score(m, NOW) == pytest.approx(0.198, abs=0.002)
    assert len(v.forecast(m, days=5, now=NOW)) == 6
    assert v.seconds_until_forgotten(m, NOW) == decay.seconds_until_forgotten(
        m, DecayConfig(decay_model="exponential"), NOW)


def test_should_promote_by_score():
    cfg = DecayConfig()
    hot = mem(days_ago=0, use_count=1, created_days_ago=100)
    assert decay.score(hot, cfg, NOW) >= 0.65
    assert decay.should_promote(hot, cfg, NOW)
    cold = mem(days_ago=30, use_count=1, created_days_ago=100)
    assert decay.score(cold, cfg, NOW) < 0.65
    assert not decay.should_promote(cold, cfg, NOW)


def test_should_promote_by_use_count_within_window():
    cfg = DecayConfig()
    # low score (last used long ago relative to its strength), but used 5 times within 14 days
    young = mem(days_ago=10, use_count=5, strength=0.1, created_days_ago=10)
    assert decay.score(young, cfg, NOW) < cfg.promote_threshold
    assert decay.should_promote(young, cfg, NOW)
    old = mem(days_ago=10, use_count=5, strength=0.1, created_days_ago=20)
    assert not decay.should_promote(old, cfg, NOW)
    too_few = mem(days_ago=10, use_count=4, strength=0.1, created_days_ago=10)
    assert not decay.should_promote(too_few, cfg, NOW)
    # the settings move the rule
    assert decay.should_promote(old, DecayConfig(promote_time_window=30), NOW)
    assert decay.should_promote(too_few, DecayConfig(promote_use_count=4), NOW)
    assert decay.should_promote(
        mem(days_ago=30, use_count=1, created_days_ago=100), DecayConfig(promote_threshold=0.1),
        NOW)


@pytest.mark.parametrize("model", ["power_law", "exponential", "two_component"])
def test_scores_below_gives_the_very_scores_of_score_and_only_those_below(model):
    """gc's loop: the memories scoring below the limit, in their order, with score's floats
    (a memory used in the future, or just now, counts as used now)."""
    from core.decay import score, scores_below

    config = DecayConfig(decay_model=model)
    at = 1_800_000_000
    memories = [Memory(id=f"m{i}", content="x", use_count=i % 17, strength=0.1 + (i % 19) / 10,
                       last_used=at - i * 7919 * 13 + (i % 3) * 10**6) for i in range(300)]
    scores = [score(m, config, at) for m in memories]
    limit = sorted(scores)[len(scores) // 3]
    expected = [(m, s) for m, s in zip(memories, scores) if s < limit]
    assert 50 < len(expected) < 150
    assert any(m.last_used > at for m in memories)  # (a use in the future: dt is 0)
    assert scores_below(memories, limit, config, at) == expected
