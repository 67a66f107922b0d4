"""The external contract read as a script reads it (contract63): each command run on the bundled examples
and on edge inputs, its JSON parsed, and the contract's key names, types, units, value sets, nesting and exit
codes compared with what it says. The contract's own words are quoted beside each test; the statements other
files already test (tests/test_cli.py, test_ledger.py, test_house_rules.py, test_names.py, test_plan.py) are
not repeated here."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.clirun import gpuwise

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
REQUIREMENTS = sorted(p for p in EX.glob("*.yaml") if not p.name.startswith(("proposal-", "plan-")))
PROPOSALS = sorted(EX.glob("proposal-*.yaml"))

# the contract's value sets, as it writes them
SEVERITIES = {"blocker", "warning", "info"}
TOPICS = {"memory", "compute", "interconnect", "cost", "compatibility", "used-hardware", "cloud-fees",
          "power-cooling", "licensing", "data-freshness"}
LINE_KINDS = {"rent", "capex", "server", "network", "hosting", "power", "licence", "fee", "setup", "resale"}
PERIOD_KINDS = {"job", "commitment", "project"}
FINDING_KEYS = {"rule", "severity", "topic", "message", "evidence", "fix", "source"}
TRACE_KEYS = {"rule", "step", "conclusion", "facts", "source"}


def _json(*args: str, cwd: Path = ROOT, codes: tuple[int, ...] = (0,)) -> dict:
    r = gpuwise(*args, "--format", "json", cwd=cwd)
    assert r.returncode in codes, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def recommended() -> dict[str, dict]:
    return {p.stem: _json("recommend", str(p), codes=(0, 1)) for p in REQUIREMENTS}


@pytest.fixture(scope="module")
def audited() -> dict[str, tuple[int, dict]]:
    out = {}
    for p in PROPOSALS:
        r = gpuwise("audit", str(p), "--format", "json")
        out[p.stem] = (r.returncode, json.loads(r.stdout))
    return out


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _configurations(doc: dict) -> list[tuple[str, dict]]:
    """'Every configuration object in JSON (recommendation, runner_up, each of alternatives and candidates, an
    audit's proposed and alternative)'."""
    out = [(k, doc[k]) for k in ("recommendation", "runner_up", "proposed", "alternative") if doc.get(k)]
    out += [(f"alternatives[{i}]", c) for i, c in enumerate(doc.get("alternatives") or [])]
    out += [(f"candidates[{i}]", c) for i, c in enumerate(doc.get("candidates") or [])]
    return out


def _check_finding(f: dict) -> None:
    assert set(f) >= FINDING_KEYS, f
    assert f["severity"] in SEVERITIES and f["topic"] in TOPICS, (f["rule"], f["severity"], f["topic"])
    assert isinstance(f["evidence"], dict)
    for k in ("rule", "message", "fix", "source"):
        assert isinstance(f[k], str), (f["rule"], k)


# ------------------------------------------------------------------------------------------ recommend
def test_recommend_json_types_as_a_script_reads_them(recommended):
    """`recommendation`: gpu, count, nodes, acquisition, wall_days, total_cost_usd, summary; `candidates`: gpu,
    count, feasible, rank, memory_per_gpu_bytes, wall_days, total_cost_usd, reasons; money in USD."""
    for name, d in recommended.items():
        rec = d["recommendation"]
        assert rec is not None, name  # every bundled requirements file has an answer
        assert isinstance(rec["gpu"], str) and isinstance(rec["count"], int) and isinstance(rec["nodes"], int)
        assert rec["acquisition"] in {"rent", "buy"} and isinstance(rec["summary"], str) and rec["summary"]
        assert _number(rec["total_cost_usd"]) and rec["total_cost_usd"] > 0
        assert rec["wall_days"] is None or _number(rec["wall_days"])
        ranked = sorted((c for c in d["candidates"] if c["rank"] is not None), key=lambda c: c["rank"])
        assert [c["rank"] for c in ranked] == list(range(1, len(ranked) + 1)), name  # 1, 2, 3 ... no gap
        assert all(c["feasible"] for c in ranked)
        top = ranked[0]
        assert (top["gpu"], top["count"], top["total_cost_usd"]) == (rec["gpu"], rec["count"], rec["total_cost_usd"])
        for c in d["candidates"]:
            assert isinstance(c["gpu"], str) and isinstance(c["count"], int) and isinstance(c["feasible"], bool)
            assert isinstance(c["memory_per_gpu_bytes"], int)
            assert isinstance(c["reasons"], list) and all(isinstance(x, str) for x in c["reasons"])
            assert c["feasible"] or c["reasons"], (name, c["gpu"], c["count"])  # a rejection says why


def test_findings_and_trace_of_every_recommendation_are_the_contracts_shape(recommended):
    """FINDING: rule, severity (blocker | warning | info), topic (one of ten), message, evidence {}, fix,
    source; trace: rule, step, conclusion, facts {}, source."""
    for d in recommended.values():
        for f in d["findings"]:
            _check_finding(f)
        assert d["trace"]
        for t in d["trace"]:
            assert set(t) >= TRACE_KEYS and isinstance(t["facts"], dict)
            assert t["step"] in {"memory", "compute", "interconnect", "tco", "pitfalls"}, t


def test_every_priced_configuration_carries_the_version_3_ledger_and_timeline(recommended, audited):
    """`ledger`: currency, period {kind: job|commitment|project, hours, months}, lines [{kind, item, amount,
    formula, inputs {}}], total, cash_out, net; `timeline`: wall_hours, billed_hours, gpu_hours, parts
    [{name, hours}]. A candidate gpuwise never priced (rejected before the cost step, or no price) carries
    ``ledger: null`` with ``total_cost_usd: null`` (a decision the report lists)."""
    docs = list(recommended.values()) + [d for _, d in audited.values()]
    priced = 0
    for d in docs:
        for where, c in _configurations(d):
            assert "ledger" in c and "timeline" in c, where
            tl = c["timeline"]
            assert tl is not None and {"wall_hours", "billed_hours", "gpu_hours", "parts"} <= set(tl), where
            assert all(set(p) >= {"name", "hours"} and _number(p["hours"]) for p in tl["parts"])
            led = c["ledger"]
            if led is None:
                assert c["total_cost_usd"] is None and not where.startswith(("recommendation", "runner_up")), where
                continue
            priced += 1
            assert {"currency", "period", "lines", "total", "cash_out", "net"} <= set(led)
            assert led["currency"] == "USD"  # JSON money is in USD
            assert led["period"]["kind"] in PERIOD_KINDS and _number(led["period"]["hours"])
            assert _number(led["period"]["months"])
            for line in led["lines"]:
                assert {"kind", "item", "amount", "formula", "inputs"} <= set(line)
                assert line["kind"] in LINE_KINDS, line
                assert isinstance(line["item"], str) and isinstance(line["formula"], str)
                assert _number(line["amount"]) and isinstance(line["inputs"], dict)
            assert all(_number(led[k]) for k in ("total", "cash_out", "net"))
    assert priced > 50


# ------------------------------------------------------------------------------------------ audit
def test_audit_verdict_and_exit_status_follow_the_findings(audited):
    """`verdict` is `reject` when any blocker is found, `revise` when only warnings, else `approve`; exit 1
    when `audit` found at least one blocker, else 0."""
    seen = set()
    for name, (code, d) in audited.items():
        severities = {f["severity"] for f in d["findings"]}
        want = "reject" if "blocker" in severities else "revise" if "warning" in severities else "approve"
        assert d["verdict"] == want, name
        assert code == (1 if want == "reject" else 0), name
        seen.add(want)
        for f in d["findings"]:
            _check_finding(f)
        alt = d["alternative"]
        assert alt is None or {"gpu", "count", "feasible", "rank", "memory_per_gpu_bytes", "wall_days",
                               "total_cost_usd", "reasons"} <= set(alt)  # { CANDIDATE or null }
    assert {"approve", "reject"} <= seen


def test_audit_revise_exits_0(tmp_path):
    """A proposal with warnings and no blocker: `revise`, exit 0 (exit 1 is for a blocker only). The good
    LoRA proposal on 8 x H100 approved; bought in place of rented for a 3-day job it draws the warning that
    bought GPUs stand idle (TCO-BOUGHT-IDLE) and no blocker."""
    doc = yaml.safe_load((EX / "proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8"))
    doc["acquisition"] = {"mode": "buy", "condition": "new", "unit_price_usd": 30000}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    severities = {f["severity"] for f in d["findings"]}
    assert "blocker" not in severities and "warning" in severities, sorted(severities)
    assert d["verdict"] == "revise" and r.returncode == 0


# ------------------------------------------------------------------------------------------ estimate
def _walk_bytes(x: Any, path: str = "") -> list[str]:
    """Every '..._bytes' figure that is not an integer, outside a formula's inputs (a formula term's own
    inputs -- bytes per parameter, 0.5 for int4 -- are the formula's numbers, not byte figures)."""
    bad = []
    if isinstance(x, dict):
        for k, v in x.items():
            if k == "inputs":
                continue
            if k.endswith("bytes") and v is not None and not isinstance(v, (int, dict, list)):
                bad.append(f"{path}.{k}={v!r}")
            bad += _walk_bytes(v, f"{path}.{k}")
    elif isinstance(x, list):
        for v in x:
            bad += _walk_bytes(v, path + "[]")
    return bad


@pytest.mark.parametrize("args", [
    ("finetune-full-13b.yaml", "--gpu", "H100-80G", "--gpus", "8"),  # ZeRO-3: dp_traffic's bytes
    ("lora-70b.yaml", "--gpu", "A100-80G", "--gpus", "4"),
    ("pretrain-7b.yaml", "--gpu", "H100-80G", "--gpus", "64"),
    ("inference-70b.yaml", "--gpu", "H100-80G", "--gpus", "4"),
])
def test_every_byte_figure_of_an_estimate_is_an_integer(args):
    """'All byte figures are integers in bytes': gpu.training.requested_memory_per_gpu_bytes and the ZeRO-3
    traffic's weight_bytes / gradient_bytes / bytes_per_gpu were floats (70,311,299,584.0)."""
    d = _json("estimate", str(EX / args[0]), *args[1:])
    assert _walk_bytes(d) == []
    if args[0] == "finetune-full-13b.yaml":
        tr = d["gpu"]["training"]
        assert isinstance(tr["requested_memory_per_gpu_bytes"], int)
        assert isinstance(tr["dp_traffic"]["weight_bytes"], int) and tr["dp_traffic"]["weight_bytes"] > 0


def test_every_byte_figure_of_a_recommendation_and_an_audit_is_an_integer(recommended, audited):
    docs = {**recommended, **{k: d for k, (_, d) in audited.items()}}
    assert {k: _walk_bytes(d) for k, d in docs.items() if _walk_bytes(d)} == {}


@pytest.mark.parametrize("field", ["zero_stage", "gradient_checkpointing"])
def test_a_setting_given_as_auto_is_listed_as_an_assumption(tmp_path, field):
    """Version 2: 'Absent or `auto` means gpuwise chooses and lists the choice as an assumption.' Absent was
    listed; `zero_stage: auto` or `gradient_checkpointing: auto` written in the file was not (examples/
    pretrain-7b.yaml writes both)."""
    for given in ({field: "auto"}, {}):
        w = {"task": "finetune", "model": "llama-3.1-70b", **given}
        (tmp_path / "q.yaml").write_text(yaml.safe_dump({"workload": w}), encoding="utf-8")
        d = _json("estimate", "q.yaml", "--gpu", "H100-80G", "--gpus", "8", cwd=tmp_path)
        said = [a for a in d["assumptions"] if a["field"] == f"workload.{field}"]
        assert len(said) == 1 and said[0]["value"] == "auto", (given, said)
        assert "gpuwise" in said[0]["reason"]
    d = _json("estimate", str(EX / "pretrain-7b.yaml"), "--gpu", "H100-80G", "--gpus", "64")
    assert {"workload.zero_stage", "workload.gradient_checkpointing"} <= {a["field"] for a in d["assumptions"]}


def test_a_setting_given_explicitly_is_not_an_assumption(tmp_path):
    """'a field given in the file (`zero_stage`, `offload`, `gradient_checkpointing` ...) is never replaced':
    given as 0 / false / none it is the user's, and `fits_as_requested` says whether it fits as stated."""
    w = {"task": "finetune", "model": "llama-3.1-70b", "zero_stage": 0, "gradient_checkpointing": False,
         "offload": "none"}
    (tmp_path / "q.yaml").write_text(yaml.safe_dump({"workload": w}), encoding="utf-8")
    d = _json("estimate", "q.yaml", "--gpu", "H100-80G", "--gpus", "8", cwd=tmp_path)
    fields = {a["field"] for a in d["assumptions"]}
    assert not {"workload.zero_stage", "workload.gradient_checkpointing", "workload.offload"} & fields
    g = d["gpu"]
    # 70B with fp32 master weights and AdamW: 16 B a parameter = 1.12 TB, 140 GB a GPU over 8 without ZeRO
    assert g["fits_as_requested"] is False and isinstance(g["fits"], bool) and isinstance(g["strategy"], str)
    req = g["training"]["requested_layout"]
    assert (req["zero"], req["checkpointing"], req["offload"]) == (0, False, "none")


@pytest.mark.parametrize("w,gpus", [
    ({"task": "pretrain", "model": "mixtral-8x7b", "train_tokens": 1e9}, 16),  # expert parallel
    ({"task": "pretrain", "model": "llama-3.1-405b", "train_tokens": 1e9}, 256),  # pipeline
    ({"task": "finetune", "model": "llama-2-7b", "parallelism": {"cp": 2}, "seq_len": 32768}, 8),  # context
    ({"task": "finetune", "model": "llama-2-7b", "parallelism": {"tp": 2, "pp": 2}}, 8),
    ({"task": "finetune", "model": "llama-2-7b"}, 6),
])
def test_tp_pp_dp_is_the_gpu_count(tmp_path, w, gpus):
    """'`tp × pp × dp` equals the GPU count (expert parallelism is carved out of data parallelism)'; the
    layout's keys: tp, pp, dp, ep, micro_batch, grad_accum, global_batch_tokens; and scaling_efficiency."""
    (tmp_path / "q.yaml").write_text(yaml.safe_dump({"workload": w}), encoding="utf-8")
    g = _json("estimate", "q.yaml", "--gpu", "H100-80G", "--gpus", str(gpus), cwd=tmp_path)["gpu"]
    lay = g["layout"]
    assert {"tp", "pp", "dp", "ep", "micro_batch", "grad_accum", "global_batch_tokens"} <= set(lay)
    assert all(isinstance(lay[k], int) for k in ("tp", "pp", "dp", "ep", "micro_batch", "grad_accum"))
    assert lay["tp"] * lay["pp"] * lay["dp"] == g["count"] == gpus
    assert lay["dp"] % lay["ep"] == 0  # carved out of data parallelism
    assert _number(g["scaling_efficiency"]) and 0 < g["scaling_efficiency"] <= 1
    assert isinstance(g["fits_as_requested"], bool) and isinstance(g["strategy"], str)


def test_an_inference_estimate_has_the_serving_keys_and_one_sequences_speed():
    """Version 2 serving keys; 'decode_tokens_per_s stays one sequence's speed'; version 3:
    per_sequence_tokens_per_s = 1 / tpot_s at the stated load; gpu_hours / wall_hours are for training."""
    g = _json("estimate", str(EX / "inference-70b.yaml"), "--gpu", "H100-80G", "--gpus", "4")["gpu"]
    s = g["serving"]
    assert isinstance(s["max_concurrent_sequences"], int)
    for k in ("throughput_tokens_per_s", "max_throughput_tokens_per_s", "ttft_s", "tpot_s"):
        assert _number(s[k]) and s[k] > 0
    assert s["per_sequence_tokens_per_s"] == pytest.approx(1 / s["tpot_s"], rel=1e-9)
    assert g["decode_tokens_per_s"] == pytest.approx(s["per_sequence_tokens_per_s"], rel=1e-9)
    # the system's output at the stated load is the sequences decoded together times one sequence's speed
    assert s["throughput_tokens_per_s"] <= s["max_throughput_tokens_per_s"]
    assert g["gpu_hours"] is None and g["wall_hours"] is None and _number(g["cost_usd"])


# ------------------------------------------------------------------------------------------ inputs
CONTRACT_VALUES = [  # every value the contract's requirements file lists for a field (v1 and v2)
    *[("task", v) for v in ("pretrain", "finetune", "inference")],
    *[("method", v) for v in ("full", "lora", "qlora")],
    *[("lora_targets", v) for v in ("all-linear", "attention", "qv")],
    *[("precision", v) for v in ("fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4")],
    *[("optimizer", v) for v in ("adamw", "adamw-fused", "adamw-8bit", "sgd", "adafactor")],
    *[("gradient_checkpointing", v) for v in (True, False, "auto")],
    *[("attention", v) for v in ("sdpa", "flash", "eager")],
    *[("zero_stage", v) for v in (0, 1, 2, 3, "auto")],
    *[("offload", v) for v in ("none", "cpu", "nvme")],
    *[("global_batch_tokens", v) for v in ("auto", 4194304)],
    *[("framework", v) for v in ("vllm", "sglang", "tensorrt-llm", "llama.cpp", "exllama", "mlc", "transformers")],
    *[("currency", v) for v in ("USD", "CNY")],
    *[("hosting", v) for v in ("office", "colocation", "datacenter")],
    *[("acquisition", v) for v in ("rent", "buy", "either")],
]
SERVING_ONLY = {"framework"}
TRAINING_ONLY = {"method", "lora_targets", "optimizer", "gradient_checkpointing", "zero_stage", "offload",
                 "global_batch_tokens"}
CONSTRAINTS = {"currency", "hosting", "acquisition"}


@pytest.mark.parametrize("field,value", CONTRACT_VALUES, ids=lambda v: str(v))
def test_every_value_the_contract_lists_is_read(tmp_path, field, value):
    if field == "task":
        task = value
    else:
        task = "inference" if field in SERVING_ONLY or (field == "precision" and value in ("int8", "int4", "fp4")) \
            else "finetune"
    w: dict[str, Any] = {"task": task, "model": "llama-2-7b"}
    doc: dict[str, Any] = {"workload": w}
    if field in CONSTRAINTS:
        doc["constraints"] = {field: value}
    elif field != "task":
        w[field] = value
        if field == "lora_targets":
            w["method"] = "lora"
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("estimate", "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["memory"]["per_gpu_bytes"] > 0


def test_the_contracts_proposal_example_is_read_as_written(tmp_path):
    """The contract's proposal block, field for field (the nvidia-smi report at its relative path)."""
    (tmp_path / "path" / "to").mkdir(parents=True)
    (tmp_path / "path" / "to" / "nvidia-smi-q.xml").write_bytes((EX / "nvidia-smi" / "rtx3080-like-healthy.xml")
                                                                  .read_bytes())
    doc = yaml.safe_load("""
title: "Fine-tuning cluster, Q3"
workload: {task: finetune, method: lora, model: llama-2-7b}
hardware: {gpu: rtx-3090, count: 8, nodes: 1, link: pcie-4, network: null, host_ram_gb: 512}
acquisition: {mode: buy, condition: new, unit_price_usd: 1500, hourly_usd: null, spot: false, provider: null,
              instance: null, months: 6}
used_cards:
  - serial: "..."
    manufactured: 2020-11
    purchased: 2023-05
    nvidia_smi: path/to/nvidia-smi-q.xml
    fan_speed_percent: [30, 85, 40, 90]
    power_under_load_w: [350, 210, 360, 205]
cloud: {egress_tb_per_month: 0, cross_region_tb_per_month: 0, storage: {kind: premium-ssd, tb: 0}}
facility: {power_kw_available: null, rack_units: null}
""")
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert d["verdict"] in {"approve", "revise", "reject"}
    assert any(f["topic"] == "used-hardware" for f in d["findings"])  # the used card's report was read


@pytest.mark.parametrize("link", ["nvlink", "nvswitch", "pcie-3", "pcie-4", "pcie-5"])
def test_every_link_the_contract_lists_is_read(tmp_path, link):
    doc = yaml.safe_load((EX / "proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8"))
    doc["hardware"]["link"] = link
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr


@pytest.mark.parametrize("section", ["title: x\nbogus: 1", "hardware: {gpu: h100, count: 8, bogus: 1}",
                                     "acquisition: {mode: rent, bogus: 1}", "cloud: {bogus: 1}",
                                     "facility: {bogus: 1}"])
def test_an_unknown_key_of_a_proposal_is_exit_2_naming_it(tmp_path, section):
    """'Unknown keys are an input error (exit 2), not silently ignored' -- in a proposal's sections too."""
    base = {"title": "t", "workload": {"task": "finetune", "method": "lora", "model": "llama-2-7b"},
            "hardware": {"gpu": "h100", "count": 8}, "acquisition": {"mode": "rent"}}
    base.update(yaml.safe_load(section))
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(base), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "-o", "out.json", cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "p.yaml" in lines[0] and "bogus" in lines[0], r.stderr
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("name,gpu_id", [
    ("A100-80G", "a100-80gb-sxm"), ("A100 80GB", "a100-80gb-sxm"), ("a100-80gb-sxm", "a100-80gb-sxm"),
    ("H100-80G", "h100-80gb-sxm"), ("RTX 4090", "rtx-4090"), ("4090", "rtx-4090"), ("A10G", "a10g"),
    ("P100", "p100-16gb-sxm2"), ("V100", "v100-16gb-sxm2"),
])
def test_the_contracts_gpu_names_resolve_on_the_command_line(name, gpu_id):
    """'`A100-80G`, `A100 80GB`, `a100-80gb-sxm` and `H100-80G`, `RTX 4090`, `4090`, `A10G`, `P100`, `V100`
    must all resolve' (P100 and V100: the SXM2 modules, the parts the name without a form factor means,
    docs/names.md)."""
    g = _json("estimate", str(EX / "inference-8b-int4.yaml"), "--gpu", name)["gpu"]
    assert g["id"] == gpu_id


def test_an_ambiguous_gpu_lists_the_choices_in_one_line():
    r = gpuwise("estimate", str(EX / "inference-8b-int4.yaml"), "--gpu", "A100")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1
    for choice in ("a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm"):
        assert choice in lines[0]


# ------------------------------------------------------------------------------------------ -o and exits
@pytest.mark.parametrize("command,path", [("recommend", "lora-70b.yaml"),
                                          ("audit", "proposal-good-lora-8xh100.yaml"),
                                          ("plan", "plan-team-4090.yaml")])
def test_an_unknown_o_suffix_is_exit_2_and_writes_nothing(tmp_path, command, path):
    """Version 3: 'An unknown `-o` suffix is exit 2'; with `--format` given the suffix is not read."""
    r = gpuwise(command, str(EX / path), "-o", "out.xyz", cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "out.xyz" in lines[0] and ".xyz" in lines[0]
    assert list(tmp_path.iterdir()) == []
    if command == "recommend":
        r = gpuwise(command, str(EX / path), "-o", "out.xyz", "--format", "json", cwd=tmp_path)
        assert r.returncode == 0 and json.loads((tmp_path / "out.xyz").read_text())["recommendation"]


@pytest.mark.parametrize("suffix,starts", [(".json", "{"), (".md", "#"), (".html", "<!doctype html>")])
def test_o_picks_the_format_from_the_suffix_even_with_nothing_feasible(tmp_path, suffix, starts):
    """'1 ... `recommend` found no feasible option (the report still says why)': exit 1, the report written
    whole in the suffix's format."""
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-405b}\n"
                                     "constraints: {gpus: [RTX 4090], max_gpus: 2}\n", encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "-o", "out" + suffix, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    text = (tmp_path / ("out" + suffix)).read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith(starts)
    if suffix == ".json":
        d = json.loads(text)
        assert d["recommendation"] is None and all(not c["feasible"] and c["reasons"] for c in d["candidates"])
    else:
        assert "MEM-NO-FIT" in text


@pytest.mark.parametrize("argv", [("estimate", "lora-70b.yaml", "-o", "e.json"), ("gpus", "--output=g.json"),
                                  ("rules", "-o", "r.json")])
def test_o_on_a_command_without_it_names_the_commands_that_have_it(tmp_path, argv):
    """'Common options: ... `-o FILE`' -- the commands table gives it to ask, recommend, audit and plan alone. A
    script's `estimate x.yaml -o e.json` was 'unrecognized arguments: -o e.json; did you mean json?'."""
    args = [str(EX / a) if a.endswith(".yaml") else a for a in argv]
    r = gpuwise(*args, cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and list(tmp_path.iterdir()) == []
    option = "--output" if argv[1].startswith("--output") else "-o"
    assert lines[0].startswith(f"gpuwise: error: {option} is not an option of `gpuwise {argv[0]}`; commands that "
                               "have it: `gpuwise ask`, `gpuwise recommend`, `gpuwise audit`, `gpuwise plan`"), lines
    assert "did you mean" not in lines[0]
    zh = gpuwise(*args, "--lang", "zh", cwd=tmp_path)
    assert f"{option} 不是 `gpuwise {argv[0]}` 的选项" in zh.stderr


def test_a_bad_plan_with_o_is_one_line_and_no_file(tmp_path):
    (tmp_path / "p.yaml").write_text("horizon_months: 12\nowned: [{gpu: RTX 4900, count: 2}]\n"
                                     "workloads: [{name: a, workload: {task: inference, model: llama-3.1-8b}, "
                                     "cadence: {continuous: true}}]\n", encoding="utf-8")
    r = gpuwise("plan", "p.yaml", "-o", "out.html", cwd=tmp_path)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "p.yaml" in lines[0] and "did you mean rtx-4090" in lines[0]
    assert not (tmp_path / "out.html").exists() and "Traceback" not in r.stderr


# ------------------------------------------------------------------------------------------ house rules
REPLACING = """schema_version: 1
ruleset: house
step: compute
rules:
  - id: CMP-NO-ECC-LONG-RUN
    title: No ECC on any run longer than a day
    fact: candidate
    when: [[training, "==", true], [ecc, "==", false], [wall_days, ">", 1]]
    then: {action: finding, severity: warning, topic: compute, message: "{gpu_name}: no ECC for {wall_days:.0f} days"}
    rationale: "We checkpoint daily."
    source: "team standard (test)"
"""


@pytest.mark.parametrize("command,path", [("recommend", "lora-70b.yaml"),
                                          ("audit", "proposal-used-3090-mining.yaml"),
                                          ("plan", "plan-team-4090.yaml")])
def test_a_replaced_built_in_rule_is_said_in_every_report(tmp_path, command, path):
    """Version 2: 'a house rule may replace a built-in rule by id, and the output says so'. The JSON's
    `house_rules.replaced` said so; the text, Markdown and HTML reports said nothing of house rules."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "house.yaml").write_text(REPLACING, encoding="utf-8")
    d = _json(command, str(EX / path), "--rules", "rules", cwd=tmp_path, codes=(0, 1))
    assert list(d["house_rules"]["replaced"]) == ["CMP-NO-ECC-LONG-RUN"]
    for fmt in ("text", "md", "html"):
        r = gpuwise(command, str(EX / path), "--rules", "rules", "--format", fmt, cwd=tmp_path)
        flat = " ".join(r.stdout.split())
        assert ("House rules from rules that replace the built-in rule of the same id: CMP-NO-ECC-LONG-RUN."
                in flat), (fmt, r.stderr)
    zh = gpuwise(command, str(EX / path), "--rules", "rules", "--lang", "zh", cwd=tmp_path).stdout
    assert "替换同一编号内置规则的自定义规则：CMP-NO-ECC-LONG-RUN" in "".join(zh.split())


def test_added_house_rules_are_said_in_the_report():
    r = gpuwise("recommend", str(EX / "lora-70b.yaml"), "--rules", str(EX / "house-rules"))
    flat = " ".join(r.stdout.split())
    assert f"House rules from {EX / 'house-rules'} added: HOUSE-CUDA-ONLY, HOUSE-NO-USED." in flat
    plain = gpuwise("recommend", str(EX / "lora-70b.yaml")).stdout
    assert "House rules" not in plain


# ------------------------------------------------------------------------------------------ plan
def test_plan_json_nesting_and_types(tmp_path):
    """Version 3 plan JSON: total, currency, baselines {rent_all, buy_for_peak}, purchases [{month, gpu, count,
    amount}], months [{month, capex, rent, opex, fees, total, utilisation, placements [{workload, gpu, count,
    acquisition: owned | buy | rent}]}], unplaced [{workload, reason}], api [{workload, provider,
    self_host_per_month, api_per_month}], findings, trace. A plan with nothing owned that buys 4090s for a
    year of serving, and a 405B model no 4090 count up to 4 holds (unplaced: exit 1, as docs/formats.md says)."""
    doc = {"horizon_months": 24,
           "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b"},
                          "cadence": {"continuous": True}, "targets": {"requests_per_s": 5}},
                         {"name": "huge", "workload": {"task": "inference", "model": "llama-3.1-405b"},
                          "cadence": {"continuous": True}}],
           "constraints": {"gpus": ["rtx-4090"], "max_gpus": 4}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    d = _json("plan", "p.yaml", cwd=tmp_path, codes=(1,))
    assert _number(d["total"]) and d["currency"] == "USD"
    assert set(d["baselines"]) >= {"rent_all", "buy_for_peak"} and _number(d["baselines"]["rent_all"])
    # buying one type for the peak is no plan where no type carries every workload (the 405B on 4 x 4090s):
    # null, and baseline_details says why (docs/formats.md)
    assert d["baselines"]["buy_for_peak"] is None
    assert {b["name"]: b["why_not"] for b in d["baseline_details"]}["buy_for_peak"] == "no_type"
    assert d["purchases"], "the plan buys"
    for p in d["purchases"]:
        assert isinstance(p["month"], int) and isinstance(p["gpu"], str) and isinstance(p["count"], int)
        assert _number(p["amount"]) and p["amount"] > 0
    assert [m["month"] for m in d["months"]] == list(range(1, 25))
    acquisitions = set()
    for m in d["months"]:
        for k in ("capex", "rent", "opex", "fees", "total", "utilisation"):
            assert _number(m[k]), (m["month"], k)
        for pl in m["placements"]:
            assert {"workload", "gpu", "count", "acquisition"} <= set(pl) and isinstance(pl["count"], int)
            acquisitions.add(pl["acquisition"])
    assert acquisitions <= {"owned", "buy", "rent"} and "buy" in acquisitions
    assert [u["workload"] for u in d["unplaced"]] == ["huge"] and isinstance(d["unplaced"][0]["reason"], str)
    for a in d["api"]:
        assert isinstance(a["workload"], str) and isinstance(a["provider"], str)
        assert _number(a["self_host_per_month"]) and _number(a["api_per_month"])
    for f in d["findings"]:
        _check_finding(f)
    assert all(set(t) >= TRACE_KEYS for t in d["trace"])
    # the months' totals are the plan's total
    assert sum(m["total"] for m in d["months"]) == pytest.approx(d["total"], rel=1e-9)


def test_a_plan_owned_gpus_are_placed_as_owned():
    d = _json("plan", str(EX / "plan-team-4090.yaml"))
    assert "owned" in {pl["acquisition"] for m in d["months"] for pl in m["placements"]}


# ------------------------------------------------------------------------------------------ prices, API
def test_every_listed_price_has_its_date_source_and_age():
    """'`gpuwise prices` lists every price with `as_of`, `source` and its age'."""
    d = _json("prices")
    assert d["prices"]
    for p in d["prices"]:
        assert isinstance(p["as_of"], str) and len(p["as_of"]) == 10 and p["source"]
        assert isinstance(p["age_days"], int) and p["age_days"] >= 0
    d = _json("prices", "--gpu", "RTX 4090", "--provider", "runpod")
    assert d["prices"] and {p["gpu"] for p in d["prices"]} == {"rtx-4090"}
    assert {p["provider"] for p in d["prices"]} == {"runpod"}


def test_the_python_api_returns_the_commands_json():
    """Version 3: '`import gpuwise` gives `recommend`, `audit`, `estimate` and `plan`, each taking the same dict
    a YAML file holds and returning a typed result with `.model_dump(mode="json")`' -- the command's JSON."""
    import gpuwise as api

    cases = [(api.recommend, "lora-70b.yaml", ("recommend",), {}),
             (api.estimate, "lora-70b.yaml", ("estimate", "--gpu", "h100-80gb-sxm", "--gpus", "8"),
              {"gpu": "h100-80gb-sxm", "gpus": 8}),
             (api.plan, "plan-team-4090.yaml", ("plan",), {}),
             (api.audit, "proposal-good-lora-8xh100.yaml", ("audit",), {})]
    for fn, name, args, kw in cases:
        doc = yaml.safe_load((EX / name).read_text(encoding="utf-8"))
        got = json.loads(json.dumps(fn(doc, **kw).model_dump(mode="json")))
        cli = _json(args[0], str(EX / name), *args[1:])
        if fn is api.audit:  # the file's name: the dict has none
            got.pop("file"), cli.pop("file")
        assert got == cli, name
