# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""The hostile corpus's first nine rounds (issue 26 items 5-6; 344 cases, the corpus as it stood before round
ten): requirements fields and files, input paths and options, proposals, a seller's nvidia-smi files, batches,
plan files, price CSVs, house rules, knowledge overlays, output paths, environment variables in real processes,
number forms and GPU names, pipes, signals and locale, a used card's own fields, policy values and more plan
fields. Added to benchmarks/hostile_corpus.py's table by :func:`add`, before round ten's, with no round number;
the failures fixed are kept as tests in tests/test_hostile_ninth.py."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import GIVEN


def add(case, ns: dict[str, Any]) -> None:
    """Rounds one to nine's cases, in the corpus's order, through ``case``; the inputs and edit helpers from
    the corpus's namespace ``ns`` (hostile_givens.GIVEN, the checkout's folders and the YAML module)."""
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV, patched, smi, wl, _prop, _plan = (ns[k] for k in GIVEN)
    ROOT, EX, _y = ns["ROOT"], ns["EX"], ns["_y"]

    for name, path, value, has in [
        ("req: model misspelt", "workload.model", "llama-3.1-70bb", ["did you mean", "llama-3.1-70b"]),
        ("req: seq_len 1e400 (inf)", "workload.seq_len", float("inf"), ["seq_len"]),
        ("req: seq_len negative", "workload.seq_len", -1, ["seq_len"]),
        ("req: seq_len bool", "workload.seq_len", True, ["seq_len"]),
        ("req: seq_len 10**30", "workload.seq_len", 10**30, ["seq_len"]),
        ("req: seq_len 0.5", "workload.seq_len", 0.5, ["seq_len"]),
        ("req: params_b NaN text", "workload.params_b", "NaN", ["params_b"]),
        ("req: model a list", "workload.model", ["a", "b"], ["model"]),
        ("req: model a mapping", "workload.model", {"a": 1}, ["model"]),
        ("req: model 5000 chars", "workload.model", "m" * 5000, ["model"]),
        ("req: model with ANSI escape", "workload.model", "\x1b[2Jllama", ["model", "\\x1b"]),
        ("req: model with RTL override", "workload.model", "llama\u202e07b", ["model", "\\u202e"]),
        ("req: task misspelt", "workload.task", "finetunee", ["did you mean", "finetune"]),
        ("req: task upper case", "workload.task", "FineTune", []),
        ("req: precision fp3", "workload.precision", "fp3", ["precision"]),
        ("req: method lorra", "workload.method", "lorra", ["did you mean"]),
        ("req: train_tokens -1", "workload.train_tokens", -1, ["train_tokens"]),
        ("req: train_tokens 1e30", "workload.train_tokens", 1e30, ["train_tokens"]),
        ("req: batch_size 0", "workload.batch_size", 0, ["batch_size"]),
        ("req: batch_size 10**12", "workload.batch_size", 10**12, ["batch_size"]),
        ("req: global_batch_tokens 0", "workload.global_batch_tokens", 0, ["global_batch_tokens"]),
        ("req: global_batch_tokens 'lots'", "workload.global_batch_tokens", "lots", ["global_batch_tokens"]),
        ("req: parallelism tp 0", "workload.parallelism", {"tp": 0}, ["tp"]),
        ("req: parallelism tp 10**9", "workload.parallelism", {"tp": 10**9}, ["tp"]),
        ("req: parallelism unknown key", "workload.parallelism", {"tpp": 2}, ["did you mean"]),
        ("req: framework vlm", "workload.framework", "vlm", []),
        ("req: deadline_days 0", "constraints.deadline_days", 0, ["deadline_days"]),
        ("req: deadline_days 1e9", "constraints.deadline_days", 1e9, ["deadline_days"]),
        ("req: currency XYZ", "constraints.currency", "XYZ", ["currency"]),
        ("req: budget 'one grand'", "constraints.budget_usd", "one grand", ["budget"]),
        ("req: unknown top key close", "constraint", {"deadline_days": 3}, ["did you mean", "constraints"]),
        ("req: gpus list of unknown", "constraints.gpus", ["h1000"], []),
        ("req: gpus a string", "constraints.gpus", "h100", []),
        ("req: key with zero-width space", "workload.seq\u200blen", 4096, ["\\u200b"]),
        ("req: workload null", "workload", None, ["workload"]),
        ("req: workload a list", "workload", [1, 2], ["workload"]),
        ("req: architecture experts 1e9", "workload.architecture", {"experts": 10**9}, []),
        ("req: date where number", "workload.seq_len", __import__("datetime").date(2026, 1, 1), ["2026-01-01"]),
    ]:
        case(name, {"r.yaml": patched(path, value)}, ["recommend", "r.yaml"], has=has)

    for name, text, has in [
        ("req: empty file", "", ["empty"]),
        ("req: comments only", "# nothing\n", ["empty"]),
        ("req: top-level list", "- a\n- b\n", []),
        ("req: top-level scalar", "hello\n", []),
        ("req: tab indentation", "workload:\n\ttask: finetune\n", ["line"]),
        ("req: duplicate key", LORA + "workload: {task: finetune}\n", ["duplicate"]),
        ("req: python tag", "workload: !!python/object:os.system {}\n", []),
        ("req: binary tag", "workload: !!binary aGVsbG8=\n", []),
        ("req: merge key into workload", "base: &b {task: finetune, model: llama-2-7b}\nworkload: {<<: *b}\n", []),
        ("req: two documents", LORA + "---\n" + LORA, []),
        ("req: octal-looking count 010 in seq_len", LORA.replace("workload:\n", "workload:\n  seq_len: 0100\n", 1)
         if "seq_len" not in LORA else LORA.replace("seq_len: 4096", "seq_len: 04096"), None),
        ("req: latin-1 bytes", None, ["UTF-8"]),
        ("req: utf-16 with BOM", None, None),
        ("req: CRLF line endings", LORA.replace("\n", "\r\n"), None),
        ("req: NUL byte", LORA + "\0", ["NUL"]),
        ("req: very long line 7MB", "workload: {task: finetune, model: '" + "x" * 7_000_000 + "'}\n", ["model"]),
        ("req: 9MB file", "# " + "x" * (9 * 1024 * 1024) + "\n", ["larger"]),
    ]:
        if text is None and name == "req: latin-1 bytes":
            text = LORA.encode() + "# caf\xe9\n".encode("latin-1")
        if text is None and name == "req: utf-16 with BOM":
            text = b"\xff\xfe" + LORA.encode("utf-16-le")
        exp = "ok" if has is None else "bad"
        case(name, {"r.yaml": text}, ["recommend", "r.yaml"], expect=exp, has=has or ())

    # path-shaped inputs
    case("path: a directory", {"d/x": ""}, ["recommend", "d"], has=["d: is a directory"])
    case("path: FIFO with no writer", {"f": "FIFO"}, ["recommend", "f"], has=["FIFO"])
    case("path: symlink loop", {"a": ("LINK", "b"), "b": ("LINK", "a")}, ["recommend", "a"], has=["a:"])
    case("path: dangling link", {"a": ("LINK", "nowhere")}, ["recommend", "a"], has=["a:"])
    case("path: /dev/zero", {}, ["recommend", "/dev/zero"], has=["/dev/zero"])
    case("path: name of 300 chars", {}, ["recommend", "x" * 300 + ".yaml"], has=[])
    case("path: name with newline", {"a\nb.yaml": LORA}, ["recommend", "a\nb.yaml", "--format", "json"], expect="ok")
    case("path: name with escape, missing", {}, ["recommend", "\x1b]0;pwned\x07.yaml"], has=["\\x1b"])
    case("path: NUL in name", {}, ["recommend", "a\0b.yaml"], has=[])

    # options
    for name, argv, has in [
        ("opt: --gpu with escape", ["estimate", "r.yaml", "--gpu", "H100\x1b[31m"], ["\\x1b"]),
        ("opt: --gpu misspelt", ["estimate", "r.yaml", "--gpu", "h1000"], ["did you mean"]),
        ("opt: --gpus 0", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "0"], ["--gpus"]),
        ("opt: --gpus -1", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "-1"], []),
        ("opt: --gpus 1e3", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "1e3"], ["--gpus"]),
        ("opt: --gpus 10**12", ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "1000000000000"], ["out of range"]),
        ("opt: --fx-rate nan", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "nan"], ["--fx-rate"]),
        ("opt: --fx-rate inf", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "inf"], ["--fx-rate"]),
        ("opt: --fx-rate 0", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "0"], ["--fx-rate"]),
        ("opt: --fx-rate 1e300", ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "1e300"], []),
        ("opt: --currency xyz", ["recommend", "r.yaml", "--currency", "xyz"], []),
        ("opt: --lang fr", ["recommend", "r.yaml", "--lang", "fr"], []),
        ("opt: --format pdf", ["recommend", "r.yaml", "--format", "pdf"], []),
        ("opt: --detail huge", ["recommend", "r.yaml", "--detail", "huge"], []),
        ("opt: unknown option with escape", ["recommend", "r.yaml", "--\x1b[2J"], ["[2J"]),
        ("opt: explain id with escape", ["explain", "MEM\x1b[2J"], ["\\x1b"]),
        ("opt: explain 5000-char id", ["explain", "X" * 5000], []),
        ("opt: prices --gpu unknown", ["prices", "--gpu", "h1000"], []),
        ("opt: prices --provider unknown", ["prices", "--provider", "nebiuss"], []),
        ("opt: gpus --format yaml", ["gpus", "--format", "yaml"], []),
        ("opt: prices --fx-rate 7.1 (gpus' option)", ["prices", "--fx-rate", "7.1"], ["--fx-rate is not an option of `gpuwise prices`"]),
        ("opt: prices --as-of before import", ["prices", "--as-of", "2025-01-01", "import", "x.csv"], ["`gpuwise prices import`"]),
    ]:
        case(name, {"r.yaml": LORA}, argv, has=has)

    # ---------------------------------------------------------------- proposals (audit)
    for name, path, value, has in [
        ("prop: count 010 read as 10", "hardware.count", "RAW010", None),
        ("prop: count 0", "hardware.count", 0, ["count"]),
        ("prop: count 1e6", "hardware.count", 10**6, ["count"]),
        ("prop: hourly_usd negative", "acquisition.hourly_usd", -3.99, ["hourly_usd"]),
        ("prop: hourly_usd text $", "acquisition.hourly_usd", "$3.99", ["hourly_usd"]),
        ("prop: hourly_usd 1e300", "acquisition.hourly_usd", 1e300, ["hourly_usd"]),
        ("prop: mode rnet", "acquisition.mode", "rnet", ["did you mean"]),
        ("prop: provider unknown (free text by design)", "acquisition.provider", "lambdaa", None),
        ("prop: gpu misspelt", "hardware.gpu", "H100-80GG", []),
        ("prop: gpu ambiguous A100", "hardware.gpu", "A100", ["A100"]),
        ("prop: link nvswich", "hardware.link", "nvswich", ["did you mean"]),
        ("prop: host_ram_gb 1e12", "hardware.host_ram_gb", 1e12, ["host_ram_gb"]),
        ("prop: driver 5000 digits", "environment.driver", "5" * 5000, []),
        ("prop: driver with escape", "environment.driver", "550\x1b[2J", []),
        ("prop: cuda 'latest'", "environment.cuda", "latest", []),
        ("prop: os unknown", "environment.os", "templeos", None),
        ("prop: title with escape", "title", "Rent \x1b]0;pwned\x07", None),
        ("prop: title 100k chars", "title", "t" * 100_000, []),
        ("prop: storage tb -1", "cloud.storage", {"kind": "object", "tb": -1}, ["tb"]),
        ("prop: egress 1e30", "cloud.egress_tb_per_month", 1e30, []),
    ]:
        text = _y.safe_dump(_prop, width=10**9)
        if value == "RAW010":
            text = text.replace("count: 8", "count: 010")
            case(name, {"p.yaml": text}, ["audit", "p.yaml", "--format", "json"], expect="ok01",
                 check=lambda r: '"count": 10' in r.stdout)
            continue
        text = patched(path, value, _prop)
        if has is None:
            case(name, {"p.yaml": text}, ["audit", "p.yaml"], expect="ok",
                 check=lambda r: "\x1b" not in r.stdout and "\x1b" not in r.stderr)
        else:
            case(name, {"p.yaml": text}, ["audit", "p.yaml"], has=has)
    case("prop: provider lambdaa gets a close-match note", {"p.yaml": patched("acquisition.provider", "lambdaa", _prop)},
         ["audit", "p.yaml", "--format", "json"], expect="ok", check=lambda r: "did you mean 'lambda'?" in r.stdout)

    # seller nvidia-smi files


    for name, files, has in [
        ("smi: absolute path", {"p.yaml": USED.replace("r.xml", "/etc/passwd")}, ["outside"]),
        ("smi: ../ path", {"p.yaml": USED.replace("r.xml", "../r.xml")}, ["outside"]),
        ("smi: FIFO", {"p.yaml": USED, "r.xml": "FIFO"}, ["regular file"]),
        ("smi: directory", {"p.yaml": USED, "r.xml/x": ""}, ["regular file"]),
        ("smi: link to outside", {"p.yaml": USED, "r.xml": ("LINK", "/etc/hostname")}, ["outside"]),
        ("smi: empty", smi(""), ["empty"]),
        ("smi: gzip", smi(b"\x1f\x8b\x08junk"), ["gzip"]),
        ("smi: text report", smi("==============NVSMI LOG==============\n\nTimestamp : x\nDriver Version : 535\n"), []),
        ("smi: two roots", smi(SMI + SMI.split("?>", 1)[1]), []),
        ("smi: billion laughs", smi('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
                                   "<nvidia_smi_log>&b;</nvidia_smi_log>"), ["unsafe"]),
        ("smi: external entity", smi('<?xml version="1.0"?><!DOCTYPE l [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                    "<nvidia_smi_log>&x;</nvidia_smi_log>"), ["unsafe"]),
        ("smi: encoding bogus", smi('<?xml version="1.0" encoding="bogus-9"?><nvidia_smi_log/>'), []),
        ("smi: NUL bytes", smi(SMI.replace("<timestamp>", "<timestamp>\0")), []),
        ("smi: namespace root", smi('<?xml version="1.0"?><x:nvidia_smi_log xmlns:x="urn:x"><gpu/></x:nvidia_smi_log>'), []),
        ("smi: temperature 1e309", smi(SMI.replace("<gpu_temp>", "<gpu_temp>1e309 C<!--", 1).replace(
            "</gpu_temp>", "--></gpu_temp>", 1)), []),
        ("smi: 70-digit power", smi(SMI.replace("<average_power_draw>139.62 W", "<average_power_draw>" + "9" * 70 + " W", 1)),
         []),
        ("smi: temperature 10**40 C", smi(SMI.replace("<gpu_temp>74 C", "<gpu_temp>" + "9" * 40 + " C", 1)), []),
        ("smi: fan 1e3 %", smi(SMI.replace("<fan_speed>0 %", "<fan_speed>1e3 %", 1)), ["1e3"]),
        ("smi: 65 gpus", smi('<?xml version="1.0"?><nvidia_smi_log>' + "".join(
            f'<gpu id="0000:{i:02x}:00.0"><product_name>NVIDIA GeForce RTX 3090</product_name></gpu>'
            for i in range(65)) + "</nvidia_smi_log>"), ["more than 64"]),
        ("smi: 5 MB", smi(SMI.replace("<timestamp>", "<!--" + "x" * (5 * 1024 * 1024) + "--><timestamp>")), ["larger"]),
        ("smi: utf-16 without mark, html escaped", smi("&lt;nvidia_smi_log&gt;"), []),
        ("smi: deep nesting 50", smi(SMI.replace("<timestamp>", "<a>" * 50 + "</a>" * 50 + "<timestamp>")), ["nested"]),
    ]:
        case(name, files, ["audit", "p.yaml"], has=has)

    case("smi: product name with escape is escaped", smi(SMI.replace("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3080\x1b[2J", 1)),
         ["audit", "p.yaml"], expect="any", check=lambda r: "\x1b" not in r.stdout + r.stderr)
    case("smi: serial with bidi", smi(SMI.replace("<serial>REDACTED", "<serial>12\u202e34", 1)),
         ["audit", "p.yaml"], expect="any", check=lambda r: "\u202e" not in r.stdout + r.stderr)
    case("smi: CDATA product name", smi(SMI.replace("NVIDIA GeForce RTX 3090", "<![CDATA[NVIDIA GeForce RTX 3080]]>", 1)),
         ["audit", "p.yaml"], expect="ok01")
    case("smi: processing instruction", smi(SMI.replace("<timestamp>", "<?pi x?><timestamp>", 1)),
         ["audit", "p.yaml"], expect="ok01")
    case("smi: 40 cards one report", {"p.yaml": USED.replace("  - {serial: '1', nvidia_smi: r.xml}\n", "".join(
        f"  - {{serial: 's{i}', nvidia_smi: r.xml}}\n" for i in range(40))).replace("count: 1", "count: 40"), "r.xml": SMI},
         ["audit", "p.yaml"], expect="any", check=lambda r: "internal error" not in r.stderr)

    # batches
    case("batch: folder with a FIFO member", {"b/a.yaml": PROP, "b/f.yaml": "FIFO"}, ["audit", "b", "--format", "json"],
         expect="any", check=lambda r: r.returncode == 2 and "f.yaml" in r.stderr and "internal" not in r.stderr)
    case("batch: folder with a dir member", {"b/a.yaml": PROP, "b/d.yaml/x": ""}, ["audit", "b"], expect="any",
         check=lambda r: r.returncode == 2 and "d.yaml: is a directory, not a YAML file" in r.stderr)
    case("batch: folder with a link loop", {"b/a.yaml": PROP, "b/l.yaml": ("LINK", "l.yaml")}, ["audit", "b"],
         expect="any", check=lambda r: r.returncode in (1, 2) and "internal" not in r.stderr and "l.yaml" in r.stderr)
    case("batch: empty folder", {"b/.keep": ""}, ["audit", "b"], has=["b"])
    case("batch: folder of non-yaml", {"b/readme.txt": "hi"}, ["audit", "b"], has=[])
    case("batch: same file twice", {"p.yaml": PROP}, ["audit", "p.yaml", "p.yaml"], expect="any",
         check=lambda r: "internal" not in r.stderr)
    case("batch: -o onto a member", {"b/a.yaml": PROP, "b/c.yaml": PROP}, ["audit", "b", "-o", "b/c.yaml"], has=["c.yaml"],
         check=lambda r: True)
    case("batch: -o onto the smi report", smi(SMI), ["audit", "p.yaml", "-o", "r.xml", "--format", "json"], has=["r.xml"])

    # ---------------------------------------------------------------- plan files
    for name, path, value, has in [
        ("plan: horizon 0", "horizon_months", 0, ["horizon_months"]),
        ("plan: horizon 10**6", "horizon_months", 10**6, ["horizon_months"]),
        ("plan: horizon inf", "horizon_months", float("inf"), ["horizon_months"]),
        ("plan: owned count 010", "owned", "RAW", None),
        ("plan: owned bought 2099-01", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2099-01",
                                                   "paid_usd": 1}], ["bought"]),
        ("plan: owned bought 2026-13", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2026-13",
                                                   "paid_usd": 1}], ["bought"]),
        ("plan: owned paid -1", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "office", "paid_usd": -1}], ["paid_usd"]),
        ("plan: owned gpu misspelt", "owned", [{"gpu": "RTX 4909", "count": 8, "hosting": "office"}], []),
        ("plan: owned hosting attic", "owned", [{"gpu": "RTX 4090", "count": 8, "hosting": "attic"}], ["hosting"]),
        ("plan: workloads a mapping", "workloads", {"a": 1}, ["workloads"]),
        ("plan: workloads empty", "workloads", [], ["workloads"]),
        ("plan: constraints unknown key", "constraints", {"budgett": 1}, []),
    ]:
        if value == "RAW":
            case(name, {"plan.yaml": PLAN.replace("count: 8", "count: 010")}, ["plan", "plan.yaml", "--format", "json"],
                 expect="ok")
            continue
        case(name, {"plan.yaml": patched(path, value, _plan)}, ["plan", "plan.yaml"], has=has)


    for name, text, has in [
        ("plan: cadence two kinds", wl(0, cadence={"per_month": 2, "at_month": 3}), ["cadence"]),
        ("plan: at_month past horizon", wl(2, cadence={"at_month": 99}), ["at_month"]),
        ("plan: growth 1e6", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": 1e6}), []),
        ("plan: hours_per_day 25", wl(1, cadence={"continuous": True, "hours_per_day": 25}), ["hours_per_day"]),
        ("plan: duplicate names", wl(1, name="lora-8b"), ["lora-8b"]),
        ("plan: name with escape", wl(0, name="x\x1b[2J"), None),
        ("plan: name 10k chars", wl(0, name="n" * 10_000), []),
        ("plan: targets rps 1e12", wl(1, targets={"requests_per_s": 1e12, "p95_ttft_ms": 2000}), None),
        ("plan: targets p95 negative", wl(1, targets={"requests_per_s": 2, "p95_ttft_ms": -1}), ["p95_ttft_ms"]),
        ("plan: deadline 0", wl(0, deadline_days=0), ["deadline_days"]),
        ("plan: workload missing", wl(0, workload=None), ["workload"]),
        ("plan: is a proposal", PROP, ["plan"]),
    ]:
        if has is None:
            case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], expect="any",
                 check=lambda r: "\x1b" not in r.stdout + r.stderr and "internal" not in r.stderr and r.returncode in (0, 1, 2))
        else:
            case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], has=has)

    # ---------------------------------------------------------------- price CSVs
    for name, text, expect, has in [
        ("csv: BOM", "\ufeff" + CSV, "ok", ()),
        ("csv: NUL", CSV + "\0", "bad", ()),
        ("csv: decimal comma price", 'gpu,gpus,price\nH100 80GB SXM,8,"20,5"\n', "any", ()),
        ("csv: price nan", "gpu,gpus,price\nH100 80GB SXM,8,nan\n", "rows", ()),
        ("csv: price inf", "gpu,gpus,price\nH100 80GB SXM,8,inf\n", "rows", ()),
        ("csv: gpus 0", "gpu,gpus,price\nH100 80GB SXM,0,20\n", "rows", ()),
        ("csv: gpus 1e9", "gpu,gpus,price\nH100 80GB SXM,1000000000,20\n", "rows", ()),
        ("csv: gpus 010", "gpu,gpus,price\nH100 80GB SXM,010,20\n", "any", ()),
        ("csv: utf-16", None, "any", ()),
        ("csv: quoted newline in gpu", 'gpu,gpus,price\n"H100\n80GB SXM",8,20\n', "any", ()),
        ("csv: gpu name with escape", "gpu,gpus,price\nH100\x1b[2J,8,20\n", "any", ()),
        ("csv: 11 MB", CSV + ("H100 80GB SXM,8,20\n" * 600_000), "bad", ()),
        ("csv: gzip", b"\x1f\x8b\x08\x00junk", "bad", ["gzip"]),
        ("csv: header only", "gpu,gpus,price\n", "bad", ()),
        ("csv: ragged rows", "gpu,gpus,price\nH100 80GB SXM,8\n", "rows", ()),
        ("csv: formula cell", "gpu,gpus,price\n=cmd|' /C calc'!A0,8,20\n", "rows", ()),
    ]:
        if text is None:
            text = b"\xff\xfe" + CSV.encode("utf-16-le")
        if expect == "rows":  # each row's reason listed, then the one line: by design (round 6)
            case(name, {"p.csv": text}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any",
                 check=lambda r: r.returncode == 2 and r.stderr.splitlines()[-1].startswith("gpuwise: p.csv: no row could")
                 and "\x1b" not in r.stderr)
            continue
        case(name, {"p.csv": text}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect=expect, has=has,
             check=(lambda r: "\x1b" not in r.stdout + r.stderr and "internal" not in r.stderr and "Traceback" not in r.stderr)
             if expect == "any" else None)
    for name, argv, has in [
        ("csv: --as-of 2026-02-30", ["--as-of", "2026-02-30"], ["--as-of"]),
        ("csv: --as-of future", ["--as-of", "2099-01-01"], ["--as-of"]),
        ("csv: --provider ../x", ["--provider", "../x"], ["provider"]),
        ("csv: --provider with escape", ["--provider", "m\x1b[2J"], ["\\x1b"]),
        ("csv: --provider 500 chars", ["--provider", "p" * 500], []),
    ]:
        case(name, {"p.csv": CSV}, ["prices", "import", "p.csv", "-o", "ov", *argv], has=has)
    case("csv: -o into built-in knowledge", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o",
                                                                str(ROOT / "knowledge")], has=[])
    case("csv: -o clouds.yaml is a directory", {"p.csv": CSV, "ov/clouds.yaml/x": ""},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], has=["clouds.yaml"])
    case("csv: -o is the CSV itself", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "p.csv"],
         has=["p.csv"])

    # ---------------------------------------------------------------- house rules
    for name, old, new, has in [
        ("rule: message {gpu_name!r}", "{gpu_name} is not", "{gpu_name!r} is not", []),
        ("rule: message width 10**6", "{gpu_name} is not", "{gpu_name:>1000000} is not", []),
        ("rule: message precision huge", "{gpu_name} is not", "{need_gb:.999999f} is not", []),
        ("rule: message unknown field", "{gpu_name} is not", "{gpu_nam} is not", ["did you mean"]),
        ("rule: message attribute access", "{gpu_name} is not", "{gpu_name.__class__} is not", []),
        ("rule: message index access", "{gpu_name} is not", "{gpu_name[0]} is not", []),
        ("rule: unknown fact field", "[cuda_device, ", "[cuda_devic, ", ["did you mean"]),
        ("rule: operator =~", '"==", false', '"=~", false', []),
        ("rule: value 1e-7", "[cuda_device, \"==\", false]", "[need_gb, \">\", 1e-7]", None),
        ("rule: value 10**30", "[cuda_device, \"==\", false]", "[need_gb, \">\", 1000000000000000000000000000000]", None),
        ("rule: value list literal", "[cuda_device, \"==\", false]", "[need_gb, \">\", [1, 2]]", []),
        ("rule: action block", "action: reject", "action: block", []),
        ("rule: topic unknown", "topic: compatibility", "topic: compatibilty", ["did you mean"]),
        ("rule: step unknown", "step: memory", "step: memroy", ["did you mean"]),
        ("rule: fact unknown", "fact: candidate", "fact: candidat", ["did you mean"]),
        ("rule: rules a mapping", "rules:\n  - id:", "rules:\n  x:\n    id:", []),
        ("rule: id with escape", "HOUSE-CUDA-ONLY", "HOUSE-\x1b[2J", []),
        ("rule: id 500 chars", "HOUSE-CUDA-ONLY", "HOUSE-" + "X" * 500, []),
        ("rule: id a list", "id: HOUSE-CUDA-ONLY", "id: [a, b]", []),
        ("rule: schema_version 2", "schema_version: 1", "schema_version: 2", ["schema_version"]),
        ("rule: title with escape shows escaped", "title: This team runs CUDA only", "title: \"CUDA \\e[2J only\"", None),
        ("rule: rationale empty", "rationale: \"Our", "rationale: \"\"\n    x: \"Our", []),
    ]:
        body = CUDA_RULE.replace(old, new)
        assert body != CUDA_RULE, name
        if has is None:
            case(name, {"hr/r.yaml": body, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], expect="ok01",
                 check=lambda r: "\x1b" not in r.stdout + r.stderr)
        else:
            case(name, {"hr/r.yaml": body, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=has)
    case("rule: dir with README.md", {"hr/README.md": "# hi", "hr/r.yaml": CUDA_RULE, "r.yaml": LORA},
         ["recommend", "r.yaml", "--rules", "hr"], expect="ok01")
    case("rule: file .yml", {"hr/r.yml": CUDA_RULE, "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], expect="ok01",
         check=lambda r: True)
    case("rule: FIFO in dir", {"hr/r.yaml": "FIFO", "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=["r.yaml"])
    case("rule: -o onto the rule", {"hr/r.yaml": CUDA_RULE, "r.yaml": LORA},
         ["recommend", "r.yaml", "--rules", "hr", "-o", "hr/r.yaml", "--format", "md"], has=["r.yaml"])
    case("rule: explain house rule", {"hr/r.yaml": CUDA_RULE}, ["explain", "HOUSE-CUDA-ONLY", "--rules", "hr"], expect="ok")
    case("rule: explain house misspelt", {"hr/r.yaml": CUDA_RULE}, ["explain", "HOUSE-CUDA-ONL", "--rules", "hr"],
         has=["did you mean"])

    # ---------------------------------------------------------------- overlays
    for name, fname, body, has in [
        ("kb: policy headroom 2", "policy.yaml", "memory_headroom_fraction: 2\n", ["memory_headroom_fraction"]),
        ("kb: policy unknown close", "policy.yaml", "memory_headroom_fractio: 0.1\n", ["did you mean"]),
        ("kb: policy value text", "policy.yaml", "memory_headroom_fraction: lots\n", []),
        ("kb: policy 1e-7 in range", "policy.yaml", "memory_headroom_fraction: 1e-7\n", None),
        ("kb: tco power price 1e300", "tco.yaml", "values: {electricity_usd_per_kwh_default: {value: 1e300, unit: USD, "
         "source: x y z}}\n", ["above 100"]),
        ("kb: tco resale floor 2", "tco.yaml", "values: {resale_floor_fraction: {value: 2, unit: x, source: x y z}}\n",
         ["above 1,"]),
        ("kb: tco usd_cny 1e300", "tco.yaml", "values: {usd_cny: {value: 1e300, unit: CNY per USD, source: x y z}}\n",
         ["usd_cny"]),
        ("kb: tco unknown key", "tco.yaml", "valuez: {}\n", ["did you mean"]),
        ("kb: models params_b 1e300", "models.yaml", "models:\n  - id: llama-2-7b\n    params_b: 1e300\n", ["params_b"]),
        ("kb: models new without source", "models.yaml", "models:\n  - id: my-model\n    params_b: 7\n", []),
        ("kb: clouds instance unknown gpu", "clouds.yaml",
         "instances:\n  - {provider: m, gpu: h1000, gpus: 8, usd_per_hour: 20, as_of: 2026-11-01, source: a page}\n", []),
        ("kb: prices as_of 2099", "prices.yaml", "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: 1599, condition: new, "
         "unit: card, kind: street, as_of: 2099-02-01, source: a shop}\n", ["as_of"]),
        ("kb: unknown file gpu.yaml", "gpu.yaml", "gpus: []\n", []),
        ("kb: apis negative price", "apis.yaml", "apis:\n  - {id: x, usd_per_mtok_in: -1}\n", []),
        ("kb: serving unknown key", "serving.yaml", "framworks: {}\n", []),
        ("kb: software unknown key", "software.yaml", "driverz: {}\n", []),
        ("kb: runtime mfu 2", "runtime.yaml", "mfu: {hopper: {value: 2, source: abc}}\n", ["mfu"]),
        ("kb: runtime bucket 1e300", "runtime.yaml", "training: {bucket_bytes: {value: 1e300, source: abc}}\n", ["bucket_bytes"]),
        ("kb: gpus id a list", "gpus.yaml", "gpus:\n  - id: [a]\n", []),
        ("kb: file is a FIFO", "policy.yaml", "FIFO", []),
        ("kb: file is a dangling link", "policy.yaml", ("LINK", "nowhere"), []),
        ("kb: file with escape in key", "policy.yaml", "\"x\\e[2J\": 1\n", ["\\x1b"]),
    ]:
        files = {"r.yaml": LORA, f"kb/{fname}": body}
        if has is None:
            case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], expect="ok01")
        else:
            case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], has=has)
    case("kb: subdir in overlay", {"r.yaml": LORA, "kb/sub/policy.yaml": "memory_headroom_fraction: 2\n"},
         ["recommend", "r.yaml", "--knowledge", "kb"], expect="any", check=lambda r: "internal" not in r.stderr)
    case("kb: -o onto overlay file", {"r.yaml": LORA, "kb/policy.yaml": "memory_headroom_fraction: 0.1\n"},
         ["recommend", "r.yaml", "--knowledge", "kb", "-o", "kb/policy.yaml", "--format", "md"], has=["policy.yaml"])

    # ---------------------------------------------------------------- output paths (in-process)
    case("out: -o dir/", {"r.yaml": LORA, "d/x": ""}, ["recommend", "r.yaml", "-o", "d/"], has=["d"])
    case("out: -o missing dir", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "nodir/x.md"], has=["nodir"])
    case("out: -o .HTML upper", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x.HTML"], expect="ok01",
         check=lambda r: True)
    case("out: -o .json.tmp", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x.json.tmp"], has=["suffix"])
    case("out: -o hardlink to input", {"r.yaml": LORA, "h.md": ("HARD", "r.yaml")}, ["recommend", "r.yaml", "-o", "h.md"],
         has=["h.md"])
    case("out: -o symlink to input", {"r.yaml": LORA, "s.md": ("LINK", "r.yaml")}, ["recommend", "r.yaml", "-o", "s.md"],
         has=["s.md"])
    case("out: -o name with escape", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "x\x1b[2J.zzz"], has=["\\x1b"])
    case("out: -o /dev/full", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/full"], has=["cannot write"])
    case("out: keeps 0600 mode", {"r.yaml": LORA, "o.md": ("MODE", 0o600)}, ["recommend", "r.yaml", "-o", "o.md"],
         expect="ok01", check=lambda r: stat.S_IMODE(os.stat(Path(r.cwd, "o.md")).st_mode) == 0o600)

    # ---------------------------------------------------------------- environment, real processes
    for name, env, argv, expect, has in [
        ("env: COLUMNS=0", {"COLUMNS": "0"}, ["gpus"], "ok", ()),
        ("env: COLUMNS=-5", {"COLUMNS": "-5"}, ["gpus"], "ok", ()),
        ("env: COLUMNS=abc", {"COLUMNS": "abc"}, ["rules"], "ok", ()),
        ("env: COLUMNS=10**9", {"COLUMNS": "1000000000"}, ["gpus"], "ok", ()),
        ("env: XDG_CACHE_HOME a file", {"XDG_CACHE_HOME": "/etc/hostname"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: XDG_CACHE_HOME missing", {"XDG_CACHE_HOME": "/nonexistent/x"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: XDG_CACHE_HOME relative", {"XDG_CACHE_HOME": "rel"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: HOME unset", {"HOME": None}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: GPUWISE_NO_CACHE=1", {"GPUWISE_NO_CACHE": "1"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: PYTHONIOENCODING=latin-1 zh", {"PYTHONIOENCODING": "latin-1"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
        ("env: PYTHONIOENCODING=ascii en ×", {"PYTHONIOENCODING": "ascii"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: PYTHONIOENCODING=gb18030 zh", {"PYTHONIOENCODING": "gb18030"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
        ("env: LC_ALL=C", {"LC_ALL": "C", "LANG": "C"}, ["recommend", "r.yaml", "--lang", "zh"], "ok01", ()),
        ("env: TZ weird", {"TZ": "Nowhere/Bogus+99"}, ["recommend", "r.yaml"], "ok01", ()),
        ("env: GPUWISE_DEBUG bad input", {"GPUWISE_DEBUG": "1"}, ["recommend", "nosuch.yaml"], "bad", ()),
        ("env: ascii, zh, bad input", {"PYTHONIOENCODING": "ascii:strict"}, ["audit", "nosuch.yaml", "--lang", "zh"], "bad",
         ["no such file"]),
    ]:
        case(name, {"r.yaml": LORA}, argv, expect=expect, has=has, real=True, env=env,
             check=lambda r: "Traceback" not in r.stderr and "internal" not in r.stderr)

    case("pipe: rejected audit | head -c1 keeps 1", {"p.yaml": (EX / "proposal-16x4090-70b-full.yaml").read_text()},
         ["PIPE", "audit", "p.yaml"], expect="any", real=True, check=lambda r: r.returncode == 1)
    case("pipe: closed stdout", {"p.yaml": PROP}, ["CLOSED", "audit", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1, 2) and "Traceback" not in r.stderr and "internal" not in r.stderr)
    case("signal: SIGINT during recommend keeps old output", {"r.yaml": LORA, "o.md": "OLD\n"},
         ["SIGINT", "recommend", "r.yaml", "-o", "o.md"], expect="any", real=True,
         check=lambda r: r.returncode in (130, 0) and (r.returncode == 0 or Path(r.cwd, "o.md").read_text() == "OLD\n")
         and "Traceback" not in r.stderr)
    case("signal: SIGTERM during audit", {"p.yaml": PROP, "o.md": "OLD\n"},
         ["SIGTERM", "audit", "p.yaml", "-o", "o.md"], expect="any", real=True,
         check=lambda r: (r.returncode in (143, -15, 0, 1) and (r.returncode in (0, 1) or Path(r.cwd, "o.md").read_text() == "OLD\n")
                          and "Traceback" not in r.stderr))


    # ---------------------------------------------------------------- more number forms and names
    for name, raw, has in [
        ("num: count 0x10", "count: 0x10", ["0x10"]),
        ("num: count 1_000", "count: 1_000", ["1_000"]),
        ("num: count fullwidth", "count: \uff18", []),
        ("num: count 1:30", "count: 1:30", ["1:30"]),
        ("num: count 8.0", "count: 8.0", None),
        ("num: count '8'", "count: '8'", None),
        ("num: count 8e0", "count: 8e0", None),
        ("num: count -0", "count: -0", ["count"]),
        ("num: count .inf", "count: .inf", ["count"]),
        ("num: count 1e400", "count: 1e400", ["count"]),
    ]:
        text = PROP.replace("count: 8", raw)
        if has is None:
            case(name, {"p.yaml": text}, ["audit", "p.yaml"], expect="any",
                 check=lambda r: r.returncode in (0, 1, 2) and "internal" not in r.stderr and r.stderr.count("\n") <= 1)
        else:
            case(name, {"p.yaml": text}, ["audit", "p.yaml"], has=has)
    for g in ["A100-80G", "A100 80GB", "a100-80gb-sxm", "H100-80G", "RTX 4090", "4090", "A10G", "P100", "V100"]:
        case(f"name: gpu '{g}' resolves", {"p.yaml": PROP.replace("gpu: H100-80G", f"gpu: {g}")}, ["audit", "p.yaml"],
             expect="any", check=lambda r: r.returncode in (0, 1) and "internal" not in r.stderr)
    case("name: gpu 'A100' is ambiguous", {"p.yaml": PROP.replace("gpu: H100-80G", "gpu: A100")}, ["audit", "p.yaml"],
         has=["ambiguous"])
    case("name: model with spaces", {"r.yaml": LORA.replace("model: llama-3.1-70b", "model: ' Llama 3.1 70B '")},
         ["recommend", "r.yaml"], expect="ok01")
    case("name: model in capitals", {"r.yaml": LORA.replace("model: llama-3.1-70b", "model: LLAMA-3.1-70B")},
         ["recommend", "r.yaml"], expect="ok01")
    case("rule: when empty", {"hr/r.yaml": CUDA_RULE.replace('      - [cuda_device, "==", false]\n', "").replace(
        "when:\n", "when: []\n"), "r.yaml": LORA}, ["recommend", "r.yaml", "--rules", "hr"], has=["when"])
    case("rule: 2 files same id", {"hr/a.yaml": CUDA_RULE, "hr/b.yaml": CUDA_RULE, "r.yaml": LORA},
         ["recommend", "r.yaml", "--rules", "hr"], has=["HOUSE-CUDA-ONLY"])
    case("rule: replaces built-in silently?", {"hr/a.yaml": CUDA_RULE.replace("HOUSE-CUDA-ONLY", "MEM-FITS"), "r.yaml": LORA},
         ["recommend", "r.yaml", "--rules", "hr"], expect="any", check=lambda r: "internal" not in r.stderr)
    case("estimate: --gpu AMD", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "mi300x"], expect="ok")
    case("estimate: --gpus without --gpu", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpus", "8"], expect="any",
         check=lambda r: r.returncode in (0, 2) and "internal" not in r.stderr and r.stderr.count("\n") <= 1)
    case("audit: JSON lines batch with one bad", {"b/a.yaml": PROP, "b/z.yaml": "workload: [\n"},
         ["audit", "b", "--format", "json"], expect="any",
         check=lambda r: r.returncode == 2 and "z.yaml" in r.stderr and "internal" not in r.stderr)
    case("explain: --format json unknown id", {}, ["explain", "NOPE", "--format", "json"], has=["NOPE"])
    case("rules: --facts --lang zh", {}, ["rules", "--facts", "--lang", "zh"], expect="ok")
    case("gpus: --knowledge with bad gpus.yaml", {"kb/gpus.yaml": "gpus: 5\n"}, ["gpus", "--knowledge", "kb"], has=["gpus"])
    case("prices: --currency CNY --fx-rate", {}, ["prices", "--currency", "CNY", "--fx-rate", "7.1"], expect="any",
         check=lambda r: r.returncode in (0, 2) and "internal" not in r.stderr)


    # ---------------------------------------------------------------- more outputs, pipes, signals, locale
    case("out: -o /dev/stdout", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/stdout", "--format", "json"],
         expect="ok01", check=lambda r: r.stdout.lstrip().startswith("{"))
    case("out: -o - md", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "-", "--format", "md"], expect="ok01",
         check=lambda r: r.stdout.startswith("#"))
    case("out: -o onto requirements via ./", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "./r.yaml", "--format", "md"],
         has=["r.yaml"])
    case("out: plan -o onto plan", {"plan.yaml": PLAN}, ["plan", "plan.yaml", "-o", "plan.yaml", "--format", "json"],
         has=["plan.yaml"])
    case("out: estimate has no -o", {"r.yaml": LORA}, ["estimate", "r.yaml", "-o", "x.json"], has=[])
    case("pipe: batch rejected | head keeps 1", {"b/a.yaml": (EX / "proposal-16x4090-70b-full.yaml").read_text(),
                                                  "b/c.yaml": PROP}, ["PIPE", "audit", "b"], expect="any", real=True,
         check=lambda r: r.returncode == 1)
    case("pipe: gpus | head keeps 0", {}, ["PIPE", "gpus"], expect="any", real=True, check=lambda r: r.returncode == 0)
    case("pipe: bad input | head keeps 2", {}, ["PIPE", "recommend", "nosuch.yaml"], expect="any", real=True,
         check=lambda r: r.returncode == 2)
    case("signal: SIGINT during batch keeps old output", {"b/a.yaml": PROP, "b/c.yaml": PROP, "o.json": "OLD\n"},
         ["SIGINT", "audit", "b", "-o", "o.json"], expect="any", real=True,
         check=lambda r: r.returncode in (130, 0, 1) and (r.returncode != 130 or Path(r.cwd, "o.json").read_text() == "OLD\n")
         and "Traceback" not in r.stderr)
    case("signal: SIGINT during prices import keeps overlay", {"p.csv": CSV * 1, "ov/clouds.yaml": "instances: []\n"},
         ["SIGINT", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], expect="any", real=True,
         check=lambda r: r.returncode in (130, 0) and "Traceback" not in r.stderr)
    case("signal: SIGHUP during plan", {"plan.yaml": PLAN, "o.md": "OLD\n"}, ["SIGHUP", "plan", "plan.yaml", "-o", "o.md"],
         expect="any", real=True, check=lambda r: (r.returncode in (0, 1) or Path(r.cwd, "o.md").read_text() == "OLD\n")
         and "Traceback" not in r.stderr)
    case("locale: zh title in proposal, ascii stdout", {"p.yaml": PROP.replace('title: "Rent', 'title: "租用 Rent')},
         ["audit", "p.yaml"], expect="ok01", real=True, env={"PYTHONIOENCODING": "ascii:strict"})
    case("locale: zh audit json on ascii", {"p.yaml": PROP.replace('title: "Rent', 'title: "租用 Rent')},
         ["audit", "p.yaml", "--format", "json", "--lang", "zh"], expect="ok01", real=True, env={"PYTHONIOENCODING": "ascii"})
    case("locale: LANG=zh_CN.UTF-8 default English", {"r.yaml": LORA}, ["recommend", "nosuch.yaml"], real=True,
         env={"LANG": "zh_CN.UTF-8", "LC_ALL": "zh_CN.UTF-8"}, has=["no such file"])
    case("env: stdin closed for recommend", {"r.yaml": LORA}, ["recommend", "r.yaml"], expect="ok01", real=True)


    # ---------------------------------------------------------------- a used card's own fields
    for name, card, has in [
        ("card: smi path with NUL", "{serial: '1', nvidia_smi: \"a\\0b.xml\"}", ["\\x00"]),
        ("card: smi path 5000 chars", "{serial: '1', nvidia_smi: '" + "x" * 5000 + "'}", ["nvidia_smi"]),
        ("card: serial 10000 chars", "{serial: '" + "x" * 10000 + "'}", ["serial"]),
        ("card: fan sample -5", "{serial: '1', fan_speed_percent: [-5, 30]}", ["(got -5)"]),
        ("card: power sample 1e300", "{serial: '1', power_under_load_w: [1e300, 300]}", ["5000 W"]),
        ("card: made in 2030", "{serial: '1', manufactured: 2030-01}", ["future"]),
        ("card: bought before made", "{serial: '1', manufactured: 2023-05, purchased: 2021-01}", ["before"]),
        ("card: smi a directory", "{serial: '1', nvidia_smi: d}", ["regular file"]),
        ("card: smi empty name", "{serial: '1', nvidia_smi: ''}", ["nvidia_smi"]),
        ("card: smi a list", "{serial: '1', nvidia_smi: [a]}", ["nvidia_smi"]),
    ]:
        case(name, {"p.yaml": USED.replace("{serial: '1', nvidia_smi: r.xml}", card), "d/x": ""}, ["audit", "p.yaml"],
             has=has, check=lambda r: r.stderr.count("(got") <= 1 and "{" not in r.stderr)


    # ---------------------------------------------------------------- policy values without a maximum
    for pol in ("price_max_age_days", "value_of_a_day_usd", "datacenter_min_gpus", "slow_network_gb_s",
                "used_card_retired_pages_blocker"):
        case(f"kb: policy {pol} 1e300", {"r.yaml": LORA, "kb/policy.yaml": f"{pol}: 1e300\n"},
             ["recommend", "r.yaml", "--knowledge", "kb"], has=["out of range"])


    # ---------------------------------------------------------------- more plan fields
    for name, path, value, has in [
        ("plan+: owned count 10**6", "owned", [{"gpu": "RTX 4090", "count": 10**6, "hosting": "office"}], ["count"]),
        ("plan+: horizon '12 months'", "horizon_months", "12 months", ["horizon_months"]),
        ("plan+: budget text no currency", "constraints", {"budget_total_usd": "lots"}, ["budget_total_usd"]),
        ("plan+: budget 1e300", "constraints", {"budget_total_usd": 1e300}, ["budget_total_usd"]),
        ("plan+: owned servers 0", "owned", [{"gpu": "RTX 4090", "count": 8, "servers": 0, "hosting": "office"}],
         ["servers"]),
        ("plan+: owned a string", "owned", "8 x 4090", ["owned"]),
        ("plan+: horizon 010", "horizon_months", "RAW", None),
    ]:
        if value == "RAW":
            case(name, {"plan.yaml": PLAN.replace("horizon_months: 12", "horizon_months: 010")},
                 ["plan", "plan.yaml", "--format", "json"], expect="ok", check=lambda r: '"horizon_months": 10' in r.stdout
                 or "10" in r.stdout)
            continue
        case(name, {"plan.yaml": patched(path, value, _plan)}, ["plan", "plan.yaml"], has=has)
    for name, text, has in [
        ("plan+: targets unknown key", wl(1, targets={"requests_per_sec": 2}), ["did you mean"]),
        ("plan+: cadence per_month 0", wl(0, cadence={"per_month": 0}), ["per_month"]),
        ("plan+: cadence per_month 10**6", wl(0, cadence={"per_month": 10**6}), ["per_month"]),
        ("plan+: workload task misspelt", wl(0, workload={"task": "finetunee", "model": "llama-3.1-8b"}),
         ["did you mean finetune"]),
    ]:
        case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], has=has)
