# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round ten of the hostile corpus (issue 26 item 5): the kinds rounds one to nine left out --
``ask --answers`` in a real terminal, every knowledge file as an overlay, the user's cache damaged
in each way a file can be, the locale and terminal variables, a read-only working directory, more
``-o`` targets that are inputs, report modes, pipes and interrupts for every command, C1 control
characters. Added to benchmarks/hostile_corpus.py's table by :func:`add`; the failures fixed are
kept as tests in tests/test_hostile_tenth.py."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any


def _mode(path: str, want: int):
    return lambda r: stat.S_IMODE(os.stat(Path(r.cwd, path)).st_mode) == want


def _clean(r) -> bool:
    return "Traceback" not in r.stderr and "internal error" not in r.stderr


def _no_raw(r) -> bool:
    text = r.stdout + r.stderr
    return _clean(r) and not any(c in text for c in ("\x1b", "\x9b", "\x07", "\x08", "\x7f"))


def damage_cache(tmp: Path, how: str, e: dict) -> None:
    """Fill ``{tmp}/cache/gpuwise`` with one run, then damage every entry in it the way ``how`` says."""
    subprocess.run([sys.executable, "-m", "gpuwise", "recommend", "r.yaml", "--format", "json"], capture_output=True,
                   cwd=tmp, env=e, timeout=120)
    d = tmp / "cache" / "gpuwise"
    entries = sorted(p for p in d.iterdir() if p.is_file())
    assert entries, "the first run kept nothing in the cache"
    if how == "open":
        os.chmod(d, 0o777)
        return
    if how == "swap":
        bodies = [p.read_bytes() for p in entries]
        for p, body in zip(entries, bodies[1:] + bodies[:1], strict=True):
            p.write_bytes(body)
        return
    for p in entries:
        size = p.stat().st_size
        if how in ("fifo", "zero", "dir"):
            p.unlink()
            os.mkfifo(p) if how == "fifo" else os.symlink("/dev/zero", p) if how == "zero" else p.mkdir()
        else:
            p.write_bytes({"truncate": p.read_bytes()[: size // 2], "garbage": os.urandom(size), "empty": b""}[how])


def run_pty(argv, e, tmp, Res):
    """``gpuwise ARGS`` in a pseudo-terminal (``ask`` needs one): the output until it ends, or
    until it waits 15 s for an answer and is sent Ctrl-C. Everything it printed is in both streams."""
    import io

    import pexpect

    e = {**e, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color"}
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "gpuwise", *argv], cwd=str(tmp), env=e, encoding="utf-8",
                          codec_errors="replace", timeout=60, dimensions=(50, 200))
    child.logfile_read = log
    try:
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=15) == 1:
            child.send("\x03")
            child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=30)
    finally:
        child.close(force=True)
    rc = child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)
    return Res(rc, log.getvalue(), log.getvalue(), tmp)


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV = (ns[k] for k in ("LORA", "PROP", "PLAN", "SMI", "CUDA_RULE", "USED", "CSV"))
    EX, ROOT = ns["EX"], ns["ROOT"]
    REJECT = (EX / "proposal-16x4090-70b-full.yaml").read_text()

    # ------------------------------------------------------------ ask --answers, in a real terminal
    for name, body, check in [
        ("ask: answers invalid YAML", "workload: [\n", lambda r: r.returncode == 2 and "a.yaml" in r.stdout),
        ("ask: answers a top-level list", "- a\n- b\n", lambda r: r.returncode in (0, 2, 130)),
        ("ask: answers NUL byte", "workload:\n  task: finetune\0\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers a directory", ("DIR",), lambda r: r.returncode == 2 and "a.yaml" in r.stdout),
        ("ask: answers a FIFO", "FIFO", lambda r: r.returncode == 2 and "a.yaml" in r.stdout),
        ("ask: answers a dangling link", ("LINK", "nowhere/x.yaml"), lambda r: r.returncode in (2, 130)),
        ("ask: answers 9 MB", "# " + "x" * (9 * 1024 * 1024) + "\n", lambda r: r.returncode == 2 and "larger" in r.stdout),
        ("ask: answers section a list", "workload: [1, 2]\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers seq_len 010", "workload:\n  task: finetune\n  seq_len: 010\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers params_b 1e400", "workload:\n  params_b: 1e400\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers state line damaged", "# gpuwise-ask: {{{\nworkload: {task: finetune}\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers state line 100k", "# gpuwise-ask: " + "[" * 100_000 + "\nworkload: {task: finetune}\n",
         lambda r: r.returncode in (2, 130)),
        ("ask: answers latin-1", b"workload:\n  model: caf\xe9\n", lambda r: r.returncode in (2, 130)),
        ("ask: answers unknown section", "wrkload: {task: finetune}\n", lambda r: r.returncode in (2, 130)),
    ]:
        case(name, {"a.yaml": body}, ["PTY", "ask", "--answers", "a.yaml"], expect="any", real=True,
             check=lambda r, c=check: _clean(r) and c(r))
    case("ask: -o onto the answers file", {"a.yaml": "workload: {task: finetune}\n"},
         ["PTY", "ask", "--answers", "a.yaml", "-o", "a.yaml"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode == 2 and "a.yaml" in r.stdout)
    case("ask: -o onto a knowledge overlay file", {"a.yaml": "workload: {task: finetune}\n",
                                                   "kb/policy.yaml": "memory_headroom_fraction: 0.1\n"},
         ["PTY", "ask", "--answers", "a.yaml", "--knowledge", "kb", "-o", "kb/policy.yaml"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode == 2 and "policy.yaml" in r.stdout)
    case("ask: --knowledge with a bad policy", {"kb/policy.yaml": "memory_headroom_fraction: 2\n"},
         ["PTY", "ask", "--answers", "a.yaml", "--knowledge", "kb"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode == 2 and "memory_headroom_fraction" in r.stdout)
    case("ask: in a read-only directory", {}, ["PTY", "ask"], expect="any", real=True, cwd="/sys",
         check=lambda r: _clean(r) and r.returncode in (2, 130))

    # ------------------------------------------------------------ every knowledge file as an overlay
    for f in ("apis", "clouds", "gpus", "models", "policy", "prices", "runtime", "serving", "software", "tco"):
        case(f"kb+: {f}.yaml schema_version 99", {"r.yaml": LORA, f"kb/{f}.yaml": "schema_version: 99\n"},
             ["recommend", "r.yaml", "--knowledge", "kb"], has=[f"{f}.yaml", "schema_version"])
        case(f"kb+: {f}.yaml NUL byte", {"r.yaml": LORA, f"kb/{f}.yaml": "schema_version: 1\0\n"},
             ["recommend", "r.yaml", "--knowledge", "kb"], has=[f"{f}.yaml"])
    for name, fname, body, has in [
        ("kb+: apis price negative", "apis.yaml", "providers:\n  - {id: x, name: X, currency: USD, prices: [{model: llama-3.1-8b, offered_as: x, input_per_million: -1, output_per_million: 1, as_of: 2026-01-01, source: a page}]}\n", ["input_per_million"]),
        ("kb+: apis currency XYZ", "apis.yaml", "providers:\n  - {id: x, name: X, currency: XYZ, prices: []}\n", ["currency"]),
        ("kb+: serving bits_per_weight 1e300", "serving.yaml", "formats:\n  gguf-q4_0: {bits_per_weight: 1e300, keeps_16bit: [], example: x, source: a readme}\n", ["bits_per_weight"]),
        ("kb+: serving default_framework unknown", "serving.yaml", "default_framework: vllmm\n", ["vllmm"]),
        ("kb+: software floor 'abc'", "software.yaml", "cuda_family_floor: {'12': abc}\n", ["cuda_family_floor"]),
        ("kb+: runtime mfu text", "runtime.yaml", "mfu: {hopper: {value: lots, source: abc}}\n", ["mfu"]),
        ("kb+: runtime mfu 010", "runtime.yaml", "mfu: {hopper: {value: 010, source: abc}}\n", ["mfu"]),
        ("kb+: gpus memory gb 1e300", "gpus.yaml", "gpus:\n  - id: rtx-4090\n    memory: {gb: 1e300}\n", ["gb"]),
        ("kb+: gpus id a number", "gpus.yaml", "gpus:\n  - id: 4090\n", ["id"]),
        ("kb+: gpus id with escape", "gpus.yaml", "gpus:\n  - id: \"x\\e[2J\"\n", ["\\x1b"]),
        ("kb+: models layers 0", "models.yaml", "models:\n  - id: llama-2-7b\n    layers: 0\n", ["layers"]),
        ("kb+: models hidden 10**20", "models.yaml", "models:\n  - id: llama-2-7b\n    hidden_size: 100000000000000000000\n", ["hidden_size"]),
        ("kb+: models id a mapping", "models.yaml", "models:\n  - id: {a: 1}\n", ["id"]),
        ("kb+: clouds hourly text", "clouds.yaml", "gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: lots, as_of: 2026-01-01, source: a page}\n", ["usd_per_gpu_hour"]),
        ("kb+: clouds egress negative", "clouds.yaml", "providers:\n  - id: aws\n    egress_tiers: [{up_to_tb: null, usd_per_gb: -1}]\n", ["usd_per_gb"]),
        ("kb+: prices amount '1,599'", "prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: '1,599', condition: new, unit: card, kind: street, as_of: 2026-02-01, source: a shop}\n", ["amount"]),
        ("kb+: prices fabric nic -1", "prices.yaml", "fabrics:\n  - {id: infiniband-400, nic_usd: -1}\n", ["nic_usd"]),
        ("kb+: tco value a list", "tco.yaml", "values: {pue: {value: [1, 2], unit: ratio, source: x y z}}\n", ["pue"]),
        ("kb+: tco as_of 2099", "tco.yaml", "values: {pue: {value: 1.5, unit: ratio, as_of: 2099-01-01, source: x y z}}\n", ["as_of"]),
        ("kb+: policy value null", "policy.yaml", "memory_headroom_fraction: null\n", ["memory_headroom_fraction"]),
        ("kb+: policy value true", "policy.yaml", "memory_headroom_fraction: true\n", ["memory_headroom_fraction"]),
        ("kb+: policy 010 read as 10", "policy.yaml", "memory_headroom_fraction: 010\n", ["memory_headroom_fraction: 10 is out of range"]),
        ("kb+: policy two documents", "policy.yaml", "memory_headroom_fraction: 0.1\n---\nmemory_headroom_fraction: 0.2\n", ["policy.yaml"]),
        ("kb+: overlay is a file, not a dir", None, None, ["kb"]),
    ]:
        files = {"r.yaml": LORA, f"kb/{fname}": body} if fname else {"r.yaml": LORA, "kb": "x: 1\n"}
        case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], has=has)

    # ------------------------------------------------------------ the commands that read overlays and rules
    for name, files, argv, has in [
        ("cmd: gpus --knowledge bad models", {"kb/models.yaml": "models: 5\n"}, ["gpus", "--knowledge", "kb"], ["models"]),
        ("cmd: prices --knowledge bad tco", {"kb/tco.yaml": "values: 5\n"}, ["prices", "--knowledge", "kb"], ["tco.yaml"]),
        ("cmd: rules --knowledge bad policy", {"kb/policy.yaml": "memory_headroom_fraction: 2\n"}, ["rules", "--knowledge", "kb"], ["memory_headroom_fraction"]),
        ("cmd: rules --rules missing dir", {}, ["rules", "--rules", "nosuch"], ["nosuch"]),
        ("cmd: rules --rules bad rule", {"hr/r.yaml": CUDA_RULE.replace("step: memory", "step: memroy")}, ["rules", "--rules", "hr"], ["did you mean"]),
        ("cmd: explain --rules a file", {"hr.yaml": CUDA_RULE}, ["explain", "HOUSE-CUDA-ONLY", "--rules", "hr.yaml"], ["hr.yaml"]),
        ("cmd: explain empty id", {}, ["explain", ""], []),
        ("cmd: explain id with newline", {}, ["explain", "MEM\nFITS"], ["MEM\\nFITS"]),
        ("cmd: estimate a plan file", {"plan.yaml": PLAN}, ["estimate", "plan.yaml", "--gpu", "rtx-4090"], ["plan.yaml"]),
        ("cmd: estimate --gpu empty", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", ""], ["--gpu"]),
        ("cmd: estimate --gpus 010", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "010", "--format", "json"], None),
        ("cmd: audit a requirements file", {"r.yaml": LORA}, ["audit", "r.yaml"], ["hardware"]),
        ("cmd: plan --rules bad", {"plan.yaml": PLAN, "hr/r.yaml": "rules: 5\n"}, ["plan", "plan.yaml", "--rules", "hr"], ["r.yaml"]),
        ("cmd: plan --knowledge bad", {"plan.yaml": PLAN, "kb/gpus.yaml": "gpus: 5\n"}, ["plan", "plan.yaml", "--knowledge", "kb"], ["gpus"]),
        ("cmd: prices --gpu with escape", {}, ["prices", "--gpu", "h100\x1b[2J"], ["\\x1b"]),
        ("cmd: prices --provider empty", {}, ["prices", "--provider", ""], []),
    ]:
        if has is None:
            case(name, files, argv, expect="ok01", check=lambda r: '"count": 10' in r.stdout)
        else:
            case(name, files, argv, has=has)

    # ------------------------------------------------------------ requirements: number forms in more fields
    for name, raw, has in [
        ("num+: seq_len 0o10", "seq_len: 0o10", ["0o10"]),
        ("num+: seq_len 4_096", "seq_len: 4_096", ["4_096"]),
        ("num+: seq_len +4096", "seq_len: +4096", None),
        ("num+: seq_len 4096.0", "seq_len: 4096.0", None),
        ("num+: seq_len 010", "seq_len: 010", None),
        ("num+: seq_len .nan", "seq_len: .nan", ["seq_len"]),
        ("num+: train_tokens 0x10", "train_tokens: 0x10", ["0x10"]),
        ("num+: train_tokens '2e8 '", "train_tokens: '2e8 '", None),
    ]:
        key = raw.split(":")[0]
        text = "\n".join(ln if not ln.strip().startswith(key + ":") else ln.split(":")[0] + ": " + raw.split(": ", 1)[1]
                         for ln in LORA.splitlines()) + "\n"
        if key + ":" not in LORA:
            text = LORA.replace("workload:\n", f"workload:\n  {raw}\n", 1)
        if has is None:
            case(name, {"r.yaml": text}, ["recommend", "r.yaml"], expect="any",
                 check=lambda r: r.returncode in (0, 1, 2) and _clean(r) and r.stderr.count("\n") <= 1)
        else:
            case(name, {"r.yaml": text}, ["recommend", "r.yaml"], has=has)
    for name, raw, has in [
        ("num+: budget '$1,000'", "budget_usd: '$1,000'", None),
        ("num+: budget ¥1000", "budget_usd: ¥1000", ["budget_usd"]),
        ("num+: deadline 1.5", "deadline_days: 1.5", None),
        ("num+: deadline 010", "deadline_days: 010", None),
    ]:
        text = LORA.replace("constraints:\n", f"constraints:\n  {raw}\n", 1) if "constraints:" in LORA else LORA + f"constraints:\n  {raw}\n"
        if "deadline_days:" in LORA and raw.startswith("deadline_days"):
            text = "\n".join(ln for ln in LORA.splitlines() if "deadline_days:" not in ln).replace("constraints:", f"constraints:\n  {raw}", 1) + "\n"
        if has is None:
            case(name, {"r.yaml": text}, ["recommend", "r.yaml"], expect="any",
                 check=lambda r: r.returncode in (0, 1, 2) and _clean(r) and r.stderr.count("\n") <= 1)
        else:
            case(name, {"r.yaml": text}, ["recommend", "r.yaml"], has=has)
    case("num+: house rule value 010", {"hr/r.yaml": CUDA_RULE.replace('[cuda_device, "==", false]', '[gpus, ">", 010]'), "r.yaml": LORA},
         ["rules", "--rules", "hr", "--format", "json"], expect="any",
         check=lambda r: _clean(r) and (r.returncode == 2 or ("10" in r.stdout and '">", 8' not in r.stdout)))

    # ------------------------------------------------------------ control characters beyond ESC
    for name, title in [("ctl: title with C1 CSI", "Rent \u009b2J now"), ("ctl: title with CR", "Rent\rOWNED"),
                        ("ctl: title with backspace", "Rent\b\b\bXX"), ("ctl: title with DEL", "Rent\x7f")]:
        case(name, {"p.yaml": ns["patched"]("title", title, ns["_prop"])}, ["audit", "p.yaml"], expect="ok01",
             check=lambda r: _no_raw(r) and "\r" not in r.stdout)
    case("ctl: model name C1 in error", {"r.yaml": ns["patched"]("workload.model", "x\u009b2J", None)},
         ["recommend", "r.yaml"], has=["\\x9b"], check=lambda r: "\x9b" not in r.stderr)
    case("ctl: overlay model name in report", {"r.yaml": LORA, "kb/models.yaml": "models:\n  - id: llama-3.1-70b\n    name: \"Llama \\e[2J 70B\"\n"},
         ["recommend", "r.yaml", "--knowledge", "kb"], expect="ok01", check=_no_raw)
    case("ctl: overlay provider name in prices", {"kb/clouds.yaml": "providers:\n  - id: lambda\n    name: \"Lam\\e]0;x\\abda\"\n"},
         ["prices", "--knowledge", "kb"], expect="ok01", check=_no_raw)
    case("ctl: house rule message in text", {"hr/r.yaml": CUDA_RULE.replace("{gpu_name} is not", "\\e[31m{gpu_name}\\x9b is not").replace('message: "', 'message: "'), "r.yaml": LORA},
         ["rules", "--rules", "hr"], expect="ok01", check=_no_raw)
    case("ctl: CSV provider note escape", {"p.csv": "gpu,gpus,price\nH100 80GB SXM\u009b,8,20\n"},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any", check=_no_raw)

    case("csv+: a 200,000-character cell", {"p.csv": CSV + '"' + "x" * 200_000 + '",8,20\n'},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="ok",
         check=lambda r: "line 3: a cell longer than" in r.stdout)

    # ------------------------------------------------------------ -o onto inputs, by other paths
    case("out+: audit -o onto smi report via symlink", {**ns["smi"](SMI), "o.json": ("LINK", "r.xml")},
         ["audit", "p.yaml", "-o", "o.json"], has=["o.json"])
    case("out+: audit -o onto smi report via hardlink", {**ns["smi"](SMI), "o.json": ("HARD", "r.xml")},
         ["audit", "p.yaml", "-o", "o.json"], has=["o.json"])
    case("out+: batch -o onto a member via ../", {"b/a.yaml": PROP, "b/c.yaml": PROP},
         ["audit", "b", "-o", "b/../b/c.yaml"], has=["c.yaml"])
    case("out+: plan -o onto overlay via hardlink", {"plan.yaml": PLAN, "kb/policy.yaml": "memory_headroom_fraction: 0.1\n", "o.md": ("HARD", "kb/policy.yaml")},
         ["plan", "plan.yaml", "--knowledge", "kb", "-o", "o.md"], has=["o.md"])
    case("out+: recommend -o onto house rule via symlink", {"r.yaml": LORA, "hr/r.yaml": CUDA_RULE, "o.md": ("LINK", "hr/r.yaml")},
         ["recommend", "r.yaml", "--rules", "hr", "-o", "o.md"], has=["o.md"])
    case("out+: import -o whose clouds.yaml links to the CSV", {"p.csv": CSV, "ov/clouds.yaml": ("LINK", "../p.csv")},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], has=["clouds.yaml"],
         check=lambda r: Path(r.cwd, "p.csv").read_text() == CSV)
    case("out+: import -o whose clouds.yaml links to built-in", {"p.csv": CSV, "ov/clouds.yaml": ("LINK", str(ROOT / "knowledge" / "clouds.yaml"))},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], has=["clouds.yaml"])
    case("out+: import keeps overlay mode 0600", {"p.csv": CSV, "ov/clouds.yaml": ("MODE", 0o600)},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any",
         check=lambda r: (r.returncode == 2 and _clean(r)) or (r.returncode == 0 and _mode("ov/clouds.yaml", 0o600)(r)))
    case("out+: audit keeps report mode 0640", {"p.yaml": PROP, "o.md": ("MODE", 0o640)}, ["audit", "p.yaml", "-o", "o.md"],
         expect="ok01", check=_mode("o.md", 0o640))
    case("out+: batch keeps report mode 0600", {"b/a.yaml": PROP, "o.json": ("MODE", 0o600)}, ["audit", "b", "-o", "o.json"],
         expect="ok01", check=_mode("o.json", 0o600))
    case("out+: plan keeps report mode 0600", {"plan.yaml": PLAN, "o.md": ("MODE", 0o600)}, ["plan", "plan.yaml", "-o", "o.md"],
         expect="ok01", check=_mode("o.md", 0o600))

    # ------------------------------------------------------------ pipes and interrupts for every command
    for name, files, argv, want in [
        ("pipe+: plan | head keeps 0", {"plan.yaml": PLAN}, ["plan", "plan.yaml"], (0, 1)),
        ("pipe+: prices | head keeps 0", {}, ["prices"], (0,)),
        ("pipe+: explain | head keeps 0", {}, ["explain", "MEM-FITS"], (0,)),
        ("pipe+: rules --facts | head keeps 0", {}, ["rules", "--facts"], (0,)),
        ("pipe+: estimate | head keeps 0", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm"], (0,)),
        ("pipe+: rejected json | head keeps 1", {"p.yaml": REJECT}, ["audit", "p.yaml", "--format", "json"], (1,)),
        ("pipe+: batch with a bad member | head keeps 2", {"b/a.yaml": PROP, "b/z.yaml": "workload: [\n"}, ["audit", "b", "--format", "json"], (2,)),
    ]:
        case(name, files, ["PIPE", *argv], expect="any", real=True, check=lambda r, w=want: r.returncode in w and _clean(r))
    case("signal+: SIGINT during plan keeps old output", {"plan.yaml": PLAN, "o.md": "OLD\n"},
         ["SIGINT", "plan", "plan.yaml", "-o", "o.md"], expect="any", real=True,
         check=lambda r: _clean(r) and (r.returncode in (0, 1) or (r.returncode == 130 and Path(r.cwd, "o.md").read_text() == "OLD\n")))
    case("signal+: SIGINT during import keeps old overlay", {"p.csv": CSV, "ov/clouds.yaml": "# OLD\n"},
         ["SIGINT", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any", real=True,
         check=lambda r: _clean(r) and (r.returncode == 0 or (r.returncode == 130 and Path(r.cwd, "ov/clouds.yaml").read_text() == "# OLD\n")))
    case("signal+: SIGINT during estimate", {"r.yaml": LORA}, ["SIGINT", "estimate", "r.yaml", "--gpu", "h100-80gb-sxm"],
         expect="any", real=True, check=lambda r: _clean(r) and r.returncode in (0, 130))
    case("signal+: SIGTERM during batch keeps old output", {"b/a.yaml": PROP, "b/c.yaml": REJECT, "o.json": "OLD\n"},
         ["SIGTERM", "audit", "b", "-o", "o.json"], expect="any", real=True,
         check=lambda r: _clean(r) and (r.returncode in (0, 1) or Path(r.cwd, "o.json").read_text() == "OLD\n"))

    # ------------------------------------------------------------ environment: cache, locale, terminal, cwd
    cache_env = {"XDG_CACHE_HOME": "{tmp}/cache", "GPUWISE_NO_CACHE": None}
    for name, damage in [
        ("cache: entries truncated", "truncate"), ("cache: entries garbage", "garbage"),
        ("cache: entries swapped between kinds", "swap"), ("cache: entries are FIFOs", "fifo"),
        ("cache: entries link to /dev/zero", "zero"), ("cache: entries are directories", "dir"),
        ("cache: entries empty", "empty"), ("cache: dir mode 0777", "open"),
    ]:
        case(name, {"r.yaml": LORA}, ["recommend", "r.yaml", "--format", "json"], expect="ok01", real=True,
             env=cache_env, prep=("CACHE", damage), check=lambda r: _clean(r) and r.stdout.lstrip().startswith("{"))
    case("cache: a file where the cache dir goes", {"r.yaml": LORA, "cache/gpuwise": "x\n"}, ["recommend", "r.yaml"],
         expect="ok01", real=True, env=cache_env, check=_clean)
    case("cache: XDG_CACHE_HOME on a read-only fs", {"r.yaml": LORA}, ["recommend", "r.yaml"], expect="ok01", real=True,
         env={"XDG_CACHE_HOME": "/sys/gpuwise-x", "GPUWISE_NO_CACHE": None}, check=_clean)
    case("cache: HOME a file", {"r.yaml": LORA}, ["recommend", "r.yaml"], expect="ok01", real=True,
         env={"HOME": "/etc/hostname", "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, check=_clean)
    case("cache: HOME read-only", {"r.yaml": LORA}, ["audit", "nosuch.yaml"], real=True,
         env={"HOME": "/sys", "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, has=["nosuch.yaml"])
    for name, env, argv, check in [
        ("env+: LANGUAGE=zh_CN keeps English", {"LANGUAGE": "zh_CN", "LANG": "zh_CN.UTF-8"}, ["recommend", "r.yaml"],
         lambda r: not any("\u4e00" <= ch <= "\u9fff" for ch in r.stdout[:2000])),
        ("env+: LANGUAGE=zh_CN error stays English", {"LANGUAGE": "zh_CN"}, ["recommend", "nosuch.yaml"],
         lambda r: r.returncode == 2 and "no such file" in r.stderr),
        ("env+: LC_ALL=zh_CN.GB18030 --lang zh", {"LC_ALL": "zh_CN.GB18030", "LANG": "zh_CN.GB18030"}, ["recommend", "r.yaml", "--lang", "zh"], None),
        ("env+: LC_ALL=tr_TR.UTF-8", {"LC_ALL": "tr_TR.UTF-8"}, ["recommend", "r.yaml"], None),
        ("env+: LANG=xx_YY.BOGUS", {"LANG": "xx_YY.BOGUS", "LC_ALL": "xx_YY.BOGUS"}, ["gpus"], None),
        ("env+: PYTHONIOENCODING=utf-16", {"PYTHONIOENCODING": "utf-16"}, ["rules"], None),
        ("env+: ascii gpus", {"PYTHONIOENCODING": "ascii"}, ["gpus"], None),
        ("env+: ascii prices zh", {"PYTHONIOENCODING": "ascii"}, ["prices", "--lang", "zh"], None),
        ("env+: ascii rules zh", {"PYTHONIOENCODING": "ascii"}, ["rules", "--lang", "zh"], None),
        ("env+: ascii explain zh", {"PYTHONIOENCODING": "ascii"}, ["explain", "MEM-FITS", "--lang", "zh"], None),
        ("env+: ascii plan", {"PYTHONIOENCODING": "ascii"}, ["plan", "plan.yaml"], None),
        ("env+: ascii estimate zh", {"PYTHONIOENCODING": "ascii"}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--lang", "zh"], None),
        ("env+: latin-1 help zh", {"PYTHONIOENCODING": "latin-1"}, ["--lang", "zh", "--help"], None),
        ("env+: COLUMNS=1 recommend", {"COLUMNS": "1"}, ["recommend", "r.yaml"], None),
        ("env+: COLUMNS=0 plan", {"COLUMNS": "0"}, ["plan", "plan.yaml"], None),
        ("env+: COLUMNS=10**20 prices", {"COLUMNS": "100000000000000000000"}, ["prices"], None),
        ("env+: COLUMNS=10**9 help", {"COLUMNS": "1000000000"}, ["recommend", "--help"], None),
        ("env+: NO_COLOR TERM=dumb", {"NO_COLOR": "1", "TERM": "dumb"}, ["recommend", "r.yaml"], lambda r: "\x1b" not in r.stdout),
        ("env+: TERM unset", {"TERM": None}, ["audit", "p.yaml"], None),
    ]:
        files = {"r.yaml": LORA, "plan.yaml": PLAN, "p.yaml": PROP}
        case(name, files, argv, expect="ok01" if not any("nosuch" in a for a in argv) else "any", real=True, env=env,
             check=lambda r, c=check: _clean(r) and (c is None or c(r)))
    ro = "/sys"
    case("ro-cwd: recommend to stdout", {"r.yaml": LORA}, ["recommend", "{tmp}/r.yaml"], expect="ok01", real=True, cwd=ro)
    case("ro-cwd: audit -o relative", {"p.yaml": PROP}, ["audit", "{tmp}/p.yaml", "-o", "o.md"], real=True, cwd=ro,
         has=["o.md"])
    case("ro-cwd: import -o relative", {"p.csv": CSV}, ["prices", "import", "{tmp}/p.csv", "--provider", "m", "-o", "ov"],
         real=True, cwd=ro, has=["ov"])
    case("ro-cwd: plan -o relative", {"plan.yaml": PLAN}, ["plan", "{tmp}/plan.yaml", "-o", "o.json"], real=True, cwd=ro,
         has=["o.json"])

    # ------------------------------------------------------------ every input kind as a link to an endless device
    for dev in ("/dev/zero", "/dev/urandom"):
        tag = dev.rsplit("/", 1)[1]
        for name, files, argv, has in [
            ("proposal", {"p.yaml": ("LINK", dev)}, ["audit", "p.yaml"], ["p.yaml"]),
            ("plan", {"plan.yaml": ("LINK", dev)}, ["plan", "plan.yaml"], ["plan.yaml"]),
            ("house rule", {"r.yaml": LORA, "hr/a.yaml": ("LINK", dev)}, ["recommend", "r.yaml", "--rules", "hr"], ["a.yaml"]),
            ("overlay", {"r.yaml": LORA, "kb/models.yaml": ("LINK", dev)}, ["recommend", "r.yaml", "--knowledge", "kb"], ["models.yaml"]),
            ("CSV", {"p.csv": ("LINK", dev)}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], ["p.csv"]),
            ("batch member", {"b/a.yaml": PROP, "b/z.yaml": ("LINK", dev)}, ["audit", "b"], ["z.yaml"]),
        ]:
            if name == "batch member":
                case(f"dev: {name} links to {tag}", files, argv, expect="any",
                     check=lambda r: r.returncode == 2 and "z.yaml" in r.stderr and _clean(r))
            else:
                case(f"dev: {name} links to {tag}", files, argv, has=has)
    case("dev: answers link to /dev/zero", {"a.yaml": ("LINK", "/dev/zero")}, ["PTY", "ask", "--answers", "a.yaml"],
         expect="any", real=True, check=lambda r: _clean(r) and r.returncode == 2 and "a.yaml" in r.stdout)

    # ------------------------------------------------------------ file names that are not UTF-8 (surrogate escapes)
    case("name+: missing file named in Latin-1", {}, ["recommend", "\udcff.yaml"], has=["\\udcff.yaml"])
    case("name+: batch member named in Latin-1", {"b/a.yaml": PROP, "b/\udcfe.yaml": "x: [\n"}, ["audit", "b", "--format", "json"],
         expect="any", check=lambda r: r.returncode == 2 and "\\udcfe.yaml" in r.stderr and _clean(r))
    case("name+: -o named in Latin-1", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "o\udcfc.md"], expect="ok01",
         check=lambda r: "\\udcfc" in r.stderr and _clean(r))

    # ------------------------------------------------------------ seller reports, more shapes
    smi = ns["smi"]
    for name, xml, has in [
        ("smi+: UTF-8 BOM", "\ufeff" + SMI, None),
        ("smi+: CRLF", SMI.replace("\n", "\r\n"), None),
        ("smi+: no gpu element", '<?xml version="1.0"?><nvidia_smi_log><driver_version>535</driver_version></nvidia_smi_log>', ["r.xml"]),
        ("smi+: truncated", SMI[: len(SMI) // 2], ["r.xml"]),
        ("smi+: temperature N/A", SMI.replace("<gpu_temp>74 C", "<gpu_temp>N/A", 1), None),
        ("smi+: latin-1 declared", ('<?xml version="1.0" encoding="ISO-8859-1"?>' + SMI.split("?>", 1)[1].replace("REDACTED", "caf\xe9", 1)).encode("latin-1"), None),
        ("smi+: no DOCTYPE", "\n".join(ln for ln in SMI.splitlines() if "DOCTYPE" not in ln), None),
        ("smi+: two DOCTYPEs", SMI.replace("<nvidia_smi_log>", '<!DOCTYPE nvidia_smi_log SYSTEM "x.dtd">\n<nvidia_smi_log>', 1), ["r.xml"]),
        ("smi+: xinclude", SMI.replace("<timestamp>", '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/><timestamp>', 1), None),
    ]:
        if has is None:
            case(name, smi(xml), ["audit", "p.yaml"], expect="ok01", check=lambda r: _clean(r) and "root:" not in r.stdout)
        else:
            case(name, smi(xml), ["audit", "p.yaml"], has=has)
    case("smi+: product name 100k is a warning", smi(SMI.replace("NVIDIA GeForce RTX 3090", "N" * 100_000, 1)),
         ["audit", "p.yaml"], expect="ok01", check=lambda r: "which is no GPU model" in r.stdout and len(r.stdout) < 50_000)
    case("smi+: product name without a model number", smi(SMI.replace("NVIDIA GeForce RTX 3090", "NVIDIA Accelerator", 1)),
         ["audit", "p.yaml"], expect="ok01", check=lambda r: "which is no GPU model" in r.stdout)
    case("smi+: sparse 5 GB file", {"p.yaml": USED, "r.xml": ("SPARSE", 5 * 1024**3)}, ["audit", "p.yaml"], has=["larger"])
