"""The facts a plan puts before the rules (``rules/plan.yaml``): one per GPU type owned, one per
workload, one per budget period, one per hosted-API price compared, one per offloaded run on owned
GPUs, one per workload's on-demand rental of a GPU type. Registered in the fact vocabulary
(:mod:`gpuwise.decide.facts`) so rule files, house rules included, are checked against these fields
and ``gpuwise rules --facts`` lists them. Money in USD; ``-1`` means "none".

This module imports pydantic only: the vocabulary imports it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


def _f(description: str) -> Any:
    return Field(default=None, description=description)


class _Fact(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class PlanFleetFact(_Fact):
    """A GPU type the team owns, over the plan's months."""

    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    owned: int = _f("GPUs owned")
    utilisation: float = _f("GPU-hours used / GPU-hours owned over the plan (0-1)")
    idle_months: int = _f("months in which the owned GPUs ran nothing")
    months: int = _f("months in the plan")
    hosting_usd: float = _f("hosting and power the owned GPUs cost over the plan, USD")


class PlanWorkloadFact(_Fact):
    """A workload of the plan and where it went."""

    workload: str = _f("workload name")
    kind: str = _f("training | serving")
    placed: bool = _f("every run or month of load was placed")
    unplaced_months: int = _f("months with work left unplaced")
    owned_any: bool = _f("the team owns GPUs")
    owned_can_run: bool = _f("some owned GPU type can run it (memory, time, framework), at the owned count")
    owned_reason: str = _f("why the owned GPUs cannot run it ('' when they can)")
    owned_reason_phrases: list = _f("the same reason as message ids and values ([separator, id, values] parts), "
                                    "which a report words in its own language")
    owned_gpus: str = _f("the owned GPU types, by name")
    rented_share: float = _f("share of its GPU-hours rented (0-1)")
    outgrows_month: int = _f("serving: first month its load needs more than the owned GPUs carry (-1 never)")
    outgrows_gpus: int = _f("serving: GPUs that month's load needs (-1 never), of the owned type that needs fewest: "
                            "the owned copies' GPUs and the rest as the plan may add them (bought as sized, or "
                            "rented at the rented copy's size)")
    outgrows_gpu_name: str = _f("serving: that owned GPU type, by name ('' never)")
    outgrows_owned: int = _f("serving: how many of that type the team owns (0 never)")
    outgrows_then: str = _f("serving: what the plan does from that month: adds capacity, or leaves it short and from "
                            "which month it adds it ('' never)")
    outgrows_then_phrases: list = _f("the same as message ids and values, which a report words in its own language")
    late_purchase: bool = _f("hardware bought for it arrives after months in which it ran on rented GPUs")
    purchase_month: int = _f("month the hardware it uses was ordered (-1 none)")
    arrival_month: int = _f("month that hardware arrives (-1 none)")
    first_month: int = _f("first month the workload runs")
    whole_month: int = _f("training: first month a run went whole to a cloud though GPUs the plan holds had room for "
                          "part of it (-1 never): the plan does not split a run between them and a cloud")
    whole_gpu_name: str = _f("training: that GPU type the plan holds, by name ('' never)")
    whole_free_hours: float = _f("training: the wall hours a run had free on those GPUs that month (0 never)")
    whole_run_hours: float = _f("training: a run's wall hours on those GPUs (0 never)")
    whole_months: int = _f("training: the months that happened in (0 never)")
    market: str = _f("global | china: where the team buys and rents")
    rented_abroad: str = _f("china market: GPU types it rents from clouds outside mainland China that cannot be "
                            "sold into China ('' none)")
    max_p95_ttft_s: float = _f("serving: its p95 time-to-first-token target, s (-1 none)")
    has_p95_ttft_target: bool = _f("serving: it states a p95 time-to-first-token target")
    p95_ttft_target_ms: float = _f("serving: the same target in milliseconds, for the {x:ms} format (-1 none)")
    p95_ttft_as_ms_s: float = _f("serving: the target read as milliseconds, in seconds (-1 none)")
    max_p95_tpot_s: float = _f("serving: its p95 time-per-output-token target, s (-1 none)")
    has_p95_tpot_target: bool = _f("serving: it states a p95 time-per-output-token target")
    p95_tpot_target_ms: float = _f("serving: the same target in milliseconds (-1 none)")
    p95_tpot_as_ms_s: float = _f("serving: the target read as milliseconds, in seconds (-1 none)")


class PlanBudgetFact(_Fact):
    """A budget period (a quarter, or the whole plan) and the cash the plan spends in it."""

    period: str = _f("Q1, Q2... or total")
    cash_usd: float = _f("cash out in the period (capex, rent, hosting, power), USD")
    budget_usd: float = _f("the budget, USD")
    ratio: float = _f("cash / budget")


class PlanApiFact(_Fact):
    """A hosted API that serves a planned service's model, at the planned volume."""

    workload: str = _f("workload name")
    provider: str = _f("API provider")
    model: str = _f("model id")
    api_usd_per_month: float = _f("the traffic at the API's token prices, USD per month")
    self_host_usd_per_month: float = _f("what serving it adds to the plan, USD per month")
    ratio: float = _f("API cost / self-hosting cost")


class PlanOwnedRunFact(_Fact):
    """A run the plan places on owned GPUs that keeps its state in host RAM (offload), and the owned servers' RAM."""

    workload: str = _f("workload name")
    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    count: int = _f("owned GPUs one run uses")
    offload: str = _f("cpu | nvme: where the run offloads its state")
    host_ram_needed_gb: float = _f("host RAM the run needs a server, GB (its offloaded state over the owned servers "
                                   "it spans, where owned[].servers is given; else over the estimate's nodes)")
    host_ram_gb: float = _f("host RAM of each owned server, GB, as the plan states it (owned[].host_ram_gb; the "
                            "least where several entries give the type; -1 not stated)")


class PlanOwnedWarrantyFact(_Fact):
    """An owned[] entry with the month it was bought, against its maker's standard warranty."""

    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    count: int = _f("GPUs of the entry")
    bought: str = _f("when they were bought (owned[].bought, YYYY-MM)")
    warranty_years: float = _f("the maker's standard warranty for the GPU's segment, years (knowledge/tco.yaml "
                               "warranty_years_<segment>; -1 none known)")
    warranty_ends: str = _f("the month the warranty ends, YYYY-MM ('' none known)")
    months_past: int = _f("whole months from the warranty's end to the plan's first month (the current month): 0 "
                          "or more past it, below 0 still under it")
    ends_in_month: int = _f("the plan month in which the warranty ends (-1: not within the plan)")
    months: int = _f("months in the plan")


class PlanRentalFact(_Fact):
    """A workload's on-demand rental of a GPU type in the plan: the GPUs one run or copy uses, and those billed."""

    workload: str = _f("workload name")
    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    provider: str = _f("the provider rented from")
    instance: str = _f("the instance rented, by name ('none': an offer by the GPU)")
    count: int = _f("GPUs one run or copy uses")
    gpus_paid: int = _f("GPUs its rental bills for them (whole steps, an instance or node rented whole)")
    rental_step_gpus: int = _f("the offer's GPUs come in whole multiples of this (clouds.yaml step_gpus: a GB200 "
                               "NVL72 rack's 72; 1 none)")


PLAN_FACTS: dict[str, type[BaseModel]] = {
    "plan_fleet": PlanFleetFact,
    "plan_workload": PlanWorkloadFact,
    "plan_budget": PlanBudgetFact,
    "plan_api": PlanApiFact,
    "plan_owned_run": PlanOwnedRunFact,
    "plan_owned_warranty": PlanOwnedWarrantyFact,
    "plan_rental": PlanRentalFact,
}
