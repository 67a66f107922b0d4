"""``clouds.yaml``: providers, instances, per-GPU-hour offers, fees, spot behaviour."""

from __future__ import annotations

import datetime as _dt
from typing import Literal

from pydantic import Field

from .base import Check, Strict


class Instance(Strict):
    id: str
    provider: str
    gpu: str = Field(description="gpu id in gpus.yaml")
    gpus: int = Field(ge=1)
    usd_per_hour: float = Field(gt=0, description="whole instance, on-demand")
    spot_usd_per_hour: float | None = Field(default=None, gt=0)
    region: str = ""
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"
    notes: str = ""


class GpuHourPrice(Strict):
    """A per-GPU-hour offer from a GPU-specialist cloud (no instance shape)."""

    provider: str
    gpu: str
    usd_per_gpu_hour: float = Field(gt=0)
    min_gpus: int = 1
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"
    notes: str = ""


class Tier(Strict):
    up_to_tb: float | None = Field(default=None, gt=0, description="None = the rest")
    usd_per_gb: float = Field(ge=0)


class Provider(Strict):
    id: str
    name: str
    kind: Literal["hyperscaler", "gpu-cloud", "marketplace"]
    egress_free_gb_per_month: float = 0
    egress_tiers: list[Tier] = Field(description="internet egress, per GB, in order")
    cross_region_usd_per_gb: float = Field(ge=0)
    storage_usd_per_gb_month: dict[str, float] = Field(
        default={}, description="kind (premium-ssd, standard-ssd, object) -> price"
    )
    spot_notice_s: int | None = None
    billing: str = ""
    as_of: _dt.date
    source: str = Field(min_length=3)
    check: Check = "S"


class DiscountSchedule(Strict):
    id: str
    description: str
    per_full_30_days: float = Field(ge=0, le=1)
    max_discount: float = Field(ge=0, le=1)
    source: str
    caveat: str = ""


class SpotModel(Strict):
    """How spot capacity is priced in when no provider spot price is known."""

    fallback_discount: float = Field(ge=0, le=1)
    availability: float = Field(gt=0, le=1, description="fraction of time capacity is there")
    restart_overhead: float = Field(ge=0, le=1, description="extra work per unit of work after preemptions")
    source: str
    check: Check = "U"


class CloudFile(Strict):
    schema_version: int
    providers: list[Provider]
    instances: list[Instance]
    gpu_hour_prices: list[GpuHourPrice] = []
    discount_schedules: list[DiscountSchedule] = []
    default_discount_schedule: str = "none"
    spot: SpotModel
