"""review46: a new buyer's hour with gpuwise (a team lead sizing 8-GPU serving, an engineer fine-tuning on a
budget, an approver auditing a 64 x H100 purchase). Each test fails on the code before its fix."""

from __future__ import annotations

import pytest

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


B200_RENT = {"title": "Rent 8 x B200 for a year to serve Qwen3.5-397B to 200 users",
             "workload": {"task": "inference", "model": "Qwen3.5-397B", "precision": "fp8", "prompt_tokens": 2000,
                          "output_tokens": 500, "concurrent_requests": 200, "p95_ttft_s": 2},
             "hardware": {"gpu": "B200", "count": 8}, "acquisition": {"mode": "rent", "months": 12}}


def test_the_cost_chart_text_does_not_deny_the_break_even_the_table_gives() -> None:
    # issue 22's buyer (a) auditing a year's rental of 8 x B200: the full report's Rent-or-buy table said
    # 'Break-even: month 3' and the sentence above it 'no break-even in the period'. Both are right about
    # different lines (the chart sets renting against buying's cash out, $419,078 against $445,259: no crossing;
    # the break-even nets the resale at each month, tco.yaml resale_fraction_per_year), but the sentence
    # denied what the table gave. It now names the month and says what it counts.
    from gpuwise import audit

    r = audit(B200_RENT)
    assert r.proposed.break_even_month == 3
    text = " ".join(render(r, "text", detail="full", width=200).split())  # the sentence as one line
    assert "no break-even in the period" not in text
    assert ("The lines do not cross within the committed 12 months: renting stays below buying's cash out. "
            "The break-even, month 3, counts the resale") in text
    zh = "".join(render(r, "text", detail="full", width=200, lang="zh").split())
    assert "盈亏平衡点（第3个月）计入了转售" in zh
    assert "rented for that long or longer, the GPUs cost more than owning them and reselling" in text
    # renting only: no buy line, so neither sentence about the lines
    short = recommend({"workload": {"task": "inference", "model": "llama-3.1-8b", "concurrent_requests": 8},
                       "constraints": {"gpus": ["H100"], "max_gpus": 1, "acquisition": "rent",
                                       "project_months": 1}})
    assert "counts the resale" not in " ".join(render(short, "text", detail="full", width=200).split())


def test_the_plan_rents_a_multi_node_run_as_recommend_and_estimate_do() -> None:
    # issue 22's approver (c) set a 64 x H100 purchase against `gpuwise plan`: the plan rented the 7B's 1T-token
    # pretraining on 16 x B200 from Lambda at $6.69 a GPU-hour ($110,290), the rate of Lambda's on-demand 8-GPU
    # node; Lambda rents more than 8 B200 only as a reserved 1-Click Cluster, $9.86 a GPU-hour from 16 GPUs
    # (knowledge/clouds.yaml lambda b200 cluster_per_gpu_hour, lambda.ai/pricing as read 2026-09-27), and
    # `estimate --gpu B200 --gpus 16` priced the same run at Nebius's $7.15 ($117,874). The plan now takes the
    # offer and term with the lowest bill for the run's hours, as recommend, audit and estimate do.
    from gpuwise import estimate, plan

    w = {"task": "pretrain", "model": "llama-2-7b", "seq_len": 4096, "train_tokens": 1.0e12}
    r = plan({"horizon_months": 3, "constraints": {"gpus": ["B200"], "acquisition": "rent"},
              "workloads": [{"name": "pt", "workload": w, "cadence": {"at_month": 1}, "deadline_days": 60}]})
    [o] = [o for o in r.options if o.workload == "pt" and o.gpu == "b200"]
    e = estimate({"workload": w, "constraints": {"deadline_days": 60}}, gpu="b200", gpus=16)
    assert o.count == 16 and o.wall_hours == e.gpu.wall_hours
    assert o.rent_provider == e.gpu.cost.provider == "nebius"
    assert o.rent_per_hour == pytest.approx(16 * 7.15) and e.gpu.cost.usd_per_gpu_hour == 7.15  # Nebius's B200 rate
    assert r.total_usd == pytest.approx(e.gpu.cost.rent_usd)  # the plan's one run costs what the estimate's rental does


SFT32_RENT = {"title": "Rent 4 x H100 for a full SFT of Qwen3-32B",
              "workload": {"task": "finetune", "method": "full", "model": "qwen3-32b", "seq_len": 4096,
                           "train_tokens": 1.0e8},
              "constraints": {"budget_usd": 15000, "deadline_days": 14},
              "hardware": {"gpu": "H100", "count": 4}, "acquisition": {"mode": "rent", "provider": "lambda"}}


def test_an_offload_judged_on_a_typical_rented_servers_ram_says_so() -> None:
    # issue 22's buyer (b) renting 4 x H100 from Lambda for a Qwen3-32B full SFT: gpuwise offloads the optimizer
    # state (TP2 + ZeRO-1 + CPU offload) and judged it against a typical rented datacenter server's RAM (runtime.yaml
    # rented_host_ram.per_gpu_gb.datacenter 225 GB x 4 = 900 GB while Lambda's offer stated none), but the report
    # said nothing of host RAM: neither what a node needs nor the figure it was held in. MEM-HOST-RAM-HELD says both.
    # Since branch buyerq56 the offer states Lambda's own figure (lambda.ai/instances: 4x H100 SXM, 900 GiB RAM, 225
    # GiB a GPU: knowledge/clouds.yaml host_ram_gb_per_gpu 241.59), 4 x 241.59 = 966.4 GB, said as Lambda's.
    # By hand: Qwen3-32B's 32.762e9 parameters, TP2 so 16.381e9 a GPU; each GPU offloads its ZeRO-1 shard (DP2) of
    # the fp32 master and two Adam moments, 8.19e9 x 12 B, and its fp32 gradients, 16.381e9 x 4 B: 163.8 GB; four
    # GPUs on the node over the usable 0.8 of host RAM (runtime.yaml host_ram_fraction_usable) = 819 GB.
    from gpuwise import audit

    r = audit(SFT32_RENT)
    [f] = [f for f in r.findings if f.rule == "MEM-HOST-RAM-HELD"]
    assert f.severity == "info" and f.evidence["host_ram_gb"] == pytest.approx(4 * 225 * 2**30 / 1e9, abs=0.05)
    p = 32.762123264e9
    assert f.evidence["host_ram_needed_gb"] == pytest.approx(4 * (p / 4 * 12 + p / 2 * 4) / 0.8 / 1e9, rel=1e-3)
    assert "as lambda states for its servers" in f.message
    # a rented node short of it is still MEM-HOST-RAM-SHORT's blocker, and this note stays silent there
    short = audit({**SFT32_RENT, "hardware": {"gpu": "H100", "count": 4, "host_ram_gb": 512}})
    assert {f.rule for f in short.findings} >= {"MEM-HOST-RAM-SHORT"}
    assert "MEM-HOST-RAM-HELD" not in {f.rule for f in short.findings}


def test_a_default_bf16_on_a_model_published_narrower_says_so() -> None:
    # issue 22's buyer (a) asking for Kimi K2.6 on one 8-GPU node without a precision: gpuwise priced bf16, 2,087 GB
    # a node (MEM-NO-FIT on 8 x H200 and 8 x B200), and said only 'bf16, the usual training and serving precision'.
    # Kimi K2's published weights are FP8 (knowledge/models.yaml kimi-k2 checkpoint_precision, moonshotai/Kimi-K2-
    # Instruct), DeepSeek-V3's too, gpt-oss-120b's MXFP4: bf16 there is a 16-bit copy no one downloads. The
    # assumption now says so and which precision serves the weights as published.
    from gpuwise import estimate

    def note(model: str, **w):
        r = estimate({"workload": {"task": "inference", "model": model, **w}}, gpu="b200", gpus=8)
        return [a for a in r.assumptions if a.field == "workload.precision"]

    # leftovers56: such a model is now served at its published precision, the note naming the card
    [k] = note("Kimi K2.6")
    assert k.message_id == "assume.default.workload.precision.published" and k.value == "int4"
    # K2.6's own files are INT4 experts (models.yaml kimi-k2 alias_checkpoints, branch k26int4), not K2's FP8
    assert {x: k.values[x] for x in ("model", "checkpoint", "precision")} == {
        "model": "Kimi K2.6", "checkpoint": "int4", "precision": "int4"}
    [k2] = note("Kimi K2")
    assert {x: k2.values[x] for x in ("model", "checkpoint", "precision")} == {
        "model": "Kimi K2", "checkpoint": "fp8", "precision": "fp8"}
    [g] = note("gpt-oss-120b")
    assert g.values["checkpoint"] == "mxfp4" and g.values["precision"] == "fp4" and g.value == "fp4"
    [lm] = note("llama-3.1-8b")  # published in bf16: the plain default
    assert lm.message_id == "assume.default.workload.precision"
    assert note("deepseek-v3", precision="fp8") == []  # given: nothing assumed
    train = estimate({"workload": {"task": "finetune", "method": "lora", "model": "deepseek-v3"}}, gpu="b200",
                     gpus=8)  # training computes in bf16 whatever the files hold: the plain default
    assert [a.message_id for a in train.assumptions if a.field == "workload.precision"] == [
        "assume.default.workload.precision"]


def test_a_layout_that_does_not_fit_shows_no_speed_rather_than_zero() -> None:
    # Kimi K2.6 at bf16 (the default then; stated since leftovers56 serves it at its INT4 release) on 8 x H200:
    # 291.4 GB a GPU against 143.2 GB usable (MEM-NO-FIT), so nothing
    # was served; the brief alternatives and the audit's comparison showed 'Output tokens/s: 0', a speed the
    # layout does not have. They show a dash, as for any figure not estimated; a served layout keeps its number.
    from gpuwise import audit

    w = {"task": "inference", "model": "Kimi K2.6", "prompt_tokens": 2000, "output_tokens": 500,
         "concurrent_requests": 200, "precision": "bf16"}
    a = audit({"workload": w, "hardware": {"gpu": "H200", "count": 8}, "acquisition": {"mode": "rent"}})
    assert a.proposed.decode_tokens_per_s is None and a.proposed.decode_tokens_per_s_total == 0  # the data
    row = _row(render(a, "text", width=200), "Output tokens/s")
    assert row.split()[2] == "—" and row.split()[3] != "—"  # the proposal's cell, then the alternative's figure
    r = recommend({"workload": w, "constraints": {"gpus": ["H200", "MI355X"], "max_gpus": 8}})
    brief = render(r, "text", width=200)
    # Option (5 words), Rent or buy ('rent, from runpod': the rental's own provider, review50), Output tokens/s
    assert _row(brief, "8 × NVIDIA H200").split()[9] == "—"
    assert _row(brief, "8 × AMD Instinct MI355X").split()[7] == "2,538"  # 261 GB of 293.8 GB a GPU: served


def test_the_price_listing_says_how_many_gpus_a_per_gpu_rate_is_for(kb) -> None:
    # `gpuwise prices --gpu B200 --provider lambda` listed Lambda's $6.69 B200 rate as 'per GPU (any count, 8x B200
    # SXM6 node rate, per GPU ($6.79 f)': the entry is an 8-GPU node's rate (knowledge/clouds.yaml min_gpus 8) and
    # Lambda rents more than 8 only as a reserved 1-Click Cluster (max_on_demand_gpus 8, multi_node reserved), and
    # its note was cut mid-word inside a parenthesis. The size now follows the entry, and a note is cut at a word.
    import datetime as dt

    from gpuwise.prices.table import price_rows
    from gpuwise.render.fmt import Fmt
    from gpuwise.render.price_view import _item as _zh_item

    rows = price_rows(kb, gpu="b200", provider="lambda", today=dt.date(2026, 12, 5))
    items = [r.item for r in rows if r.kind == "rent"]
    assert "per GPU (8 GPUs, 8x B200 SXM6 node rate, per GPU…)" in items  # min 8, at most 8 on demand
    assert "per GPU (up to 8 GPUs, 1x B200 SXM6 instance)" in items  # one to eight on demand (review55: no full stop)
    assert not any("any count" in i for i in items)
    cw = [r.item for r in price_rows(kb, gpu="l40s", provider="coreweave", today=dt.date(2026, 12, 5))
          if r.kind == "rent"]
    assert cw == ["per GPU (from 8 GPUs)"]  # whole 8-GPU nodes, as many as wanted
    zh = [_zh_item(r, Fmt("zh")) for r in rows if r.kind == "rent"]
    assert any(i.startswith("按 GPU 计（8 块 GPU，") for i in zh)
    assert any(i.startswith("按 GPU 计（最多 8 块 GPU，") for i in zh)


QWEN_200 = {"task": "inference", "model": "Qwen3.5-397B", "precision": "fp8", "prompt_tokens": 2000,
            "output_tokens": 500, "concurrent_requests": 200, "p95_ttft_s": 2}


def test_a_p95_target_is_judged_at_the_rate_the_users_asked_for_amount_to() -> None:
    # issue 22's buyer (a): 200 users of Qwen3.5-397B at a p95 TTFT of 2 s. Auditing 8 x H200, gpuwise offered 4 DGX
    # Sparks as the best feasible alternative ('saves $243,567'), whose first token at that load came after 69 s:
    # the p95 target was judged only at a trickle of requests (SRV-P95-TTFT-TARGET), so a stricter p95 target let
    # through what a bound at the load (max_ttft_ms: 2000, CMP-TTFT-TARGET) rejects. By Little's law the 200 in
    # flight come to 132.1 output tokens/s / 500 a request = 0.264 requests/s; the Sparks serve 0.239 within the
    # p95 target (gpuwise/estimators/serving/rate.py). SRV-RATE-AT-LOAD rejects them; 8 x H200 (9.16 against
    # 21.86) passes. (0.489 and 0.447 before vLLM's pool was short of its start-up profile's sampler pass, 37.7 B x
    # 248,320 x 1,024 = 9.59 GB a GPU: serving.yaml vllm profile_sampler; a Spark holds fewer sequences.)
    from gpuwise import audit

    spark = audit({"workload": QWEN_200, "hardware": {"gpu": "DGX Spark", "count": 4},
                   "acquisition": {"mode": "buy", "months": 12}})
    [f] = [f for f in spark.findings if f.rule == "SRV-RATE-AT-LOAD"]
    sv = spark.proposed.serving
    assert f.severity == "blocker" and not spark.proposed.feasible
    assert f.evidence["load_requests_per_s"] == pytest.approx(sv.throughput_tokens_per_s / 500, rel=1e-3)
    assert f.evidence["load_requests_per_s"] == pytest.approx(0.264, abs=0.005)
    assert f.evidence["max_requests_per_s"] == pytest.approx(sv.rate.max_requests_per_s, rel=1e-3)
    assert sv.rate.max_requests_per_s == pytest.approx(0.239, abs=0.005)
    h200 = audit({"workload": QWEN_200, "hardware": {"gpu": "H200", "count": 8},
                  "acquisition": {"mode": "rent", "months": 12}})
    assert "SRV-RATE-AT-LOAD" not in {f.rule for f in h200.findings} and h200.proposed.feasible
    alt = h200.alternative.serving  # the alternative offered now serves the load within the target
    assert alt.throughput_tokens_per_s / 500 <= alt.rate.max_requests_per_s
    # a request rate asked for is SRV-RATE-TARGET's to judge: this rule stays out
    asked = audit({"workload": {**QWEN_200, "requests_per_s": 0.3, "concurrent_requests": 1},
                   "hardware": {"gpu": "DGX Spark", "count": 4}, "acquisition": {"mode": "buy", "months": 12}})
    assert "SRV-RATE-AT-LOAD" not in {f.rule for f in asked.findings}


def test_a_plan_in_yuan_at_a_rate_given_does_not_date_it_as_the_knowledge_bases() -> None:
    # issue 22's approver (c) read the plan in yuan at the finance team's rate: `gpuwise plan PLAN --fx-rate 7.1`
    # printed 'Amounts in CNY at 7.1 CNY per USD (2026-07-21)' and its JSON carried usd_cny 7.1 with tco.yaml's date
    # and the ECB source deriving 6.7661, where recommend and audit carry a given rate undated, its source 'the rate
    # given with --fx-rate' (docs/formats.md, --fx-rate). The plan now does as they do.
    from gpuwise import plan  # its fx_rate is `gpuwise plan --fx-rate`'s (the public function lacked it)
    from gpuwise.render.plan_view import render as render_plan

    pf = {"horizon_months": 3, "constraints": {"currency": "CNY"},
          "workloads": [{"name": "lora-8b", "deadline_days": 3, "cadence": {"per_month": 1},
                         "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                      "train_tokens": 2.0e8}}]}
    r = plan(pf, fx_rate=7.1)
    assert r.usd_cny == 7.1 and r.currency_info.as_of == ""
    assert r.currency_info.source == "the rate given with --fx-rate"
    text = " ".join(render_plan(r, "text").split())
    assert "Amounts are in Chinese yuan at 7.1 CNY per USD, the rate given for this report." in text
    assert "(2026-07-21)" not in text
    [a] = [a for a in r.assumptions if a.field == "constraints.currency"]
    assert a.message_id == "assume.plan.currency.given" and "(the rate given with --fx-rate)" in a.reason
    dated = plan(pf)  # the knowledge base's rate keeps its date
    assert dated.currency_info.as_of == "2026-07-21" and dated.usd_cny == pytest.approx(6.7661)


def test_a_serving_no_fit_does_not_cite_adam_state_alone() -> None:
    # 1 x MI355X serving Qwen3.5-397B (452.8 GB a GPU) was rejected by MEM-NO-FIT with the source 'ZeRO paper ...
    # (16 bytes per parameter of mixed-precision Adam state)': a serving job keeps no optimizer state. The source
    # now names what each kind of job's figure counts.
    from gpuwise.decide import rulebook

    src = rulebook.load().rules["MEM-NO-FIT"].source
    assert "inference, the weights in their serving format, the KV cache" in src
    assert "training, the ZeRO paper (arXiv:1910.02054)" in src


def test_an_audited_rental_that_buying_halves_is_not_approved_silently() -> None:
    # issue 22's buyer (a) proposing a year's rental of 8 x B200 (RunPod, $5.98 a GPU-hour: 47.84 x 8,760 h =
    # $419,078) was APPROVED with no finding, while recommend, on the same GPUs, rejects that rental
    # (TCO-RENT-DEARER: buying costs $212,859 net of resale after the year) and the audit's own full report gave
    # 'Break-even: month 3'. TCO-RENT-DEARER-PROPOSED warns the approver; a short job's rental, and spot, stay quiet.
    from gpuwise import audit

    r = audit(B200_RENT)
    [f] = [f for f in r.findings if f.rule == "TCO-RENT-DEARER-PROPOSED"]
    assert f.severity == "warning" and r.verdict == "revise"
    assert f.evidence["rent_usd"] == pytest.approx(47.84 * 8760, rel=1e-3)
    assert f.evidence["buy_usd"] == pytest.approx(r.proposed.buy_cost_usd, rel=1e-3) and f.evidence["buy_usd"] < 213e3
    assert "TCO-RENT-DEARER-PROPOSED" not in {f.rule for f in audit(SFT32_RENT).findings}  # a 6.6-hour job
    spot = audit({**B200_RENT, "acquisition": {"mode": "rent", "months": 12, "spot": True}})
    assert "TCO-RENT-DEARER-PROPOSED" not in {f.rule for f in spot.findings}
