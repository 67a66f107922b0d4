"""Hostile round 45's fixed failures (benchmarks/hostile_round45.py), each failing before its fix: a number written
with its unit in a field whose name fixes the unit was refused in pydantic's words, 'Input should be a valid number,
unable to parse string as a number (got ...)', with nothing offered --

* RAM in GB, GiB or TB (``host_ram_gb: 80GB``, ``2 TB``, ``512 GiB``), a proposal's and a plan's owned servers';
* a price a unit with its currency (``hourly_usd: $2.50/h``, ``2.50 USD/hr``; ``electricity_usd_per_kwh:
  $0.15/kWh``, ``$0.15``; ``value_of_a_day_usd: $500/day``);
* a share as a percentage (``memory_fraction: 90%``, ``growth_per_month: 10%``, a used card's ``fan_speed_percent:
  ['90%']``);
* hours, days, weeks, months and years (``hours_per_day: 8h``, ``deadline_days: 2 weeks``, ``horizon_months: 1
  year``, ``acquisition.months: 6 months``) and runs a month (``per_month: 2/month``);
* tokens with a multiplier (``train_tokens: 2B``, ``seq_len: 4k``: both 4,096 and 4,000 offered);
* counts with their noun (``count: 8x``, ``max_gpus: 8 GPUs``, ``batch_size: 16 sequences``,
  ``concurrent_requests: 32 users``, ``owned[].servers: 2 servers``) and watts (``power_under_load_w: ['350W']``);
* a choice written as a phrase holding it or as its beginning had no close match: ``zero_stage: ZeRO-3`` (3),
  ``offload: CPU offload`` (cpu), ``hosting: colo`` (colocation);
* ``gradient_checkpointing: Full`` was pydantic's union refusal ('Input should be a valid boolean, unable to
  interpret input; or ...'), nothing offered: true is (false for 'none');
* on the command line, ``--gpus '8 GPUs'`` was 'not a whole number of GPUs; did you mean gpus?' -- the command
  ``gpus`` offered for a value.

The offered numbers are the unit's arithmetic: 512 GiB = 512 x 2^30 B = 549.755813888 GB; 2 TB = 2,000 GB; 2 weeks
= 14 days; 1 year = 12 months; 4k tokens = 4 x 1,024 = 4,096 (a context's k) or 4,000.
"""

from __future__ import annotations

import pytest
import yaml

from .clirun import gpuwise as cli

LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 1.0e8}
OFF13 = {"task": "finetune", "method": "full", "model": "llama-2-13b", "seq_len": 2048, "train_tokens": 1.0e8,
         "offload": "cpu", "zero_stage": 3}
SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16",
          "prompt_tokens": 1000, "output_tokens": 200}


def _write(tmp_path, name: str, doc) -> None:
    (tmp_path / name).write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "valid number" not in r.stderr and "valid integer" not in r.stderr, r.stderr
    return r.stderr


def _plan(workloads: list[dict], **more) -> dict:
    return {"horizon_months": 3, "workloads": workloads, **more}


def _lora(**over) -> dict:
    return {"name": "ft", "workload": LORA8, "cadence": {"per_month": 1}, **over}


def _serve(**cadence) -> dict:
    return {"name": "chat", "workload": SERVE8, "cadence": {"continuous": True, **cadence},
            "targets": {"requests_per_s": 1}}


def _prop(workload: dict, hardware: dict, acquisition: dict, **more) -> dict:
    return {"title": "t", "workload": workload, "hardware": hardware, "acquisition": acquisition, **more}


def _audit(tmp_path, doc, *more: str) -> str:
    _write(tmp_path, "p.yaml", doc)
    return _one_line(cli("audit", "p.yaml", *more, cwd=tmp_path))


def _plan_said(tmp_path, doc, *more: str) -> str:
    _write(tmp_path, "plan.yaml", doc)
    return _one_line(cli("plan", "plan.yaml", *more, cwd=tmp_path))


def _estimate(tmp_path, workload: dict) -> str:
    _write(tmp_path, "r.yaml", {"workload": workload})
    return _one_line(cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))


@pytest.mark.parametrize(("given", "meant"), [("80GB", "80"), ("2 TB", "2000"), ("512 GiB", "549.756"),
                                              ("1 TiB", "1099.51"), ("64 gb", "64")])
def test_ram_written_with_its_unit_is_offered_in_gb(tmp_path, given, meant):
    """512 GiB = 549.755813888 GB (6 significant figures: 549.756); 1 TiB = 1,099.511627776 GB."""
    said = f"'{given}': host_ram_gb is a number of gigabytes (GB): write {meant}"
    assert f"p.yaml: hardware.host_ram_gb: {said}" in _audit(
        tmp_path, _prop(OFF13, {"gpu": "h100", "count": 8, "host_ram_gb": given}, {"mode": "rent"}))
    assert f"plan.yaml: owned[0].host_ram_gb: {said}" in _plan_said(
        tmp_path, _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "servers": 2, "host_ram_gb": given}]))


def test_ram_with_its_unit_in_chinese(tmp_path):
    err = _plan_said(tmp_path, _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "host_ram_gb": "2 TB"}]),
                     "--lang", "zh")
    assert "owned[0].host_ram_gb: '2 TB'：host_ram_gb 是 GB 数，只写数字：请写作 2000" in err


@pytest.mark.parametrize(("given", "meant"), [("$2.50/h", "2.5"), ("2.50 USD/hr", "2.5"), ("$3 per hour", "3"),
                                              ("$2.10/GPU-hour", "2.1")])
def test_an_hourly_price_with_its_unit(tmp_path, given, meant):
    err = _audit(tmp_path, _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "rent", "hourly_usd": given}))
    assert (f"acquisition.hourly_usd: '{given}': hourly_usd is a number in the file's currency "
            f"(constraints.currency): write {meant}") in err


@pytest.mark.parametrize("given", ["$0.15/kWh", "0.15 USD per kWh", "$0.15"])
def test_an_electricity_price_with_its_unit(tmp_path, given):
    err = _plan_said(tmp_path, _plan([_lora()], constraints={"electricity_usd_per_kwh": given}))
    assert f"constraints.electricity_usd_per_kwh: '{given}': electricity_usd_per_kwh is a number" in err
    assert err.rstrip().endswith("write 0.15")


def test_the_value_of_a_day_with_its_unit(tmp_path):
    _write(tmp_path, "r.yaml", {"workload": LORA8, "constraints": {"value_of_a_day_usd": "$500/day"}})
    assert "constraints.value_of_a_day_usd: '$500/day': value_of_a_day_usd is a number in the file's currency " \
           "(constraints.currency): write 500" in _one_line(cli("recommend", "r.yaml", cwd=tmp_path))


def test_a_share_written_as_a_percentage(tmp_path):
    assert "workload.memory_fraction: '90%': memory_fraction is a fraction, 0.1 for ten percent: write 0.9" in \
        _estimate(tmp_path, {**SERVE8, "memory_fraction": "90%"})
    assert "workloads[0].cadence.growth_per_month: '10%': growth_per_month is a fraction, 0.1 for ten percent: " \
           "write 0.1" in _plan_said(tmp_path, _plan([_serve(growth_per_month="10%")]))
    assert "workload.prefix_cache_hit_rate: '50 %': prefix_cache_hit_rate is a fraction" in \
        _estimate(tmp_path, {**SERVE8, "prefix_cache_hit_rate": "50 %"})


def test_a_percentage_reading_in_a_list(tmp_path):
    """A used card's fan readings: a percentage field keeps its percent (90, not 0.9); the list is named."""
    used = _prop({"task": "inference", "model": "llama-2-7b"}, {"gpu": "rtx-3090", "count": 1},
                 {"mode": "buy", "condition": "used", "unit_price_usd": 400},
                 used_cards=[{"serial": "1", "fan_speed_percent": [85, "90%"], "power_under_load_w": [340]}])
    assert "used_cards[0].fan_speed_percent: '90%': fan_speed_percent is a number of percent: write 90" in \
        _audit(tmp_path, used)
    used["used_cards"][0] = {"serial": "1", "power_under_load_w": ["350W"]}
    assert "power_under_load_w: '350W': power_under_load_w is a number of watts: write 350" in _audit(tmp_path, used)


@pytest.mark.parametrize(("field", "given", "meant"), [
    ("hours_per_day", "8h", "8"), ("hours_per_day", "12 hours a day", "12"), ("hours_per_day", "8 h/day", "8")])
def test_a_services_hours_with_their_unit(tmp_path, field, given, meant):
    assert f"workloads[0].cadence.{field}: '{given}': {field} is a number of hours: write {meant}" in \
        _plan_said(tmp_path, _plan([_serve(**{field: given})]))


@pytest.mark.parametrize(("given", "meant"), [("3 days", "3"), ("2 weeks", "14"), ("36h", "1.5")])
def test_a_deadline_with_its_unit(tmp_path, given, meant):
    """36 hours = 1.5 days."""
    assert f"workloads[0].deadline_days: '{given}': deadline_days is a number of days: write {meant}" in \
        _plan_said(tmp_path, _plan([_lora(deadline_days=given)]))


def test_months_and_years(tmp_path):
    assert "horizon_months: '1 year': horizon_months is a number of months: write 12" in \
        _plan_said(tmp_path, {**_plan([_lora()]), "horizon_months": "1 year"})
    assert "workloads[0].cadence.per_month: '2/month': per_month is a number of runs a month: write 2" in \
        _plan_said(tmp_path, _plan([{**_lora(), "cadence": {"per_month": "2/month"}}]))
    assert "acquisition.months: '6 months': months is a number of months: write 6" in _audit(
        tmp_path, _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "rent", "months": "6 months"}))


def test_tokens_with_a_multiplier(tmp_path):
    assert "workload.train_tokens: '2B': train_tokens is a number of tokens: write 2000000000" in \
        _estimate(tmp_path, {**LORA8, "train_tokens": "2B"})
    assert "workload.train_tokens: '500M tokens': train_tokens is a number of tokens: write 500000000" in \
        _estimate(tmp_path, {**LORA8, "train_tokens": "500M tokens"})
    assert ("workload.seq_len: '4k': seq_len is a number of tokens: write 4096 if k is 1,024, or 4000 if it is "
            "1,000") in _estimate(tmp_path, {**LORA8, "seq_len": "4k"})


def test_counts_with_their_noun(tmp_path):
    assert "hardware.count: '8x': count is a number of GPUs: write 8" in _audit(
        tmp_path, _prop(LORA8, {"gpu": "h100", "count": "8x"}, {"mode": "rent"}))
    assert "workload.batch_size: '16 sequences': batch_size is a number of sequences: write 16" in \
        _estimate(tmp_path, {**FT8, "batch_size": "16 sequences"})
    assert "workload.concurrent_requests: '32 users': concurrent_requests is a number of requests: write 32" in \
        _estimate(tmp_path, {**SERVE8, "concurrent_requests": "32 users"})
    _write(tmp_path, "r.yaml", {"workload": LORA8, "constraints": {"max_gpus": "8 GPUs"}})
    assert "constraints.max_gpus: '8 GPUs': max_gpus is a number of GPUs: write 8" in _one_line(
        cli("recommend", "r.yaml", cwd=tmp_path))


def test_text_that_is_no_unit_is_still_pydantics_refusal(tmp_path):
    """Nothing is guessed where the text is no number with a unit the field takes: 'lots' and '8 bananas'."""
    _write(tmp_path, "r.yaml", {"workload": {**FT8, "batch_size": "8 bananas"}})
    r = cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert r.returncode == 2 and "write" not in r.stderr and "batch_size" in r.stderr
    _write(tmp_path, "r.yaml", {"workload": {**LORA8, "train_tokens": "lots"}})
    r = cli("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert r.returncode == 2 and "write" not in r.stderr and "train_tokens" in r.stderr


def test_servers_with_their_noun(tmp_path):
    assert "owned[0].servers: '2 servers': servers is a number of servers: write 2" in _plan_said(
        tmp_path, _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "servers": "2 servers"}]))
    assert "hardware.nodes: '2 nodes': nodes is a number of servers: write 2" in _audit(
        tmp_path, _prop(LORA8, {"gpu": "h100", "count": 16, "nodes": "2 nodes"}, {"mode": "rent"}))


@pytest.mark.parametrize(("lang", "said"), [("en", "argument --gpus: '8 GPUs': --gpus is a number of GPUs: write 8"),
                                            ("zh", "'8 GPUs'：--gpus 是 GPU 数，只写数字：请写作 8")])
def test_gpus_option_with_its_noun(tmp_path, lang, said):
    _write(tmp_path, "r.yaml", {"workload": LORA8})
    err = _one_line(cli("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8 GPUs", "--lang", lang, cwd=tmp_path))
    assert said in err and "did you mean" not in err and "你是不是" not in err


def test_a_value_the_option_refuses_is_offered_no_command(tmp_path):
    """'plans' is no count: refused, without the close match 'plan' (a command, not a value: before, 'did you mean
    plan?'); a misspelt command and a stray word still get theirs."""
    _write(tmp_path, "r.yaml", {"workload": LORA8})
    err = _one_line(cli("estimate", "r.yaml", "--gpu", "h100", "--gpus", "plans", cwd=tmp_path))
    assert "'plans' is not a whole number of GPUs" in err and "did you mean" not in err
    assert "did you mean recommend?" in _one_line(cli("recomend", cwd=tmp_path))
    assert "did you mean estimate?" in _one_line(cli("estimate", "r.yaml", "extimate", cwd=tmp_path))


@pytest.mark.parametrize(("field", "given", "close"), [("zero_stage", "ZeRO-3", "3"), ("offload", "CPU offload", "cpu"),
                                                       ("precision", "fp8-dynamic", "fp8")])
def test_a_choice_named_as_a_word_of_the_value(tmp_path, field, given, close):
    workload = {**SERVE8, field: given} if field == "precision" else {**OFF13, field: given}
    assert f"workload.{field}: '{given}' is not one of" in _estimate(tmp_path, workload)
    assert f"(did you mean {close}?)" in _estimate(tmp_path, workload)


def test_a_choice_begun(tmp_path):
    err = _plan_said(tmp_path, _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "hosting": "colo"}]))
    assert "owned[0].hosting: 'colo' is not one of 'office', 'colocation' or 'datacenter' (did you mean colocation?)" \
        in err


def test_no_choice_is_guessed_from_two_words_or_a_short_beginning(tmp_path):
    """'cpu or nvme' names two choices and 'co' begins too little: nothing offered."""
    assert "did you mean" not in _estimate(tmp_path, {**OFF13, "offload": "cpu or nvme"})
    assert "did you mean" not in _plan_said(
        tmp_path, _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "hosting": "co"}]))


@pytest.mark.parametrize(("given", "meant"), [("Full", "true"), ("every layer", "true"), ("none", "false")])
def test_checkpointing_named_in_words(tmp_path, given, meant):
    err = _estimate(tmp_path, {**FT8, "gradient_checkpointing": given})
    assert (f"workload.gradient_checkpointing: '{given}': gradient_checkpointing is true (every layer recomputed), "
            f"false, selective_op or auto: write {meant}") in err
