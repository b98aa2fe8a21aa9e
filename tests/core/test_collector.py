"""The cyclic collector paused around a bulk of long-lived objects (core/collector.py)."""

from __future__ import annotations

import gc

import pytest

from core.collector import collector_paused


def test_the_collector_is_off_inside_and_as_it_was_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()  # (on again after an error too)


def test_a_pause_inside_another_leaves_it_off_until_the_outer_one_ends():
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # (off before: left off)
    finally:
        gc.enable()
