"""The `gpuwise ask` questionnaire, driven through prompt_toolkit's pipe input.

Keystrokes go in exactly as a user would type them (arrow keys as escape sequences, Enter
as ``\\r``); the engine, the knowledge base and the pydantic models are the real ones.  The
pipe is closed after the keystrokes, so a flow that wants more input than the test gives
ends with EOF (exit status 130) instead of hanging.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from engine.ask.questionnaire import (
    Condition,
    QuestionsError,
    load_questions,
    parse_number,
    render_answers,
    run_ask,
)
from engine.inputs.schema import Requirements

QN = load_questions()
UP, DOWN, ENTER, CTRL_C = "\x1b[A", "\x1b[B", "\r", "\x03"


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


MENU_RUN = ENTER
MENU_EDIT = DOWN + ENTER
MENU_SAVE_QUIT = DOWN * 2 + ENTER


def drive(tmp_path: Path, keys: list[str], *, answers: Path | None = None, report: Path | None = None,
          output: DummyOutput | None = None) -> tuple[int, Path]:
    path = answers or tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        rc = run_ask(str(path), str(report) if report else None, input=pipe, output=output or DummyOutput())
    return rc, path


def saved(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # what `ask` writes is a requirements file as `recommend` reads it (placeholders never leak)
    if "model" in data.get("workload", {}) or "params_b" in data.get("workload", {}):
        Requirements.model_validate(data)
    return data


# --------------------------------------------------------------------------------- full runs
INFERENCE_KEYS = [
    choose("workload.task", "inference"),
    text("llama-3.1-70b"),                       # model
    choose("workload.precision", "fp8"),
    text("8192"),                                # context length
    text("16"),                                  # concurrent requests
    text("500"),                                 # target tokens/s
    choose("constraints.acquisition", "rent"),
    text("$50k"),                                # budget
    text("3"),                                   # months (electricity is not asked when renting)
    ENTER,                                       # max GPUs: default 64
    text("H100-80G, a100 80gb"),                 # short list, resolved to catalog ids
    "y",                                         # describe the software environment
    text("ubuntu-22.04"),
    text("535.104.05"),
    text("12.1"),
    text("2.1.0"),
]
INFERENCE_FILE = {
    "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "context_len": 8192,
                 "concurrent_requests": 16, "target_tokens_per_s": 500},
    "constraints": {"gpus": ["h100-80gb-sxm", "a100-80gb-sxm"], "max_gpus": 64, "budget_usd": 50000,
                    "acquisition": "rent", "project_months": 3},
    "environment": {"os": "ubuntu-22.04", "driver": "535.104.05", "cuda": "12.1", "pytorch": "2.1.0"},
}


def test_full_inference_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, path = drive(tmp_path, [*INFERENCE_KEYS, MENU_RUN])
    out = capsys.readouterr()
    assert rc == 0, out.err
    data = saved(path)
    assert data == INFERENCE_FILE
    # the file's layout is the contract's: sections in order, keys in the model's order, strings kept strings
    assert list(data) == ["workload", "constraints", "environment"]
    assert isinstance(data["environment"]["cuda"], str)
    report = tmp_path / "answers-report.md"
    assert report.is_file() and report.stat().st_size > 0
    assert "Recommendation" in out.out or "No feasible option" in out.out
    assert str(path) in out.out and str(report) in out.out


FINETUNE_KEYS = [
    ENTER,                                       # task: finetune is the default
    choose("workload.method", "qlora"),
    text("64"),                                  # LoRA rank
    text("mistral-7b"),                          # an alias: saved as the catalog id
    ENTER,                                       # precision: bf16
    ENTER,                                       # mixed precision: yes
    text("2B"),                                  # training tokens
    text("4"),                                   # micro-batch
    text("4096"),                                # sequence length
    choose("workload.optimizer", "adamw-8bit"),
    choose("workload.gradient_checkpointing", True),
    ENTER,                                       # ZeRO: auto
    choose("constraints.acquisition", "buy"),
    ENTER,                                       # budget: none
    text("7"),                                   # deadline
    ENTER,                                       # months: 6
    text("0.30"),                                # electricity
    text("8"),                                   # max GPUs
    ENTER,                                       # short list: all
    ENTER,                                       # environment: no
]
FINETUNE_FILE = {
    "workload": {"task": "finetune", "method": "qlora", "lora_rank": 64, "model": "mistral-7b-v0.1",
                 "precision": "bf16", "mixed_precision": True, "optimizer": "adamw-8bit", "batch_size": 4,
                 "seq_len": 4096, "gradient_checkpointing": True, "zero_stage": "auto", "train_tokens": 2e9},
    "constraints": {"gpus": [], "max_gpus": 8, "deadline_days": 7, "budget_usd": None, "acquisition": "buy",
                    "project_months": 6, "electricity_usd_per_kwh": 0.3},
}


def test_full_finetune_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out" / "report.md"
    report.parent.mkdir()
    rc, path = drive(tmp_path, [*FINETUNE_KEYS, MENU_RUN], report=report)
    out = capsys.readouterr()
    assert rc in (0, 1), out.err  # 1 = nothing feasible, as `recommend`; the report says why
    assert saved(path) == FINETUNE_FILE
    assert "environment" not in saved(path)
    assert report.is_file() and report.stat().st_size > 0


def test_saved_file_is_self_explaining_and_round_trips(tmp_path: Path) -> None:
    rc, path = drive(tmp_path, [*FINETUNE_KEYS, MENU_SAVE_QUIT])
    assert rc == 0
    content = path.read_text(encoding="utf-8")
    assert "train_tokens: 2.0e+09  # Training tokens" in content
    assert "budget_usd: null  # Budget (USD)" in content
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
    assert saved(path) == {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b"}}
    # one line on Ctrl-C: where the answers are and how to resume; no traceback
    assert f"saved in {path}" in out.err and f"--answers {path}" in out.err
    assert "Traceback" not in out.err and len(out.err.strip().splitlines()) == 1


def test_bad_values_show_pydantic_message_and_are_asked_again(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    keys = [
        ENTER,
        choose("workload.method", "qlora"),
        text("0"),                                # LoRA rank 0: the model says >= 1
        text("16"),
        text("llama-2-7b"),
        choose("workload.precision", "fp8"),      # qlora keeps an NF4 base: model validator
        choose("workload.precision", "fp16"),
        ENTER,                                    # mixed precision
        text("lots"),                             # not a number
        text("-5"),                               # must be > 0
        text("1e8"),
        CTRL_C,
    ]
    rc, path = drive(tmp_path, keys)
    out = capsys.readouterr().out
    assert rc == 130
    assert "greater than or equal to 1 (got 0)" in out
    assert "qlora keeps a 4-bit NF4 base" in out
    assert "'lots' is not a number" in out
    assert "greater than 0 (got -5.0)" in out
    assert saved(path) == {"workload": {"task": "finetune", "method": "qlora", "lora_rank": 16,
                                        "model": "llama-2-7b", "precision": "fp16", "mixed_precision": True,
                                        "train_tokens": 1e8}}


def test_custom_size_instead_of_a_catalog_model(tmp_path: Path) -> None:
    rc, path = drive(tmp_path, [choose("workload.task", "inference"), text("13b"), CTRL_C])
    assert rc == 130
    assert saved(path) == {"workload": {"task": "inference", "params_b": 13.0}}


def test_unknown_gpu_in_short_list_is_asked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prefilled = {"workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16",
                              "context_len": 4096, "concurrent_requests": 1, "target_tokens_per_s": 0},
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
            text("2048"), text("8"), ENTER, MENU_SAVE_QUIT]
    rc, path = drive(tmp_path, keys)
    assert rc == 0
    data = saved(path)
    assert data["workload"] == {"task": "inference", "model": "mistral-7b-v0.1", "precision": "bf16",
                                "context_len": 2048, "concurrent_requests": 8, "target_tokens_per_s": 0}
    # electricity still applies (buying); the deadline (training only) is gone
    assert data["constraints"] == {"gpus": [], "max_gpus": 8, "budget_usd": None, "acquisition": "buy",
                                   "project_months": 6, "electricity_usd_per_kwh": 0.3}


def test_help_key_explains_terms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = [ENTER, "?", ENTER, text("?zero"), text("?"), CTRL_C]  # ? on a select; ?TERM and ? in text
    rc, _ = drive(tmp_path, keys)
    out = capsys.readouterr().out
    assert rc == 130
    assert "LoRA (low-rank adaptation)" in out
    assert "ZeRO (DeepSpeed" in out
    assert "Type a model from the catalog" in out


# ------------------------------------------------------------------------------- resume
def test_resume_skips_answered_questions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(
        "workload:\n  task: inference\n  model: llama3.1-8b\n  precision: int8\n  context_len: 8192\n"
        "  attention: flash\n"            # a key no question asks: kept as it is
        "constraints:\n  acquisition: rent\n",
        encoding="utf-8",
    )
    output = RecordingOutput()
    keys = [text("4"), ENTER, text("20k"), ENTER, ENTER, ENTER, ENTER, MENU_SAVE_QUIT]
    rc, _ = drive(tmp_path, keys, answers=path, output=output)
    assert rc == 0
    asked = output.text
    for done in ("workload.task", "workload.model", "workload.precision", "workload.context_len",
                 "constraints.acquisition"):
        assert QN.by_key(done).question[:40] not in asked, done
    for todo in ("workload.concurrent_requests", "constraints.budget_usd", "constraints.gpus"):
        assert QN.by_key(todo).question[:40] in asked, todo
    assert "Resuming from" in capsys.readouterr().out
    assert saved(path) == {
        "workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "int8", "attention": "flash",
                     "context_len": 8192, "concurrent_requests": 4, "target_tokens_per_s": 0},
        "constraints": {"gpus": [], "max_gpus": 64, "budget_usd": 20000, "acquisition": "rent",
                        "project_months": 6},
    }


def test_complete_answers_file_goes_straight_to_the_summary(tmp_path: Path) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text(yaml.safe_dump(INFERENCE_FILE), encoding="utf-8")
    output = RecordingOutput()
    rc, _ = drive(tmp_path, [MENU_SAVE_QUIT], answers=path, output=output)
    assert rc == 0
    assert QN.by_key("workload.task").question[:40] not in output.text
    assert saved(path) == INFERENCE_FILE


def test_missing_answers_file_starts_fresh(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    rc, _ = drive(tmp_path, [ENTER, CTRL_C], answers=path)
    assert rc == 130
    assert saved(path) == {"workload": {"task": "finetune"}}


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


def test_invalid_value_in_answers_file_is_asked_again(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload:\n  task: inference\n  model: lama-2-7b\n", encoding="utf-8")
    rc, _ = drive(tmp_path, [text("llama-2-7b"), CTRL_C], answers=path)
    assert rc == 130
    assert "did you mean llama-2-7b" in capsys.readouterr().out
    assert saved(path) == {"workload": {"task": "inference", "model": "llama-2-7b"}}


def test_without_a_terminal_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    rc = run_ask(str(tmp_path / "a.yaml"), None)
    err = capsys.readouterr().err
    assert rc == 2
    assert "terminal" in err and "gpuwise recommend" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "a.yaml").exists()


# --------------------------------------------------------------------------- the pieces
def test_questions_file_is_complete() -> None:
    keys = [q.key for q in QN.questions]
    assert keys[0] == "workload.task"
    for q in QN.questions:
        assert q.help.count(". ") <= 2 and len(q.help) < 300, q.key  # one or two sentences
    for term in ("zero", "lora", "mfu", "gradient checkpointing", "kv cache"):
        assert term in QN.glossary
    fields = {f"workload.{f}" for f in Requirements.model_fields["workload"].annotation.model_fields}
    assert {"workload.model", "workload.params_b", "workload.train_tokens"} <= fields
    assert {k for q in QN.questions for k in q.keys if k.startswith("workload.")} <= fields


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
    ("raw", "integer", "value"),
    [("2e9", False, 2e9), ("2B", False, 2e9), ("$50k", False, 50_000.0), ("1,500", True, 1500),
     ("1_000", True, 1000), ("0.3", False, 0.3), ("4k", True, 4000)],
)
def test_parse_number(raw: str, integer: bool, value: float) -> None:
    got = parse_number(raw, integer=integer)
    assert got == value and isinstance(got, int) == integer


def test_render_answers_reads_back_identically() -> None:
    data = {"environment": {"driver": "535.104.05", "cuda": "12.1", "pytorch": "2.1.0+cu121", "os": "a # b"},
            "workload": {"train_tokens": 1.5e12, "task": "pretrain", "params_b": 7.0}}
    text = render_answers(data, QN)
    assert yaml.safe_load(text) == data
    assert text.index("workload:") < text.index("environment:")


def test_resume_drops_answers_that_do_not_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "answers.yaml"
    path.write_text("workload:\n  task: inference\n  method: lora\n  lora_rank: 8\n  model: llama-2-7b\n",
                    encoding="utf-8")
    rc, _ = drive(tmp_path, [CTRL_C], answers=path)
    assert rc == 130
    out = capsys.readouterr().out
    assert "workload.method: dropped" in out and "workload.lora_rank: dropped" in out
    assert saved(path) == {"workload": {"task": "inference", "model": "llama-2-7b"}}


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


TASK_Q = "- {key: workload.task, type: select, label: T, question: T, help: H., choices: [{value: x}]}\n"
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
    ],
)
def test_malformed_questions_file_is_refused(tmp_path: Path, extra: str, message: str) -> None:
    path = tmp_path / "questions.yaml"
    path.write_text("schema_version: 1\nquestions:\n" + TASK_Q + extra, encoding="utf-8")
    with pytest.raises(QuestionsError, match=message):
        load_questions(path)
    path.write_text("schema_version: 2\nquestions:\n" + TASK_Q, encoding="utf-8")
    with pytest.raises(QuestionsError, match="schema_version"):
        load_questions(path)


def test_importing_the_module_is_cheap() -> None:
    import subprocess
    import sys

    code = ("import sys, engine.ask.questionnaire; "
            "print(sorted(m for m in ('pydantic', 'questionary', 'prompt_toolkit', 'rich', 'yaml') "
            "if m in sys.modules))")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert out.stdout.strip() == "[]"
