"""bench/fusion_default.py: measures fused against op by op, with equal answers, per size."""

import bench
from bench import fusion_default


def test_one_small_size(monkeypatch):
    monkeypatch.setattr(fusion_default, "SIZES", (1 << 12,))
    assert "bench.fusion_default" in bench.WORKLOADS
    values = fusion_default.run(repeats=1)
    assert values["fused_us_4096"] > 0 and values["unfused_us_4096"] > 0
    assert values["fused_over_unfused_4096"] > 0
    assert values["threshold_elements"] == 1 << 16
