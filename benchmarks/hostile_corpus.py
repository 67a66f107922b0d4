# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""The hostile corpus (issue 26 items 5-6): 4,368 cases, 344 to round 9, 186 of round 10 (in
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
sums; a plan brief with two blockers) and 61 of round 42 (benchmarks/hostile_round42.py: the budget on a
purchase's cash before resale in recommend, audit, plan, house rules and yuan; a rental past its commitment; the plan's
tie; owned servers that do not divide the count; rocm_fp4_asm_gemm where vLLM does not read it; a number field given
null; the plan questionnaire's growth and month in other digits) and 59 of round 43 (benchmarks/hostile_round43.py:
the JAX stacks levanter and maxtext with pins, devices and names, rocm_aiter on engines that do not read it, request
rates with p95 targets near capacity in yuan, a plan's service with its load in its workload, params_b-only models,
numbers written with their units, two names where one goes, tab-indented, BOM / CRLF, joined, doubled-key and
60,000-line files) and 55 of round 44 (benchmarks/hostile_round44.py: thousands grouped and decimal commas, dates
not in ISO form, plan and job files mixed up, anchors and merge keys, zero rates, p95 targets below any GPU, whole
nodes and one-GPU instances, a named instance's host RAM, stack precisions, imported prices before a GPU's launch)
and 52 of round 45 (benchmarks/hostile_round45.py: numbers written with their units and percentages, counts with
their noun, enum values in another case, empty, folder and dangling files, the plan's copy sizes, whole-node packs,
owned servers' network and RAM, stated micro-batches that fit by offload or recomputation, LoRA offload,
weight_only_gemm, p95 TPOT at a trickle) and 22 of round 46 (benchmarks/hostile_round46.py: yes/no fields given
words, networks given as their speed, names past their length, price CSV cells written with their units) and 67
of round 47 (benchmarks/hostile_round47.py: GPUs named by their marketing variant, models by where their weights are,
dates before a GPU's launch, --currency and --lang as people say them, misnamed overlay files, Latin-1, blank and
multi-document files, -o a folder's name, V100S and DGX A100, numbers past a float, rule ids as a report shows them) and 61 of round 48
(benchmarks/hostile_round48.py: shares given as whole percentages, numbers with units past their bounds, currencies as
people say them in files and price CSVs, monthly prices in a price CSV, a plan's two loads, price filters that match
nothing, numbers written as prose: '~1000', '16-32', '2x8', '15 cents', a date for a deadline; 13 more in
benchmarks/hostile_left60.py: growth as a whole percentage, bounds in ask, amounts in EUR or GBP) and 60 of round 49
(benchmarks/hostile_round49.py: the 2026 serving inputs combined badly, checkpoint_every_n_layers 0 or past the model's
layers, attention kernels (and where they have no build) and stacks as users name them, quantized releases, owned networks by their generation, an
overlay's model, gpuhunt's catalog, proposal folders with other files, explain given a topic) and 56 of round 50 (benchmarks/hostile_round50.py: keys in another section,
a count or two GPUs in a GPU's name, a quote's total and a price of the other mode, choice words people use, rates as
1.2k or 1M/day, a catalog model beside another size, YAML in a Markdown fence and TOML, a plan's runs a week) and those of round 51
(benchmarks/hostile_round51.py: a plan's months as calendar months, a rental priced per instance, engines not
modelled, lists where one value goes, CNY amounts in a USD file, a count after a GPU's name, hours a day as a working
day, JSON comments and full-width colons, encodings and separators: 63) and 78 of round 52
(benchmarks/hostile_round52.py: GPUs as vendors' quotes name them, prices in other locales' forms, rates and
latencies as dashboards write them, ISO 8601 durations, growth a month or a year, a plan's month as a quarter,
another format's version key, ~ and $HOME in a quoted -o, --json; hostile52b's: a whole server's quote as the price
a GPU, a price CSV's totals row, a Compose-style x- key) and 65 of round 53 (benchmarks/hostile_round53.py: a plan's
months backwards or past the horizon, long team files with one slip, owned GPUs bought tomorrow, a yuan budget beside
bare amounts, a quote's total beside its price a GPU, Chinese model names, full-width and invisible characters, CR and
BOM files, price CSV headers in another order or in capitals, 100,000-character command-line values, YAML's .nan /
.inf / 1e309 and a quoted 'on', keys in capitals, --json on every command, a closed pipe) and 58 of round 54
(benchmarks/hostile_round54.py: serving and training knobs as engines and trainers name them, a draft model no smaller
than its model, counts in words, a plan of 60 runs a month, price CSVs as spreadsheets leave them, --lang lists, -o
without a suffix, every subcommand's --help in zh) and those of round 55 (benchmarks/hostile_round55.py: what a team lead
pastes from a spreadsheet or a vendor's quote -- prices a node-hour or a card-hour, counts as quotes print them, the
pricing plan in the mode field, a plan's months as a sheet shows them, no-break-space indentation, a tab between a key
and its value, price CSVs with a GPU-hour's price on an 8-GPU row, a sheet's own header and a title row) and those of
round 56 (benchmarks/hostile_round56.py: round 55's leftovers -- a price with its pricing plan, '(1-yr reserved)', a
price CSV's as_of as a month, an ambiguous day, a dotted date or an Excel serial, a key,value CSV pasted as YAML, a
GGUF repository with no quant type), over
every command and file the contract defines -- requirements, proposals, a seller's nvidia-smi files, batches, plan files, price CSVs, house
rules, knowledge overlays, output paths, pipes, signals, environment variables and locale. Each case
is run in this process (tests/clirun.py) or, for pipes, signals and the interpreter's encoding, as a
real process, and judged against the promise: bad input is one line on stderr and exit 2 (with the
words expected, such as a close match), never a traceback or an internal error; -o never replaces an
input; an interrupt leaves the old output; a closed pipe keeps the verdict's exit status; control
characters are escaped. The fixed failures are kept as tests in tests/test_hostile_ninth.py.

Run from a checkout::

    python benchmarks/hostile_corpus.py            # one line per case: CLEAN, FAIL or Q, then the counts
    python benchmarks/hostile_corpus.py "smi:"     # only the cases whose name holds the text
    python benchmarks/hostile_corpus.py round10    # only round ten's (round11..round56: eleven's to fifty-sixth's)

Exit status 1 when a case fails.
"""
from __future__ import annotations

import contextlib
import os
import shutil
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

_prop = _y.safe_load(PROP)
_plan = _y.safe_load(PLAN)


def smi(xml):  # a used card's proposal beside its seller's nvidia-smi report
    return {"p.yaml": USED, "r.xml": xml}


GPU = SMI


def wl(i, **over):
    import copy
    d = copy.deepcopy(_plan)
    d["workloads"][i].update(over)
    return _y.safe_dump(d, allow_unicode=True, width=10**9)


# ---------------------------------------------------------------- rounds one to nine (benchmarks/hostile_first_rounds.py)
from benchmarks import hostile_first_rounds  # noqa: E402

hostile_first_rounds.add(case, dict(globals()))


# ---------------------------------------------------------------- rounds ten to nineteen (benchmarks/hostile_round1N.py)
from benchmarks import (  # noqa: E402
    hostile_left60,
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
    hostile_round42,
    hostile_round43,
    hostile_round44,
    hostile_round45,
    hostile_round46,
    hostile_round47,
    hostile_round48,
    hostile_round49,
    hostile_round50,
    hostile_round51,
    hostile_round52,
    hostile_round53,
    hostile_round54,
    hostile_round55,
    hostile_round56,
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
                    (40, hostile_round40), (41, hostile_round41), (42, hostile_round42),
                    (43, hostile_round43), (44, hostile_round44),
                    (45, hostile_round45), (46, hostile_round46), (47, hostile_round47),
                    (48, hostile_round48), (48, hostile_left60), (49, hostile_round49),
                    (50, hostile_round50), (51, hostile_round51), (52, hostile_round52),
                    (53, hostile_round53), (54, hostile_round54),
                    (55, hostile_round55), (56, hostile_round56)):
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
        if not any(w in c["name"] or (w in ("round10", "round11", "round12", "round13", "round14", "round15", "round16", "round17", "round18", "round19", "round20", "round21", "round22", "round23", "round24", "round25", "round26", "round27", "round28", "round29", "round30", "round31", "round32", "round33", "round34", "round35", "round36", "round37", "round38", "round39", "round40", "round41", "round42", "round43", "round44", "round45", "round46", "round47", "round48", "round49", "round50", "round51", "round52", "round53", "round54", "round55", "round56") and c.get("round") == int(w[5:])) for w in wants):
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
