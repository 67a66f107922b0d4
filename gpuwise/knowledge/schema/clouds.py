"""``clouds.yaml``: providers, instances, per-GPU-hour offers, fees, spot behaviour."""

import datetime as _dt
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, model_validator

from ...errors import N_, Said
from ..records import GpuHourPriceMethods, InstanceMethods
from .base import Check, Prose, Strict

Currency = Literal["USD", "CNY"]

MIN_HOURLY_PRICE = 0.001
"""The least an hourly price may be, in either currency: a tenth of a cent (or fen) an hour. The
cheapest GPU-hour any cloud lists costs several cents; a price of 1e-300 an hour is a typo or a
unit slip, and it made every rental free (the answer cost $0.00)."""


MAX_HOURLY_PRICE = 100_000
"""The most an hourly price may be, in either currency, for a whole instance: a 72-GPU rack at
1,000 an hour a GPU is 72,000 (the dearest instance in clouds.yaml costs about $114 an hour). An
offer of $1e300 an hour was read, and a total of 1e300 hours' worth printed."""


def at_least_floor(v: float | None) -> float | None:
    """An hourly price within :data:`MIN_HOURLY_PRICE` .. :data:`MAX_HOURLY_PRICE`."""
    if v is not None and 0 < v < MIN_HOURLY_PRICE:
        raise Said(N_("%(value)s an hour is below %(floor)s: no GPU rents for so little (a price is per hour, in "
                      "the offer's currency)"), value=f"{v:g}", floor=f"{MIN_HOURLY_PRICE:g}")
    if v is not None and v > MAX_HOURLY_PRICE:
        raise Said(N_("%(value)s an hour is above %(ceiling)s: no GPU rents for so much (a price is per hour, in "
                      "the offer's currency)"), value=f"{v:g}", ceiling=f"{MAX_HOURLY_PRICE:,}")
    return v


def spot_not_above(spot: float | None, on_demand: float | None, field: str) -> None:
    """A spot (preemptible) rate is the same machine sold at a discount, and may be taken back: the
    clouds cap it at the on-demand price (AWS since 2017; Google Cloud's and Azure's spot prices are
    discounts). One above it is a typo or two columns swapped."""
    if spot is not None and on_demand is not None and spot > on_demand:
        raise Said(N_("%(field)s %(spot)s is above the on-demand price %(price)s: a spot price is the same "
                      "machine at a discount (two columns swapped?)"), field=field, spot=f"{spot:g}",
                   price=f"{on_demand:g}")


Hourly = Annotated[float, AfterValidator(at_least_floor)]
"""An hourly price: more than zero (the field says so) and at least :data:`MIN_HOURLY_PRICE`."""


class _Priced(Strict):
    """An hourly price in USD or in CNY (exactly one), the network the provider states, and how the
    offer is sold: the largest size rented on demand, and whether more (several nodes) is rented on
    demand or only reserved for a minimum term."""

    network: str | None = Field(
        default=None, description="runtime.yaml network id with the bandwidth the provider states between "
                                  "nodes; None: not stated (an Ethernet-class default is assumed)")
    network_stated: Prose = Field(default="", description="the provider's own words for its network")
    network_source: Prose = Field(default="", description="where the network is read where the price page does not "
                                                         "state it (a system description the provider published)")
    network_as_of: _dt.date | None = Field(default=None, description="when network_source was published or read "
                                                                      "(it ages apart from the price's as_of)")
    host_ram_gb_per_gpu: float | None = Field(
        default=None, gt=0, le=100_000, description="host RAM that comes with each rented GPU, GB, as the provider "
        "states it (an offloaded job's state must fit in it); None: not stated (runtime.yaml rented_host_ram's "
        "typical figure for the GPU's segment is assumed)")
    host_ram_source: Prose = Field(default="", description="where the provider states host_ram_gb_per_gpu")
    max_on_demand_gpus: int | None = Field(
        default=None, ge=1, description="the most GPUs rented on demand (one instance or node); None: any count")
    multi_node: Literal["on-demand", "reserved"] = Field(
        default="on-demand", description="above max_on_demand_gpus: rented on demand, or only reserved")
    reserved_min_hours: float | None = Field(
        default=None, gt=0, description="the shortest reservation of the multi-node product (billed in full)")
    reserved_per_hour: dict[Literal["1-month", "1-year", "3-year"], float] = Field(
        default={}, description="published reserved rates in the offer's currency and unit (per GPU-hour for "
                                "gpu_hour_prices, per instance-hour for instances)")
    cluster_per_gpu_hour: dict[int, float] = Field(
        default={}, description="the reserved multi-node product's published rate per GPU-hour in the offer's "
                                "currency, by the cluster size (GPUs) it applies from; the smallest key is the "
                                "smallest cluster sold. Empty: not published (the on-demand rate is assumed)")
    sold_as_source: Prose = Field(default="", description="where the sizes, terms and reserved rates are stated "
                                                         "(the provider's page or a catalog generated from it)")
    terms_as_of: _dt.date | None = Field(
        default=None, description="when the sizes, terms and reserved rates were read (they age apart from the "
                                  "on-demand price's as_of)")
    terms_check: Check | None = Field(default=None, description="check mark of the terms' source (None: the "
                                                                "offer's own check)")

    @model_validator(mode="after")
    def _sold_as(self) -> "_Priced":
        if self.host_ram_gb_per_gpu is not None and len(self.host_ram_source) < 3:
            raise Said(N_("host_ram_gb_per_gpu needs its source: host_ram_source"))
        if (len(self.network_source) >= 3) != (self.network_as_of is not None) or (
                self.network_as_of is not None and self.network is None):
            raise Said(N_("network_source and network_as_of come together, with the network they source"))
        if self.multi_node == "reserved" and (self.max_on_demand_gpus is None or self.reserved_min_hours is None):
            raise Said(N_("multi_node: reserved needs max_on_demand_gpus and reserved_min_hours"))
        if any(v <= 0 for v in self.reserved_per_hour.values()):
            raise Said(N_("reserved_per_hour rates must be positive"))
        if any(v <= 0 for v in self.cluster_per_gpu_hour.values()) or any(k < 1 for k in self.cluster_per_gpu_hour):
            raise Said(N_("cluster_per_gpu_hour: cluster sizes and rates must be positive"))
        for name in ("reserved_per_hour", "cluster_per_gpu_hour"):
            for v in getattr(self, name).values():
                try:
                    at_least_floor(v)
                except Said as said:
                    raise Said(N_("%(field)s: %(said)s"), field=name, said=said) from None
        if self.cluster_per_gpu_hour and self.multi_node != "reserved":
            raise Said(N_("cluster_per_gpu_hour is a reserved multi-node product's rate: needs multi_node: reserved"))
        if (self.multi_node == "reserved" or self.reserved_per_hour) and (
                len(self.sold_as_source) < 3 or self.terms_as_of is None):
            raise Said(N_("reserved terms need their source and date: sold_as_source and terms_as_of"))
        return self

    def _one_price(self, usd: float | None, cny: float | None) -> None:
        if (usd is None) == (cny is None):
            raise Said(N_("give exactly one of the USD and the CNY price"))


class Instance(InstanceMethods, _Priced):
    id: str
    provider: str
    gpu: str = Field(description="gpu id in gpus.yaml")
    gpus: int = Field(ge=1)
    usd_per_hour: Hourly | None = Field(default=None, gt=0, description="whole instance, on-demand")
    cny_per_hour: Hourly | None = Field(default=None, gt=0, description="whole instance, on-demand, in CNY")
    spot_usd_per_hour: Hourly | None = Field(default=None, gt=0)
    region: str = ""
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"
    notes: Prose = ""

    @model_validator(mode="after")
    def _price(self) -> "Instance":
        self._one_price(self.usd_per_hour, self.cny_per_hour)
        spot_not_above(self.spot_usd_per_hour, self.usd_per_hour, "spot_usd_per_hour")
        return self


class GpuHourPrice(GpuHourPriceMethods, _Priced):
    """A per-GPU-hour offer from a GPU-specialist cloud (no instance shape)."""

    provider: str
    gpu: str
    usd_per_gpu_hour: Hourly | None = Field(default=None, gt=0)
    cny_per_gpu_hour: Hourly | None = Field(default=None, gt=0)
    spot_usd_per_gpu_hour: Hourly | None = Field(
        default=None, gt=0, description="the provider's published spot or preemptible rate, same date and source")
    min_gpus: int = Field(
        default=1, ge=1, le=100_000, description="the fewest GPUs one rental of this offer gives (a whole node's "
                                                 "8 where only nodes are rented); never above max_gpus")
    max_gpus: int | None = Field(
        default=None, ge=1, le=100_000,
        description="the most GPUs one rental of this offer gives (a pod is one machine); None: any count, over the "
                    "offer's network")
    step_gpus: int = Field(
        default=1, ge=1, le=100_000, description="GPUs are rented in whole multiples of this (CoreWeave's GB200 "
                                                 "NVL72: whole racks of 72); a count is rounded up to the next "
                                                 "multiple, min_gpus included; max_gpus is a multiple of it")
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"
    notes: Prose = ""

    @model_validator(mode="after")
    def _price(self) -> "GpuHourPrice":
        if self.max_gpus is not None and self.max_gpus % self.step_gpus:  # no count up to it could be rented
            raise Said(N_("max_gpus %(most)s is not a whole multiple of step_gpus %(step)s"), most=self.max_gpus,
                       step=self.step_gpus)
        self._one_price(self.usd_per_gpu_hour, self.cny_per_gpu_hour)
        if self.spot_usd_per_gpu_hour is not None and self.usd_per_gpu_hour is None:
            raise Said(N_("spot_usd_per_gpu_hour needs a USD on-demand price (usd_per_gpu_hour)"))
        spot_not_above(self.spot_usd_per_gpu_hour, self.usd_per_gpu_hour, "spot_usd_per_gpu_hour")
        if self.max_gpus is not None and self.min_gpus > self.max_gpus:
            # hostile round 37: min_gpus 16 with max_gpus 8 was listed '16 to 8 GPUs' and rented as 16 of an offer
            # of at most 8; min_gpus 1e9 priced a billion GPUs an hour
            raise Said(N_("min_gpus %(least)s is more than max_gpus %(most)s"), least=self.min_gpus,
                       most=self.max_gpus)
        return self


class Tier(Strict):
    up_to_tb: float | None = Field(default=None, gt=0, description="None = the rest")
    usd_per_gb: float = Field(ge=0)


class Provider(Strict):
    id: str
    name: str
    kind: Literal["hyperscaler", "gpu-cloud", "marketplace"]
    currency: Currency = Field(
        default="USD", description="currency of this provider's fees (the usd_* fee fields hold it)")
    market: Literal["global", "china"] = Field(default="global", description="china: mainland-China regions")
    # at least 0 (hostile round 39: a negative free allowance billed more egress than was sent, and a negative storage
    # price wrote a credit line on the bill, 'fee storage -2.16', lowering the proposal's cost)
    egress_free_gb_per_month: float = Field(default=0, ge=0)
    egress_tiers: list[Tier] = Field(description="internet egress, per GB, in order")
    cross_region_usd_per_gb: float = Field(ge=0)
    storage_usd_per_gb_month: dict[str, Annotated[float, Field(ge=0)]] = Field(
        default={}, description="kind (premium-ssd, standard-ssd, object) -> price a month, per storage_unit"
    )
    # the unit the provider's price page writes its storage rates per (review56: Nebius's $0.0147 per GiB was
    # charged per GB, 7% low): a GiB rate is charged on the GB (10^9 bytes) a job states after / 1.073741824
    storage_unit: Literal["GB", "GiB"] = Field(
        default="GB", description="GB (10^9 bytes) or GiB (2^30 bytes): what storage_usd_per_gb_month is per")
    spot_notice_s: int | None = None
    billing: Prose = ""
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"


class DiscountSchedule(Strict):
    id: str
    description: Prose
    per_full_30_days: float = Field(ge=0, le=1)
    max_discount: float = Field(ge=0, le=1)
    source: Prose
    caveat: Prose = ""


class SpotModel(Strict):
    """How spot capacity is priced in when no provider spot price is known."""

    fallback_discount: float = Field(ge=0, le=1)
    availability: float = Field(gt=0, le=1, description="fraction of time capacity is there")
    restart_overhead: float = Field(ge=0, le=1, description="extra work per unit of work after preemptions")
    source: Prose
    check: Check = "U"


class NotRented(Strict):
    """A catalog GPU no listed cloud rents, and why (market62: MI355X, with no public per-GPU-hour rate): said by
    ``gpuwise prices --gpu`` where the GPU has no rental row, so a missing offer reads as looked for, not forgotten.
    An offer for the GPU (an overlay's) supersedes the entry."""

    id: str = Field(description="gpu id in gpus.yaml")
    reason: Prose = Field(min_length=10, description="why no rental is listed: what was looked at, what it says")
    as_of: _dt.date = Field(description="when the sources named were read")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class CloudFile(Strict):
    schema_version: int
    providers: list[Provider]
    instances: list[Instance]
    gpu_hour_prices: list[GpuHourPrice] = []
    discount_schedules: list[DiscountSchedule] = []
    default_discount_schedule: str = "none"
    not_rented: list[NotRented] = Field(
        default=[], description="catalog GPUs no listed cloud rents, with the reason and the sources looked at")
    spot: SpotModel
    default_network: str = Field(
        default="ethernet-25", description="network assumed between rented nodes when the provider states none")
    default_network_source: Prose = ""
