"""Hostile round 46's fixed failures (benchmarks/hostile_round46.py), each failing before its fix: what round 45 saw
and left in pydantic's words --

* a yes/no field given a word was 'Input should be a valid boolean, unable to interpret input', nothing offered:
  the field is said as a yes/no (``weight_only_gemm`` as whether the server forces vLLM's weight-only Marlin
  kernels), with true offered where the word names what the field switches on (``marlin``, ``liger`` for
  ``liger_kernel``) or says on (``enabled``, ``always``), false where it says off (``disabled``);
* ``hardware.network: 400 Gbps`` listed all eleven networks: the networks of that line rate are offered, read
  from knowledge/runtime.yaml's ``gb_s`` (a port's GB/s x 8 = its Gb/s: infiniband-400's 50 GB/s is 400 Gb/s);
* a name past its length was 'String should have at most 100 characters (got 'xxx...')': the limit and the
  length given;
* a price CSV cell written with its unit ('$2.50/h', '80GB', '8x', '2 TB') was 'not a number', nothing offered:
  its number is offered, read as the input files' number fields read it (inputs/units.py).
"""

from __future__ import annotations

import pytest
import yaml

from .clirun import gpuwise as cli

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16",
          "prompt_tokens": 1000, "output_tokens": 200}
OFF13 = {"task": "finetune", "method": "full", "model": "llama-2-13b", "seq_len": 2048, "train_tokens": 1.0e8,
         "offload": "cpu", "zero_stage": 3}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
IMPORT = ("prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30")
PYDANTIC = ("Input should be", "String should have", "valid boolean")


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert not any(w in r.stderr for w in PYDANTIC), r.stderr
    return r.stderr


def _said(tmp_path, name: str, doc, *argv: str) -> str:
    (tmp_path / name).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return _one_line(cli(*argv, cwd=tmp_path))


def _estimate(tmp_path, workload: dict, *more: str) -> str:
    return _said(tmp_path, "r.yaml", {"workload": workload}, "estimate", "r.yaml", "--gpu", "h100", *more)


WHAT = ("weight_only_gemm is a yes/no, true or false (whether the server forces vLLM's weight-only GEMM kernels, "
        "Marlin, on the FP8 or FP4 weights)")


@pytest.mark.parametrize(("given", "tail"), [("marlin", ": write true"), ("Marlin W8A16", ": write true"),
                                             ("no marlin", ": write false"), ("cutlass", "")])
def test_weight_only_gemm_given_a_kernel(tmp_path, given, tail):
    err = _estimate(tmp_path, {**SERVE8, "precision": "fp8", "weight_only_gemm": given})
    assert err.rstrip().endswith(f"r.yaml: workload.weight_only_gemm: '{given}': {WHAT}{tail}"), err


def test_weight_only_gemm_given_a_kernel_in_chinese(tmp_path):
    err = _estimate(tmp_path, {**SERVE8, "precision": "fp8", "weight_only_gemm": "marlin"}, "--lang", "zh")
    assert ("weight_only_gemm 是一个是/否值，写 true 或 false（服务是否对 FP8 或 FP4 权重强制使用 vLLM 的"
            "仅权重 GEMM 内核 Marlin）：请写作 true") in err


@pytest.mark.parametrize(("field", "given", "meant"), [("prefix_cache", "enabled", "true"),
                                                       ("rocm_aiter", "disabled", "false"),
                                                       ("torch_compile", "compile", "true")])
def test_other_yes_no_fields_given_words(tmp_path, field, given, meant):
    workload = {**SERVE8, field: given} if field != "torch_compile" else {**LORA8, field: given}
    err = _estimate(tmp_path, workload)
    assert f"workload.{field}: '{given}': {field} is a yes/no, true or false: write {meant}" in err


def test_a_yes_no_word_that_says_neither(tmp_path):
    err = _estimate(tmp_path, {**SERVE8, "prefix_cache": "radix"})
    assert err.rstrip().endswith("workload.prefix_cache: 'radix': prefix_cache is a yes/no: write true or false")


def test_a_plan_cadence_given_always(tmp_path):
    plan = {"horizon_months": 3, "workloads": [{"name": "ft", "workload": LORA8, "cadence": {"continuous": "always"}}]}
    err = _said(tmp_path, "plan.yaml", plan, "plan", "plan.yaml")
    assert "workloads[0].cadence.continuous: 'always': continuous is a yes/no, true or false: write true" in err


def test_pydantic_still_reads_its_own_words(tmp_path):
    """'yes', 'off', 'TRUE' quoted stay booleans (pydantic reads them), as before."""
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {**SERVE8, "prefix_cache": "off"}}))
    assert cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path).returncode in (0, 1)


@pytest.mark.parametrize(("text", "gbps"), [("400 Gbps", 400), ("200Gb/s", 200), ("100 Mbps", 0.1), ("25GbE", 25),
                                            ("50 GB/s", 400), ("1.6 Tbps", 1600), ("400G", 400),
                                            ("infiniband", None), ("400", None)])
def test_link_speed_read(text, gbps):
    """Bits: 100 Mb/s = 0.1 Gb/s, 1.6 Tb/s = 1,600 Gb/s; bytes where the B is a capital: 50 GB/s x 8 = 400 Gb/s."""
    from gpuwise.inputs.units import link_gbps

    assert link_gbps(text) == (pytest.approx(gbps) if gbps is not None else None)


def _prop(network: str) -> dict:
    return {"title": "t", "workload": OFF13, "hardware": {"gpu": "h100", "count": 16, "nodes": 2, "network": network},
            "acquisition": {"mode": "rent"}}


def test_a_network_given_as_its_speed(tmp_path):
    """runtime.yaml's gb_s x 8: ethernet-400, roce-400 and infiniband-400 are 50 GB/s, 400 Gb/s."""
    err = _said(tmp_path, "p.yaml", _prop("400 Gbps"), "audit", "p.yaml")
    assert err.rstrip().endswith("hardware.network: unknown network '400 Gbps' (the networks at 400 Gb/s: "
                                 "ethernet-400, roce-400, infiniband-400)"), err
    err = _said(tmp_path, "r.yaml", {"workload": OFF13, "constraints": {"network": "200Gb/s"}}, "recommend", "r.yaml")
    assert "(the networks at 200 Gb/s: roce-200, infiniband-200, slingshot-200)" in err


def test_a_network_speed_none_runs_at(tmp_path):
    # 1,600 Gb/s: past runtime.yaml's fastest port, infiniband-800 (netdefault60 added it; 800 Gbps now names it)
    err = _said(tmp_path, "p.yaml", _prop("1600 Gbps"), "audit", "p.yaml")
    assert "(no network known runs at 1600 Gb/s; one of ethernet-10 (10 Gb/s), " in err
    assert "infiniband-400 (400 Gb/s)" in err and "infiniband-800 (800 Gb/s)" in err
    err = _said(tmp_path, "q.yaml", _prop("800 Gbps"), "audit", "q.yaml")
    assert err.rstrip().endswith("(the networks at 800 Gb/s: infiniband-800)"), err


def test_a_network_speed_in_chinese(tmp_path):
    err = _said(tmp_path, "p.yaml", _prop("100 Mbps"), "audit", "p.yaml", "--lang", "zh")
    assert "速率为 0.1 Gb/s 的网络：ethernet-0.1" in err


def test_a_name_past_its_length(tmp_path):
    plan = {"horizon_months": 3, "workloads": [{"name": "x" * 5000, "workload": LORA8, "cadence": {"per_month": 1}}]}
    err = _said(tmp_path, "plan.yaml", plan, "plan", "plan.yaml")
    assert err.rstrip().endswith("plan.yaml: workloads[0].name: must have at most 100 characters (5,000 given)"), err
    err = _said(tmp_path, "plan.yaml", plan, "plan", "plan.yaml", "--lang", "zh")
    assert "workloads[0].name: 至多 100 个字符（给出了 5,000 个）" in err
    err = _said(tmp_path, "p.yaml", _prop("n" * 300), "audit", "p.yaml")
    assert "hardware.network: must have at most 50 characters (300 given)" in err


@pytest.mark.parametrize(("field", "given", "meant"), [("kv_precision", "8 bit", "fp8"),
                                                       ("kv_precision", "8-bit", "fp8"), ("precision", "8-bit", None),
                                                       ("kv_precision", "16 bits", None)])
def test_a_precision_given_as_its_width(tmp_path, field, given, meant):
    """kv_precision's one 8-bit choice is fp8; precision has two (fp8, int8), kv_precision two of 16 (bf16, fp16)."""
    err = _estimate(tmp_path, {**SERVE8, field: given})
    assert f"workload.{field}: '{given}' is not one of" in err
    assert (f"(did you mean {meant}?)" in err) if meant else "did you mean" not in err


def _import(tmp_path, csv: str, *more: str):
    (tmp_path / "c.csv").write_text(csv, encoding="utf-8")
    r = cli(*IMPORT, *more, cwd=tmp_path)
    assert "Traceback" not in r.stderr
    return r, r.stdout + r.stderr


@pytest.mark.parametrize(("header", "cell", "said"), [
    ("gpu,gpus,price", "H100,8,$2.50/h", "price '$2.50/h' is not a number: write 2.5"),
    ("gpu,gpus,price", "H100,8,2.50 USD/hr", "price '2.50 USD/hr' is not a number: write 2.5"),
    ("gpu,gpus,price,spot_price", "H100,8,2.5,$1.10 per hour",
     "spot_price '$1.10 per hour' is not a number: write 1.1"),
    ("gpu,gpus,price,gpu_memory", "H100,8,2.5,80GB", "gpu_memory '80GB' is not a number: write 80"),
    ("gpu,gpus,price", "H100,8x,2.5", "gpu count '8x' is not a number: write 8"),
    ("gpu,gpus,price,currency", "H100,8,¥15/h,CNY", "price '¥15/h' is not a number: write 15"),
])
def test_a_price_csv_cell_with_its_unit(tmp_path, header, cell, said):
    r, out = _import(tmp_path, f"{header}\n{cell}\n")
    assert r.returncode == 2 and f"line 2: H100: {said}\n" in out, out


def test_a_price_in_another_currency_is_not_offered(tmp_path):
    """'¥15/h' in a row priced in USD (the default): 15 is no number of dollars (planleft59: the refusal names the
    currency given and the row's, tests/test_planleft59.py)."""
    r, out = _import(tmp_path, "gpu,gpus,price\nH100,8,¥15/h\n")
    assert r.returncode == 2 and "price '¥15/h' is in CNY, and this row's prices are in USD" in out, out
    assert "write 15" not in out


def test_host_ram_with_its_unit_in_a_price_csv(tmp_path):
    """2 TB = 2,000 GB; the offer is kept, its host RAM not read."""
    r, out = _import(tmp_path, "gpu,gpus,price,host_ram_gb\nH100,8,2.5,2 TB\n")
    assert r.returncode == 0 and "host_ram_gb '2 TB' is not a number: write 2000 (host RAM not read)" in out, out


def test_a_price_csv_cell_with_its_unit_in_chinese(tmp_path):
    _, out = _import(tmp_path, "gpu,gpus,price\nH100,8,$2.50/h\n", "--lang", "zh")
    assert "price '$2.50/h' 不是数字：请写作 2.5" in out, out
