"""review59: the questionnaire and the listings used as a new user would (tests/data/validation/README.md,
branch review59). Each test failed on the base (3fc43a5a)."""

from __future__ import annotations

from pathlib import Path

from tests.clirun import gpuwise


def test_ask_refuses_a_report_suffix_without_naming_an_option_it_lacks(tmp_path: Path) -> None:
    # `gpuwise ask -o report.pdf` said '(name the file .md, .html, .json or .txt, or give --format)': ask has
    # no --format (`gpuwise ask --format md` is 'unrecognized arguments'), so the hint sent the user nowhere
    for lang, suffix_word in (("en", "name the file .md, .html, .json or .txt"), ("zh", "请把文件命名为")):
        r = gpuwise("ask", "--answers", "a.yaml", "-o", "report.pdf", "--lang", lang, cwd=tmp_path)
        assert r.returncode == 2
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert suffix_word in r.stderr and "--format" not in r.stderr, r.stderr
        assert not (tmp_path / "a.yaml").exists()
    assert "--format" in gpuwise("ask", "--format", "md", cwd=tmp_path).stderr  # the option really is refused
    # recommend has --format: its hint still names it
    r = gpuwise("recommend", str(Path(__file__).parents[1] / "examples" / "lora-70b.yaml"), "-o", "r.pdf",
                cwd=tmp_path)
    assert r.returncode == 2 and "or give --format" in r.stderr


def _resume(tmp_path: Path, text: str, keys: list[str]) -> tuple[int, dict, str]:
    """``gpuwise ask --answers a.yaml`` on a file holding ``text``, driven by ``keys`` (prompt_toolkit's pipe, as
    tests/test_ask_go_back.py drives it): the exit status, the file as left, the file's text."""
    import yaml
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.questionnaire import run_ask

    path = tmp_path / "a.yaml"
    path.write_text(text, encoding="utf-8")
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        rc = run_ask(str(path), None, lang="en", currency=None, input=pipe, output=DummyOutput())
    saved = path.read_text(encoding="utf-8")
    return rc, yaml.safe_load(saved), saved


_HAND_WRITTEN = ("workload:\n  task: finetune\n  method: lora\n  model: nonesuch-9000\n  train_tokens: 2e8\n"
                 "constraints:\n  deadline_days: two weeks\n")


def test_ctrl_c_on_resume_keeps_the_values_to_be_asked_again(tmp_path: Path) -> None:
    # a hand-written file with a model the catalog lacks and a deadline in words: resumed, both were said to be
    # 'asking again' and dropped from the file at once, so a Ctrl-C before their questions came (here at the
    # first one) left the file without the two lines the user wrote
    rc, data, _ = _resume(tmp_path, _HAND_WRITTEN, ["\x03"])
    assert rc == 130
    assert data["workload"]["model"] == "nonesuch-9000"
    assert data["constraints"]["deadline_days"] == "two weeks"
    assert data["workload"]["train_tokens"] == 2e8


def test_an_answer_given_again_replaces_the_refused_value(tmp_path: Path) -> None:
    # the model asked again and answered; Ctrl-C at the deadline: the model is the answer, the deadline as written
    rc, data, _ = _resume(tmp_path, _HAND_WRITTEN, ["\x15llama-3.1-8b\r", "\x03"])
    assert rc == 130
    assert data["workload"]["model"] == "llama-3.1-8b"
    assert data["constraints"]["deadline_days"] == "two weeks"
    # then answered too: nothing refused is left in the file
    rc, data, _ = _resume(tmp_path, _HAND_WRITTEN, ["\x15llama-3.1-8b\r", "\x1514\r", "\x03"])
    assert rc == 130
    assert data["workload"]["model"] == "llama-3.1-8b" and data["constraints"]["deadline_days"] == 14


def test_a_narrow_listing_keeps_each_label_with_its_figure() -> None:
    # `gpuwise gpus` and `gpuwise prices` in a 60-column terminal stack each row as 'label: value' pairs; the pairs
    # were wrapped word by word, so a label ended one line and its figure began the next ('TDP:' / '300',
    # 'price:' / '-', 'provider' / '/ item: ...', 'chk:' / 'U')
    import re

    gpus = gpuwise("gpus", env={"COLUMNS": "60"}).stdout
    cards = int(re.match(r"GPU catalog \((\d+) cards", gpus).group(1))
    assert cards > 50
    lines = gpus.splitlines()
    assert all(len(x) <= 60 for x in lines)
    assert not [x for x in lines if x.rstrip().endswith(":")]
    for label in ("TDP: ", "price: ", "BW: ", "link GB/s: "):
        assert len(re.findall(rf"{re.escape(label)}\S", gpus)) == cards, label
    prices = gpuwise("prices", env={"COLUMNS": "60"}).stdout
    entries = len(re.findall(r"^\d{4}-\d\d-\d\d$", prices, re.M))
    assert entries > 50
    for label in ("provider / item: ", "chk: ", "amount: ", "age (d): "):
        assert len(re.findall(rf"{re.escape(label)}\S", prices)) == entries, label
    zh = gpuwise("gpus", "--lang", "zh", env={"COLUMNS": "60"}).stdout
    assert len(re.findall(r"TDP：\d", zh)) == cards and len(re.findall(r"价格：\S", zh)) == cards


def test_the_language_before_the_command_is_the_commands() -> None:
    # `gpuwise --lang zh gpus` (the usage line reads 'gpuwise [-h] [--version] [--lang {en,zh}] COMMAND') wrote the
    # listing and the one-line errors in English, saying nothing: the first --lang was only --help's
    assert gpuwise("--lang", "zh", "gpus").stdout.startswith("GPU 目录")
    assert "未知规则" in gpuwise("--lang", "zh", "explain", "NOPE").stderr
    assert "未知 GPU" in gpuwise("--lang", "zh", "prices", "--gpu", "h1OO").stderr
    # the command's own --lang still wins; without either, English
    assert "unknown rule 'NOPE'" in gpuwise("--lang", "zh", "explain", "NOPE", "--lang", "en").stderr
    assert gpuwise("gpus").stdout.startswith("GPU catalog")


def test_chinese_compound_multipliers(tmp_path: Path) -> None:
    # a Chinese user sizing a pretraining run says its corpus in 万亿 (1e12: Llama 3's '15万亿' tokens) and a budget
    # in 千万 (1e7); both were "'3万亿' 不是数字（例如 ... 5万）" at the questionnaire. Each character multiplies:
    # 3 x 10^4 x 10^8 = 3e12 tokens, 3 x 10^3 x 10^4 = 3e7 yuan
    import yaml
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.answers import parse_number
    from gpuwise.ask.questionnaire import run_ask

    assert parse_number("1.5万亿") == 1.5e12 and parse_number("5百万") == 5e6 and parse_number("2千亿") == 2e11
    assert parse_number("30万") == 3e5 and parse_number("3亿") == 3e8 and parse_number("2千") == 2e3
    path = tmp_path / "a.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("".join(["\x1b[B\r", "\x15llama-3.1-8b\r", "\x153万亿\r", "\r", "\x153千万\r", "\x03"]))
        pipe.close()
        rc = run_ask(str(path), None, lang="zh", currency="CNY", input=pipe, output=DummyOutput())
    assert rc == 130
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["workload"]["task"] == "pretrain" and data["workload"]["train_tokens"] == 3e12
    assert data["constraints"]["budget_cny"] == 3e7


def test_the_command_shown_to_run_the_answers_again_gives_the_sessions_report(
        tmp_path: Path, capsys) -> None:
    # a zh session ended 'Answers saved to FILE (replay with `gpuwise recommend FILE`)': that command wrote the
    # report in English (the file keeps the currency, not the language), and a session with --knowledge DIR was
    # replayed without its overlay; the resume line after Ctrl-C likewise restarted the questions in English
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.questionnaire import run_ask

    path, report = tmp_path / "a.yaml", tmp_path / "r.md"
    with create_pipe_input() as pipe:  # fine-tuning with every default (tests/test_ask_pty.py DEFAULT_FLOW), Run
        pipe.send_text("\r" * 9 + "\r")
        pipe.close()
        rc = run_ask(str(path), str(report), lang="zh", currency=None, input=pipe, output=DummyOutput())
    assert rc == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"`gpuwise recommend {path} --lang zh`" in said, said
    again = gpuwise("recommend", str(path), "--lang", "zh", "-o", str(tmp_path / "again.md"), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "again.md").read_text(encoding="utf-8") == report.read_text(encoding="utf-8")
    assert report.read_text(encoding="utf-8").startswith("# GPU 选型建议")
    # Ctrl-C with an overlay: the resume line names the language and the overlay
    overlay = tmp_path / "kb"
    overlay.mkdir()
    with create_pipe_input() as pipe:
        pipe.send_text("\r\x03")
        pipe.close()
        rc = run_ask(str(tmp_path / "b.yaml"), None, lang="zh", currency=None, knowledge=str(overlay), input=pipe,
                     output=DummyOutput())
    assert rc == 130
    captured = capsys.readouterr()
    said = " ".join((captured.out + captured.err).split())
    assert f"`gpuwise ask --answers {tmp_path / 'b.yaml'} --lang zh --knowledge {overlay}`" in said, said


def test_a_zh_answers_files_header_names_the_language() -> None:
    # the header of a file a zh session wrote said '用 `gpuwise recommend FILE` 运行', an English report
    from gpuwise.ask.answers import render_answers
    from gpuwise.ask.questionnaire import load_questions

    text = render_answers({"workload": {"task": "finetune"}}, load_questions(), lang="zh", currency="CNY")
    assert "`gpuwise recommend FILE --lang zh`" in text and "`gpuwise ask --answers FILE --lang zh`" in text


def test_the_zh_summary_brackets_the_model_in_full_width(tmp_path: Path, capsys) -> None:
    # the zh summary's model read 'llama-3.1-8b (Llama 3.1 8B，8.0B)': a half-width bracket around a full-width comma
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.questionnaire import run_ask

    with create_pipe_input() as pipe:  # every default, then 'Save and quit' at the summary
        pipe.send_text("\r" * 9 + "\x1b[B\x1b[B\r")
        pipe.close()
        rc = run_ask(str(tmp_path / "a.yaml"), None, lang="zh", currency=None, input=pipe, output=DummyOutput())
    assert rc == 0
    shown = capsys.readouterr().out
    assert "llama-3.1-8b（Llama 3.1" in shown and "llama-3.1-8b (" not in shown  # the table may wrap after it


def test_no_question_says_what_enter_gives_before_its_hint_does() -> None:
    # 'Only consider these GPUs (comma-separated, e.g. H100-80G, RTX 4090; Enter = all)?  (Enter = all, ? explains)':
    # the hint after every text question states Enter's answer, so a question saying it too read it twice
    from gpuwise.ask.questionnaire import load_questions

    qn = load_questions()
    hint = {"en": "Enter =", "zh": "回车 ="}
    for q in qn.questions:
        texts = [q.question, *(said["question"] for _, said in q.variants if "question" in said)]
        for text in texts:
            for lang, words in hint.items():
                assert words not in text[lang], (q.key, text[lang])
    assert qn.by_key("constraints.gpus").question["en"].endswith("RTX 4090)?")


def test_a_refused_value_on_resume_is_quoted_once(tmp_path: Path, capsys) -> None:
    # "workload.p95_ttft_s: '500ms': p95_ttft_s is a number of seconds: write 0.5 (got '500ms') - asking again"
    rc, data, _ = _resume(tmp_path, "workload:\n  task: inference\n  model: llama-3.1-8b\n  p95_ttft_s: 500ms\n",
                          ["\x03"])
    assert rc == 130 and data["workload"]["p95_ttft_s"] == "500ms"  # kept in the file until answered (above)
    note = next(line for line in capsys.readouterr().out.splitlines() if "asking again" in line)
    assert note.count("500ms") == 1 and "write 0.5" in note, note
    # a number the message does not quote still gets its '(got ...)'
    capsys.readouterr()
    rc, data, _ = _resume(tmp_path, "workload:\n  task: finetune\n  model: llama-3.1-8b\n  train_tokens: -3\n",
                          ["\x03"])
    note = next(line for line in capsys.readouterr().out.splitlines() if "asking again" in line)
    assert "(got -3)" in note, note


def test_the_plan_questions_show_the_plan_command_with_the_sessions_language(tmp_path: Path, capsys) -> None:
    # the plan questions' 'Plan file written to FILE (run it again with `gpuwise plan FILE`)' gave an English plan
    # of a zh session, as the questionnaire's replay line did (defect 6); the keys of tests/test_plan_ask.py's
    # test_cny_plan_in_chinese, ending with 'write the plan file and quit'
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.questionnaire import load_questions, run_ask

    qn = load_questions()
    tasks = [c.value for c in qn.by_key("workload.task").choices]
    plan = "\x1b[B" * (tasks.index("plan") - tasks.index(qn.by_key("workload.task").default)) + "\r"
    keys = [plan, "12\r", "n\r", "\r", "qwen2.5-7b\r", "\r", "\r", "\r", "1\r", "\r", "\r", "\r", "\r", "0\r", "\r",
            "\r", "n\r", "30万\r", "\r", "\r", "\r", "\r", "\x1b[B\r"]
    answers = tmp_path / "cn.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text("".join(keys))
        pipe.close()
        rc = run_ask(str(answers), None, lang="zh", currency="CNY", input=pipe, output=DummyOutput())
    out = " ".join(capsys.readouterr().out.split())
    assert rc == 0, out
    assert f"`gpuwise plan {answers} --lang zh`" in out, out
