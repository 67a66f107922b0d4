# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fourteen of the hostile corpus (issue 26 items 5 and 6): kinds rounds one to thirteen did
not try -- a seller's report in the T.Limit form of Ada and later drivers with its memory hot or
not, an HBM2e report with and without its own limit, units nvidia-smi never writes (kelvin,
milliwatts, GiB, MB), numbers as C, hex floats and exponents inside a report, other tools' output
(rocm-smi, xpu-smi, gpustat, ``nvidia-smi -L``, dcgmi), a report cut inside a multi-byte character,
GPUs duplicated and missing in one report; overlays setting a throttle point for a memory type
(any type, a type no GPU has, out of range, as an exponent, trying to widen the bounds, with a
GPU of a new memory type); decimal digits of other scripts (Arabic-Indic, Devanagari), vulgar
fractions, superscripts and hex floats in number fields and options; environment versions as
YAML numbers (``cuda: 12.1``, ``driver: 537.70``, ``os: ''``); names with right-to-left
overrides, combining marks, zero-width joiners and confusable hyphens in requirements, proposals,
house rules and overlays; output paths through a symlinked folder, doubled slashes, a parent that
is a file, a read-only folder, a dangling link; a cache entry that links to an input; a file
changed between two runs with its size and time kept; Python's own switches (``-OO``,
``PYTHONWARNINGS=error``); pipes closed by ``gpuwise explain``/``rules``/``--help`` readers; and
Ctrl-C the moment the ``gpuwise`` command (pyproject's entry point) has imported its package.
Added to benchmarks/hostile_corpus.py's table by :func:`add`; the special runs are
:func:`run_mode`. The failures fixed are kept as tests in tests/test_hostile_fourteenth.py."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused
from benchmarks.hostile_round13 import _finds

MODES = ("EARLY", "TWICE", "OO")
ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "nvidia_smi"


def _file(r, name: str) -> str:
    p = Path(r.cwd, name)
    return p.read_text(encoding="utf-8", errors="replace") if p.is_file() else ""


def _kept(name: str, text: str):
    """Answered or refused in one line, and ``name`` still holds ``text``."""
    return lambda r: _any(r) and _file(r, name) == text


def _no_file(name: str):
    """Refused in one line and nothing written at ``name``."""
    return lambda r: r.returncode == 2 and _one(r) and not os.path.lexists(os.path.join(r.cwd, name))


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, _csv, patched, smi, _wl, prop, plan, _reject = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]
    r4090 = (DATA / "netdata_rtx-4090-driver-535.xml").read_text()
    a100 = (DATA / "telegraf_a100-sxm4-v12.xml").read_text()
    used_4090 = USED.replace("rtx-3090", "rtx-4090")
    used_a100 = USED.replace("rtx-3090", "a100-80gb-sxm")
    J, H = "USED-MEMORY-JUNCTION-HOT", "USED-MEMORY-HOT"

    def sub(text: str, old: str, new: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)

    def tl(mem: str, margin: str = "0 C") -> str:  # the RTX 4090 report, its memory given and a T.Limit memory margin
        out = sub(r4090, "<memory_temp>N/A</memory_temp>", f"<memory_temp>{mem}</memory_temp>")
        return sub(out, "<gpu_temp_max_mem_tlimit_threshold>N/A", f"<gpu_temp_max_mem_tlimit_threshold>{margin}")

    def hbm(mem: str, limit: str = "95 C") -> str:
        out = sub(a100, "<memory_temp>44 C</memory_temp>", f"<memory_temp>{mem}</memory_temp>")
        return sub(out, "<gpu_temp_max_mem_threshold>95 C", f"<gpu_temp_max_mem_threshold>{limit}")

    def mem(temp: str) -> str:
        return sub(SMI, "<memory_temp>86 C</memory_temp>", f"<memory_temp>{temp}</memory_temp>")

    # ------------------------------------------------------------ item 6: T.Limit form, HBM2e, the type's point
    for name, files, rule, want in [
        ("smi14: RTX 4090 T.Limit form, memory 104 C: GDDR6X's point", {"p.yaml": used_4090, "r.xml": tl("104 C")}, J, True),
        ("smi14: RTX 4090 T.Limit form, memory 95 C: not 'over 83 C'", {"p.yaml": used_4090, "r.xml": tl("95 C")}, H, False),
        ("smi14: RTX 4090 T.Limit form, memory 95 C: below 0.9 x 110", {"p.yaml": used_4090, "r.xml": tl("95 C")}, J, False),
        ("smi14: RTX 4090 T.Limit form, memory margin -5 C, memory 100 C", {"p.yaml": used_4090, "r.xml": tl("100 C", "-5 C")}, J, True),
        ("smi14: A100 own limit lost, HBM2e at 88 C", {"p.yaml": used_a100, "r.xml": hbm("88 C", "N/A")}, J, True),
        ("smi14: A100 own limit lost, HBM2e at 84 C", {"p.yaml": used_a100, "r.xml": hbm("84 C", "N/A")}, J, False),
        ("smi14: A100 own limit 95 C, HBM2e at 88 C: own limit wins", {"p.yaml": used_a100, "r.xml": hbm("88 C")}, J, False),
        ("smi14: A100 own limit 95 C, HBM2e at 96 C", {"p.yaml": used_a100, "r.xml": hbm("96 C")}, H, True),
        ("smi14: A100 own limit 90 C (a board's own), HBM2e at 91 C", {"p.yaml": used_a100, "r.xml": hbm("91 C", "90 C")}, H, True),
    ]:
        case(name, files, aud, expect="any", check=_finds(rule, want))
    case("smi14: T.Limit memory margin 'abc' (a word: unknown)", {"p.yaml": used_4090, "r.xml": tl("90 C", "abc")}, ["audit", "p.yaml"], expect="any", check=_ok)
    case("smi14: T.Limit memory margin 1e2 C", {"p.yaml": used_4090, "r.xml": tl("90 C", "1e2 C")}, ["audit", "p.yaml"], expect="any", check=_refused("r.xml"))

    # ------------------------------------------------------------ units and number forms nvidia-smi never writes
    for name, old, new, check in [
        ("smi14: memory_temp in kelvin", "<memory_temp>86 C", "<memory_temp>359 K", _refused("r.xml", "memory_temp")),
        ("smi14: memory_temp '+86 C'", "<memory_temp>86 C", "<memory_temp>+86 C", _any),
        ("smi14: memory_temp '86°C' (no space)", "<memory_temp>86 C", "<memory_temp>86°C", _any),
        ("smi14: memory_temp '8.6e1 C'", "<memory_temp>86 C", "<memory_temp>8.6e1 C", _refused("r.xml", "memory_temp")),
        ("smi14: memory_temp '0x56 C'", "<memory_temp>86 C", "<memory_temp>0x56 C", _refused("r.xml", "memory_temp")),
        ("smi14: memory_temp 'nan C' (a word: unknown)", "<memory_temp>86 C", "<memory_temp>nan C", _finds(J, False)),
        ("smi14: memory_temp 'inf C' (a word: unknown)", "<memory_temp>86 C", "<memory_temp>inf C", _finds(J, False)),
        ("smi14: memory_temp Arabic-Indic ٨٦ C", "<memory_temp>86 C", "<memory_temp>٨٦ C", _refused("r.xml", "memory_temp")),
        ("smi14: gpu_temp with newlines around", "<gpu_temp>74 C", "<gpu_temp>\n\t74 C\n", _any),
        ("smi14: fb total in GiB", "<total>24576 MiB", "<total>24 GiB", _any),
        ("smi14: fb total in MB", "<total>24576 MiB", "<total>24576 MB", _any),
        ("smi14: fb total 10^20 MiB", "<total>24576 MiB", "<total>100000000000000000000 MiB", _refused("r.xml")),
        ("smi14: fb total 0 MiB", "<total>24576 MiB", "<total>0 MiB", _any),
        ("smi14: fb total -24576 MiB", "<total>24576 MiB", "<total>-24576 MiB", _refused("r.xml")),
        ("smi14: power in milliwatts", "<instant_power_draw>142.33 W", "<instant_power_draw>142330 mW", _any),
        ("smi14: power 1e-320 W", "<instant_power_draw>142.33 W", "<instant_power_draw>1e-320 W", _any),
        ("smi14: serial 'N/A' beside a proposal serial", "<serial>REDACTED", "<serial>N/A", _ok),
        ("smi14: product name empty element", "<product_name>NVIDIA GeForce RTX 3090</product_name>", "<product_name/>", _ok),
        ("smi14: product name with a zero-width space", "<product_name>NVIDIA GeForce RTX 3090", "<product_name>NVIDIA GeForce RTX\u200b3090", _ok),
        ("smi14: product name with an RTL override", "<product_name>NVIDIA GeForce RTX 3090", "<product_name>NVIDIA \u202eGeForce RTX 3090", _no_raw("\u202e")),
        ("smi14: attached_gpus 2, one gpu element", "<attached_gpus>1", "<attached_gpus>2", _any),
        ("smi14: attached_gpus -1", "<attached_gpus>1", "<attached_gpus>-1", _any),
    ]:
        text = sub(SMI, old, new)
        case(name, smi(text), ["audit", "p.yaml", "--format", "text"] if "RTL" in name else aud, expect="any", check=check)
    case("smi14: driver_version 999.99.99", smi(re.sub(r"<driver_version>[^<]*", "<driver_version>999.99.99", SMI, count=1)), aud, expect="any", check=_any)
    gpu_block = SMI[SMI.index("<gpu id="): SMI.index("</gpu>") + len("</gpu>")]
    case("smi14: the same gpu block twice (same id, serial, uuid)", smi(sub(SMI, "</gpu>", "</gpu>" + gpu_block)), aud, expect="any", check=_any)
    case("smi14: a gpu element inside a gpu element", smi(sub(SMI, "</gpu>", gpu_block + "</gpu>")), aud, expect="any", check=_any)
    case("smi14: a gpu element with no id", smi(re.sub(r'<gpu id="[^"]*">', "<gpu>", SMI, count=1)), aud, expect="any", check=_ok)
    case("smi14: the root element alone", smi('<?xml version="1.0" ?>\n<nvidia_smi_log/>\n'), aud, expect="any", check=_refused("r.xml"))
    raw = SMI.encode()
    cut = raw[: raw.index(b"<product_name>") + len(b"<product_name>NVIDIA GeForce RTX 3090")] + "\u00e9".encode()[:1]
    case("smi14: cut inside a multi-byte character", smi(cut), aud, expect="any", check=_refused("r.xml"))
    for name, body in [
        ("smi14: rocm-smi --showallinfo text", "========================= ROCm System Management Interface =========================\nGPU[0]\t\t: Card series: \t\tAMD Instinct MI300X\n"),
        ("smi14: xpu-smi discovery JSON", '{"device_list": [{"device_id": 0, "device_name": "Intel(R) Data Center GPU Max 1550"}]}\n'),
        ("smi14: gpustat --json", '{"hostname": "h", "gpus": [{"index": 0, "name": "NVIDIA GeForce RTX 3090", "temperature.gpu": 60}]}\n'),
        ("smi14: nvidia-smi -L", "GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-19d6d965-2acc-f646-00f8-4c76979aabb4)\n"),
        ("smi14: dcgmi diag text", "+---------------------------+------------------------------------------------+\n| Diagnostic                | Result                                         |\n"),
        ("smi14: an nvidia-smi XML wrapped in HTML", "<html><body><pre>" + SMI.split("?>", 1)[1] + "</pre></body></html>"),
    ]:
        case(name, smi(body), ["audit", "p.yaml"], expect="any", check=_refused("r.xml"))

    # ------------------------------------------------------------ overlays: a memory type's throttle point
    for name, policy, gpus, check in [
        ("kb14: gddr6 throttle point 95", "gddr6_memory_throttle_c: 95\n", None, _ok),
        ("kb14: gddr7 throttle point as {value, source}", "gddr7_memory_throttle_c: {value: 105, source: 'a datasheet'}\n", None, _ok),
        ("kb14: hbm3e throttle point 1.05e2", "hbm3e_memory_throttle_c: 1.05e2\n", None, _ok),
        ("kb14: hbm3e throttle point '95' quoted", "hbm3e_memory_throttle_c: '95'\n", None, _ok),
        ("kb14: a type no GPU has (gddr9)", "gddr9_memory_throttle_c: 95\n", None, _refused("k/policy.yaml", "gddr9")),
        ("kb14: a type spelt with an underscore (hbm_3)", "hbm_3_memory_throttle_c: 95\n", None, _refused("k/policy.yaml", "hbm_3")),
        ("kb14: a type in capitals (GDDR6)", "GDDR6_memory_throttle_c: 95\n", None, _refused("k/policy.yaml", "GDDR6_memory_throttle_c")),
        ("kb14: gddr6 throttle point 20", "gddr6_memory_throttle_c: 20\n", None, _refused("k/policy.yaml", "between 60 and 150")),
        ("kb14: gddr6 throttle point 1e30", "gddr6_memory_throttle_c: 1e30\n", None, _refused("k/policy.yaml", "gddr6_memory_throttle_c")),
        ("kb14: gddr6 throttle point .nan", "gddr6_memory_throttle_c: .nan\n", None, _refused("k/policy.yaml", "gddr6_memory_throttle_c")),
        ("kb14: gddr6 throttle point true", "gddr6_memory_throttle_c: true\n", None, _refused("k/policy.yaml", "gddr6_memory_throttle_c")),
        ("kb14: gddr6 throttle point '95 C'", "gddr6_memory_throttle_c: '95 C'\n", None, _refused("k/policy.yaml", "gddr6_memory_throttle_c")),
        ("kb14: gddr6 throttle point with no value", "gddr6_memory_throttle_c: {source: x}\n", None, _refused("k/policy.yaml", "gddr6_memory_throttle_c")),
        ("kb14: gddr6 throttle point with an unknown key", "gddr6_memory_throttle_c: {value: 95, colour: red}\n", None, _refused("k/policy.yaml", "colour")),
        ("kb14: gddr6x point 20 with min 0 (widening the bounds)", "gddr6x_memory_throttle_c: {value: 20, min: 0}\n", None, _refused("k/policy.yaml", "between 60 and 150")),
        ("kb14: a new GPU of a new memory type, with its point", "gddr9_memory_throttle_c: 100\n",
         "gpus:\n  - id: my-gpu\n    name: My GPU\n    vendor: nvidia\n    memory: {gb: 32, type: GDDR9, bandwidth_gb_s: 2000}\n", _any),
        ("kb14: policy key a number", "1: 2\n", None, _refused("k/policy.yaml")),
        ("kb14: policy key null", "null: 2\n", None, _refused("k/policy.yaml")),
        ("kb14: policy key a list (complex key)", "? [a, b]\n: 2\n", None, _refused("k/policy.yaml")),
        ("kb14: policy a list", "policy: [memory_headroom_fraction]\n", None, _refused("k/policy.yaml")),
    ]:
        files = {"r.yaml": LORA, "k/policy.yaml": policy}
        if gpus:
            files["k/gpus.yaml"] = gpus
        case(name, files, ["recommend", "r.yaml", "--knowledge", "k"], expect="any", check=check)
    case("kb14: an A10G (GDDR6) at 90 C judged on an overlay's 95", {"p.yaml": USED.replace("rtx-3090", "a10g"),
                                                                     "r.xml": sub((DATA / "telegraf_a10g.xml").read_text(), "<memory_temp>N/A", "<memory_temp>90 C"),
                                                                     "k/policy.yaml": "gddr6_memory_throttle_c: 95\n"},
         ["audit", "p.yaml", "--format", "json", "--knowledge", "k"], expect="any", check=_finds(J, True))
    case("kb14: overlay GPU name with a zero-width space (a built-in's name)", {"r.yaml": LORA, "k/gpus.yaml": "gpus:\n  - id: h100-80gb-sxm\n    name: \"NVIDIA H100\\u200b SXM5 80GB\"\n"},
         ["recommend", "r.yaml", "--knowledge", "k"], expect="any", check=_any)
    case("kb14: overlay model id with a combining mark", {"r.yaml": LORA, "k/models.yaml": "models:\n  - id: \"llama-3.1-70b\\u0301\"\n    params_b: 70\n"},
         ["recommend", "r.yaml", "--knowledge", "k"], expect="any", check=_any)

    # ------------------------------------------------------------ numbers in other scripts and forms
    for name, path, value, base, check in [
        ("num14: count Arabic-Indic '٨'", "hardware.count", "٨", "P", _refused("count")),
        ("num14: count Devanagari '८'", "hardware.count", "८", "P", _refused("count")),
        ("num14: count superscript '⁸'", "hardware.count", "⁸", "P", _refused("count")),
        ("num14: count vulgar fraction '½'", "hardware.count", "½", "P", _refused("count")),
        ("num14: count 'eight'", "hardware.count", "eight", "P", _refused("count")),
        ("num14: count 8.5", "hardware.count", 8.5, "P", _refused("count")),
        ("num14: count 10**30", "hardware.count", 10**30, "P", _refused("count")),
        ("num14: seq_len hex float '0x1p12'", "workload.seq_len", "0x1p12", None, _refused("seq_len")),
        ("num14: seq_len '4096.0000000001'", "workload.seq_len", 4096.0000000001, None, _refused("seq_len")),
        ("num14: seq_len '٤٠٩٦'", "workload.seq_len", "٤٠٩٦", None, _refused("seq_len")),
        ("num14: budget 'US$ ٢٠٠٠٠'", "constraints.budget_usd", "US$ ٢٠٠٠٠", None, _refused("budget_usd")),
        ("num14: budget '1.000,50' (European)", "constraints.budget_usd", "1.000,50", None, _refused("budget_usd")),
        ("num14: deadline_days yes (a YAML 1.1 boolean)", "constraints.deadline_days", True, None, _refused("deadline_days")),
        ("num14: train_tokens 1e+400", "workload.train_tokens", "1e+400", None, _refused("train_tokens")),
        ("num14: params_b '٧٠'", "workload.params_b", "٧٠", None, _refused("params_b")),
    ]:
        text = patched(path, value, prop if base == "P" else None)
        case(name, {"p.yaml" if base == "P" else "r.yaml": text}, aud if base == "P" else rec, expect="any", check=check)
    case("num14: count 'yes' unquoted", {"p.yaml": PROP.replace("count: 8", "count: yes", 1)}, aud, expect="any", check=_refused("count"))
    for name, argv, check in [
        ("num14: --gpus '٨'", ["estimate", "r.yaml", "--gpu", "H100-80G", "--gpus", "٨"], _refused("--gpus")),
        ("num14: --fx-rate '٧.٢'", ["recommend", "r.yaml", "--fx-rate", "٧.٢"], _refused("--fx-rate")),
        ("num14: --fx-rate '0x1.cp2' (hex float)", ["recommend", "r.yaml", "--fx-rate", "0x1.cp2"], _refused("--fx-rate")),
        ("num14: --gpus 1e400", ["estimate", "r.yaml", "--gpu", "H100-80G", "--gpus", "1e400"], _refused("--gpus")),
    ]:
        case(name, {"r.yaml": LORA}, argv, expect="any", check=check)
    case("num14: plan horizon '١٢'", {"plan.yaml": patched("horizon_months", "١٢", plan)}, ["plan", "plan.yaml"], expect="any", check=_refused("horizon_months"))
    case("num14: house rule value '٩٩'", {"p.yaml": USED, "r.xml": SMI, "h/r.yaml": CUDA_RULE.replace("fact: candidate", "fact: card").replace(
        '[cuda_device, "==", false]', '[mem_temp_c, ">=", "٩٩"]').replace("action: reject", "action: finding\n      severity: warning").replace("{gpu_name} is not", "{serial} is not")},
         ["audit", "p.yaml", "--rules", "h"], expect="any", check=_refused("h/r.yaml"))

    # ------------------------------------------------------------ environment versions as YAML numbers
    env = LORA.replace('  cuda: "12.1"', "  cuda: CUDA").replace('  driver: "535.104.05"', "  driver: DRIVER")
    for name, cuda, driver, os_line, check in [
        ("env14: cuda 12.1 unquoted", "12.1", '"535.104.05"', None, _ok),
        ("env14: cuda 12.10 unquoted (read 12.1)", "12.10", '"535.104.05"', None, _ok),
        ("env14: cuda 12.25 unquoted", "12.25", '"535.104.05"', None, _refused("environment.cuda", "quotes")),
        ("env14: cuda 12 (no minor)", "12", '"535.104.05"', None, _refused("environment.cuda")),
        ("env14: cuda 1.21e1 (the number 12.1)", "1.21e1", '"535.104.05"', None, _ok),
        ("env14: driver 537.70 unquoted", '"12.1"', "537.70", None, _refused("environment.driver", "quotes")),
        ("env14: driver 535 (a branch)", '"12.1"', "535", None, _ok),
        ("env14: driver 0x217", '"12.1"', "0x217", None, _refused("environment.driver")),
        ("env14: os ''", '"12.1"', '"535.104.05"', "  os: ''", _refused("environment.os")),
        ("env14: os with an RTL override", '"12.1"', '"535.104.05"', '  os: "ubuntu\\u202e-22.04"', _any),
    ]:
        text = env.replace("CUDA", cuda).replace("DRIVER", driver)
        if os_line:
            text = text.replace("  os: ubuntu-22.04", os_line)
        case(name, {"r.yaml": text}, rec, expect="any", check=check)

    # ------------------------------------------------------------ Unicode in names
    for name, path, value, base, check in [
        ("uni14: model with an RTL override", "workload.model", "llama-3.1-\u202e8b", None, _no_raw("\u202e")),
        ("uni14: model with a combining acute", "workload.model", "llama\u0301-3.1-8b", None, _refused("model")),
        ("uni14: model with a Unicode hyphen (U+2010)", "workload.model", "llama\u20103.1\u20108b", None, _any),
        ("uni14: model with zero-width joiners", "workload.model", "llama-3.1-8b\u200d", None, _any),
        ("uni14: gpu with a combining mark", "hardware.gpu", "H100\u0301", "P", _refused("gpu")),
        ("uni14: gpu in mathematical bold letters", "hardware.gpu", "\U0001d407100", "P", _refused("gpu")),
        ("uni14: title with an RTL override (text)", "title", "Buy \u202e8 x H100", "P", _no_raw("\u202e")),
        ("uni14: title of 5,000 combining marks", "title", "A" + "\u0301" * 5000, "P", _refused("title", "500")),
    ]:
        text = patched(path, value, prop if base == "P" else None)
        argv = ["audit", "p.yaml"] if base == "P" else ["recommend", "r.yaml"]
        case(name, {"p.yaml" if base == "P" else "r.yaml": text}, argv, expect="any", check=check)

    def rule(rule_id: str, title: str = "A house rule", message: str = "{gpu_name} is not") -> str:
        return CUDA_RULE.replace("HOUSE-CUDA-ONLY", rule_id).replace("This team runs CUDA only", title).replace("{gpu_name} is not", message)

    for name, files, check in [
        ("hr14: ids differing only by NFC/NFD", {"h/a.yaml": rule("HOUSE-R\u00dcLE"), "h/b.yaml": rule("HOUSE-RU\u0308LE").replace("house-cuda-only", "house-b")}, _any),
        ("hr14: id with a combining mark", {"h/a.yaml": rule("HOUSE-RU\u0308LE")}, _any),
        ("hr14: message with an RTL override (text)", {"h/a.yaml": rule("HOUSE-RTL", message="\u202e{gpu_name} is not")}, _no_raw("\u202e")),
        ("hr14: title with a zero-width joiner", {"h/a.yaml": rule("HOUSE-ZWJ", title="CUDA\u200d only")}, _ok),
        ("hr14: a rule file that links to another", {"h/a.yaml": rule("HOUSE-A"), "h/b.yaml": ("LINK", "a.yaml")}, _any),
        ("hr14: a rules folder inside the rules folder", {"h/a.yaml": rule("HOUSE-A"), "h/sub/b.yaml": rule("HOUSE-B")}, _any),
        ("hr14: tab indentation", {"h/a.yaml": rule("HOUSE-A").replace("  - id:", "\t- id:")}, _refused("h/a.yaml")),
        ("hr14: id ''", {"h/a.yaml": rule("")}, _refused("h/a.yaml")),
        ("hr14: a bool compared with a number", {"h/a.yaml": rule("HOUSE-A").replace('[cuda_device, "==", false]', '[cuda_device, ">", 0]')}, _refused("h/a.yaml")),
        ("hr14: severity on a reject", {"h/a.yaml": rule("HOUSE-A").replace("action: reject", "action: reject\n      severity: nuclear")}, _refused("h/a.yaml")),
        ("hr14: rule file is JSON", {"h/a.json.yaml": '{"schema_version": 1, "ruleset": "j", "step": "memory", "rules": []}\n'}, _any),
    ]:
        case(name, {"r.yaml": LORA, **files}, ["recommend", "r.yaml", "--rules", "h"], expect="any", check=check)

    # ------------------------------------------------------------ output paths
    for name, files, argv, check in [
        ("out14: -o onto the input through a symlinked folder", {"r.yaml": LORA, "d": ("LINK", ".")}, ["recommend", "r.yaml", "-o", "d/r.yaml"], _kept("r.yaml", LORA)),
        ("out14: -o onto the input with doubled slashes", {"s/r.yaml": LORA}, ["recommend", "s/r.yaml", "-o", "s//r.yaml"], _kept("s/r.yaml", LORA)),
        ("out14: -o onto the seller's report through a symlinked folder", {"p.yaml": USED, "r.xml": SMI, "d": ("LINK", ".")}, ["audit", "p.yaml", "-o", "d/r.xml"], _kept("r.xml", SMI)),
        ("out14: -o onto the overlay's policy through ..", {"r.yaml": LORA, "k/policy.yaml": "memory_headroom_fraction: 0.2\n", "k/x/keep": ""},
         ["recommend", "r.yaml", "--knowledge", "k", "-o", "k/x/../policy.yaml"], _kept("k/policy.yaml", "memory_headroom_fraction: 0.2\n")),
        ("out14: -o onto a house rule hard-linked under another name", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE, "o.yaml": ("HARD", "h/a.yaml")},
         ["recommend", "r.yaml", "--rules", "h", "-o", "o.yaml"], _kept("h/a.yaml", CUDA_RULE)),
        ("out14: -o whose parent is a file", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "r.yaml/o.md"], _kept("r.yaml", LORA)),
        ("out14: -o into /proc/self (not writable, even by root)", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/proc/self/o.md"], lambda r: r.returncode == 2 and _one(r)),
        ("out14: -o a dangling link", {"r.yaml": LORA, "o.md": ("LINK", "gone/o.md")}, ["recommend", "r.yaml", "-o", "o.md"], _any),
        ("out14: -o a name of 300 characters", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "o" * 300 + ".md"], _no_file("o" * 300 + ".md")),
        ("out14: -o the batch folder itself", {"b/a.yaml": PROP}, ["audit", "b", "-o", "b"], _kept("b/a.yaml", PROP)),
        ("out14: -o a batch member's name with a trailing slash", {"b/a.yaml": PROP}, ["audit", "b", "-o", "b/a.yaml/"], _kept("b/a.yaml", PROP)),
        ("out14: -o an existing 0444 report", {"r.yaml": LORA, "o.md": ("MODE", 0o444)}, ["recommend", "r.yaml", "-o", "o.md"], _any),
    ]:
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ batches with odd members
    for name, files, check in [
        ("batch14: a folder with only a README.md", {"b/README.md": "# proposals\n"}, _refused("b")),
        ("batch14: a member of 0 bytes", {"b/a.yaml": PROP, "b/z.yaml": ""}, lambda r: r.returncode == 2 and _clean(r)),
        ("batch14: a member with a UTF-8 BOM", {"b/a.yaml": "\ufeff" + PROP}, _ok),
        ("batch14: a member that is a requirements file", {"b/a.yaml": PROP, "b/r.yaml": LORA}, lambda r: r.returncode == 2 and _clean(r) and "requirements" in r.stderr),
        ("batch14: a directory named x.yaml", {"b/a.yaml": PROP, "b/x.yaml/inner": ""}, lambda r: r.returncode == 2 and _clean(r)),
        ("batch14: a member named with an RTL override", {"b/a\u202e.yaml": PROP}, _no_raw("\u202e")),
        ("batch14: a member named with spaces and CJK", {"b/提案 一.yaml": PROP}, _ok),
        ("batch14: a member linked twice", {"b/a.yaml": PROP, "b/b.yaml": ("LINK", "a.yaml"), "b/c.yaml": ("LINK", "a.yaml")}, _ok),
    ]:
        case(name, files, ["audit", "b"], expect="any", check=check)

    # ------------------------------------------------------------ the cache and files changed between runs
    case("cache14: a cache entry that links to the input", {"r.yaml": LORA}, ["TWICE", "LINKCACHE", "recommend", "r.yaml"], expect="any", real=True,
         env={"XDG_CACHE_HOME": "{tmp}/c"}, check=lambda r: _ok(r) and _file(r, "r.yaml") == LORA)
    case("cache14: requirements changed, size and time kept", {"r.yaml": LORA}, ["TWICE", "EDIT", "recommend", "r.yaml", "--format", "json"], expect="any", real=True,
         env={"XDG_CACHE_HOME": "{tmp}/c"}, check=lambda r: _ok(r) and "same" in r.stdout)
    case("cache14: overlay changed, size and time kept", {"r.yaml": LORA, "k/policy.yaml": "memory_headroom_fraction: 0.10\n"},
         ["TWICE", "EDITK", "recommend", "r.yaml", "--knowledge", "k", "--format", "json"], expect="any", real=True,
         env={"XDG_CACHE_HOME": "{tmp}/c"}, check=lambda r: _ok(r) and "same" in r.stdout)
    case("cache14: house rule changed, size and time kept", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE},
         ["TWICE", "EDITH", "recommend", "r.yaml", "--rules", "h", "--format", "json"], expect="any", real=True,
         env={"XDG_CACHE_HOME": "{tmp}/c"}, check=lambda r: _ok(r) and "same" in r.stdout)

    # ------------------------------------------------------------ Python's own switches, pipes, Ctrl-C at start
    for name, argv, env_, check in [
        ("py14: python -OO recommend", ["OO", "recommend", "r.yaml"], None, _ok),
        ("py14: python -OO bad input", ["OO", "recommend", "nosuch.yaml"], None, lambda r: r.returncode == 2 and _one(r)),
        ("py14: python -OO --help", ["OO", "--help"], None, lambda r: r.returncode == 0 and _clean(r)),
        ("py14: PYTHONWARNINGS=error recommend", ["recommend", "r.yaml"], {"PYTHONWARNINGS": "error"}, _ok),
        ("py14: PYTHONWARNINGS=error audit", ["audit", "p.yaml"], {"PYTHONWARNINGS": "error"}, _ok),
        ("py14: PYTHONWARNINGS=error plan", ["plan", "plan.yaml"], {"PYTHONWARNINGS": "error"}, _ok),
        ("py14: PYTHONDEVMODE=1 audit", ["audit", "p.yaml"], {"PYTHONDEVMODE": "1"}, _ok),
        ("py14: PYTHONSAFEPATH=1 and a yaml.py in the folder", ["recommend", "r.yaml"], {"PYTHONSAFEPATH": "1"}, _ok),
        ("pipe14: explain | head -c1 keeps 0", ["PIPE", "explain", "MEM-FITS"], None, lambda r: r.returncode == 0 and _clean(r)),
        ("pipe14: rules | head -c1 keeps 0", ["PIPE", "rules"], None, lambda r: r.returncode == 0 and _clean(r)),
        ("pipe14: --help | head -c1 keeps 0", ["PIPE", "--help"], None, lambda r: r.returncode == 0 and _clean(r)),
        ("pipe14: plan | head -c1 keeps its status", ["PIPE", "plan", "plan.yaml"], None, lambda r: r.returncode in (0, 1) and _clean(r)),
        ("pipe14: audit json | head -c1 keeps 1", ["PIPE", "audit", "reject.yaml", "--format", "json"], None, lambda r: r.returncode == 1 and _clean(r)),
        ("signal14: Ctrl-C as the gpuwise command has imported its package", ["EARLY", "recommend", "r.yaml"], None,
         lambda r: r.returncode == 130 and r.stderr.strip() == "gpuwise: interrupted"),
        ("signal14: Ctrl-C as the gpuwise command starts an audit batch", ["EARLY", "audit", "p.yaml", "reject.yaml"], None,
         lambda r: r.returncode == 130 and r.stderr.strip() == "gpuwise: interrupted"),
    ]:
        files = {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN, "reject.yaml": _reject}
        if "yaml.py" in name:
            files["yaml.py"] = "raise SystemExit('the folder shadowed yaml')\n"
        case(name, files, argv, expect="any", real=True, env=env_, check=check)


def interrupted_at_entry(tmp: Path, argv: list[str], env: dict[str, str], wait: float) -> tuple[int, bytes, list[str]]:
    """The ``gpuwise`` command as pip's launcher runs pyproject's entry point, sent Ctrl-C the moment
    ``-X importtime`` reports the entry point's module imported (the process's own progress, not a
    guessed time): (exit status, 128 + the signal when it died of one; standard output; the lines
    of standard error other than the import times). Round 14's ``EARLY`` cases and
    tests/test_hostile_fourteenth.py run it."""
    import signal
    import threading

    entry = re.search(r'^gpuwise = "([\w.]+):(\w+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert entry is not None, "pyproject.toml names no gpuwise entry point"
    launcher = tmp / "gpuwise-launcher"
    launcher.write_text(f"import re\nimport sys\nfrom {entry[1]} import {entry[2]}\nsys.exit({entry[2]}())\n")
    p = subprocess.Popen([sys.executable, "-X", "importtime", str(launcher), *argv], cwd=tmp, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert p.stderr is not None
        for raw in p.stderr:
            line = raw.decode("utf-8", "replace")
            if line.startswith("import time:"):
                if re.search(rf"\|\s+{re.escape(entry[1])}$", line.rstrip()):  # the entry point's module imported
                    ready.set()
                continue
            lines.append(line)
        ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ready.wait(wait)
    p.send_signal(signal.SIGINT)
    assert p.stdout is not None
    out = p.stdout.read()
    p.wait(wait)
    reader.join(10)
    return (p.returncode if p.returncode >= 0 else 128 - p.returncode), out, lines


def run_mode(argv: list, e: dict, tmp: Path, Res) -> Any:
    """``EARLY``: the ``gpuwise`` command as pip's launcher runs pyproject's entry point, Ctrl-C the
    moment ``-X importtime`` reports the ``gpuwise`` package imported. ``TWICE WHAT``: the command
    run twice; between the runs ``LINKCACHE`` turns every cache entry into a link to the
    requirements file, ``EDIT``/``EDITK``/``EDITH`` rewrite the requirements, the overlay's policy
    or the house rule with the same size and modification time; stdout says ``same`` when the
    second answer is what a run without the cache gives. ``OO``: ``python -OO -m gpuwise``."""
    mode, rest = argv[0], argv[1:]
    if mode == "OO":
        p = subprocess.run([sys.executable, "-OO", "-m", "gpuwise", *rest], capture_output=True, cwd=tmp, env=e, timeout=120)
        return Res(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), tmp)
    if mode == "EARLY":
        rc, out, lines = interrupted_at_entry(tmp, rest, e, 120)
        return Res(rc, out.decode(errors="replace"), "".join(lines), tmp)
    assert mode == "TWICE", mode
    what, cmd = rest[0], [sys.executable, "-m", "gpuwise", *rest[1:]]
    first = subprocess.run(cmd, capture_output=True, cwd=tmp, env=e, timeout=120)
    target = {"EDIT": tmp / "r.yaml", "EDITK": tmp / "k" / "policy.yaml", "EDITH": tmp / "h" / "a.yaml"}.get(what)
    if what == "LINKCACHE":
        for f in Path(e["XDG_CACHE_HOME"]).rglob("*"):
            if f.is_file():
                f.unlink()
                f.symlink_to(tmp / "r.yaml")
    elif target is not None:
        st = target.stat()
        text = target.read_text()
        new = {"EDIT": lambda t: t.replace("rank: 16", "rank: 64", 1) if "rank: 16" in t else t.replace("budget_usd: 20000", "budget_usd: 90000", 1),
               "EDITK": lambda t: t.replace("0.10", "0.45"),
               "EDITH": lambda t: t.replace('[cuda_device, "==", false]', '[cuda_device, "==", true ]')}[what](text)
        assert new != text and len(new.encode()) == len(text.encode()), what
        target.write_text(new)
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
    second = subprocess.run(cmd, capture_output=True, cwd=tmp, env=e, timeout=120)
    fresh = subprocess.run(cmd, capture_output=True, cwd=tmp, env={**e, "GPUWISE_NO_CACHE": "1"}, timeout=120)
    same = second.stdout == fresh.stdout and second.returncode == fresh.returncode
    changed = what == "LINKCACHE" or first.stdout != second.stdout
    err = second.stderr.decode(errors="replace")
    return Res(second.returncode, ("same" if same and changed else f"differs (changed={changed})"), err, tmp)
