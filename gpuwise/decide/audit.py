"""``gpuwise audit``: a purchase or rental proposal -> the four steps on the proposed
hardware, every pitfall family, the used-card inspection -> verdict, findings and the
best feasible alternative with its savings.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import knowledge as knowledge_mod
from ..chart_series import Charts
from ..checked import made
from ..errors import N_, UserError
from ..estimators import GB
from ..estimators import cost as K
from ..estimators.candidate import evaluate
from ..estimators.rental import instance_gpus
from ..estimators.training_job import sharing as training_sharing
from ..frozen import record
from ..inputs.job import (
    Job,
    check_instance,
    check_instance_host_ram,
    check_instance_network,
    check_network,
    check_shared_host_ram,
    listed_provider,
    note,
    provider_note,
    resolve,
)
from ..inputs.listed import provider_instance
from ..inputs.money import to_usd, with_rate
from ..inputs.schema import Proposal, Requirements, coerce
from ..prices.used import alternative, prices_used
from ..results import Assumption, Candidate, Finding, StalePrice
from ..results_audit import AuditResult, UsedCard
from . import engine
from .actions import fact_key, ordered_findings
from .consult import consult, gc_paused, host_ram_server, rulebook_for
from .count_search import estimates
from .fact_unit_price import unit_price_facts
from .proposal_layout import (
    instance_host,
    instance_network,
    proposal_instance,
    provider_network,
    servers_bought,
    systems,
)
from .result import build_result, candidate_out, currency_info, house_rules, ranking_sentence, step_summaries
from .subjects import Server, candidate_gpus, price_facts, roomiest
from .verdicts import gives_up


def _on_gpu(job: Job, gpu: Any) -> Job:
    """The job as priced on the proposal's GPU (:func:`gpuwise.estimators.serving.published.on_gpu`), its
    assumption added to the question's where it differs."""
    if job.training:
        return job
    from ..estimators.serving.published import notes_of, on_gpu

    priced = on_gpu(job, gpu)
    job.assumptions.extend(notes_of(job, [priced]))
    return priced


def proposal_fact(p: Proposal, job: Any, gpu: Any, ev: Any, kb: Any) -> dict[str, Any]:
    """The proposal as the pitfall rules see it (cloud fees, power and cooling, licensing)."""
    hw, acq = p.hardware, p.acquisition
    v = kb.tco.values
    months = acq.months
    led = ev.ledger(acq.mode)
    rent = led.amount("rent", "setup") if led is not None and acq.mode == "rent" else 0.0
    fees = {item: led.amount("fee", item=item) if led is not None and acq.mode == "rent" else 0.0
            for item in ("egress", "cross-region", "storage")}
    tl = ev.timeline
    # a bought machine is paid for over every hour of the period its ledger covers (the project's months, or
    # a longer run's)
    owned = led.period if led is not None and acq.mode == "buy" else None
    owned_hours = owned.hours if owned is not None else -1.0
    per_node = math.ceil(hw.count / hw.nodes)
    host_w = K.host_w_per_gpu(gpu, kb.tco)
    node_kw = (gpu.power.tdp_w + host_w) * per_node / 1000
    total_kw = node_kw * hw.nodes
    bought_kw = ev.market.it_kw if acq.mode == "buy" and ev.market is not None else None
    if bought_kw:  # the IT load the ledger's power line charges (a desktop system's own host figure)
        total_kw, node_kw = bought_kw, bought_kw / hw.nodes
    market_hourly, market_offer, market_basis, market_as_of = None, "", "none", ""
    per_instance, dearest = None, None
    if acq.hourly_usd is not None:
        # the listed offer the proposal's own price is compared with: the instance or provider it
        # names, else the cheapest of the kind the job is rented as in its market (spot with spot)
        from ..estimators.offers import dearest_offer, instance_reading, reference_offer
        from ..estimators.rental import named_offers, offers_for

        pool = (named_offers(job, gpu, hw.count, acq.provider) if acq.provider else []) or offers_for(
            job, gpu, hw.count)
        ref = reference_offer(pool, kb.runtime.networks, provider=acq.provider, instance=acq.instance,
                              spot=acq.spot, quote=acq.hourly_usd)
        if ref is not None:
            o, market_hourly, market_basis = ref
            market_offer = _offer_name(kb, o)
            market_as_of = o.as_of
            # the price read as one instance's or server's, for FEE-PRICE-INSTANCE-RATE to judge (hostile round 51)
            per_instance = instance_reading(acq.hourly_usd, market_hourly, [per_node, o.gpus if o.instance else 1])
        dearest = dearest_offer(kb.clouds, gpu.id, kb.tco_value("usd_cny").value)
    rent_cost = rent if acq.mode == "rent" else 0.0
    return {
        "t": "proposal", "title": p.title, "gpu": gpu.id, "gpu_name": gpu.name, "vendor": gpu.vendor,
        "count": hw.count, "nodes": hw.nodes,
        "per_node": per_node, "mode": acq.mode, "condition": acq.condition, "spot": acq.spot, "months": months,
        "checkpointing": bool(acq.checkpointing), "checkpointing_known": acq.checkpointing is not None,
        "wall_days": ev.wall_days or -1.0, "rent_usd": rent_cost,
        "provider": acq.provider or "none", "hyperscaler": _kind_of(kb, acq.provider) == "hyperscaler",
        "egress_usd": fees["egress"], "cross_region_usd": fees["cross-region"], "storage_usd": fees["storage"],
        "fees_usd": sum(fees.values()), "fees_pct": 100 * sum(fees.values()) / rent_cost if rent_cost > 0 else -1.0,
        # the months the fee lines are billed over (review58: a 3-month spot proposal whose run is billed 739.9 hours
        # read 'costs about $4,350 over 3 months', the one month's egress its ledger charges)
        "fees_months": led.period.months if led is not None and acq.mode == "rent" else months,
        "commitment": led is not None and led.period.kind == "commitment",
        "commitment_hours": tl.billed_hours if tl is not None else -1.0,
        "gpus_paid": int(ev.offer.gpus) if acq.mode == "rent" and ev.offer is not None else -1,
        "rental_max_gpus": (ev.offer.max_gpus or instance_gpus(kb, ev.offer.instance) or -1)
        if acq.mode == "rent" and ev.offer is not None else -1,
        "rental_step_gpus": ev.offer.step_gpus if acq.mode == "rent" and ev.offer is not None else 1,
        "instance": acq.instance or "none",
        "rental_provider": ev.offer.provider if acq.mode == "rent" and ev.offer is not None else "none",
        "job_hours": tl.wall_hours if tl is not None and job.training else -1.0,
        "idle_fraction": tl.idle_fraction if tl is not None and job.training else 0.0,
        "owned_hours": owned_hours, "owned_months": owned.months if owned is not None else -1.0,
        "owned_idle_fraction": max(0.0, 1 - tl.wall_hours / owned_hours)
        if tl is not None and job.training and owned_hours > 0 else 0.0,
        "storage_kind": p.cloud.storage.kind, "storage_tb": p.cloud.storage.tb,
        "storage_priced_as": _storage_priced_as(kb, acq.provider, p.cloud.storage.kind),
        "egress_tb": p.cloud.egress_tb_per_month, "cross_region_tb": p.cloud.cross_region_tb_per_month,
        "cloud_stated": bool({"egress_tb_per_month", "cross_region_tb_per_month"} & p.cloud.model_fields_set
                             or "tb" in p.cloud.storage.model_fields_set),
        "node_kw": node_kw, "facility_kw": p.facility.power_kw_available or -1.0,
        "has_facility": p.facility.power_kw_available is not None, "rack_kw": total_kw, **_priced_site(acq, ev, kb),
        "air_cooled_limit_kw": float(kb.policy_value("air_cooled_rack_kw_max")),
        "cfm_needed": total_kw * v["cfm_per_kw_20f"].value,
        "consumer": gpu.segment == "consumer", "segment": gpu.segment, "tdp_w": gpu.power.tdp_w,
        "hosting": p.constraints.hosting or "unknown", "site": _site(p, ev),
        "license_bundle": getattr(gpu, "licence_bundle", None) is not None,
        "nvaie_usd_per_gpu_year": v["nvaie_usd_per_gpu_year"].value,
        **unit_price_facts(acq, gpu, kb, ev.buy if acq.mode == "buy" else None, per_node),
        "hourly_usd": acq.hourly_usd or -1.0, "market_hourly_usd": market_hourly or -1.0,
        "market_hourly_offer": market_offer, "market_hourly_basis": market_basis,
        "market_hourly_as_of": market_as_of,
        "hourly_ratio": (acq.hourly_usd / market_hourly) if (acq.hourly_usd and market_hourly) else -1.0,
        "dearest_hourly_usd": dearest.per_gpu_hour if dearest else -1.0,
        "dearest_hourly_offer": _offer_name(kb, dearest) if dearest else "",
        "instance_gpus": per_instance[0] if per_instance else -1,
        "instance_hourly_usd": per_instance[1] if per_instance else -1.0,
        "spot_availability": kb.clouds.spot.availability, **_spot_part(acq, ev, kb),
        "link": ev.topology.description if ev.topology else "", "network": hw.network or "none",
        "network_gb_s": ev.topology.network_gb_s if ev.topology and math.isfinite(ev.topology.network_gb_s) else -1.0,
        "host_ram_gb": hw.host_ram_gb or -1.0,
        "used_cards": len(p.used_cards), "inspected_cards": sum(1 for c in p.used_cards if c.nvidia_smi),
    }


def _priced_site(acq: Any, ev: Any, kb: Any) -> dict[str, Any]:
    """Where a purchase is priced as hosted (cost.hosting_for), its rent and PUE, and the most an office takes: what
    PWR-FACILITY-SITE-ASSUMED says beside a stated facility's power, which PWR-OVER-FACILITY judges (product63)."""
    b = ev.buy if acq.mode == "buy" else None
    h = kb.tco.hosting.get(b.hosting_name) if b is not None and kb.tco.hosting else None
    office = kb.tco.hosting.get("office") if kb.tco.hosting else None
    return {"priced_hosting": b.hosting_name if b is not None else "none",
            "priced_hosting_assumed": bool(b.hosting_assumed) if b is not None else False,
            "hosting_usd_per_kw_month": h.rent_usd_per_kw_month if h is not None else -1.0,
            "hosting_pue": h.pue if h is not None else -1.0,
            "office_max_kw": office.max_kw if office is not None and office.max_kw else -1.0}


def _spot_part(acq: Any, ev: Any, kb: Any) -> dict[str, Any]:
    """The spot rate a spot rental is billed at, and whether it is published (FEE-SPOT-PRICE-ASSUMED says when it is
    an on-demand price less the assumed discount: offers.as_spot takes such a guess only where no offer of the kind
    publishes a spot price)."""
    o = ev.offer if acq.mode == "rent" and acq.spot else None
    if o is None:
        return {"spot_price_known": True, "spot_usd_per_gpu_hour": -1.0, "on_demand_usd_per_gpu_hour": -1.0,
                "spot_fallback_discount": kb.clouds.spot.fallback_discount}
    return {"spot_price_known": o.spot_usd_per_hour is not None,
            "spot_usd_per_gpu_hour": K.spot_rate(o, kb.clouds) / o.gpus, "on_demand_usd_per_gpu_hour": o.per_gpu_hour,
            "spot_fallback_discount": kb.clouds.spot.fallback_discount}


def _offer_name(kb: Any, o: Any) -> str:
    """An offer as a report names it: its provider's name and instance."""
    name = next((pr.name for pr in kb.clouds.providers if pr.id == o.provider), o.provider)
    return f"{name} {o.instance}" if o.instance else name


def _site(p: Proposal, ev: Any) -> str:
    """Where bought machines run: the hosting the proposal states, else what its cards are bought in, the buy plan's
    desktop workstations (cost.buy_plan: a desktop's cards on each of the machines given) or servers; 'none' for a
    rental, whose hosting is the provider's."""
    if p.acquisition.mode != "buy":
        return "none"
    if p.constraints.hosting:
        return p.constraints.hosting
    plan = ev.buy.plan if ev.buy is not None else None
    return "workstations" if plan is not None and plan.sold_as == "workstation" else "servers"


def _storage_priced_as(kb: Any, provider: str | None, kind: str) -> str:
    """The kind of storage the ledger's storage line is priced at (cost.storage_rate_for): the kind asked
    for, another the provider lists instead, or '' where it lists none (or is not in the fee table)."""
    prov = next((c for c in kb.clouds.providers if c.id == provider), None)
    return K.storage_rate_for(prov.storage_usd_per_gb_month, kind)[1] if prov is not None else ""


def commitment_months(p: Proposal) -> float | None:
    """The rental term a proposal commits to: ``acquisition.months`` when the file states it for a
    rental (not spot capacity, which is not reserved), billed in full; None: billed as used."""
    acq = p.acquisition
    if acq.mode != "rent" or acq.spot or "months" not in acq.model_fields_set:
        return None
    return acq.months


def _kind_of(kb: Any, provider: str | None) -> str:
    prov = next((p for p in kb.clouds.providers if p.id == provider), None)
    return prov.kind if prov else ""


MAX_CARD_READINGS = 10_000
"""Card facts one proposal may give (as many as ``used_cards`` may list): a card whose serial is
not in its report is judged on every GPU of it, so 10,000 cards naming one 64-GPU report would
be 640,000 facts (about 16 GB)."""


def card_facts(p: Proposal, gpu: Any, base_dir: Path, where: str, kb: Any
               ) -> tuple[list[dict[str, Any]], list[UsedCard]]:
    """The used-card facts: one flat dict per card and GPU judged, and the same as the result's
    typed record (without ``gpu``) for the report.

    A card without an nvidia-smi report gives one fact.  A report gives one fact per GPU that
    stands for the card: the GPU with the card's serial, else the report's only GPU, else every
    GPU in it (``judged_all``; a fault on any of them is reported).  Card-level signals (dates,
    fan and power samples, the serial check) are on the card's first fact (``primary``), so a
    rule about them fires once per card.  Numbers use -1 for "not known".

    Input errors (exit 2) name the card: a manufacture date before the GPU's launch year, a
    report path outside the proposal's directory or not a regular file, a report that is not
    nvidia-smi XML or holds impossible readings (a negative count).
    """
    from . import inspect_card as ic
    from . import smi_report

    claimed_names = [gpu.id, gpu.name, *gpu.aliases]
    facts, views = [], []
    for i, c in enumerate(p.used_cards):
        label = c.serial or f"card {i + 1}"
        card_where = f"{where}: used_cards[{i}]"
        base: dict[str, Any] = {
            "card": i + 1, "serial": label, "gpu": gpu.id, "consumer": gpu.segment == "consumer",
            "purchase": p.acquisition.mode == "buy", "primary": True, "manufactured": c.manufactured or "",
            "has_dates": bool(c.manufactured and c.purchased), "months_to_sale": -1,
            "fan_cv": -1.0, "fan_swing": -1.0, "fan_samples": len(c.fan_speed_percent),
            "power_cv": -1.0, "power_swing": -1.0, "power_samples": len(c.power_under_load_w),
            "segment": gpu.segment, "ecc_memory": bool(gpu.memory.ecc),
            "has_smi": False, "smi_error": "", "serial_given": c.serial is not None,
            "serial_in_report": -1, "gpu_index": 1, "gpus_in_report": 0, "judged_all": False, "report_serial": "",
            **_NO_READING,
        }
        if c.manufactured:
            made = dt.date.fromisoformat(f"{c.manufactured}-01"[:10])  # YYYY-MM or YYYY-MM-DD
            if made.year < gpu.launch_year:
                raise UserError(N_("manufactured %(manufactured)s, before the %(name)s launched (%(launch_year)s)"),
                                where=f"{card_where}.manufactured", hint=N_("check the date on the card's label"),
                                values={"manufactured": c.manufactured, "name": gpu.name,
                                        "launch_year": gpu.launch_year})
        if c.purchased and int(c.purchased[:4]) < gpu.launch_year:  # hostile round 47: 2015-01 for a 3090 was taken
            raise UserError(N_("purchased %(purchased)s, before the %(name)s launched (%(launch_year)s)"),
                            where=f"{card_where}.purchased", hint=N_("check the date on the receipt"),
                            values={"purchased": c.purchased, "name": gpu.name, "launch_year": gpu.launch_year})
        if c.manufactured and c.purchased:
            base["months_to_sale"] = ic.months_between(c.manufactured, c.purchased)
        for name, samples in (("fan", c.fan_speed_percent), ("power", c.power_under_load_w)):
            if len(samples) > 1:  # a spread needs two samples
                var = ic.variability(samples)
                base[f"{name}_cv"] = var.cv if var.cv is not None else -1.0
                base[f"{name}_swing"] = var.relative_swing if var.relative_swing is not None else -1.0
        if not c.nvidia_smi:
            facts.append(base)
            continue
        smi_where = f"{card_where}.nvidia_smi ({c.nvidia_smi})"
        path = smi_report.resolve_report_path(c.nvidia_smi, base_dir, where=smi_where)
        try:
            log = smi_report.parse_nvidia_smi_xml(str(path), where=smi_where)
        except (ValueError, ArithmeticError, RecursionError) as exc:  # e.g. a 400-digit reading
            raise UserError(N_("not valid nvidia-smi XML: %(name)s: %(reason)s"), where=smi_where,
                            values={"name": type(exc).__name__, "reason": exc}) from None
        chosen = ic.select_gpus(log, c.serial)
        n = len(log.gpus)
        if len(facts) + len(chosen.gpus) > MAX_CARD_READINGS:  # 1,000 cards x a 64-GPU report: 50 s, 1.6 GB
            raise UserError(N_("more than %(max)s GPU readings to judge: cards without a serial in their report "
                               "are judged on every GPU of it"), where=f"{where}: used_cards",
                            hint=N_("give each card's serial, or each card's own report"),
                            values={"max": MAX_CARD_READINGS})
        for k, (index, r) in enumerate(chosen.gpus):
            f = dict(base)
            f.update(_reading_fields(r, gpu, claimed_names, kb))
            f.update(has_smi=True, primary=k == 0, gpu_index=index, gpus_in_report=n,
                     judged_all=chosen.how == "all" and n > 1, report_serial=r.serial or "",
                     serial_in_report={True: 1, False: 0, None: -1}[chosen.serial_in_report])
            if f["judged_all"]:
                f["serial"] = f"{label} (GPU {index} of {n} in the report, {r.serial or r.pci_bus_id or 'no serial'})"
            facts.append(f)
    for f in facts:
        views.append(UsedCard.model_construct(**f))  # every field of the fact but ``gpu``
    return facts, views


_SLOWDOWNS = {"hw_slowdown": "reason_hw_slowdown", "hw_thermal_slowdown": "reason_hw_thermal_slowdown",
              "hw_power_brake_slowdown": "reason_hw_power_brake", "sw_thermal_slowdown": "reason_sw_thermal_slowdown"}
"""nvidia-smi clock limiters -> the card fact's field saying each is active (the rules choose which
of them mean failing cooling or power delivery)."""

_NO_READING: dict[str, Any] = {
    "retired_pages": -1, "remapped_rows": -1, "memory_repairs": -1, "pending": False, "remap_failure": False,
    "remap_banks_exhausted": -1,
    "uncorrectable_ecc": -1, "correctable_ecc": -1, "ecc_on": -1, "pstate": -1, "gpu_idle_known": False,
    "gpu_idle": False, "link_width": -1, "link_width_max": -1, "link_gen": -1,
    "link_gen_max": -1, "link_width_fraction": -1.0, "link_gb_s": -1.0, "link_gb_s_full": -1.0,
    "pcie_replays": -1, "power_limit_w": -1.0, "default_power_limit_w": -1.0,
    "app_clocks_off_mhz": -1, "throttle_reasons": "", "throttling": False, **dict.fromkeys(_SLOWDOWNS.values(), False),
    "vbios": "",
    "product_name": "", "product_matches": -1, "memory_mib": -1, "claimed_memory_mib": -1, "memory_ratio": -1.0,
    "gpu_temp_c": -1, "gpu_temp_limit_c": -1, "gpu_slowdown_temp_c": -1, "gpu_shutdown_temp_c": -1,
    "mem_temp_c": -1, "mem_temp_limit_c": -1, "mem_type": "", "mem_throttle_c": -1, "recovery": "",
    "virtual_gpu": False,
}
"""The reading fields of a card fact when no nvidia-smi report says otherwise (-1: not known)."""


def _known(value: Any, default: Any = -1) -> Any:
    return default if value is None else value


def _reading_fields(r: Any, gpu: Any, claimed_names: list[str], kb: Any) -> dict[str, Any]:
    """One GPU's readings as flat fact fields (numbers and booleans the rules compare)."""
    from . import inspect_card as ic

    mem = ic.memory_errors(r)
    reasons = [x for x in r.active_clock_event_reasons if x not in ("applications_clocks_setting",)]
    ratio = ic.memory_ratio(r, gpu.memory.gb)
    return {
        "retired_pages": _known(mem.retired_pages), "remapped_rows": _known(mem.remapped_rows),
        "memory_repairs": _known(mem.repairs),
        "pending": bool(mem.pending), "remap_failure": bool(mem.remap_failure),
        "remap_banks_exhausted": _known(mem.remap_banks_exhausted),
        "uncorrectable_ecc": _known(mem.uncorrectable_ecc), "correctable_ecc": _known(mem.correctable_ecc),
        "ecc_on": -1 if r.ecc_mode_current is None else int(r.ecc_mode_current),
        "pstate": _known(ic.pstate(r)), "gpu_idle": bool(r.gpu_idle),  # what the rules compare
        "gpu_idle_known": r.gpu_idle is not None,
        "link_width": _known(r.link_width_current), "link_width_max": _known(r.link_width_max),
        "link_gen": _known(r.pcie_gen_current), "link_gen_max": _known(r.pcie_gen_max),
        **_link_bandwidth(r.link_width_current, r.link_width_max, r.pcie_gen_max, kb),
        "pcie_replays": _known(r.pcie_replay_count),
        "power_limit_w": _known(r.power_limit_w, -1.0), "default_power_limit_w": _known(r.default_power_limit_w, -1.0),
        "app_clocks_off_mhz": _known(ic.app_clocks_off_mhz(r)),
        "throttle_reasons": ", ".join(reasons), "throttling": bool(reasons),
        **{field: reason in reasons for reason, field in _SLOWDOWNS.items()},
        "vbios": r.vbios_version or "", "product_name": _clipped(r.product_name or ""),
        "product_matches": _product_matches(r.product_name, gpu.id, claimed_names, kb),
        "memory_mib": _known(r.memory_total_mib), "claimed_memory_mib": round(gpu.memory.gb * 1024),
        "memory_ratio": round(ratio, 4) if ratio is not None else -1.0,
        "gpu_temp_c": _known(r.temperature_c),
        "gpu_temp_limit_c": _known(r.gpu_max_operating_temp_c if r.gpu_max_operating_temp_c is not None
                                   else r.gpu_slowdown_temp_c),
        "gpu_slowdown_temp_c": _known(r.gpu_slowdown_temp_c), "gpu_shutdown_temp_c": _known(r.gpu_shutdown_temp_c),
        "mem_temp_c": _known(r.memory_temp_c), "mem_temp_limit_c": _known(r.memory_max_operating_temp_c),
        "mem_type": gpu.memory.type, "mem_throttle_c": _memory_throttle(gpu.memory.type, kb),
        "recovery": "; ".join(ic.recovery_needed(r)), "virtual_gpu": ic.virtual_gpu(r),
    }


def _link_bandwidth(width: int | None, width_max: int | None, gen_max: int | None, kb: Any) -> dict[str, float]:
    """The link's width as a fraction of the card's, and what it carries each way under load: the x16
    rate of the generation it trains to (knowledge/runtime.yaml pcie_gb_s, PCI-SIG) scaled by lanes.
    At idle a card lowers the generation, never the width, so the supported generation is the one
    a job gets; -1 where the report leaves a figure out."""
    out = {"link_width_fraction": -1.0, "link_gb_s": -1.0, "link_gb_s_full": -1.0}
    if not width or not width_max:
        return out
    out["link_width_fraction"] = round(width / width_max, 4)
    rates = kb.runtime.pcie_gb_s
    if gen_max is not None and str(gen_max) in rates:
        x16 = rates[str(gen_max)].value
        out.update(link_gb_s=round(x16 * width / 16, 2), link_gb_s_full=round(x16 * width_max / 16, 2))
    return out


def _memory_throttle(kind: str, kb: Any) -> int:
    """The throttle point of a memory type (``gddr6x_memory_throttle_c``, ``hbm2e_memory_throttle_c``,
    ``hbm3_memory_throttle_c`` in policy, or any type's an overlay sets), -1 where the policy names none."""
    from ..knowledge import memory_type_key

    name = f"{memory_type_key(kind)}_memory_throttle_c"
    return int(kb.policy_values()[name]) if name in kb.policy else -1


_EXACT: dict[tuple[int, str], tuple[Any, str | None]] = {}
"""Product names of seller reports resolved against a knowledge base (kept with it, so an id is
never read for another): a batch's cards repeat the same few names, and an unknown name's
resolution looks for close matches, for a hint nobody reads here."""
MAX_EXACT = 1024


def _exact_gpu(product: str, kb: Any) -> str | None:
    """The GPU id the catalog knows ``product`` by exactly (an id or alias, not a default variant)."""
    got = _EXACT.get((id(kb), product))
    if got is None or got[0] is not kb:
        try:
            r = kb.gpu(product)
        except UserError:
            r = None
        if len(_EXACT) >= MAX_EXACT:
            _EXACT.clear()
        got = _EXACT[(id(kb), product)] = (kb, r.id if r is not None and r.note is None else None)
    return got[1]


def _clipped(text: str, limit: int = 80) -> str:
    """A seller's text as a message quotes it: a 100,000-letter product name filled the report."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _product_matches(product: str | None, gpu_id: str, claimed_names: list[str], kb: Any) -> int:
    """1 when the report's product name is the proposal's GPU, 0 when it is another, -1 unknown.

    A product name the catalog knows exactly (an id or alias, not a default variant) decides by
    id; any other is compared by series and variant words (:func:`inspect_card.product_matches`).
    """
    from . import inspect_card as ic

    if not product:
        return -1
    exact = _exact_gpu(product, kb)
    if exact is not None:
        return 1 if exact == gpu_id else 0
    verdict = ic.product_matches(product, claimed_names)
    return -1 if verdict is None else int(verdict)


def _as_requirements(p: Proposal) -> Requirements:
    c = p.constraints
    if "project_months" not in c.model_fields_set:
        c = c.model_copy(update={"project_months": p.acquisition.months})
    return Requirements(workload=p.workload, constraints=c, environment=p.environment)


def audit(proposal: Any, *, knowledge: str | None = None, base_dir: str | None = None,
          rules: str | None = None, fx_rate: float | None = None) -> AuditResult:
    """``fx_rate``: CNY per USD instead of the knowledge base's dated rate (``--fx-rate``)."""
    with gc_paused():
        return _audit(proposal, knowledge=knowledge, base_dir=base_dir, rules=rules, fx_rate=fx_rate)


def _audit(proposal: Any, *, knowledge: str | None, base_dir: str | None, rules: str | None,
           fx_rate: float | None = None) -> AuditResult:
    p: Proposal = coerce(Proposal, proposal)
    where = str(proposal) if isinstance(proposal, (str, Path)) else "proposal"
    base = Path(base_dir) if base_dir else (Path(proposal).parent if isinstance(proposal, (str, Path)) else Path.cwd())
    kb = with_rate(knowledge_mod.load(knowledge), fx_rate)
    p, money_notes = to_usd(p, kb)
    listed = listed_provider(kb, p.acquisition.provider)
    if listed is not None and listed != p.acquisition.provider:  # 'Lambda' is the price list's 'lambda'
        p = p.model_copy(update={"acquisition": p.acquisition.model_copy(update={"provider": listed})})
    full = provider_instance(kb, p.acquisition.instance, p.acquisition.provider)
    if full is not None:  # an imported catalog's instance named as its provider names it: acme's acme-8xh100
        p = p.model_copy(update={"acquisition": p.acquisition.model_copy(update={"instance": full})})
    p, host = instance_host(p, kb)
    req = _as_requirements(p)
    with resolve(req, kb, where) as job:  # its caches are dropped when the result is built
        if host is not None:
            job.assumptions.append(host)
        if "project_months" not in p.constraints.model_fields_set:  # the project's length, from the acquisition
            job.assumptions.append(note("constraints.project_months", req.constraints.project_months,
                                        "assume.project_months.acquisition" if "months" in
                                        p.acquisition.model_fields_set else "assume.default.constraints.project_months",
                                        {"months": req.constraints.project_months}))
        book = rulebook_for(job, rules)
        r = kb.gpu(p.hardware.gpu, where=f"{where}: hardware.gpu")
        named = [note("hardware.gpu", p.hardware.gpu, r.note_id, r.note_values)] if r.note_id else []
        notes = [*money_notes, *named, *provider_note(kb, p.acquisition.provider)]
        gpu = kb.gpus[r.id]
        p = systems(p, gpu, f"{where}: hardware.nodes")
        p, servers = servers_bought(p, gpu, kb)
        if servers is not None:
            job.assumptions.append(servers)
        check_shared_host_ram(gpu, p.hardware.count, p.hardware.nodes, p.hardware.host_ram_gb,
                              f"{where}: hardware.host_ram_gb")
        hw, acq = p.hardware, p.acquisition
        check_network(kb, hw.network, f"{where}: hardware.network")
        if acq.mode == "rent":
            check_instance(kb, acq.instance, gpu.id, f"{where}: acquisition.instance", acq.provider, hw.count,
                           hw.nodes)
            check_instance_network(kb, acq.instance, hw.network, hw.count, hw.nodes, f"{where}: hardware.network")
            check_instance_host_ram(kb, acq.instance, hw.host_ram_gb, f"{where}: hardware.host_ram_gb")
        job.cloud = p.cloud  # the proposal's transfer and storage: on its bill and on every rental alternative's
        match, basis = proposal_instance(p, job, gpu)
        priced = _on_gpu(job, gpu)  # a published checkpoint this GPU's engine has no kernels for: in 16 bits, said
        proposed = evaluate(priced, gpu, hw.count, nodes=hw.nodes, network=hw.network, link=hw.link,
                            host_ram_gb=hw.host_ram_gb, unit_price=acq.unit_price_usd, hourly_usd=acq.hourly_usd,
                            spot=acq.spot, provider=acq.provider,
                            instance=acq.instance or getattr(match, "instance", None), condition=acq.condition,
                            acquisition=acq.mode, tag="proposed:", commitment_months=commitment_months(p))
        if priced is not job:
            proposed.job = priced
        said_net = instance_network(p, kb, proposed) or provider_network(p, job, gpu, proposed, match, basis)
        if said_net is not None:
            job.assumptions.append(said_net)
        # host RAM as the proposal gives it; renting, as the rented server comes (evaluate: the named instance's,
        # else the offer's as its provider states it, else a typical figure for the segment; the finding says
        # which); buying with none given, unknown
        if hw.host_ram_gb or (acq.mode != "rent" and proposed.host_ram_from != "shared"):
            proposed.host_ram_gb = hw.host_ram_gb
            proposed.host_ram_from = "proposal" if hw.host_ram_gb else ""
        # the seller's reports read before the search: a refused report is refused at once
        cards, views = card_facts(p, gpu, base, where, kb)
        # the alternative: the decision engine over the catalog (or the proposal's short list), with
        # recommend's count search
        gpu_ids, more_notes = candidate_gpus(job)
        search = _alternatives(job, gpu_ids, book)
        alternatives, modes, server = search.evaluations, search.modes, search.server
        prop_fact = proposal_fact(p, job, gpu, proposed, kb)
        judged = search.judged
        added = len(job.assumptions)
        con = consult(job, [proposed, *(alternatives if judged is None else [])], book,
                      proposed_total_gb=proposed.capacity * hw.count / GB, proposed_gpus=hw.count,
                      extra_facts=[prop_fact, *({"t": "card", **c} for c in cards)],
                      modes={0: [acq.mode], **{i + 1: ms for i, ms in modes.items()}},
                      server=roomiest(server, Server.of(proposed)),
                      judged_before=None if judged is None else (alternatives, judged.options),
                      before_host_ram=None if judged is None else search.host_ram(job, book),
                      every_rule=judged is None)  # build_result below runs them all through every rule
        if judged is None:  # the alternatives judged and ranked here; a batch keeps what the audit uses
            rec = build_result(job, con, [*notes, *more_notes], rules)
            alt = _best_alternative(rec.candidates)
            alt_key = f"{alt.gpu}x{alt.count}:{alt.acquisition}" if alt is not None else None
            # the alternative's own warnings (review54: 64 rented H100s offered for a 32B full fine-tune at 81.1 GB
            # of 81.2 usable, MEM-TIGHT, where the audit warned of the proposal's 81.2 of 81.6 and said nothing of it)
            own = [x for k, x in con.outcome(lambda key: key == alt_key).findings
                   if k == alt_key and x.severity in ("blocker", "warning")] if alt_key in con.options else []
            judged = _Judged(alt, [con.options[alt_key]] if alt_key in con.options else [], rec.charts,
                             rec.knowledge_dates, [o for k, o in con.options.items() if not k.startswith("proposed")],
                             job.assumptions[added:], own)
            if search.shared:
                search.judged = judged
        else:
            job.assumptions.extend(a for a in judged.added if a not in job.assumptions)
        mine_key = next(k for k in con.options if k.startswith("proposed"))
        bought = proposed.market if acq.mode == "buy" else None  # where it runs, a default the cost rests on
        if bought is not None and bought.hosting_assumed and bought.hosting:
            notes.append(note("constraints.hosting", bought.hosting, "assume.default.constraints.hosting"))
        alt, alt_option = judged.alternative, judged.alt_option  # its prices are judged too
        mine = {mine_key, f"env:{gpu.id}",
                *(fact_key(f) for f in price_facts(job, [(proposed, acq.mode), *alt_option]))}
        shown = lambda key: key in mine or not _alternative_key(key)  # noqa: E731
        outcome = con.outcome(shown, reasons=shown)  # the alternatives' reasons are not shown here
        findings = ordered_findings(outcome, lambda key: key in mine or not _alternative_key(key))
        prop_cand = candidate_out(con, outcome, mine_key, None, None)
        savings = None
        pc = prop_cand.total_cost_usd
        if alt is not None and alt.total_cost_usd is not None and pc is not None:
            savings = pc - alt.total_cost_usd
        given_up = gives_up(book, prop_cand, alt)  # the comparison rules' verdict
        # the search's best is the proposal itself (review55: 8 x B200 bought to serve DeepSeek-V3 read 'The
        # alternative: 8 x NVIDIA B200 ..., $427,165 net of resale' beside the same proposal, 'not cheaper')
        own_setup = alt is not None and savings is not None and round(savings, 2) == 0 and (  # the same to the cent
            alt.gpu, alt.count, alt.nodes, alt.acquisition, alt.provider if alt.acquisition == "rent" else None) == (
            prop_cand.gpu, prop_cand.count, prop_cand.nodes, prop_cand.acquisition,
            prop_cand.provider if prop_cand.acquisition == "rent" else None)
        verdict = "reject" if any(f.severity == "blocker" for f in findings) else (
            "revise" if any(f.severity == "warning" for f in findings) else "approve")
        understood = p.model_copy(update={"constraints": req.constraints}).model_dump(mode="json")
        job.drop_unused(understood["workload"])  # as recommend's question: the task's own fields
        return made(AuditResult, dict(
            verdict=verdict, findings=findings, alternative=alt, alternative_findings=judged.alt_findings,
            title=p.title, file=where,
            # as understood: the project is the committed months where the file gives no project_months
            proposal=understood,
            proposed=prop_cand, savings_usd=savings,
            savings_comparable=savings is not None and not given_up, alternative_gives_up=given_up,
            alternative_is_proposal=own_setup,
            assumptions=[*job.assumptions, *notes], trace=[e for e in outcome.trace if e.subject in mine
                                                           or not _alternative_key(e.subject)],
            steps=step_summaries(job, con, outcome, mine_key),
            charts=_with_proposal_curve(judged.charts, proposed, acq.mode),
            knowledge_dates=judged.knowledge_dates, cards=views,
            stale_prices=[StalePrice.of(f, answer={x["what"] for x in price_facts(job, [(proposed, acq.mode)])})
                          for f in findings if f.topic == "data-freshness"],
            prices_used=prices_used(job, proposed, acq.mode, committed_months=commitment_months(p)) + [
                alternative(e) for o in alt_option for e in prices_used(job, *o)],
            currency=currency_info(kb, job.c.currency), house_rules=house_rules(book, rules),
            policy=job.kb.policy_values(), ranking=ranking_sentence(job.kb.policy_values(), job.training),
        ))


@record
class _Judged:
    """What an audit takes from the alternatives once they are judged and ranked (the same for every
    proposal asking the same question: every rule reads one fact, and the proposal is never one of
    them): the best alternative and its option, the charts, the knowledge's dates, every option
    judged (their prices are facts of each audit) and the assumptions judging them added."""

    alternative: Candidate | None
    alt_option: list[tuple[Any, str]]
    charts: Charts
    knowledge_dates: dict[str, str]
    options: list[tuple[Any, str]]
    added: list[Assumption]
    alt_findings: list[Finding]


@record
class _Search:
    """One question's alternative search (recommend's count search), and once an audit has judged
    them, what it took from them (``judged``); ``shared``: kept for the batch's later audits."""

    kb: Any
    evaluations: list[Any]
    modes: dict[int, list[str]]
    server: Server | None
    added: list[Assumption]
    shared: bool = False
    judged: _Judged | None = None
    host_ram_server: tuple[Any] | None = None

    def host_ram(self, job: Any, book: Any) -> tuple[Any]:
        """:func:`consult.host_ram_server` of the alternatives, worked out once: every proposal asking
        this question judges them against the same memory limits."""
        if self.host_ram_server is None:
            self.host_ram_server = (host_ram_server(job, book, self.evaluations),)
        return self.host_ram_server


_SHARED: dict[str, _Search] | None = None
"""The alternative searches of a batch (:func:`sharing`), by question; None: not in a batch."""
SHARED_QUESTIONS = 16
"""Searches a batch keeps: the oldest is dropped past this (each holds a catalog's estimates)."""


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Audits inside share the search for the alternative between proposals that ask the same
    question (the same job, cloud use, knowledge, rules and candidate GPUs: copies of a proposal, or
    proposals for other hardware for the same work), as a batch does, and the alternatives as the
    rules judged and ranked them: that was nine tenths of an audit in a batch. The results are the
    ones each audit gives alone (tests/test_audit_batch.py)."""
    global _SHARED
    outer, _SHARED = _SHARED, {} if _SHARED is None else _SHARED
    try:
        # and what the rules did with each alternative (engine.remembering), and the layout planner's
        # work on a training question (training_job.sharing)
        with engine.remembering(), training_sharing():
            yield
    finally:
        _SHARED = outer


def _question(job: Any, gpu_ids: list[str], book: Any) -> str:
    """What the alternative search depends on, as a digest: the requirements as resolved (the
    proposal's workload, constraints and environment) and which of their fields the file wrote
    (:func:`given_fields`), its cloud use (on every rental's bill), the rules (their digest covers
    the policy) and the GPUs searched. The knowledge base is compared by identity (one object per
    overlay in a process)."""
    cloud = job.cloud.model_dump(mode="json") if job.cloud is not None else None
    payload = [job.req.model_dump(mode="json"), given_fields(job.req), cloud, book.digest, gpu_ids,
               job.deadline_days, job.tokens]
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def given_fields(value: Any) -> Any:
    """Which fields a record and every record in it were given rather than defaulted, for a key: a
    value written out can ask another question than the same value left to its default (a layout
    setting written out, even at its default, is pinned: ``training_job.requested_pins``), and
    ``model_dump`` does not tell them apart."""
    if isinstance(value, list | tuple):
        return [given_fields(v) for v in value]
    if isinstance(value, dict):
        return {str(k): given_fields(v) for k, v in value.items()}
    given = getattr(value, "model_fields_set", None)
    if given is None:
        return None
    inner = {k: given_fields(v) for k, v in vars(value).items()}
    return [sorted(given), {k: v for k, v in inner.items() if v is not None}]


def _alternatives(job: Any, gpu_ids: list[str], book: Any) -> _Search:
    """recommend's count search over the catalog (:func:`estimates`), shared in a batch: a proposal
    asking a question already searched gets those estimates, and the assumptions the search added."""
    if _SHARED is None:
        before = len(job.assumptions)
        return _Search(job.kb, *estimates(job, gpu_ids, book), job.assumptions[before:])
    key = _question(job, gpu_ids, book)
    got = _SHARED.get(key)
    if got is not None and got.kb is job.kb:
        job.assumptions.extend(a for a in got.added if a not in job.assumptions)
        return got
    before = len(job.assumptions)
    got = _SHARED[key] = _Search(job.kb, *estimates(job, gpu_ids, book), job.assumptions[before:], shared=True)
    while len(_SHARED) > SHARED_QUESTIONS:
        del _SHARED[next(iter(_SHARED))]
    return got


def _with_proposal_curve(charts: Charts, proposed: Any, mode: str) -> Charts:
    """The result's charts plus the proposal's own cumulative cost of renting and of buying over its
    period (the report draws the proposal first; ``cost_curve`` is the alternative's)."""
    curve = proposed.cost_chart(mode)
    if curve is None:
        return charts
    curve = curve.model_copy(update={"label": f"{proposed.count} x {proposed.gpu.name}"})
    return charts.model_copy(update={"proposal_cost_curve": curve})


def _alternative_key(key: str) -> bool:
    """Keys about the alternatives (candidates, their GPUs' environments, their prices): summarised,
    not detailed."""
    return not key.startswith(("proposed", "card:")) and key not in ("job", "proposal")


def _best_alternative(cands: list[Candidate]) -> Candidate | None:
    for c in cands:
        if c.feasible and c.rank == 1:
            return c
    return None
