"""``tco.yaml``: ownership assumptions (server share, PUE, hosting by deployment, resale, licences,
exchange rate)."""

import datetime as _dt
from typing import Literal

from pydantic import Field, field_validator

from ...errors import N_, Said
from ..records import TcoFileMethods
from .base import Check, Prose, Strict


class SourcedValue(Strict):
    value: float = Field(ge=0, description="a price, a rate, a share or a power: never negative")
    unit: str
    source: Prose = Field(min_length=3)
    as_of: _dt.date | None = None
    check: Check = "S"


class Hosting(Strict):
    """Where bought hardware runs: what the room adds to the power bill and what it charges."""

    description: Prose
    pue: float = Field(ge=1, le=3, description="facility power / IT power")
    rent_usd_per_kw_month: float = Field(ge=0, description="rent per kW of IT load, energy billed apart")
    wholesale_usd_per_kw_month: float | None = Field(
        default=None, ge=0, description="rate from `wholesale_min_kw` of IT load up")
    wholesale_min_kw: float | None = Field(default=None, gt=0)
    min_billed_kw: float = Field(default=0, ge=0, description="smallest contract (a quarter rack...)")
    circuit_kw: float | None = Field(
        default=None, gt=0, description="continuous load one ordinary circuit carries (office)")
    max_kw: float | None = Field(default=None, gt=0, description="IT load the room can take at all")
    source: Prose = Field(min_length=3)
    as_of: _dt.date | None = None
    check: Check = "U"


class ResaleCurve(Strict):
    """How fast a GPU family loses its resale value: a family with a thin second-hand market keeps
    less (fewer buyers, no spare-parts trade), whatever it cost new."""

    id: str
    architectures: list[str] = Field(min_length=1, description="gpus.yaml architectures the curve applies to")
    fraction_per_year: float = Field(gt=0, le=1, description="fraction of the previous year's value kept each year")
    floor: float = Field(ge=0, le=1, description="the lowest fraction of the price assumed")
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "U"


class TcoFile(TcoFileMethods, Strict):
    """Ownership assumptions: server share, PUE, hosting, resale, licences, FX."""

    schema_version: int
    values: dict[str, SourcedValue]
    hosting: dict[Literal["office", "colocation", "datacenter"], Hosting] = Field(
        default={}, description="constraints.hosting -> its power, cooling and rent")
    resale: list[ResaleCurve] = Field(
        default=[], description="per-family resale curves; other families use values.resale_fraction_per_year "
                                "and values.resale_floor_fraction")

    @field_validator("values")
    @classmethod
    def _rate_positive(cls, v: dict[str, SourcedValue]) -> dict[str, SourcedValue]:
        fx = v.get("usd_cny")
        if fx is not None and fx.value <= 0:
            raise Said(N_("usd_cny: the exchange rate must be more than 0 CNY per USD"))
        for name, item in v.items():  # an overlay's 1e300 USD per kWh was read as a price
            ceiling = next((c for prefix, c in _CEILINGS.items() if name.startswith(prefix)), 1e9)
            if item.value > ceiling:
                raise Said(N_("%(name)s: %(value)s is above %(ceiling)s, far beyond any published figure: a typo "
                              "or a unit slip"), name=name, value=f"{item.value:g}", ceiling=f"{ceiling:,.0f}")
        return v


_CEILINGS = {"pue": 5, "hosting_usd_per_kw_month": 100_000, "server_share_usd_per_gpu": 1_000_000,
             "host_power_w_per_gpu": 10_000, "resale_": 1, "nvaie_usd_per_gpu_year": 1_000_000,
             "nvaie_usd_per_gpu_hour": 1_000, "usd_cny": 1_000_000, "cfm_per_kw": 10_000, "max_air_cooled_kw": 1_000,
             "typical_rack_kw": 1_000, "electricity_usd_per_kwh": 100, "workstation_host_w": 10_000}
"""Ceilings of tco.yaml's values, by name prefix (others: 1e9): tens to thousands of times the figure
shipped (PUE 1.58, $184 per kW-month, $7,000 of server per GPU, 410 W, $0.15 per kWh, 6.77 CNY per
USD as --fx-rate allows up to 1e6); a resale fraction is at most 1."""
