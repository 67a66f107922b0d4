# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-five of the hostile corpus: what a team lead pastes from a spreadsheet or a vendor's quote -- prices a
node-hour, with the sign after the number or as a Chinese price list writes a card-hour ('17.5 元/卡/小时'), a month's
rental in the hour's field; GPU counts as a quote prints them ('8 × H100', 'x8', '8卡', '16 (2 × 8)', '2 nodes' in the
GPU count, '2台' nodes); the rental's pricing plan in the mode field ('on-demand', 'reserved', 'spot', '租用');
models with their organisation and quantisation ('meta-llama/Llama-3.1-70B-Instruct-AWQ', 'Qwen3-235B-A22B-FP8');
GPUs as vendors print them ('NVIDIA H100 80GB HBM3', 'H100-SXM5-80GB', 'Instinct MI300X OAM', 'GeForce RTX 4090
Founders Edition'); a plan's months as a spreadsheet shows them ('2027-01', 'Jan 2027', Excel's 'Jan-27', 'H1 2027',
'FY27 Q1', a purchase in 'Mar-24' or '2024 Q1'); files pasted from a web page or a sheet (no-break spaces for
indentation, a tab between a key and its value, smart quotes, a BOM with CRLF, duplicate keys, merge keys); and price
CSVs saved from a quote (a price a GPU-hour on an 8-GPU row, '8 × H100' in the count, the count in the GPU's name, a
sheet's own header words, a title row above the header). Added to benchmarks/hostile_corpus.py's table by :func:`add`.

The checks that name a plan's month compute it from today's date, as the plan does (month 1 is the current month).

Run on main at ae05131a (before this branch's fixes, with the round's file added: affdb5f5): 59 cases, 24 clean
(60 with '16 (2 nodes)', added after the others were fixed, which fails there too: 24 of 60); on this branch 60 of 60. Fixed (each with its test in tests/test_hostile55.py, 56 of whose 58 tests fail on ae05131a):

* a GPU count as a quote prints it ('8 × H100', '8x H100 SXM', 'x8', '8卡', '8张', '8块', '16 (2 × 8)') was 'must be
  a whole number': the count offered (a total not its product names both); '2 nodes' or '2 servers' as the count
  names the field servers go in (nodes, an owned entry's servers), '16 (2 nodes)' offers 16 and the servers apart;
  nodes '2台' offered 2 (inputs/units.py, prose.py);
* hourly_usd '$19.92/node/hr' (a server's price) offered over hardware.count / nodes (2.49 for 8 a node); '2.49$'
  (the sign after) 2.49; '17.5 元/卡/小时' and '¥17.5/GPU·h' named CNY in a USD file; '$1,793/mo' offered the hour's
  2.456 over the ledger's 730-hour month (units.py, notation.py, proposal._node_price);
* acquisition.mode 'on-demand', 'On Demand', 'reserved', 'spot', '租用' offered rent, '购买' buy (error_words);
* 'GeForce RTX 4090 Founders Edition' was offered the RTX 4000 Ada: a board maker's words left out for the hint
  (rtx-4090; names._BOARD);
* at_month 'Jan-27' (Excel's mmm-yy) and 'H2 2027' (a half year) offered their numbers, 'FY27 Q1' said to be a
  fiscal period gpuwise cannot date; bought 'Mar-24' offered 2024-03, '2024 Q1' its first and last months
  (inputs/dates.py);
* a line indented by no-break spaces was 'task: unknown key (valid keys ...)', 'task<TAB>inference' under a section
  'must be a section of keys (got ...)' with every key listed: the line and what to write said (yamlio.py);
* a price CSV's '$2.49/GPU/hr' on an 8-GPU row was offered 'write 2.49' (an eighth of the row's price, the price
  column being the row's GPUs' together): the row's 19.92 offered; '2.49 / GPU / hr' and a count '8 × H100' offered
  their numbers; '8x H100 SXM' with no count said apart; a sheet's header ('GPU Model, Qty, Price/hr (USD)', '显卡,
  卡数, 价格') offered as gpu, gpus, price; a title above the header names the header's line (prices/csv_cells.py,
  split from catalog_csv.py at its 820-line cap).

Clean on main already (kept as neighbours): '$2.49/hr', '2,49 €', '¥17.5/卡时', count '8x', mode 'purchase', the
AWQ / FP8 releases read at their precision with the reading said, an FP8 release beside precision bf16, a GGUF
repository (read as its catalog model, the release said), an Ollama tag on a Hugging Face id, GPUs as vendors print
them, '2027-01' and 'Jan 2027', a BOM with CRLF and tabs after colons, smart quotes, a duplicate key, a merge key over
a top-level anchor, a price 'Contact sales', vendors' GPU names in a price CSV, --gpu '8 × H100'.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round51 import H100X8, IMPORT, LORA8, SERVE8
from benchmarks.hostile_round52 import _json, _plan_month, _read_as, _refused_no
from benchmarks.hostile_round53 import _answered, _imported

RENT = {"title": "t", "workload": LORA8, "hardware": H100X8, "acquisition": {"mode": "rent", "provider": "lambda"}}
"""8 H100 SXM on one node rented from Lambda for a LoRA fine-tune: the proposal this round's quote cases edit."""
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
HOURS_PER_MONTH = 730.0  # gpuwise/ledger.py HOURS_PER_MONTH: 8,760 / 12, what a monthly bill covers


def _rent(**acq) -> dict:
    return {**RENT, "acquisition": {**RENT["acquisition"], **acq}}


def _hw(**hw) -> dict:
    return {**_rent(hourly_usd=2.49), "hardware": {**H100X8, **hw}}


def _assumed(*words: str):
    """Estimated (JSON, nothing on stderr) with an assumption whose reason holds every one of ``words``: what was
    read from a name is said, never silent."""
    def check(r) -> bool:
        doc = _json(r) if r.returncode in (0, 1) and not r.stderr.strip() else None
        reasons = [a.get("reason", "") for a in (doc or {}).get("assumptions", [])]
        return any(all(w in reason for w in words) for reason in reasons)
    return check


def _rows_said(*words: str, imported: int = 0, absent: tuple[str, ...] = ()):
    """The import's report (stdout and stderr) holds every one of ``words`` and none of ``absent``; ``imported``
    offers imported (0: nothing written, exit 2)."""
    def check(r) -> bool:
        text = r.stdout + r.stderr
        if any(w not in text for w in words) or any(a in text for a in absent) or "Traceback" in text:
            return False
        if imported:
            return _imported(imported)(r)
        return r.returncode == 2 and not (r.cwd / "ov").exists()
    return check


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]
    _plan = functools.partial(_edited, plan)
    plan_text = ("plan", "plan.yaml")

    # ------------------------------------------------------------ a rental's price as a quote or price list writes it
    acase("quote55: hourly_usd '$19.92/node/hr' (an 8-GPU node's price): refused, a GPU's 2.49 offered", _rent(hourly_usd="$19.92/node/hr"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49", absent=("must be a number",)))
    acase("quote55: hourly_usd '2.49$' (the sign after the number): refused, 2.49 offered", _rent(hourly_usd="2.49$"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49", absent=("must be a number",)))
    acase("quote55: hourly_usd '17.5 元/卡/小时' (a Chinese price list's card-hour) in a USD proposal: refused, CNY named", _rent(hourly_usd="17.5 元/卡/小时"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "CNY", absent=("must be a number",)))
    acase("quote55: hourly_usd '¥17.5/GPU·h' (a middle dot in GPU-hour) in a USD proposal: refused, CNY named", _rent(hourly_usd="¥17.5/GPU·h"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "CNY", absent=("must be a number",)))
    acase("quote55: hourly_usd '$1,793/mo' (a month's rental of one GPU): refused, the hour's 2.456 offered (1,793 / 730 hours)", _rent(hourly_usd="$1,793/mo"),
          _refused_no("p.yaml", "acquisition.hourly_usd", f"{1793 / HOURS_PER_MONTH:.4g}", "month", absent=("must be a number",)))
    acase("quote55: hourly_usd '$2.49/hr': refused, 2.49 offered (as before)", _rent(hourly_usd="$2.49/hr"), _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49"))
    acase("quote55: hourly_usd '2,49 €': refused, EUR named (as before)", _rent(hourly_usd="2,49 €"), _refused_no("p.yaml", "acquisition.hourly_usd", "EUR"))
    acase("quote55: hourly_usd '¥17.5/卡时' in a USD proposal: refused, CNY named (as before)", _rent(hourly_usd="¥17.5/卡时"), _refused_no("p.yaml", "acquisition.hourly_usd", "CNY"))

    # ------------------------------------------------------------ GPU and node counts as a quote prints them
    for given, meant in (("8 × H100", 8), ("x8", 8), ("8卡", 8), ("8张", 8), ("8块", 8), ("16 (2 × 8)", 16)):
        acase(f"count55: hardware.count {given!r}: refused, {meant} offered", _hw(count=given, nodes=2 if meant == 16 else 1),
              _refused_no("p.yaml", "hardware.count", f"write {meant}", absent=("must be a whole number",)))
    acase("count55: hardware.count '2 nodes' (the servers in the GPUs' field): refused, nodes named as where they go", _hw(count="2 nodes"),
          _refused_no("p.yaml", "hardware.count", "put 2 in nodes", absent=("must be a whole number",)))
    acase("count55: hardware.count '16 (2 nodes)' (the GPUs and their servers in one cell): refused, 16 offered, the servers said to go apart", _hw(count="16 (2 nodes)", nodes=2),
          _refused_no("p.yaml", "hardware.count", "write 16", "put 2 in the field for servers", absent=("must be a whole number",)))
    acase("count55: hardware.count '8x': refused, 8 offered (as before)", _hw(count="8x"), _refused_no("p.yaml", "hardware.count", "write 8"))
    acase("count55: hardware.nodes '2台' (machines counted in Chinese): refused, 2 offered", _hw(count=16, nodes="2台"),
          _refused_no("p.yaml", "hardware.nodes", "write 2", absent=("must be a whole number",)))
    pcase("count55: owned count '8 × RTX 4090': refused, 8 offered", _plan(lambda d: d["owned"][0].update(count="8 × RTX 4090")),
          _refused_no("plan.yaml", "owned[0].count", "write 8", absent=("must be a whole number",)), argv=plan_text)
    pcase("count55: owned count '2 servers' (the servers in the GPUs' field): refused, owned[0].servers named", _plan(lambda d: d["owned"][0].update(count="2 servers")),
          _refused_no("plan.yaml", "owned[0].count", "put 2 in servers", absent=("must be a whole number",)), argv=plan_text)

    # ------------------------------------------------------------ the pricing plan in the mode field
    for given, meant in (("on-demand", "rent"), ("On Demand", "rent"), ("reserved", "rent"), ("spot", "rent"), ("租用", "rent"), ("购买", "buy")):
        acase(f"mode55: acquisition.mode {given!r}: refused, {meant} offered", {**RENT, "acquisition": {"mode": given, "provider": "lambda"}},
              _refused_no("p.yaml", "acquisition.mode", f"did you mean {meant}?"))
    acase("mode55: acquisition.mode 'purchase': refused, buy offered (as before)", {**RENT, "acquisition": {"mode": "purchase"}},
          _refused_no("p.yaml", "acquisition.mode", "did you mean buy?"))

    # ------------------------------------------------------------ models with their organisation and quantisation
    serve = {k: v for k, v in SERVE8.items() if k != "precision"}
    rcase("model55: 'meta-llama/Llama-3.1-70B-Instruct-AWQ' (no precision): estimated at int4, the reading said",
          {"workload": {**serve, "model": "meta-llama/Llama-3.1-70B-Instruct-AWQ"}}, _assumed("int4"))
    rcase("model55: 'Qwen/Qwen3-235B-A22B-FP8' (no precision): estimated at fp8, the reading said",
          {"workload": {**serve, "model": "Qwen/Qwen3-235B-A22B-FP8"}}, _assumed("fp8"))
    rcase("model55: 'Qwen3-235B-A22B-FP8' beside precision bf16: refused, fp8 named (as before)",
          {"workload": {**SERVE8, "model": "Qwen3-235B-A22B-FP8"}}, _refused_no("r.yaml", "workload.model", "fp8", "bf16"))
    # mended by pasted66 (hostile round 56): the repository was priced at bf16, its reading said; it holds one file for
    # each of several quantizations, and is now refused, asking which (precision, or the file's quant type)
    rcase("model55: 'Qwen2.5-72B-Instruct-GGUF' (a repository of several GGUF files, no precision): refused, asking which file is served",
          {"workload": {**serve, "model": "Qwen2.5-72B-Instruct-GGUF"}}, _refused_no("r.yaml", "workload.model", "GGUF repository", "precision"))
    rcase("model55: 'meta-llama/Llama-3.1-8B-Instruct:latest' (an Ollama tag on a Hugging Face id): refused, llama-3.1-8b offered (as before)",
          {"workload": {**serve, "model": "meta-llama/Llama-3.1-8B-Instruct:latest"}}, _refused_no("r.yaml", "workload.model", "llama-3.1-8b"))

    # ------------------------------------------------------------ GPUs as vendors print them
    body = {"r.yaml": json.dumps({"workload": SERVE8})}
    for given, gpu in (("NVIDIA H100 80GB HBM3", "h100-80gb-sxm"), ("H100-SXM5-80GB", "h100-80gb-sxm"), ("Instinct MI300X OAM", "mi300x"),
                       ("NVIDIA A100-SXM4-80GB", "a100-80gb-sxm")):
        case(f"gpu55: --gpu {given!r}: read as {gpu} (as before)", body, ["estimate", "r.yaml", "--gpu", given, "--format", "json"], expect="any", check=_read_as(gpu))
    pcase("gpu55: owned gpu 'GeForce RTX 4090 Founders Edition' (NVIDIA's own board): refused, rtx-4090 offered, never the RTX 4000 Ada",
          _plan(lambda d: d["owned"][0].update(gpu="GeForce RTX 4090 Founders Edition")),
          _refused_no("plan.yaml", "owned[0].gpu", "rtx-4090", absent=("rtx-4000-ada",)), argv=plan_text)

    # ------------------------------------------------------------ a plan's months as a spreadsheet shows them
    year = dt.date.today().year + 1

    def _at(value) -> dict:  # the example plan's pretrain run, once, at ``value``
        return _plan(lambda d: d["workloads"][2].update(cadence={"at_month": value}))

    for given, meant in ((f"{year}-01", _plan_month(year, 1)), (f"Jan {year}", _plan_month(year, 1)), (f"Jan-{year % 100:02d}", _plan_month(year, 1)),
                         (f"H2 {year}", _plan_month(year, 7))):
        pcase(f"month55: at_month {given!r}: refused, at_month: {meant} offered", _at(given),
              _refused_no("plan.yaml", "workloads[2].cadence.at_month", f"at_month: {meant}", absent=("must be a whole number",)), argv=plan_text)
    pcase(f"month55: at_month 'FY{year % 100:02d} Q1' (a fiscal quarter): refused, the fiscal year's start said to be unknown",
          _at(f"FY{year % 100:02d} Q1"), _refused_no("plan.yaml", "workloads[2].cadence.at_month", "fiscal", absent=("must be a whole number",)), argv=plan_text)
    pcase("month55: owned bought 'Mar-24' (Excel's mmm-yy): refused, 2024-03 offered", _plan(lambda d: d["owned"][0].update(bought="Mar-24")),
          _refused_no("plan.yaml", "owned[0].bought", "write 2024-03"), argv=plan_text)
    pcase("month55: owned bought '2024 Q1' (a quarter): refused, its months said", _plan(lambda d: d["owned"][0].update(bought="2024 Q1")),
          _refused_no("plan.yaml", "owned[0].bought", "2024-01", "2024-03"), argv=plan_text)

    # ------------------------------------------------------------ files pasted from a web page or a sheet
    case("file55: indented with no-break spaces (a web page's copy): refused, U+00A0 named at its line", {"r.yaml": "workload:\n\u00a0\u00a0task: inference\n\u00a0\u00a0model: llama-3.1-8b\n"},
         list(EST), expect="any", check=_refused_no("r.yaml", "line 2", "no-break space", absent=("valid keys",)))
    case("file55: a tab between a key and its value (a sheet's two cells): refused, 'task: inference' offered", {"r.yaml": "workload:\n  task\tinference\n  model\tllama-3.1-8b\n"},
         list(EST), expect="any", check=_refused_no("r.yaml", "line 2", "task: inference", absent=("valid keys",)))
    case("file55: a BOM, CRLF and a tab after each colon: estimated", {"r.yaml": "\ufeffworkload:\r\n  task:\tinference\r\n  model:\tllama-3.1-8b\r\n"},
         list(EST), expect="any", check=_read_as("h100-80gb-sxm"))
    rcase("file55: smart quotes around a choice (“inference”): refused, inference offered (as before)", {"workload": {**SERVE8, "task": "“inference”"}},
          _refused_no("r.yaml", "workload.task", "did you mean inference?"))
    case("file55: the model key twice (a quote pasted over the draft): refused, the line named (as before)",
         {"r.yaml": "workload:\n  task: inference\n  model: llama-3.1-8b\n  model: llama-3.1-70b\n"}, list(EST), expect="any", check=_refused("r.yaml", "line 4", "duplicate key 'model'"))
    case("file55: a merge key over a top-level anchor: refused, the anchor's key named (as before)",
         {"r.yaml": "base: &b\n  task: inference\n  model: llama-3.1-8b\nworkload:\n  <<: *b\n  model: llama-3.1-70b\n"}, list(EST), expect="any", check=_refused("r.yaml", "base"))

    # ------------------------------------------------------------ price CSVs saved from a quote
    head = "gpu,gpus,price\n"
    case("csv55: '$2.49/GPU/hr' on an 8-GPU row (the price column is the instance's): never 'write 2.49', the instance's 19.92 offered",
         {"c.csv": head + "H100 80GB SXM,8,$2.49/GPU/hr\n"}, IMPORT, expect="any", check=_rows_said("19.92", absent=("write 2.49",)))
    case("csv55: '2.49 / GPU / hr' on a 1-GPU row: refused, 2.49 offered", {"c.csv": head + "H100 80GB SXM,1,2.49 / GPU / hr\n"}, IMPORT, expect="any",
         check=_rows_said("write 2.49"))
    case("csv55: a GPU count '8 × H100': the row refused, 8 offered", {"c.csv": head + "H100 80GB SXM,8 × H100,20\n"}, IMPORT, expect="any", check=_rows_said("write 8"))
    case("csv55: the count in the GPU's name ('8x H100 SXM') and no count: the row refused, gpus 8 and the GPU offered", {"c.csv": head + "8x H100 SXM,,20\n"}, IMPORT,
         expect="any", check=_rows_said("8x H100 SXM", "gpus 8", absent=("count '' is not a number",)))
    case("csv55: a sheet's header ('GPU Model,Qty,Price/hr (USD)'): refused, the columns to rename said", {"c.csv": "GPU Model,Qty,Price/hr (USD)\nH100 80GB SXM,8,20\n"}, IMPORT,
         expect="any", check=_refused("c.csv", "'GPU Model' as gpu", "'Qty' as gpus", "as price"))
    case("csv55: a title row above the header: refused, the header at line 2 named", {"c.csv": "Acme GPU Cloud price list,,\ngpu,gpus,price\nH100 80GB SXM,8,20\n"}, IMPORT,
         expect="any", check=_refused("c.csv", "line 2"))
    case("csv55: a row priced 'Contact sales' beside a priced one: left out, the other imported (as before)", {"c.csv": head + "H100 80GB SXM,8,Contact sales\nA100 80GB SXM,8,12\n"},
         IMPORT, expect="any", check=_rows_said("Contact sales", imported=1))
    case("csv55: 'NVIDIA H100 80GB HBM3' and 'Instinct MI300X OAM' as the GPU: imported (as before)", {"c.csv": head + "NVIDIA H100 80GB HBM3,8,20\nInstinct MI300X OAM,8,24\n"},
         IMPORT, expect="any", check=_imported(2))
    case("cli55: --gpu '8 × H100': refused, the GPU and --gpus 8 offered (as before)", body, ["estimate", "r.yaml", "--gpu", "8 × H100"], expect="any",
         check=_refused("--gpu", "--gpus 8"))
    acase("quote55: a proposal whose quote is in the answer: 8 H100 at 2.49 audited (JSON)", _rent(hourly_usd=2.49), lambda r: _answered(r))
