"""What review28 found running this session's user-visible changes as a user would."""

from __future__ import annotations

import pytest

from gpuwise.errors import KnowledgeError
from gpuwise.knowledge import load

# review33 priced the GB10 (a DGX Spark, prices.yaml); the excluded part an overlay prices is now the Max-Q card
MAXQ_PRICE = """schema_version: 1
gpus:
  - id: rtx-pro-6000-blackwell-max-q
    units: {sold_as: workstation, sizes: [1], max_per_node: 4, reason: "cards bought one by one for a workstation",
            source: "NVIDIA RTX PRO 6000 Max-Q product page"}
    prices:
      - {amount: 8299, condition: new, unit: card, kind: vendor-list, as_of: 2026-10-15,
         source: "a reseller's quote the team has"}
"""


def test_a_users_price_for_an_excluded_gpu_is_taken(tmp_path):
    """TCO-NO-PRICE-EITHER-WAY's fix says: add a dated price with --knowledge (prices.yaml). The built-in file
    lists gb10 under excluded, so that overlay was refused 'gpu 'gb10' is both priced and excluded'; the
    overlay's price now replaces the built-in exclusion, and the card is priced at the amount given."""
    assert "rtx-pro-6000-blackwell-max-q" in {e.id for e in load().prices.excluded}
    (tmp_path / "prices.yaml").write_text(MAXQ_PRICE)
    kb = load(tmp_path)
    assert "rtx-pro-6000-blackwell-max-q" not in {e.id for e in kb.prices.excluded}
    (entry,) = [g for g in kb.prices.gpus if g.id == "rtx-pro-6000-blackwell-max-q"]
    assert [p.amount for p in entry.prices] == [8299]


def test_an_overlay_that_prices_and_excludes_one_gpu_is_still_refused(tmp_path):
    (tmp_path / "prices.yaml").write_text(MAXQ_PRICE + 'excluded:\n  - {id: rtx-pro-6000-blackwell-max-q, reason: '
                                          '"not sold to us here"}\n')
    with pytest.raises(KnowledgeError, match="both priced and excluded"):
        load(tmp_path)


def test_neither_way_priced_says_the_count_as_the_other_cost_rules_do():
    """One unpriced card, renting or buying allowed (the rule's own case): TCO-NO-PRICE-EITHER-WAY wrote 'for 1
    GPUs'; it now names the count as TCO-NO-RENTAL beside it does ('1 x <GPU>'), in English and Chinese."""
    from pathlib import Path

    import yaml

    from gpuwise import recommend
    from gpuwise.render import report

    req = yaml.safe_load((Path(__file__).parent / "rules/TCO-NO-PRICE-EITHER-WAY/input.yaml").read_text())
    result = recommend(req)
    (f,) = [f for f in result.findings if f.rule == "TCO-NO-PRICE-EITHER-WAY"]
    name = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition 96GB"
    assert f.message == f"1 x {name} has no dated purchase price either, so buying cannot be costed instead of renting"
    zh = report.render(result, "text", lang="zh", width=300)
    assert f"1 × {name} 也没有带日期的购买价格，因此无法改为按购买计算成本" in zh


def test_the_wall_clock_formula_prints_the_step_time_it_multiplies():
    """64 x B200 on examples/pretrain-7b.yaml: wall hours = steps x step time / goodput / 3600. The 'with numbers'
    line kept the words 'step time' (4.768e+04 x step time / 0.8496 / 3600); it now prints the step's seconds, and
    its numbers give the hours by hand: 4.768e4 x 3.354 / 0.8496 / 3600 = 52.29 (the term's from the unrounded
    steps, 2e11 / 4,194,304 = 47,683.7; 3.25 s before branch trainblind17 priced attention in FlashAttention's
    count)."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[1]
    for lang, said in (("en", "with numbers:"), ("zh", "代入数值：")):
        out = subprocess.run([sys.executable, "-m", "gpuwise", "estimate", str(root / "examples/pretrain-7b.yaml"),
                              "--gpu", "b200", "--gpus", "64", "--lang", lang], capture_output=True, text=True,
                             check=True, cwd=root).stdout
        line = next(ln for ln in out.splitlines() if said in ln and "/ 3600" in ln)
        steps, step_s, goodput = re.search(r"([\d.,e+]+) × ([\d.]+) s / ([\d.]+) / 3600", line).groups()
        # the steps in grouped digits since review50 (47,684; it printed 4.768e+04)
        assert (float(steps.replace(",", "")), float(step_s), float(goodput)) == (47684, 3.354, 0.8496)
        assert float(steps.replace(",", "")) * float(step_s) / float(goodput) / 3600 == pytest.approx(52.29, abs=0.02)


@pytest.mark.parametrize(("framework", "kind", "sequences"), [("vllm", "total", 378), ("tensorrt-llm", "free", 374)])
def test_the_engines_own_kv_pool_adds_up_from_its_printed_inputs(framework, kind, sequences):
    """Llama 3.1 8B in bf16 on one H100 SXM (81,559 MiB as nvidia-smi reports it: 85,520,809,984 B), 1,000-token
    prompts and 200 output tokens at 5 requests/s. vLLM's pool is 0.90 x capacity less what the GPU holds
    (gpu_memory_utilization of the total), TensorRT-LLM's 0.90 x (capacity less it) (free_gpu_memory_fraction):
    formula.serving.kv_capacity_total / _free subtract the weights, the CUDA context and the working set, but the
    term printed neither of the last two, so its value could not be worked out from what it showed. By hand from
    the inputs: vLLM floor(54.81e9 / (131,072 B x 1,104 tokens)) = 378, TensorRT-LLM floor(59.64e9 / (131,072 x
    1,216)) = 374. vLLM's working set is its start-up profile's sampler pass, 37.7 B x 128,256 x 1,024 = 4.95 GB,
    where the forward's is 1.50 GB (serving.yaml vllm profile_sampler; the printed working set holds both, the
    sampler's excess also printed alone): 58.26e9 and 402 sequences without it."""
    from gpuwise import estimate

    w = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "framework": framework,
         "requests_per_s": 5, "prompt_tokens": 1000, "output_tokens": 200}
    r = estimate({"workload": w}, gpu="h100-sxm", gpus=1)
    (t,) = [t for t in r.gpu.terms if t.name == "max_concurrent_sequences"]
    assert t.formula_phrases[0][1] == f"formula.serving.kv_capacity_{kind}"
    x = t.inputs
    assert x["capacity_per_gpu_bytes"] == 81_559 * 2**20
    held = x["weights_per_gpu_bytes"] + x["context_bytes"] + x["working_set_per_gpu_bytes"]
    share, cap = x["memory_share"], x["capacity_per_gpu_bytes"]
    pool = share * cap - held if kind == "total" else share * (cap - held)
    assert pool == pytest.approx(x["kv_free_per_gpu_bytes"], rel=1e-12)
    assert int(pool // (x["kv_bytes_per_token_per_gpu"] * x["tokens_per_sequence"])) == t.value == sequences
    if framework == "vllm":
        assert x["profile_sampler_per_gpu_bytes"] == pytest.approx(
            37.7 * 128_256 * 1_024 - ((8 * 4096 + 6 * 14336) * 8192 + 4 * 128_256 * 1_024), rel=1e-9)


def test_a_given_architecture_beside_a_catalog_model_is_not_listed_as_a_default():
    """llama-3.1-8b named beside a 40-layer architecture block: the assumptions say the given shape replaced the
    catalog's (assume.shape_given), but 'The question as understood' also listed 'workload.architecture: —
    [default: the given architecture ...]', a default with no value for a block the file gave field by field."""
    from gpuwise import recommend
    from gpuwise.render import report

    arch = {"layers": 40, "hidden_size": 5120, "heads": 40, "kv_heads": 8, "ffn_size": 13824, "vocab_size": 128256}
    r = recommend({"workload": {"task": "finetune", "model": "llama-3.1-8b", "architecture": arch, "params_b": 13,
                                "method": "lora", "seq_len": 4096, "train_tokens": 1e8},
                   "constraints": {"max_gpus": 8, "acquisition": "rent"}})
    assert [a.message_id for a in r.assumptions if a.field == "workload.architecture"] == ["assume.shape_given"]
    for fmt in ("text", "md"):
        out = report.render(r, fmt, detail="full", width=300)
        assert "the given architecture (40 layers, hidden 5,120, 13B parameters), not catalog model llama-3.1-8b's" \
            in out
        assert "workload.architecture.layers" in out
        lines = [ln for ln in out.splitlines() if "workload.architecture" in ln and "given architecture" in ln]
        assert len(lines) == 1 and "default" not in lines[0].lower()


def test_serving_copies_that_each_fit_in_a_server_are_not_warned_of_a_slow_network():
    """8 x RTX 4090 in 2 workstations of 4 over 25 GbE serving Llama 3.1 8B as 4 copies of tensor parallel 2: every
    copy's all-reduces stay inside its server and nothing crosses the network (the interconnect step says 100%
    scaling), yet NET-SLOW-NETWORK warned 'inter-node communication will be the bottleneck'. It now judges the
    traffic between servers (traffic_between_nodes): training on more than one server, or a copy spread over them."""
    from gpuwise import audit

    proposal = {"title": "8 RTX 4090 in two workstations serving Llama 3.1 8B",
                "workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "framework": "vllm",
                             "requests_per_s": 10, "prompt_tokens": 1000, "output_tokens": 300},
                "hardware": {"gpu": "rtx-4090", "count": 8, "nodes": 2}, "acquisition": {"mode": "buy"},
                "constraints": {"project_months": 24}}
    r = audit(proposal)
    assert r.proposed.nodes == 2 and r.proposed.serving.layout.gpus_per_copy == 2
    assert "NET-SLOW-NETWORK" not in {f.rule for f in r.findings}


def test_no_purchase_price_names_the_count_as_the_other_cost_rules_do():
    """TCO-NO-PURCHASE-PRICE on its own case (L40S, buying only, up to 8 cards): it wrote '<GPU> has no dated purchase
    price for 8 GPUs' (and 'for 1 GPUs' for one card); it now reads '8 x <GPU> has no dated purchase price'."""
    from pathlib import Path

    import yaml

    from gpuwise import recommend

    req = yaml.safe_load((Path(__file__).parent / "rules/TCO-NO-PURCHASE-PRICE/input.yaml").read_text())
    found = {f.message for f in recommend(req).findings if f.rule == "TCO-NO-PURCHASE-PRICE"}
    # said of the closest candidate it refused (session 33: rank.closeness, the fewest GPUs that hold the job, as
    # the rule's own case names it), not the listed GPU's largest count: one L40S since smalls58 offers a QLoRA job
    # the host offload of its adapters' state where nothing else fits (two before)
    said = "1 x NVIDIA L40S 48GB has no dated purchase price in the knowledge base, so buying cannot be costed"
    assert found == {said}


def test_copies_of_one_consumer_card_each_are_not_warned_of_peer_to_peer():
    """Two RTX 4090s serving Llama 3.1 8B as two copies of one card send nothing between the cards, yet NET-NO-P2P
    warned that 'GPU-to-GPU traffic is staged through host memory'. It now needs traffic between GPUs
    (traffic_between_gpus: training on more than one GPU, or a serving copy of more than one); a copy of tensor
    parallel 2 on the same cards is still warned."""
    from gpuwise import audit

    proposal = {"title": "RTX 4090s serving Llama 3.1 8B",
                "workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "framework": "vllm",
                             "requests_per_s": 5, "prompt_tokens": 1000, "output_tokens": 200},
                "hardware": {"gpu": "rtx-4090", "count": 2}, "acquisition": {"mode": "buy"},
                "constraints": {"project_months": 12}}
    for tp, warned in ((1, False), (2, True)):
        r = audit({**proposal, "workload": {**proposal["workload"], "parallelism": {"tp": tp}}})
        assert r.proposed.serving.layout.gpus_per_copy == tp
        assert ("NET-NO-P2P" in {f.rule for f in r.findings}) is warned
