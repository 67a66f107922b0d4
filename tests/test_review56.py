"""review56: four 2026 buyers' inputs (tests/data/review56) read as the buyer and as the approver who signs.

1. An audit of 2 x AWS p5.48xlarge (16 x H100) committed for 36 months for a pretraining run of 209.6 days
   (tests/data/review56/proposals/c-commit-aws-p5-3yr-egress.yaml) billed the whole committed term, 26,280 hours,
   at the rate of the term the job's own hours would take, the 1-month reservation (EC2 Capacity Block, $41.528 an
   instance-hour): 'Rent = $2,182,712 ... $83.056/h x 26,280 h', '1-month reservation: $5.19 per GPU-hour',
   $2,472,206 in all. A term the proposal commits to and pays in full is priced at the rate of that term: the
   3-year Savings Plan, $23.77728 an instance-hour (knowledge/clouds.yaml), $47.55456/h x 26,280 h = $1,249,734,
   $1,539,228 with its egress and storage; a 12-month commitment the 1-year $34.6752. Its rent line was dated the
   on-demand rate's 2026-11-09 beside the prices used's 2026-09-27 for the reserved rate: now the terms' date.

2. A service asked at a request rate (recommend-qwen35-spec-service.yaml, 4 requests/s, 47 in flight) echoed
   'workload.concurrent_requests: 1' and 'workload.target_tokens_per_s: 0' in its question as understood, unmarked,
   though the load is the rate: those two defaults are left out of the echo where the rate is given.

3. A Chinese batch summary wrapped a title between '(16' and 'x H100)' and kept the 'x' (the one-sign pass wants a
   word before it); a table's cells take '×' before they wrap.

4. A formula's whole constants were ungrouped ('1048576 state', 'own head 32000 x h') beside grouped figures:
   '{x:d}' is grouped as '.0f' and 'g' are.

5. A Chinese plan's solver line listed its GPU types with English commas.

6. An NVMe offload (the plan's quarterly 8B full fine-tune on one RTX 4090) read 'Host RAM needed per node for
   offload: 160.6 GB', against MEM-NVME-OFFLOAD's 'host RAM holds only the staging buffers': it gives the NVMe its
   state needs (memory.nvme_bytes_per_node) instead.

7. The EAGLE-3 drafter's weights read '+ own head 32,000 x h, x 1 B / 4 GPUs': 'all at 1 B a parameter'.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.clirun import ROOT, text_of
from tests.clirun import json_of as _json

HERE = ROOT / "tests/data/review56"
AWS_3YR = HERE / "proposals/c-commit-aws-p5-3yr-egress.yaml"


def _rent(d: dict) -> dict:
    return next(ln for ln in d["proposed"]["ledger"]["lines"] if ln["kind"] == "rent")


@pytest.mark.parametrize(("months", "term", "instance_hour"), [
    (36, "3-year", 23.77728),  # knowledge/clouds.yaml aws p5.48xlarge reserved_per_hour 3-year
    (12, "1-year", 34.6752),   # the 1-year Savings Plan, no upfront
])
def test_a_committed_rental_is_priced_at_the_rate_of_the_term_it_commits_to(tmp_path, months, term, instance_hour):
    p = yaml.safe_load(AWS_3YR.read_text())
    p["acquisition"]["months"] = months
    f = tmp_path / "p.yaml"
    f.write_text(yaml.safe_dump(p))
    d = _json(tmp_path, "audit", str(f))
    rent = _rent(d)
    # two instances of 8 GPUs, billed every hour of the term (730 h a month) less the start-up line's 0.25 h
    assert rent["inputs"]["usd_per_hour"] == pytest.approx(2 * instance_hour)
    assert d["proposed"]["ledger"]["period"] == {"kind": "commitment", "hours": months * 730.0, "months": months}
    setup = next(ln for ln in d["proposed"]["ledger"]["lines"] if ln["kind"] == "setup")
    assert rent["amount"] + setup["amount"] == pytest.approx(2 * instance_hour * months * 730)
    price = next(u for u in d["prices_used"] if u.get("kind") == "rent" and not u.get("alternative"))
    assert price["term"] == term and price["amount"] == pytest.approx(instance_hour / 8)


def test_a_reserved_rate_is_dated_when_the_terms_were_read_in_the_ledger_too(tmp_path):
    """The same audit's rent line carried 'as_of = 2026-11-09' (the on-demand p5.48xlarge rate's date) beside the
    prices used's '3-year commitment: $2.97 per GPU-hour (2026-09-27, 71 days old)': the rate billed is the one
    read with the terms (knowledge/clouds.yaml terms_as_of 2026-09-27)."""
    d = _json(tmp_path, "audit", str(AWS_3YR))
    price = next(u for u in d["prices_used"] if u.get("kind") == "rent" and not u.get("alternative"))
    assert price["as_of"] == "2026-09-27" and _rent(d)["inputs"]["as_of"] == "2026-09-27"


def test_a_services_question_at_a_rate_does_not_echo_a_load_it_was_not_given(tmp_path):
    """docs/formats.md: without concurrent_requests the load is the rate (Little's law)."""
    q = str(HERE / "recommend-qwen35-spec-service.yaml")
    w = _json(tmp_path, "recommend", q)["question"]["workload"]
    assert w["requests_per_s"] == 4 and "concurrent_requests" not in w and "target_tokens_per_s" not in w
    text = " ".join(text_of(tmp_path, "recommend", q, "--detail", "full").split())
    assert "workload.concurrent_requests: 1" not in text and "workload.target_tokens_per_s: 0" not in text
    # the load shown: 4 requests/s x (96 ms + 700 tokens x 16.7 ms) = 47 in flight, not the default 1
    assert "requests in flight: 47" in text
    # stated, they are the question and stay
    f = tmp_path / "given.yaml"
    f.write_text(Path(q).read_text().replace("  requests_per_s: 4\n",
                                             "  requests_per_s: 4\n  concurrent_requests: 32\n"))
    assert _json(tmp_path, "recommend", str(f))["question"]["workload"]["concurrent_requests"] == 32


def test_a_table_cell_wrapped_at_its_multiplication_sign_still_writes_it():
    """A Chinese batch summary (gpuwise audit --lang zh tests/data/review56/proposals) wrapped the third title
    between '(16' and 'x H100)': the page's one-sign pass (words.times) wants a word before ' x ', and found
    the line's indent. The cells take the sign before they wrap."""
    from gpuwise.render.textfit import fit_tables

    title = "Commit to 2 x AWS p5.48xlarge (16 x H100) for three years to pretrain and serve"
    vm = {"headers": ["File", "Title"], "rows": [{"cells": ["c.yaml", title]}], "lines": []}
    for width in range(30, 90):
        text = " ".join(fit_tables(vm, width)["lines"])
        assert " x " not in text and "16 × H100" in " ".join(text.split()), width


def test_a_formulas_whole_constants_have_their_thousands_grouped(tmp_path):
    """Qwen3.5 122B-A10B with EAGLE-3 on 4 x H200 NVL (gpuwise estimate): the KV line's formula read '36 layers x
    (1048576 state x 4 B + 36864 convolution x 2 B)' and the weights' 'own head 32000 x h' beside '134,850' tokens in
    the same formula: a '{x:d}' constant is grouped as a '.0f' or 'g' one is (review51, review53). The recurrent state
    (knowledge/models.yaml qwen3.5-122b-a10b recurrent): state_elements 1,048,576, conv_elements 36,864; the
    EAGLE-3 head's vocabulary (knowledge/serving.yaml speculative_methods eagle3 draft_vocab) 32,000."""
    from gpuwise.messages import fill

    assert fill("own head {vocab:d} x h", {"vocab": 32000}) == "own head 32,000 x h"
    assert fill("{n:d} GPUs", {"n": 8}) == "8 GPUs" and fill("{n:d} GPUs", {"n": 2.5}) == "2.5 GPUs"
    q = str(HERE / "recommend-qwen35-spec-service.yaml")
    for lang, state in (("en", "(1,048,576 state × 4 B + 36,864 convolution × 2 B)"), ("zh", "(1,048,576 个状态元素")):
        text = " ".join(text_of(tmp_path, "estimate", q, "--gpu", "H200 NVL", "--gpus", "4", "--lang", lang).split())
        assert state in text and "32,000 × h" in text and "1048576" not in text


def test_a_chinese_plans_solver_line_lists_its_gpu_types_in_chinese(tmp_path):
    """gpuwise plan --lang zh tests/data/review56/plan-owned-4090-past-warranty.yaml: the solver's line read
    'GPU 类型 a100-80gb-pcie, b200, gaudi3-128gb-oam, ...' with English commas, where the report's other lists
    take '，' (review55 did the same for the GPUs a checkpoint is not served on)."""
    plan = str(HERE / "plan-owned-4090-past-warranty.yaml")
    zh = "".join(text_of(tmp_path, "plan", plan, "--lang", "zh", "--detail", "full").split())
    assert "GPU类型a100-80gb-pcie，b200，" in zh and "a100-80gb-pcie,b200" not in zh
    en = " ".join(text_of(tmp_path, "plan", plan, "--detail", "full").split())
    assert "GPU types a100-80gb-pcie, b200, " in en


def test_an_nvme_offload_is_not_said_to_need_host_ram_for_its_state(tmp_path):
    """The plan's quarterly fine-tune (tests/data/review56/plan-owned-4090-past-warranty.yaml: a full fine-tune of
    Llama 3.1 8B with ZeRO-3 and NVMe offload on one RTX 4090), estimated alone, read 'Host RAM needed per node for
    offload: 160.6 GB' above MEM-NVME-OFFLOAD's 'host RAM holds only the staging buffers', on a workstation the plan
    states 128 GB of RAM for. NVMe offload's need is the drives' room: the offloaded state, 8.03e9 parameters
    (knowledge/models.yaml llama-3.1-8b) x (2 B bf16 weights + 2 B gradients + 4 B fp32 master + 8 B Adam moments)
    = 128.5 GB a server."""
    import yaml

    plan = yaml.safe_load((HERE / "plan-owned-4090-past-warranty.yaml").read_text())
    job = next(w for w in plan["workloads"] if w["name"] == "fullft-8b")
    f = tmp_path / "ft.yaml"
    f.write_text(yaml.safe_dump({"workload": job["workload"], "constraints": {"deadline_days": 5}}))
    d = _json(tmp_path, "estimate", str(f), "--gpu", "RTX 4090", "--gpus", "1")
    m = d["memory"]
    assert m["offload_target"] == "nvme" and m["host_ram_bytes_per_node"] == 0
    assert m["nvme_bytes_per_node"] == pytest.approx(16 * 8.03e9, rel=0.001)
    text = " ".join(text_of(tmp_path, "estimate", str(f), "--gpu", "RTX 4090", "--gpus", "1").split())
    assert "Host RAM needed per node for offload" not in text
    assert f"NVMe needed per node for the offloaded state: {m['nvme_bytes_per_node'] / 1e9:.1f} GB" in text
    # CPU offload keeps its host RAM figure
    job["workload"]["offload"] = "cpu"
    f.write_text(yaml.safe_dump({"workload": job["workload"], "constraints": {"deadline_days": 5}}))
    m = _json(tmp_path, "estimate", str(f), "--gpu", "RTX 4090", "--gpus", "1")["memory"]
    assert m["host_ram_bytes_per_node"] > 0 and m["nvme_bytes_per_node"] == 0


def test_a_drafters_bytes_are_said_of_all_its_parameters(tmp_path):
    """The EAGLE-3 drafter's weights read '+ own head 32,000 × h, x 1 B / 4 GPUs': a bare 'x 1 B' after a comma, which
    reads as multiplying nothing, or the head alone. The bytes apply to every drafter parameter (draft.py: params =
    layer + projection + head, times bytes_per_param): 'all at 1 B a parameter' (FP8 weights;
    zh 全部按每个参数 1 B 计)."""
    q = str(HERE / "recommend-qwen35-spec-service.yaml")
    text = " ".join(text_of(tmp_path, "estimate", q, "--gpu", "H200 NVL", "--gpus", "4").split())
    assert "own head 32,000 × h, all at 1 B a parameter / 4 GPUs" in text and ", x 1 B" not in text
    zh = "".join(text_of(tmp_path, "estimate", q, "--gpu", "H200 NVL", "--gpus", "4", "--lang", "zh").split())
    assert "全部按每个参数1B计/4块GPU" in zh
