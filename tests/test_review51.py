"""review51: the decision document as the person who signs it reads it; each defect found has its test here.

1. A used purchase's break-even was counted as if the GPUs were bought new. The ledger resells a used part at
   the used curve (tco.yaml resale_fraction_per_year 0.70 a year, times 0.70 once more: a used card has lost its
   first owner's premium), but the Rent-or-buy table's break-even month resold it at the new curve. Serving
   gpt-oss-120b on 4 used A100 SXM4 80GB (half of an 8-GPU server, $72,000) read 'Break-even: month 1' beside a
   rental of $48,706 that is cheaper than buying ($53,167) over the whole 12 months, and the cost chart said
   'rented for that long or longer, the GPUs cost more than owning them'. By hand from the page's own ledger the
   break-even is month 15.

2. The plan resold every GPU it buys on the default curve (0.70 a year), where recommend and audit take the
   family's (tco.yaml resale: Gaudi 0.45 a year, Ascend 0.50): the same purchase was worth more at the plan's
   end than in a recommendation.

3. An inference proposal's 'The proposal as understood' listed the training fields at their defaults (method:
   full, lora_rank: 16, optimizer: adamw, seq_len: 2,048, zero_stage: 0, ...), which recommend's 'The question
   as understood' leaves out (review33): a service read as if it were a full fine-tune.

4. A point-to-point link's figure was printed to six digits: 8 MI355X over Infinity Fabric read '7 of 7 peer
   links of 76.7857 GB/s per direction' (1,075 GB/s both directions over 7 peers, halved); now 76.8.

5. A rule's figures broke the house style of grouped thousands: examples/proposal-8xa100-70b-article.yaml read
   'needs 2414 GB of host RAM per node; the node has 1024 GB' and '1104 GB of states', and a stale price
   '2896 days old' beside the Data freshness line's '2,896 days old'. A fixed-point spec ('{x:.0f}') in a
   message now groups its thousands, and the price's age is an integer so written ('{age_days:int}').

6. A whole server bought was a plural after its count: '1 x 4-GPU whole servers $72,000' (the baseboard's and
   the system's lines are singular in the same 'N x' form); now '1 x 4-GPU whole server'.

7. A proposal that gives its hourly rate and names no provider was said to rent 'from proposal' ('rent, from
   proposal', '8 GPUs on proposal', 'renting from proposal at $2.95 per GPU-hour'), and its fees assumption
   read 'no fee table for provider proposal in clouds.yaml ... (add the provider to a clouds.yaml overlay)'.
   Now 'the proposal's provider', and the assumption says the proposal names no provider.

8. Copies of one GPU nested brackets in a sentence that brackets its layout: 8 x B200 serving Llama 3.1 70B
   read 'as requested (8 copies of (one GPU))'; now '(8 copies of one GPU)'. A copy of several parts keeps its
   brackets ('2 copies of (tensor parallel 4)').

9. The cost per million tokens of a rental whose count cannot be bought put the load's proviso after the reason,
   where it read as part of it: '$0.69 renting, not bought: NVIDIA B200 ... 1 cannot be bought: buy 8 (at this
   load, all the time)'; now '$0.69 renting (at this load, all the time), not bought: ... buy 8'.

10. A rate with more than cents did not multiply out in its formula: 8 H100 on AWS's p5.48xlarge for a year
    (the 1-year savings-plan rate, $34.6752 an instance-hour, knowledge/clouds.yaml) read 'Rent = $303,755, with
    numbers: $34.68/h x 8,760 h x (1 - 0%)', which is $303,797. A rate is now written to four decimals where
    its cents would lose a part ('$34.6752/h'); a rate in whole cents keeps two ('$5.98/h').
"""
from __future__ import annotations

import json
from types import SimpleNamespace

from gpuwise import knowledge
from tests.clirun import gpuwise
from tests.clirun import json_of as _json
from tests.clirun import text_of as _text
from tests.clirun import write_yaml as _write

HOURS_PER_MONTH = 730  # 8,760 h / 12

# gpt-oss-120b served on used A100 SXM4 80GB only (knowledge/prices.yaml a100-80gb-sxm: an 8-GPU server, used,
# ESTIMATE 8 x $11,000 + 8 x $7,000 = $144,000; 4 GPUs are half of it); rented at runpod $1.39 a GPU-hour
# (knowledge/clouds.yaml)
SERVE_ON_A100 = {"workload": {"task": "inference", "model": "gpt-oss-120b", "context_len": 8192,
                              "concurrent_requests": 32, "target_tokens_per_s": 1500},
                 "constraints": {"gpus": ["a100-80gb-sxm"], "max_gpus": 4, "project_months": 12}}



def test_a_used_purchase_breaks_even_on_its_own_resale(tmp_path):
    d = _json(tmp_path, "recommend", _write(tmp_path, SERVE_ON_A100))
    cand = next(c for c in d["candidates"] if c["count"] == 4 and c["acquisition"] == "rent")
    buy = next(c for c in d["candidates"] if c["count"] == 4 and c["acquisition"] == "buy")
    lines = {ln["kind"]: ln for ln in buy["ledger"]["lines"]}
    capex = lines["capex"]["amount"]
    assert lines["capex"]["inputs"]["condition"] == "used" and capex == 72000.0
    monthly = (lines["hosting"]["amount"] + lines["power"]["amount"]) / 12  # 9,720 + 6,726.63 over 12 months
    rent = 4 * 1.39 * HOURS_PER_MONTH  # $4,058.80 a month
    assert abs(cand["ledger"]["total"] - 12 * rent) < 0.01  # $48,705.60, below buying's $53,166.63

    def own(m: int) -> float:  # resold after m months: 0.70 a year, and a used part 0.70 below a new one
        return capex + monthly * m - capex * 0.7 * 0.7 ** (m / 12)

    assert abs(own(12) - buy["ledger"]["total"]) < 0.01  # the ledger's own total, resale included
    by_hand = next(m for m in range(1, 121) if rent * m >= own(m))
    assert by_hand == 15  # month 14: 56,823 < 57,949; month 15: 60,882 >= 60,291
    assert cand["break_even_month"] == buy["break_even_month"] == 15  # before: 1 (resold as if new)
    text = _text(tmp_path, "recommend", "q.yaml", "--detail", "full")
    assert "Break-even: month 15" in text and "Break-even: month 1;" not in text
    assert "The break-even, month 15, counts the resale" in text


def test_the_plan_resells_a_family_on_its_own_curve():
    from gpuwise.plan import build, solve

    kb = knowledge.load()
    inp = SimpleNamespace(tco=kb.tco)
    for gpu_id, per_year in (("gaudi3-128gb-oam", 0.45), ("h100-80gb-sxm", 0.70)):  # tco.yaml resale, values
        f = SimpleNamespace(condition="new", gpu=kb.gpus[gpu_id])
        for fn in (solve._resale, build._resale):
            assert abs(fn(inp, f, 24) - per_year ** 2) < 1e-9  # before: 0.49 for the Gaudi too


def test_an_inference_proposal_is_understood_without_training_fields(tmp_path):
    doc = {"title": "Rent 2 x H100 for Llama 3.1 8B serving",
           "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200,
                        "concurrent_requests": 8},
           "hardware": {"gpu": "H100-80G", "count": 2, "nodes": 1},
           "acquisition": {"mode": "rent", "provider": "runpod", "months": 3}}
    text = _text(tmp_path, "audit", _write(tmp_path, doc, "p.yaml"), "--detail", "full")
    understood = text.split("The proposal as understood")[1]
    for field in ("workload.method", "workload.lora_rank", "workload.optimizer", "workload.seq_len",
                  "workload.zero_stage", "workload.gradient_checkpointing", "workload.batch_size"):
        assert field not in understood, field
    assert "workload.prompt_tokens: 1,000" in understood
    d = _json(tmp_path, "audit", "p.yaml")
    assert "lora_rank" not in d["proposal"]["workload"] and d["proposal"]["workload"]["prompt_tokens"] == 1000


# 8 MI355X rented at the proposal's own $2.95 a GPU-hour, no provider named
MI355X_RATE_ONLY = {
    "title": "Rent 8 x MI355X for long-context Llama 3.1 70B FP8 on vLLM without AITER",
    "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "framework": "vllm",
                 "framework_version": "0.15.1", "rocm_aiter": False, "prompt_tokens": 32000,
                 "output_tokens": 1000, "concurrent_requests": 16},
    "hardware": {"gpu": "MI355X", "count": 8, "nodes": 1},
    "acquisition": {"mode": "rent", "hourly_usd": 2.95, "months": 12}}


def test_a_mesh_link_is_given_to_a_tenth(tmp_path):
    text = _text(tmp_path, "audit", _write(tmp_path, MI355X_RATE_ONLY, "p.yaml"))
    per_link = 1075 / 2 / 7  # knowledge/gpus.yaml mi355x link.bandwidth_gb_s, both directions, 7 peers: 76.79
    assert f"7 of 7 peer links of {per_link:.1f} GB/s per direction" in text  # 76.8
    assert "76.7857" not in text
    assert abs(2.95 * 8 * 8760 - 206736) < 0.01 and "$206,736" in text  # the rent, 12 months around the clock


def test_a_rule_message_groups_its_thousands(tmp_path):
    args = ("audit", "examples/proposal-8xa100-70b-article.yaml")
    d = json.loads(gpuwise(*args, "--format", "json").stdout)
    short = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT")
    need, has = short["values"]["host_ram_needed_gb"], short["values"]["host_ram_gb"]
    assert need > 1000 and has == 1024  # the proposal states hardware.host_ram_gb: 1024
    text = " ".join(gpuwise(*args).stdout.split())
    assert f"needs {need:,.0f} GB of host RAM per node; the node has 1,024 GB" in text  # before: '2414 ... 1024'
    zh = " ".join(gpuwise(*args, "--lang", "zh").stdout.split())
    assert f"{need:,.0f}" in zh and "1,024" in zh


def test_a_stale_price_age_is_grouped(tmp_path):
    # 4 RTX 5090 bought: their host share (tco.yaml server_share_usd_per_gpu_consumer) is dated 2019-01-01
    doc = json.loads(json.dumps(SERVE_ON_A100))
    doc["constraints"]["gpus"] = ["rtx-5090"]
    name = _write(tmp_path, doc)
    d = _json(tmp_path, "recommend", name)
    stale = next(f for f in d["findings"] if f["rule"] == "DATA-STALE-PRICE")
    age = stale["values"]["age_days"]
    assert age >= 1000  # before: '2896 days old' beside Data freshness's '2,896 days old'
    assert f"{age:,} days old: GPU prices move fast" in _text(tmp_path, "recommend", name, "--detail", "full")
    assert f"已有 {age:,} 天" in _text(tmp_path, "recommend", name, "--lang", "zh", "--detail", "full")


def test_one_whole_server_is_singular(tmp_path):
    doc = json.loads(json.dumps(SERVE_ON_A100))
    doc["constraints"]["acquisition"] = "buy"
    name = _write(tmp_path, doc)
    d = _json(tmp_path, "recommend", name)
    capex = next(ln for ln in d["recommendation"]["ledger"]["lines"] if ln["kind"] == "capex")
    # knowledge/prices.yaml a100-80gb-sxm: $144,000 a used 8-GPU server; 4 GPUs are 4/8 of it
    assert capex["amount"] == 144000 * 4 / 8 and capex["item"] == "1 x 4-GPU whole server"
    assert "1 × 4-GPU whole server $72,000" in _text(tmp_path, "recommend", name, "--detail", "full")
    assert "1 台 4 卡整机" in _text(tmp_path, "recommend", name, "--lang", "zh", "--detail", "full")


def test_a_rate_without_a_provider_is_the_proposals(tmp_path):
    name = _write(tmp_path, MI355X_RATE_ONLY, "p.yaml")
    text = _text(tmp_path, "audit", name, "--detail", "full")
    assert "rent, from the proposal's provider" in text
    assert "8 GPUs on the proposal's provider $206,736" in text  # 8 x $2.95 x 8,760 h
    assert "renting from the proposal's provider at $2.95 per GPU-hour costs $206,736" in text
    assert "from proposal" not in text and "on proposal" not in text and "provider proposal" not in text
    assert "the proposal gives its hourly rate and names no provider (acquisition.provider)" in text
    zh = _text(tmp_path, "audit", name, "--lang", "zh", "--detail", "full")
    assert "提案中的云服务商" in zh and "没有指明云服务商" in zh


def test_copies_of_one_gpu_are_not_bracketed_twice(tmp_path):
    from gpuwise.render import words
    from gpuwise.render.fmt import Fmt

    one = [("", "layout.copies", {"n": 8, "copy": [("", "layout.one_gpu", {})]})]
    tp4 = [("", "layout.copies", {"n": 2, "copy": [("", "layout.tp", {"n": 4})]})]
    assert words.phrase(one, Fmt("en")) == "8 copies of one GPU"
    assert words.phrase(tp4, Fmt("en")) == "2 copies of (tensor parallel 4)"
    assert words.phrase(one, Fmt("zh")) == "8 个副本，每个为单块 GPU"
    # 8 x B200 bought for 3 years to serve Llama 3.1 70B FP8 at 10 requests/s
    doc = {"title": "Buy 8 x B200 for 3 years of Llama 3.1 70B serving, with resale",
           "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "prompt_tokens": 2000,
                        "output_tokens": 400, "requests_per_s": 10, "max_ttft_ms": 2000},
           "hardware": {"gpu": "B200", "count": 8, "nodes": 1}, "acquisition": {"mode": "buy", "months": 36}}
    text = _text(tmp_path, "audit", _write(tmp_path, doc, "p.yaml"))
    assert "as requested (8 copies of one GPU)" in text and "(one GPU))" not in text
    # resale is not netted out of the price: knowledge/prices.yaml b200 $332,000 an 8-GPU baseboard, resold at
    # 0.70 a year for 3 years (tco.yaml): $113,876 back, its own line beside the hardware's
    d = _json(tmp_path, "audit", "p.yaml")
    lines = {ln["kind"]: ln["amount"] for ln in d["proposed"]["ledger"]["lines"]}
    assert lines["capex"] == 332000 and abs(lines["resale"] + 332000 * 0.7 ** 3) < 0.01  # -113,876
    assert abs(d["proposed"]["ledger"]["cash_out"] - (sum(lines.values()) - lines["resale"])) < 0.01


def test_the_load_proviso_is_beside_the_rent_it_qualifies(tmp_path):
    # Qwen3.5-122B-A10B FP8 on vLLM at 3 requests/s (4,000-token prompts, 800 out) on one B200 rented
    doc = {"workload": {"task": "inference", "model": "qwen3.5-122b-a10b", "precision": "fp8", "framework": "vllm",
                        "prompt_tokens": 4000, "output_tokens": 800, "requests_per_s": 3, "max_ttft_ms": 2000,
                        "max_tpot_ms": 50},
           "constraints": {"gpus": ["b200"], "max_gpus": 1, "project_months": 12}}
    name = _write(tmp_path, doc)
    d = _json(tmp_path, "recommend", name)
    tps = d["recommendation"]["decode_tokens_per_s_total"]
    assert abs(tps - 3 * 800) < 1  # the load: 3 requests/s x 800 output tokens
    per_m = 5.98 * 8760 / (tps * 8760 * 3600 / 1e6)  # knowledge/clouds.yaml runpod b200 $5.98 a GPU-hour
    text = _text(tmp_path, "recommend", name)
    assert f"${per_m:.2f} renting (at this load, all the time), not bought: NVIDIA B200" in text  # $0.69
    assert "buy 8 (at this load" not in text
    zh = _text(tmp_path, "recommend", name, "--lang", "zh")
    assert f"租用 ${per_m:.2f}（按该负载全天候运行），无法购买" in zh


def test_a_rate_is_written_to_the_digits_it_has(tmp_path):
    doc = {"title": "Rent 8 x H100 on AWS for a year to serve Llama 3.1 70B",
           "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "prompt_tokens": 2000,
                        "output_tokens": 400, "requests_per_s": 4},
           "hardware": {"gpu": "H100-80G", "count": 8, "nodes": 1},
           "acquisition": {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge", "months": 12}}
    name = _write(tmp_path, doc, "p.yaml")
    rate = 34.6752  # knowledge/clouds.yaml p5.48xlarge reserved_per_hour 1-year, an instance of 8 H100
    d = _json(tmp_path, "audit", name)
    rent = d["proposed"]["ledger"]["lines"][0]
    assert rent["inputs"]["usd_per_hour"] == rate and abs(rent["amount"] - rate * 8760) < 0.01  # $303,754.75
    text = _text(tmp_path, "audit", name, "--detail", "full")
    assert "Rent = $303,755" in text and "with numbers: $34.6752/h × 8,760 h × (1 - 0%)" in text
    assert "usd_per_hour = $34.6752/h" in text and "$34.68/h" not in text  # 34.68 x 8,760 = $303,797
    # a rate in whole cents keeps two decimals: runpod's B200 $5.98 a GPU-hour, 8 of them
    assert "with numbers: $47.84/h × 8,760 h" in _text(tmp_path, "audit", _write(tmp_path, MI355X_RATE_ONLY | {
        "hardware": {"gpu": "B200", "count": 8, "nodes": 1},
        "acquisition": {"mode": "rent", "provider": "runpod", "months": 12}}, "b.yaml"), "--detail", "full")


def test_the_time_adds_up_as_shown(tmp_path):
    # gradient_checkpointing 'auto': the layout this case was written on, not Levanter's own default (every layer
    # recomputed, branch stackdefaults57)
    doc = {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096,
                        "train_tokens": 2.0e9, "stack": "levanter", "gradient_checkpointing": "auto"},
           "constraints": {"gpus": ["b200"], "max_gpus": 8, "deadline_days": 7}}
    name = _write(tmp_path, doc)
    d = _json(tmp_path, "recommend", name)
    tl = d["recommendation"]["timeline"]
    parts = [x["hours"] for x in tl["parts"]]
    assert abs(sum(parts) - tl["wall_hours"]) < 1e-9
    assert round(sum(round(h, 1) for h in parts[:-1]) + 0.25, 2) != round(tl["wall_hours"], 1)  # one decimal: no
    shown = [round(h, 2) for h in parts]
    assert abs(sum(shown) - round(tl["wall_hours"], 2)) < 0.005  # to the hundredth it adds up
    text = _text(tmp_path, "recommend", name, "--detail", "full")
    table = text.split("How the time adds up:")[1].split("GPU-hours")[0]
    for x in tl["parts"]:
        assert f"{x['name']} {x['hours']:,.2f} hours" in table, x["name"]
    assert f"wall-clock time {tl['wall_hours']:,.2f} hours" in table
