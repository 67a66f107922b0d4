"""A held-out corpus of odd inputs and odd output paths (issue 16), written apart from
tests/test_hostile_inputs.py: each case is a small edit of a shipped example, run through the
command as a user would, and held to CONTRACT.md -- exit status 2 with exactly one line on stderr
naming the file (and the field), no traceback, no output or temporary file left behind; or, for a
valid odd value, the real answer (exit 0 or 1 as the case says) with JSON that parses strictly.

In-process through ``gpuwise.cli.main`` where that is faithful; the real ``python -m gpuwise`` in a
subprocess for signals, devices and the exit status of the whole process.
"""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gpuwise.cli import main
from tests.clirun import gpuwise

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: audits of one question share the search

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
GOOD = (EX / "proposal-good-lora-8xh100.yaml").read_text()  # approved as written (exit 0)
REJECTED = (EX / "proposal-16x4090-70b-full.yaml").read_text()  # rejected (exit 1)
REQ = (EX / "lora-70b.yaml").read_text()  # feasible (exit 0)


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"{old!r} must occur once in the example"
    return text.replace(old, new)


def cli(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def one_line(code: int, out: str, err: str, *names: str) -> str:
    """Exit 2, nothing on stdout, one line on stderr that names every one of ``names``."""
    assert code == 2, (code, err)
    assert out == "" and "Traceback" not in err and "internal error" not in err, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuwise: "), err
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def no_leftovers(folder: Path, *keep: str) -> None:
    """Nothing in ``folder`` but ``keep``: no report, no ``.tmp`` file."""
    assert sorted(p.name for p in folder.iterdir()) == sorted(keep)


def strict_json(text: str) -> dict:
    """JSON as the contract means it: NaN and Infinity are not JSON."""
    def refuse(name: str) -> None:
        raise ValueError(f"{name} in the output")

    return json.loads(text, parse_constant=refuse)


# ----------------------------------------------------------------------------- values YAML misreads
@pytest.mark.parametrize("old, new, field", [
    ("count: 8", "count: yes", "hardware.count"),
    ("count: 8", "count: on", "hardware.count"),
    ("count: 8", "count: 1:30", "hardware.count"),  # YAML 1.1 base 60: would be 90
    ("  checkpointing: true", "  months: 0:30\n  checkpointing: true", "acquisition.months"),  # base 60: 30
    ("  checkpointing: true", "  months: 0:30.5\n  checkpointing: true", "acquisition.months"),  # base 60: 30.5
    ("host_ram_gb: 2048", "host_ram_gb: true", "hardware.host_ram_gb"),
    ("hourly_usd: 3.99", "hourly_usd: off", "acquisition.hourly_usd"),
    ("tb: 1}", "tb: no}", "cloud.storage.tb"),
])
def test_booleans_and_base_60_are_not_numbers_in_a_proposal(capsys, tmp_path, old, new, field):
    p = tmp_path / "p.yaml"
    p.write_text(edit(GOOD, old, new))
    one_line(*cli(capsys, "audit", str(p), "-o", str(tmp_path / "r.md")), str(p), field)
    no_leftovers(tmp_path, "p.yaml")


@pytest.mark.parametrize("old, new, field", [
    ("max_gpus: 16", "max_gpus: 1:30", "constraints.max_gpus"),
    ("deadline_days: 10", "deadline_days: 1:00:00", "constraints.deadline_days"),
    ("lora_rank: 16", "lora_rank: y", "workload.lora_rank"),  # 'y' is a string in YAML 1.1 PyYAML: still refused
    ("batch_size: 1", "batch_size: True", "workload.batch_size"),
])
def test_booleans_and_base_60_are_not_numbers_in_requirements(capsys, tmp_path, old, new, field):
    r = tmp_path / "r.yaml"
    r.write_text(edit(REQ, old, new))
    one_line(*cli(capsys, "recommend", str(r)), str(r), field)
    one_line(*cli(capsys, "estimate", str(r), "--gpu", "h100-80gb-sxm"), str(r), field)


# ----------------------------------------------------------------------------- names
@pytest.mark.parametrize("text, old, new, field, close", [
    (REQ, "model: llama-3.1-70b", "model: llama-3.1-7", "workload.model", "llama-3.1-70b"),
    (REQ, "model: llama-3.1-70b", "model: llama-3.1-405", "workload.model", "llama-3.1-405b"),
    (GOOD, "gpu: H100-80G", "gpu: b2", "hardware.gpu", "b200"),
    (GOOD, "gpu: H100-80G", "gpu: rtx-409", "hardware.gpu", "rtx-4090"),
])
def test_a_name_prefix_is_an_error_with_the_close_match(capsys, tmp_path, text, old, new, field, close):
    f = tmp_path / "in.yaml"
    f.write_text(edit(text, old, new))
    command = "audit" if "hardware" in field else "recommend"
    one_line(*cli(capsys, command, str(f)), str(f), field, close)


def test_a_gpu_name_yaml_reads_as_a_number_still_resolves(capsys, tmp_path):
    """CONTRACT.md: `4090` must resolve; unquoted in YAML it is the integer 4090."""
    p = tmp_path / "p.yaml"
    p.write_text(edit(REJECTED, "gpu: RTX 4090", "gpu: 4090"))
    code, out, err = cli(capsys, "audit", str(p), "--format", "json")
    assert code == 1, err  # the same verdict as the example: 16 x 24 GB cannot hold a full 70B fine-tune
    assert strict_json(out)["verdict"] == "reject"


def test_estimate_checks_the_whole_file_not_only_the_gpu_it_is_given(capsys, tmp_path):
    r = tmp_path / "r.yaml"
    r.write_text(edit(REQ, "max_gpus: 16", "max_gpus: 16\n  gpus: [h100-80gb-sxm, a100-8O]"))
    one_line(*cli(capsys, "estimate", str(r), "--gpu", "h100-80gb-sxm"), str(r), "constraints.gpus")


@pytest.mark.parametrize("value", ["1e22", "1e3", "0x10", "+8", "8.0", "-0", "１２"])
def test_cli_gpu_counts_are_whole_decimal_numbers_within_the_cap(capsys, tmp_path, value):
    r = tmp_path / "r.yaml"
    r.write_text(REQ)
    code, out, err = cli(capsys, "estimate", str(r), "--gpu", "h100-80gb-sxm", "--gpus", value)
    assert code == 2 and out == "" and "--gpus" in err and len(err.splitlines()) == 1, err


# ----------------------------------------------------------------------------- numbers of every size
# Each value is valid, so the answer is the example's own: Python prints these floats in exponent
# form (1e-05), which the rule engine once refused with "Could not assert fact, error code: 204".
@pytest.mark.parametrize("old, value", [
    ("tb: 1}", "1.0e-5"), ("tb: 1}", "5e-324"), ("tb: 1}", "-0.0"), ("tb: 1}", "1.0e+0"),
    ("egress_tb_per_month: 0.2", "1.0e-300"), ("egress_tb_per_month: 0.2", "-0.0"),
    ("host_ram_gb: 2048", "1.0e-5"), ("host_ram_gb: 2048", "9.9e+6"),
])
def test_odd_but_valid_floats_in_a_proposal_reach_the_engine(capsys, tmp_path, old, value):
    p = tmp_path / "p.yaml"
    key = old.split(":")[0]
    p.write_text(edit(GOOD, old, f"{key}: {value}" + ("}" if old.endswith("}") else "")))
    code, out, err = cli(capsys, "audit", str(p), "--format", "json")
    assert code == 0 and err == "", err
    assert strict_json(out)["verdict"] == "approve"


@pytest.mark.parametrize("old, value, code", [
    ("deadline_days: 10", "1.0e-5", 1),  # a deadline of a second: nothing finishes in time
    ("deadline_days: 10", "5e-324", 1),
    ("budget_usd: 20000", "1.0e-5", 1),  # a thousandth of a cent: nothing is affordable
    ("budget_usd: 20000", "2.0e+4", 0),  # the example's own budget in exponent form
    ("budget_usd: 20000", '"$2e4"', 0),
    ("budget_usd: 20000", "9.9e+12", 0),  # under the cap (1e13)
])
def test_odd_but_valid_floats_in_requirements_reach_the_engine(capsys, tmp_path, old, value, code):
    r = tmp_path / "r.yaml"
    r.write_text(edit(REQ, old, f"{old.split(':')[0]}: {value}"))
    got, out, err = cli(capsys, "recommend", str(r), "--format", "json")
    assert got == code and err == "", err
    assert (strict_json(out)["recommendation"] is None) == (code == 1)


@pytest.mark.parametrize("old, value, field", [
    ("budget_usd: 20000", "1.0e+300", "constraints.budget_usd"),
    ("budget_usd: 20000", "1e400", "constraints.budget_usd"),  # overflows to infinity
    ("budget_usd: 20000", "-0.0", "constraints.budget_usd"),
    ("deadline_days: 10", ".NaN", "constraints.deadline_days"),
    ("deadline_days: 10", "-.inf", "constraints.deadline_days"),
    ("train_tokens: 1.0e8", "train_tokens: 1.0e+400", "workload.train_tokens"),
])
def test_out_of_range_and_non_finite_floats_are_input_errors(capsys, tmp_path, old, value, field):
    r = tmp_path / "r.yaml"
    new = value if ":" in value else f"{old.split(':')[0]}: {value}"
    r.write_text(edit(REQ, old, new))
    one_line(*cli(capsys, "recommend", str(r), "-o", str(tmp_path / "out.json")), str(r), field)
    no_leftovers(tmp_path, "r.yaml")


# ----------------------------------------------------------------------------- knowledge overlays
@pytest.mark.parametrize("file, body, words", [
    ("policy.yaml", "policy:\n  memory_headroom_fraction: .nan\n", "memory_headroom_fraction"),
    ("policy.yaml", "policy:\n  value_of_a_day_usd: .inf\n", "value_of_a_day_usd"),
    ("models.yaml", "models:\n  - {id: llama-3.1-70b, params_b: .inf}\n", "params_b"),
    ("models.yaml", "models:\n  - {id: llama-3.1-70b, params_b: 0}\n", "params_b"),
    ("gpus.yaml", "gpus:\n  - {id: h100-80gb-sxm, memory: {gb: -0.0}}\n", "memory.gb"),
    ("gpus.yaml", "gpus:\n  - {id: h100-80gb-sxm, memory: {gb: 1e400}}\n", "memory.gb"),
    ("gpus.yaml", "gpus:\n  - {id: h100-80gb-sxm, memory: {gb: 96}}\n  - {id: h100-80gb-sxm, memory: {gb: 94}}\n",
     "duplicate id 'h100-80gb-sxm'"),
    ("models.yaml", "models:\n  - {id: llama-3.1-70b, layers: 80}\n  - {id: llama-3.1-70b, layers: 81}\n",
     "duplicate id 'llama-3.1-70b'"),
    ("clouds.yaml", "gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: .nan,"
                    " as_of: 2026-11-01, source: lambda.ai/pricing}\n", "usd_per_gpu_hour"),
    ("runtime.yaml", "grad_bucket_bytes: {value: .nan}\n", "grad_bucket_bytes"),
])
def test_an_overlay_with_a_non_finite_impossible_or_repeated_value_is_refused(capsys, tmp_path, file, body, words):
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / file).write_text("schema_version: 1\n" + body)
    r = tmp_path / "r.yaml"
    r.write_text(REQ)
    one_line(*cli(capsys, "recommend", str(r), "--knowledge", str(kb)), str(kb / file), words)


def test_a_vanishing_overlay_price_gives_strict_json(capsys, tmp_path):
    """A price at the floor (0.001 USD per GPU-hour) is finite and positive: the answer costs ~0
    and the JSON holds no NaN or infinity (a cost per unit of anything must not divide by it).
    1e-300 is refused by its field (issue 26, hostile round 7: it made every rental free)."""
    kb = tmp_path / "kb"
    kb.mkdir()
    r = tmp_path / "r.yaml"
    r.write_text(REQ)
    for price in ("1.0e-300", "0.0009"):
        (kb / "clouds.yaml").write_text("schema_version: 1\ngpu_hour_prices:\n  - {provider: lambda, "
                                        f"gpu: h100-80gb-sxm, usd_per_gpu_hour: {price}, as_of: 2026-11-01, "
                                        "source: lambda.ai/pricing}\n")
        one_line(*cli(capsys, "recommend", str(r), "--knowledge", str(kb)),
                 "clouds.yaml: gpu_hour_prices[0].usd_per_gpu_hour: ", "an hour is below 0.001")
    (kb / "clouds.yaml").write_text("schema_version: 1\ngpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm,"
                                    " usd_per_gpu_hour: 0.001, as_of: 2026-11-01, source: lambda.ai/pricing}\n")
    code, out, err = cli(capsys, "recommend", str(r), "--knowledge", str(kb), "--format", "json")
    assert code == 0, err
    rec = strict_json(out)["recommendation"]
    # 8 GPUs x 0.001 $/GPU-hour x a few hours: cents
    assert rec["gpu"] == "h100-80gb-sxm" and rec["acquisition"] == "rent" and 0 < rec["total_cost_usd"] < 1


# ----------------------------------------------------------------------------- output paths
def test_dash_is_standard_output_and_no_file_named_dash(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.yaml").write_text(GOOD)
    code, out, err = cli(capsys, "audit", "p.yaml", "-o", "-", "--format", "json")
    assert code == 0 and err == "" and strict_json(out)["verdict"] == "approve"
    code, out, err = cli(capsys, "audit", "p.yaml", "-o", "-")  # no suffix to read: text
    assert code == 0 and out.startswith("GPU proposal audit")
    no_leftovers(tmp_path, "p.yaml")


@pytest.mark.parametrize("how", ["same", "relative", "symlink", "hardlink"])
def test_the_output_is_never_the_input_and_is_refused_before_the_work(capsys, tmp_path, monkeypatch, how):
    import gpuwise.decide.audit as audit_module

    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    target = {"same": p, "relative": tmp_path / "." / ".." / tmp_path.name / "p.yaml",
              "symlink": tmp_path / "link.md", "hardlink": tmp_path / "hard.md"}[how]
    if how == "symlink":
        target.symlink_to(p)
    elif how == "hardlink":
        os.link(p, target)

    def no_work(*args, **kwargs):
        raise AssertionError("the audit ran before the output was checked")

    monkeypatch.setattr(audit_module, "audit", no_work)
    one_line(*cli(capsys, "audit", str(p), "-o", str(target), "--format", "md"), str(target), "input")
    assert p.read_text() == GOOD


def test_a_directory_or_a_missing_directory_is_refused_before_the_work(capsys, tmp_path, monkeypatch):
    import gpuwise.decide.recommend as recommend_module

    r = tmp_path / "r.yaml"
    r.write_text(REQ)
    (tmp_path / "out.md").mkdir()
    monkeypatch.setattr(recommend_module, "recommend", lambda *a, **k: pytest.fail("ran before the check"))
    for target, words in ((tmp_path / "out.md", "directory"), (tmp_path / "out.md" / "", "directory"),
                          (tmp_path / "nowhere" / "r.md", "does not exist")):
        one_line(*cli(capsys, "recommend", str(r), "-o", str(target)), words)
    assert (tmp_path / "out.md").is_dir() and list((tmp_path / "out.md").iterdir()) == []


def test_dev_null_is_written_through_and_stays_a_device(capsys, tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    code, out, err = cli(capsys, "audit", str(p), "-o", "/dev/null")
    assert code == 0 and out == "" and err == "gpuwise: wrote /dev/null\n"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_fifo_gets_the_report_and_stays_a_fifo(capsys, tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    fifo = tmp_path / "report.json"  # a .json name, but a FIFO: text unless --format says otherwise
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = cli(capsys, "audit", str(p), "-o", str(fifo), "--format", "json")
    reader.join(timeout=60)
    assert code == 0, err
    assert strict_json(got[0].decode())["verdict"] == "approve" and stat.S_ISFIFO(os.stat(fifo).st_mode)
    no_leftovers(tmp_path, "p.yaml", "report.json")


@pytest.mark.parametrize("name", ["a" * 252 + ".md", "é" * 126 + ".md", "-leading-dash.md", "sp ace;$(x).md"])
def test_long_and_odd_valid_names_are_written(capsys, tmp_path, name):
    """252 + 3 = 255 bytes (and 126 x 2 + 3 = 255 in UTF-8): the longest name Linux allows, which
    a temporary name built by adding to it would exceed."""
    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    code, _, err = cli(capsys, "audit", str(p), "-o", str(tmp_path / name))
    assert code == 0 and err.splitlines() == [f"gpuwise: wrote {tmp_path / name}"], err
    assert (tmp_path / name).read_text().startswith("# GPU proposal audit")
    no_leftovers(tmp_path, "p.yaml", name)


def test_a_name_over_the_limit_is_one_line_and_leaves_nothing(capsys, tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    target = tmp_path / ("a" * 253 + ".md")  # 256 bytes
    one_line(*cli(capsys, "audit", str(p), "-o", str(target)), "File name too long")
    no_leftovers(tmp_path, "p.yaml")


def test_symbolic_links_as_the_output(capsys, tmp_path):
    """A link to a new file writes that file and keeps the link; a link into a missing directory and
    a loop of links are one-line errors."""
    p = tmp_path / "p.yaml"
    p.write_text(GOOD)
    (tmp_path / "to-new.md").symlink_to("new.md")
    code, _, err = cli(capsys, "audit", str(p), "-o", str(tmp_path / "to-new.md"))
    assert code == 0, err
    assert (tmp_path / "to-new.md").is_symlink() and (tmp_path / "new.md").read_text().startswith("# GPU")
    (tmp_path / "dangling.md").symlink_to("nowhere/x.md")
    one_line(*cli(capsys, "audit", str(p), "-o", str(tmp_path / "dangling.md")), "does not exist")
    (tmp_path / "a.md").symlink_to("b.md")
    (tmp_path / "b.md").symlink_to("a.md")
    one_line(*cli(capsys, "audit", str(p), "-o", str(tmp_path / "a.md")), "symbolic links")
    no_leftovers(tmp_path, "p.yaml", "to-new.md", "new.md", "dangling.md", "a.md", "b.md")


def test_a_pipe_as_the_input_is_read(tmp_path):
    """`gpuwise recommend <(...)` and /dev/stdin name a pipe: read like a file."""
    p = subprocess.run([sys.executable, "-m", "gpuwise", "recommend", "/dev/stdin", "--format", "json"], input=REQ,
                       capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert strict_json(p.stdout)["recommendation"]["gpu"]


def _die_inside(call: str, target: Path, how: str = "kill") -> subprocess.CompletedProcess:
    """Run atomic_write_text in a fresh interpreter where ``os.<call>`` sends the process SIGTERM
    right after doing its work."""
    script = f"""
import os, signal, time
from gpuwise.render import output
real = os.{call}
def patched(*args, **kwargs):
    result = real(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.2)  # a handler that is not blocked runs here
    return result
os.{call} = patched
output.atomic_write_text({str(target)!r}, "new report")
print("not reached")
"""
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("call", ["open", "fdopen", "fsync"])
def test_sigterm_at_any_step_of_a_write_leaves_no_temp_file(tmp_path, call):
    """SIGTERM just after the temporary file is created (``open``), while it is written, or while
    it is flushed: the temporary file is removed, the old report is untouched, and the process
    ends by the signal (-15), as it would have without gpuwise's handler."""
    target = tmp_path / "report.md"
    target.write_text("old report")
    p = _die_inside(call, target)
    assert p.returncode == -signal.SIGTERM, (p.returncode, p.stderr)
    assert "not reached" not in p.stdout and "Traceback" not in p.stderr
    assert target.read_text() == "old report"
    no_leftovers(tmp_path, "report.md")


def test_sigterm_after_the_rename_leaves_the_new_report(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("old report")
    p = _die_inside("replace", target)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert target.read_text() == "new report"
    no_leftovers(tmp_path, "report.md")


# ----------------------------------------------------------------------------- batch audits
def test_a_batch_with_broken_files_finishes_the_others_and_writes_them(tmp_path):
    """The command (in this process: the batch, its exit status and its one line are ``cli.main``'s):
    two good proposals and two broken ones (a boolean count, a missing file). Both good ones are
    audited and written; exit 2 (an input error); one line on stderr that names the first broken
    file, counts the other and says where the results went."""
    good, rejected, bad = tmp_path / "good.yaml", tmp_path / "rejected.yaml", tmp_path / "bad.yaml"
    good.write_text(GOOD)
    rejected.write_text(REJECTED)
    bad.write_text(edit(GOOD, "count: 8", "count: yes"))
    out = tmp_path / "summary.json"
    files = [str(good), str(bad), str(tmp_path / "missing.yaml"), str(rejected)]
    p = gpuwise("audit", *files, "-o", str(out), cwd=tmp_path)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1, lines
    assert re.search(rf"^gpuwise: {re.escape(str(bad))}: hardware\.count: .*yes/no", lines[0]), lines[0]
    assert "1 more file with errors" in lines[0] and f"wrote {out}" in lines[0]
    docs = strict_json(out.read_text())  # a .json file: one document, the array of the audits (contractfix63)
    assert [d.get("verdict") for d in docs] == ["approve", None, None, "reject"]
    assert docs[1]["file"] == str(bad) and docs[2]["file"] == str(tmp_path / "missing.yaml")
    no_leftovers(tmp_path, "good.yaml", "rejected.yaml", "bad.yaml", "summary.json")


def test_a_batch_output_onto_one_of_its_inputs_is_refused_before_the_work(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(GOOD)
    b.write_text(GOOD)
    p = gpuwise("audit", str(a), str(b), "-o", str(b), "--format", "md", cwd=tmp_path)  # in this process
    one_line(p.returncode, p.stdout, p.stderr, str(b), "input")
    assert b.read_text() == GOOD


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [("recommend", "examples/lora-70b.yaml"),
                                  ("recommend", "examples/lora-70b.yaml", "--format", "json"),
                                  ("explain", "MEM-FITS"), ("--version",), ("gpus", "--help")])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(args):
    """`> /dev/full` (ENOSPC on every write) lost the report: that was exit 3, "a bug in gpuwise",
    for a long report, and exit 0 for a short one (the loss came at the final flush). ``--version``
    and ``--help`` were exit 0 with nothing written (argparse drops the write error)."""
    # the answer computed (with the knowledge cache, as a user's run): a memo entry of the same command
    # line and environment would be replayed instead (that replay onto a full disk: tests/test_memo.py)
    env = {**os.environ, "GPUWISE_TEST_MEMO_MISS": "full-disk"}
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "gpuwise", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == "gpuwise: cannot write the output: No space left on device\n"
