"""What the cost step hands on for one candidate, as typed records beside its ledgers and timeline:
``Cost`` (the rent and buy totals, the offer and the term it is rented on, the networks each way of
acquiring has) and ``Market`` (where the GPU is sold, how a purchase comes, the site it needs).
The facts (:mod:`gpuwise.decide.subjects`), the results and the JSON read them by attribute."""

from __future__ import annotations

from ..frozen import frozen
from ..messages import Phrase


@frozen(slots=True)
class Cost:
    """The money of renting and of buying one configuration, in USD (CNY prices converted at
    ``usd_cny``), and the way the cost step chose provisionally (the rules choose in the end)."""

    rent_usd: float | None  # None: no offer rents this many of this GPU
    buy_usd: float | None  # None: no dated purchase price
    cost_usd: float | None  # of the way chosen
    acquisition: str | None  # rent | buy (None: neither is priced)
    break_even_month: float | None
    rent_hours: float  # hours billed
    # the rental offer priced (None without one); its place is named only when renting is chosen
    usd_per_gpu_hour: float | None
    provider: str | None
    instance: str | None
    rent_provider: str | None
    rent_instance: str | None
    rent_currency: str | None
    rent_native_per_hour: float | None
    price_as_of: str | None
    # the term the offer is sold on for this job (on-demand, reserved, 1-month...)
    rent_term: str
    rent_reserved_only: bool
    rent_min_term_hours: float
    rent_term_why: tuple[Phrase, ...]  # why that term, as message ids with values (offers.SoldTerm)
    buy_price_as_of: str | None
    buy_price_source: str | None
    # between servers: the chosen way's network, the rental's (stated or the clouds' default), the bought fabric
    network: str | None
    network_assumed: bool
    rent_network: str | None
    rent_network_assumed: bool
    rent_network_stated: str
    buy_network: str | None
    spot: bool
    spot_wall_hours: float | None  # training on spot capacity: reclaims and waits included
    spot_rent_usd: float | None
    currency: str  # the user's
    usd_cny: float
    rent_gpus_paid: int = 0  # the GPUs the rental offer priced bills (a listed instance's whole GPUs; 0: none)

    def usd(self, mode: str) -> float | None:
        """The total of renting (``rent``) or of buying (``buy``)."""
        return self.rent_usd if mode == "rent" else self.buy_usd if mode == "buy" else None

    @property
    def spot_wall_days(self) -> float | None:
        return self.spot_wall_hours / 24 if self.spot_wall_hours is not None else None


@frozen(slots=True)
class Market:
    """Whether and how the configuration can be had in the user's market: the GPU's China-market
    entry, the units a purchase comes in, and what hosting it needs."""

    market: str  # global | china
    listed: bool  # the GPU has a China-market entry in prices.yaml
    sold_in_china: bool | None
    china_part: bool
    china_rule: str
    buy_in_servers: bool  # sold only in whole servers
    buy_size_listed: bool  # the count is a server size sold
    buy_past_whole_servers: int  # GPUs left over past whole servers of the largest size
    buy_unavailable: tuple[Phrase, ...]  # why it cannot be bought (empty: it can)
    buy_condition: str | None  # of the price found (new, used...)
    buy_condition_asked: str
    buy_sold_as: str | None
    buy_units: int | None
    buy_unit_gpus: int | None
    buy_nodes: int | None
    hosting: str | None
    hosting_assumed: bool
    it_kw: float | None  # the bought servers' IT load
    office_circuit_kw: float | None  # policy: an office circuit's limit
    office_max_kw: float | None = None  # policy: the IT load an office takes at all (tco.yaml hosting.office max_kw)
