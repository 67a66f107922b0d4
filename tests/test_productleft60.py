"""Branch productleft60 (session 45): four product leftovers of session 44's note, each test failing before its fix.

1. Knowledge strings had no length limit: a 300,000-character ``source``, ``name`` or ``notes`` in a --knowledge
   overlay loaded and printed whole in every report that cited it. Now a source, note, rationale, reason or
   description holds at most 20,000 characters (the bundled files' longest, a runtime.yaml source, 9,383) and any
   other string at most 500 (the longest, a prices.yaml export rule, 199), refused with the file, entry and field.
2. The plan questions (`gpuwise ask`, a plan) asked a service's request rate and a max TTFT in milliseconds but no
   p95 target, which the plan reads from the workload (docs/formats.md `p95_ttft_s`, `p95_tpot_s`): now asked after
   the rate, in seconds, a number with another unit refused offering it in seconds ('500ms' -> write 0.5), saved in
   the workload and shown in the summary; the max TTFT question after a p95 target says it bounds the estimate.
3. LIC-GEFORCE-DATACENTER fired on 8 used RTX 3090s in two 4-card workstations stated to run in an office (any of
   several machines, 8 cards or a facility figure counted as a data centre). NVIDIA's GeForce licence
   (nvidia.com/drivers/geforce-license, 2.1.3 'No Datacenter Deployment') excludes data-center deployment and does
   not define one; the rule now reads where the machines run: colocation or a data center stated; with no hosting
   stated, rack servers (several, or one of policy datacenter_min_gpus = 8 GPUs), not desktop workstations.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from .clirun import ROOT
from .clirun import gpuwise as cli


def _overlay(tmp_path: Path, name: str, body: str) -> str:
    kb = tmp_path / "kb"
    kb.mkdir(exist_ok=True)
    (kb / name).write_text(body, encoding="utf-8")
    return str(kb)


# ----------------------------------------------------------------------------- 1. knowledge strings' lengths
@pytest.mark.parametrize(("name", "body", "said"), [
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    name: '%s'\n" % ("x" * 300_000),
     "gpus.yaml: gpus[0] (id rtx-4090).name: must have at most 500 characters (300,000 given)"),
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    notes: '%s'\n" % ("x" * 300_000),
     "gpus.yaml: gpus[0] (id rtx-4090).notes: must have at most 20000 characters (300,000 given)"),
    ("models.yaml", "models:\n  - id: llama-3.1-8b\n    source: '%s'\n" % ("x" * 300_000),
     "models.yaml: models[0] (id llama-3.1-8b).source: must have at most 20000 characters (300,000 given)"),
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    aliases: ['%s']\n" % ("x" * 600),
     "gpus.yaml: gpus[0] (id rtx-4090).aliases[0]: must have at most 500 characters (600 given)"),
])
def test_an_over_long_knowledge_string_is_refused_naming_its_field(tmp_path, name, body, said):
    """Before: the overlay loaded, exit 0, and the 300,000 characters were the GPU's name in `gpuwise gpus`."""
    r = cli("gpus", "--knowledge", _overlay(tmp_path, name, body), cwd=tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 2, out[:500]
    assert said in out and len(out) < 1_000, out[:500]


def test_every_bundled_knowledge_string_is_within_its_limit():
    """The limits leave room: every string of the bundled files is within them (the load validates each)."""
    import yaml

    from gpuwise.knowledge import load
    from gpuwise.knowledge.schema.base import PROSE_MAX, TEXT_MAX

    assert load() is not None
    longest: list[int] = []

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                longest.append(len(str(k)))
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
        elif isinstance(o, str):
            longest.append(len(o))

    for f in (Path(__file__).parents[1] / "knowledge").glob("*.yaml"):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    assert max(longest) <= PROSE_MAX and TEXT_MAX >= 199


# ----------------------------------------------------------------------------- 3. GeForce cards and the data centre
USED_3090 = ROOT / "tests" / "data" / "review55" / "proposals" / "d-buy-used-8x3090.yaml"  # 2 x 4 in an office
GEFORCE_16 = ROOT / "tests" / "rules" / "LIC-GEFORCE-DATACENTER" / "input.yaml"  # 16 RTX 4090 in 2 servers


def _licence(tmp_path: Path, src: Path, **change) -> dict | None:
    doc = yaml.safe_load(src.read_text(encoding="utf-8"))
    for key, value in change.items():
        part, field = key.split("__")
        if value is None:
            doc[part].pop(field, None)
        else:
            doc[part][field] = value
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    r = cli("audit", str(tmp_path / "p.yaml"), "--format", "json", cwd=tmp_path)
    found = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "LIC-GEFORCE-DATACENTER"]
    return found[0] if found else None


@pytest.mark.parametrize(("src", "change", "fires"), [
    (USED_3090, {}, False),  # two workstations stated to run in an office: fired before
    (USED_3090, {"constraints__hosting": None}, False),  # no hosting stated, bought as 2 desktop workstations
    (USED_3090, {"constraints__hosting": "colocation"}, True),  # the same machines in a colocation hall
    (USED_3090, {"constraints__hosting": "datacenter"}, True),
    (GEFORCE_16, {}, True),  # 16 cards in 2 rack servers, no hosting stated
    (GEFORCE_16, {"constraints__hosting": "office"}, False),  # the same 2 servers stated in an office: fired before
    (GEFORCE_16, {"hardware__count": 8, "hardware__nodes": 1, "facility__power_kw_available": None}, True),
    (GEFORCE_16, {"hardware__count": 8, "hardware__nodes": 1, "constraints__hosting": "office"}, False),
])
def test_geforce_data_centre_reads_where_the_machines_run(tmp_path, src, change, fires):
    f = _licence(tmp_path, src, **change)
    assert (f is not None) == fires, f
    if f is not None:
        assert "data-center deployment" in f["message"]


# ----------------------------------------------------------------------------- 2. the plan questions' p95 targets
def test_the_plan_questions_ask_a_services_p95_targets(tmp_path, capsys):
    """Before: the question after the rate was the max TTFT in milliseconds, where '500ms' was offered as 500 and
    no p95 target reached the file."""
    from .test_plan_ask import ENTER, FINETUNE, LIMITS, NO, OWNED, PLAN, YES, drive, text

    service = [ENTER, text("llama-3.1-8b"), ENTER, ENTER, ENTER, text("0.5"),
               text("500ms"), text("0.5"),  # p95 TTFT: refused in ms, then 0.5 s
               text("50ms"), text("0.05"),  # p95 TPOT: refused in ms, then 0.05 s
               text("?"), ENTER, ENTER, text("10%"), ENTER, text("chat")]  # max TTFT: its help, then none
    keys = [PLAN, text("6"), *OWNED, *service, YES, *FINETUNE, NO, *LIMITS, "\x1b[B" + ENTER]  # write and quit
    assert drive(keys, tmp_path / "p.yaml") == 0
    out = capsys.readouterr().out
    assert "'500ms': p95_ttft_s is a number of seconds: write 0.5" in out, out[-3000:]
    assert "'50ms': p95_tpot_s is a number of seconds: write 0.05" in out
    flat = " ".join(out.split())
    assert "the p95 target already bounds the wait 95% of requests see; this bounds the estimate" in flat
    data = yaml.safe_load((tmp_path / "p.yaml").read_text(encoding="utf-8"))
    chat = data["workloads"][0]
    assert (chat["workload"]["p95_ttft_s"], chat["workload"]["p95_tpot_s"]) == (0.5, 0.05)
    assert chat["targets"] == {"requests_per_s": 0.5}


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["p95 first token within 0.5 s", "p95 time per output token within 0.05 s"]),
    ("zh", ["p95 首词元时间不超过 0.5 秒", "p95 每输出词元时间不超过 0.05 秒"]),
])
def test_the_plan_summary_shows_the_p95_targets(lang, said):
    from rich.console import Console

    from gpuwise.ask.plan_ask import PlanAsk
    from gpuwise.knowledge import load

    plan = {"horizon_months": 6, "workloads": [
        {"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b", "p95_ttft_s": 0.5,
                                      "p95_tpot_s": 0.05},
         "cadence": {"continuous": True}, "targets": {"requests_per_s": 2.0}}]}
    console = Console(record=True, width=300)
    ask = PlanAsk(load(), Path("plan.yaml"), Path("plan-report.md"), knowledge=None, lang=lang, currency="USD",
                  prompter=None, console=console)
    console.print(ask.summary(plan))
    text = console.export_text()
    assert all(s in text for s in said), text
