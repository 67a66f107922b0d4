"""review63: facts that age, read as a buyer and an approver would on the day they run -- a plan's rentals
judged for age, an imported commitment price kept apart from the on-demand one, export rules said with their
date and source, an imported instance named as its provider names it, and the import's own dates."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json

import gpuwise
from gpuwise.cli import main


def _age(d: str) -> int:
    return (dt.date.today() - dt.date.fromisoformat(d)).days


def test_a_plan_renting_at_an_old_offer_flags_it(tmp_path) -> None:
    """The only H100 rental cheaper than runpod's 2-GPU pod is an overlay's 8-GPU instance at $4.00 an hour ($0.50 a
    GPU-hour) dated 2025-06-01; the plan rents it and said nothing of its age: only purchases were judged
    (plan/judge.py prices). Now DATA-STALE-PRICE names it with its date and its age in days, as recommend does."""
    (tmp_path / "clouds.yaml").write_text(
        "instances:\n  - {id: 'oldco:old-h100x8', provider: oldco, gpu: h100-80gb-sxm, gpus: 8, usd_per_hour: 4.0,\n"
        "     as_of: 2025-06-01, source: 'https://oldco.example/pricing'}\n")
    plan = {"horizon_months": 6,
            "workloads": [{"name": "lora-70b", "cadence": {"per_month": 1}, "deadline_days": 5,
                           "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b",
                                        "seq_len": 4096, "train_tokens": 2.0e8}}],
            "constraints": {"acquisition": "rent", "gpus": ["H100"]}}
    r = gpuwise.plan(plan, knowledge=str(tmp_path)).model_dump(mode="json")
    rent = [ln for ln in r["lines"] if ln["kind"] == "rent"]
    assert rent and {ln["inputs"]["provider"] for ln in rent} == {"oldco"}  # the plan does rent the old offer
    stale = [f for f in r["findings"] if f["rule"] == "DATA-STALE-PRICE"]
    assert len(stale) == 1
    assert stale[0]["message"] == (f"The price 'rent NVIDIA H100 SXM5 80GB (oldco)' is from 2025-06-01, "
                                   f"{_age('2025-06-01')} days old: GPU prices move fast")


ACME = ("gpu,gpus,price,currency,instance,region,as_of,source,term\n"
        "H100,8,19.92,USD,acme-8xh100,us-east,2026-11-20,https://acme.example/pricing,\n"
        "H100,8,14.40,USD,acme-8xh100,us-east,2026-11-20,https://acme.example/reserved,1-year\n"
        "H100,8,10512,USD,acme-8xh100,us-east,2026-11-20,https://acme.example/reserved,3-year\n"
        "H100,8,20.50,USD,acme-8xh100,us-east,2026-11-20,https://acme.example/reserved,1-month\n"
        "B200,8,30.0,USD,acme-8xb200,us-west,2026-11-25,https://acme.example/reserved,1-year\n"
        "H100,8,12.0,USD,acme-8xh100,us-east,2026-11-20,https://acme.example/reserved,1yr\n")


def _import(tmp_path, text: str = ACME):
    from gpuwise import knowledge
    from gpuwise.prices import read_catalog
    from gpuwise.prices.overlay import write_overlay

    csv = tmp_path / "acme.csv"
    csv.write_text(text)
    rep = read_catalog(csv, knowledge.load())
    write_overlay(rep, str(tmp_path / "ov"))
    return rep, tmp_path / "ov"


def test_an_imported_commitment_price_is_the_offers_term_not_an_on_demand_offer(tmp_path) -> None:
    """A 1-year rate in the CSV (the `term` column) was read as an offer of its own, on demand: a 3-hour LoRA of
    a 70B model on 8 H100 was priced at $1.80 a GPU-hour ($14.40 / 8), $46.35, where the term it is sold on
    costs 14.40 x 8,760 = $126,144. It is now the instance's reserved_per_hour, with its own date and source."""
    rep, ov = _import(tmp_path)
    assert [(o.instance, o.price, o.reserved) for o in rep.offers] == [("acme-8xh100", 19.92, {"1-year": 14.4})]
    assert rep.offers[0].terms_as_of == dt.date(2026, 11, 20)
    assert rep.offers[0].terms_source.startswith("1-year: https://acme.example/reserved (via gpuwise catalog CSV")
    left = {s.line: s.reason for s in rep.skipped}
    assert left == {
        4: "the 3-year price 10,512 is above the on-demand price 19.92: a term's price is its rate an hour",
        5: "the 1-month price 20.5 is above the on-demand price 19.92: a term's price is its rate an hour",
        6: "a 1-year price with no on-demand price of the instance in the file: give its on-demand row too",
        7: "term '1yr' is not on-demand, 1-month, 1-year or 3-year"}
    job = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "seq_len": 4096,
                        "train_tokens": 1.0e8},
           "constraints": {"acquisition": "rent", "gpus": ["H100"], "max_gpus": 8, "deadline_days": 5}}
    r = gpuwise.recommend(job, knowledge=str(ov))
    best = r.recommendation
    assert best.provider == "acme" and best.count == 8
    rent = [ln for ln in best.ledger.lines if ln.kind in ("rent", "setup")]
    assert {ln.inputs["usd_per_hour"] for ln in rent} == {19.92}  # on demand: 8 x 2.49, not the 1-year 14.40
    hours = sum(ln.inputs["hours"] for ln in rent)
    assert abs(best.ledger.total - 19.92 * hours) < 0.01
    used = r.prices_used[0]
    assert (used.amount, used.term, used.as_of) == (2.49, "on-demand", "2026-11-20")
    # a year on the same instance takes the term it fills: 14.40 x 8,760 h = $126,144 (on demand: $174,499)
    a = gpuwise.audit({"title": "a year at acme",
                       "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "bf16",
                                    "context_len": 8192, "concurrent_requests": 32},
                       "hardware": {"gpu": "H100", "count": 8},
                       "acquisition": {"mode": "rent", "provider": "acme", "instance": "acme:acme-8xh100",
                                       "months": 12}}, knowledge=str(ov))
    assert abs(a.proposed.ledger.total - 14.40 * 8760) < 0.01
    term = next(p for p in a.prices_used if p.kind == "reserved" or p.term == "1-year")
    assert term.as_of == "2026-11-20" and "https://acme.example/reserved" in term.source


def test_the_import_summary_shows_the_term(tmp_path) -> None:
    from gpuwise.render.price_view import import_summary

    rep, _ = _import(tmp_path)
    said = import_summary(rep, None)
    assert "19.92 USD/h = 2.49 per GPU-hour, 1-year 14.4/h" in said


def test_an_imported_instance_is_named_as_its_provider_names_it(tmp_path) -> None:
    """`prices import` lists acme's `acme-8xh100` as `acme:acme-8xh100`; a proposal renting it from provider acme by
    the name the provider's page and the CSV give was refused ("unknown instance 'acme-8xh100' (did you mean
    acme:acme-8xh100?)"), and the reports said it twice ("on acme acme:acme-8xh100"). It is now that instance, billed
    whole: 8 GPUs x $2.49 for the hours of a job that uses 3 (FEE-INSTANCE-WHOLE)."""
    _, ov = _import(tmp_path)
    a = gpuwise.audit({"title": "3 H100 at acme",
                       "workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096,
                                    "train_tokens": 1.0e8},
                       "hardware": {"gpu": "H100", "count": 3},
                       "acquisition": {"mode": "rent", "provider": "acme", "instance": "acme-8xh100"}},
                      knowledge=str(ov))
    assert a.proposed.instance == "acme:acme-8xh100"
    rent = [ln for ln in a.proposed.ledger.lines if ln.kind in ("rent", "setup")]
    assert {ln.inputs["gpus_paid"] for ln in rent} == {8} and {ln.inputs["usd_per_hour"] for ln in rent} == {19.92}
    assert abs(a.proposed.ledger.total - 19.92 * sum(ln.inputs["hours"] for ln in rent)) < 0.01
    assert rent[0].item == "8 GPUs (acme-8xh100) on acme"
    assert a.prices_used[0].item == "rent NVIDIA H100 SXM5 80GB (acme acme-8xh100, on-demand)"
    assert "FEE-INSTANCE-WHOLE" in {f.rule for f in a.findings}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["prices", "--provider", "acme", "--knowledge", str(ov), "--format", "json"])
    rows = json.loads(out.getvalue())["prices"]
    assert {r["item"] for r in rows} >= {"acme-8xh100 (8 GPUs, 19.92/h)", "acme-8xh100 1-year reservation"}


def test_export_rules_are_said_with_their_date_and_document(kb) -> None:
    """A team in China asking for H100, H20 or B200: the blockers named the rule in words only, cited
    'knowledge/prices.yaml markets (BIS rules, NVIDIA 8-K filings; dated per GPU)', never the GPU's own date or
    document. Each market finding now says the entry's as_of, and its fix the document (the H100's: BIS's rule of
    7 Oct 2022, 87 FR 62186, ECCN 3A090, and the status read against the final rule of 13 Jan 2026)."""
    r = gpuwise.recommend({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b",
                                        "seq_len": 4096, "train_tokens": 2.0e8},
                           "constraints": {"market": "china", "acquisition": "buy", "gpus": ["H100", "H20", "B200"],
                                           "max_gpus": 16, "deadline_days": 20}})
    h100 = next(m for m in kb.prices.markets if m.id == "h100-80gb-sxm")
    f = next(f for f in r.findings if f.rule == "MARKET-EXPORT-BUY" and "H100" in f.message)
    assert f.message == f"NVIDIA H100 SXM5 80GB cannot be bought in mainland China: {h100.rule} (as of 2026-01-15)"
    assert f.fix.endswith(f"The rule as of 2026-01-15: {h100.source}.")
    assert "BIS interim final rule of 7 Oct 2022 (87 FR 62186)" in f.fix and "BIS final rule of 13 Jan 2026" in f.fix
    # a buyer outside China offered the H20: the rule that it is sold only there, dated by its own entry
    g = gpuwise.recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                           "constraints": {"acquisition": "buy", "gpus": ["H20"], "max_gpus": 8}})
    only = next(f for f in g.findings if f.rule == "MARKET-CHINA-ONLY")
    assert "as of 2025-08-22)" in only.message and "NVIDIA 8-K of 15 Apr 2025" in only.fix


def test_no_market_entry_cites_a_document_newer_than_its_date(kb) -> None:
    """Every market entry's source had been overwritten with one text naming the BIS rule of 13 Jan 2026 (and the
    25% share of H200 sales of 8 Dec 2025), the A800's of 2023-11-17 and the H20's of 2025-08-22 included: an
    approver reading 'as of 2023-11-17' beside a 2026 document. The entries dated before it cite their own documents
    again (the A800's: NVIDIA's Form 8-K of 17 Oct 2023)."""
    late = [(m.id, m.as_of.isoformat()) for m in kb.prices.markets
            if "13 Jan 2026" in m.source and m.as_of < dt.date(2026, 1, 13)]
    assert late == []
    a800 = next(m for m in kb.prices.markets if m.id == "a800-80gb-sxm")
    assert a800.source.startswith("NVIDIA Form 8-K of 17 Oct 2023")


def test_the_import_says_the_rows_dates_and_which_offers_are_old(tmp_path) -> None:
    """Every row of the CSV stated its own as_of, yet the summary said 'as_of <today> (the file's modification
    date; give --as-of DATE ...)', and an offer dated 2025-10-01 was imported without a word. It now says the rows'
    own dates, marks the offer older than price_max_age_days (365) with its date and age, and the JSON gives each
    offer's as_of and where it came from."""
    from gpuwise.render.price_view import import_summary

    rep, _ = _import(tmp_path, "gpu,gpus,price,currency,instance,as_of,source\n"
                               "A100 80GB,8,9.60,USD,acme-8xa100,2025-10-01,https://acme.example/2025\n"
                               "B200,8,38.0,USD,acme-8xb200,2026-11-25,https://acme.example/pricing\n")
    said = import_summary(rep, None)
    assert "as_of: each row's own (2025-10-01 to 2026-11-25)\n" in said and "modification date" not in said
    age = _age("2025-10-01")
    assert age > 365
    old = (f"    ! dated 2025-10-01, {age} days old: older than the policy's price_max_age_days (365); an answer "
           "that uses it warns (DATA-STALE-PRICE)\n")
    assert said.count("! dated") == 1 and ("acme-8xa100" in said.split(old)[0].splitlines()[-1])
    got = {o["id"]: (o["as_of"], o["as_of_from"]) for o in rep.as_dict()["imported"]}
    assert got == {"acme:acme-8xa100": ("2025-10-01", "row"), "acme:acme-8xb200": ("2026-11-25", "row")}


def test_an_h20_bought_in_china_carries_its_us_licence() -> None:
    """The H20's own entry says 'licence required since April 2025, granted from August 2025' (NVIDIA's Form 8-K of
    15 Apr 2025; licences issued from 8 Aug 2025 on 15% of the H20's China revenue to the US government, Reuters /
    FT 8-11 Aug 2025), yet a team in China was told to buy 8 H20 with only China's import warning: the entry had no
    licence policy, so MARKET-EXPORT-CASE-BY-CASE could not fire. It now warns, with the date and the share."""
    r = gpuwise.recommend({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b",
                                        "seq_len": 4096, "train_tokens": 2.0e8},
                           "constraints": {"market": "china", "acquisition": "buy", "gpus": ["H20"],
                                           "max_gpus": 16, "deadline_days": 20}})
    assert r.recommendation.gpu == "h20-96gb-sxm"
    f = [f for f in r.findings if f.rule == "MARKET-EXPORT-CASE-BY-CASE"]
    assert f and ("only under a US export licence granted customer by customer (case by case since 2025-08-08, 15 "
                  "percent of each sale to the US government)") in f[0].message


def test_a_short_name_is_not_the_start_of_another_number(kb, tmp_path) -> None:
    """'H20' was read as the start of 'H200': a Chinese cloud's 'H20' of 141 GB in a price CSV was refused as
    ambiguous ('it could be h20-141gb, h200-141gb-sxm, h200-nvl-141gb'), and `prices --gpu H20` said the H200's
    prices were the H20's other variant. The H20 141GB is NVIDIA's H20 with 141 GB of HBM3e; the H200 is another
    part. A10G stays an A10 variant (a letter after the number)."""
    from gpuwise.knowledge import norm
    from gpuwise.prices.catalog_csv import map_gpu
    from gpuwise.prices.table import gpu_reading

    assert map_gpu(kb, "H20", 141, 8) == ("h20-141gb", None)
    assert kb.gpu_names.family(norm("A10")) == ["a10", "a10g"]
    assert kb.gpu_names.family(norm("L4")) == ["l4"]
    got, others = gpu_reading(kb, "H20")
    assert got.id == "h20-96gb-sxm" and "h200-141gb-sxm" not in others


CHINA_H20 = ("workload: {task: finetune, method: lora, model: llama-3.1-70b, seq_len: 4096, train_tokens: 2.0e8}\n"
             "constraints: {market: china, acquisition: buy, gpus: [H100, H20, B200], max_gpus: 16, "
             "deadline_days: 20}\n")


def test_an_old_export_rule_entry_is_flagged(kb) -> None:
    """Export rules drift as prices do (docs/knowledge.md: 'prices, exchange rates, export rules -- carries an
    as_of'), but no rule judged their age: the H20's entry of 2025-08-22 answered a team in China as if current. BIS
    changed the rules in Oct 2022, Oct 2023, Jan 2025, Apr 2025 and Jan 2026 (policy market_max_age_days, 365 days):
    DATA-STALE-MARKET warns on each entry the answer's candidates read that is older."""
    import yaml

    r = gpuwise.recommend(yaml.safe_load(CHINA_H20))
    limit = float(kb.policy_value("market_max_age_days"))
    assert limit == 365
    entries = {m.id: m for m in kb.prices.markets}
    stale = [f for f in r.findings if f.rule == "DATA-STALE-MARKET"]
    h20 = entries["h20-96gb-sxm"]
    age = _age(h20.as_of.isoformat())
    msg = (f"The export rule gpuwise holds for NVIDIA H20 96GB (HGX) in China is dated 2025-08-22, {age} days old: "
           "the rules have changed within a year several times since 2022")
    assert any(f.message == msg for f in stale)
    h100_old = _age(entries["h100-80gb-sxm"].as_of.isoformat()) > limit
    assert any("H100" in f.message for f in stale) == h100_old  # 2026-01-15: flagged after 2027-01-15



def test_the_brief_says_which_prices_are_out_of_date(tmp_path) -> None:
    """The brief's Data freshness gave each price's date and age ('host server (2024-08-01, 858 days old)') and the
    banner said '2 prices used here are out of date', but not which: the reader had to open the full report. A price
    a data-freshness rule called stale now has the banner's '!' beside its age; a current one does not."""
    from tests.clirun import gpuwise as cli

    q = tmp_path / "q.yaml"
    q.write_text(CHINA_H20)
    out = " ".join(cli("recommend", str(q)).stdout.split())
    host = _age("2024-08-01")  # tco.yaml server_share_usd_per_gpu_sxm: the host around bought H20
    assert f"host server (2024-08-01, {host:,} days old!)" in out
    buy = _age("2025-12-24")  # the H20's 8-GPU module price, RMB 880,000 (prices.yaml)
    mark = "!" if buy > 365 else ""
    assert f"buy NVIDIA H20 96GB (HGX), new (2025-12-24, {buy:,} days old{mark})" in out
