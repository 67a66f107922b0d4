"""review46: a new buyer's hour with gpuwise (a team lead sizing 8-GPU serving, an engineer fine-tuning on a
budget, an approver auditing a 64 x H100 purchase). Each test fails on the code before its fix."""

from __future__ import annotations

from gpuwise import recommend
from gpuwise.render.report import render

# issue 22's buyer (b): a LoRA fine-tune of a 70B on a budget, asking about DGX Spark and rented H100 together
LORA70 = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.3-70b", "seq_len": 4096,
                      "train_tokens": 2.0e8},
          "constraints": {"gpus": ["H100", "DGX Spark"], "max_gpus": 8, "deadline_days": 14}}


def _row(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.strip().startswith(start))


def test_break_even_is_never_only_where_both_ways_are_priced() -> None:
    # The full report's Rent-or-buy table gave a DGX Spark, which no cloud in knowledge/clouds.yaml rents
    # (Rent: n/a), a break-even of 'never': a finding about renting that gpuwise cannot make without a rent
    # price. The cell is a dash there; a configuration priced both ways keeps its month, or 'never'.
    r = recommend(LORA70)
    spark = next(c for c in r.candidates if c.gpu == "gb10" and c.feasible)
    assert spark.rent_cost_usd is None and spark.buy_cost_usd is not None and spark.break_even_month is None
    text = render(r, "text", detail="full", width=200)
    table = text[text.index("Rent or buy:"):]
    row = _row(table, f"{spark.count} × NVIDIA GB10")
    assert "never" not in row and "—" in row
    h100 = next(c for c in r.candidates if c.gpu == "h100-80gb-sxm" and c.rent_cost_usd and c.buy_cost_usd)
    assert h100.break_even_month == 1  # renting around the clock passes owning in the first month
    assert "month 1" in _row(table, f"{h100.count} × NVIDIA H100")
