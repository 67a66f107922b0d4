# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round twenty-two of the hostile corpus: the inputs and paths added since bc381542 that no round had
touched -- ``workload.max_batch_size``; ``framework_version`` as llama.cpp's build number or ``b6600``
tag and other frameworks' versions in pre-release forms, huge numbers and whitespace; ``framework``
names as users type them (ollama, LM Studio, trtllm ...: the refusal suggests the schema's name);
``prefill_cuda_graphs`` on TensorRT-LLM releases before 1.0; SGLang's default memory share on jobs
with no version and tight memory (Kimi K2 / DeepSeek-V3 on 8 x H200 or fewer, with ``kv_cache_tokens``);
``fits_as_requested`` of inference estimates and the text report's 'Fits as requested' line; the
capacity formula's pool and share variants (en and zh); the catalog's smollm3-3b and minimax-m2;
DeepSpeed ZeRO-1/2 offload with ``stack_version`` in odd forms -- across estimate, recommend, audit,
plan and ask, in json, md, html and text, in English and Chinese. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 4cca286d (before any change): 150 cases, 139 clean. Fixed, with tests in
tests/test_hostile_twenty_second.py (now 150 clean):

* llama.cpp given a dotted version (Ollama's 0.6.0, LM Studio's 0.3.20, or 6600rc1, 6600.post1: no
  llama.cpp build has those forms, its releases are whole build numbers tagged b6600) was read as build 0
  and priced as llama.cpp before its CUDA graphs, without a word (an RTX 4090 Q4 decode of Llama 3.1 8B
  at 7.86 ms a token against the newest build's 6.58). Now one line: llama.cpp names a release by its
  build number, the value given reads as another program's version (gpuwise/inputs/workload.py; en and
  zh catalogs; 6 cases).
* A release written as its git tag or with a pre-release dash (``v0.5.7``, ``0.5.7-rc1``, ``'0.5.7 '``,
  ``v6600`` for llama.cpp, DeepSpeed's ``v0.14.1`` as ``stack_version``) was refused with the field's
  description but no close match; the line now ends 'did you mean 0.5.7?' where the field's form is one
  step away (gpuwise/inputs/schema.py; 5 cases).

Seen and left (not failures of this table's promise):

* ``ask`` in a terminal resuming answers with ``framework: ollama`` says the saved value is not one of
  the schema's names and asks again, without the 'did you mean llama.cpp?' a file gets (gpuwise/ask).
* Unicode digits pass the version patterns (``b６６００``, ``０.５.７``) and are read as the ASCII
  release; the echo keeps them as written.
* DeepSeek-V3 and Kimi K2 with no precision are served at bf16 (the catalog's default), so neither fits
  8 x H200 under SGLang's default share (fits false, 0 sequences): a checkpoint published in FP8 needs
  ``quantization: fp8`` written (then DeepSeek-V3 holds 465 sequences of 1,500 tokens).
* The text report's question section reads '[default: default: ...]' (the template's word before a
  reason that begins with it), in both languages.
"""
from __future__ import annotations

import json
from typing import Any

import yaml

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _clean, _ok, _refused
from benchmarks.hostile_round21 import _finite_json, _no_raw, _positive_rates, _serving

SERVE = ("workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 300\n"
         "  concurrent_requests: 8\n")
BIG = ("workload:\n  task: inference\n  model: {model}\n  framework: sglang\n  prompt_tokens: 1000\n"
       "  output_tokens: 1000\n  concurrent_requests: 64\n")
ZERO = ("workload:\n  task: finetune\n  method: full\n  model: llama-3.1-8b\n  seq_len: 2048\n  train_tokens: 1.0e8\n"
        "  stack: deepspeed\n  zero_stage: {stage}\n  offload: cpu\n")
PLAN22 = """horizon_months: 3
workloads:
  - name: chat
    workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 500, output_tokens: 200}
    cadence: {continuous: true, hours_per_day: 12}
    targets: {requests_per_s: 1}
"""


def _no_placeholder(r) -> bool:
    """An answer (0 or 1) whose text holds no unformatted catalog placeholder, no 'nan' or 'inf' figure."""
    text = r.stdout
    return _ok(r) and "%(" not in text and ")s" not in text.replace("(s)s", "") and " nan" not in text and " inf " not in text


def _fits_as_requested(want):
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        g = json.loads(r.stdout).get("gpu") or {}
        return g.get("fits_as_requested") is want
    return check


def _has(*words: str):
    return lambda r: _ok(r) and all(w in r.stdout for w in words)


def _lacks(*words: str):
    return lambda r: _ok(r) and not any(w in r.stdout for w in words)


def _either(*checks):
    return lambda r: any(c(r) for c in checks)


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, _PLAN, _smi_text, _CUDA_RULE, _USED, _csv, _patched, _smi, _wl, _prop, _plan, _REJECT = givens(ns)
    serve_doc = yaml.safe_load(SERVE)

    def req(doc: dict, **fields: Any) -> str:
        d = json.loads(json.dumps(doc))
        for k, v in fields.items():
            if v is ...:
                d["workload"].pop(k, None)
            else:
                d["workload"][k] = v
        return yaml.safe_dump(d, allow_unicode=True, width=10**9)

    est = ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--format", "json"]

    # ------------------------------------------------------------ workload.max_batch_size
    for name, text, check in [
        ("mbs22: max_batch_size 1", req(serve_doc, max_batch_size=1), _serving(lambda s: s["max_concurrent_sequences"] <= 1 and _positive_rates(s))),
        ("mbs22: max_batch_size 0", req(serve_doc, max_batch_size=0), _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size 2.5", req(serve_doc, max_batch_size=2.5), _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size '64' (text)", req(serve_doc, max_batch_size="64"), _either(_refused("r.yaml", "max_batch_size"), _serving(_positive_rates))),
        ("mbs22: max_batch_size 1,000,001 (past the bound)", req(serve_doc, max_batch_size=1_000_001), _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size 10**30", SERVE + "  max_batch_size: " + "1" + "0" * 30 + "\n", _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size true", req(serve_doc, max_batch_size=True), _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size .nan", SERVE + "  max_batch_size: .nan\n", _refused("r.yaml", "max_batch_size")),
        ("mbs22: max_batch_size 1 with requests_per_s 50", req(serve_doc, max_batch_size=1, requests_per_s=50), _serving(_positive_rates)),
        ("mbs22: max_batch_size 1 with kv_cache_tokens 1,300", req(serve_doc, max_batch_size=1, kv_cache_tokens=1300), _serving(lambda s: s["max_concurrent_sequences"] <= 1 and _positive_rates(s))),
        ("mbs22: max_batch_size 1,000,000 with kv_cache_tokens 2,600", req(serve_doc, max_batch_size=1_000_000, kv_cache_tokens=2600), _serving(lambda s: s["max_concurrent_sequences"] <= 2 and _positive_rates(s))),
        ("mbs22: max_batch_size 4 under concurrent_requests 64", req(serve_doc, max_batch_size=4, concurrent_requests=64), _serving(lambda s: s["max_concurrent_sequences"] <= 4 and _positive_rates(s))),
        ("mbs22: max_batch_size 2 with speculative eagle3", req(serve_doc, max_batch_size=2, speculative={"method": "eagle3"}), _serving(_positive_rates)),
        ("mbs22: max_batch_size 1 with disaggregated", req(serve_doc, max_batch_size=1, disaggregated=True), lambda r: _refused("disaggregated")(r) or _serving(_positive_rates)(r)),
        ("mbs22: max_batch_size 3 on llama.cpp", req(serve_doc, max_batch_size=3, framework="llama.cpp"), _serving(_positive_rates)),
    ]:
        case(name, {"r.yaml": text}, est, expect="any", check=check)
    lora_doc = yaml.safe_load(LORA)
    case("mbs22: max_batch_size on a fine-tune", {"r.yaml": req(lora_doc, max_batch_size=8)}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8"], expect="any",
         check=_refused("r.yaml", "max_batch_size", "inference"))
    case("mbs22: max_batch_size 0 reaches recommend as one line", {"r.yaml": req(serve_doc, max_batch_size=0)}, ["recommend", "r.yaml"], expect="any", check=_refused("r.yaml", "max_batch_size"))
    case("mbs22: max_batch_size 1 in recommend --format md", {"r.yaml": req(serve_doc, max_batch_size=1)}, ["recommend", "r.yaml", "--format", "md"], expect="any", check=_no_placeholder)
    case("mbs22: max_batch_size 1 in recommend --lang zh", {"r.yaml": req(serve_doc, max_batch_size=1)}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_no_placeholder)
    case("mbs22: max_batch_size 0 in a plan's workload", {"plan.yaml": PLAN22.replace("output_tokens: 200}", "output_tokens: 200, max_batch_size: 0}")},
         ["plan", "plan.yaml", "--format", "json"], expect="any", check=_refused("plan.yaml", "max_batch_size"))
    case("mbs22: max_batch_size 2 in a plan's workload", {"plan.yaml": PLAN22.replace("output_tokens: 200}", "output_tokens: 200, max_batch_size: 2}")},
         ["plan", "plan.yaml", "--format", "json"], expect="any", check=_finite_json)
    case("mbs22: max_batch_size -1 in --lang zh", {"r.yaml": req(serve_doc, max_batch_size=-1)}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--lang", "zh"], expect="any",
         check=_refused("r.yaml", "max_batch_size"))

    # ------------------------------------------------------------ framework_version: builds, tags, pre-releases
    cpp = req(serve_doc, framework="llama.cpp")
    cpp_doc = yaml.safe_load(cpp)
    for name, fw, ver, check in [
        ("ver22: llama.cpp 'b6600'", "llama.cpp", "b6600", _serving(_positive_rates)),
        ("ver22: llama.cpp ' b6600 ' (padded)", "llama.cpp", " b6600 ", _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: llama.cpp 6600 (a number)", "llama.cpp", 6600, _serving(_positive_rates)),
        ("ver22: llama.cpp 'b' (no number)", "llama.cpp", "b", _refused("r.yaml", "framework_version")),
        ("ver22: llama.cpp 'bb6600'", "llama.cpp", "bb6600", _refused("r.yaml", "framework_version")),
        ("ver22: llama.cpp 'b-6600'", "llama.cpp", "b-6600", _refused("r.yaml", "framework_version")),
        ("ver22: llama.cpp 'b6600.1'", "llama.cpp", "b6600.1", _refused("r.yaml", "framework_version")),
        ("ver22: llama.cpp 'b1' (older than any build known)", "llama.cpp", "b1", _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: llama.cpp 'b99999999999999999999' (huge)", "llama.cpp", "b" + "9" * 20, _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        # 41 characters: within framework_version's 64 since release54 (a nightly's name), read as a build number
        ("ver22: llama.cpp 'b' + 40 digits", "llama.cpp", "b" + "1" * 40, _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: llama.cpp 'b' + 70 digits (past the field's 64)", "llama.cpp", "b" + "1" * 70, _refused("r.yaml", "framework_version")),
        ("ver22: llama.cpp 'b６６００' (fullwidth digits)", "llama.cpp", "b６６００", _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: llama.cpp 'b6600\\n' (a newline)", "llama.cpp", "b6600\n", _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: llama.cpp 'b6600-cuda' (a release asset's name)", "llama.cpp", "b6600-cuda", _refused("r.yaml", "framework_version")),
        ("ver22: vllm 'b6600' (a build tag for another engine)", "vllm", "b6600", _refused("r.yaml", "framework_version")),
        ("ver22: sglang 'v0.5.7' (a git tag)", "sglang", "v0.5.7", _refused("r.yaml", "framework_version", "did you mean 0.5.7?")),
        ("ver22: sglang '0.5.7rc1'", "sglang", "0.5.7rc1", _serving(_positive_rates)),
        ("ver22: sglang '0.5.7.post1'", "sglang", "0.5.7.post1", _serving(_positive_rates)),
        ("ver22: sglang '0.5.7-rc1' (a dash)", "sglang", "0.5.7-rc1", _refused("r.yaml", "framework_version", "did you mean 0.5.7rc1?")),
        ("ver22: sglang '0.5.7 ' (a trailing space)", "sglang", "0.5.7 ", _refused("r.yaml", "framework_version", "did you mean 0.5.7?")),
        ("ver22: llama.cpp '0.6.0' (Ollama's own version)", "llama.cpp", "0.6.0", _refused("r.yaml", "framework_version", "build number", "'0.6.0'")),
        ("ver22: llama.cpp '0.3.20' (LM Studio's own version)", "llama.cpp", "0.3.20", _refused("r.yaml", "framework_version", "build number")),
        ("ver22: llama.cpp '6600rc1' (no such build)", "llama.cpp", "6600rc1", _refused("r.yaml", "framework_version", "build number")),
        ("ver22: llama.cpp 'v6600'", "llama.cpp", "v6600", _refused("r.yaml", "framework_version", "did you mean 6600?")),
        ("ver22: vllm '0.0.0.0.0' (five parts)", "vllm", "0.0.0.0.0", _refused("r.yaml", "framework_version")),
        ("ver22: tensorrt-llm '1.0.0rc4'", "tensorrt-llm", "1.0.0rc4", _serving(_positive_rates)),
        ("ver22: tensorrt-llm '1.2.0rc99999999999999999999'", "tensorrt-llm", "1.2.0rc" + "9" * 20, _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
        ("ver22: transformers '4.57.0.dev0'", "transformers", "4.57.0.dev0", _either(_serving(_positive_rates), _refused("r.yaml", "framework_version"))),
    ]:
        case(name, {"r.yaml": req(serve_doc, framework=fw, framework_version=ver)}, est, expect="any", check=check)
    case("ver22: framework_version before framework in the file", {"r.yaml": "workload:\n  framework_version: b6600\n  task: inference\n  model: llama-3.1-8b\n  framework: llama.cpp\n  prompt_tokens: 100\n  output_tokens: 100\n"},
         est, expect="any", check=_serving(_positive_rates))
    case("ver22: framework_version b6600 with the framework misspelt", {"r.yaml": req(serve_doc, framework="lama.cpp", framework_version="b6600")}, est, expect="any",
         check=_refused("r.yaml", "framework", "llama.cpp"))
    case("ver22: framework_version 0.10 unquoted (YAML 0.1)", {"r.yaml": SERVE + "  framework: vllm\n  framework_version: 0.10\n"}, est, expect="any",
         check=_refused("r.yaml", "framework_version", '"0.1"'))
    case("ver22: llama.cpp b6600 in recommend --lang zh", {"r.yaml": req(cpp_doc, framework_version="b6600")}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_no_placeholder)
    case("ver22: llama.cpp b-6600 refused in zh", {"r.yaml": req(cpp_doc, framework_version="b-6600")}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_refused("r.yaml", "framework_version"))
    case("ver22: llama.cpp '0.6.0' refused in zh", {"r.yaml": req(cpp_doc, framework_version="0.6.0")}, ["recommend", "r.yaml", "--lang", "zh"], expect="any",
         check=_refused("r.yaml", "framework_version", "构建号"))
    case("ver22: llama.cpp '0.6.0' in a plan", {"plan.yaml": PLAN22.replace("output_tokens: 200}", "output_tokens: 200, framework: llama.cpp, framework_version: '0.6.0'}")},
         ["plan", "plan.yaml"], expect="any", check=_refused("plan.yaml", "framework_version", "build number"))
    case("ver22: an escape in a build tag", {"r.yaml": req(cpp_doc, framework_version="b66\x1b[2J")}, est, expect="any", check=_no_raw("\x1b"))

    # ------------------------------------------------------------ framework names users type
    for name, fw, words in [
        ("fw22: 'ollama'", "ollama", ("llama.cpp",)),
        ("fw22: 'Ollama'", "Ollama", ("llama.cpp",)),
        ("fw22: 'OLLAMA '", "OLLAMA ", ("llama.cpp",)),
        ("fw22: 'LM Studio'", "LM Studio", ("llama.cpp",)),
        ("fw22: 'lm-studio'", "lm-studio", ("llama.cpp",)),
        ("fw22: 'llama_cpp'", "llama_cpp", ("llama.cpp",)),
        ("fw22: 'trtllm'", "trtllm", ("tensorrt-llm",)),
        ("fw22: 'TensorRT-LLM' (capitals)", "TensorRT-LLM", ("tensorrt-llm",)),
        ("fw22: 'tensorrt_llm' (the Python package)", "tensorrt_llm", ("tensorrt-llm",)),
        ("fw22: 'SGLang'", "SGLang", ("sglang",)),
        ("fw22: 'exllamav2'", "exllamav2", ("exllama",)),
        ("fw22: 'hf'", "hf", ("transformers",)),
        ("fw22: 'llama.cpp ' (trailing space)", "llama.cpp ", ("llama.cpp",)),
    ]:
        case(name, {"r.yaml": req(serve_doc, framework=fw)}, est, expect="any", check=_refused("r.yaml", "framework", *words))
    for name, fw in [("fw22: '' (empty)", ""), ("fw22: 'tgi'", "tgi"), ("fw22: 200 characters", "x" * 200), ("fw22: 'ollama' with an escape", "ollama\x1b[2J")]:
        case(name, {"r.yaml": req(serve_doc, framework=fw)}, est, expect="any", check=lambda r: _refused("r.yaml", "framework")(r) and "\x1b" not in r.stderr and len(r.stderr) < 2000)
    case("fw22: framework 42 (a number)", {"r.yaml": req(serve_doc, framework=42)}, est, expect="any", check=_refused("r.yaml", "framework"))
    case("fw22: framework ['vllm'] (a list)", {"r.yaml": req(serve_doc, framework=["vllm"])}, est, expect="any", check=_refused("r.yaml", "framework"))
    case("fw22: 'ollama' in zh", {"r.yaml": req(serve_doc, framework="ollama")}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_refused("r.yaml", "llama.cpp"))
    case("fw22: 'ollama' in a plan", {"plan.yaml": PLAN22.replace("output_tokens: 200}", "output_tokens: 200, framework: ollama}")}, ["plan", "plan.yaml"], expect="any",
         check=_refused("plan.yaml", "framework", "llama.cpp"))
    prop_doc = yaml.safe_load(PROP)
    prop_doc["workload"] = {"task": "inference", "model": "llama-3.1-8b", "framework": "trtllm", "prompt_tokens": 1000, "output_tokens": 300}
    case("fw22: 'trtllm' in a proposal (audit)", {"p.yaml": yaml.safe_dump(prop_doc)}, ["audit", "p.yaml"], expect="any", check=_refused("p.yaml", "framework", "tensorrt-llm"))
    case("fw22: stack 'hf' (the engine alias is not a stack)", {"r.yaml": req(lora_doc, stack="hf")}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8"], expect="any",
         check=lambda r: _refused("r.yaml", "stack")(r) and "tensorrt-llm" not in r.stderr and "llama.cpp" not in r.stderr)
    case("fw22: ask --answers with 'ollama', no terminal (recommend named)", {"a.yaml": req(serve_doc, framework="ollama")}, ["ask", "--answers", "a.yaml", "-o", "o.md"], expect="any",
         check=_refused("gpuwise recommend a.yaml -o o.md"))
    case("fw22: ask --answers with 'ollama' in a terminal", {"a.yaml": req(serve_doc, framework="ollama")}, ["ASK20", "[]", "ask", "--answers", "a.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (2, 130) and _clean(r) and "framework" in r.stdout)

    # ------------------------------------------------------------ prefill_cuda_graphs on TensorRT-LLM before 1.0
    for name, ver, graphs in [
        ("pcg22: trtllm 0.20.0, eager prefill", "0.20.0", False),
        ("pcg22: trtllm 0.9.0, eager prefill", "0.9.0", False),
        ("pcg22: trtllm 0.5.0 (before any release known), eager", "0.5.0", False),
        ("pcg22: trtllm 0.19.0rc0, eager", "0.19.0rc0", False),
        ("pcg22: trtllm 1.0.0rc0, eager", "1.0.0rc0", False),
    ]:
        case(name, {"r.yaml": req(serve_doc, framework="tensorrt-llm", framework_version=ver, prefill_cuda_graphs=graphs)}, est, expect="any", check=_serving(_positive_rates))
    case("pcg22: trtllm 0.20.0 eager, with requests_per_s and max_batch_size", {"r.yaml": req(serve_doc, framework="tensorrt-llm", framework_version="0.20.0", prefill_cuda_graphs=False, requests_per_s=2, max_batch_size=4)},
         est, expect="any", check=_serving(_positive_rates))
    case("pcg22: trtllm 0.20.0 eager in recommend md", {"r.yaml": req(serve_doc, framework="tensorrt-llm", framework_version="0.20.0", prefill_cuda_graphs=False)},
         ["recommend", "r.yaml", "--format", "md"], expect="any", check=_no_placeholder)

    # ------------------------------------------------------------ SGLang's default share with tight memory
    for model in ("kimi-k2", "deepseek-v3"):
        doc = yaml.safe_load(BIG.format(model=model))
        variants = [(8, {}), (4, {}), (1, {}), (8, {"kv_cache_tokens": 2000}), (8, {"kv_cache_tokens": 1999}),
                    (8, {"max_batch_size": 1})]
        if model == "deepseek-v3":
            variants = [(8, {}), (2, {}), (8, {"kv_cache_tokens": 1999}), (8, {"kv_cache_tokens": 2000})]
        for gpus, extra in variants:
            label = ", ".join(f"{k} {v}" for k, v in extra.items()) or "no version"
            if extra.get("kv_cache_tokens") == 1999:
                check = _refused("r.yaml", "kv_cache_tokens")
            else:
                check = _either(_finite_json, _refused("r.yaml"))
            case(f"sgl22: {model} on {gpus} x H200, {label}", {"r.yaml": req(doc, **extra)}, ["estimate", "r.yaml", "--gpu", "h200", "--gpus", str(gpus), "--format", "json"],
                 expect="any", check=check)
    for fmt, lang in [("text", "en"), ("text", "zh"), ("json", "zh")]:
        case(f"sgl22: kimi-k2 on 8 x H200, {fmt} {lang}", {"r.yaml": BIG.format(model="kimi-k2")}, ["estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", fmt, "--lang", lang],
             expect="any", check=_no_placeholder)
        case(f"sgl22: deepseek-v3 pool 50,000 on 8 x H200, {fmt} {lang}", {"r.yaml": BIG.format(model="deepseek-v3") + "  kv_cache_tokens: 50000\n"},
             ["estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", fmt, "--lang", lang], expect="any", check=_no_placeholder)
    case("sgl22: recommend kimi-k2 on SGLang", {"r.yaml": BIG.format(model="kimi-k2")}, ["recommend", "r.yaml", "--format", "json"], expect="any", check=_finite_json)
    case("sgl22: recommend deepseek-v3 on SGLang, zh", {"r.yaml": BIG.format(model="deepseek-v3")}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_no_placeholder)

    # ------------------------------------------------------------ fits_as_requested of inference estimates
    big8 = ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8", "--format", "json"]
    for name, par, want in [
        ("far22: tp 8 on 8 (kept)", {"tp": 8}, True),
        ("far22: tp 16 on 8", {"tp": 16}, False),
        ("far22: pp 8 with tp 2 on 8 (16 wanted)", {"pp": 8, "tp": 2}, False),
        ("far22: ep 4 on a dense model", {"ep": 4}, False),
    ]:
        case(name, {"r.yaml": req(serve_doc, parallelism=par)}, big8, expect="any", check=_either(_fits_as_requested(want), _refused("r.yaml")))
    case("far22: no pin, fits_as_requested true", {"r.yaml": SERVE}, big8, expect="any", check=_fits_as_requested(True))
    case("far22: tp 0", {"r.yaml": req(serve_doc, parallelism={"tp": 0})}, big8, expect="any", check=_refused("r.yaml", "tp"))
    case("far22: tp 16 on 8, text says Fits as requested: no", {"r.yaml": req(serve_doc, parallelism={"tp": 16})}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8"], expect="any",
         check=_either(_has("Fits as requested"), _refused("r.yaml")))
    case("far22: tp 8 on 8, text has no Fits as requested line", {"r.yaml": req(serve_doc, parallelism={"tp": 8})}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8"], expect="any",
         check=_lacks("Fits as requested"))
    for fmt, lang in [("text", "zh"), ("json", "en")]:
        case(f"far22: tp 16 on 8, {fmt} {lang}", {"r.yaml": req(serve_doc, parallelism={"tp": 16})}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8", "--format", fmt, "--lang", lang],
             expect="any", check=_no_placeholder)
    case("far22: a 405B that does not fit on 1 GPU", {"r.yaml": req(serve_doc, model="llama-3.1-405b")}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--format", "json"], expect="any",
         check=lambda r: _finite_json(r) and (json.loads(r.stdout).get("gpu") or {}).get("fits_as_requested") is not True)
    case("far22: recommend with tp 16", {"r.yaml": req(serve_doc, parallelism={"tp": 16})}, ["recommend", "r.yaml", "--format", "json"], expect="any", check=_either(_finite_json, _refused("r.yaml")))
    case("far22: recommend with tp 16, text zh", {"r.yaml": req(serve_doc, parallelism={"tp": 16})}, ["recommend", "r.yaml", "--lang", "zh"], expect="any", check=_either(_no_placeholder, _refused("r.yaml")))

    # ------------------------------------------------------------ catalog: smollm3-3b and minimax-m2
    for name, doc_fields, gpu, gpus in [
        ("cat22: smollm3-3b on an RTX 4090", {"model": "smollm3-3b"}, "rtx-4090", 1),
        ("cat22: smollm3-3b on llama.cpp b6600", {"model": "smollm3-3b", "framework": "llama.cpp", "framework_version": "b6600", "quantization": "gguf"}, "rtx-4090", 1),
        ("cat22: smollm3-3b with context_len 131072", {"model": "smollm3-3b", "context_len": 131072, "prompt_tokens": ..., "output_tokens": ...}, "h100-80gb-sxm", 1),
        ("cat22: minimax-m2 on 8 x H100, sglang", {"model": "minimax-m2", "framework": "sglang"}, "h100-80gb-sxm", 8),
        ("cat22: minimax-m2 on 8 x MI300X, sglang 0.5.7", {"model": "minimax-m2", "framework": "sglang", "framework_version": "0.5.7"}, "mi300x", 8),
        ("cat22: minimax-m2 on 4 x B200, fp8", {"model": "minimax-m2", "quantization": "fp8"}, "b200", 4),
        ("cat22: minimax-m2 on 1 x H100 (does not fit)", {"model": "minimax-m2"}, "h100-80gb-sxm", 1),
        ("cat22: minimax-m2 with mtp", {"model": "minimax-m2", "speculative": {"method": "mtp"}}, "h200", 8),
    ]:
        case(name, {"r.yaml": req(serve_doc, **doc_fields)}, ["estimate", "r.yaml", "--gpu", gpu, "--gpus", str(gpus), "--format", "json"], expect="any",
             check=_either(_finite_json, _refused("r.yaml")))
    case("cat22: smollm3-3b misspelt 'smolm3-3b'", {"r.yaml": req(serve_doc, model="smolm3-3b")}, est, expect="any", check=_refused("r.yaml", "smollm3-3b"))
    case("cat22: minimax-m2 misspelt 'minmax-m2'", {"r.yaml": req(serve_doc, model="minmax-m2")}, est, expect="any", check=_refused("r.yaml", "minimax-m2"))
    case("cat22: recommend minimax-m2, html", {"r.yaml": req(serve_doc, model="minimax-m2")}, ["recommend", "r.yaml", "--format", "html"], expect="any", check=_no_placeholder)
    case("cat22: smollm3-3b LoRA", {"r.yaml": req(lora_doc, model="smollm3-3b")}, ["estimate", "r.yaml", "--gpu", "rtx-4090", "--format", "json"], expect="any", check=_finite_json)

    # ------------------------------------------------------------ DeepSpeed ZeRO-1/2 offload, stack_version
    zest = ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8", "--format", "json"]
    for stage in (1, 2):
        for ver, check in [v for v in [
            (None, _finite_json), ("0.9.0", _finite_json), ("0.14.1", _finite_json),
            ("v0.14.1", _refused("r.yaml", "stack_version", "did you mean 0.14.1?")),
            ("0.18.0rc1", _either(_finite_json, _refused("r.yaml", "stack_version"))),
            ("9" * 30, _either(_finite_json, _refused("r.yaml", "stack_version"))),
        ] if stage == 2 or v[0] in (None, "0.9.0", "v0.14.1", "0.18.0rc1")]:
            text = ZERO.format(stage=stage) + ("" if ver is None else f"  stack_version: {json.dumps(ver)}\n")
            case(f"zero22: stage {stage} offload, stack_version {ver!r}", {"r.yaml": text}, zest, expect="any", check=check)
    case("zero22: stage 2 offload, stack_version 0.10 unquoted", {"r.yaml": ZERO.format(stage=2) + "  stack_version: 0.10\n"}, zest, expect="any",
         check=_refused("r.yaml", "stack_version"))
    case("zero22: stage 2 offload, stack_version 14 (a number)", {"r.yaml": ZERO.format(stage=2) + "  stack_version: 14\n"}, zest, expect="any", check=_finite_json)
    case("zero22: stage 1 offload nvme", {"r.yaml": ZERO.format(stage=1).replace("offload: cpu", "offload: nvme")}, zest, expect="any", check=_either(_finite_json, _refused("r.yaml", "offload")))
    case("zero22: stage 2 offload, no version, text zh", {"r.yaml": ZERO.format(stage=2)}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8", "--lang", "zh"],
         expect="any", check=_no_placeholder)
    case("zero22: stage 2 offload, no version, recommend md", {"r.yaml": ZERO.format(stage=2)}, ["recommend", "r.yaml", "--format", "md"],
         expect="any", check=_has("0.19.5"))
    case("zero22: stage 2 offload, 0.12.0, recommend", {"r.yaml": ZERO.format(stage=2) + '  stack_version: "0.12.0"\n'}, ["recommend", "r.yaml", "--format", "json"], expect="any", check=_finite_json)
    case("zero22: stage 2 offload on megatron (not DeepSpeed), 0.14.1", {"r.yaml": ZERO.format(stage=2).replace("deepspeed", "megatron") + '  stack_version: "0.14.1"\n'}, zest, expect="any",
         check=_either(_finite_json, _refused("r.yaml")))
    case("zero22: stage 2 offload, 1 GPU, fp16, 0.8.0", {"r.yaml": ZERO.format(stage=2) + '  stack_version: "0.8.0"\n  precision: fp16\n'}, ["estimate", "r.yaml", "--gpu", "rtx-4090", "--format", "json"],
         expect="any", check=_either(_finite_json, _refused("r.yaml")))
    _ = _clean
