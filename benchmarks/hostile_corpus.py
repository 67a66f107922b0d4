# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""The hostile corpus (issue 26 items 5-6): 3,596 cases, 344 to round 9, 186 of round 10 (in
benchmarks/hostile_round10.py: ask in a terminal, every overlay file, the user's cache, locale,
a read-only cwd, devices), 210 of round 11 (benchmarks/hostile_round11.py: plan inputs, price
CSVs, markup in HTML and Markdown reports, explain, batches, confusable ids, number forms), 210
of round 12 (benchmarks/hostile_round12.py: YAML tags, directives and keys that are not text, C1
controls and separators, options given twice, CSV dialects, contradictory plans, unreadable batch
members, closed streams, a removed cwd, concurrent writers, peak memory) and 163 of round 13
(benchmarks/hostile_round13.py: subnormal numbers, names that are not UTF-8, degenerate plans,
memory junction temperatures around each throttle point, other drivers' reports, misspelt
commands and options, files of another kind, house rules comparing fields of two kinds) and 158 of round 14 (benchmarks/hostile_round14.py: T.Limit-form and
HBM2e reports around their memory's limits, a throttle point for any memory type in an overlay, units and scripts
nvidia-smi never writes, other vendors' tools, digits of other scripts, versions as YAML numbers, right-to-left
and combining marks in names, output paths through linked folders, a cache entry linking to an input, files
changed with their size and time kept, python -OO and PYTHONWARNINGS=error, Ctrl-C as the command starts) and 127 of round 15
(benchmarks/hostile_round15.py: a serving workload's own fields at their edges, YAML tags no safe loader builds and
self-holding aliases, plan traffic growing past its bound or past any fleet, price CSVs by semicolon, tab and a million
rows, MIG/mixed/HBM3/GDDR7 seller reports, -o onto a FIFO, socket or 0000 report, output codecs that take no error
handler, OSC/BEL escapes) and 137 of round 16 (benchmarks/hostile_round16.py: inputs read from standard input with -o
onto them, -o onto gpuwise's own templates, message catalog and modules, options given as empty text, ask with piped
answers, ulimit on descriptors and file size, Ctrl-C while the cache is first written and four processes filling one
cache, house-rule messages reaching attributes and indexes, HBM3/HBM3e reports around their own memory limit, stateful
output codecs) and 156 of round 17 (benchmarks/hostile_round17.py: seller's reports in every encoding and line ending
a Windows or Mac copy gives, saved again as ANSI, cut, doubled, padded; inputs, house rules and overlays in UTF-16,
UTF-32, CRLF and Latin-1; serials of digits unquoted; 010, 08, 1:20 in every number; odd house-rule folder members;
spreadsheet CSVs; -o onto hard links, read-only and 0640 reports; batches sharing a refused report; --lang as a
locale; cache directories that are files or open to all) and 120 of round 18 (benchmarks/hostile_round18.py:
hex, underscore, Arabic-Indic and overflowing numbers, YAML 1.1 booleans and explicit tags in house rules and
overlays, XML external and parameter entities and XInclude in a seller's report, reports named /proc/self/environ or
/dev/stdin, -o onto house rules and overlays through links, a closing reader in every format, PYTHONOPTIMIZE=2 and
unwritable HOMEs) and 120 of round 19 (benchmarks/hostile_round19.py: a plan's serving and training knobs
written wrong, localized amounts and dates in owned hardware and constraints, job names differing by a trailing
space, workloads that are aliases of other sections; price CSVs in German, French, Swiss and Arabic-Indic forms;
seller's reports of two or eight GPUs picked by serial, [N/A] readings, decimal commas, missing units; -o with
--lang zh onto every input; signals at several moments of a plan and a batch, to the process or its group) and 154 of
round 20 (benchmarks/hostile_round20.py: ask answered key by key in a terminal, Ctrl-D and Ctrl-C at each prompt;
overlay dates as numbers, years and week dates; price CSV dates, currencies, spot flags, one instance for two
GPUs, misspelt GPUs a row each; YAML and JSON features in plans and proposals; -o onto /dev/full or a folder from
every writing command; unknown options and Chinese help on ASCII) and 181 of round 21 (benchmarks/hostile_round21.py:
the serving engine's newest knobs (KV pool, front ends, batching waits, EPLB, speculative fields) and the training
stack's at their edges; a small plan at its schema's edges; policy expressions in a house rule's times; a whole new
GPU in an overlay; explain and prices with odd ids; COLUMNS, TERM, HOME and GPUWISE_* values; ask with a bad -o with
and without a terminal) and 150 of round 22 (benchmarks/hostile_round22.py: max_batch_size; framework_version as
llama.cpp builds and tags, pre-releases, huge numbers and whitespace; framework names users type; TensorRT-LLM before
1.0 with prefill_cuda_graphs; SGLang's default share with tight memory; fits_as_requested of inference; smollm3-3b,
minimax-m2; DeepSpeed ZeRO-1/2 offload stack_version) and 146 of round 23 (benchmarks/hostile_round23.py: a plan's
owned hardware, year and budgets in either currency; price files' columns, units, dates, JSON and capitals; a
proposal's odd quantities, prices, vendors and facility; answers files resumed with and without a terminal; output
paths; numbers at the float range's ends; YAML anchors, merge keys and duplicate keys) and 89 of round 24
(benchmarks/hostile_round24.py: dp_shard, transformers_version, a windowed architecture, pins a stack cannot
run, ZeRO-3 on torchtitan, MoE models on each stack, overlap_comm false with ZeRO-3) and 119 of round 25
(benchmarks/hostile_round25.py: the llmc / nanochat / litgpt stacks with pins they cannot run, the GB10 listed,
estimated, proposed, owned and asked to be rented, gpt-oss's FP4 checkpoints, release digits and the transformers
floor, a catalog model beside an architecture, FlashAttention-2 on compute capability 10.0) and 126 of round 26
(benchmarks/hostile_round26.py: api_servers 0 beside a rate, p95 targets, a GB10 neither rented nor priced and
priced by an overlay, the Spark's own power, offload auto, dp_shard and release refusals, the engine-sized KV pool,
plans of owned hardware over a year and of unpriced GPUs, price CSVs with a BOM, semicolons, duplicates and odd
prices) and 119 of round 27 (benchmarks/hostile_round27.py: DGX Sparks bought in an audit, NET-SLOW-NETWORK's per-GPU
threshold, mixed_precision, hybrid catalog models, NVFP4 on SM120 and B300, plans of owned hardware, odd price CSVs)
and 114 of round 28 (benchmarks/hostile_round28.py: training knobs on a service, tp_comm_overlap, a stated KV pool
no GPU holds, bought GPUs idle, past an office's power, a plan's max_ttft_ms and its older name, Nemotron-H,
Nemotron 3 Nano, Falcon-H1, Qwen3.5-397B, the RTX PRO 6000 Max-Q, SGLang's poll interval, a finding about another
configuration, GPUs a copy leaves idle) and 36 of round 29 (benchmarks/hostile_round29.py: TensorRT-LLM's prompt hold
off TensorRT-LLM, the host-server share judged stale, the DGX Spark priced, the question read back, v3 serving
options in plans and audits) and 40 of round 30 (benchmarks/hostile_round30.py: optimum-habana off Gaudi in
recommend, audit, plan and an overlay, recurrent_state_dtype where it does not apply and as torch and the engines spell
it, Gemma 4's KV at TP 8, GLM-4.7-Flash and the new aliases, Sparks priced per system and cabled in a ring, the MI325X's
GEMM clock, NVFP4 and long prompts) and 37 of round 31 (benchmarks/hostile_round31.py: SGLang's attention_backend
on other engines, misspelt, in plans, audits and on AMD, the Triton walk in the step's formula, the hybrid's
overlap-off host time, torchtitan's local batch, xtuner with a pipeline pinned, Megatron-Core's pinned virtual
stages, a context past the model's window, the Workload line) and 36 of round 32 (benchmarks/hostile_round32.py: an
attention backend of the other maker, a pipeline pinned on a stack without one in estimate, torchtitan's micro-batch on
the estimate's screen, the rules that refuse an estimate, an overlay's stack engine, Gemma 4, GLM-4.7-Flash, DGX
Sparks, recurrent_state_dtype, a context past the window) and 35 of round 33 (benchmarks/hostile_round33.py: SGLang's
fused-kernel list with and without a release, the published FP4 checkpoints named, attention backends of one maker or generation
audited and planned, the day's catalog entries, context parallelism under recomputation) and 35 of round 34
(benchmarks/hostile_round34.py: issue 22's buyer questions -- R1, V3.x, Kimi K2 and GLM-5 on one 8-GPU node, one
stream, a peak and a request rate with p95 targets; offloaded fine-tunes on rented instances whose RAM is short or
just enough, a misspelt instance or one of another GPU or provider, the same bought and planned) and 35 of round 35
(benchmarks/hostile_round35.py: knowledge overlays of sparse_attention, layer_norm_kernels, sparse_indexer_kernels,
compiled_norms_from, pp_decode_batch, gpus_excluded and host_uplink_gpus; TP 8 x PP 3 pinned on 23 and 25 GPUs, a
pipeline deeper than the model, rates of 1e-9 and 1e12 a second, GLM-5.2 and MiniMax-M3 at 1M tokens, an instance
spelt with look-alikes, offloaded fine-tunes planned rented only) and 34 of round 36 (benchmarks/hostile_round36.py:
plan files with a horizon of 0, a run after it, a zero-token job, budgets of 0 / NaN / 1e30, owned GPUs of another type,
500 workloads, a name used twice or with a right-to-left override, offloaded fine-tunes rented only on L4s or bought
only; rented_host_ram and mfu_by_gpu overlays, an instance with a trailing space or too few GPUs, model aliases in
another case or with a quantization suffix) and 35 of round 37 (benchmarks/hostile_round37.py: selective_op on a MoE, in
another case or on a service; indexer_layers and alias_checkpoints overlays; an audit's provider-only rental; host RAM
past a DGX Spark's 128 GB, bought or owned; an offer's min_gpus above max_gpus; --fx-rate and fx_rate from Python; an
8-GPU instance for a one-sequence job; p95 TTFT targets of 0 and 1e-9) and 35 of round 38 (benchmarks/hostile_round38.py:
owned GPUs counted 0, 1e6 or 2.5, misspelt or in look-alikes, widened onto one owned server; GPUs bought only, unpriced
or sold as 4-GPU servers; every job too large; a yuan plan's saving and --fx-rate at its bound; deepgemm_moe_padding and
torch_router overlays with empty windows, misspelt architectures and models, points at one token count; rate points'
output tokens; CMP-FP4-EMULATED and TCO-BUY-NOT-WEIGHED; an alias bomb in an overlay) and 35 of round 39
(benchmarks/hostile_round39.py: etp and ep pins a count or the model's experts cannot hold, cut_cross_entropy written
loosely, serial_shared_expert and read_bytes_per_fp32_flop overlays, framework_version tags, 9 GPUs on one AutoDL
node, cloud fees at 0, below 0 and NaN, request rates at 1e-9 and 1e7 with the KV in flight, look-alike names four
parts share, owned GPUs without a price, JSON into closed streams) and 35 of round 40 (benchmarks/hostile_round40.py:
framework_version builds at and past 64 characters, rc and post mixed, padded or in Arabic-Indic digits;
scheduled_ahead overlays; offloaded runs no rented server holds, planned rent or buy; an estimate in the other
currency and --fx-rate at 0 and 1e-12; speculative decoding without a method; an AWS rental's empty or zero cloud
section; a 21-workload plan brief with a blocker; ep at the experts and past the GPUs) and 37 of round 41
(benchmarks/hostile_round41.py: superscript, circled and Arabic-Indic digits in every numeric field, on the command
line and typed into ask; ep on a dense model or not dividing the experts, served, planned and audited;
mla_default_before and scheduled_ahead overlays; offloaded runs audited bought and planned in yuan; partial cloud
sections; api_unpriced and each service's self-hosting beside work nothing runs; --fx-rate against the ledger
sums; a plan brief with two blockers), over every command and file the contract defines -- requirements, proposals, a seller's nvidia-smi files, batches, plan files, price CSVs, house
rules, knowledge overlays, output paths, pipes, signals, environment variables and locale. Each case
is run in this process (tests/clirun.py) or, for pipes, signals and the interpreter's encoding, as a
real process, and judged against the promise: bad input is one line on stderr and exit 2 (with the
words expected, such as a close match), never a traceback or an internal error; -o never replaces an
input; an interrupt leaves the old output; a closed pipe keeps the verdict's exit status; control
characters are escaped. The fixed failures are kept as tests in tests/test_hostile_ninth.py.

Run from a checkout::

    python benchmarks/hostile_corpus.py            # one line per case: CLEAN, FAIL or Q, then the counts
    python benchmarks/hostile_corpus.py "smi:"     # only the cases whose name holds the text
    python benchmarks/hostile_corpus.py round10    # only round ten's (round11..round41: eleven's to forty-first's)

Exit status 1 when a case fails.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.clirun import gpuwise  # noqa: E402

EX = ROOT / "examples"
LORA = (EX / "lora-70b.yaml").read_text()
PROP = (EX / "proposal-good-lora-8xh100.yaml").read_text()
PLAN = (EX / "plan-team-4090.yaml").read_text()
SMI = (ROOT / "tests/data/nvidia_smi/derived_rtx-3080-v13_as-3090-gddr6x-86c.xml").read_text()
CUDA_RULE = (EX / "house-rules" / "cuda-only.yaml").read_text()
USED = ("workload: {task: inference, model: llama-2-7b}\nhardware: {gpu: rtx-3090, count: 1}\n"
        "acquisition: {mode: buy, condition: used, unit_price_usd: 400}\nused_cards:\n"
        "  - {serial: '1', nvidia_smi: r.xml}\n")
CSV = "gpu,gpus,price\nH100 80GB SXM,8,20\n"

CASES: list = []


def case(name, files, argv, expect="bad", has=(), lacks=(), check=None, real=False, env=None, stdin="", prep=None,
         cwd=None):
    CASES.append(dict(name=name, files=files, argv=argv, expect=expect, has=has, lacks=lacks, check=check,
                      real=real, env=env, stdin=stdin, prep=prep, cwd=cwd))


import yaml as _y  # noqa: E402

_lora = _y.safe_load(LORA)


def patched(path, value, base=None):
    import copy
    d = copy.deepcopy(base if base is not None else _lora)
    cur = d
    keys = path.split(".")
    for k in keys[:-1]:
        cur = cur.setdefault(k, {})
    if value is DEL:
        cur.pop(keys[-1], None)
    else:
        cur[keys[-1]] = value
    return _y.safe_dump(d, allow_unicode=True, width=10**9)


DEL = object()

for name, path, value, has in [
    ("req: model misspelt", "workload.model", "llama-3.1-70bb", ["did you mean", "llama-3.1-70b"]),
    ("req: seq_len 1e400 (inf)", "workload.seq_len", float("inf"), ["seq_len"]),
    ("req: seq_len negative", "workload.seq_len", -1, ["seq_len"]),
    ("req: seq_len bool", "workload.seq_len", True, ["seq_len"]),
    ("req: seq_len 10**30", "workload.seq_len", 10**30, ["seq_len"]),
    ("req: seq_len 0.5", "workload.seq_len", 0.5, ["seq_len"]),
    ("req: params_b NaN text", "workload.params_b", "NaN", ["params_b"]),
    ("req: model a list", "workload.model", ["a", "b"], ["model"]),
    ("req: model a mapping", "workload.model", {"a": 1}, ["model"]),
    ("req: model 5000 chars", "workload.model", "m" * 5000, ["model"]),
    ("req: model with ANSI escape", "workload.model", "\x1b[2Jllama", ["model", "\\x1b"]),
    ("req: model with RTL override", "workload.model", "llama\u202e07b", ["model", "\\u202e"]),
    ("req: task misspelt", "workload.task", "finetunee", ["did you mean", "finetune"]),
    ("req: task upper case", "workload.task", "FineTune", []),
    ("req: precision fp3", "workload.precision", "fp3", ["precision"]),
    ("req: method lorra", "workload.method", "lorra", ["did you mean"]),
    ("req: train_tokens -1", "workload.train_tokens", -1, ["train_tokens"]),
    ("req: train_tokens 1e30", "workload.train_tokens", 1e30, ["train_tokens"]),
    ("req: batch_size 0", "workload.batch_size", 0, ["batch_size"]),
    ("req: batch_size 10**12", "workload.batch_size", 10**12, ["batch_size"]),
    ("req: global_batch_tokens 0", "workload.global_batch_tokens", 0, ["global_batch_tokens"]),
    ("req: global_batch_tokens 'lots'", "workload.global_batch_tokens", "lots", ["global_batch_tokens"]),
    ("req: parallelism tp 0", "workload.parallelism", {"tp": 0}, ["tp"]),
    ("req: parallelism tp 10**9", "workload.parallelism", {"tp": 10**9}, ["tp"]),
    ("req: parallelism unknown key", "workload.parallelism", {"tpp": 2}, ["did you mean"]),
    ("req: framework vlm", "workload.framework", "vlm", []),
    ("req: deadline_days 0", "constraints.deadline_days", 0, ["deadline_days"]),
    ("req: deadline_days 1e9", "constraints.deadline_days", 1e9, ["deadline_days"]),
    ("req: currency XYZ", "constraints.currency", "XYZ", ["currency"]),
    ("req: budget 'one grand'", "constraints.budget_usd", "one grand", ["budget"]),
    ("req: unknown top key close", "constraint", {"deadline_days": 3}, ["did you mean", "constraints"]),
    ("req: gpus list of unknown", "constraints.gpus", ["h1000"], []),
    ("req: gpus a string", "constraints.gpus", "h100", []),
    ("req: key with zero-width space", "workload.seq\u200blen", 4096, ["\\u200b"]),
    ("req: workload null", "workload", None, ["workload"]),
    ("req: workload a list", "workload", [1, 2], ["workload"]),
    ("req: architecture experts 1e9", "workload.architecture", {"experts": 10**9}, []),
    ("req: date where number", "workload.seq_len", __import__("datetime").date(2026, 1, 1), ["2026-01-01"]),
]:
    case(name, {"r.yaml": patched(path, value)}, ["recommend", "r.yaml"], has=has)

for name, text, has in [
    ("req: empty file", "", ["empty"]),
    ("req: comments only", "# nothing\n", ["empty"]),
    ("req: top-level list", "- a\n- b\n", []),
    ("req: top-level scalar", "hello\n", []),
    ("req: tab indentation", "workload:\n\ttask: finetune\n", ["line"]),
    ("req: duplicate key", LORA + "workload: {task: finetune}\n", ["duplicate"]),
    ("req: python tag", "workload: !!python/object:os.system {}\n", []),
    ("req: binary tag", "workload: !!binary aGVsbG8=\n", []),
    ("req: merge key into workload", "base: &b {task: finetune, model: llama-2-7b}\nworkload: {<<: *b}\n", []),
    ("req: two documents", LORA + "---\n" + LORA, []),
    ("req: octal-looking count 010 in seq_len", LORA.replace("workload:\n", "workload:\n  seq_len: 0100\n", 1)
     if "seq_len" not in LORA else LORA.replace("seq_len: 4096", "seq_len: 04096"), None),
    ("req: latin-1 bytes", None, ["UTF-8"]),
    ("req: utf-16 with BOM", None, None),
    ("req: CRLF line endings", LORA.replace("\n", "\r\n"), None),
    ("req: NUL byte", LORA + "\0", ["NUL"]),
    ("req: very long line 7MB", "workload: {task: finetune, model: '" + "x" * 7_000_000 + "'}\n", ["model"]),
    ("req: 9MB file", "# " + "x" * (9 * 1024 * 1024) + "\n", ["larger"]),
]:
    if text is None and name == "req: latin-1 bytes":
        text = LORA.encode() + "# caf\xe9\n".encode("latin-1")
    if text is None and name == "req: utf-16 with BOM":
        text = b"\xff\xfe" + LORA.encode("utf-16-le")
    exp = "ok" if has is None else "bad"
    case(name, {"r.yaml": text}, ["recommend", "r.yaml"], expect=exp, has=has or ())

# path-shaped inputs
case("path: a directory", {"d/x": ""}, ["recommend", "d"], has=["d: is a directory"])
case("path: FIFO with no writer", {"f": "FIFO"}, ["recommend", "f"], has=["FIFO"])
case("path: symlink loop", {"a": ("LINK", "b"), "b": ("LINK", "a")}, ["recommend", "a"], has=["a:"])
case("path: dangling link", {"a": ("LINK", "nowhere")}, ["recommend", "a"], has=["a:"])
case("path: /dev/zero", {}, ["recommend", "/dev/zero"], has=["/dev/zero"])
case("path: name of 300 chars", {}, ["recommend", "x" * 300 + ".yaml"], has=[])
case("path: name with newline", {"a\nb.yaml": LORA}, ["recommend", "a\nb.yaml", "--format", "json"], expect="ok")
case("path: name with escape, missing", {}, ["recommend", "\x1b]0;pwned\x07.yaml"], has=["\\x1b"])
case("path: NUL in name", {}, ["recommend", "a\0b.yaml"], has=[])

# options
for name, argv, has in [
    ("opt: --gpu with escape", ["estimate", "r.yaml", "--gpu", "H100\x1b[31m"], ["\\x1b"]),
    ("opt: --gpu misspelt", ["estimate", "r.yaml", "--gpu", "h1000"], ["did you mean"]),
    ("opt: --gpus 0", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "0"], ["--gpus"]),
    ("opt: --gpus -1", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "-1"], []),
    ("opt: --gpus 1e3", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "1e3"], ["--gpus"]),
    ("opt: --gpus 10**12", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "1000000000000"], ["out of range"]),
    ("opt: --fx-rate nan", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "nan"], ["--fx-rate"]),
    ("opt: --fx-rate inf", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "inf"], ["--fx-rate"]),
    ("opt: --fx-rate 0", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "0"], ["--fx-rate"]),
    ("opt: --fx-rate 1e300", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "1e300"], []),
    ("opt: --currency xyz", ["recommend", "r.yaml", "--currency", "xyz"], []),
    ("opt: --lang fr", ["recommend", "r.yaml", "--lang", "fr"], []),
    ("opt: --format pdf", ["recommend", "r.yaml", "--format", "pdf"], []),
    ("opt: --detail huge", ["recommend", "r.yaml", "--detail", "huge"], []),
    ("opt: unknown option with escape", ["recommend", "r.yaml", "--\x1b[2J"], ["[2J"]),
    ("opt: explain id with escape", ["explain", "MEM\x1b[2J"], ["\\x1b"]),
    ("opt: explain 5000-char id", ["explain", "X" * 5000], []),
    ("opt: prices --gpu unknown", ["prices", "--gpu", "h1000"], []),
    ("opt: prices --provider unknown", ["prices", "--provider", "nebiuss"], []),
    ("opt: gpus --format yaml", ["gpus", "--format", "yaml"], []),
    ("opt: prices --fx-rate 7.1 (gpus' option)", ["prices", "--fx-rate", "7.1"], ["--fx-rate is not an option of `gpuwise prices`"]),
    ("opt: prices --as-of before import", ["prices", "--as-of", "2025-01-01", "import", "x.csv"], ["`gpuwise prices import`"]),
]:
    case(name, {"r.yaml": LORA}, argv, has=has)

# ---------------------------------------------------------------- proposals (audit)
_prop = _y.safe_load(PROP)
for name, path, value, has in [
    ("prop: count 010 read as 10", "hardware.count", "RAW010", None),
    ("prop: count 0", "hardware.count", 0, ["count"]),
    ("prop: count 1e6", "hardware.count", 10**6, ["count"]),
    ("prop: hourly_usd negative", "acquisition.hourly_usd", -3.99, ["hourly_usd"]),
    ("prop: hourly_usd text $", "acquisition.hourly_usd", "$3.99", ["hourly_usd"]),
    ("prop: hourly_usd 1e300", "acquisition.hourly_usd", 1e300, ["hourly_usd"]),
    ("prop: mode rnet", "acquisition.mode", "rnet", ["did you mean"]),
    ("prop: provider unknown (free text by design)", "acquisition.provider", "lambdaa", None),
    ("prop: gpu misspelt", "hardware.gpu", "H100-80GG", []),
    ("prop: gpu ambiguous A100", "hardware.gpu", "A100", ["A100"]),
    ("prop: link nvswich", "hardware.link", "nvswich", ["did you mean"]),
    ("prop: host_ram_gb 1e12", "hardware.host_ram_gb", 1e12, ["host_ram_gb"]),
    ("prop: driver 5000 digits", "environment.driver", "5" * 5000, []),
    ("prop: driver with escape", "environment.driver", "550\x1b[2J", []),
    ("prop: cuda 'latest'", "environment.cuda", "latest", []),
    ("prop: os unknown", "environment.os", "templeos", None),
    ("prop: title with escape", "title", "Rent \x1b]0;pwned\x07", None),
    ("prop: title 100k chars", "title", "t" * 100_000, []),
    ("prop: storage tb -1", "cloud.storage", {"kind": "object", "tb": -1}, ["tb"]),
    ("prop: egress 1e30", "cloud.egress_tb_per_month", 1e30, []),
]:
    text = _y.safe_dump(_prop, width=10**9)
    if value == "RAW010":
        text = text.replace("count: 8", "count: 010")
        case(name, {"p.yaml": text}, ["audit", "p.yaml", "--format", "json"], expect="ok01",
             check=lambda r: '"count": 10' in r.stdout)
        continue
    text = patched(path, value, _prop)
    if has is None:
        case(name, {"p.yaml": text}, ["audit", "p.yaml"], expect="ok",
             check=lambda r: "\x1b" not in r.stdout and "\x1b" not in r.stderr)
    else:
        case(name, {"p.yaml": text}, ["audit", "p.yaml"], has=has)
case("prop: provider lambdaa gets a close-match note", {"p.yaml": patched("acquisition.provider", "lambdaa", _prop)},
     ["audit", "p.yaml", "--format", "json"], expect="ok", check=lambda r: "did you mean 'lambda'?" in r.stdout)

# seller nvidia-smi files
def smi(xml):
    return {"p.yaml": USED, "r.xml": xml}


GPU = SMI
for name, files, has in [
    ("smi: absolute path", {"p.yaml": USED.replace("r.xml", "/etc/passwd")}, ["outside"]),
    ("smi: ../ path", {"p.yaml": USED.replace("r.xml", "../r.xml")}, ["outside"]),
    ("smi: FIFO", {"p.yaml": USED, "r.xml": "FIFO"}, ["regular file"]),
    ("smi: directory", {"p.yaml": USED, "r.xml/x": ""}, ["regular file"]),
    ("smi: link to outside", {"p.yaml": USED, "r.xml": ("LINK", "/etc/hostname")}, ["outside"]),
    ("smi: empty", smi(""), ["empty"]),
    ("smi: gzip", smi(b"\x1f\x8b\x08junk"), ["gzip"]),
    ("smi: text report", smi("==============NVSMI LOG==============\n\nTimestamp : x\nDriver Version : 535\n"), []),
    ("smi: two roots", smi(SMI + SMI.split("?>", 1)[1]), []),
    ("smi: billion laughs", smi('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
                               "<nvidia_smi_log>&b;</nvidia_smi_log>"), ["unsafe"]),
    ("smi: external entity", smi('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                "<nvidia_smi_log>&x;</nvidia_smi_log>"), ["unsafe"]),
    ("smi: encoding bogus", smi('<?xml version="1.0" encoding="bogus-9"?><nvidia_smi_log/>'), []),
    ("smi: NUL bytes", smi(SMI.replace("<timestamp>", "<timestamp>\0")), []),
    ("smi: namespace root", smi('<?xml version="1.0"?><x:nvidia_smi_log xmlns:x="urn:x"><gpu/></x:nvidia_smi_log>'), []),
    ("smi: temperature 1e309", smi(SMI.replace("<gpu_temp>", "<gpu_temp>1e309 C<!--", 1).replace(
        "</gpu_temp>", "--></gpu_temp>", 1)), []),
    ("smi: 70-digit power", smi(SMI.replace("<average_power_draw>139.62 W", "<average_power_draw>" + "9" * 70 + " W", 1)),
     []),
    ("smi: temperature 10**40 C", smi(SMI.replace("<gpu_temp>74 C", "<gpu_temp>" + "9" * 40 + " C", 1)), []),
    ("smi: fan 1e3 %", smi(SMI.replace("<fan_speed>0 %", "<fan_speed>1e3 %", 1)), ["1e3"]),
    ("smi: 65 gpus", smi('<?xml version="1.0"?><nvidia_smi_log>' + "".join(
        f'<gpu id="0000:{i:02x}:00.0"><product_name>NVIDIA GeForce RTX 3090</product_name></gpu>'
        for i in range(65)) + "</nvidia_smi_log>"), ["more than 64"]),
    ("smi: 5 MB", smi(SMI.replace("<timestamp>", "<!--" + "x" * (5 * 1024 * 1024) + "--><timestamp>")), ["larger"]),
    ("smi: utf-16 without mark, html escaped", smi("&lt;nvidia_smi_log&gt;"), []),
    ("smi: deep nesting 50", smi(SMI.replace("<timestamp>", "<a>" * 50 + "</a>" * 50 + "<timestamp>")), ["nested"]),
]:
    case(name, files, ["audit", "p.yaml"], has=has)

case("smi: product name with escape is escaped", smi(SMI.replace("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3080\x1b[2J", 1)),
     ["audit", "p.yaml"], expect="any", check=lambda r: "\x1b" not in r.stdout + r.stderr)
case("smi: serial with bidi", smi(SMI.replace("<serial>REDACTED", "<serial>12\u202e34", 1)),
     ["audit", "p.yaml"], expect="any", check=lambda r: "\u202e" not in r.stdout + r.stderr)
case("smi: CDATA product name", smi(SMI.replace("NVIDIA GeForce RTX 3090", "<![CDATA[NVIDIA GeForce RTX 3080]]>", 1)),
     ["audit", "p.yaml"], expect="ok01")
case("smi: processing instruction", smi(SMI.replace("<timestamp>", "<?pi x?><timestamp>", 1)),
     ["audit", "p.yaml"], expect="ok01")
case("smi: 40 cards one report", {"p.yaml": USED.replace("  - {serial: '1', nvidia_smi: r.xml}\n", "".join(
    f"  - {{serial: 's{i}', nvidia_smi: r.xml}}\n" for i in range(40))).replace("count: 1", "count: 40"), "r.xml": SMI},
     ["audit", "p.yaml"], expect="any", check=lambda r: "internal error" not in r.stderr)

# batches
case("batch: folder with a FIFO member", {"b/a.yaml": PROP, "b/f.yaml": "FIFO"}, ["audit", "b", "--format", "json"],
     expect="any", check=lambda r: r.returncode == 2 and "f.yaml" in r.stderr and "internal" not in r.stderr)
case("batch: folder with a dir member", {"b/a.yaml": PROP, "b/d.yaml/x": ""}, ["audit", "b"], expect="any",
     check=lambda r: r.returncode == 2 and "d.yaml: is a directory, not a YAML file" in r.stderr)
case("batch: folder with a link loop", {"b/a.yaml": PROP, "b/l.yaml": ("LINK", "l.yaml")}, ["audit", "b"],
     expect="any", check=lambda r: r.returncode in (1, 2) and "internal" not in r.stderr and "l.yaml" in r.stderr)
case("batch: empty folder", {"b/.keep": ""}, ["audit", "b"], has=["b"])
case("batch: folder of non-yaml", {"b/readme.txt": "hi"}, ["audit", "b"], has=[])
case("batch: same file twice", {"p.yaml": PROP}, ["audit", "p.yaml", "p.yaml"], expect="any",
     check=lambda r: "internal" not in r.stderr)
case("batch: -o onto a member", {"b/a.yaml": PROP, "b/c.yaml": PROP}, ["audit", "b", "-o", "b/c.yaml"], has=["c.yaml"],
     check=lambda r: True)
case("batch: -o onto the smi report", smi(SMI), ["audit", "p.yaml", "-o", "r.xml", "--format", "json"], has=["r.xml"])

# ---------------------------------------------------------------- plan files
_plan = _y.safe_load(PLAN)
for name, path, value, has in [
    ("plan: horizon 0", "horizon_months", 0, ["horizon_months"]),
    ("plan: horizon 10**6", "horizon_months", 10**6, ["horizon_months"]),
    ("plan: horizon inf", "horizon_months", float("inf"), ["horizon_months"]),
    ("plan: owned count 010", "owned", "RAW", None),
    ("plan: owned bought 2099-01", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2099-01",
                                               "paid_usd": 1}], ["bought"]),
    ("plan: owned bought 2026-13", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2026-13",
                                               "paid_usd": 1}], ["bought"]),
    ("plan: owned paid -1", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "paid_usd": -1}], ["paid_usd"]),
    ("plan: owned gpu misspelt", "owned", [{"gpu": "RTX 4909", "count": 8, "hosting": "office"}], []),
    ("plan: owned hosting attic", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "attic"}], ["hosting"]),
    ("plan: workloads a mapping", "workloads", {"a": 1}, ["workloads"]),
    ("plan: workloads empty", "workloads", [], ["workloads"]),
    ("plan: constraints unknown key", "constraints", {"budgett": 1}, []),
]:
    if value == "RAW":
        case(name, {"plan.yaml": PLAN.replace("count: 8", "count: 010")}, ["plan", "plan.yaml", "--format", "json"],
             expect="ok")
        continue
    case(name, {"plan.yaml": patched(path, value, _plan)}, ["plan", "plan.yaml"], has=has)


def wl(i, **over):
    import copy
    d = copy.deepcopy(_plan)
    d["workloads"][i].update(over)
    return _y.safe_dump(d, allow_unicode=True, width=10**9)


for name, text, has in [
    ("plan: cadence two kinds", wl(0, cadence={"per_month": 2, "at_month": 3}), ["cadence"]),
    ("plan: at_month past horizon", wl(2, cadence={"at_month": 99}), ["at_month"]),
    ("plan: growth 1e6", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": 1e6}), []),
    ("plan: hours_per_day 25", wl(1, cadence={"continuous": True, "hours_per_day": 25}), ["hours_per_day"]),
    ("plan: duplicate names", wl(1, name="lora-8b"), ["lora-8b"]),
    ("plan: name with escape", wl(0, name="x\x1b[2J"), None),
    ("plan: name 10k chars", wl(0, name="n" * 10_000), []),
    ("plan: targets rps 1e12", wl(1, targets={"requests_per_s": 1e12, "p95_ttft_ms": 2000}), None),
    ("plan: targets p95 negative", wl(1, targets={"requests_per_s": 2, "p95_ttft_ms": -1}), ["p95_ttft_ms"]),
    ("plan: deadline 0", wl(0, deadline_days=0), ["deadline_days"]),
    ("plan: workload missing", wl(0, workload=None), ["workload"]),
    ("plan: is a proposal", PROP, ["plan"]),
]:
    if has is None:
        case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], expect="any",
             check=lambda r: "\x1b" not in r.stdout + r.stderr and "internal" not in r.stderr and r.returncode in (0, 1, 2))
    else:
        case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], has=has)

# ---------------------------------------------------------------- price CSVs
for name, text, expect, has in [
    ("csv: BOM", "\ufeff" + CSV, "ok", ()),
    ("csv: NUL", CSV + "\0", "bad", ()),
    ("csv: decimal comma price", 'gpu,gpus,price\nH100 80GB SXM,8,"20,5"\n', "any", ()),
    ("csv: price nan", "gpu,gpus,price\nH100 80GB SXM,8,nan\n", "rows", ()),
    ("csv: price inf", "gpu,gpus,price\nH100 80GB SXM,8,inf\n", "rows", ()),
    ("csv: gpus 0", "gpu,gpus,price\nH100 80GB SXM,0,20\n", "rows", ()),
    ("csv: gpus 1e9", "gpu,gpus,price\nH100 80GB SXM,1000000000,20\n", "rows", ()),
    ("csv: gpus 010", "gpu,gpus,price\nH100 80GB SXM,010,20\n", "any", ()),
    ("csv: utf-16", None, "any", ()),
    ("csv: quoted newline in gpu", 'gpu,gpus,price\n"H100\n80GB SXM",8,20\n', "any", ()),
    ("csv: gpu name with escape", "gpu,gpus,price\nH100\x1b[2J,8,20\n", "any", ()),
    ("csv: 11 MB", CSV + ("H100 80GB SXM,8,20\n" * 600_000), "bad", ()),
    ("csv: gzip", b"\x1f\x8b\x08\x00junk", "bad", ["gzip"]),
    ("csv: header only", "gpu,gpus,price\n", "bad", ()),
    ("csv: ragged rows", "gpu,gpus,price\nH100 80GB SXM,8\n", "rows", ()),
    ("csv: formula cell", "gpu,gpus,price\n=cmd|' /C calc'!A0,8,20\n", "rows", ()),
]:
    if text is None:
        text = b"\xff\xfe" + CSV.encode("utf-16-le")
    if expect == "rows":  # each row's reason listed, then the one line: by design (round 6)
        case(name, {"p.csv": text}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any",
             check=lambda r: r.returncode == 2 and r.stderr.splitlines()[-1].startswith("gpuwise: p.csv: no row could")
             and "\x1b" not in r.stderr)
        continue
    case(name, {"p.csv": text}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect=expect, has=has,
         check=(lambda r: "\x1b" not in r.stdout + r.stderr and "internal" not in r.stderr and "Traceback" not in r.stderr)
         if expect == "any" else None)
for name, argv, has in [
    ("csv: --as-of 2026-02-30", ["--as-of", "2026-02-30"], ["--as-of"]),
    ("csv: --as-of future", ["--as-of", "2099-01-01"], ["--as-of"]),
    ("csv: --provider ../x", ["--provider", "../x"], ["provider"]),
    ("csv: --provider with escape", ["--provider", "m\x1b[2J"], ["\\x1b"]),
    ("csv: --provider 500 chars", ["--provider", "p" * 500], []),
]:
    case(name, {"p.csv": CSV}, ["prices", "import", "p.csv", "-o", "ov", *argv], has=has)
case("csv: -o into built-in knowledge", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o",
                                                            str(ROOT / "knowledge")], has=[])
case("csv: -o clouds.yaml is a directory", {"p.csv": CSV, "ov/clouds.yaml/x": ""},
     ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], has=["clouds.yaml"])
case("csv: -o is the CSV itself", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "p.csv"],
     has=["p.csv"])

# ---------------------------------------------------------------- house rules
for name, old, new, has in [
    ("rule: message {gpu_name!r}", "{gpu_name} is not", "{gpu_name!r} is not", []),
    ("rule: message width 10**6", "{gpu_name} is not", "{gpu_name:>1000000} is not", []),
    ("rule: message precision huge", "{gpu_name} is not", "{need_gb:.999999f} is not", []),
    ("rule: message unknown field", "{gpu_name} is not", "{gpu_nam} is not", ["did you mean"]),
    ("rule: message attribute access", "{gpu_name} is not", "{gpu_name.__class__} is not", []),
    ("rule: message index access", "{gpu_name} is not", "{gpu_name[0]} is not", []),
    ("rule: unknown fact field", "[cuda_device, ", "[cuda_devic, ", ["did you mean"]),
    ("rule: operator =~", '"==", false', '"=~", false', []),
    ("rule: value 1e-7", "[cuda_device, \"==\", false]", "[need_gb, \">\", 1e-7]", None),
    ("rule: value 10**30", "[cuda_device, \"==\", false]", "[need_gb, \">\", 1000000000000000000000000000000]", None),
    ("rule: value list literal", "[cuda_device, \"==\", false]", "[need_gb, \">\", [1, 2]]", []),
    ("rule: action block", "action: reject", "action: block", []),
    ("rule: topic unknown", "topic: compatibility", "topic: compatibilty", ["did you mean"]),
    ("rule: step unknown", "step: memory", "step: memroy", ["did you mean"]),
    ("rule: fact unknown", "fact: candidate", "fact: candidat", ["did you mean"]),
    ("rule: rules a mapping", "rules:\n  - id:", "rules:\n  x:\n    id:", []),
    ("rule: id with escape", "HOUSE-CUDA-ONLY", "HOUSE-\x1b[2J", []),
    ("rule: id 500 chars", "HOUSE-CUDA-ONLY", "HOUSE-" + "X" * 500, []),
    ("rule: id a list", "id: HOUSE-CUDA-ONLY", "id: [a, b]", []),
    ("rule: schema_version 2", "schema_version: 1", "schema_version: 2", ["schema_version"]),
    ("rule: title with escape shows escaped", "title: This team runs CUDA only", "title: \"CUDA \\e[2J only\"", None),
    ("rule: rationale empty", "rationale: \"Our", "rationale: \"\"\n    x: \"Our", []),
]:
    body = CUDA_RULE.replace(old, new)
    assert body != CUDA_RULE, name
    if has is None:
        case(name, {"hr/r.yaml": body, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], expect="ok01",
             check=lambda r: "\x1b" not in r.stdout + r.stderr)
    else:
        case(name, {"hr/r.yaml": body, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=has)
case("rule: dir with README.md", {"hr/README.md": "# hi", "hr/r.yaml": CUDA_RULE, "r.yaml": LORA},
     ["recommend", "r.yaml", "--rules", "hr"], expect="ok01")
case("rule: file .yml", {"hr/r.yml": CUDA_RULE, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], expect="ok01",
     check=lambda r: True)
case("rule: FIFO in dir", {"hr/r.yaml": "FIFO", "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=["r.yaml"])
case("rule: -o onto the rule", {"hr/r.yaml": CUDA_RULE, "r.yaml": LORA},
     ["recommend", "r.yaml", "--rules", "hr", "-o", "hr/r.yaml", "--format", "md"], has=["r.yaml"])
case("rule: explain house rule", {"hr/r.yaml": CUDA_RULE}, ["explain", "HOUSE-CUDA-ONLY", "--rules", "hr"], expect="ok")
case("rule: explain house misspelt", {"hr/r.yaml": CUDA_RULE}, ["explain", "HOUSE-CUDA-ONL", "--rules", "hr"],
     has=["did you mean"])

# ---------------------------------------------------------------- overlays
for name, fname, body, has in [
    ("kb: policy headroom 2", "policy.yaml", "memory_headroom_fraction: 2\n", ["memory_headroom_fraction"]),
    ("kb: policy unknown close", "policy.yaml", "memory_headroom_fractio: 0.1\n", ["did you mean"]),
    ("kb: policy value text", "policy.yaml", "memory_headroom_fraction: lots\n", []),
    ("kb: policy 1e-7 in range", "policy.yaml", "memory_headroom_fraction: 1e-7\n", None),
    ("kb: tco power price 1e300", "tco.yaml", "values: {electricity_usd_per_kwh_default: {value: 1e300, unit: USD, "
     "source: x y z}}\n", ["above 100"]),
    ("kb: tco resale floor 2", "tco.yaml", "values: {resale_floor_fraction: {value: 2, unit: x, source: x y z}}\n",
     ["above 1,"]),
    ("kb: tco usd_cny 1e300", "tco.yaml", "values: {usd_cny: {value: 1e300, unit: CNY per USD, source: x y z}}\n",
     ["usd_cny"]),
    ("kb: tco unknown key", "tco.yaml", "valuez: {}\n", ["did you mean"]),
    ("kb: models params_b 1e300", "models.yaml", "models:\n  - id: llama-2-7b\n    params_b: 1e300\n", ["params_b"]),
    ("kb: models new without source", "models.yaml", "models:\n  - id: my-model\n    params_b: 7\n", []),
    ("kb: clouds instance unknown gpu", "clouds.yaml",
     "instances:\n  - {provider: m, gpu: h1000, gpus: 8, usd_per_hour: 20, as_of: 2026-11-01, source: a page}\n", []),
    ("kb: prices as_of 2099", "prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: 1599, condition: new, "
     "unit: card, kind: street, as_of: 2099-02-01, source: a shop}\n", ["as_of"]),
    ("kb: unknown file gpu.yaml", "gpu.yaml", "gpus: []\n", []),
    ("kb: apis negative price", "apis.yaml", "apis:\n  - {id: x, usd_per_mtok_in: -1}\n", []),
    ("kb: serving unknown key", "serving.yaml", "framworks: {}\n", []),
    ("kb: software unknown key", "software.yaml", "driverz: {}\n", []),
    ("kb: runtime mfu 2", "runtime.yaml", "mfu: {hopper: {value: 2, source: abc}}\n", ["mfu"]),
    ("kb: runtime bucket 1e300", "runtime.yaml", "training: {bucket_bytes: {value: 1e300, source: abc}}\n", ["bucket_bytes"]),
    ("kb: gpus id a list", "gpus.yaml", "gpus:\n  - id: [a]\n", []),
    ("kb: file is a FIFO", "policy.yaml", "FIFO", []),
    ("kb: file is a dangling link", "policy.yaml", ("LINK", "nowhere"), []),
    ("kb: file with escape in key", "policy.yaml", "\"x\\e[2J\": 1\n", ["\\x1b"]),
]:
    files = {"r.yaml": LORA, f"kb/{fname}": body}
    if has is None:
        case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], expect="ok01")
    else:
        case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], has=has)
case("kb: subdir in overlay", {"r.yaml": LORA, "kb/sub/policy.yaml": "memory_headroom_fraction: 2\n"},
     ["recommend", "r.yaml", "--knowledge", "kb"], expect="any", check=lambda r: "internal" not in r.stderr)
case("kb: -o onto overlay file", {"r.yaml": LORA, "kb/policy.yaml": "memory_headroom_fraction: 0.1\n"},
     ["recommend", "r.yaml", "--knowledge", "kb", "-o", "kb/policy.yaml", "--format", "md"], has=["policy.yaml"])

# ---------------------------------------------------------------- output paths (in-process)
case("out: -o dir/", {"r.yaml": LORA, "d/x": ""}, ["recommend", "r.yaml", "-o", "d/"], has=["d"])
case("out: -o missing dir", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "nodir/x.md"], has=["nodir"])
case("out: -o .HTML upper", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x.HTML"], expect="ok01",
     check=lambda r: True)
case("out: -o .json.tmp", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x.json.tmp"], has=["suffix"])
case("out: -o hardlink to input", {"r.yaml": LORA, "h.md": ("HARD", "r.yaml")}, ["recommend", "r.yaml", "-o", "h.md"],
     has=["h.md"])
case("out: -o symlink to input", {"r.yaml": LORA, "s.md": ("LINK", "r.yaml")}, ["recommend", "r.yaml", "-o", "s.md"],
     has=["s.md"])
case("out: -o name with escape", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x\x1b[2J.zzz"], has=["\\x1b"])
case("out: -o /dev/full", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/full"], has=["cannot write"])
case("out: keeps 0600 mode", {"r.yaml": LORA, "o.md": ("MODE", 0o600)}, ["recommend", "r.yaml", "-o", "o.md"],
     expect="ok01", check=lambda r: stat.S_IMODE(os.stat(Path(r.cwd, "o.md")).st_mode) == 0o600)

# ---------------------------------------------------------------- environment, real processes
for name, env, argv, expect, has in [
    ("env: COLUMNS=0", {"COLUMNS": "0"}, ["gpus"], "ok", ()),
    ("env: COLUMNS=-5", {"COLUMNS": "-5"}, ["gpus"], "ok", ()),
    ("env: COLUMNS=abc", {"COLUMNS": "abc"}, ["rules"], "ok", ()),
    ("env: COLUMNS=10**9", {"COLUMNS": "1000000000"}, ["gpus"], "ok", ()),
    ("env: XDG_CACHE_HOME a file", {"XDG_CACHE_HOME": "/etc/hostname"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: XDG_CACHE_HOME missing", {"XDG_CACHE_HOME": "/nonexistent/x"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: XDG_CACHE_HOME relative", {"XDG_CACHE_HOME": "rel"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: HOME unset", {"HOME": None}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: GPUWISE_NO_CACHE=1", {"GPUWISE_NO_CACHE": "1"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: PYTHONIOENCODING=latin-1 zh", {"PYTHONIOENCODING": "latin-1"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
    ("env: PYTHONIOENCODING=ascii en ×", {"PYTHONIOENCODING": "ascii"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: PYTHONIOENCODING=gb18030 zh", {"PYTHONIOENCODING": "gb18030"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
    ("env: LC_ALL=C", {"LC_ALL": "C", "LANG": "C"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
    ("env: TZ weird", {"TZ": "Nowhere/Bogus+99"}, ["recommend", "r.yaml"], "ok01", ()),
    ("env: GPUWISE_DEBUG bad input", {"GPUWISE_DEBUG": "1"}, ["recommend", "nosuch.yaml"], "bad", ()),
    ("env: ascii, zh, bad input", {"PYTHONIOENCODING": "ascii:strict"}, ["audit", "nosuch.yaml", "--lang", "zh"], "bad",
     ["no such file"]),
]:
    case(name, {"r.yaml": LORA}, argv, expect=expect, has=has, real=True, env=env,
         check=lambda r: "Traceback" not in r.stderr and "internal" not in r.stderr)

case("pipe: rejected audit | head -c1 keeps 1", {"p.yaml": (EX / "proposal-16x4090-70b-full.yaml").read_text()},
     ["PIPE", "audit", "p.yaml"], expect="any", real=True, check=lambda r: r.returncode == 1)
case("pipe: closed stdout", {"p.yaml": PROP}, ["CLOSED", "audit", "p.yaml"], expect="any", real=True,
     check=lambda r: r.returncode in (0, 1, 2) and "Traceback" not in r.stderr and "internal" not in r.stderr)
case("signal: SIGINT during recommend keeps old output", {"r.yaml": LORA, "o.md": "OLD\n"},
     ["SIGINT", "recommend", "r.yaml", "-o", "o.md"], expect="any", real=True,
     check=lambda r: r.returncode in (130, 0) and (r.returncode == 0 or Path(r.cwd, "o.md").read_text() == "OLD\n")
     and "Traceback" not in r.stderr)
case("signal: SIGTERM during audit", {"p.yaml": PROP, "o.md": "OLD\n"},
     ["SIGTERM", "audit", "p.yaml", "-o", "o.md"], expect="any", real=True,
     check=lambda r: (r.returncode in (143, -15, 0, 1) and (r.returncode in (0, 1) or Path(r.cwd, "o.md").read_text() == "OLD\n")
                      and "Traceback" not in r.stderr))



# ---------------------------------------------------------------- more number forms and names
for name, raw, has in [
    ("num: count 0x10", "count: 0x10", ["0x10"]),
    ("num: count 1_000", "count: 1_000", ["1_000"]),
    ("num: count fullwidth", "count: \uff18", []),
    ("num: count 1:30", "count: 1:30", ["1:30"]),
    ("num: count 8.0", "count: 8.0", None),
    ("num: count '8'", "count: '8'", None),
    ("num: count 8e0", "count: 8e0", None),
    ("num: count -0", "count: -0", ["count"]),
    ("num: count .inf", "count: .inf", ["count"]),
    ("num: count 1e400", "count: 1e400", ["count"]),
]:
    text = PROP.replace("count: 8", raw)
    if has is None:
        case(name, {"p.yaml": text}, ["audit", "p.yaml"], expect="any",
             check=lambda r: r.returncode in (0, 1, 2) and "internal" not in r.stderr and r.stderr.count("\n") <= 1)
    else:
        case(name, {"p.yaml": text}, ["audit", "p.yaml"], has=has)
for g in ["A100-80G", "A100 80GB", "a100-80gb-sxm", "H100-80G", "RTX 4090", "4090", "A10G", "P100", "V100"]:
    case(f"name: gpu '{g}' resolves", {"p.yaml": PROP.replace("gpu: H100-80G", f"gpu: {g}")}, ["audit", "p.yaml"],
         expect="any", check=lambda r: r.returncode in (0, 1) and "internal" not in r.stderr)
case("name: gpu 'A100' is ambiguous", {"p.yaml": PROP.replace("gpu: H100-80G", "gpu: A100")}, ["audit", "p.yaml"],
     has=["ambiguous"])
case("name: model with spaces", {"r.yaml": LORA.replace("model: llama-3.1-70b", "model: ' Llama 3.1 70B '")},
     ["recommend", "r.yaml"], expect="ok01")
case("name: model in capitals", {"r.yaml": LORA.replace("model: llama-3.1-70b", "model: LLAMA-3.1-70B")},
     ["recommend", "r.yaml"], expect="ok01")
case("rule: when empty", {"hr/r.yaml": CUDA_RULE.replace('      - [cuda_device, "==", false]\n', "").replace(
    "when:\n", "when: []\n"), "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=["when"])
case("rule: 2 files same id", {"hr/a.yaml": CUDA_RULE, "hr/b.yaml": CUDA_RULE, "r.yaml": LORA},
     ["recommend", "r.yaml", "--rules", "hr"], has=["HOUSE-CUDA-ONLY"])
case("rule: replaces built-in silently?", {"hr/a.yaml": CUDA_RULE.replace("HOUSE-CUDA-ONLY", "MEM-FITS"), "r.yaml": LORA},
     ["recommend", "r.yaml", "--rules", "hr"], expect="any", check=lambda r: "internal" not in r.stderr)
case("estimate: --gpu AMD", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "mi300x"], expect="ok")
case("estimate: --gpus without --gpu", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpus", "8"], expect="any",
     check=lambda r: r.returncode in (0, 2) and "internal" not in r.stderr and r.stderr.count("\n") <= 1)
case("audit: JSON lines batch with one bad", {"b/a.yaml": PROP, "b/z.yaml": "workload: [\n"},
     ["audit", "b", "--format", "json"], expect="any",
     check=lambda r: r.returncode == 2 and "z.yaml" in r.stderr and "internal" not in r.stderr)
case("explain: --format json unknown id", {}, ["explain", "NOPE", "--format", "json"], has=["NOPE"])
case("rules: --facts --lang zh", {}, ["rules", "--facts", "--lang", "zh"], expect="ok")
case("gpus: --knowledge with bad gpus.yaml", {"kb/gpus.yaml": "gpus: 5\n"}, ["gpus", "--knowledge", "kb"], has=["gpus"])
case("prices: --currency CNY --fx-rate", {}, ["prices", "--currency", "CNY", "--fx-rate", "7.1"], expect="any",
     check=lambda r: r.returncode in (0, 2) and "internal" not in r.stderr)



# ---------------------------------------------------------------- more outputs, pipes, signals, locale
case("out: -o /dev/stdout", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/stdout", "--format", "json"],
     expect="ok01", check=lambda r: r.stdout.lstrip().startswith("{"))
case("out: -o - md", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "-", "--format", "md"], expect="ok01",
     check=lambda r: r.stdout.startswith("#"))
case("out: -o onto requirements via ./", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "./r.yaml", "--format", "md"],
     has=["r.yaml"])
case("out: plan -o onto plan", {"plan.yaml": PLAN}, ["plan", "plan.yaml", "-o", "plan.yaml", "--format", "json"],
     has=["plan.yaml"])
case("out: estimate has no -o", {"r.yaml": LORA}, ["estimate", "r.yaml", "-o", "x.json"], has=[])
case("pipe: batch rejected | head keeps 1", {"b/a.yaml": (EX / "proposal-16x4090-70b-full.yaml").read_text(),
                                              "b/c.yaml": PROP}, ["PIPE", "audit", "b"], expect="any", real=True,
     check=lambda r: r.returncode == 1)
case("pipe: gpus | head keeps 0", {}, ["PIPE", "gpus"], expect="any", real=True, check=lambda r: r.returncode == 0)
case("pipe: bad input | head keeps 2", {}, ["PIPE", "recommend", "nosuch.yaml"], expect="any", real=True,
     check=lambda r: r.returncode == 2)
case("signal: SIGINT during batch keeps old output", {"b/a.yaml": PROP, "b/c.yaml": PROP, "o.json": "OLD\n"},
     ["SIGINT", "audit", "b", "-o", "o.json"], expect="any", real=True,
     check=lambda r: r.returncode in (130, 0, 1) and (r.returncode != 130 or Path(r.cwd, "o.json").read_text() == "OLD\n")
     and "Traceback" not in r.stderr)
case("signal: SIGINT during prices import keeps overlay", {"p.csv": CSV * 1, "ov/clouds.yaml": "instances: []\n"},
     ["SIGINT", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any", real=True,
     check=lambda r: r.returncode in (130, 0) and "Traceback" not in r.stderr)
case("signal: SIGHUP during plan", {"plan.yaml": PLAN, "o.md": "OLD\n"}, ["SIGHUP", "plan", "plan.yaml", "-o", "o.md"],
     expect="any", real=True, check=lambda r: (r.returncode in (0, 1) or Path(r.cwd, "o.md").read_text() == "OLD\n")
     and "Traceback" not in r.stderr)
case("locale: zh title in proposal, ascii stdout", {"p.yaml": PROP.replace('title: "Rent', 'title: "租用 Rent')},
     ["audit", "p.yaml"], expect="ok01", real=True, env={"PYTHONIOENCODING": "ascii:strict"})
case("locale: zh audit json on ascii", {"p.yaml": PROP.replace('title: "Rent', 'title: "租用 Rent')},
     ["audit", "p.yaml", "--format", "json", "--lang", "zh"], expect="ok01", real=True, env={"PYTHONIOENCODING": "ascii"})
case("locale: LANG=zh_CN.UTF-8 default English", {"r.yaml": LORA}, ["recommend", "nosuch.yaml"], real=True,
     env={"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, has=["no such file"])
case("env: stdin closed for recommend", {"r.yaml": LORA}, ["recommend", "r.yaml"], expect="ok01", real=True)



# ---------------------------------------------------------------- a used card's own fields
for name, card, has in [
    ("card: smi path with NUL", "{serial: '1', nvidia_smi: \"a\\0b.xml\"}", ["\\x00"]),
    ("card: smi path 5000 chars", "{serial: '1', nvidia_smi: '" + "x" * 5000 + "'}", ["nvidia_smi"]),
    ("card: serial 10000 chars", "{serial: '" + "x" * 10000 + "'}", ["serial"]),
    ("card: fan sample -5", "{serial: '1', fan_speed_percent: [-5, 30]}", ["(got -5)"]),
    ("card: power sample 1e300", "{serial: '1', power_under_load_w: [1e300, 300]}", ["5000 W"]),
    ("card: made in 2030", "{serial: '1', manufactured: 2030-01}", ["future"]),
    ("card: bought before made", "{serial: '1', manufactured: 2023-05, purchased: 2021-01}", ["before"]),
    ("card: smi a directory", "{serial: '1', nvidia_smi: d}", ["regular file"]),
    ("card: smi empty name", "{serial: '1', nvidia_smi: ''}", ["nvidia_smi"]),
    ("card: smi a list", "{serial: '1', nvidia_smi: [a]}", ["nvidia_smi"]),
]:
    case(name, {"p.yaml": USED.replace("{serial: '1', nvidia_smi: r.xml}", card), "d/x": ""}, ["audit", "p.yaml"],
         has=has, check=lambda r: r.stderr.count("(got") <= 1 and "{" not in r.stderr)



# ---------------------------------------------------------------- policy values without a maximum
for pol in ("price_max_age_days", "value_of_a_day_usd", "datacenter_min_gpus", "slow_network_gb_s",
            "used_card_retired_pages_blocker"):
    case(f"kb: policy {pol} 1e300", {"r.yaml": LORA, "kb/policy.yaml": f"{pol}: 1e300\n"},
         ["recommend", "r.yaml", "--knowledge", "kb"], has=["out of range"])



# ---------------------------------------------------------------- more plan fields
for name, path, value, has in [
    ("plan+: owned count 10**6", "owned", [{"gpu": "RTX 4090", "count": 10**6, "hosting": "office"}], ["count"]),
    ("plan+: horizon '12 months'", "horizon_months", "12 months", ["horizon_months"]),
    ("plan+: budget text no currency", "constraints", {"budget_total_usd": "lots"}, ["budget_total_usd"]),
    ("plan+: budget 1e300", "constraints", {"budget_total_usd": 1e300}, ["budget_total_usd"]),
    ("plan+: owned servers 0", "owned", [{"gpu": "RTX 4090", "count": 8, "servers": 0, "hosting": "office"}],
     ["servers"]),
    ("plan+: owned a string", "owned", "8 x 4090", ["owned"]),
    ("plan+: horizon 010", "horizon_months", "RAW", None),
]:
    if value == "RAW":
        case(name, {"plan.yaml": PLAN.replace("horizon_months: 12", "horizon_months: 010")},
             ["plan", "plan.yaml", "--format", "json"], expect="ok", check=lambda r: '"horizon_months": 10' in r.stdout
             or "10" in r.stdout)
        continue
    case(name, {"plan.yaml": patched(path, value, _plan)}, ["plan", "plan.yaml"], has=has)
for name, text, has in [
    ("plan+: targets unknown key", wl(1, targets={"requests_per_sec": 2}), ["did you mean"]),
    ("plan+: cadence per_month 0", wl(0, cadence={"per_month": 0}), ["per_month"]),
    ("plan+: cadence per_month 10**6", wl(0, cadence={"per_month": 10**6}), ["per_month"]),
    ("plan+: workload task misspelt", wl(0, workload={"task": "finetunee", "model": "llama-3.1-8b"}),
     ["did you mean finetune"]),
]:
    case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], has=has)


# ---------------------------------------------------------------- rounds ten to nineteen (benchmarks/hostile_round1N.py)
from benchmarks import (  # noqa: E402
    hostile_round10,
    hostile_round11,
    hostile_round12,
    hostile_round13,
    hostile_round14,
    hostile_round15,
    hostile_round16,
    hostile_round17,
    hostile_round18,
    hostile_round19,
    hostile_round20,
    hostile_round21,
    hostile_round22,
    hostile_round23,
    hostile_round24,
    hostile_round25,
    hostile_round26,
    hostile_round27,
    hostile_round28,
    hostile_round29,
    hostile_round30,
    hostile_round31,
    hostile_round32,
    hostile_round33,
    hostile_round34,
    hostile_round35,
    hostile_round36,
    hostile_round37,
    hostile_round38,
    hostile_round39,
    hostile_round40,
    hostile_round41,
)

for _n, _module in ((10, hostile_round10), (11, hostile_round11), (12, hostile_round12), (13, hostile_round13),
                    (14, hostile_round14), (15, hostile_round15),
                    (16, hostile_round16), (17, hostile_round17), (18, hostile_round18),
                    (19, hostile_round19), (20, hostile_round20), (21, hostile_round21), (22, hostile_round22),
                    (23, hostile_round23), (24, hostile_round24), (25, hostile_round25),
                    (26, hostile_round26), (27, hostile_round27), (28, hostile_round28),
                    (29, hostile_round29), (30, hostile_round30), (31, hostile_round31),
                    (32, hostile_round32), (33, hostile_round33), (34, hostile_round34),
                    (35, hostile_round35), (36, hostile_round36), (37, hostile_round37),
                    (38, hostile_round38), (39, hostile_round39),
                    (40, hostile_round40), (41, hostile_round41)):
    def _case(*a, _n=_n, **k):
        case(*a, **k)
        CASES[-1]["round"] = _n

    _module.add(_case, dict(globals()))


# ---------------------------------------------------------------- runner
def make(tmp: Path, files: dict) -> None:
    for rel, body in files.items():
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if body == "FIFO":
            os.mkfifo(p)
        elif body == "SOCKET":  # a Unix socket bound and left there, as a crashed server leaves one
            import socket
            with socket.socket(socket.AF_UNIX) as sock:
                sock.bind(str(p))
        elif isinstance(body, tuple) and body[0] == "LINK":
            os.symlink(body[1], p)
        elif isinstance(body, tuple) and body[0] == "DIR":
            p.mkdir()
        elif isinstance(body, tuple) and body[0] == "SPARSE":
            with open(p, "wb") as fh:
                fh.truncate(body[1])
        elif isinstance(body, tuple) and body[0] == "HARD":
            os.link(tmp / body[1], p)
        elif isinstance(body, tuple) and body[0] == "MODE":
            p.write_text("OLD\n")
            os.chmod(p, body[1])
        elif isinstance(body, bytes):
            p.write_bytes(body)
        else:
            p.write_text(body, encoding="utf-8")


def _env(env, tmp) -> dict:
    e = dict(os.environ, PYTHONPATH=str(ROOT))
    for k, v in (env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v.replace("{tmp}", str(tmp))
    return e


class Res:
    def __init__(self, rc, out, err, cwd):
        self.returncode, self.stdout, self.stderr, self.cwd = rc, out, err, cwd


def run_real(argv, env, tmp, prep=None, cwd=None):
    if argv[0] in hostile_round13.MODES:
        return hostile_round13.run_mode(argv, _env(env, tmp), tmp, Res)
    if argv[0] in hostile_round14.MODES:
        return hostile_round14.run_mode(argv, _env(env, tmp), tmp, Res)
    if argv[0] in hostile_round16.MODES:
        return hostile_round16.run_mode(argv, _env(env, tmp), tmp, Res)
    if argv[0] in hostile_round19.MODES:
        return hostile_round19.run_mode(argv, _env(env, tmp), tmp, Res)
    if argv[0] in hostile_round20.MODES:
        return hostile_round20.run_mode(argv, _env(env, tmp), tmp, Res)
    e = _env(env, tmp)
    argv = [a.replace("{tmp}", str(tmp)) for a in argv]
    if prep and prep[0] == "CACHE":
        hostile_round10.damage_cache(tmp, prep[1], e)
    if argv[0] == "PTY":
        return hostile_round10.run_pty(argv[1:], e, cwd or tmp, Res)
    if argv[0] in hostile_round12.MODES:
        return hostile_round12.run_mode(argv, e, tmp, Res)
    if cwd:
        p = subprocess.run([sys.executable, "-m", "gpuwise", *argv], capture_output=True, cwd=cwd, env=e, timeout=120)
        return Res(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), tmp)
    cmd = [sys.executable, "-m", "gpuwise"]
    if argv[0] == "PIPE":
        p = subprocess.run(["bash", "-c", f"{sys.executable} -m gpuwise {' '.join(argv[1:])} | head -c1 >/dev/null; "
                            "exit ${PIPESTATUS[0]}"], capture_output=True, cwd=tmp, env=e, timeout=120)
        return Res(p.returncode, "", p.stderr.decode(errors="replace"), tmp)
    if argv[0] == "CLOSED":
        p = subprocess.run(["bash", "-c", f"{sys.executable} -m gpuwise {' '.join(argv[1:])} >&-"],
                           capture_output=True, cwd=tmp, env=e, timeout=120)
        return Res(p.returncode, "", p.stderr.decode(errors="replace"), tmp)
    if argv[0] in ("SIGINT", "SIGTERM", "SIGHUP"):
        import signal
        p = subprocess.Popen(cmd + argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp, env=e)
        time.sleep(0.6)
        p.send_signal(getattr(signal, argv[0]))
        out, err = p.communicate(timeout=120)
        rc = p.returncode
        return Res(rc if rc >= 0 else 128 - rc, out.decode(errors="replace"), err.decode(errors="replace"), tmp)
    p = subprocess.run(cmd + argv, capture_output=True, cwd=tmp, env=e, timeout=120)
    return Res(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), tmp)


def judge(c, r) -> tuple[str, str]:
    err = r.stderr
    bad_text = "Traceback" in err or "internal error" in err
    if bad_text:
        return "FAIL", f"traceback/internal: {err[-300:]}"
    if c["expect"] == "bad":
        if r.returncode != 2:
            return "FAIL", f"rc={r.returncode} (want 2) err={err[:200]!r} out={r.stdout[:100]!r}"
        lines = err.strip("\n").split("\n")
        if len(lines) != 1 or not lines[0].startswith("gpuwise"):
            return "FAIL", f"not one line: {err[:300]!r}"
        for h in c["has"]:
            if h not in err:
                return "Q", f"lacks {h!r}: {err[:300]!r}"
        if "\x1b" in err:
            return "FAIL", "raw escape in stderr"
    elif (c["expect"] == "ok" and r.returncode != 0) or (c["expect"] == "ok01" and r.returncode not in (0, 1)):
        return "FAIL", f"rc={r.returncode} err={err[:300]!r}"
    if c["check"] is not None and not c["check"](r):
        return "FAIL", f"check failed rc={r.returncode} err={err[:300]!r}"
    return "CLEAN", err.strip()[:160]


def main() -> None:
    wants = sys.argv[1:] or [""]
    counts = {"CLEAN": 0, "FAIL": 0, "Q": 0}
    for c in CASES:
        if not any(w in c["name"] or (w in ("round10", "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18", "round19", "round20", "round21", "round22", "round23", "round24", "round25", "round26", "round27", "round28", "round29", "round30", "round31", "round32", "round33", "round34", "round35", "round36", "round37", "round38", "round39", "round40", "round41") and c.get("round") == int(w[5:])) for w in wants):
            continue
        tmp = Path(tempfile.mkdtemp(prefix="h9-"))
        try:
            make(tmp, c["files"])
            if c["prep"] and c["prep"][0] in ("RO", "OPEN"):
                hostile_round17.prepare(tmp, c["prep"])
            t = time.time()
            if c["real"]:
                r = run_real(c["argv"], c["env"], tmp, c["prep"], c["cwd"])
            else:
                r = gpuwise(*c["argv"], cwd=tmp, stdin=c["stdin"])
                r.cwd = tmp
            dt = time.time() - t
            verdict, why = judge(c, r)
            if dt > 5:
                why += f" [slow {dt:.1f}s]"
        except Exception:
            verdict, why = "FAIL", "runner: " + traceback.format_exc()[-400:]
        finally:
            for d in [tmp, *(p for p in tmp.rglob("*") if p.is_dir() and not p.is_symlink())]:
                with contextlib.suppress(OSError):
                    os.chmod(d, 0o755)  # a folder a case made read-only: its files can be removed
            shutil.rmtree(tmp, ignore_errors=True)
        counts[verdict] += 1
        print(f"{verdict:5} {c['name']}: {why}".replace("\n", " | ")[:400], flush=True)
    print(counts, "total", sum(counts.values()))
    sys.exit(1 if counts["FAIL"] else 0)


if __name__ == "__main__":
    main()
