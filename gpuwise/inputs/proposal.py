"""A proposal file (``audit``): the workload and constraints of a requirements file plus the hardware
proposed, how it is acquired, the used cards' history, cloud traffic and the facility."""

import datetime as dt
import math
from typing import Any, Literal

from pydantic import (
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..errors import N_, Said, SaidAt
from ..knowledge.schema.clouds import at_least_floor
from .dates import month_text
from .notation import PLAIN
from .price_terms import plan_of, proposal_said
from .requirements import Constraints, Environment, bare_beside, parse_money
from .strict import MAX_CARD_POWER_W, MAX_GPUS, Strict, _finite
from .workload import Workload

Link = Literal["nvlink", "nvswitch", "pcie-3", "pcie-4", "pcie-5"]


class Hardware(Strict):
    gpu: str = Field(min_length=1, max_length=100)
    count: int = Field(ge=1, le=MAX_GPUS)
    nodes: int = Field(default=1, ge=1, le=MAX_GPUS)
    link: Link | None = None
    network: str | None = Field(default=None, max_length=50)
    host_ram_gb: float | None = Field(default=None, gt=0, le=1e7)

    _v = field_validator("host_ram_gb")(_finite)

    @field_validator("gpu", mode="before")
    @classmethod
    def _gpu_str(cls, v: Any) -> Any:
        """``gpu: 4090`` is a name YAML reads as a number (as in ``constraints.gpus``)."""
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @model_validator(mode="after")
    def _nodes(self) -> "Hardware":
        if self.nodes > self.count:
            raise Said(N_("more nodes than GPUs"))
        return self


def _plan_price(text: str) -> str | None:
    """The price a GPU-hour written before a pricing plan ('$2.49/GPU-hr', '2.49'), as the field takes it; None for
    any other (a server's price, another currency: refused as the price alone would be)."""
    from .units import amount_per_unit

    if PLAIN.fullmatch(text.strip()):
        return f"{float(text):.15g}"
    read = amount_per_unit(text, "hourly_usd")
    return f"{read[0]:.15g}" if read is not None and read[1] in (None, "USD") else None


class Acquisition(Strict):
    mode: Literal["buy", "rent"]
    condition: Literal["new", "used", "refurbished"] = "new"
    unit_price_usd: float | None = Field(default=None, ge=1, le=1e9)
    """At least 1 a card, in the file's currency: 5e-324 was read and 8 x H100 bought for nothing."""
    hourly_usd: float | None = Field(default=None, gt=0, le=1e6)
    spot: bool = False
    provider: str | None = Field(default=None, max_length=50)
    instance: str | None = Field(default=None, max_length=100)
    months: float = Field(default=6, gt=0, le=600)
    checkpointing: bool | None = Field(default=None, description="the job checkpoints and restarts automatically")
    region: str | None = Field(default=None, max_length=50)

    _v = field_validator("unit_price_usd", "hourly_usd", "months")(_finite)
    _h = field_validator("hourly_usd")(at_least_floor)

    @field_validator("unit_price_usd", "hourly_usd", mode="before")
    @classmethod
    def _amount_text(cls, v: Any, info: ValidationInfo) -> Any:
        """A price written as an amount (``"$2.50"``, ``"$30,000"``, ``"RMB 7"``) was 'unable to parse string as a
        number' (hostile round 44): the number is offered, in the file's currency as the field is."""
        if isinstance(v, str) and info.field_name == "hourly_usd" and (plan := plan_of(v)) is not None:
            meant = _plan_price(plan.price)  # '$2.49/GPU-hr (1-yr reserved)' (hostile round 56): the term said
            if meant is not None:
                raise proposal_said(repr(v.strip()), plan, meant, info.field_name)
        if isinstance(v, str) and not PLAIN.fullmatch(v.strip()):
            try:
                amount = parse_money(v)[0]
            except Said:
                return v
            raise Said(N_("%(given)s: %(field)s is a number in the file's currency (constraints.currency): write "
                          "%(meant)s"), given=repr(v.strip()), field=info.field_name, meant=f"{amount:.15g}")
        return v
    """``hourly_usd: 5e-324`` made a cost per token of inf and crashed the rule engine (exit 3); the
    knowledge base's offers have the same floor (a tenth of a cent an hour)."""

    @model_validator(mode="after")
    def _price_of_the_mode(self) -> "Acquisition":
        """A purchase's ``hourly_usd`` and a rental's ``unit_price_usd`` were read and never used: the audit costed
        the purchase at the street price and the rental at the cheapest offer, nothing said (hostile round 50)."""
        if self.mode == "buy" and self.hourly_usd is not None:
            raise SaidAt(("hourly_usd",), N_("hourly_usd is a rental's price a GPU-hour; a purchase (mode buy) is "
                                             "priced by unit_price_usd, the price of one GPU"))
        if self.mode == "rent" and self.unit_price_usd is not None:
            raise SaidAt(("unit_price_usd",), N_("unit_price_usd is a purchase's price of one GPU; a rental (mode "
                                                 "rent) is priced by hourly_usd, a GPU-hour"))
        return self


def _real_month(v: str | None) -> str | None:
    """``2020-13`` and ``2021-02-30`` match the pattern but are no dates."""
    if v is not None:
        try:
            dt.date.fromisoformat(v if len(v) == 10 else v + "-01")
        except ValueError:
            raise Said(N_("not a real year and month (write YYYY-MM, e.g. 2021-03)")) from None
    return v


class UsedCard(Strict):
    serial: str | None = Field(default=None, min_length=1, max_length=100)
    manufactured: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$")
    purchased: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$")
    nvidia_smi: str | None = Field(default=None, min_length=1, max_length=4096)
    """An empty name was read as no report: the card was judged without one, silently."""
    fan_speed_percent: list[float] = Field(default=[], max_length=100_000)
    power_under_load_w: list[float] = Field(default=[], max_length=100_000)

    _d = field_validator("manufactured", "purchased", mode="before")(month_text)
    _m = field_validator("manufactured", "purchased")(_real_month)

    @field_validator("serial", mode="before")
    @classmethod
    def _serial_text(cls, v: Any) -> Any:
        """A serial of digits written without quotes (a data-center board's 13 digits, as
        nvidia-smi prints them) is read by YAML as a number: it was refused as 'Input should be a
        valid string (got 1324020012345)'. It is the serial as written, leading zeros and all."""
        if isinstance(v, int) and not isinstance(v, bool):
            return getattr(v, "written", None) or str(v)
        return v

    @field_validator("fan_speed_percent", "power_under_load_w")
    @classmethod
    def _samples(cls, v: list[float], info: ValidationInfo) -> list[float]:
        top = 100 if info.field_name == "fan_speed_percent" else MAX_CARD_POWER_W
        for x in v:
            if not math.isfinite(x) or not 0 <= x <= top:
                unit = "percent" if top == 100 else "W"
                raise Said(N_("samples must be numbers from 0 to %(top)s %(unit)s (got %(x)s)"), top=top, unit=unit,
                           x=f"{x:g}")
        return v

    @model_validator(mode="after")
    def _dates(self) -> "UsedCard":
        """A card is bought after it is made, and neither happens in the future."""
        for name in ("manufactured", "purchased"):
            value = getattr(self, name)
            today = dt.date.today().isoformat()[:len(value or "")]  # a day as a day (hostile round 53)
            if value is not None and value > today:
                raise Said(N_("%(name)s %(value)s is in the future (today is %(today)s)"), name=name, value=value,
                           today=today)
        if self.manufactured and self.purchased and self.purchased[:7] < self.manufactured[:7]:
            raise Said(N_("purchased %(purchased)s before it was manufactured (%(manufactured)s)"),
                       purchased=self.purchased, manufactured=self.manufactured)
        return self


class Storage(Strict):
    kind: Literal["premium-ssd", "standard-ssd", "object"] = "premium-ssd"
    tb: float = Field(default=0, ge=0, le=1e6)


class Cloud(Strict):
    egress_tb_per_month: float = Field(default=0, ge=0, le=1e6)
    cross_region_tb_per_month: float = Field(default=0, ge=0, le=1e6)
    storage: Storage = Field(default_factory=Storage)


class Facility(Strict):
    power_kw_available: float | None = Field(default=None, gt=0, le=1e6)
    rack_units: int | None = Field(default=None, ge=1, le=100_000)
    cooling: Literal["air", "liquid"] | None = None


class Proposal(Strict):
    title: str = Field(default="(untitled proposal)", max_length=500)
    workload: Workload
    constraints: Constraints = Field(default_factory=Constraints)
    environment: Environment = Field(default_factory=Environment)
    hardware: Hardware
    acquisition: Acquisition
    used_cards: list[UsedCard] = Field(default=[], max_length=10_000)
    cloud: Cloud = Field(default_factory=Cloud)
    facility: Facility = Field(default_factory=Facility)

    @field_validator("used_cards")
    @classmethod
    def _one_card_once(cls, cards: list[UsedCard]) -> list[UsedCard]:
        """A board serial names one card: the same serial twice is one card listed twice (a lot
        padded, or a copy-paste slip), and each was judged as a card of its own."""
        seen: dict[str, int] = {}
        for i, card in enumerate(cards):
            key = (card.serial or "").strip().casefold()
            if key and key in seen:
                raise Said(N_("used_cards[%(i)s] has the serial %(serial)s of used_cards[%(first)s]: one card listed "
                              "twice?"), i=i, serial=card.serial, first=seen[key])
            seen.setdefault(key, i)
        return cards

    @model_validator(mode="before")
    @classmethod
    def _price_currency(cls, data: Any) -> Any:
        """A price written in a currency other than the file's ('28 CNY/h', '28 RMB', '28元/小时', '1.5万元' in a file
        in USD) was offered its number ('write 28') as if it were in USD, 28 yuan priced as 28 dollars (hostile
        round 51): refused, both currencies named, as a plan's amounts are."""
        from .units import amount_per_unit

        acq = data.get("acquisition") if isinstance(data, dict) else None
        cons = data.get("constraints") if isinstance(data, dict) else None
        declared = cons.get("currency") if isinstance(cons, dict) else None
        if not isinstance(acq, dict) or not isinstance(declared or "USD", str):
            return data
        for key in ("hourly_usd", "unit_price_usd"):
            text = acq.get(key)
            if not isinstance(text, str) or len(text) > 60:
                continue
            try:
                read = amount_per_unit(text, key) if key == "hourly_usd" else parse_money(text)
            except (Said, ValueError):  # no amount: the field's own check says what one looks like
                continue
            if read is not None and read[1] is not None and read[1] != (declared or "USD"):
                raise SaidAt(("acquisition", key), N_("%(text)s is in %(cur)s but constraints.currency is "
                                                      "%(declared)s: every amount in the file is in the one currency"),
                             text=repr(text.strip()), cur=read[1], declared=declared or "USD")
        return data

    @model_validator(mode="before")
    @classmethod
    def _budget_currency(cls, data: Any) -> Any:
        """A budget in yuan ('¥2,000,000', '20万元') in a proposal stating no currency made the whole file CNY, and a
        bare unit_price_usd 30000 beside it (an H100's dollar price) was audited as CN¥30,000 (hostile round 53):
        refused, the bare price named."""
        acq = data.get("acquisition") if isinstance(data, dict) else None
        cons = data.get("constraints") if isinstance(data, dict) else None
        if not isinstance(acq, dict) or not isinstance(cons, dict) or cons.get("currency") is not None:
            return data
        text = cons.get("budget_usd")
        if not isinstance(text, str) or len(text) > 60:
            return data
        try:
            cur = parse_money(text)[1]
        except (Said, ValueError):
            return data  # the budget's own check says what an amount looks like
        for key in ("unit_price_usd", "hourly_usd"):
            bare = acq.get(key)
            if cur not in (None, "USD") and isinstance(bare, int | float) and not isinstance(bare, bool):
                said = bare_beside(text, cur, f"acquisition.{key}", bare)
                raise SaidAt(("constraints", "budget_usd"), said.template, **said.values)
        return data

    @model_validator(mode="before")
    @classmethod
    def _node_price(cls, data: Any) -> Any:
        """A quote's price of a whole server an hour in the GPU's field (``hourly_usd: '$19.92/node/hr'`` for 8 GPUs
        a node) was 'must be a number' (hostile round 55): the price over the GPUs a node (hardware.count over
        hardware.nodes) offered."""
        from .units import PER_NODE, amount_per_unit

        acq, hw = (data.get("acquisition"), data.get("hardware")) if isinstance(data, dict) else (None, None)
        text = acq.get("hourly_usd") if isinstance(acq, dict) else None
        if not isinstance(text, str) or len(text) > 60 or not isinstance(hw, dict):
            return data
        count, nodes = hw.get("count"), hw.get("nodes", 1)
        node = PER_NODE.fullmatch(text)
        price = node.group("price").strip() if node is not None else ""
        read = (float(price), None) if PLAIN.fullmatch(price) else amount_per_unit(price, "hourly_usd")
        cons = data.get("constraints")
        declared = (cons.get("currency") if isinstance(cons, dict) else None) or "USD"
        if read is not None and read[1] not in (None, declared):  # '¥100/node/hr' in a USD file: as _price_currency
            raise SaidAt(("acquisition", "hourly_usd"), N_("%(text)s is in %(cur)s but constraints.currency is "
                                                           "%(declared)s: every amount in the file is in the one "
                                                           "currency"), text=repr(text.strip()), cur=read[1],
                         declared=declared)
        if (read is None or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in (count, nodes))
                or count % nodes or read[0] <= 0):
            return data
        per = count // nodes
        raise SaidAt(("acquisition", "hourly_usd"), N_(
            "%(given)s is a server's price, and hourly_usd is one GPU's: write %(meant)s (%(price)s / %(per)s GPUs a "
            "server, hardware.count over hardware.nodes)"), given=repr(text.strip()), meant=f"{read[0] / per:.6g}",
            price=f"{read[0]:.15g}", per=per)

    @model_validator(mode="before")
    @classmethod
    def _total_price(cls, data: Any) -> Any:
        """A quote's total written beside the GPUs (``acquisition.total_usd: 240000`` for 8) was an unknown key with
        hourly_usd or unit_price_usd offered as if it were one (hostile round 50): unit_price_usd is per GPU, and the
        total over hardware.count is offered."""
        acq, hw = (data.get("acquisition"), data.get("hardware")) if isinstance(data, dict) else (None, None)
        if not isinstance(acq, dict) or not isinstance(hw, dict):
            return data
        count = hw.get("count")
        for key, total in acq.items():
            if (isinstance(key, str) and key.lower().startswith("total") and isinstance(total, int | float)
                    and not isinstance(total, bool) and isinstance(count, int) and not isinstance(count, bool)
                    and count >= 1 and math.isfinite(total) and total > 0):
                unit = acq.get("unit_price_usd")
                if isinstance(unit, int | float) and not isinstance(unit, bool) and math.isfinite(unit) and unit > 0:
                    # the quote's total beside its price a GPU offered the total's quotient as if no price were
                    # given, whether or not the two agree (hostile round 53): which, said
                    whole = unit * count
                    if math.isclose(whole, total, rel_tol=1e-6):
                        raise SaidAt(("acquisition", key), N_(
                            "unknown key: it agrees with unit_price_usd %(unit)s a GPU x hardware.count %(count)s; "
                            "leave %(key)s out"), unit=f"{unit:.15g}", count=count, key=key)
                    raise SaidAt(("acquisition", key), N_(
                        "unknown key, and it disagrees with unit_price_usd: %(unit)s a GPU x hardware.count %(count)s "
                        "is %(whole)s, and %(total)s over %(count)s is %(quotient)s a GPU; keep the price a GPU "
                        "paid in unit_price_usd and leave %(key)s out"),
                        key=key, unit=f"{unit:.15g}", count=count, whole=f"{whole:.15g}", total=f"{total:.15g}",
                        quotient=f"{total / count:.15g}")
                raise SaidAt(("acquisition", key), N_("unknown key: unit_price_usd is the price of one GPU; "
                                                       "%(total)s over hardware.count %(count)s is %(unit)s a GPU"),
                             total=f"{total:.15g}", count=count, unit=f"{total / count:.15g}")
        return data

    @model_validator(mode="after")
    def _no_more_cards_than_bought(self) -> "Proposal":
        """Each listed card is one of the ``hardware.count`` GPUs bought: 10,000 cards listed for one
        GPU were each judged (a minute of rule work) and the report spoke of 1 card with 10,000 notes."""
        if len(self.used_cards) > self.hardware.count:
            raise SaidAt(("used_cards",), N_("used_cards lists %(cards)s cards but hardware.count is %(count)s: each "
                                             "card listed is one of the GPUs bought"),
                         cards=f"{len(self.used_cards):,}", count=self.hardware.count)
        return self
