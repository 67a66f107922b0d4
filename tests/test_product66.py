"""product66: five product leftovers (tests/data/validation/README.md 'product66').

1. With context parallelism the estimate's formulas printed a ``dp`` that is DP x CP (``dp = 72, cp = 2`` beside
   the Layout row's 'CP 2 x DP 36'; the ZeRO note '72 data-parallel GPUs'; the traffic '(dp-1)/dp'): each now names
   the product as its factors ('dp x cp = 36 x 2 = 72', '32 GPUs (DP 4 x CP 8)'); the JSON keeps ``dp``.
2. A stated batch_size no layout holds on any candidate was MEM-NO-FIT alone: at the lead's merge, planner66's
   held_plan plans the largest smaller micro-batch instead and MEM-MICRO-BATCH-HELD says so (tests/test_planner66.py,
   the 63-of-64 case), so this branch's MEM-BATCH-NO-FIT was left out (one decider).
3. `gpuwise plan` had no Data freshness block where recommend and audit have one: the plan result now carries
   ``prices_used`` and ``stale_prices`` (as recommend's JSON) and its reports the same template partial.
4. A plan renting an offer sold whole (an 8-GPU instance, a 72-GPU rack) said the type's GPU-hours alone where recommend
   names the instance: the Answer now says the rentals and the GPUs each (``answer.rent[].rented_as``).
5. `gpuwise prices import` read gpuhunt's GCP rows priced in DWS calendar mode (a reservation of 1-90 days, spot
   False) as on-demand offers, and SkyPilot's Mithril catalog, whose Price column holds the spot market's price, as
   on demand: the first are put on their instance's on-demand offer as its 1-month term, the second read as spot,
   and the summary says which term each row was read on (``read_as``, ``read_as_notes``).
Each test that names a defect fails on the branch point (ae05131a); the figures are worked by hand beside them.
"""

from __future__ import annotations

import datetime as dt
import json

from .clirun import ROOT
from .clirun import gpuwise as cli
from .conftest import TWO_A_COPY

DATA = ROOT / "tests" / "data" / "product66"


def _run(*args: str, cwd=ROOT) -> str:
    r = cli(*args, cwd=cwd)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


def _flat(text: str) -> str:
    """A report's text with its wrapping undone (a formula's line breaks where 80 columns end)."""
    return " ".join(text.split())


# ---------------------------------------------------------------- 1. dp named as DP x CP
CP_RUN = str(DATA / "estimate-70b-32k-cp.yaml")  # Llama 3.1 70B pretraining at 32,768 tokens on 64 H100


def test_the_estimates_formulas_name_dp_as_the_layout_row_does():
    d = json.loads(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64", "--format", "json"))
    layout = d["gpu"]["layout"]
    tp, pp, dp, cp = layout["tp"], layout["pp"], layout["dp"], layout["cp"]
    # the layout's dp counts the context-parallel GPUs: tp x pp x dp = the GPUs (docs: replicas = dp / cp)
    assert cp > 1 and tp * pp * dp == 64
    replicas = dp // cp
    text = _flat(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64"))
    # the Layout row names the replicas alone: 'TP 2 x CP 8 x DP 4' (2 x 8 x 4 = 64)
    assert f"CP {cp} × DP {replicas}," in text and tp * cp * replicas == 64
    # the step time's and scaling efficiency's inputs, and the traffic's: 'dp x cp = 4 x 8 = 32', never 'dp = 32'
    step = text.split("Step time = ")[1].split("Pipeline bubble")[0]
    assert f"dp × cp = {replicas} × {cp} = {dp}, ep = 1, cp = {cp}," in step
    assert f"dp = {dp}," not in text and text.count(f"dp × cp = {replicas} × {cp} = {dp}") == 3
    # the ZeRO-3 traffic: each collective moves (n-1)/n of the weights over the DP x CP group (Megatron's
    # distributed optimizer shards over the data-parallel group with its context-parallel ranks), 31/32 here
    traffic = text.split("Data-parallel traffic per step = ")[1].split("Goodput")[0]
    assert "each ((dp × cp)-1)/(dp × cp) × bytes per GPU" in traffic
    assert f"each ({dp}-1)/{dp} × bytes per GPU" in traffic
    [term] = [t for t in d["gpu"]["terms"] if t["name"] == "dp_traffic_seconds"]
    i = term["inputs"]
    assert i["dp"] == dp == 32 and i["cp"] == cp  # the JSON keeps dp (the product); cp is added beside it
    assert abs(i["bytes_per_gpu"] - (dp - 1) / dp * i["weight_bytes"]) < 1e-6 * i["weight_bytes"]
    # the memory note: the ZeRO-3 shards over 32 GPUs, DP 4 x CP 8 (not '32 data-parallel GPUs')
    assert f"over {dp} GPUs (DP {replicas} × CP {cp})" in text and "data-parallel GPUs" not in text
    zh = _flat(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64", "--lang", "zh"))
    assert f"dp × cp = {replicas} × {cp} = {dp}" in zh and f"dp = {dp}，" not in zh
    assert f"{dp} 块 GPU（DP {replicas} × CP {cp}）" in zh


def test_a_layout_without_context_parallelism_keeps_dp():
    run = str(DATA / "estimate-8b-4k-dp.yaml")  # Llama 3.1 8B at 4,096 tokens on 16 H100: DP 16, no CP
    text = _flat(_run("estimate", run, "--gpu", "h100", "--gpus", "16"))
    assert "Layout DP 16," in text and "dp = 16, ep = 1, cp = 1," in text and "dp × cp" not in text


# ---------------------------------------------------------------- 3. the plan's Data freshness block
def _age(date: str) -> int:
    return (dt.date.today() - dt.date.fromisoformat(date)).days


def test_the_plan_lists_the_prices_it_rests_on_with_their_dates_and_the_stale_one_marked():
    d = json.loads(_run("plan", str(TWO_A_COPY), "--format", "json"))
    used = {(e["kind"], e.get("gpu")): e for e in d["prices_used"]}
    # the rentals at their runpod offers (knowledge/clouds.yaml, 2026-09-25): the L40S at $0.79 a GPU-hour, so the
    # Answer's 7,300 GPU-hours are 7,300 x 0.79 = $5,767
    l40s = used[("rent", "NVIDIA L40S 48GB")]
    assert (l40s["provider"], l40s["term"], l40s["amount"], l40s["as_of"]) == ("runpod", "on-demand", 0.79,
                                                                                "2026-09-25")
    [rent] = [x for x in d["answer"]["rent"] if x["gpu"] == "l40s"]
    assert round(rent["gpu_hours"] * l40s["amount"]) == round(rent["amount"]) == 5767
    # the two RTX PRO 6000 bought (prices.yaml, 2026-04-06: $8,600 a card) and the host share around them (tco.yaml
    # server_share_usd_per_gpu_pcie, $4,000 a GPU as of 2024-08-01): the purchase's capex 2 x (8,600 + 4,000)
    buy = used[("buy", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB")]
    host = used[("host", None)]
    assert (buy["amount"], buy["as_of"], buy["unit_gpus"]) == (8600, "2026-04-06", 1)
    assert (host["amount"], host["as_of"], host["age_days"]) == (4000, "2024-08-01", _age("2024-08-01"))
    [p] = d["purchases"]
    assert p["amount"] == 2 * (8600 + 4000)
    # DATA-STALE-PRICE's: the host share is past the policy's 365 days; the JSON as recommend's (stale_prices)
    assert [s["as_of"] for s in d["stale_prices"]] == ["2024-08-01"] and _age("2024-08-01") > 365
    brief = _flat(_run("plan", str(TWO_A_COPY)))
    assert "=== Data freshness ===" in brief
    assert f"Out of date: host server (2024-08-01, {_age('2024-08-01'):,} days old!)" in brief
    # the others counted with their dates: 4 rentals and the purchase, 2026-04-06 to 2026-09-25
    assert "5 current prices used, dated 2026-04-06 to 2026-09-25: the full report lists each." in brief
    full = _flat(_run("plan", str(TWO_A_COPY), "--detail", "full"))
    assert ("rent NVIDIA L40S 48GB on runpod, on demand: $0.79 per GPU-hour (2026-09-25, "
            f"{_age('2026-09-25')} days old); source:") in full
    assert "! the host around a bought NVIDIA RTX PRO 6000" in full and "Amounts are in US dollars." in full
    md = _run("plan", str(TWO_A_COPY), "--format", "md")
    assert "## Data freshness" in md and "- **Old price:** the host around a bought" in md
    html = _run("plan", str(TWO_A_COPY), "--format", "html")
    assert '<section id="data">' in html and "<strong>Price used:</strong> buy NVIDIA RTX PRO 6000" in html
    zh = "".join(_run("plan", str(TWO_A_COPY), "--lang", "zh").split())
    assert "===数据时效===" in zh and f"已过期：主机服务器（2024-08-01，距今{_age('2024-08-01'):,}天！）" in zh


def test_a_plan_without_a_stale_price_lists_them_and_a_yuan_plan_says_its_rate(tmp_path):
    text = _flat(_run("plan", str(ROOT / "examples" / "plan-team-4090.yaml")))
    block = text.split("=== Data freshness ===")[1].split("Solved with")[0]
    assert "Out of date" not in block and "5 current prices used, dated 2026-09-25" in block
    plan = {"horizon_months": 3, "constraints": {"currency": "CNY"},
            "workloads": [{"name": "lora-8b", "deadline_days": 3, "cadence": {"per_month": 1},
                           "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                        "train_tokens": 2.0e8}}]}
    (tmp_path / "cny.yaml").write_text(json.dumps(plan), encoding="utf-8")
    d = json.loads(_run("plan", "cny.yaml", "--format", "json", cwd=tmp_path))
    kinds = [e["kind"] for e in d["prices_used"]]
    assert kinds[-1] == "fx" and d["prices_used"][-1]["amount"] == d["usd_cny"]  # tco.yaml usd_cny, dated
    block = _flat(_run("plan", "cny.yaml", cwd=tmp_path)).split("=== Data freshness ===")[1]
    assert f"Amounts in CNY at {d['usd_cny']:g} CNY per USD (2026-07-21)." in block
    assert "Out of date: rent NVIDIA GeForce RTX 4090 24GB on autodl, on demand (2025-01-01," in block
    full = _flat(_run("plan", "cny.yaml", "--detail", "full", cwd=tmp_path)).split("=== Data freshness ===")[1]
    assert f"exchange rate: {d['usd_cny']:.4f} CNY per USD (2026-07-21," in full


# ---------------------------------------------------------------- 4. a rental sold whole named as recommend names it
L4_FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu",
         "train_tokens": 2.0e7, "gradient_checkpointing": True, "model": "llama-3.1-8b"}


def test_a_plan_renting_a_whole_instance_says_the_instances_and_their_gpus(tmp_path):
    plan = {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["l4"]},
            "workloads": [{"name": "ft", "workload": L4_FT, "cadence": {"at_month": 1}}]}
    (tmp_path / "l4.yaml").write_text(json.dumps(plan), encoding="utf-8")
    d = json.loads(_run("plan", "l4.yaml", "--format", "json", cwd=tmp_path))
    [rent] = d["answer"]["rent"]
    [line] = [ln for ln in d["lines"] if ln["kind"] == "rent"]
    # knowledge/clouds.yaml: aws g6.48xlarge, 8 x L4 at $13.3504 an hour for the instance; the run on its 8 GPUs paid
    assert line["inputs"]["gpus_paid"] == 8 and line["inputs"]["usd_per_hour"] == 13.3504
    [[_sep, mid, v]] = rent["rented_as_phrases"]
    assert mid == "plan.rented_as" and (v["n"], v["instance"], v["per"], v["provider"]) == ("1", "g6.48xlarge", 8,
                                                                                            "aws")
    assert int(v["n"]) == 8 // 8  # GPUs paid at once / GPUs an instance holds
    text = _flat(_run("plan", "l4.yaml", cwd=tmp_path))
    assert "Rent NVIDIA L4 24GB as 1 × g6.48xlarge (8 GPUs each) from aws for" in text
    # recommend names the same instance for the same job
    (tmp_path / "rec.yaml").write_text(json.dumps({"workload": L4_FT, "constraints": {"acquisition": "rent",
                                                                                    "gpus": ["l4"]}}),
                                       encoding="utf-8")
    assert "Rent or buy rent, from aws / g6.48xlarge" in _flat(_run("recommend", "rec.yaml", cwd=tmp_path))
    zh = "".join(_run("plan", "l4.yaml", "--lang", "zh", cwd=tmp_path).split())
    assert "NVIDIAL424GB（从aws租用1×g6.48xlarge，每台8块GPU）" in zh


def test_a_rack_rented_whole_and_a_gpu_rented_alone():
    # one GB200 on CoreWeave's racks of 72 (clouds.yaml step_gpus 72): 1 x 72-GPU whole rental; runpod's per-GPU
    # offers of the example say nothing more
    d = json.loads(_run("plan", str(ROOT / "tests" / "data" / "wording65" / "plan-one-gb200-lora.yaml"), "--format",
                        "json"))
    [rent] = d["answer"]["rent"]
    [[_sep, mid, v]] = rent["rented_as_phrases"]
    assert mid == "plan.rented_as_whole" and (v["n"], v["per"], v["provider"]) == ("1", 72, "coreweave")
    text = _flat(_run("plan", str(ROOT / "tests" / "data" / "wording65" / "plan-one-gb200-lora.yaml")))
    assert "as 1 × 72-GPU whole rental from coreweave for 0.28 GPU-hours of work" in text
    example = json.loads(_run("plan", str(ROOT / "examples" / "plan-team-4090.yaml"), "--format", "json"))
    assert all(not x["rented_as_phrases"] for x in example["answer"]["rent"])


# ---------------------------------------------------------------- 5. catalog rows read on their term
# gpuhunt's CATALOG_V2_FIELDS (dstackai/gpuhunt src/gpuhunt/_internal/storage.py); GCP's DWS calendar-mode rows carry
# the flag gcp-dws-calendar-mode and provider_data {"is_dws_calendar_mode": true} (providers/gcp.py, PR #184)
_DWS = '"{""is_dws_calendar_mode"": true}"'
GCP = "\n".join([
    "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags,cpu_arch,"
    "provider_data",
    "a3-highgpu-8g,us-central1,88.49,208,1872,8,H100,80,False,,nvidia,,x86,{}",
    f"a3-highgpu-8g,us-central1,60.00,208,1872,8,H100,80,False,,nvidia,gcp-dws-calendar-mode,x86,{_DWS}",
    "a3-highgpu-8g,us-central1,25.00,208,1872,8,H100,80,True,,nvidia,,x86,{}",
    f"a4-highgpu-8g,us-central1,70.00,224,3968,8,B200,180,False,,nvidia,,x86,{_DWS}", ""])
# skypilot-catalog catalogs/v7/mithril/vms.csv: Price = SpotPrice, both the spot market's minimum price
# (skypilot sky/catalog/data_fetchers/fetch_mithril.py writes `price, price`)
MITHRIL = """InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,GpuInfo
h100-80gb.sxm.8x,H100,8,168,1814,12.0,12.0,us-central2-a,
h100-80gb.sxm.8x,H100,8,168,1814,8.0,8.0,us-central1-b,
"""


def _read(tmp_path, name: str, text: str):
    from gpuwise import knowledge
    from gpuwise.prices import read_catalog

    (tmp_path / name).write_text(text, encoding="utf-8")
    return read_catalog(tmp_path / name, knowledge.load(), as_of="2026-11-01")


def test_a_gpuhunt_calendar_mode_reservation_is_a_term_not_an_on_demand_offer(tmp_path):
    rep = _read(tmp_path, "gcp.csv", GCP)
    [a3] = rep.offers
    # the on-demand row's $88.49 for 8 H100 (11.06 a GPU-hour), its spot $25; the DWS row's $60 is the 1-month rate,
    # not an offer of $7.50 a GPU-hour as it was read before
    assert (a3.instance, a3.price, a3.spot_price, a3.reserved) == ("a3-highgpu-8g", 88.49, 25.0, {"1-month": 60.0})
    assert round(a3.per_gpu_hour, 4) == round(88.49 / 8, 4)
    # the A4's only row is a reservation (gpuhunt lists no on-demand A4: GCP sells it by reservation): not imported
    [skipped] = rep.skipped
    assert skipped.line == 5 and skipped.name == "a4-highgpu-8g" and "no on-demand price" in str(skipped.why)
    assert dict(rep.read_as) == {"on-demand": 1, "spot": 1, "1-month": 2}
    from gpuwise.render.price_view import import_summary

    text = import_summary(rep, None)
    assert "rows read as: on demand 1, spot 1, 1-month 2" in text
    assert "rows priced in GCP's DWS calendar mode (gpuhunt's flag gcp-dws-calendar-mode): 2" in text
    zh = import_summary(rep, None, "zh")
    assert "各行读作：按需 1，竞价 1，1-month 2" in zh and "按 GCP DWS 日历模式定价的行" in zh
    assert rep.as_dict()["read_as"] == {"on-demand": 1, "spot": 1, "1-month": 2}


def test_a_skypilot_catalog_whose_price_column_is_spot_imports_no_on_demand_offer(tmp_path):
    rep = _read(tmp_path, "mithril.csv", MITHRIL)
    assert rep.offers == [] and rep.spot_only == 1 and dict(rep.read_as) == {"spot": 2}
    assert [str(n) for n in rep.read_as_notes] == [
        "rows of mithril read as spot: 2 (SkyPilot's catalog writes its spot market's price in Price as in SpotPrice)"]
    # another SkyPilot catalog's Price is on demand, its SpotPrice spot (runpod's vms.csv: 1.64 and 1.19 an A100)
    other = _read(tmp_path, "runpod.csv", MITHRIL.replace("12.0,12.0", "1.64,1.19").replace("8.0,8.0", "1.64,1.19"))
    [o] = other.offers
    assert (o.price, o.spot_price) == (1.64, 1.19) and dict(other.read_as) == {"on-demand": 2}


# ---------------------------------------------------------------- a count of one in the Global batch row
def test_one_replica_is_said_as_one(tmp_path):
    # the 70B LoRA with batch_size 63 at 2,048 tokens fits 8 H100 as TP 8: one replica; the step assumed is 131,072 /
    # 2,048 = 64 sequences, so ceil(64 / 63) = 2 accumulation steps, 2 x 63 = 126 sequences = 258,048 tokens, 97% more
    job = (DATA / "recommend-70b-lora-batch63.yaml").read_text(encoding="utf-8").replace("seq_len: 4096",
                                                                                        "seq_len: 2048")
    (tmp_path / "b.yaml").write_text(job, encoding="utf-8")
    text = _flat(_run("recommend", "b.yaml", cwd=tmp_path))
    assert round(126 * 2048 / 131072 - 1, 2) == 0.97
    assert ("258,048 tokens a step, 97% more than the 131,072 assumed: the one replica takes whole micro-batches, "
            "1 × 2 × 63 = 126 sequences of 2,048 tokens") in text and "the 1 replicas" not in text
