"""gpuhours64: "GPU-hours billed" counted the job's GPUs where the rental bills more (product64's leftover,
tests/data/validation/README.md 'gpuhours64').

A rental that bills more GPUs than the configuration uses (CoreWeave's GB200 NVL72 in whole racks of 72: 100 GPUs
billed as 144; a listed instance rented whole: 2 A100s of a p4de.24xlarge pay for its 8) showed the timeline's
``gpu_hours`` (billed hours x the job's GPUs: 28,374 for 100 GB200) as "GPU-hours billed" beside a rent line that
bills 144 GPUs (40,859 GPU-hours, $429,019 / $10.50). The timeline keeps ``gpu_hours`` as contract v3 defines it and
adds the rental's ``billed_gpus`` / ``billed_gpu_hours``; every report names the GPUs of each figure. Each test here
fails on the session base (4210086b): the keys and the labels did not exist.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml

from gpuwise import ledger as L
from gpuwise.render import money_view as MV
from gpuwise.render.fmt import Fmt

from .clirun import ROOT
from .clirun import gpuwise as cli

# knowledge/clouds.yaml: CoreWeave's GB200 NVL72 at $10.50 a GPU-hour, rented in whole racks of 72 (step_gpus 72,
# docs.coreweave.com/docs/platform/instances/gb200): 100 GPUs are billed as two racks, 144
GB200_RATE, RACK = 10.50, 72
GB200_100 = ROOT / "tests/data/product63/audit-gb200-100.yaml"
# knowledge/clouds.yaml: an AWS p4de.24xlarge holds 8 A100 80GB and is rented whole, per instance-hour (AWS EC2
# accelerated-computing instance specifications); the proposal's own price, $5.12 a GPU-hour (as tests/test_review48)
P4DE_GPUS, P4DE_QUOTE = 8, 5.12
P4DE = {"title": "LoRA 8B on two A100s of a p4de",
        "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 2048,
                     "train_tokens": 2.0e8},
        "hardware": {"gpu": "A100-80G", "count": 2},
        "acquisition": {"mode": "rent", "provider": "aws", "instance": "p4de.24xlarge", "hourly_usd": P4DE_QUOTE}}


def _run(*args: str, cwd=ROOT) -> str:
    r = cli(*args, cwd=cwd)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


def _audit(path, *extra: str, cwd=ROOT) -> str:
    return _run("audit", str(path), *extra, cwd=cwd)


def _p4de(tmp_path, **acq) -> str:
    doc = {**P4DE, "acquisition": {**P4DE["acquisition"], **acq}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    return "p.yaml"


def _rent_hours(led: dict) -> float:
    """The hours the rent and start-up lines bill, from their own inputs."""
    return sum(ln["inputs"]["hours"] for ln in led["lines"] if ln["kind"] in ("rent", "setup"))


# ---------------------------------------------------------------- the GB200 example: 100 used, 144 billed
def test_gb200_timeline_counts_the_racks_the_rent_line_bills():
    d = json.loads(_audit(GB200_100, "--format", "json"))
    p = d["proposed"]
    tl, led = p["timeline"], p["ledger"]
    [rent] = [ln for ln in led["lines"] if ln["kind"] == "rent"]
    h = tl["billed_hours"]
    # 100 GPUs in racks of 72: ceil(100 / 72) = 2 racks, 144 GPUs, the rent line's own gpus_paid
    assert tl["gpus"] == 100 and tl["billed_gpus"] == 2 * RACK == rent["inputs"]["gpus_paid"] == 144
    assert h == pytest.approx(_rent_hours(led), rel=1e-12)  # 283.49 h run + 0.25 h start-up
    assert tl["gpu_hours"] == pytest.approx(100 * h, rel=1e-12)  # contract v3, unchanged: 100 x 283.74 = 28,374
    assert tl["billed_gpu_hours"] == pytest.approx(144 * h, rel=1e-12)  # 144 x 283.74 = 40,859
    assert round(tl["gpu_hours"]) == 28_374 and round(tl["billed_gpu_hours"]) == 40_859
    # what the bill is for: 40,859 GPU-hours x $10.50 = $429,019, the ledger's total (no fee, no discount here)
    assert tl["billed_gpu_hours"] * GB200_RATE == pytest.approx(led["total"], rel=1e-9)
    assert tl["gpu_hours"] * GB200_RATE < led["total"] - 100_000  # the job's 28,374 do not make the bill
    # the bought alternative (8 B300): nothing bills its GPUs
    alt = d["alternative"]
    assert alt["acquisition"] == "buy"
    assert alt["timeline"]["billed_gpus"] is None and alt["timeline"]["billed_gpu_hours"] is None


@pytest.mark.parametrize("fmt, used, billed", [
    ("text", r"GPU-hours on the 100 GPUs used +28,374\n", r"GPU-hours billed for 144 GPUs +40,859\n"),
    ("md", r"\| GPU-hours on the 100 GPUs used \| 28,374 \|", r"\| GPU-hours billed for 144 GPUs \| 40,859 \|"),
    ("html", r">GPU-hours on the 100 GPUs used</th><td[^>]*>28,374<",
     r">GPU-hours billed for 144 GPUs</th><td[^>]*>40,859<"),
])
def test_gb200_time_table_names_the_gpus_of_each_figure(fmt, used, billed):
    out = _audit(GB200_100, "--detail", "full", "--format", fmt)
    assert re.search(used, out) and re.search(billed, out), fmt
    assert not re.search(r"GPU-hours billed\W+28,374", out)  # before: 'GPU-hours billed   28,374'


def test_gb200_time_table_in_chinese():
    out = _audit(GB200_100, "--detail", "full", "--lang", "zh")
    assert "所用 100 块 GPU 的 GPU 小时" in out and "按 144 块 GPU 计费的 GPU 小时" in out
    assert "28,374" in out and "40,859" in out


def test_gb200_estimate_rows_agree_with_its_rent_line():
    # the 70B pretrain of tests/data/review60 (rent, CoreWeave) estimated on 100 GB200: billed as 144
    req = str(ROOT / "tests/data/review60/recommend-gb200-70b-cp.yaml")
    g = json.loads(_run("estimate", req, "--gpu", "gb200", "--gpus", "100", "--format", "json"))["gpu"]
    tl = g["timeline"]
    assert (tl["gpus"], tl["billed_gpus"]) == (100, 144)
    assert tl["billed_gpu_hours"] * GB200_RATE == pytest.approx(g["cost_usd"], rel=1e-9)
    text = _run("estimate", req, "--gpu", "gb200", "--gpus", "100")
    assert f"GPU-hours on the 100 GPUs used  {tl['gpu_hours']:,.0f}\n" in text
    assert f"GPU-hours billed for 144 GPUs   {tl['billed_gpu_hours']:,.0f}\n" in text
    assert "GPU-hours billed " not in text.replace("GPU-hours billed for", "")


def test_recommend_says_both_in_the_wall_clock_row():
    # tests/data/review60: max_gpus 64, answered 64 GB200 billed as one rack of 72 (product64)
    src = ROOT / "tests/data/review60/recommend-gb200-70b-cp.yaml"
    rec = json.loads(_run("recommend", str(src), "--format", "json"))["recommendation"]
    tl = rec["timeline"]
    assert (rec["count"], tl["gpus"], tl["billed_gpus"]) == (64, 64, RACK)
    assert rec["gpu_hours"] == tl["gpu_hours"] == pytest.approx(64 * tl["billed_hours"], rel=1e-12)
    assert tl["billed_gpu_hours"] == pytest.approx(72 * tl["billed_hours"], rel=1e-12)
    assert tl["billed_gpu_hours"] * GB200_RATE == pytest.approx(rec["total_cost_usd"], rel=1e-9)  # $335,070
    text = " ".join(_run("recommend", str(src), "--detail", "full").split())
    days = tl["wall_hours"] / 24
    assert (f"Wall-clock time {days:.1f} days ({tl['gpu_hours']:,.0f} GPU-hours on the 64 GPUs used; "
            f"{tl['billed_gpu_hours']:,.0f} GPU-hours billed for 72 GPUs)") in text


# ---------------------------------------------------------------- the p4de example: 2 used, the instance's 8 billed
def test_p4de_two_a100s_bill_the_instances_eight(tmp_path):
    name = _p4de(tmp_path)
    d = json.loads(_audit(name, "--format", "json", cwd=tmp_path))
    tl, led = d["proposed"]["timeline"], d["proposed"]["ledger"]
    h = tl["billed_hours"]
    assert (tl["gpus"], tl["billed_gpus"]) == (2, P4DE_GPUS)
    assert h == pytest.approx(_rent_hours(led), rel=1e-12)
    assert tl["gpu_hours"] == pytest.approx(2 * h, rel=1e-12)
    assert tl["billed_gpu_hours"] == pytest.approx(8 * h, rel=1e-12)
    # 8 x $5.12 = $40.96 an instance-hour over the billed hours: the rent and start-up lines together
    assert tl["billed_gpu_hours"] * P4DE_QUOTE == pytest.approx(led["total"], rel=1e-9)
    text = _audit(name, "--detail", "full", cwd=tmp_path)
    assert re.search(rf"GPU-hours on the 2 GPUs used +{tl['gpu_hours']:.1f}\n", text)
    assert re.search(rf"GPU-hours billed for 8 GPUs +{tl['billed_gpu_hours']:.1f}\n", text)


def test_p4de_committed_month_bills_eight_gpus_for_the_whole_term(tmp_path):
    # a 1-month commitment bills 730 h whatever the job uses: 2 x 730 = 1,460 GPU-hours on the GPUs used,
    # 8 x 730 = 5,840 billed, x $5.12 = $29,900.80 (the rent line 8 x 5.12 x (730 - 0.25) + the start-up
    # 8 x 5.12 x 0.25)
    name = _p4de(tmp_path, months=1)
    d = json.loads(_audit(name, "--format", "json", cwd=tmp_path))
    tl, led = d["proposed"]["timeline"], d["proposed"]["ledger"]
    assert tl["billed_hours"] == pytest.approx(730.0)
    assert tl["gpu_hours"] == pytest.approx(1_460.0) and tl["billed_gpu_hours"] == pytest.approx(5_840.0)
    assert led["total"] == pytest.approx(5_840.0 * P4DE_QUOTE) == pytest.approx(29_900.80)
    text = _audit(name, "--detail", "full", cwd=tmp_path)
    assert "GPU-hours billed on the 2 GPUs used" in text and "1,460" in text  # review62: billed, not run
    assert "GPU-hours billed for 8 GPUs" in text and "5,840" in text


# ---------------------------------------------------------------- the words, and what must stay
def _tl(gpus: int, billed_gpus: int | None, billed_hours: float | None = None) -> L.Timeline:
    return L.timeline([("compute", 10.0), ("start-up and wind-down", 0.25)], gpus, billed_hours, billed_gpus)


def test_time_row_words_each_figure_with_its_gpus():
    f = Fmt("en")
    # 10.25 h x 2 = 20.5 GPU-hours used; x 8 = 82 billed
    assert MV.time_row(f, f._, _tl(2, 8)) == ("10.25 hours (20.5 GPU-hours on the 2 GPUs used; 82 GPU-hours billed "
                                              "for 8 GPUs)")
    # one GPU of an 8-GPU instance, committed 730 h: 730 used-GPU-hours, 5,840 billed
    row = MV.time_row(f, f._, _tl(1, 8, 730.0))
    assert row.endswith(", 30.4 days billed (730 GPU-hours on the 1 GPU used; 5,840 GPU-hours billed for 8 GPUs)")
    zh = Fmt("zh")
    assert "所用 2 块 GPU 的 20.5 GPU 小时；按 8 块 GPU 计费 82 GPU 小时" in MV.time_row(zh, zh._, _tl(2, 8))


def test_a_rental_billing_its_own_gpus_and_a_purchase_keep_one_figure():
    f = Fmt("en")
    same = _tl(8, 8)  # 8 GPUs of an 8-GPU instance: one figure, 10.25 x 8 = 82
    assert (same.billed_gpus, same.billed_gpu_hours, same.bills_more_gpus) == (8, 82.0, False)
    assert MV.gpu_hours_rows(f, f._, same) == [["GPU-hours billed", "82"]]
    assert MV.time_row(f, f._, same) == "10.25 hours (82 GPU-hours billed)"
    more = _tl(2, 8)
    assert more.unbilled().billed_gpus is None and more.unbilled().billed_gpu_hours is None
    assert MV.gpu_hours_rows(f, f._, more, bought=True) == [["GPU-hours of use", "20.5"]]
    assert _tl(2, None).billed_gpu_hours is None


# ---------------------------------------------------------------- the plan: "Rent GB200 for 3 GPU-hours ($2,133)"
PLAN_GB200 = {"horizon_months": 2,
              "workloads": [{"name": "tune", "cadence": {"at_month": 1},
                             "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                          "seq_len": 2048, "train_tokens": 2.0e8}}],
              "constraints": {"acquisition": "rent", "gpus": ["gb200"]}}


def test_plan_says_the_gpu_hours_its_rack_bills(tmp_path):
    # one LoRA run on 1 GB200 (max_gpus 64 keeps it off the rack's 72): the rent line pays for a whole rack of 72
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(PLAN_GB200), encoding="utf-8")
    d = json.loads(_run("plan", "plan.yaml", "--format", "json", cwd=tmp_path))
    [rent] = d["answer"]["rent"]
    [line] = [ln for ln in d["lines"] if ln["kind"] == "rent"]
    i = line["inputs"]
    assert i["gpus_paid"] == RACK and i["usd_per_hour"] == pytest.approx(RACK * GB200_RATE)  # $756 a rack-hour
    # the work: 1 GPU x 2.82 h; the bill: 72 x 2.82 h = 203 GPU-hours x $10.50 = $2,133
    assert rent["gpu_hours"] == pytest.approx(1 * i["wall_hours"] * i["runs"], abs=0.05)
    assert rent["billed_gpu_hours"] == pytest.approx(RACK * i["wall_hours"] * i["runs"], abs=0.5)
    assert rent["billed_gpu_hours"] * GB200_RATE == pytest.approx(rent["amount"], rel=1e-3)
    text = " ".join(_run("plan", "plan.yaml", cwd=tmp_path).split())
    # GPU-hours as reports write them, whole from 10 up, else to the hundredth (review64: 2.82, not 3)
    work = f"{rent['gpu_hours']:,.0f}" if rent["gpu_hours"] >= 10 else f"{rent['gpu_hours']:.2f}"
    # (product66: the rack it rents named as recommend names an offer sold whole, 1 x 72 GPUs)
    assert (f"Rent NVIDIA GB200 (per Blackwell GPU, NVL72) as 1 × {RACK}-GPU whole rental from coreweave for {work} "
            f"GPU-hours of work in month 1, billed for {rent['billed_gpu_hours']:,.0f} GPU-hours "
            f"(${rent['amount']:,.0f}): ") in text  # product65
    zh = " ".join(_run("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path).split())
    assert f"计费 {rent['billed_gpu_hours']:,.0f} GPU 小时" in zh


def test_plan_rental_billing_its_own_gpus_keeps_one_figure():
    # tests/data/review60: two 2-GPU RTX 4090 runs of 394.8 h rented at RunPod, 2 GPUs paid each: 2 x 394.8 = 789.6
    d = json.loads(_run("plan", str(ROOT / "tests/data/review60/plan-two-wide-runs.yaml"), "--format", "json"))
    [rent] = d["answer"]["rent"]
    assert rent["gpu_hours"] == rent["billed_gpu_hours"] == pytest.approx(789.6)
    text = _run("plan", str(ROOT / "tests/data/review60/plan-two-wide-runs.yaml"))
    assert "GPU-hours of work" not in text and "billed for" not in text
