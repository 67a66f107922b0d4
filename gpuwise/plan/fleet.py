"""What the plan can own and buy of one GPU type (:class:`Fleet`) and one way to buy it (:class:`Unit`): the records
:mod:`.solve` builds its program from and :mod:`.together` reads. Moved out of :mod:`.solve` so that
:mod:`.together` types them without an import cycle."""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..frozen import record
from ..messages import Phrase

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu


@record
class Fleet:
    """One GPU type: what is owned, and what a unit bought costs (USD)."""

    gpu: Gpu
    owned: int = 0
    owned_hosting: str = "office"
    owned_power_per_gpu_hour: float = 0.0
    owned_hosting_per_month: float = 0.0  # the owned GPUs' hosting billed alone (their site's minimum included)
    owned_kw: float = 0.0  # their IT power
    owned_rate: float = 0.0  # their site's USD a kW-month
    owned_formula: dict[str, Any] = field(default_factory=dict)
    owned_power: dict[str, Any] = field(default_factory=dict)  # a GPU-hour's power: TDP, host W, PUE, $/kWh
    bought_power: dict[str, Any] = field(default_factory=dict)
    unit_parts: dict[str, float] = field(default_factory=dict)  # a unit's hardware, host share and network
    unit_hosting: dict[str, float] = field(default_factory=dict)  # a unit's billed kW and its rate a kW-month
    unit: int = 0  # GPUs per unit bought (0: cannot be bought)
    unit_capex: float = 0.0
    unit_hardware: float = 0.0
    unit_hosting_per_month: float = 0.0
    bought_power_per_gpu_hour: float = 0.0
    bought_hosting: str = "colocation"
    sold_as: str = ""
    condition: str = "new"
    buy_as_of: str = ""
    buy_source: str = ""
    buy_reason: tuple[Phrase, ...] = ()  # why no unit can be bought, as message ids with values (buy.*)
    units: list[Unit] = field(default_factory=list)  # the ways to buy it: the first is the unit above
    holds: int = 0  # the largest copy or run the first unit's machine holds (cards gather in one desktop)
    office_limit: float | None = None  # the office's bound on units hosted there by default (Unit.office)


@record
class Unit:
    """One way to buy a GPU type: ``gpus`` GPUs in one machine, or in whole nodes joined by the network
    the purchase prices, that hold a copy or run of up to ``holds`` GPUs; hosted at ``site``.
    ``office``: its weight against the fleet's ``office_limit`` where it is in an office by the default
    rule (:func:`gpuwise.estimators.cost.hosting_for`: cards, one desktop; desktop systems, the office's
    kW), 0 where the site was stated or is not an office."""

    gpus: int
    capex: float
    hardware: float
    parts: dict[str, float]
    hosting: dict[str, float]
    hosting_per_month: float
    site: str
    sold_as: str
    holds: int
    office: float = 0.0
    nodes: int = 1  # the machines of one unit (a copy over whole nodes: reported as that many servers)
    host_key: str = ""  # the tco.yaml host share its price rests on ('' when the price holds the host)
    kw: float = 0.0  # the unit's IT power (GPUs and host), what its site bills
    power_per_gpu_hour: float = 0.0  # USD a GPU-hour of work costs in power at its site (its PUE)
    power: dict[str, Any] = field(default_factory=dict)  # that rate's operands: TDP, host W a GPU, PUE, $/kWh
