"""Hostile round 39's fixed failures (benchmarks/hostile_round39.py), each failing before its fix:

* serving.yaml ``serial_shared_expert`` (SGLang's ROCm shared expert): a window whose ``before`` is not after its
  ``first`` held no release and a misspelt vendor ('amdd') matched no GPU, both read silently;
* clouds.yaml providers: a negative storage price wrote a credit on the bill, a negative free egress allowance
  billed more than was sent;
* a look-alike GPU name read as a short name several variants share ('А１００' is 'a100') was offered a10 and
  v100-16gb-sxm2; a compatibility form of a Latin letter ('Ⅼ', 'ℍ') or a name wholly in fullwidth was shown as
  written, looking like the name it is not;
* a stated ``parallelism.etp`` with ``ep`` left to the search was dropped for a faster ep although ep 4 x etp 2
  holds it on 8 GPUs; a pinned ``ep`` that does not divide the model's routed experts was taken as kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuwise.errors import UserError
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge.names import visible

from .clirun import gpuwise as cli

V3 = ("workload: {task: inference, model: deepseek-v3, framework: sglang, precision: fp8, prompt_tokens: 1000, "
      "output_tokens: 1000, concurrent_requests: 8, framework_version: '0.5.7'}\n")
SERIAL = ("frameworks:\n  - id: sglang\n    serial_shared_expert:\n      - vendors: [{vendors}]\n"
          "        first: '{first}'\n        before: '{before}'\n        source: ours\n")


def _mi300x(tmp_path: Path, overlay: str | None):
    (tmp_path / "r.yaml").write_text(V3, encoding="utf-8")
    more = ()
    if overlay is not None:
        (tmp_path / "kb").mkdir(exist_ok=True)
        (tmp_path / "kb" / "serving.yaml").write_text(overlay, encoding="utf-8")
        more = ("--knowledge", "kb")
    return cli("estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json", *more, cwd=tmp_path)


@pytest.mark.parametrize("first, before", [("0.5.9", "0.5.6"), ("0.5.5.post3", "0.5.5.post3")])
def test_a_serial_shared_expert_window_holding_no_release_refused(tmp_path: Path, first, before):
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first=first, before=before))
    assert r.returncode == 2, r.stdout[:200]
    assert r.stderr.strip() == ("gpuwise: kb/serving.yaml: frameworks[0] (id sglang).serial_shared_expert[0]: "
                                f"before {before} is not after first {first}: no release is in the window")


def test_a_misspelt_serial_shared_expert_vendor_refused(tmp_path: Path):
    r = _mi300x(tmp_path, SERIAL.format(vendors="amdd", first="0.4.6", before="0.5.9"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "serial_shared_expert[0].vendors[0]" in r.stderr and "did you mean amd?" in r.stderr


def test_a_window_of_post_releases_holds_them(tmp_path: Path):
    """0.5.5.post1 up to 0.5.5.post3 holds post1 and post2 (records.release_key, as fusion.py reads the window):
    accepted, and a job on 0.5.7 is outside it (the same TPOT as with no overlay); 0.4.6 up to 0.5.9 holds 0.5.7,
    whose shared expert then runs after the routed experts (slower)."""
    base = json.loads(_mi300x(tmp_path, None).stdout)["gpu"]["serving"]["tpot_s"]
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first="0.5.5.post1", before="0.5.5.post3"))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] == base
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first="0.4.6", before="0.5.9"))
    assert json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] > base


# ------------------------------------------------------------------------------------------- cloud fees
LAMBDA = ("providers:\n  - id: lambda\n    name: Lambda\n    kind: gpu-cloud\n    egress_free_gb_per_month: {free}\n"
          "    egress_tiers:\n      - {{up_to_tb: null, usd_per_gb: 0}}\n    cross_region_usd_per_gb: 0\n"
          "    storage_usd_per_gb_month:\n      premium-ssd: {storage}\n    as_of: 2026-09-20\n    source: ours\n")


def _audit(tmp_path: Path, free: float, storage: float):
    text = (Path(__file__).parents[1] / "examples" / "proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8")
    (tmp_path / "p.yaml").write_text(text.replace("kind: object", "kind: premium-ssd"), encoding="utf-8")
    (tmp_path / "kb").mkdir(exist_ok=True)
    (tmp_path / "kb" / "clouds.yaml").write_text(LAMBDA.format(free=free, storage=storage), encoding="utf-8")
    return cli("audit", "p.yaml", "--format", "json", "--knowledge", "kb", cwd=tmp_path)


@pytest.mark.parametrize("free, storage, field, got", [(0, -0.2, "storage_usd_per_gb_month.premium-ssd", "-0.2"),
                                                        (-100, 0.2, "egress_free_gb_per_month", "-100")])
def test_a_negative_fee_refused(tmp_path: Path, free, storage, field, got):
    """Before: premium-ssd at -0.2 $/GB-month wrote 'fee storage -2.16' (1 TB x -0.2 x 0.0108 months) and the
    proposal cost $249.11 instead of $253.42; a free allowance of -100 GB billed 100 GB more than was sent."""
    r = _audit(tmp_path, free, storage)
    assert r.returncode == 2, r.stdout[:200]
    assert r.stderr.strip() == (f"gpuwise: kb/clouds.yaml: providers[0] (id lambda).{field}: must be at least "
                                f"0 (got {got})")


def test_every_fee_at_zero_bills_the_gpus_alone(tmp_path: Path):
    """No fee line: the cost is the 8 GPUs' $31.92 an hour (the proposal's 8 x $3.99) over the job and its
    start-up and wind-down, nothing else."""
    r = _audit(tmp_path, 0, 0)
    assert r.returncode in (0, 1), r.stderr
    proposed = json.loads(r.stdout)["proposed"]
    lines = proposed["ledger"]["lines"]
    assert [line["kind"] for line in lines] == ["rent", "setup"]
    hours = sum(line["inputs"]["hours"] for line in lines)
    assert abs(proposed["total_cost_usd"] - 31.92 * hours) < 1e-6


# ------------------------------------------------------------------------------------------- look-alike names
@pytest.mark.parametrize("name", ["\u0410\uff11\uff10\uff10", "a\uff1100", "\u0430100", "A1OO"])
def test_a_look_alike_of_a_shared_short_name_names_its_variants(tmp_path: Path, name):
    """'А１００' read as it looks is 'a100', which four parts share: the hint names them (before: a10,
    v100-16gb-sxm2 and h100-80gb-sxm, none an A100)."""
    (tmp_path / "r.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, seq_len: 4096, "
                                     "train_tokens: 2.0e8}\n", encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", name, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().endswith("(did you mean a100-40gb-pcie or a100-40gb-sxm or a100-80gb-pcie or "
                                     "a100-80gb-sxm?)")


@pytest.mark.parametrize("name, shown", [("\u216clama-3.1-8b", "\\u216clama-3.1-8b"),  # ROMAN NUMERAL FIFTY
                                         ("\u210d100", "\\u210d100"),  # DOUBLE-STRUCK CAPITAL H
                                         ("\uff4d\uff49\uff13\uff10\uff10", "\\uff4d\\uff49\\uff13\\uff10\\uff10"),
                                         ("\u6607\u817e", "\u6607\u817e"),
                                         ("\u82f1\u4f1f\u8fbeH100", "\u82f1\u4f1f\u8fbeH100")])
def test_compatibility_forms_of_latin_letters_are_shown_escaped(name, shown):
    """'Ⅼ' and 'ℍ' are drawn as L and H (NFKC takes them there) but are no script docs/names.md listed, and a name
    wholly in fullwidth had no ASCII letter to call it Latin: each was shown as written. A Chinese name stays."""
    assert visible(name) == shown


# ------------------------------------------------------------------------------------------- expert parallelism
def _train(model: str, par: dict) -> dict:
    return {"workload": {"task": "finetune", "method": "full", "model": model, "seq_len": 4096, "train_tokens": 2e8,
                         "stack": "megatron", "parallelism": par}}


def test_a_stated_etp_is_kept_where_some_ep_holds_it(tmp_path: Path):
    """etp 2 on 8 H100s for Qwen3-30B-A3B: ep 4 x etp 2 = 8 divides the 8 GPUs (expert_split), so the pin is
    kept; before, the search took ep 8 (faster), ETP fell to 1 and fits_as_requested was false."""
    (tmp_path / "r.yaml").write_text(json.dumps(_train("qwen3-30b-a3b", {"etp": 2})), encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    gpu = json.loads(r.stdout)["gpu"]
    assert (gpu["layout"]["ep"], gpu["layout"]["etp"], gpu["fits_as_requested"]) == (4, 2, True)


@pytest.mark.parametrize("model, ep, name, experts", [("qwen3-30b-a3b", 3, "Qwen3 30B-A3B", 128),
                                                      ("mixtral-8x7b", 16, "Mixtral 8x7B", 8)])
def test_an_ep_that_does_not_divide_the_experts_refused(kb, model, ep, name, experts):
    """Megatron-Core's MoE layer asserts num_moe_experts % expert_model_parallel_size == 0: ep 3 of 128 experts
    was taken as kept on 12 GPUs, ep 16 of Mixtral's 8 on 16 (half an expert a GPU in its memory)."""
    with pytest.raises(UserError) as err:
        resolve(Requirements.model_validate(_train(model, {"ep": ep})), kb)
    text = str(err.value)
    assert "workload.parallelism.ep" in text and "\n" not in text
    assert f"{name}'s {experts} routed experts do not divide by {ep}" in text


def test_an_ep_that_divides_the_experts_read(kb):
    resolve(Requirements.model_validate(_train("mixtral-8x7b", {"ep": 8})), kb)


def test_an_ep_that_does_not_divide_refused_in_chinese(tmp_path: Path):
    (tmp_path / "r.yaml").write_text(json.dumps(_train("mixtral-8x7b", {"ep": 16})), encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h100", "--gpus", "16", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "workload.parallelism.ep" in r.stderr and "路由专家" in r.stderr
    assert "routed experts" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
