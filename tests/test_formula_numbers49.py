"""A formula "with numbers" puts each operand's number in (gpuwise/render/views/base.py BaseView.term): users49 found
lines that kept words where the term's inputs had the number. The serving figure max_concurrent_sequences printed
'1 x floor((0.90 x capacity - weights - context - working set) per GPU / KV per sequence per GPU)' although its
inputs held capacity_per_gpu_bytes, weights_per_gpu_bytes, ...; the hosting line 'billed kW x rent $/kW-month x 12'
with billed_kw and usd_per_kw_month; the MFU line 'MFU_ref x (1 + 7.5 x r / 8,192) / ...' with mfu_ref and
r_flop_per_byte; the pipeline bubble '(pp - 1) / (micro-batches x 1)' and ZeRO-3's traffic 'micro-batches x (...)'
with micro_batches; a spot rental's '(1 + restart overhead)' with restart_overhead; a bought cluster's
'2 x NIC + 2 x $/port + 2 x $/link' with nic_usd, switch_usd_per_port and link_usd. The words were literal text of
the formula.* message, not operands. Here every formula term of a set of answers is worded with its numbers, in
English and Chinese, and no word that names a numeric input may be left in its arithmetic."""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuwise import messages
from gpuwise.render import words
from gpuwise.render.fmt import Fmt, operand_number

from .conftest import answer_of

ROOT = Path(__file__).parent.parent

# a word the formulas wrote for a quantity, and the input that holds its number
NAMED = {"capacity": "capacity_per_gpu_bytes", "usable": "usable_per_gpu_bytes", "weights": "weights_per_gpu_bytes",
         "context": "context_bytes", "working set": "working_set_per_gpu_bytes",
         "KV per sequence": "kv_per_sequence_per_gpu_bytes", "KV tokens per sequence": "tokens_per_sequence",
         "micro-batches": "micro_batches", "restart overhead": "restart_overhead", "NIC": "nic_usd",
         "$/port": "switch_usd_per_port", "$/link": "link_usd", "MFU_ref": "mfu_ref", "billed kW": "billed_kw",
         "$/kW-month": "usd_per_kw_month", "r": "r_flop_per_byte"}
# a parenthesis of words only: "(CUDA context and workspaces)"; a hyphen inside a word is a word's ("start-up":
# review50's "(the run, longer by its restart overhead, and the start-up)" labels the billed hours), not a minus
_LABEL = re.compile(r"\((?:[^()0-9+×/=-]|(?<=[^\W\d])-(?=[^\W\d]))*\)")


def _terms(o: Any) -> list[dict]:
    if isinstance(o, dict):
        here = [o] if o.get("formula_phrases") and isinstance(o.get("inputs"), dict) else []
        return here + [t for v in o.values() for t in _terms(v)]
    if isinstance(o, list):
        return [t for v in o for t in _terms(v)]
    return []


def _estimate(name: str, gpu: str, gpus: int, tmp: Path, **workload: Any) -> dict:
    from gpuwise.decide.estimate import estimate

    d = yaml.safe_load((ROOT / "examples" / name).read_text())
    d["workload"].update(workload)
    path = tmp / f"{name}-{len(workload)}.yaml"
    path.write_text(yaml.safe_dump(d), encoding="utf-8")
    return estimate(str(path), gpu=gpu, gpus=gpus).model_dump(mode="json")


@pytest.fixture(scope="module")
def answers(tmp_path_factory) -> list[dict]:
    tmp = tmp_path_factory.mktemp("f49")
    got = [_estimate("inference-70b.yaml", "h100", 4, tmp, framework=fw, **extra) for fw, extra in (
        ("vllm", {}), ("sglang", {}), ("tensorrt-llm", {}), ("vllm", {"memory_fraction": 0.8}),
        ("sglang", {"memory_fraction": 0.8}), ("tensorrt-llm", {"memory_fraction": 0.8}))]
    got.append(_estimate("pretrain-7b.yaml", "h100", 8, tmp))
    got.append(_estimate("finetune-full-13b.yaml", "h100", 8, tmp))
    got += [answer_of("audit", ROOT / "examples" / f).model_dump(mode="json") for f in (
        "proposal-spot-h100-pretrain.yaml", "proposal-16x4090-70b-full.yaml", "proposal-8xa100-70b-article.yaml")]
    got.append(answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml").model_dump(mode="json"))
    return got


def _arithmetic(text: str) -> str:
    """A formula's arithmetic: what precedes its sentence (': ' or '; '), labels in parentheses dropped."""
    head = re.split(r": |; ", text)[0]
    while _LABEL.search(head):
        head = _LABEL.sub("", head)
    return head


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_formula_keeps_a_word_for_a_number_it_has(answers, lang):
    f = Fmt(lang)
    left, seen = [], set()
    for t in (t for a in answers for t in _terms(a)):
        ids = tuple(p[1] for p in t["formula_phrases"])
        seen.update(ids)
        shown = words.formula_parts(t["formula_phrases"], f, lambda n, t=t: operand_number(n, t["inputs"]))
        # the word in the report's language too (an operand's word is translated from its English msgid)
        for word, key in NAMED.items():
            v = t["inputs"].get(key)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            local = f._(word) if lang != "en" else word
            for w in {word, local}:
                if re.search(rf"(?<![\w$]){re.escape(w)}(?!\w)", _arithmetic(shown)):
                    left.append((t.get("name"), ids, w, shown))
    assert not left, left
    # the formulas this set reaches, each fixed by users49
    assert {"formula.serving.kv_capacity_total", "formula.serving.kv_capacity_share",
            "formula.serving.kv_capacity_free", "formula.serving.kv_capacity_stated_total",
            "formula.serving.kv_capacity_stated_share",
            "formula.serving.kv_capacity_stated_free", "formula.hosting", "formula.mfu", "formula.pp_bubble",
            "formula.network", "formula.rent_spot", "formula.dp_zero3"} <= seen


def test_the_kv_capacity_line_works_out_to_its_value(answers):
    """vLLM's default 0.90 of the H100's 85.5e9 B (nvidia-smi's 81,559 MiB) less 35.3e9 B of Llama 3 70B weights a
    GPU (TP4), the 1.07e9 B CUDA context and the working set, over 503e6 B a sequence: floor(...) = 79 (and so
    for each framework): the line the report prints, with every digit, gives the figure."""
    checked = 0
    for t in (t for a in answers for t in _terms(a) if t.get("name") == "max_concurrent_sequences"):
        exact = words.formula_parts(t["formula_phrases"], Fmt("en"), lambda n, t=t: (
            repr(float(t["inputs"][n])) if isinstance(t["inputs"].get(n), (int, float)) else None))
        expr = re.split(r": |; ", exact)[0].replace(" B per GPU", "").replace("×", "*")
        assert re.fullmatch(r"[\d.e+\s*/()floor-]+", expr), exact
        assert eval(expr, {"floor": math.floor}) == t["value"], exact  # the fullmatch above: digits and floor only
        checked += 1
    assert checked >= 6


def test_an_operand_word_is_translated(answers):
    """A formula's words in Chinese: the KV capacity line of vLLM reads 容量, 权重, 工作集 (messages operand.*)."""
    t = next(t for t in _terms(answers[0]) if t.get("name") == "max_concurrent_sequences")
    zh = words.formula_parts(t["formula_phrases"], Fmt("zh"))
    assert "权重" in zh and "工作集" in zh and "working set" not in zh
    assert messages.operand("weights_per_gpu_bytes") == "weights"
