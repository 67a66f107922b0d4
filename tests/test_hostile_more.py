"""More hostile inputs of the kinds issue 26 lists, tried as an attacker would after the first
corpus was closed (tests/test_hostile_inputs.py, tests/test_odd_paths.py): ``plan -o`` onto the
knowledge and rule files it reads, ``prices import`` CSVs and overlay directories, and standard
output closed (``>&-``) under the commands that had not been tried that way. The promise: one line
naming the file and field and exit 2 for bad input, nothing replaced, never an internal error."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuwise.paths import knowledge_dir, rules_dir
from tests.clirun import gpuwise

ROOT = Path(__file__).parent.parent
ONE_ROW = "gpu,gpus,price\nH100 80GB SXM,8,20.0\n"


def one_line(r, *words: str) -> str:
    """The contract for bad input: exit 2, one line naming what is wrong, nothing on stdout."""
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("gpuwise: "), r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    return r.stderr


@pytest.mark.parametrize("target", ["kb/policy.yaml", "hr/cuda-only.yaml"])
def test_plan_never_writes_over_the_knowledge_or_rule_files_it_reads(tmp_path: Path, target: str) -> None:
    """``plan -o`` protected only the plan file: with ``--format md`` it replaced the overlay's
    policy.yaml or a house rule file it had just read, exit 0."""
    shutil.copy(ROOT / "examples" / "plan-team-4090.yaml", tmp_path / "plan.yaml")
    (tmp_path / "kb").mkdir()
    policy = "value_of_a_day_usd:\n  value: 100\n  source: a team's own figure\n"
    (tmp_path / "kb" / "policy.yaml").write_text(policy)
    shutil.copytree(ROOT / "examples" / "house-rules", tmp_path / "hr")
    before = (tmp_path / target).read_bytes()
    r = gpuwise("plan", "plan.yaml", "--knowledge", "kb", "--rules", "hr", "--format", "md", "-o", target,
                cwd=tmp_path)
    one_line(r, target, "would replace an input file")
    assert (tmp_path / target).read_bytes() == before


def test_an_overlay_whose_instances_are_not_a_list_is_one_line(tmp_path: Path) -> None:
    """An existing ``clouds.yaml`` in the -o directory with ``instances: 5`` was an internal error
    (TypeError)."""
    (tmp_path / "prices.csv").write_text(ONE_ROW)
    (tmp_path / "ov").mkdir()
    (tmp_path / "ov" / "clouds.yaml").write_text("instances: 5\n")
    r = gpuwise("prices", "import", "prices.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    one_line(r, "ov/clouds.yaml", "instances")
    assert (tmp_path / "ov" / "clouds.yaml").read_text() == "instances: 5\n"


def test_a_gpu_count_beyond_the_cap_is_a_skipped_row(tmp_path: Path) -> None:
    """``gpus: 99999999999999999999999`` was imported as a 10^23-GPU instance at 2e-22 USD per
    GPU-hour; the cap is the one a proposal's ``hardware.count`` has (100,000)."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price\nH100 80GB SXM,99999999999999999999999,20\n"
                                    "H100 80GB SXM,100001,20\nH100 80GB SXM,8,20\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", "--format", "json",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [o["gpus"] for o in data["imported"]] == [8]
    assert [s["line"] for s in data["skipped"]] == [2, 3]
    assert all("more than 100,000 GPUs" in s["reason"] for s in data["skipped"])


def test_a_price_date_after_today_is_refused(tmp_path: Path) -> None:
    """A price dated in the future is never flagged as stale: ``--as-of 9999-12-31`` is refused by
    name, and a row's own future ``as_of`` is a skipped row."""
    (tmp_path / "p.csv").write_text(ONE_ROW)
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", "--as-of", "9999-12-31",
                cwd=tmp_path)
    one_line(r, "--as-of", "9999-12-31", "after today")
    assert not (tmp_path / "ov").exists()
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    (tmp_path / "q.csv").write_text(f"gpu,gpus,price,as_of\nH100 80GB SXM,8,20,{tomorrow}\n"
                                    "H100 80GB SXM,4,10,2026-11-01\n")
    r = gpuwise("prices", "import", "q.csv", "--provider", "mycloud", "-o", "ov", "--format", "json",
                cwd=tmp_path)
    data = json.loads(r.stdout)
    assert [o["gpus"] for o in data["imported"]] == [4]
    assert data["skipped"] == [{"line": 2, "name": "H100 80GB SXM", "reason": f"as_of {tomorrow} is after today"}]


def test_control_characters_in_an_imported_name_are_escaped(tmp_path: Path) -> None:
    """An instance name from a seller's CSV reached the terminal raw (``\\x1b[31m``, a bell)."""
    (tmp_path / "p.csv").write_text("gpu,gpus,price,instance\nH100 80GB SXM,8,20,\x1b[31mevil\x07\n")
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout
    assert "\\u001b[31mevil\\u0007" in r.stdout


@pytest.mark.parametrize("built_in", ["knowledge", "rules"])
def test_an_import_never_writes_into_the_built_in_directories(tmp_path: Path, built_in: str) -> None:
    """``-o`` naming gpuwise's own knowledge directory merged the import into the shipped
    clouds.yaml every later run reads (exit 0); the rules directory would get a non-rule file."""
    target = knowledge_dir() if built_in == "knowledge" else rules_dir()
    clouds = target / "clouds.yaml"
    before = clouds.read_bytes() if clouds.exists() else None
    (tmp_path / "p.csv").write_text(ONE_ROW)
    r = gpuwise("prices", "import", "p.csv", "--provider", "mycloud", "-o", str(target), cwd=tmp_path)
    one_line(r, str(target), f"built-in {built_in} directory")
    assert (clouds.read_bytes() if clouds.exists() else None) == before


@pytest.mark.parametrize("args", [("prices",), ("prices", "--format", "json"),
                                  ("prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov"),
                                  ("plan", "plan.yaml", "--format", "json")])
def test_a_closed_standard_output_is_not_an_internal_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Started with standard output closed (``>&-``), ``prices`` and ``prices import`` wrote to
    ``None`` and ``plan`` flushed it before starting the MILP solver: internal errors (exit 3).
    Now the run finishes, as every listing does, and the overlay is still written; a plan, a report
    that would be lost, is refused in one line before the solver starts (exit 2, round 12)."""
    (tmp_path / "p.csv").write_text(ONE_ROW)
    shutil.copy(ROOT / "examples" / "plan-team-4090.yaml", tmp_path / "plan.yaml")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    r = subprocess.run([sys.executable, "-m", "gpuwise", *args], cwd=tmp_path, env=env, stderr=subprocess.PIPE,
                       text=True, preexec_fn=_close_stdout, timeout=300)
    if args[0] == "plan":
        assert (r.returncode, r.stderr) == (2, "gpuwise: standard output is closed: the report would be lost "
                                               "(write it to a file with -o FILE)\n")
        return
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    if "import" in args:
        assert (tmp_path / "ov" / "clouds.yaml").is_file()


def _close_stdout() -> None:
    os.close(1)


def test_the_cache_key_hashes_only_regular_files_within_the_limit(tmp_path: Path) -> None:
    """``--rules DIR`` whose ``*.yaml`` linked to /dev/zero exhausted memory, and a FIFO hung the
    run: the cache hashed every file whole before the reader's checks. A file the reader would
    refuse now gives no key (no cache), and the reader says why."""
    from gpuwise import cache
    from gpuwise.yamlio import MAX_FILE_BYTES

    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing written
    small = tmp_path / "small.yaml"
    small.write_text("a: 1\n")
    assert cache.key("rules", [small]) is not None
    assert cache.key("rules", [small, big]) is None
    if os.path.exists("/dev/zero"):
        (tmp_path / "zero.yaml").symlink_to("/dev/zero")
        assert cache.key("rules", [tmp_path / "zero.yaml"]) is None


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"), reason="POSIX devices")
@pytest.mark.parametrize("kind", ["zero", "fifo"])
def test_a_rule_file_that_is_a_device_or_fifo_is_one_line(tmp_path: Path, kind: str) -> None:
    hr = tmp_path / "hr"
    shutil.copytree(ROOT / "examples" / "house-rules", hr)
    if kind == "zero":
        (hr / "zz.yaml").symlink_to("/dev/zero")
    else:
        os.mkfifo(hr / "zz.yaml")
    r = subprocess.run([sys.executable, "-m", "gpuwise", "recommend", str(ROOT / "examples" / "lora-70b.yaml"),
                        "--rules", str(hr)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    one_line(r, "zz.yaml")


@pytest.mark.parametrize("bought, words", [("2099-03", ("bought 2099-03", "in the future")),
                                           ("2024-13", ("bought 2024-13", "no month 13"))])
def test_an_owned_fleet_bought_in_the_future_or_in_month_13_is_one_line(tmp_path: Path, bought: str,
                                                                          words: tuple[str, ...]) -> None:
    """A plan accepted ``bought: 2099-03`` (hardware bought 73 years from now) and ``2024-13``."""
    text = (ROOT / "examples" / "plan-team-4090.yaml").read_text().replace("bought: 2024-03", f"bought: {bought}")
    assert f"bought: {bought}" in text
    (tmp_path / "plan.yaml").write_text(text)
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml", "owned", *words)


def test_a_run_of_less_than_one_token_is_one_line(tmp_path: Path) -> None:
    """``train_tokens: 5e-324`` was taken as a (vanishing) training run; a run trains at least one token."""
    (tmp_path / "r.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, "
                                     "train_tokens: 5e-324}\n")
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml", "workload.train_tokens")
    (tmp_path / "ok.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, "
                                      "train_tokens: 1}\n")
    assert gpuwise("recommend", "ok.yaml", cwd=tmp_path).returncode == 0
