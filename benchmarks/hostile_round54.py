# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-four of the hostile corpus: what a user copies from the engine or trainer they already run -- the
serving knobs as llama.cpp, bitsandbytes and TRL name them (``quantization: Q4_K_M`` or ``bnb``, ``packing: true``),
a draft model as large as the model it drafts for, a word where a share goes (``prefix_cache_hit_rate: high``), a
stack named by the library that runs no stack of its own (torchtune, plain PyTorch), offload 'to disk', owned GPUs
counted 1.5, 'eight' or '八', a plan of 60 runs a month, price CSVs with duplicate rows, blank currencies, free GPUs
listed at 0, dates ahead, UTF-16 with and without its mark, a workbook renamed .csv, a GPU count of 0; odd --lang
and --format values, -o without a suffix and onto /dev/full, and every subcommand's --help in Chinese. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 3381ed2b (before this branch's fixes, with the round's file added: 58 cases, 29 clean); on this branch
58 of 58. Fixed (each with its test in tests/test_hostile54.py, 42 of whose 60 tests fail on 3381ed2b):

* a word in a number field ('high') or a fraction for a count (1.5) was pydantic's 'Input should be a valid number /
  integer': the house's words in English too (inputs/schema.py); a number in words ('eight', 'Twelve', '八', '十六',
  'two' servers, 'sixteen' requests) offered in digits, its bound said where it passes one (inputs/prose.py);
* ``packing: true`` / ``false`` was told 'write a number': its choices said, padding_free / none offered
  (inputs/strict.py); 'true' quoted offered padding_free;
* 'Q4_K_M' / 'IQ4_XS' (GGUF types) offered nothing: gguf; 'bnb': bitsandbytes; 'fa2' for attention: flash;
  offload 'disk' / 'SSD': nvme; kv_precision 'q8_0' (llama.cpp's 8-bit cache): fp8; hosting 'home': office
  (inputs/error_words.py);
* stack 'torchtune' was offered torchtitan, another project; 'pytorch' nothing: both told to leave stack out, a plain
  PyTorch run being what a job naming no stack is priced as (inputs/schema.py, error_words.STACK_LEFT_OUT);
* a draft model of 70B or 16B for Llama 3.1 8B was priced as drafting for it: refused, both sizes said (Leviathan et
  al. 2023: a drafter no cheaper than its model cannot speed it up; inputs/shape_checks.py, split from job.py);
* a price CSV row of 0 GPUs was 'not a whole number of GPUs': said to have no GPU (prices/catalog_csv.py);
* --help left REQUIREMENTS.yaml, PLAN.yaml, RULE_ID, FILE.csv and prices import's --format unsaid (cli_args.py);
* --lang 'zh,en' (a browser's list) offered nothing: zh (cli_words.py).

Clean on main already (kept as neighbours): kv_precision fp8 on llama.cpp (estimated: the 8-bit cache its rows
state), 'AWQ', gptq beside fp8, a 1B draft, acceptance_rate 1, draft_tokens 100, speculative as a bare word,
disaggregated as a phrase, 'padding-free', eager beside fa2, offload nvme with no drive stated (its bytes counted),
'deepspeeed', owned count 0, 60 runs a month (planned in about 30 s), per_month 'weekly', AWS's p5.48xlarge rented
from Lambda, duplicate CSV rows, a blank currency cell, a price of 0.00, a row dated 2031, UTF-16 with and without its
mark, an .xlsx renamed .csv, -o without a suffix, -o report --format json, --format 'md ', -o /dev/full, and the
--help of audit and prices.
"""
from __future__ import annotations

import functools
import json
import re
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round51 import IMPORT, SERVE8
from benchmarks.hostile_round52 import _json, _refused_no
from benchmarks.hostile_round53 import _answered, _imported

LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FULL8 = {**LORA8, "method": "full"}
REQ = "workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 200\nconstraints:\n  gpus: [H100 SXM]\n"
"""A service on one named GPU: recommend answers it in seconds (the -o cases)."""


def _json_ok(pred):
    """Estimated (exit 0 or 1, JSON, nothing on stderr) and ``pred`` holds of the JSON."""
    return lambda r: _answered(r) and bool(pred(_json(r)))


def _described(r) -> bool:
    """Exit 0 and every option and positional of the help has a line saying what it is: an entry (two spaces in)
    with its text on the same line, or on the next line further in (argparse puts a long one's there)."""
    if r.returncode != 0 or r.stderr.strip():
        return False
    lines = r.stdout.splitlines()
    for i, line in enumerate(lines):
        if not re.match(r"  \S", line):
            continue
        same = re.search(r"\S\s{2,}\S", line[2:])
        below = i + 1 < len(lines) and re.match(r" {4,}\S", lines[i + 1])
        if not same and not below:
            return False
    return "选项" in r.stdout


def _no_file(name: str):
    """Refused in one line, and ``name`` not left behind (no partial report)."""
    return lambda r: _refused()(r) and not (r.cwd / name).exists()


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]
    _plan = functools.partial(_edited, plan)
    plan_text = ("plan", "plan.yaml")

    # ------------------------------------------------------------ serving knobs as the engines name them
    rcase("srv54: prefix_cache_hit_rate 'high' (a word where a share goes): refused in gpuwise's words",
          {"workload": {**SERVE8, "prefix_cache_hit_rate": "high"}}, _refused_no("r.yaml", "workload.prefix_cache_hit_rate", "must be a number", "'high'"))
    rcase("srv54: kv_precision 'q8_0' (llama.cpp's --cache-type-k, 8.5 bits a value): refused, fp8 offered (the one 8-bit choice)",
          {"workload": {**SERVE8, "framework": "llama.cpp", "kv_precision": "q8_0"}}, _refused_no("r.yaml", "workload.kv_precision", "did you mean fp8?"))
    rcase("srv54: kv_precision fp8 on llama.cpp (its 8-bit q8_0 cache, as gpuwise sizes it): estimated",
          {"workload": {**SERVE8, "framework": "llama.cpp", "kv_precision": "fp8"}}, _json_ok(lambda d: d.get("gpu")))
    rcase("srv54: quantization 'Q4_K_M' (a GGUF file's quant type): refused, gguf offered",
          {"workload": {**SERVE8, "framework": "llama.cpp", "quantization": "Q4_K_M"}}, _refused_no("r.yaml", "workload.quantization", "did you mean gguf?"))
    rcase("srv54: quantization 'IQ4_XS' (a GGUF i-quant): refused, gguf offered",
          {"workload": {**SERVE8, "framework": "llama.cpp", "quantization": "IQ4_XS"}}, _refused_no("r.yaml", "workload.quantization", "did you mean gguf?"))
    rcase("srv54: quantization 'bnb' (bitsandbytes as its users shorten it): refused, bitsandbytes offered",
          {"workload": {**SERVE8, "quantization": "bnb"}}, _refused_no("r.yaml", "workload.quantization", "did you mean bitsandbytes?"))
    rcase("srv54: quantization 'AWQ' (capitals): refused, awq offered (as before)", {"workload": {**SERVE8, "quantization": "AWQ"}},
          _refused_no("r.yaml", "workload.quantization", "did you mean awq?"))
    rcase("srv54: quantization gptq beside precision fp8: refused, the two named (as before)", {"workload": {**SERVE8, "precision": "fp8", "quantization": "gptq"}},
          _refused_no("r.yaml", "gptq", "fp8"))
    rcase("srv54: a draft model of 70B for an 8B model: refused, the two sizes said",
          {"workload": {**SERVE8, "speculative": {"method": "draft-model", "draft_params_b": 70}}}, _refused_no("r.yaml", "workload.speculative.draft_params_b", "70", "8.03"))
    rcase("srv54: a draft model twice the model's size (16B for llama-3.1-8b): refused",
          {"workload": {**SERVE8, "speculative": {"method": "draft-model", "draft_params_b": 16}}}, _refused_no("r.yaml", "workload.speculative.draft_params_b", "16"))
    rcase("srv54: a 1B draft model for the 8B: estimated (a draft smaller than its model)",
          {"workload": {**SERVE8, "speculative": {"method": "draft-model", "draft_params_b": 1}}}, _json_ok(lambda d: d.get("gpu")))
    rcase("srv54: speculative acceptance_rate 1 (every draft kept): refused by its bound (as before)",
          {"workload": {**SERVE8, "speculative": {"method": "eagle3", "acceptance_rate": 1}}}, _refused_no("r.yaml", "workload.speculative.acceptance_rate", "less than 1"))
    rcase("srv54: speculative draft_tokens 100: refused by its bound (as before)",
          {"workload": {**SERVE8, "speculative": {"method": "eagle3", "draft_tokens": 100}}}, _refused_no("r.yaml", "workload.speculative.draft_tokens", "at most 16"))
    rcase("srv54: speculative 'eagle3' (the method alone, no section): refused, the keys listed (as before)",
          {"workload": {**SERVE8, "speculative": "eagle3"}}, _refused_no("r.yaml", "workload.speculative", "method"))
    rcase("srv54: disaggregated 'prefill/decode' (a description for a yes/no): refused (as before)",
          {"workload": {**SERVE8, "disaggregated": "prefill/decode"}}, _refused_no("r.yaml", "workload.disaggregated", "true or false"))

    # ------------------------------------------------------------ training knobs as the trainers name them
    rcase("train54: packing true (TRL's SFTConfig packing): refused, padding_free offered, never 'write a number'",
          {"workload": {**LORA8, "packing": True}}, _refused_no("r.yaml", "workload.packing", "padding_free", absent=("write a number", "Input should be")))
    rcase("train54: packing 'true' (quoted): refused, padding_free offered",
          {"workload": {**LORA8, "packing": "true"}}, _refused_no("r.yaml", "workload.packing", "did you mean padding_free?"))
    rcase("train54: packing false: refused, none offered, never 'write a number'",
          {"workload": {**LORA8, "packing": False}}, _refused_no("r.yaml", "workload.packing", "none", absent=("write a number", "Input should be")))
    rcase("train54: packing 'padding-free': refused, padding_free offered (as before)", {"workload": {**LORA8, "packing": "padding-free"}},
          _refused_no("r.yaml", "workload.packing", "did you mean padding_free?"))
    rcase("train54: attention eager beside attention_kernel fa2: refused, one of the two asked (as before)",
          {"workload": {**LORA8, "attention": "eager", "attention_kernel": "fa2"}}, _refused_no("r.yaml", "workload.attention_kernel", "eager"))
    rcase("train54: attention 'fa2' (the kernel's name in the attention field): refused, flash offered",
          {"workload": {**LORA8, "attention": "fa2"}}, _refused_no("r.yaml", "workload.attention", "did you mean flash?"))
    rcase("train54: offload 'disk': refused, nvme offered", {"workload": {**FULL8, "offload": "disk"}}, _refused_no("r.yaml", "workload.offload", "did you mean nvme?"))
    rcase("train54: offload 'SSD': refused, nvme offered", {"workload": {**FULL8, "offload": "SSD"}}, _refused_no("r.yaml", "workload.offload", "did you mean nvme?"))
    rcase("train54: offload nvme with no drive stated: estimated, the state on the drives counted",
          {"workload": {**FULL8, "offload": "nvme"}}, _json_ok(lambda d: (d.get("memory") or {}).get("nvme_bytes_per_node", 0) > 0))
    rcase("train54: stack 'torchtune': refused, never torchtitan offered; stack left out said",
          {"workload": {**FULL8, "stack": "torchtune"}}, _refused_no("r.yaml", "workload.stack", "leave stack out", absent=("torchtitan?", "Input should be")))
    rcase("train54: stack 'pytorch': refused, stack left out said", {"workload": {**FULL8, "stack": "pytorch"}},
          _refused_no("r.yaml", "workload.stack", "leave stack out"))
    rcase("train54: stack 'deepspeeed' (a doubled e): refused, deepspeed offered (as before)", {"workload": {**FULL8, "stack": "deepspeeed"}},
          _refused_no("r.yaml", "workload.stack", "did you mean deepspeed?"))

    # ------------------------------------------------------------ owned GPUs counted oddly; a plan of 60 runs
    for given, words in ((1.5, ("whole number", "1.5")), ("eight", ("write 8",)), ("八", ("write 8",)), ("Twelve", ("write 12",))):
        pcase(f"own54: owned count {given!r}: refused in gpuwise's words", _plan(lambda d, g=given: d["owned"][0].update(count=g)),
              _refused_no("plan.yaml", "owned[0].count", *words), argv=plan_text)
    pcase("own54: owned count 0: refused by its bound (as before)", _plan(lambda d: d["owned"][0].update(count=0)),
          _refused_no("plan.yaml", "owned[0].count", "at least 1"), argv=plan_text)
    pcase("own54: owned servers 'two': refused, 2 offered", _plan(lambda d: d["owned"][0].update(servers="two")),
          _refused_no("plan.yaml", "owned[0].servers", "write 2"), argv=plan_text)
    pcase("own54: owned hosting 'home': refused, office offered", _plan(lambda d: d["owned"][0].update(hosting="home")),
          _refused_no("plan.yaml", "owned[0].hosting", "did you mean office?"), argv=plan_text)
    rcase("own54: concurrent_requests 'sixteen': refused, 16 offered", {"workload": {**SERVE8, "concurrent_requests": "sixteen"}},
          _refused_no("r.yaml", "workload.concurrent_requests", "write 16"))
    pcase("runs54: the fine-tune 60 times a month: planned, JSON", _plan(lambda d: d["workloads"][0]["cadence"].update(per_month=60)),
          lambda r: _answered(r), argv=("plan", "plan.yaml", "--format", "json"))
    pcase("runs54: per_month 'weekly': refused, 4.345 offered (as before)", _plan(lambda d: d["workloads"][0]["cadence"].update(per_month="weekly")),
          _refused_no("plan.yaml", "per_month", "4.345"), argv=plan_text)

    acase("prop54: AWS's p5.48xlarge rented from Lambda: refused, the instance's provider named",
          {"title": "t", "workload": SERVE8, "hardware": {"gpu": "H100 SXM", "count": 8, "nodes": 1},
           "acquisition": {"mode": "rent", "provider": "lambda", "instance": "p5.48xlarge"}}, _refused_no("p.yaml", "acquisition.instance", "aws"))

    # ------------------------------------------------------------ price CSVs as spreadsheets leave them
    head = "gpu,gpus,price\n"
    case("csv54: the same row twice: one offer imported", {"c.csv": head + "H100 80GB SXM,8,20\n" * 2}, IMPORT, expect="any", check=_imported(1))
    case("csv54: a currency column with a blank cell: imported (the file's currency)", {"c.csv": "gpu,gpus,price,currency\nH100 80GB SXM,8,20,\n"}, IMPORT,
         expect="any", check=_imported(1))
    case("csv54: the only row priced 0.00: refused, nothing written", {"c.csv": head + "H100 80GB SXM,8,0.00\n"}, IMPORT, expect="any",
         check=lambda r: r.returncode == 2 and "not positive" in r.stderr and not (r.cwd / "ov").exists())
    case("csv54: a row dated 2031 (ahead of today): the row refused, after today said", {"c.csv": "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,2031-01-01\nA100 80GB SXM,8,12,2026-11-01\n"},
         IMPORT, expect="any", check=lambda r: _imported(1)(r) and "after today" in r.stdout + r.stderr)
    case("csv54: UTF-16 with its byte-order mark (Excel's 'Unicode text'): imported", {"c.csv": (head + "H100 80GB SXM,8,20\n").encode("utf-16")}, IMPORT,
         expect="any", check=_imported(1))
    case("csv54: UTF-16 without its mark: refused, UTF-16 named", {"c.csv": (head + "H100 80GB SXM,8,20\n").encode("utf-16-le")}, IMPORT,
         expect="any", check=_refused("c.csv", "UTF-16"))
    case("csv54: an .xlsx workbook renamed .csv: refused, the sheet to save as CSV said", {"c.csv": b"PK\x03\x04\x14\x00\x06\x00" + b"\x00" * 22 + b"[Content_Types].xml" + b"\x00" * 40},
         IMPORT, expect="any", check=_refused("c.csv", "CSV"))
    case("csv54: a GPU count of 0 (a CPU instance): the row left out as having no GPU, not as 'not a whole number'",
         {"c.csv": head + "H100 80GB SXM,0,2\nH100 80GB SXM,8,20\n"}, IMPORT, expect="any",
         check=lambda r: _imported(1)(r) and "no GPU" in r.stdout and "not a whole number" not in r.stdout)

    # ------------------------------------------------------------ the command line
    req = {"r.yaml": REQ}
    case("cli54: recommend -o report (no suffix): refused, the suffixes named, nothing written", req, ["recommend", "r.yaml", "-o", "report"],
         expect="any", check=_no_file("report"))
    case("cli54: recommend -o report --format json: written as JSON", req, ["recommend", "r.yaml", "-o", "report", "--format", "json"], expect="any",
         check=lambda r: r.returncode in (0, 1) and (r.cwd / "report").is_file() and json.loads((r.cwd / "report").read_text()) is not None)
    case("cli54: recommend --format 'md ' (a trailing space): refused, md offered", req, ["recommend", "r.yaml", "--format", "md "], expect="any",
         check=_refused("--format", "md"))
    case("cli54: recommend --lang 'zh,en' (a browser's language list): refused, zh offered", req, ["recommend", "r.yaml", "--lang", "zh,en"], expect="any",
         check=_refused("--lang", "did you mean zh?"))
    case("cli54: recommend -o /dev/full --format md: refused in one line", req, ["recommend", "r.yaml", "-o", "/dev/full", "--format", "md"], expect="any",
         check=_refused())
    for cmd in (["recommend"], ["estimate"], ["audit"], ["plan"], ["explain"], ["prices"], ["prices", "import"]):
        case(f"help54: {' '.join(cmd)} --help --lang zh: every option and file said in words", {}, [*cmd, "--help", "--lang", "zh"],
             expect="any", check=_described)

