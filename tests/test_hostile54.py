"""Hostile round 54's fixed failures (benchmarks/hostile_round54.py), each failing before its fix:

* a word in a number field ('high' for a share) or a fraction for a count (1.5) was pydantic's 'Input should be a
  valid number / integer ...': the house's words; a number written in words ('eight', 'Sixteen', '八', '十六') is
  offered in digits, with its bound where it passes one;
* ``packing: true`` (TRL's SFTConfig flag) was told 'write a number': the choices said and padding_free offered
  (false: none); 'true' quoted offered padding_free;
* Q4_K_M / IQ4_XS (a GGUF file's type), 'bnb', 'fa2' in ``attention``, offload 'disk' / 'SSD', kv_precision 'q8_0'
  and hosting 'home' offered nothing: gguf, bitsandbytes, flash, nvme, fp8 and office;
* stack 'torchtune' was offered torchtitan (another project), 'pytorch' nothing: leave stack out said;
* a draft model no smaller than its model (70B for an 8B) was priced as drafting: refused, both sizes said;
* a price CSV row of 0 GPUs was 'not a whole number of GPUs': said to have no GPU;
* --help left the file arguments (REQUIREMENTS.yaml, PLAN.yaml, RULE_ID, FILE.csv) and prices import's --format
  unsaid;
* --lang 'zh,en' (a browser's language list) offered nothing: zh.

The guards beside them (passing before too) say what must not change.
"""

from __future__ import annotations

import re

import pytest

from .clirun import gpuwise as cli
from .test_hostile52 import _one_line, _write  # test_hostile52's helpers, not written twice
from .test_hostile53 import IMPORT, LORA8, SERVE8

FULL8 = {**LORA8, "method": "full"}
PLAN = ("horizon_months: 12\nowned:\n  - gpu: RTX 4090\n    count: {count}\n    servers: 2\n    hosting: office\n"
        "    bought: 2024-03\n    paid_usd: 14400\nworkloads:\n  - name: lora-8b\n    workload:\n      task: finetune\n"
        "      method: lora\n      model: llama-3.1-8b\n      seq_len: 4096\n      train_tokens: 2.0e8\n"
        "    cadence: {{per_month: 2}}\n    deadline_days: 3\n")


def _estimate(tmp_path, doc, *extra: str):
    _write(tmp_path, "r.yaml", doc)
    return cli("estimate", "r.yaml", "--gpu", "h100", *extra, cwd=tmp_path)


# ---------------------------------------------------------------- words and fractions in number fields
def test_a_word_in_a_share_is_said_in_the_house_words(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "prefix_cache_hit_rate": "high"}}))
    assert "workload.prefix_cache_hit_rate: must be a number (got 'high')" in err


def test_a_fraction_for_a_count_is_said_in_the_house_words(tmp_path):
    _write(tmp_path, "plan.yaml", PLAN.format(count=1.5))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "owned[0].count: must be a whole number (got 1.5)" in err


@pytest.mark.parametrize("given, meant", [("eight", "8"), ("Twelve", "12"), ("八", "8"), ("十六", "16"),
                                          ("三十二", "32"), ("两", "2")])
def test_a_count_in_words_is_offered_in_digits(tmp_path, given, meant):
    _write(tmp_path, "plan.yaml", PLAN.format(count=f"'{given}'"))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert f"owned[0].count: '{given}' is a number in words" in err and err.rstrip().endswith(f"write {meant}")


def test_a_number_in_words_past_its_bound_says_the_bound(tmp_path):
    # concurrent_requests is at least 1 (docs/formats.md): 'zero' is offered 0 and told the bound
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "concurrent_requests": "zero"}}))
    assert "write 0" in err and "must be at least 1" in err


def test_a_number_in_words_in_chinese(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "concurrent_requests": "sixteen"}}, "--lang", "zh"))
    assert "是用文字写的数" in err and "请写 16" in err


def test_words_that_are_no_number_are_not_read_as_one(tmp_path):
    # guards: a word that is no number stays 'must be a whole number'; '8 cards' keeps its own offer (round 45)
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "concurrent_requests": "many"}}))
    assert "must be a whole number (got 'many')" in err
    _write(tmp_path, "plan.yaml", PLAN.format(count="'8 cards'"))
    assert "write 8" in _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


# ---------------------------------------------------------------- a yes/no for a field of words
def test_packing_true_is_offered_padding_free(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**LORA8, "packing": True}}))
    assert "workload.packing: true is a yes/no value" in err and "did you mean padding_free?" in err
    assert "write a number" not in err


def test_packing_false_is_offered_none(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**LORA8, "packing": False}}))
    assert "did you mean none?" in err and "'none', 'padding_free'" in err


def test_a_yes_no_for_attention_lists_its_choices_offering_none(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**LORA8, "attention": True}}))
    assert "'sdpa', 'flash', 'eager'" in err and "did you mean" not in err and "write a number" not in err


def test_a_yes_no_for_a_count_still_says_a_number(tmp_path):
    # guard (round 12): count: yes is no number
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "concurrent_requests": True}}))
    assert "write a number" in err


# ---------------------------------------------------------------- choices as the tools name them
@pytest.mark.parametrize("field, given, meant, base", [
    ("quantization", "Q4_K_M", "gguf", SERVE8), ("quantization", "IQ4_XS", "gguf", SERVE8),
    ("quantization", "q8_0.gguf", "gguf", SERVE8), ("quantization", "bnb", "bitsandbytes", SERVE8),
    ("attention", "fa2", "flash", LORA8), ("offload", "disk", "nvme", FULL8), ("offload", "SSD", "nvme", FULL8),
    ("kv_precision", "q8_0", "fp8", SERVE8), ("packing", "true", "padding_free", LORA8),
])
def test_a_choice_as_its_tool_names_it_is_offered(tmp_path, field, given, meant, base):
    err = _one_line(_estimate(tmp_path, {"workload": {**base, field: given}}))
    assert f"workload.{field}" in err and f"did you mean {meant}?" in err


def test_home_hosting_is_offered_office(tmp_path):
    _write(tmp_path, "plan.yaml", PLAN.format(count=8).replace("hosting: office", "hosting: home"))
    assert "did you mean office?" in _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


def test_a_quantization_that_is_a_precision_is_offered_nothing(tmp_path):
    # guard: 'bf16' is no quantization method and no GGUF type
    err = _one_line(_estimate(tmp_path, {"workload": {**SERVE8, "quantization": "bf16"}}))
    assert "did you mean" not in err


@pytest.mark.parametrize("given", ["torchtune", "pytorch", "PyTorch"])
def test_a_library_with_no_stack_of_its_own_is_told_to_leave_stack_out(tmp_path, given):
    err = _one_line(_estimate(tmp_path, {"workload": {**FULL8, "stack": given}}))
    assert "leave stack out" in err and "torchtitan?" not in err


def test_a_misspelt_stack_is_still_offered_its_spelling(tmp_path):
    err = _one_line(_estimate(tmp_path, {"workload": {**FULL8, "stack": "torchtitn"}}))
    assert "did you mean torchtitan?" in err


# ---------------------------------------------------------------- a draft model no smaller than its model
@pytest.mark.parametrize("draft", [70, 16, 8.1])
def test_a_draft_model_no_smaller_than_its_model_is_refused(tmp_path, draft):
    # Llama 3.1 8B holds 8.03e9 parameters (models.yaml, from its config.json): a draft of 8.1B or more is refused
    doc = {"workload": {**SERVE8, "speculative": {"method": "draft-model", "draft_params_b": draft}}}
    err = _one_line(_estimate(tmp_path, doc))
    assert "workload.speculative.draft_params_b" in err and f"{draft:g} billion" in err and "(8.03 billion)" in err


def test_a_smaller_draft_model_is_estimated(tmp_path):
    doc = {"workload": {**SERVE8, "speculative": {"method": "draft-model", "draft_params_b": 1}}}
    r = _estimate(tmp_path, doc, "--format", "json")
    assert r.returncode == 0 and not r.stderr.strip()


# ---------------------------------------------------------------- a price CSV row of no GPU
def test_a_row_of_zero_gpus_is_said_to_have_none(tmp_path):
    _write(tmp_path, "c.csv", "gpu,gpus,price\nH100 80GB SXM,0,2\nH100 80GB SXM,8,20\n")
    r = cli(*IMPORT, cwd=tmp_path)
    assert r.returncode == 0 and "imported 1 offer" in r.stdout
    assert "GPU count '0': a row with no GPU" in r.stdout and "not a whole number" not in r.stdout


def test_a_row_of_half_a_gpu_is_still_a_partial_gpu(tmp_path):
    _write(tmp_path, "c.csv", "gpu,gpus,price\nH100 80GB SXM,0.5,2\nH100 80GB SXM,8,20\n")
    assert "not a whole number of GPUs" in cli(*IMPORT, cwd=tmp_path).stdout


# ---------------------------------------------------------------- --help and --lang
def _undescribed(text: str) -> list[str]:
    """The help's entries (two spaces in) with no words on their line or the next one further in."""
    lines = text.splitlines()
    return [line for i, line in enumerate(lines) if re.match(r"  \S", line) and not re.search(r"\S\s{2,}\S", line[2:])
            and not (i + 1 < len(lines) and re.match(r" {4,}\S", lines[i + 1]))]


@pytest.mark.parametrize("cmd", [("recommend",), ("estimate",), ("plan",), ("explain",), ("prices", "import"),
                                 ("audit",), ("ask",), ("gpus",), ("rules",), ("prices",)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_help_entry_says_what_it_is(cmd, lang):
    r = cli(*cmd, "--help", "--lang", lang)
    assert r.returncode == 0 and _undescribed(r.stdout) == []


def test_a_file_argument_is_said_in_chinese():
    assert "需求文件" in cli("recommend", "--help", "--lang", "zh").stdout


@pytest.mark.parametrize("given", ["zh,en", "zh-CN,zh;q=0.9,en;q=0.8"])
def test_a_language_list_is_offered_its_first(tmp_path, given):
    _write(tmp_path, "r.yaml", {"workload": SERVE8})
    r = cli("estimate", "r.yaml", "--lang", given, cwd=tmp_path)
    assert r.returncode == 2 and "did you mean zh?" in r.stderr


def test_a_list_of_languages_neither_of_them_ours_is_offered_nothing(tmp_path):
    _write(tmp_path, "r.yaml", {"workload": SERVE8})
    assert "did you mean" not in cli("estimate", "r.yaml", "--lang", "fr,de", cwd=tmp_path).stderr
