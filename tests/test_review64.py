"""review64: reports read as the buyer and the approver after session 50's changes, and hostile round 54's two
input leftovers (a p95 target in milliseconds written in a field of seconds; one instance priced in yuan and in
dollars in one price CSV). Each figure is worked by hand beside its test."""

from __future__ import annotations

import gpuwise
from gpuwise import knowledge

P95_JOB = {"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 300,
                        "requests_per_s": 5, "p95_ttft_s": 500, "p95_tpot_s": 50},
           "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 2}}


def _findings(result: dict, rule: str) -> list[dict]:
    return [f for f in result["findings"] if f["rule"] == rule]


def test_a_p95_target_written_in_milliseconds_is_said() -> None:
    """p95_ttft_s: 500 and p95_tpot_s: 50, copied from a dashboard that prints milliseconds, were taken as 500 s and
    50 s and met with nothing said (hostile54's Left). 500 s >= the policy's 60 s (nginx's proxy_read_timeout
    default) and 50 s >= its 1 s a token (Brysbaert 2019: 238 words a minute, ~190 ms a token): each is said, and
    the fix gives the value read as milliseconds: 500 / 1,000 = 0.5, 50 / 1,000 = 0.05."""
    r = gpuwise.recommend(P95_JOB).model_dump(mode="json")
    ttft, tpot = _findings(r, "SRV-P95-TTFT-UNIT"), _findings(r, "SRV-P95-TPOT-UNIT")
    assert len(ttft) == 1 and len(tpot) == 1
    assert ttft[0]["severity"] == tpot[0]["severity"] == "warning"
    assert ttft[0]["message"].startswith("p95_ttft_s: 500 lets the first token come 500 s after the request")
    assert ttft[0]["fix"] == "If 500 ms was meant, write p95_ttft_s: 0.5."
    assert tpot[0]["fix"] == "If 50 ms was meant, write p95_tpot_s: 0.05."


def test_p95_targets_in_seconds_say_nothing() -> None:
    """A first token within 59 s and a token every 0.9 s are below the policy's 60 s and 1 s: no finding (nor for
    the usual 2 s / 0.05 s)."""
    for ttft, tpot in ((59, 0.9), (2, 0.05)):
        job = {**P95_JOB, "workload": {**P95_JOB["workload"], "p95_ttft_s": ttft, "p95_tpot_s": tpot}}
        r = gpuwise.recommend(job).model_dump(mode="json")
        assert not _findings(r, "SRV-P95-TTFT-UNIT") and not _findings(r, "SRV-P95-TPOT-UNIT"), (ttft, tpot)


def _import(tmp_path, text: str):
    from gpuwise.prices import read_catalog

    csv = tmp_path / "acme.csv"
    csv.write_text(text)
    return read_catalog(csv, knowledge.load())


def test_one_instance_in_yuan_and_dollars_keeps_the_cheaper_in_dollars_and_says_so(tmp_path) -> None:
    """8 x H100 at 100 CNY an hour and at 20 USD: at the knowledge base's dated 6.7661 CNY a USD (tco.yaml usd_cny),
    100 / 6.7661 = 14.78 USD, the cheaper. The import compared the bare numbers (20 < 100) and kept the 20 USD row,
    the dearer by $5.22 an hour, without a word; it keeps the yuan row and names the dollar row it left out."""
    kb = knowledge.load()
    rate = kb.tco.values["usd_cny"].value
    rep = _import(tmp_path, "gpu,gpus,price,currency,instance\nH100,8,100,CNY,h100x8\nH100,8,20,USD,h100x8\n")
    assert len(rep.offers) == 1
    o = rep.offers[0]
    assert (o.price, o.currency) == (100, "CNY")
    assert 100 / rate < 20  # the yuan row is the cheaper in dollars at the dated rate
    said = [str(n) for n in o.notes]
    assert said == [f"line 3 lists it at 20 USD/h: left out, this row's 100 CNY/h is {100 / rate:.4g} USD at "
                    f"{rate:g} CNY a USD ({kb.tco.values['usd_cny'].as_of.isoformat()}), cheaper"]


def test_the_dollar_row_kept_names_the_yuan_row(tmp_path) -> None:
    """160 CNY an hour is 160 / 6.7661 = 23.65 USD, above the 20 USD row: the dollar row is kept (as before) and now
    says which row it replaced and why; the file's order does not matter."""
    kb = knowledge.load()
    rate = kb.tco.values["usd_cny"].value
    for text, other in (("H100,8,160,CNY,h100x8\nH100,8,20,USD,h100x8\n", 2),
                        ("H100,8,20,USD,h100x8\nH100,8,160,CNY,h100x8\n", 3)):
        rep = _import(tmp_path, "gpu,gpus,price,currency,instance\n" + text)
        o = rep.offers[0]
        assert (o.price, o.currency) == (20, "USD")
        assert [str(n) for n in o.notes] == [
            f"line {other} lists it at 160 CNY/h, {160 / rate:.4g} USD at {rate:g} CNY a USD "
            f"({kb.tco.values['usd_cny'].as_of.isoformat()}): left out, this row's 20 USD/h is cheaper"]


def test_one_currency_in_two_regions_says_no_currency_note(tmp_path) -> None:
    """Two regions in dollars: 'cheapest of 2 locations', as before, and no currency note."""
    rep = _import(tmp_path, "gpu,gpus,price,currency,instance,region\nH100,8,20,USD,h100x8,a\nH100,8,21,USD,h100x8,b\n")
    assert [str(n) for n in rep.offers[0].notes] == ["cheapest of 2 locations"]


def test_a_plans_short_rental_says_its_gpu_hours_to_the_hundredth() -> None:
    """A Qwen3-0.6B LoRA of 1e7 tokens on 1 GB200 rented from CoreWeave's rack of 72: the rack bills $756 an hour
    (72 x $10.50) and the plan pays $210.49, so the run lasts 210.49 / 756 = 0.278 h, 0.28 GPU-hours of work on its
    one GPU and 72 x 0.278 = 20.0 GPU-hours billed. The Answer read 'for 0 GPU-hours of work ..., billed for 20
    GPU-hours' (and 'GPU-hours: 0' under Where each workload runs; the JSON's 0.3 put 72 x 0.3 = 21.6 billed):
    written as every other report writes GPU-hours, whole from 10 up, else to the hundredth."""
    import pathlib

    from gpuwise.render.plan_view import render

    path = pathlib.Path(__file__).parent / "data" / "wording65" / "plan-one-gb200-lora.yaml"
    import yaml

    r = gpuwise.plan(yaml.safe_load(path.read_text()))
    rent = r.answer.rent[0]
    hours = float(r.answer.rent[0].amount) / (72 * 10.50)  # the rack's hours, from what the plan pays
    assert rent.gpu_hours == round(hours, 2) == 0.28
    assert rent.billed_gpu_hours == round(72 * hours, 2)
    text = render(r, "text", detail="brief")
    assert "for 0.28 GPU-hours of work in month 1, billed for 20 GPU-hours ($210)" in " ".join(text.split())
    full = " ".join(render(r, "text", detail="full").split())
    assert "GPU-hours: 0.28" in full and "GPU-hours: 0 " not in full


def test_the_gpu_listing_names_the_drivers_memory_as_reports_do() -> None:
    """product65's listing wrote an L40S as '48 GB GDDR6 (45.0 GiB usable)' while an audit of one L40S says 'only
    45.9 GB usable of 48.3 GB': two 'usable' figures of one card. The listing's is the driver's total (46,068 MiB /
    1,024 = 45.0 GiB; x 2^20 / 10^9 = 48.3 GB, the audit's capacity), the audit's 95% of it (the headroom policy's
    0.05: 0.95 x 48.3 = 45.9). The listing now names the driver's figure, in GiB and in the reports' GB."""
    import contextlib
    import io

    from gpuwise.cli import main

    kb = knowledge.load()
    mib = kb.gpus["l40s"].memory.smi_mib
    assert mib == 46068 and f"{mib / 1024:.1f}" == "45.0" and f"{mib * 2**20 / 1e9:.1f}" == "48.3"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["gpus"])
    text = " ".join(out.getvalue().split())
    assert "memory: 48 GB GDDR6 (the driver reports 45.0 GiB, 48.3 GB)" in text
    assert "GiB usable" not in text
    headroom = kb.policy_value("memory_headroom_fraction")
    assert f"{(1 - headroom) * mib * 2**20 / 1e9:.1f}" == "45.9"  # the audit's 'usable' of the same card


def test_a_plans_service_with_a_p95_target_in_milliseconds_is_said() -> None:
    """The same slip in a plan's service (p95_ttft_s: 500, p95_tpot_s: 50 at 5 requests/s) was planned with nothing
    said: PLAN-P95-TTFT-UNIT / -TPOT-UNIT in recommend's words, naming the workload, with the values read as ms."""
    plan = {"horizon_months": 3,
            "workloads": [{"name": "chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                        "prompt_tokens": 1000, "output_tokens": 300,
                                                        "p95_ttft_s": 500, "p95_tpot_s": 50},
                           "cadence": {"continuous": True, "hours_per_day": 24},
                           "targets": {"requests_per_s": 5}}],
            "constraints": {"gpus": ["h100"], "acquisition": "rent"}}
    r = gpuwise.plan(plan).model_dump(mode="json")
    ttft, tpot = _findings(r, "PLAN-P95-TTFT-UNIT"), _findings(r, "PLAN-P95-TPOT-UNIT")
    assert len(ttft) == len(tpot) == 1
    assert ttft[0]["message"].startswith("chat: p95_ttft_s: 500 lets the first token come 500 s after")
    assert ttft[0]["fix"] == "If 500 ms was meant, write p95_ttft_s: 0.5."
    assert tpot[0]["fix"] == "If 50 ms was meant, write p95_tpot_s: 0.05."


def test_mem_tight_does_not_tell_a_micro_batch_of_one_to_shrink() -> None:
    """8 B300 pretraining Llama 3.1 70B (CP 2 x DP 4, micro-batch 1, 128 accumulation steps: 8 x 128 / 2 = 512
    sequences of 8,192 = 4,194,304 tokens) fit with 272.6 of 274.0 GB usable (0.95 x 275,040 MiB x 2^20 / 10^9):
    MEM-TIGHT's fix read 'Lower the micro-batch and use gradient accumulation', where the micro-batch is already one
    sequence. It now says how room is made at one sequence; a service gets its own words."""
    job = {"workload": {"task": "pretrain", "model": "llama-3.1-70b", "seq_len": 8192, "train_tokens": 1.0e11},
           "constraints": {"gpus": ["b300"], "max_gpus": 64, "acquisition": "buy", "deadline_days": 60}}
    r = gpuwise.recommend(job).model_dump(mode="json")
    tight = [f for f in r["findings"] if f["rule"] == "MEM-TIGHT"]
    assert tight, "the 8-B300 answer fits within 1% of its usable memory"
    [answer] = [c for c in r["candidates"] if c["rank"] == 1]
    assert answer["step_batch"] == {"global_batch_tokens": 4194304, "dp": 8, "cp": 2, "grad_accum": 128,
                                    "micro_batch": 1}  # 8 / 2 replicas x 128 x 1 x 8,192 = 4,194,304
    assert tight[0]["fix"].startswith("The micro-batch is already one sequence: recompute activations")
    assert "Lower the micro-batch" not in tight[0]["fix"]
    from gpuwise.messages import text

    assert text("tight.micro_batch", {"micro_batch": 4}) == ("Lower the micro-batch (4 sequences) and use gradient "
                                                              "accumulation")
