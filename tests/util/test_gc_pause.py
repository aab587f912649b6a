"""listbuilder.util.gc_pause: the cyclic collector is off inside the block and as it was after."""

from __future__ import annotations

import gc

import pytest

from listbuilder.util.gc_pause import paused_gc


@pytest.fixture(autouse=True)
def collector_enabled():
    gc.enable()
    yield
    gc.enable()


def test_collector_is_off_inside_and_back_on_after():
    with paused_gc():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collector_comes_back_on_after_an_error():
    with pytest.raises(RuntimeError), paused_gc():
        raise RuntimeError("layout failed")
    assert gc.isenabled()


def test_nested_pause_keeps_it_off_until_the_outer_one_ends():
    with paused_gc():
        with paused_gc():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_switched_off_before_stays_off():
    gc.disable()
    with paused_gc():
        pass
    assert not gc.isenabled()
