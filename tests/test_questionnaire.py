"""The `gpuwise ask` questionnaire, driven through prompt_toolkit's pipe input and through its session API.

Keystrokes go in exactly as a user would type them (arrow keys as escape sequences, Enter
as ``\\r``); the engine, the knowledge base and the pydantic models are the real ones.  The
pipe is closed after the keystrokes, so a flow that wants more input than the test gives
ends with EOF (exit status 130) instead of hanging.  The question flow itself (which
questions a run is asked, in which order) is checked through ``_Session`` directly.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from gpuwise.ask.questionnaire import (
    QUESTIONS_FILE,
    Condition,
    QuestionsError,
    _Invalid,
    _model_completer,
    _Session,
    load_questions,
    parse_number,
    render_answers,
    run_ask,
)
from gpuwise.inputs.schema import Constraints, Requirements
from gpuwise.knowledge import load

QN = load_questions()
pytestmark = pytest.mark.usefixtures("questions_read_once")  # tests/conftest.py
KB = load()
UP, DOWN, ENTER, CTRL_C = "\x1b[A", "\x1b[B", "\r", "\x03"
SOURCE = "\n".join(f.read_text(encoding="utf-8") for f in sorted(Path(QUESTIONS_FILE).parent.glob("*.py")))


class RecordingOutput(DummyOutput):
    """A DummyOutput that keeps what the prompts drew, to tell which questions were asked."""

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def write(self, data: str) -> None:
        self.chunks.append(data)

    def write_raw(self, data: str) -> None:
        self.chunks.append(data)

    @property
    def text(self) -> str:
        return "".join(self.chunks)


def prompt(key: str, lang: str = "en", currency: str = "USD") -> str:
    return QN.by_key(key).question[lang].format(cur=currency, sym={"USD": "$", "CNY": "¥"}[currency])[:30]


def choose(key: str, value: object, start: object = None) -> str:
    """Keystrokes that move a select from its default (or ``start``) to ``value`` and press Enter."""
    q = QN.by_key(key)
    values = [c.value for c in q.choices]

    def index(v: object) -> int:
        return next(i for i, c in enumerate(values) if c == v and isinstance(c, bool) == isinstance(v, bool))

    here = index(q.default if start is None else start)
    target = index(value)
    return (DOWN * (target - here) if target >= here else UP * (here - target)) + ENTER


def text(answer: str) -> str:
    return answer + ENTER


YES, NO = "y\r", "n\r"  # review65: a y/N answer is taken by Enter
MENU_RUN = ENTER
MENU_EDIT = DOWN + ENTER
MENU_SAVE_QUIT = DOWN * 2 + ENTER


def drive(tmp_path: Path, keys: list[str], *, answers: Path | None = None, report: Path | None = None,
          output: DummyOutput | None = None, lang: str = "en", currency: str | None = None) -> tuple[int, Path]:
    path = answers or tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        rc = run_ask(str(path), str(report) if report else None, lang=lang, currency=currency, input=pipe,
                     output=output or DummyOutput())
    return rc, path


def saved(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # what `ask` writes is a requirements file as `recommend` reads it (placeholders never leak)
    if "model" in data.get("workload", {}) or "params_b" in data.get("workload", {}):
        Requirements.model_validate(data)
    return data


def flow(tmp_path: Path, answers: dict[str, Any], *, lang: str = "en", currency: str | None = None
         ) -> tuple[list[str], _Session]:
    """The questions a session puts, in order, when ``answers`` gives some answers and every
    other question gets its offered default (as Enter would)."""
    s = _Session(QN, KB, tmp_path / "flow.yaml", lang=lang, currency=currency)
    s.set_currency()
    asked: list[str] = []
    while (q := s.pending()) is not None:
        assert q.key not in asked, f"{q.key} asked twice"
        asked.append(q.key)
        s.apply(q, s.validate(q, answers.get(q.key, s.current(q))))
    return asked, s


# ------------------------------------------------------------------------------ the flow
LORA_ESSENTIALS = ["workload.task", "workload.method", "workload.model", "workload.train_tokens",
                   "constraints.deadline_days", "constraints.budget_usd", "constraints.acquisition",
                   "constraints.hosting", "advanced"]


def test_lora_fine_tune_asks_the_essentials_only(tmp_path: Path) -> None:
    asked, s = flow(tmp_path, {"workload.method": "lora", "workload.model": "llama-3.1-70b", "advanced": False})
    assert asked == LORA_ESSENTIALS
    assert len(asked) <= 9  # issue 15: a LoRA run was asked 20 questions
    # nothing advanced is written: the documented defaults apply and the report lists them
    assert s.answers["workload"] == {"task": "finetune", "method": "lora", "model": "llama-3.1-70b",
                                     "train_tokens": 1e8}
    assert "lora_rank" not in s.answers["workload"] and "optimizer" not in s.answers["workload"]
    assert s.state() == "advanced=no"


def test_renting_skips_where_it_runs(tmp_path: Path) -> None:
    asked, _ = flow(tmp_path, {"workload.method": "qlora", "constraints.acquisition": "rent", "advanced": False})
    assert asked == [k for k in LORA_ESSENTIALS if k != "constraints.hosting"]


def test_advanced_settings_come_after_the_model_and_only_on_yes(tmp_path: Path) -> None:
    asked, s = flow(tmp_path, {"workload.method": "lora", "advanced": True, "workload.lora_rank": 64})
    assert asked[: len(LORA_ESSENTIALS)] == LORA_ESSENTIALS
    advanced = asked[len(LORA_ESSENTIALS):]
    assert advanced[:4] == ["constraints.project_months", "constraints.value_of_a_day_usd", "workload.lora_rank",
                            "workload.lora_targets"]
    for key in ("workload.optimizer", "workload.zero_stage", "workload.mixed_precision",
                "constraints.electricity_usd_per_kwh", "constraints.gpus", "environment"):
        assert key in advanced
    assert asked.index("workload.lora_rank") > asked.index("workload.model")
    assert s.answers["workload"]["lora_rank"] == 64


def test_the_training_stack_is_asked_in_advanced_settings_of_training_only(tmp_path: Path) -> None:
    """workload.stack (leftovers57): asked after the ZeRO stage where the advanced settings are wanted, for a
    pretrain or a fine-tune, never for a service; its offered default is the file's own (none given: the calibrated
    middle of published runs, docs/formats.md), so Enter leaves the estimate as a file without the key has it."""
    q = QN.by_key("workload.stack")
    assert q.default is None and Requirements.model_fields["workload"].annotation is not None
    from gpuwise.inputs.workload import Workload

    assert Workload.model_fields["stack"].default is None
    assert {c.value for c in q.choices} - {None} == set(Workload.model_fields["stack"].annotation.__args__[0].__args__)
    asked, s = flow(tmp_path, {"advanced": True, "workload.stack": "unsloth"})
    assert asked.index("workload.stack") == asked.index("workload.zero_stage") + 2  # after the offload (askreview59)
    assert s.answers["workload"]["stack"] == "unsloth"
    asked, _ = flow(tmp_path, {"workload.task": "pretrain", "advanced": True})
    assert "workload.stack" in asked
    asked, _ = flow(tmp_path, {"workload.task": "inference", "advanced": True})
    assert "workload.stack" not in asked
    asked, _ = flow(tmp_path, {"advanced": False})
    assert "workload.stack" not in asked
    for lang in ("en", "zh"):
        assert q.question[lang] and q.help[lang] and all(c.title[lang] for c in q.choices)


def test_a_chosen_stack_is_saved_and_estimated_with_it(tmp_path: Path) -> None:
    """The answer is the file's `workload.stack`, read back by the same model: a LoRA fine-tune of Llama 2 7B
    answered 'axolotl' is estimated at Axolotl's efficiency (knowledge/runtime.yaml training_stacks), not
    assumed the middle."""
    from gpuwise.inputs.job import resolve

    _, s = flow(tmp_path, {"workload.method": "lora", "workload.model": "llama-2-7b", "advanced": True,
                           "workload.stack": "axolotl"})
    req = Requirements.model_validate({"workload": s.answers["workload"], "constraints": s.answers["constraints"]})
    assert req.workload.stack == "axolotl"
    job = resolve(req, KB)
    assert job.w.stack == "axolotl"


def test_inference_essentials_and_framework_only_in_advanced(tmp_path: Path) -> None:
    essentials = ["workload.task", "workload.model", "workload.prompt_tokens", "workload.output_tokens",
                  "workload.requests_per_s", "workload.concurrent_requests", "workload.target_tokens_per_s",
                  "constraints.budget_usd",
                  "constraints.acquisition", "constraints.hosting", "constraints.project_months", "advanced"]
    asked, s = flow(tmp_path, {"workload.task": "inference", "advanced": False})
    assert asked == essentials
    assert "framework" not in s.answers["workload"]  # vllm, the documented default, applies
    asked, s = flow(tmp_path / "..", {"workload.task": "inference", "advanced": True})
    assert asked[: len(essentials)] == essentials
    assert {"workload.framework", "workload.max_ttft_ms", "workload.max_tpot_ms"} <= set(asked)
    assert s.answers["workload"]["framework"] == "vllm"
    assert "workload.optimizer" not in asked and "workload.train_tokens" not in asked


def test_training_tokens_default_is_the_documented_one(tmp_path: Path) -> None:
    # README: finetune 1e8 (about 50,000 examples of 2,000 tokens); pretrain 20 tokens per parameter
    _, s = flow(tmp_path, {"advanced": False})
    assert s.answers["workload"]["train_tokens"] == 1e8
    _, s = flow(tmp_path, {"workload.task": "pretrain", "workload.model": "llama-3.1-8b", "advanced": False})
    params_b = KB.models["llama-3.1-8b"].params_b  # 8.03B (config.json)
    assert s.answers["workload"]["train_tokens"] == pytest.approx(20 * params_b * 1e9, rel=5e-3)
    _, s = flow(tmp_path, {"workload.task": "pretrain", "workload.model": "13b", "advanced": False})
    assert s.answers["workload"]["train_tokens"] == 2.6e11  # 20 x 13e9


def test_cny_session_saves_the_currency_and_amounts_as_typed(tmp_path: Path) -> None:
    _, s = flow(tmp_path, {"constraints.budget_usd": 1_500_000, "constraints.acquisition": "buy",
                               "advanced": True}, currency="CNY")
    constraints = s.answers["constraints"]
    assert constraints["currency"] == "CNY"
    assert constraints["budget_usd"] == 1_500_000  # yuan, as typed: never converted
    # a USD default is offered converted at the knowledge base's dated rate (tco.yaml usd_cny)
    rate = KB.tco_value("usd_cny").value
    assert constraints["electricity_usd_per_kwh"] == round(0.15 * rate, 2)
    Requirements.model_validate({"workload": s.answers["workload"], "constraints": constraints})


# ------------------------------------------------------------------------------ full runs
INFERENCE_KEYS = [
    choose("workload.task", "inference"),
    text("llama-3.1-70b"),                       # model
    text("3000"),                                # prompt tokens
    text("1000"),                                # output tokens
    ENTER,                                       # request rate: none, the concurrency is the load
    text("16"),                                  # concurrent requests
    text("500"),                                 # target tokens/s
    text("$50k"),                                # budget
    choose("constraints.acquisition", "rent"),   # (where it runs: not asked when renting)
    text("3"),                                   # months
    YES,                                         # advanced settings
    ENTER,                                       # p95 time to first token: none (no rate)
    ENTER,                                       # p95 time per output token: none
    ENTER,                                       # quantization method: none
    choose("workload.precision", "fp8"),
    choose("workload.framework", "sglang"),
    ENTER,                                       # KV cache precision: auto
    ENTER,                                       # prefix cache hit rate: 0
    ENTER,                                       # speculative decoding: none
    ENTER,                                       # disaggregated: no
    text("500"),                                 # max TTFT
    ENTER,                                       # max TPOT: none
    ENTER,                                       # max GPUs: default 64
    text("H100-80G, a100 80gb"),                 # short list, resolved to catalog ids
    ENTER,                                       # market: not stated
    YES,                                         # describe the software environment
    text("ubuntu-22.04"),
    text("535.104.05"),
    text("12.1"),
    text("2.1.0"),
]
INFERENCE_FILE = {
    "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "requests_per_s": None,
                 "concurrent_requests": 16, "target_tokens_per_s": 500, "framework": "sglang", "prompt_tokens": 3000,
                 "output_tokens": 1000, "kv_precision": "auto", "prefix_cache_hit_rate": 0,
                 "max_ttft_ms": 500, "max_tpot_ms": None, "speculative": None, "quantization": None,
                 "disaggregated": False, "p95_ttft_s": None, "p95_tpot_s": None},
    "constraints": {"gpus": ["h100-80gb-sxm", "a100-80gb-sxm"], "max_gpus": 64, "budget_usd": 50000,
                    "acquisition": "rent", "project_months": 3, "currency": "USD", "market": None},
    "environment": {"os": "ubuntu-22.04", "driver": "535.104.05", "cuda": "12.1", "pytorch": "2.1.0"},
}


def test_full_inference_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, path = drive(tmp_path, [*INFERENCE_KEYS, MENU_RUN])
    out = capsys.readouterr()
    assert rc == 0, out.err  # H100 or A100 rented within the $50,000
    data = saved(path)
    assert data == INFERENCE_FILE
    # the file's layout is the contract's: sections in order, keys in the model's order, strings kept strings
    assert list(data) == ["workload", "constraints", "environment"]
    assert isinstance(data["environment"]["cuda"], str)
    report = tmp_path / "answers-report.md"
    assert report.is_file() and report.stat().st_size > 0
    assert "Recommendation" in out.out or "No feasible option" in out.out
    flat = out.out.replace("\n", "")  # a long tmp path (pytest-xdist's popen-gw0/) is wrapped at 80 columns
    assert str(path) in flat and str(report) in flat


FINETUNE_KEYS = [
    ENTER,                                       # task: finetune is the default
    choose("workload.method", "qlora"),
    text("mistral-7b"),                          # an alias: saved as the catalog id
    text("2B"),                                  # training tokens
    text("7"),                                   # deadline
    ENTER,                                       # budget: none
    choose("constraints.acquisition", "buy"),
    choose("constraints.hosting", "office"),
    YES,                                         # advanced settings
    ENTER,                                       # project months: 6
    ENTER,                                       # a day sooner: the policy's default
    text("64"),                                  # LoRA rank, after the model
    ENTER,                                       # LoRA targets: all-linear
    ENTER,                                       # precision: bf16
    ENTER,                                       # mixed precision: yes
    text("4"),                                   # micro-batch
    text("4096"),                                # sequence length
    choose("workload.optimizer", "adamw-8bit"),
    choose("workload.gradient_checkpointing", True),
    ENTER,                                       # every N-th layer: none, every layer as answered (product61)
    ENTER,                                       # ZeRO: auto
    ENTER,                                       # offload: auto
    ENTER,                                       # training stack: not stated (the middle)
    ENTER,                                       # attention kernel: not stated, the stack's (product61)
    ENTER,                                       # torch.compile: no (review65)
    ENTER,                                       # Liger Kernel: no (review65)
    text("0.30"),                                # electricity
    text("8"),                                   # max GPUs
    ENTER,                                       # short list: all
    ENTER,                                       # market: not stated
    ENTER,                                       # environment: no
]
FINETUNE_FILE = {
    "workload": {"task": "finetune", "method": "qlora", "lora_rank": 64, "lora_targets": "all-linear",
                 "model": "mistral-7b-v0.1", "precision": "bf16", "mixed_precision": True,
                 "optimizer": "adamw-8bit", "batch_size": 4, "seq_len": 4096, "gradient_checkpointing": True,
                 "zero_stage": "auto", "offload": "auto", "stack": None, "train_tokens": 2e9,
                 "checkpoint_every_n_layers": None, "attention_kernel": None, "torch_compile": False,
                 "liger_kernel": False},
    "constraints": {"gpus": [], "max_gpus": 8, "deadline_days": 7, "budget_usd": None, "acquisition": "buy",
                    "project_months": 6, "value_of_a_day_usd": None, "electricity_usd_per_kwh": 0.3,
                    "currency": "USD", "hosting": "office", "market": None},
}


def test_full_finetune_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out" / "report.md"
    report.parent.mkdir()
    rc, path = drive(tmp_path, [*FINETUNE_KEYS, MENU_RUN], report=report)
    out = capsys.readouterr()
    assert rc == 0, out.err  # a feasible purchase: an office machine that finishes in the 7 days
    assert saved(path) == FINETUNE_FILE
    assert report.is_file() and report.stat().st_size > 0


def test_chinese_cny_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = RecordingOutput()
    keys = [ENTER, choose("workload.method", "lora"), text("qwen2.5-7b"), ENTER, text("5"),
            text("30万"),                         # 300,000 yuan, typed the Chinese way
            choose("constraints.acquisition", "buy"), ENTER, NO, MENU_RUN]
    rc, path = drive(tmp_path, keys, output=output, lang="zh", currency="CNY")
    out = capsys.readouterr().out
    assert rc == 0, out  # a LoRA of a 7B model fits a 300,000-yuan purchase
    data = saved(path)
    assert data["constraints"] == {"deadline_days": 5, "budget_cny": 300000, "acquisition": "buy",
                                   "currency": "CNY", "hosting": None}
    content = path.read_text(encoding="utf-8")
    assert "budget_cny: 300000  # 预算（CNY）" in content and "# gpuwise-ask: advanced=no" in content
    # the prompts, the defaults list, the summary and the result are Chinese, amounts in yuan
    assert prompt("workload.task", "zh") in output.text and "GPU 预算是多少 CNY" in output.text
    assert "What do you want" not in output.text
    for chinese in ("你的回答", "预算（CNY）", "¥300,000", "不进行高级设置时", "报告已写入"):
        assert chinese in out, chinese
    assert ("推荐方案" in out and "总成本" in out) or "没有可行方案" in out
    for english in ("Your answers", "Recommendation", "Report written", "Working out"):
        assert english not in out, english
    report = (tmp_path / "answers-report.md").read_text(encoding="utf-8")
    assert "¥" in report and "$" not in report.split("\n", 5)[0]


def test_amount_in_the_other_currency_is_asked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefilled = tmp_path / "answers.yaml"
    prefilled.write_text("workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 100, output_tokens: 100,"
                         " concurrent_requests: 1, target_tokens_per_s: 0}\n", encoding="utf-8")
    # the file's concurrency is its load: no rate is asked on resume (settled_by)
    rc, path = drive(tmp_path, [text("$50k"), text("1500000 CNY"), CTRL_C], answers=prefilled, currency="CNY")
    out = capsys.readouterr().out
    assert rc == 130
    assert "amounts are asked in CNY here" in out
    assert saved(path)["constraints"] == {"budget_cny": 1500000, "currency": "CNY"}


def test_resume_keeps_the_file_currency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload: {task: finetune, model: llama-2-7b, train_tokens: 1.0e+8}\n"
                    "constraints: {deadline_days: 3, budget_usd: 200000, currency: CNY}\n", encoding="utf-8")
    output = RecordingOutput()
    rc, _ = drive(tmp_path, [CTRL_C], answers=path, output=output)  # no --currency: the file's
    assert rc == 130
    assert "Amounts are asked in CNY (¥)." in capsys.readouterr().out
    assert saved(path)["constraints"]["currency"] == "CNY"
    # resuming with another currency would change what the numbers mean: refused, exit 2
    rc, _ = drive(tmp_path, [], answers=path, currency="USD")
    err = capsys.readouterr().err
    assert rc == 2 and "constraints.currency" in err and "--currency CNY" in err
    assert len(err.strip().splitlines()) == 1


def test_a_budget_written_with_its_currency_is_resumed_in_it(tmp_path: Path) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload: {task: finetune, model: llama-2-7b}\nconstraints: {budget_usd: '¥1,500,000'}\n",
                    encoding="utf-8")
    rc, _ = drive(tmp_path, [CTRL_C], answers=path)
    assert rc == 130
    assert saved(path)["constraints"] == {"budget_cny": 1500000, "currency": "CNY"}


def test_saved_file_is_self_explaining_and_round_trips(tmp_path: Path) -> None:
    rc, path = drive(tmp_path, [*FINETUNE_KEYS, MENU_SAVE_QUIT])
    assert rc == 0
    content = path.read_text(encoding="utf-8")
    assert "train_tokens: 2.0e+09  # Training tokens" in content
    assert "budget_usd: null  # Budget (USD)" in content
    assert "currency: USD  # Currency of the amounts" in content
    assert "# gpuwise-ask: advanced=yes, environment=no" in content
    assert saved(path) == FINETUNE_FILE
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporary files behind
    assert not (tmp_path / "answers-report.md").exists()  # save-and-quit runs nothing


# ------------------------------------------------------------------------- corrections
def test_model_typo_gets_did_you_mean_and_is_asked_again(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    keys = [ENTER, ENTER, text("lama-3.1-8b"), text("llama-3.1-8b"), CTRL_C]
    rc, path = drive(tmp_path, keys)
    out = capsys.readouterr()
    assert rc == 130
    assert "did you mean llama-3.1-8b" in out.out
    assert saved(path) == {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b"},
                           "constraints": {"currency": "USD"}}
    # one line on Ctrl-C: where the answers are and how to resume; no traceback
    assert f"saved in {path}" in out.err and f"--answers {path}" in out.err
    assert "Traceback" not in out.err and len(out.err.strip().splitlines()) == 1


def test_bad_values_get_a_sentence_and_are_asked_again(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    keys = [
        ENTER,
        choose("workload.method", "qlora"),
        text("llama-2-7b"),
        text("lots"),                             # not a number
        text("-5"),                               # must be >= 1 (a token)
        text("1e8"),
        ENTER, ENTER, ENTER, ENTER,               # deadline, budget, either, hosting
        YES,                                      # advanced
        ENTER,                                    # months
        ENTER,                                    # a day sooner
        text("0"),                                # LoRA rank 0: the model says >= 1
        text("16"),
        ENTER,                                    # targets
        choose("workload.precision", "fp8"),      # qlora keeps an NF4 base: model validator
        choose("workload.precision", "fp16"),
        CTRL_C,
    ]
    rc, path = drive(tmp_path, keys)
    out = " ".join(capsys.readouterr().out.split())  # the console wraps long lines
    assert rc == 130
    assert "must be at least 1 (got 0)" in out
    assert "qlora keeps a 4-bit NF4 base" in out
    assert "'lots' is not a number" in out
    assert "must be at least 1 (got -5)" in out  # as typed (askreview55), not -5.0
    data = saved(path)
    assert data["workload"] == {"task": "finetune", "method": "qlora", "lora_rank": 16, "lora_targets": "all-linear",
                                "model": "llama-2-7b", "precision": "fp16", "train_tokens": 1e8}


def test_bad_version_string_is_a_sentence_not_a_pattern(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("# gpuwise-ask: advanced=yes\n"
                    "workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 100, output_tokens: 100,"
                    " requests_per_s: null, concurrent_requests: 1, target_tokens_per_s: 0, precision: bf16,"
                    " framework: vllm, quantization: null, kv_precision: auto, prefix_cache_hit_rate: 0,"
                    " speculative: null, disaggregated: false,"
                    " max_ttft_ms: null, max_tpot_ms: null, p95_ttft_s: null, p95_tpot_s: null}\n"
                    "constraints: {budget_usd: null, acquisition: rent, project_months: 1, max_gpus: 8, gpus: [],"
                    " market: null}\n"
                    "environment: {os: null, driver: null, cuda: null}\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [text("abc"), text("2.1"), CTRL_C], answers=path)
    out = capsys.readouterr().out
    assert rc == 130
    assert "a PyTorch version is major.minor.patch, as torch.__version__ prints it" in out and "(got 'abc')" in out
    assert "pattern" not in out and "\\d" not in out
    assert saved(path)["environment"]["pytorch"] == "2.1"
    rc, _ = drive(tmp_path, [CTRL_C], answers=path)  # zh: the question's own Chinese sentence
    path.write_text(path.read_text(encoding="utf-8").replace("pytorch: '2.1'", "pytorch: abc"), encoding="utf-8")
    capsys.readouterr()
    rc, _ = drive(tmp_path, [CTRL_C], answers=path, lang="zh")
    out = capsys.readouterr().out
    assert "PyTorch 版本格式为" in out and "pattern" not in out


def test_custom_size_instead_of_a_catalog_model(tmp_path: Path) -> None:
    rc, path = drive(tmp_path, [choose("workload.task", "inference"), text("13b"), CTRL_C])
    assert rc == 130
    assert saved(path)["workload"] == {"task": "inference", "params_b": 13.0}


def test_unknown_gpu_in_short_list_is_asked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefilled = {"workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16",
                              "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 1,
                              "target_tokens_per_s": 0, "framework": "vllm", "max_ttft_ms": None,
                              "max_tpot_ms": None, "p95_ttft_s": None, "p95_tpot_s": None, "quantization": None,
                              "kv_precision": "auto", "prefix_cache_hit_rate": 0, "speculative": None,
                              "disaggregated": False},
                 "constraints": {"acquisition": "rent", "budget_usd": None, "project_months": 1,
                                 "max_gpus": 8}}
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(prefilled), encoding="utf-8")
    rc, _ = drive(tmp_path, [text("A100"), text("rtx 4900"), text("4090, L4"), CTRL_C], answers=path)
    out = capsys.readouterr().out
    assert rc == 130
    assert "ambiguous" in out and "a100-80gb-sxm" in out
    assert "unknown gpu 'rtx 4900'" in out
    assert saved(path)["constraints"]["gpus"] == ["rtx-4090", "l4"]


def test_edit_from_summary_prunes_answers_that_no_longer_apply(tmp_path: Path) -> None:
    # finish the fine-tuning questions, then change the task to inference from the summary
    keys = [*FINETUNE_KEYS, MENU_EDIT, ENTER, choose("workload.task", "inference", start="finetune"),
            text("1500"), text("500"), ENTER, text("8"), *[ENTER] * 11, MENU_SAVE_QUIT]
    rc, path = drive(tmp_path, keys)
    assert rc == 0
    data = saved(path)
    assert data["workload"] == {"task": "inference", "model": "mistral-7b-v0.1", "precision": "bf16",
                                "requests_per_s": None, "concurrent_requests": 8, "target_tokens_per_s": 0,
                                "framework": "vllm",
                                "prompt_tokens": 1500, "output_tokens": 500, "kv_precision": "auto",
                                "prefix_cache_hit_rate": 0, "max_ttft_ms": None, "max_tpot_ms": None,
                                "speculative": None, "quantization": None, "disaggregated": False,
                                "p95_ttft_s": None, "p95_tpot_s": None}
    # electricity and where it runs still apply (buying); the deadline (training only) is gone
    assert data["constraints"] == {"gpus": [], "max_gpus": 8, "budget_usd": None, "acquisition": "buy",
                                   "project_months": 6, "electricity_usd_per_kwh": 0.3, "currency": "USD",
                                   "hosting": "office", "market": None}


def test_saying_no_to_advanced_settings_drops_them(tmp_path: Path) -> None:
    # the gate is the 11th answer in the summary's edit list (after the project length and a day's value)
    keys = [*FINETUNE_KEYS, MENU_EDIT, DOWN * 10 + ENTER, NO, MENU_SAVE_QUIT]
    rc, path = drive(tmp_path, keys)
    assert rc == 0
    data = saved(path)
    assert data["workload"] == {"task": "finetune", "method": "qlora", "model": "mistral-7b-v0.1",
                                "train_tokens": 2e9}
    assert "# gpuwise-ask: advanced=no" in path.read_text(encoding="utf-8")


def test_help_key_explains_terms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = [ENTER, "?", choose("workload.method", "lora"), text("?zero"), text("?"), CTRL_C]
    rc, _ = drive(tmp_path, keys)  # ? on a select; ?TERM and ? in a text answer
    out = capsys.readouterr().out
    assert rc == 130
    assert "LoRA (low-rank adaptation)" in out
    assert "ZeRO (DeepSpeed" in out
    assert "Type a model from the catalog" in out


def test_help_in_chinese_and_chinese_term_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = [ENTER, ENTER, text("？梯度检查点"), text("?kv cache"), text("?"), CTRL_C]
    rc, _ = drive(tmp_path, keys, lang="zh")
    out = capsys.readouterr().out.replace("\n", "")  # the console wraps at 80 columns, wherever the words fall
    assert rc == 130
    assert "gradient checkpointing" in out and "梯度（激活）检查点在前向传播时" in out
    assert "KV 缓存保存" in out and "输入目录中的模型" in out
    assert "Gradient (activation)" not in out and "Type a model" not in out


# ------------------------------------------------------------------------------- resume
def test_resume_skips_answered_questions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(
        "workload:\n  task: inference\n  model: llama3.1-8b\n  prompt_tokens: 8000\n"
        "  attention: flash\n"            # a key no question asks: kept as it is
        "constraints:\n  acquisition: rent\n",
        encoding="utf-8",
    )
    output = RecordingOutput()
    keys = [ENTER, ENTER, text("4"), ENTER, text("20k"), ENTER, NO, MENU_SAVE_QUIT]
    rc, _ = drive(tmp_path, keys, answers=path, output=output)
    assert rc == 0
    asked = output.text
    for done in ("workload.task", "workload.model", "workload.prompt_tokens", "constraints.acquisition"):
        assert prompt(done) not in asked, done
    for todo in ("workload.output_tokens", "workload.concurrent_requests", "constraints.budget_usd", "advanced"):
        assert prompt(todo) in asked, todo
    assert "Resuming from" in capsys.readouterr().out
    assert saved(path) == {
        "workload": {"task": "inference", "model": "llama-3.1-8b", "attention": "flash", "concurrent_requests": 4,
                     "requests_per_s": None, "target_tokens_per_s": 0, "prompt_tokens": 8000, "output_tokens": 500},
        "constraints": {"budget_usd": 20000, "acquisition": "rent", "project_months": 6, "currency": "USD"},
    }
    # and the advanced-settings answer is remembered: a second resume goes straight to the summary
    output = RecordingOutput()
    rc, _ = drive(tmp_path, [MENU_SAVE_QUIT], answers=path, output=output)
    assert rc == 0 and prompt("advanced") not in output.text


def test_complete_answers_file_goes_straight_to_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(INFERENCE_FILE), encoding="utf-8")
    output = RecordingOutput()
    rc, _ = drive(tmp_path, [MENU_SAVE_QUIT], answers=path, output=output)
    assert rc == 0
    assert prompt("workload.task") not in output.text
    assert saved(path) == INFERENCE_FILE  # advanced values in the file: the gate counts as yes


def test_missing_answers_file_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    rc, _ = drive(tmp_path, [ENTER, CTRL_C], answers=path)
    assert rc == 130
    assert saved(path) == {"workload": {"task": "finetune"}, "constraints": {"currency": "USD"}}


def test_bad_answers_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload:\n  task: inference\n  modle: llama-2-7b\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [], answers=path)
    err = capsys.readouterr().err
    assert rc == 2
    assert "modle" in err and "did you mean 'model'" in err and len(err.strip().splitlines()) == 1
    path.write_text("workloads: {}\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [], answers=path)
    assert rc == 2 and "did you mean 'workload'" in capsys.readouterr().err
    path.write_text("constraints: {currency: EUR}\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [], answers=path)
    assert rc == 2 and "constraints.currency" in capsys.readouterr().err


def test_invalid_value_in_answers_file_is_asked_again(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload:\n  task: inference\n  model: lama-2-7b\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [text("llama-2-7b"), CTRL_C], answers=path)
    assert rc == 130
    assert "did you mean llama-2-7b" in capsys.readouterr().out
    assert saved(path)["workload"] == {"task": "inference", "model": "llama-2-7b"}


def test_without_a_terminal_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc = run_ask(str(tmp_path / "a.yaml"), None)
    err = capsys.readouterr().err
    assert rc == 2
    assert "terminal" in err and "gpuwise recommend" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "a.yaml").exists()
    rc = run_ask(str(tmp_path / "a.yaml"), None, lang="zh")
    assert rc == 2 and "需要交互式终端" in capsys.readouterr().err


def test_resume_drops_answers_that_do_not_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload:\n  task: inference\n  method: lora\n  lora_rank: 8\n  model: llama-2-7b\n",
                    encoding="utf-8")
    rc, _ = drive(tmp_path, [CTRL_C], answers=path)
    assert rc == 130
    out = capsys.readouterr().out
    assert "workload.method: dropped" in out and "workload.lora_rank: dropped" in out
    assert saved(path)["workload"] == {"task": "inference", "model": "llama-2-7b"}


def test_interrupt_before_any_answer_saves_nothing(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rc, path = drive(tmp_path, [CTRL_C])
    assert rc == 130
    assert "nothing was saved" in capsys.readouterr().err
    assert not path.exists()


def test_answers_in_a_missing_directory_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _ = drive(tmp_path, [], answers=tmp_path / "no" / "such" / "answers.yaml")
    assert rc == 2
    assert "directory does not exist" in capsys.readouterr().err


# --------------------------------------------------------------------------- the pieces
def test_questions_file_is_complete_in_both_languages() -> None:
    keys = [q.key for q in QN.questions]
    assert keys[0] == "workload.task" and QN.languages == ("en", "zh")
    for q in QN.questions:
        for name in ("question", "help"):  # labels may be names (CUDA, PyTorch)
            texts = getattr(q, name)
            assert texts["en"] != texts["zh"], f"{q.key}.{name} is not translated"
            assert re.search("[\u4e00-\u9fff]", texts["zh"]), f"{q.key}.{name}: no Chinese"
        assert q.help["en"].count(". ") <= 2 and len(q.help["en"]) < 300, q.key  # one or two sentences
    for term in ("zero", "lora", "mfu", "gradient checkpointing", "kv cache"):
        assert term in QN.glossary and QN.glossary[term].text["en"] != QN.glossary[term].text["zh"]
    fields = {f"workload.{f}" for f in Requirements.model_fields["workload"].annotation.model_fields}
    assert {"workload.model", "workload.params_b", "workload.train_tokens"} <= fields
    assert {k for q in QN.questions for k in q.keys if k.startswith("workload.")} <= fields


def test_every_message_is_used_and_every_used_message_exists() -> None:
    used = set(re.findall(r"""(?:\.t|\bsay|_Invalid)\(\s*["']([a-z_]+)["']""", SOURCE))
    used |= set(re.findall(r"""["'](col_[a-z]+|menu_[a-z]+|acq_[a-z]+|err_[a-z_]+|hint_[a-z_]+)["']""", SOURCE))
    used = {u for u in used if not u.endswith("_")} | {f"sev_{s}" for s in ("blocker", "warning")}
    assert used - set(QN.messages) == set(), "message ids the code uses but questions.yaml lacks"
    assert set(QN.messages) - used == set(), "messages nothing uses"


@pytest.mark.parametrize(
    ("expr", "answers", "expected"),
    [
        ("workload.task in ['pretrain', 'finetune']", {"workload.task": "finetune"}, True),
        ("workload.task == 'inference' and not workload.x", {"workload.task": "inference"}, True),
        ("a.b != null or a.c >= 3", {"a.c": 2}, False),
        ("a.c < 3", {"a.c": None}, False),  # an unanswered value satisfies no ordering
        ("environment != null", {"environment": {}}, True),
        ("x not in [1, 2]", {"x": 3}, True),
    ],
)
def test_condition_evaluator(expr: str, answers: dict, expected: bool) -> None:
    assert Condition(expr).evaluate(answers.get) is expected


@pytest.mark.parametrize(
    "expr",
    ["__import__('os').system('true')", "a.b()", "a[0] == 1", "(lambda: 1)()", "a + 1 == 2", "{'a': 1}",
     "a.__class__ == 1 if a else 2", "[x for x in y]"],
)
def test_condition_evaluator_refuses_code(expr: str) -> None:
    with pytest.raises(QuestionsError):
        Condition(expr)


@pytest.mark.parametrize(
    ("raw", "integer", "currency", "value"),
    [("2e9", False, None, 2e9), ("2B", False, None, 2e9), ("$50k", False, None, 50_000.0),
     ("1,500", True, None, 1500), ("1_000", True, None, 1000), ("0.3", False, None, 0.3), ("4k", True, None, 4000),
     ("100M", False, None, 1e8), ("30万", False, "CNY", 300_000.0), ("1.5亿", False, "CNY", 1.5e8),
     ("¥1,500,000", False, "CNY", 1_500_000.0), ("1500000 CNY", False, "CNY", 1_500_000.0),
     ("30万元", False, "CNY", 300_000.0), ("US$2,000", False, "USD", 2000.0), ("50k USD", False, "USD", 50_000.0)],
)
def test_parse_number(raw: str, integer: bool, currency: str | None, value: float) -> None:
    got = parse_number(raw, integer=integer, currency=currency)
    assert got == value and isinstance(got, int) == integer


@pytest.mark.parametrize(("raw", "currency"), [("$50k", "CNY"), ("¥300000", "USD"), ("20000 RMB", "USD")])
def test_parse_number_refuses_the_other_currency(raw: str, currency: str) -> None:
    with pytest.raises(_Invalid) as exc:
        parse_number(raw, currency=currency)
    assert exc.value.msg == "wrong_currency" and exc.value.params["cur"] == currency


def test_render_answers_reads_back_identically() -> None:
    data = {"environment": {"driver": "535.104.05", "cuda": "12.1", "pytorch": "2.1.0+cu121", "os": "a # b"},
            "workload": {"train_tokens": 1.5e12, "task": "pretrain", "params_b": 7.0},
            "constraints": {"budget_usd": 1_500_000.0, "currency": "CNY"}}
    text = render_answers(data, QN, currency="CNY", state="advanced=no")
    # a yuan amount is saved in the field named for its currency; read back, it is the same requirement
    assert yaml.safe_load(text) == {**data, "constraints": {"budget_cny": 1_500_000.0, "currency": "CNY"}}
    assert text.index("workload:") < text.index("constraints:") < text.index("environment:")
    assert "budget_cny: 1500000  # Budget (CNY)" in text  # an amount as typed, not 1.5e+06
    assert "budget_usd" not in text
    assert Constraints.model_validate(yaml.safe_load(text)["constraints"]).budget_usd == 1_500_000


def test_model_completion_shows_names_once_without_markup() -> None:
    completer = _model_completer([(m.id, m.name, f"{m.params_b:.1f}", tuple(m.aliases))
                                  for m in KB.models.values()])

    def complete(typed: str) -> list[Any]:
        return list(completer.get_completions(Document(typed), None))

    got = complete("qwen2.5")
    ids = [c.text for c in got]
    assert ids == [m for m in KB.models if m.startswith("qwen2.5")]  # one line per model, no aliases
    for c in got:
        shown = "".join(t for _, t in c.display) + "".join(t for _, t in c.display_meta)
        assert "HTML" not in shown and "<" not in shown
    assert "".join(t for _, t in got[0].display_meta) == "Qwen2.5 0.5B, 0.5B"
    # matched by an alias: the model's id is offered, with that one alias beside it
    (c,) = complete("meta-llama/llama-2-7b-chat")
    assert c.text == "llama-2-7b" and c.display_meta_text.endswith("; meta-llama/llama-2-7b-chat-hf")
    assert complete("Llama 3.1 70")[0].text == "llama-3.1-70b"  # separators and case ignored


def test_a_pasted_page_is_completed_as_fast_as_a_name() -> None:
    """A line longer, folded, than every catalog name matches nothing, and the completer looks no
    further than its start: the names were folded again at every key, so 10,000 characters typed
    took 23 s (benchmarks/hostile_round20.py). A long run of separators before a name still
    completes it (folding drops them), and the matches are the same as before for every prefix."""
    import time

    completer = _model_completer([(m.id, m.name, f"{m.params_b:.1f}", tuple(m.aliases))
                                  for m in KB.models.values()])

    def complete(typed: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(typed), None)]

    start = time.process_time()
    for n in range(1, 3001):
        assert complete("m" * n) == [] or n < 3
    assert time.process_time() - start < 0.5  # each key folded every name of the catalog: ~2 CPU-s
    assert complete("-" * 500 + "llama-3.1-70b") == ["llama-3.1-70b"]
    names = sorted({c for m in KB.models.values() for c in (m.id, m.name, *m.aliases)}, key=len)
    assert complete(names[-1] + "x") == []


TASK_Q = ("- {key: workload.task, type: select, label: T, question: T, help: H., choices: [{value: x}]}\n")
SEQ = "- {key: workload.seq_len, type: int, label: S, question: S, help: H."


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (SEQ + ", colour: red}\n", "unknown field 'colour'"),
        (SEQ.replace("seq_len", "seqlen") + "}\n", "not a requirements-file key"),
        (SEQ + ", when: 'workload.batch_size > 1'}\n"
         "- {key: workload.batch_size, type: int, label: B, question: B, help: H.}\n", "asked later"),
        (SEQ + ", terms: [flops]}\n", "not in the glossary"),
        (SEQ + ", when: 'open(1)'}\n", "not allowed"),
        ("- {key: workload.method, type: select, label: M, question: M, help: H., default: half,"
         " choices: [{value: full}]}\n", "not one of the choices"),
        (SEQ.replace("label: S", "label: {en: S}") + "}\n", "no 'zh' text"),
        (SEQ.replace("label: S", "label: {en: 'S {cur}', zh: S}") + "}\n", "placeholders"),
        (SEQ.replace("label: S", "label: '{colour}'") + "}\n", "unknown placeholder 'colour'"),
        (SEQ + ", advanced: true}\n", "need the 'advanced' question"),
        (SEQ + ", defaults: [{when: 'workload.task == 1', compute: magic}]}\n", "compute 'magic'"),
        ("- {key: advanced, type: bool, label: A, question: A, help: H.}\n", "only for it"),
    ],
)
def test_malformed_questions_file_is_refused(tmp_path: Path, extra: str, message: str) -> None:
    path = tmp_path / "questions.yaml"
    path.write_text("schema_version: 2\nlanguages: [en, zh]\nquestions:\n" + TASK_Q + extra, encoding="utf-8")
    with pytest.raises(QuestionsError, match=re.escape(message)):
        load_questions(path)
    path.write_text("schema_version: 1\nquestions:\n" + TASK_Q, encoding="utf-8")
    with pytest.raises(QuestionsError, match="schema_version"):
        load_questions(path)


def test_importing_the_module_is_cheap() -> None:
    import subprocess
    import sys

    code = ("import sys, gpuwise.ask.questionnaire; "
            "print(sorted(m for m in ('pydantic', 'questionary', 'prompt_toolkit', 'rich', 'yaml') "
            "if m in sys.modules))")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "[]"
