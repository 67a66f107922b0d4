"""Hostile round 51's fixed failures (benchmarks/hostile_round51.py), each failing before its fix:

* a plan's month written as the calendar's ('June', '2027-06', 'March 2027', a YAML date, 'month 4') was pydantic's
  'unable to parse string as an integer': its number in the plan offered, month 1 being this month
  (dates.plan_month_text), or said to be before it;
* a rental priced at the whole instance's hourly price (Lambda's 8 x H100 at 8 x its GPU rate) was audited 8 times
  over, the ratio warning not saying why: FEE-PRICE-INSTANCE-RATE says it reads as the instance's price;
* framework TGI / lmdeploy listed the engines: named as engines gpuwise has no figures for; koboldcpp offered
  llama.cpp;
* a list where one value goes was pydantic's 'Input should be a valid integer (got [8])': said as a list;
* a CNY price in a USD proposal ('28 CNY/h', '28元/小时') was offered its number as if in USD: both currencies named;
  ``hourly_cny`` offered hourly_usd with constraints.currency CNY;
* a count after the GPU's name ('H100x8', 'RTX 4090 ×2') offered other GPUs: the GPU and the count;
* hours_per_day '24/7' / '9-5' and a Unicode minus were pydantic's words: the number offered;
* JSON with // comments and a full-width colon were the parser's words: named.

The guards beside them (passing before too): a quoted month number is planned, a rental at the list rate draws no
price finding, 8.00 at Lambda is above its list and no instance's price, a CNY price in a CNY proposal is offered its
number, 'MI300X' is a GPU, '8-10' hours is a range, a full-width colon in a value elsewhere is not the fault.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
import yaml

from gpuwise.inputs import dates

from .clirun import ROOT
from .clirun import gpuwise as cli

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000,
          "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
H100X8 = {"gpu": "H100 SXM", "count": 8, "nodes": 1}


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def _write(tmp_path, name: str, doc) -> None:
    (tmp_path / name).write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, allow_unicode=True),
                                 encoding="utf-8")


def _plan() -> dict:
    return yaml.safe_load((ROOT / "examples" / "plan-team-4090.yaml").read_text())


# ---------------------------------------------------------------- a plan's month as a calendar month
@pytest.mark.parametrize("given, meant", [
    # month 1 is December 2026: Dec 1, Jan 2, Feb 3, Mar 4, Apr 5, May 6, Jun 7 (counted by hand)
    ("June", 7), ("jun", 7), ("6月", 7), ("2027-06", 7), ("March 2027", 4), (dt.date(2027, 3, 15), 4),
    ("December", 1), ("2026-12", 1), ("month 4", 4), ("4th", 4), ("M4", 4), ("第4个月", 4)])
def test_a_calendar_month_is_offered_its_number_in_the_plan(monkeypatch, given, meant):
    monkeypatch.setattr(dates, "this_month", lambda: dt.date(2026, 12, 1))
    with pytest.raises(ValueError, match=rf"is at_month: {meant}$"):
        dates.plan_month_text(given, "at_month")


def test_a_month_before_this_one_is_before_the_plan(monkeypatch):
    monkeypatch.setattr(dates, "this_month", lambda: dt.date(2026, 12, 1))
    with pytest.raises(ValueError, match=r"'2026-10' is before the plan's first month: .* this month \(2026-12\)"):
        dates.plan_month_text("2026-10", "at_month")


@pytest.mark.parametrize("given", [4, "4", "soon", None])
def test_a_number_and_other_text_pass_to_the_field(given):
    assert dates.plan_month_text(given, "at_month") == given


def test_at_month_june_in_a_plan_file(tmp_path):
    today = dt.date.today()
    meant = (6 - today.month) % 12 + 1  # June's number, counting this month as 1
    plan = _plan()
    plan["workloads"][2]["cadence"] = {"at_month": "June"}
    _write(tmp_path, "plan.yaml", plan)
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "plan.yaml: workloads[2].cadence.at_month:" in err and f"'June' is at_month: {meant}" in err
    plan["workloads"][0]["cadence"] = {"per_month": 2, "start_month": "March"}
    plan["workloads"][2]["cadence"] = {"at_month": "4"}
    _write(tmp_path, "plan.yaml", plan)
    assert f"'March' is start_month: {(3 - today.month) % 12 + 1}" in _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


# ---------------------------------------------------------------- a rental priced per instance
def test_instance_reading_by_hand():
    from gpuwise.estimators.offers import instance_reading

    # 8 x $4.29 = $34.32: read over 8 GPUs, $4.29 a GPU-hour; $55.04 over p5.48xlarge's 8: $6.88
    assert instance_reading(34.32, 4.29, [8, 1]) == pytest.approx((8, 4.29))
    assert instance_reading(55.04, 6.88, [8, 8]) == pytest.approx((8, 6.88))
    # of 4 and 8, the count nearer the listed rate: 34.32 / 4 = 8.58 is 2x 4.29, 34.32 / 8 = 4.29 is 1x
    assert instance_reading(34.32, 4.29, [4, 8])[0] == 8
    assert instance_reading(10.0, 4.29, [1]) is None and instance_reading(10.0, -1.0, [8]) is None


def _audit(tmp_path, **acq) -> dict:
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": acq.pop("hardware", H100X8),
                                "acquisition": {"mode": "rent", "provider": "lambda", **acq}})
    r = cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return {f["rule"]: f for f in json.loads(r.stdout)["findings"]}


def test_a_whole_instances_price_is_said(tmp_path):
    listed = _audit(tmp_path, hourly_usd=4.29)
    assert "FEE-PRICE-INSTANCE-RATE" not in listed and "FEE-PRICE-ABOVE-LIST" not in listed
    found = _audit(tmp_path, hourly_usd=8 * 4.29)  # Lambda's listed H100 SXM rate (clouds.yaml) x 8 GPUs
    f = found["FEE-PRICE-INSTANCE-RATE"]
    assert f["severity"] == "warning"
    assert f["evidence"]["instance_gpus"] == 8
    assert f["evidence"]["instance_hourly_usd"] == pytest.approx(8 * 4.29 / 8)
    # above the dearest H100 SXM GPU-hour known, half again over (policy hourly_price_ratio_warning 1.5)
    assert f["evidence"]["hourly_usd"] > 1.5 * f["evidence"]["dearest_hourly_usd"] > 0
    assert "hourly_usd is $4.29, the price of one GPU-hour" in f["fix"]
    # 16 GPUs on 2 nodes at one node's price: the 8 GPUs of a node
    assert found["FEE-PRICE-INSTANCE-RATE"]["evidence"]["instance_gpus"] == _audit(
        tmp_path, hourly_usd=8 * 4.29, hardware={**H100X8, "count": 16, "nodes": 2})[
        "FEE-PRICE-INSTANCE-RATE"]["evidence"]["instance_gpus"]


def test_a_price_above_the_list_that_is_no_instances_stays_a_mark_up(tmp_path):
    found = _audit(tmp_path, hourly_usd=8.0)  # 8.00 / 8 = 1.00, below 4.29 / 1.5: no instance's price
    assert "FEE-PRICE-ABOVE-LIST" in found and "FEE-PRICE-INSTANCE-RATE" not in found


# ---------------------------------------------------------------- engines, lists, currencies
@pytest.mark.parametrize("given, name", [("TGI", "Hugging Face Text Generation Inference (TGI)"),
                                         ("text-generation-inference", "Hugging Face Text Generation Inference (TGI)"),
                                         ("lmdeploy", "LMDeploy")])
def test_an_engine_not_modelled_is_named(tmp_path, given, name):
    _write(tmp_path, "r.yaml", {"workload": {**SERVE8, "framework": given}})
    err = _one_line(cli(*EST, cwd=tmp_path))
    assert f"workload.framework: '{given}' is {name}, a serving engine gpuwise has no figures for" in err
    assert "leave framework out (vllm)" in err


def test_koboldcpp_is_offered_llama_cpp(tmp_path):
    _write(tmp_path, "r.yaml", {"workload": {**SERVE8, "framework": "koboldcpp"}})
    assert "did you mean llama.cpp?" in _one_line(cli(*EST, cwd=tmp_path))


@pytest.mark.parametrize("field, value, said", [
    ("prompt_tokens", [1000, 2000], "[1000, 2000] is a list of 2, and one value goes here: give one"),
    ("model", ["llama-3.1-8b"], "['llama-3.1-8b'] is a list, and one value goes here: write llama-3.1-8b"),
    ("precision", ["bf16", "fp8"], "is a list of 2, and one value goes here")])
def test_a_list_where_one_value_goes(tmp_path, field, value, said):
    _write(tmp_path, "r.yaml", {"workload": {**SERVE8, field: value}})
    err = _one_line(cli(*EST, cwd=tmp_path))
    assert f"workload.{field}: " in err and said in err and "Input should be" not in err


@pytest.mark.parametrize("given", ["28 CNY/h", "28 RMB", "28元/小时"])
def test_a_cny_price_in_a_usd_proposal_names_both(tmp_path, given):
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": H100X8,
                                "acquisition": {"mode": "rent", "provider": "lambda", "hourly_usd": given}})
    err = _one_line(cli("audit", "p.yaml", cwd=tmp_path))
    assert f"acquisition.hourly_usd: '{given}' is in CNY but constraints.currency is USD" in err
    assert "write 28" not in err


def test_a_cny_price_in_a_cny_proposal_is_offered_its_number(tmp_path):
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": H100X8, "constraints": {"currency": "CNY"},
                                "acquisition": {"mode": "rent", "provider": "lambda", "hourly_usd": "28 CNY/h"}})
    assert "write 28" in _one_line(cli("audit", "p.yaml", cwd=tmp_path))


def test_a_cny_field_is_offered_the_usd_field_with_the_currency(tmp_path):
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": H100X8,
                                "acquisition": {"mode": "rent", "provider": "lambda", "hourly_cny": 28}})
    assert "did you mean 'hourly_usd' with constraints.currency: CNY?" in _one_line(cli("audit", "p.yaml",
                                                                                       cwd=tmp_path))


# ---------------------------------------------------------------- a count after the name; hours; minus; text
@pytest.mark.parametrize("given, gpu, n", [("H100x8", "h100-80gb-sxm", 8), ("H100 x 8", "h100-80gb-sxm", 8),
                                           ("RTX 4090 ×2", "rtx-4090", 2)])
def test_a_count_after_the_gpus_name(tmp_path, given, gpu, n):
    _write(tmp_path, "r.yaml", {"workload": SERVE8})
    assert f"give --gpu {gpu} --gpus {n}" in _one_line(cli("estimate", "r.yaml", "--gpu", given, cwd=tmp_path))


def test_a_name_ending_in_x_is_still_a_gpu(tmp_path):
    _write(tmp_path, "r.yaml", {"workload": SERVE8})
    assert cli("estimate", "r.yaml", "--gpu", "MI300X", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize("given, meant", [("24/7", "24"), ("9-5", "8"), ("9am-5pm", "8"), ("09:00-17:00", "8"),
                                          ("22-6", "8")])  # 9 to 17 h; 22 h to 6 h past midnight: 8 hours
def test_hours_a_day_as_a_services_day(tmp_path, given, meant):
    plan = _plan()
    plan["workloads"][1]["cadence"]["hours_per_day"] = given
    _write(tmp_path, "plan.yaml", plan)
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert f"'{given}': hours_per_day is a number of hours: write {meant}" in err


def test_hours_8_to_10_stay_a_range(tmp_path):
    plan = _plan()
    plan["workloads"][1]["cadence"]["hours_per_day"] = "8-10"
    _write(tmp_path, "plan.yaml", plan)
    assert "is a range" in _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


def test_a_unicode_minus_is_offered_ascii(tmp_path):
    plan = _plan()
    plan["workloads"][1]["cadence"]["growth_per_month"] = "\u22120.05"
    _write(tmp_path, "plan.yaml", plan)
    assert "write -0.05" in _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


def test_json_comments_and_a_full_width_colon_are_named(tmp_path):
    _write(tmp_path, "r.json", '{"workload": {"task": "inference",\n  // the chat\n "model": "llama-3.1-8b"}}')
    assert "r.json: invalid YAML at line 2: a // or /* */ comment" in _one_line(
        cli("estimate", "r.json", "--gpu", "h100", cwd=tmp_path))
    _write(tmp_path, "r.yaml", "workload:\n  task: inference\n  model\uff1a llama-3.1-8b\n")
    assert "r.yaml: invalid YAML at line 3: a full-width colon" in _one_line(cli(*EST, cwd=tmp_path))


def test_a_full_width_colon_in_a_value_elsewhere_is_not_the_fault(tmp_path):
    # '方案：租用' is a title's text; the fault is line 4's key without its colon, which libyaml finds at line 5
    _write(tmp_path, "r.yaml", "title: 方案\uff1a租用\nworkload:\n  task: inference\n  model llama\n  x: 1\n")
    err = _one_line(cli(*EST, cwd=tmp_path))
    assert "full-width" not in err and "line 5" in err
