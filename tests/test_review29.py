"""What review29 found reading four buyers' reports as an approver would (a team's year planned, two and four
DGX Sparks and an 8 x H200 server audited, a 70B fine-tune recommended, gpt-oss-120b served)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .clirun import gpuwise

SPARKS = ("title: sparks\n"
          "workload: {task: inference, model: gpt-oss-120b, precision: fp4, prompt_tokens: 2000, output_tokens: 500,"
          " concurrent_requests: 4}\n"
          "hardware: {gpu: DGX Spark, count: %d}\n"
          "acquisition: {mode: buy, unit_price_usd: 3999}\n"
          "constraints: {project_months: 24}\n")


def _audit(tmp_path: Path, text: str, *args: str) -> str:
    (tmp_path / "p.yaml").write_text(text, encoding="utf-8")
    r = gpuwise("audit", "p.yaml", *args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _money(s: str) -> float:
    return float(s.replace("$", "").replace(",", ""))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_buy_total_adds_up_from_its_printed_lines(tmp_path: Path, lang: str) -> None:
    """Step 4's 'Buy, total' printed 'hardware + host + network + power + hosting + licences - resale' with
    the inputs 'capex = 8,118, hosting = office': nothing an approver could add up. It now prints each line:
    two Sparks at $3,999, one $120 cable (prices.yaml fabrics roce-200), 0.48 kW x 17,520 h x $0.15/kWh =
    $1,261.44 in an office (PUE 1.0, no rent), less 49% of $7,998 back after 24 months (tco.yaml resale)."""
    out = _audit(tmp_path, SPARKS % 2, "--detail", "full", "--lang", lang)
    label, numbers = ("with numbers: ", "Buy, total = ") if lang == "en" else ("代入数值：", "购买总成本 = ")
    i = out.index(numbers)
    block = out[i:i + 400]
    line = " ".join(block.split(label)[1].split("\n")[:2])
    assert " ".join(line.split()).startswith(
        "$7,998.00 + $0.00 + $120.00 + $1,261.44 + $0.00 + $0.00 - $3,919.02")
    *plus, minus = re.findall(r"\$[\d,]+\.\d\d", line)
    total = _money(re.search(r"= (\$[\d,]+)", block).group(1))
    assert sum(map(_money, plus)) - _money(minus) == pytest.approx(5460.42)
    assert round(sum(map(_money, plus)) - _money(minus)) == total == 5460


H200 = ("title: h200\n"
        "workload: {task: inference, model: deepseek-r1, precision: fp8, prompt_tokens: 2000, output_tokens: 1500,"
        " concurrent_requests: 32}\n"
        "hardware: {gpu: H200, count: 8, nodes: 1, link: nvswitch}\n"
        "acquisition: {mode: buy}\n"
        "constraints: {project_months: 36}\n")


def test_a_bought_units_item_says_what_its_price_buys(tmp_path: Path) -> None:
    """prices.yaml prices the H200 SXM as an 8-GPU baseboard ($236,000) and the cost adds the server around it
    (tco.yaml server_share_usd_per_gpu_sxm, $7,000 x 8); the ledger called the first line '1 x 8-GPU whole
    servers' beside a 'host server share' line. Two DGX Sparks at the proposal's $3,999 are whole systems with
    no host line; they read '2 cards'."""
    import json

    d = json.loads(_audit(tmp_path, H200, "--format", "json"))
    lines = {x["kind"]: x for x in d["proposed"]["ledger"]["lines"]}
    assert (lines["capex"]["item"], lines["capex"]["amount"]) == ("1 x 8-GPU baseboard", 236000.0)
    assert (lines["server"]["item"], lines["server"]["amount"]) == ("host server share", 8 * 7000.0)
    d = json.loads(_audit(tmp_path, SPARKS % 2, "--format", "json"))
    lines = {x["kind"]: x for x in d["proposed"]["ledger"]["lines"]}
    assert (lines["capex"]["item"], lines["capex"]["amount"]) == ("2 x whole system (its host included)", 7998.0)
    assert "server" not in lines
    zh = _audit(tmp_path, SPARKS % 2, "--detail", "full", "--lang", "zh")
    assert "2 台整机（含主机）" in zh


def test_a_slow_network_warning_says_what_the_estimate_counted(tmp_path: Path) -> None:
    """Two Sparks: NET-SLOW-NETWORK said 'inter-node communication will be the bottleneck' while the interconnect
    step said 100% scaling, and its fix asked for 'RoCE at 200-400 Gb/s per GPU', which a Spark's one GPU already
    has on its own 200 GbE (policy fast_network_gb_s_per_gpu: no warning there). Stated on 25 GbE, the warning now
    says what the estimate counted and asks for the policy's 50 GB/s (slow_network_gb_s: 400 Gb/s) a GPU."""
    import re

    own = " ".join(_audit(tmp_path, SPARKS % 2).split())
    assert "NET-SLOW-NETWORK" not in own and "bottleneck" not in own and "200-400" not in own
    slow = " ".join(_audit(tmp_path, (SPARKS % 2).replace("count: 2}", "count: 2, network: ethernet-25}")).split())
    assert re.search(r"over ethernet-25 \(3\.125 GB/s per node\), less than the 400 Gb/s port DGX/HGX designs give "
                     r"each GPU: the estimate counts the traffic between nodes at that speed \(\d+% scaling "
                     r"efficiency\)", slow), slow
    assert "Fix: Use InfiniBand or RoCE at 400 Gb/s per GPU (as in DGX/HGX clusters), or keep the job on one " \
           "node." in slow
    assert "bottleneck" not in slow and "200-400" not in slow


def _term(d: dict, name: str) -> dict:
    return next(t for s in d["steps"] for t in s.get("terms", []) if t["name"] == name)


def test_the_serving_memory_formulas_reproduce_their_values(tmp_path: Path) -> None:
    """gpt-oss-120b on two Sparks (tensor parallel 2): the activations printed '8,000 x (8 B x 2,880 + 6 B x 2,880)
    + 4 B x vocab x sequences / 2 GPUs', 161 MB by its numbers, beside 370 MB: the working set counts each token's
    4 routed experts (config.json experts_per_token 4) and the vocabulary (201,088) had no number. DeepSeek-R1's
    KV printed '61 x compressed KV elements x 2 x 88,000': the latent's 576 (kv_lora_rank 512 + rope 64) was
    not in its inputs. The H200's decode working set likewise printed 'vocab' without 129,280."""
    import json

    out = " ".join(_audit(tmp_path, SPARKS % 2, "--detail", "full").split())
    assert ("with numbers: (8,000 x (8 B x 2,880 + 6 B x 2,880 x 4) (prefill working set of one layer) + "
            "4 B x 201,088 x 4) / 2 GPUs").replace(" x ", " × ") in out
    act = _term(json.loads(_audit(tmp_path, SPARKS % 2, "--format", "json")), "activations")
    # and what vLLM's start-up profile run holds beyond its step's working set, kept from the KV pool (serving.yaml
    # vllm profile_sampler: 37.7 B a logit x 201,088 x min(max_num_seqs 1,024, 8,192), less the step's
    # (8,192 x (8 B x 2,880 + 6 B x 2,880 x 4) + 4 B x 201,088 x 1,024) / 2)
    profile = 37.7 * 201088 * 1024 - (8192 * (8 * 2880 + 6 * 2880 * 4) + 4 * 201088 * 1024) / 2
    assert act["inputs"]["profile_sampler_per_gpu_bytes"] == pytest.approx(profile)
    assert act["value"] == pytest.approx((8000 * (8 * 2880 + 6 * 2880 * 4) + 4 * 201088 * 4) / 2 + profile)
    d = json.loads(_audit(tmp_path, H200, "--format", "json"))
    kv = _term(d, "kv_cache")
    assert kv["inputs"]["kv_elements"] == 576
    assert kv["value"] == pytest.approx(61 * 576 * 2 * 88000)
    full = " ".join(_audit(tmp_path, H200, "--detail", "full").split())
    assert "with numbers: 61 × 576 × 2 × 88,000 (MLA)" in full
    # the decode end holds vLLM's 8,192-token step budget's working set (since users32), its vocabulary numbered
    assert ("with numbers: (8,192 × (8 B × 7,168 + 6 B × 2,048 × 8) (prefill working set of one layer) + "
            "4 B × 129,280 × 32) / 8 GPUs") in full
    # with the profile run's sampler peak beyond the step's working set (as above: 4,765,253,632 B)
    profile = 37.7 * 129280 * 1024 - (8192 * (8 * 7168 + 6 * 2048 * 8) + 4 * 129280 * 1024) / 8
    assert _term(d, "activations")["value"] == (8192 * (8 * 7168 + 6 * 2048 * 8) + 4 * 129280 * 32) / 8 + profile


def test_ask_leaves_a_request_rates_load_alone(tmp_path: Path) -> None:
    """An answers file serving gpt-oss-120b at 4 requests/s within p95 targets, run through `gpuwise ask`: the
    questionnaire asked 'How many requests are served at the same time?' and wrote its default,
    concurrent_requests: 1, which replaced the rate's load (docs/formats.md requests_per_s: 'without
    concurrent_requests the load is this rate'); the answer read '191 tokens/s in total' where `recommend` on
    the same file reads 1,600 (4 requests/s x 400 output tokens). The question is not asked when a rate is."""
    import yaml

    from gpuwise.ask.questionnaire import _Session, load_questions
    from gpuwise.knowledge import load

    rate = {"workload": {"task": "inference", "model": "gpt-oss-120b", "precision": "fp4", "prompt_tokens": 1500,
                         "output_tokens": 400, "requests_per_s": 4, "p95_ttft_s": 2.0, "p95_tpot_s": 0.05}}
    for data, asked in ((rate, False), ({"workload": {**rate["workload"], "requests_per_s": None}}, True)):
        if data["workload"]["requests_per_s"] is None:
            del data["workload"]["requests_per_s"]
        path = tmp_path / "answers.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        s = _Session(load_questions(), load(), path)
        s.load(data, path.read_text(encoding="utf-8"))
        assert s.applies(s.owner["workload.concurrent_requests"]) is asked


def test_a_rate_served_on_one_rented_gpu_reads_as_the_report_writes_it(tmp_path: Path) -> None:
    """gpt-oss-120b at 4 requests/s x 400 output tokens = 1,600 output tokens/s on one rented H100 NVL: the answer
    read '1600 tokens/s in total' beside the serving line's '1,600 output tokens/s', and its cost line '1 GPUs
    on runpod'."""
    (tmp_path / "r.yaml").write_text(
        "workload: {task: inference, model: gpt-oss-120b, precision: fp4, prompt_tokens: 1500, output_tokens: 400,"
        " requests_per_s: 4, p95_ttft_s: 2.0, p95_tpot_s: 0.05}\n"
        "constraints: {acquisition: rent, project_months: 12, gpus: [h100-nvl-94gb]}\n", encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--detail", "full", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert "tokens/s per sequence, 1,600 tokens/s in total" in out and "1,600 output tokens/s in total" in out
    assert "1 GPU on runpod" in out and "1 GPUs" not in out
    zh = gpuwise("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path).stdout
    assert "合计 1,600 词元/" in zh


def test_where_bought_hardware_runs_is_listed_among_the_assumptions(tmp_path: Path) -> None:
    """The 8 x H200 bought for DeepSeek-R1 is costed in colocation ($250 per kW-month and PUE 1.58,
    tco.yaml hosting: $79,920 of hosting over 36 months) without the proposal saying so; the brief report's
    assumptions did not name it (only a note, MARKET-HOSTING-ASSUMED, in the full report did)."""
    import json

    # the brief names it; where the brief page is full (review55's longer DATA-STALE-PRICE fix made it so) its
    # assumptions fold to 'field = value' and the reason is the full report's
    out = " ".join(_audit(tmp_path, H200).split())
    assert "constraints.hosting = colocation" in out
    full = " ".join(_audit(tmp_path, H200, "--detail", "full").split())
    assert ("constraints.hosting = colocation — one workstation, or desktop systems within what an office "
            "supplies, in an office (no rent, PUE 1.0); anything else in colocation") in full
    said = [a for a in json.loads(_audit(tmp_path, H200, "--format", "json"))["assumptions"]
            if a["field"] == "constraints.hosting"]
    assert [a["value"] for a in said] == ["colocation"]
    sparks = json.loads(_audit(tmp_path, SPARKS % 2, "--format", "json"))["assumptions"]
    assert [a["value"] for a in sparks if a["field"] == "constraints.hosting"] == ["office"]
    given = H200.replace("project_months: 36}", "project_months: 36, hosting: datacenter}")
    assert not [a for a in json.loads(_audit(tmp_path, given, "--format", "json"))["assumptions"]
                if a["field"] == "constraints.hosting"]


def test_a_plan_lists_the_defaults_its_workloads_took():
    """A team's plan of a fine-tune and a service: each workload's job takes the defaults a requirements file's
    would (vLLM, SDPA, AdamW, ...), and the recommend and audit reports list them, but the plan listed none
    (its JSON 'assumptions' was [] for the example). A service sized by a request rate has its load from the
    rate: its job's concurrency default (1) is not one of the plan's assumptions."""
    from gpuwise.plan.build import plan
    from gpuwise.render import plan_view

    r = plan({"horizon_months": 2,
              "owned": [{"gpu": "RTX 4090", "count": 8, "hosting": "office"}],
              "workloads": [{"name": "ft", "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                                        "train_tokens": 1.0e8}, "cadence": {"per_month": 1}},
                            {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                          "prompt_tokens": 1000, "output_tokens": 200},
                             "cadence": {"continuous": True}, "targets": {"requests_per_s": 1}}],
              "constraints": {"gpus": ["rtx-4090"], "electricity_usd_per_kwh": 0.15}})
    said = {a.field: a.value for a in r.assumptions}
    assert said["ft, chat: workload.attention"] == "sdpa"
    assert said["chat: workload.framework"] == "vllm"
    assert said["ft: workload.optimizer"] == "adamw" and said["ft: workload.lora_rank"] == 16
    assert not [f for f in said if f.endswith("workload.concurrent_requests") or ": constraints." in f]
    text = " ".join(plan_view.render(r, "text", detail="full").split())
    assert "- chat: workload.framework = vllm: vLLM, the most widely deployed open serving engine" in text


def test_systems_of_one_gpu_are_joined_by_their_network_in_words(tmp_path: Path) -> None:
    """Two Sparks (one GB10 each) read '2 x GB10 over single GPU; 2 nodes over roce-200': the link inside a
    node of one GPU, which carries nothing, named as if it joined them."""
    out = " ".join(_audit(tmp_path, SPARKS % 2).split())
    assert "128GB over roce-200 between 2 nodes of one GPU each: 100% scaling efficiency" in out
    assert "single GPU" not in out
    zh = " ".join(_audit(tmp_path, SPARKS % 2, "--lang", "zh").split())
    assert "roce-200，连接 2 个各含一块 GPU 的节点" in zh


def test_the_proposals_own_price_is_said_to_be_its_own(tmp_path: Path) -> None:
    """Data freshness listed the Sparks' $3,999 as '(undated)', as if a price list had lost its date: it is
    the proposal's own figure (acquisition.unit_price_usd)."""
    out = " ".join(_audit(tmp_path, SPARKS % 2, "--detail", "full").split())
    assert "new: $3,999 per system (the proposal's own price)" in out and "(undated)" not in out
    zh = " ".join(_audit(tmp_path, SPARKS % 2, "--detail", "full", "--lang", "zh").split())
    assert "$3,999" in zh and "（提案自报的价格）" in zh


def test_the_two_break_evens_are_told_apart(tmp_path: Path) -> None:
    """The 8 x H200 bought for 36 months: the rent-or-buy table and TCO-BREAK-EVEN say month 6, the cost chart's
    lines cross at month 17.0, and the glossary defined break-even as 'the month from which buying has cost
    less than renting', which fits neither exactly. Month 6 counts what the server would resell for then
    (cost.break_even_month); the chart sets renting ($28.72 an hour) against buying's cash out: $292,000 up front
    and $3,756 a month of hosting and power cross $20,966 a month of rent at 292,000 / (20,966 - 3,756) = 17.0."""
    import json

    d = json.loads(_audit(tmp_path, H200, "--format", "json"))
    assert d["proposed"]["break_even_month"] == 6
    assert d["charts"]["proposal_cost_curve"]["break_even"] == pytest.approx(292000 / (28.72 * 730 - 3756), abs=0.05)
    out = " ".join(_audit(tmp_path, H200, "--detail", "full").split())
    assert ("Break-even — The first month at which renting around the clock has cost more than owning, counting "
            "what the hardware would resell for that month. The cost chart's lines cross later") in out


def test_a_tie_nothing_breaks_is_not_said_to_finish_sooner(tmp_path: Path) -> None:
    """DeepSeek-R1 served on 8 x RTX PRO 6000 Workstation or Server Edition (tests/data/heldout): the same card
    in two forms, both $63,745 with the same GPUs and memory. The note said the answer 'wins by finishing
    sooner', a service that finishes nothing sooner; rank.rank's tie-breaks (fewer GPUs, more free memory,
    faster, then the score) all came out equal and the catalog's order decided."""
    # the two editions alone: since review33 priced the DGX Spark, 8 of them ($9,642) answer the held-out question
    text = (Path(__file__).parent / "data/heldout/deepseek-r1-fp8-serve.yaml").read_text(encoding="utf-8")
    (tmp_path / "q.yaml").write_text(text + "constraints: {gpus: [rtx-pro-6000-blackwell, "
                                     "rtx-pro-6000-blackwell-server]}\n", encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = " ".join(r.stdout.split())
    assert ("Server Edition 96GB score the same ($63,745) with the same GPUs, memory and time: nothing tells them "
            "apart, and 8 × NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB is the one listed first.") in out
    assert "finishing sooner" not in out


def test_a_plans_options_say_their_units():
    """The plan's 'Options weighed' printed a service's 'Capacity of a copy: 481.3' with no unit (output tokens/s
    within the latency targets, or sequences at once where no rate is given), and 'Rent per hour: $1.36' for
    a 4-GPU run beside $1.39 for a 1-GPU one: the hour of all the run's GPUs (4 x $0.34 on runpod)."""
    from gpuwise.plan.build import plan
    from gpuwise.render import plan_view

    r = plan({"horizon_months": 1,
              "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                          "prompt_tokens": 1000, "output_tokens": 200},
                             "cadence": {"continuous": True}, "targets": {"requests_per_s": 1}}],
              "constraints": {"gpus": ["rtx-4090"], "acquisition": "rent"}})
    (o,) = [o for o in r.options if o.gpu == "rtx-4090"]
    text = " ".join(plan_view.render(r, "text", detail="full", width=200).split())
    assert f"{o.capacity:,.1f} tokens/s" in text and "Rent per hour, its GPUs" in text
    assert o.rent_per_hour == pytest.approx(0.34 * o.count)
