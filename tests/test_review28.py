"""What review28 found running this session's user-visible changes as a user would."""

from __future__ import annotations

import pytest

from gpuwise.errors import KnowledgeError
from gpuwise.knowledge import load

GB10_PRICE = """schema_version: 1
gpus:
  - id: gb10
    units: {sold_as: workstation, sizes: [1], max_per_node: 1, reason: "one GB10 a DGX Spark",
            source: "NVIDIA DGX Spark product page"}
    prices:
      - {amount: 3999, condition: new, unit: card, kind: vendor-list, as_of: 2025-10-15,
         source: "NVIDIA DGX Spark store page"}
"""


def test_a_users_price_for_an_excluded_gpu_is_taken(tmp_path):
    """TCO-NO-PRICE-EITHER-WAY's fix says: add a dated price with --knowledge (prices.yaml). The built-in file
    lists gb10 under excluded, so that overlay was refused 'gpu 'gb10' is both priced and excluded'; the
    overlay's price now replaces the built-in exclusion, and the GB10 is priced at the $3,999 given."""
    assert "gb10" in {e.id for e in load().prices.excluded}
    (tmp_path / "prices.yaml").write_text(GB10_PRICE)
    kb = load(tmp_path)
    assert "gb10" not in {e.id for e in kb.prices.excluded}
    (entry,) = [g for g in kb.prices.gpus if g.id == "gb10"]
    assert [p.amount for p in entry.prices] == [3999]


def test_an_overlay_that_prices_and_excludes_one_gpu_is_still_refused(tmp_path):
    (tmp_path / "prices.yaml").write_text(GB10_PRICE + 'excluded:\n  - {id: gb10, reason: "not sold to us here"}\n')
    with pytest.raises(KnowledgeError, match="both priced and excluded"):
        load(tmp_path)
