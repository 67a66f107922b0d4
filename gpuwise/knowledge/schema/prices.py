"""``prices.yaml``: how each GPU is sold (the units a buyer can get), dated street prices in USD
or CNY (new and used), the network parts a bought cluster needs, and the China market facts
(whether US export rules let the part be sold there, and whether it was made for China).

Prices are what a buyer pays, never a launch list price posing as one: each point names its
kind (street, reseller, quote, market report, vendor list, or an estimate derived here) and the
dated source. A server-sold GPU (SXM, OAM) is priced as whole servers; a card-sold GPU per card.
"""

import datetime as _dt
from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...errors import N_, Said
from ..records import MarketMethods
from .base import Check, Prose, Strict

Currency = Literal["USD", "CNY"]

MIN_PURCHASE_PRICE = 1.0
"""The least a purchase price may be, in either currency: the cheapest used card sells for tens of
dollars."""
MAX_PURCHASE_PRICE = 1e9
"""The most a purchase price may be, in either currency: a whole 72-GPU rack costs a few million
dollars (the dearest unit in prices.yaml: 1.4 million)."""


class PricePoint(Strict):
    """One dated price for one purchasable unit of a GPU."""

    amount: float = Field(gt=0, description="price of one unit, in `currency`")

    @field_validator("amount")
    @classmethod
    def _at_least_one(cls, v: float) -> float:
        """A GPU, a board or a server for less than one dollar (or yuan): a typo or a unit slip
        (1e-300 made the purchase free)."""
        if v < MIN_PURCHASE_PRICE:
            raise Said(N_("%(value)s is below %(floor)s: no GPU sells for so little (a price is for the whole unit, "
                          "in its currency)"), value=f"{v:g}", floor=f"{MIN_PURCHASE_PRICE:g}")
        if v > MAX_PURCHASE_PRICE:
            raise Said(N_("%(value)s is above %(ceiling)s: no GPU sells for so much (a price is for the whole unit, "
                          "in its currency)"), value=f"{v:g}", ceiling=f"{MAX_PURCHASE_PRICE:,.0f}")
        return v
    currency: Currency = "USD"
    condition: Literal["new", "used"]
    unit: Literal["card", "server", "baseboard"] = Field(
        description="card: one GPU; server: a whole server with `gpus` GPUs; baseboard: the GPU board only")
    gpus: int = Field(default=1, ge=1, le=72, description="GPUs in the unit (8 for an HGX server)")
    kind: Literal["street", "reseller", "quote", "market-report", "vendor-list", "estimate"]
    market: Literal["global", "china"] = Field(
        default="global", description="where the price was observed (china: CNY channel prices)")
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"
    notes: Prose = ""


class Units(Strict):
    """How the GPU is bought: the unit sizes a vendor sells, so counts that cannot be bought are not offered."""

    sold_as: Literal["server", "card", "workstation"] = Field(
        description="server: SXM/OAM modules on a baseboard in a whole server; card: PCIe cards in a server; "
                    "workstation: cards in a desktop workstation")
    sizes: list[int] = Field(
        min_length=1, description="GPUs per unit that can be bought (server: baseboard sizes such as [4, 8]; "
                                  "card/workstation: [1] since cards are bought one by one)")
    max_per_node: int = Field(ge=1, le=72, description="GPUs one server or workstation holds")
    reason: Prose = Field(min_length=10, description="why: the platform or product as sold")
    source: Prose = Field(min_length=3)

    @model_validator(mode="after")
    def _sizes(self) -> "Units":
        if any(s < 1 or s > self.max_per_node for s in self.sizes):
            raise Said(N_("unit sizes must be between 1 and max_per_node"))
        return self


class GpuPrices(Strict):
    id: str = Field(description="gpu id in gpus.yaml")
    units: Units
    prices: list[PricePoint] = Field(min_length=1)


class Excluded(Strict):
    """A catalog GPU deliberately left without a purchase price, and why."""

    id: str
    reason: Prose = Field(min_length=10)


class Market(MarketMethods, Strict):
    """A GPU's dated jurisdiction facts: whether US export rules let it be sold into China (and on
    what terms, since when), what China's own import guidance says, and whether it is sold outside
    China at all."""

    id: str = Field(description="gpu id in gpus.yaml")
    sold_in_china: bool
    china_part: bool = Field(default=False, description="made for the China market to fit the export rules")
    rule: str = Field(min_length=5, description="the rule that decides it, e.g. ECCN 3A090.a (TPP >= 4800)")
    licence: Literal["not-required", "required", "case-by-case", "presumption-of-denial"] | None = Field(
        default=None, description="US export licence policy for China (None: not-required when sold_in_china, "
                                  "else required)")
    licence_since: _dt.date | None = Field(default=None, description="when the licence policy took effect")
    surcharge_pct: float = Field(default=0, ge=0, le=100,
                                 description="share of a licensed sale to China the US government takes, percent")
    sold_globally: bool = Field(default=True, description="false: sold only in mainland China")
    domestic: bool = Field(default=False, description="a Chinese design (constraints.procurement: domestic)")
    china_import: Literal["allowed", "discouraged", "blocked"] = Field(
        default="allowed", description="China's own guidance on importing the part")
    china_import_note: str = ""
    china_import_as_of: _dt.date | None = None
    china_import_source: Prose = ""
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"

    @model_validator(mode="after")
    def _import_dated(self) -> "Market":
        if self.china_import != "allowed" and not (self.china_import_note and self.china_import_as_of
                                                   and len(self.china_import_source) >= 3):
            raise Said(N_("china_import other than allowed needs china_import_note, _as_of and _source"))
        if self.licence in ("case-by-case",) and self.licence_since is None:
            raise Said(N_("a case-by-case licence policy needs licence_since"))
        return self


class Fabric(Strict):
    """Priced parts of a bought cluster's network, per endpoint port (a NIC port on a node or GPU)."""

    id: str = Field(description="network id in runtime.yaml networks")
    description: Prose
    nic_usd: float = Field(ge=0, description="one NIC port (adapter price / ports)")
    switch_usd_per_port: float = Field(ge=0, description="switch price / ports")
    link_usd: float = Field(ge=0, description="one link: two transceivers and a fibre, or a DAC cable")
    switch_radix: int = Field(ge=4, description="ports per switch: beyond this a two-tier fat tree is needed")
    nic_included_in_server: bool = Field(
        default=False, description="HGX server prices that already include the scale-out NICs")
    as_of: _dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"


class PricesFile(Strict):
    schema_version: int
    gpus: list[GpuPrices]
    excluded: list[Excluded] = []
    markets: list[Market] = []
    fabrics: list[Fabric] = []
    bought_fabric: dict[str, str] = Field(
        description="form of purchase -> fabric id a bought multi-node cluster gets "
                    "(keys: server, card, workstation)")
