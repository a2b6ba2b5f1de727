"""The throughput benchmark's reading of shard processes (tests/benchmarks/bench_targets.py):
the rate while every process had commands counts only what was done while all of them were."""
from __future__ import annotations

import pytest

from tests.benchmarks.bench_targets import all_busy


def shard(start: float, stamps: list[float]) -> dict:
    return {"start": start, "end": max(stamps), "stamps": stamps}


def test_the_rate_while_all_are_busy_leaves_out_the_tail_one_shard_plays_alone():
    # shard A does a command every 0.1 s from 0 to 6 s; shard B every 0.1 s until 8 s
    a = shard(0.0, [round(0.1 * k, 1) for k in range(1, 61)])
    b = shard(0.0, [round(0.1 * k, 1) for k in range(1, 81)])
    got = all_busy([a, b])
    # from 0 to 6 s both were busy: 60 + 60 commands in 6 s
    assert got["busy_per_s"] == pytest.approx(20.0)
    assert got["busy_share"] == pytest.approx(6 / 8)
    # the span's rate, as shards() reads it, counts B's last 2 s alone: 140 in 8 s
    assert 140 / 8 < got["busy_per_s"]


def test_commands_done_before_the_last_shard_started_are_left_out():
    a = shard(0.0, [0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    b = shard(1.0, [1.5, 2.0, 2.5, 3.0, 3.5])
    got = all_busy([a, b])
    # the window is 1.0 to 3.0: A's 1.0 ... 3.0 (5 commands), B's 1.5 ... 3.0 (4)
    assert got["busy_per_s"] == pytest.approx(9 / 2.0)
    assert got["busy_share"] == pytest.approx(2.0 / 3.5)


def test_the_moments_need_not_come_in_order():
    ordered = all_busy([shard(0.0, [1.0, 2.0, 3.0]), shard(0.0, [1.0, 2.0, 3.0, 4.0])])
    shuffled = all_busy([shard(0.0, [3.0, 1.0, 2.0]), shard(0.0, [4.0, 2.0, 3.0, 1.0])])
    assert shuffled == ordered


def test_shards_that_never_ran_together_are_refused():
    with pytest.raises(ValueError, match="never all had commands"):
        all_busy([shard(0.0, [1.0, 2.0]), shard(3.0, [4.0, 5.0])])
