"""A requirements file (``recommend``, ``estimate``, ``ask``): its ``constraints`` (with amounts
written in either currency, ``$200,000`` or ``150万元``) and ``environment`` sections beside the
workload, and the file as a whole."""

import re
from typing import Annotated, Any, Literal

from pydantic import (
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..errors import N_, Said
from ..field import Field  # pydantic's Field(), made faster (gpuwise/field.py)
from .notation import Meant, parse_money, version_text
from .strict import MAX_GPUS, Strict, _finite
from .workload import Workload


def gpus_as_text(v: Any) -> Any:
    """A GPU written as a bare number (``gpus: [4090]``) is the name "4090", not a count. The list written as one
    text (``gpus: "h100, h200"``, ``gpus: h100``) is refused offering the list ('must be a list' offered none:
    hostile round 43)."""
    if isinstance(v, str) and v.strip():
        items = [x.strip() for x in re.split(r"[,;]", v) if x.strip()]
        raise Meant(N_("%(given)s is one text, and gpus is a list: write [%(items)s]"), given=repr(v),
                    items=", ".join(items))
    if isinstance(v, list):
        return [str(x) if isinstance(x, int) and not isinstance(x, bool) else x for x in v]
    return v


class Environment(Strict):
    os: str | None = Field(default=None, max_length=100)
    driver: str | None = Field(default=None, pattern=r"^[0-9]+(\.[0-9]+){0,2}$",
                               description="NVIDIA driver version as nvidia-smi prints it, e.g. '535.104.05'")
    cuda: str | None = Field(default=None, pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?$",
                             description="CUDA version as torch.version.cuda prints it, e.g. '12.1'")
    pytorch: str | None = Field(
        default=None, max_length=100,  # PEP 440: 2.1.0+cu121, 2.4.0rc1, 2.5.0.dev20240801
        pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?(\+[A-Za-z0-9]+(\.[A-Za-z0-9]+)*)?$",
        description="PyTorch version as torch.__version__ prints it, e.g. '2.1.0' or '2.4.1+cu121'")
    kernel_modules: Literal["open", "proprietary"] | None = Field(
        default=None, description="NVIDIA kernel module flavour: open (nvidia-open) or proprietary")
    rocm: str | None = Field(default=None, pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?$",
        description="AMD ROCm release, e.g. '6.4.1'")
    synapse: str | None = Field(
        default=None, pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?(-[0-9]+)?$",
        description="Intel Gaudi software release, e.g. '1.21.0'")
    cann: str | None = Field(
        default=None, pattern=r"^[0-9]+\.[0-9]+(\.([0-9]+|[Rr][Cc][0-9]+))?(\.[0-9]+)?$",
        description="Huawei CANN, e.g. '8.1.RC1'")
    torch_npu: str | None = Field(
        default=None, pattern=r"^[0-9]+\.[0-9]+\.[0-9]+(\.post[0-9]+|\.?rc[0-9]+)?$",
        description="Ascend torch_npu, e.g. 2.5.1.post1")
    bitsandbytes: str | None = Field(
        default=None, pattern=r"^[0-9]+\.[0-9]+(\.[0-9]+)?(\.post[0-9]+|\.dev[0-9]+)?$",
        description="bitsandbytes release")

    @field_validator("driver", "cuda", "rocm", "synapse", "cann", "torch_npu", "bitsandbytes", mode="after")
    @classmethod
    def _short(cls, v: str | None) -> str | None:
        """A version is a few characters; a 5,000-digit one is refused, not turned into a number."""
        if v is not None and len(v) > 40:
            raise Said(N_("a version of %(n)s characters is not a version (at most 40)"), n=len(v))
        return v

    @field_validator("rocm", "synapse", "bitsandbytes", "cann", "torch_npu", mode="before")
    @classmethod
    def _version_text(cls, v: Any, info: ValidationInfo) -> Any:
        """Versions such as ROCm 7.10, Gaudi 1.20 or bitsandbytes 0.50 lose their zero as YAML numbers."""
        return version_text(v, info.field_name)

    @field_validator("os", mode="after")
    @classmethod
    def _named(cls, v: str | None) -> str | None:
        """``os: ''`` (an unset variable in a template) was taken for an OS that is known and named
        nothing: refused, as leaving the line out says 'not known'."""
        if v is not None and not v.strip():
            raise Said(N_("is empty: name the OS (e.g. ubuntu-22.04) or leave the line out"))
        return v

    @field_validator("driver", mode="before")
    @classmethod
    def _driver_text(cls, v: Any) -> Any:
        """A driver as a YAML number loses its trailing zero (537.70 is read 537.7, another version):
        asked for in quotes; a bare branch number (535) is its text."""
        if isinstance(v, float):
            raise Said(N_('write the version in quotes (driver: "%(v)s"): YAML reads 537.70 as the number 537.7'),
                       v=v)
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("cuda", mode="before")
    @classmethod
    def _cuda_text(cls, v: Any) -> Any:
        """``cuda: 12.1`` unquoted is the number 12.1, read as "12.1": every CUDA release has a
        one-digit minor (9.0-9.2, 10.0-10.2, 11.0-11.8, 12.0-12.9, 13.0-13.2; knowledge/software.yaml),
        so a number with one decimal cannot have lost a digit, and 12.10 (no such release) is read as
        12.1 deliberately. A number with more decimals (12.25, 1.2e1) is asked for in quotes."""
        if isinstance(v, float):
            text = repr(v)
            if not re.fullmatch(r"\d{1,3}\.\d", text):
                raise Said(N_('write the version in quotes (cuda: "12.1"): the number %(v)s is no CUDA version'),
                           v=text)
            return text
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("pytorch", mode="before")
    @classmethod
    def _quoted(cls, v: Any) -> Any:
        """YAML reads an unquoted 2.10 as the number 2.1: PyTorch 2.10 exists, so ask for quotes."""
        if isinstance(v, float):
            raise Said(N_('write the version in quotes (pytorch: "%(v)s"): YAML reads 2.10 as the number 2.1'), v=v)
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


class _Mismatch:
    """A budget whose written currency contradicts ``currency`` (reported on the field)."""

    def __init__(self, message: str | Said, text: str):
        self.message, self.text = message, text  # a Said: raised as it is, in every language

    def __repr__(self) -> str:
        return repr(self.text)


def bare_beside(text: str, cur: str, field: str, bare: float) -> Said:
    """A budget written in ``cur`` (``'¥200,000'``) in a file stating no currency, beside a bare amount in ``field``:
    the budget would make every amount ``cur``, the bare one included, which the file does not say (hostile round
    53). One sentence for a requirements file's electricity and a proposal's prices."""
    return Said(N_("%(text)s is in %(cur)s, which would make every amount in the file %(cur)s, %(field)s %(bare)s "
                   "included: state constraints.currency: %(cur)s if it is, or write the budget in USD"),
                text=repr(text.strip()), cur=cur, field=field, bare=f"{bare:g}")


CURRENCY_FIELDS = {"budget_usd": "budget_{cur}", "electricity_usd_per_kwh": "electricity_{cur}_per_kwh"}
"""The money fields of ``constraints`` and their name in a file's own currency (``budget_cny``)."""


def to_currency_fields(constraints: dict, currency: str) -> dict:
    """``constraints`` with its money fields named for ``currency`` (``budget_cny`` in a CNY file), in
    the same order; a USD file keeps the contract's names."""
    if currency == "USD":
        return dict(constraints)
    names = {k: v.format(cur=currency.lower()) for k, v in CURRENCY_FIELDS.items()}
    return {names.get(k, k): v for k, v in constraints.items()}


def from_currency_fields(constraints: dict) -> dict:
    """The inverse of :func:`to_currency_fields`: ``budget_cny: 300000`` is ``budget_usd: 300000`` with
    ``currency: CNY``. A yuan field in a file whose currency is USD, or a field given under both
    names, is an error naming the field."""
    out = dict(constraints)
    for usd, pattern in CURRENCY_FIELDS.items():
        name = pattern.format(cur="cny")
        if name not in out:
            continue
        if usd in out:
            raise PydanticCustomError("currency_field", f"give {usd} or {name}, not both")
        if out.get("currency", "CNY") != "CNY":
            raise PydanticCustomError("currency_field",
                                      f"{name} is in CNY but currency is {out['currency']}: every amount in the "
                                      f"file is in the one currency")
        out = {(usd if k == name else k): v for k, v in out.items()}
        out["currency"] = "CNY"
    return out


class Constraints(Strict):
    gpus: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(default=[], max_length=200)
    max_gpus: int = Field(default=64, ge=1, le=MAX_GPUS)
    deadline_days: float | None = Field(default=None, gt=0, le=36500)
    budget_usd: float | None = Field(default=None, gt=0, le=1e13)
    acquisition: Literal["rent", "buy", "either"] = "either"
    project_months: float = Field(default=6, gt=0, le=600)
    electricity_usd_per_kwh: float = Field(default=0.15, ge=0, le=100)
    currency: Literal["USD", "CNY"] = Field(default="USD", description="the currency of every amount in this file")
    hosting: Literal["office", "colocation", "datacenter"] | None = Field(
        default=None, description="where bought hardware runs (default: chosen per candidate, stated)")
    market: Literal["global", "china"] | None = Field(
        default=None, description="where the hardware is bought or rented (default: china with CNY, else global)")
    value_of_a_day_usd: float | None = Field(
        default=None, ge=0, le=1e9, description="what a training result one wall-clock day earlier is worth, in the "
                                                "file's currency; the ranking adds it for each day (default: the "
                                                "policy's value_of_a_day_usd)")
    procurement: Literal["any", "domestic"] = Field(
        default="any", description="domestic: Chinese accelerators only (Huawei Ascend...), as state buyers in "
                                   "China are asked to buy")
    network: str | None = Field(
        default=None, min_length=1, max_length=50,
        description="the network between the servers the job runs on, a knowledge/runtime.yaml networks entry "
                    "(infiniband-400, roce-400, ethernet-400 for AWS p4d/p4de EFA, slingshot-200...); default: "
                    "the catalog's for the GPU's class, or a rental offer's own")

    _v = field_validator("deadline_days", "budget_usd", "project_months", "electricity_usd_per_kwh",
                         "value_of_a_day_usd")(_finite)

    @model_validator(mode="before")
    @classmethod
    def _own_currency_fields(cls, data: Any) -> Any:
        """``budget_cny`` / ``electricity_cny_per_kwh``: a yuan amount in a field named for its
        currency (as ``gpuwise ask`` writes a CNY file) is ``budget_usd`` / ``electricity_usd_per_kwh``
        of a file whose ``currency`` is CNY."""
        return from_currency_fields(data) if isinstance(data, dict) else data

    @model_validator(mode="before")
    @classmethod
    def _budget_text(cls, data: Any) -> Any:
        """A budget written with its currency (``¥1500000``, ``1500000 CNY``, ``$200,000``). The
        currency must agree with ``currency``; when ``currency`` is not given, it sets it. Errors
        are raised by the field check below, so they name ``budget_usd``."""
        if not isinstance(data, dict) or not isinstance(data.get("budget_usd"), str):
            return data
        text = data["budget_usd"]
        try:
            amount, cur = parse_money(text)
        except ValueError:
            return data  # the field check names the field and says what an amount looks like
        given = data.get("currency")
        if cur is not None and given is not None and given != cur:
            return {**data, "budget_usd": _Mismatch(f"{text!r} is in {cur} but currency is {given}: "
                                                    f"every amount in the file is in the one currency", text)}
        out = {**data, "budget_usd": amount}
        if cur is not None and given is None:
            bare = data.get("electricity_usd_per_kwh")
            if cur != "USD" and isinstance(bare, int | float) and not isinstance(bare, bool):
                # the budget's ¥ made the file's currency CNY, and a bare electricity 0.15 (a dollar price) was read
                # as 0.15 yuan a kWh, silently (hostile round 53): which currency the bare amount is in, asked
                return {**data, "budget_usd": _Mismatch(bare_beside(text, cur, "electricity_usd_per_kwh", bare), text)}
            out["currency"] = cur
        return out

    @field_validator("budget_usd", mode="before")
    @classmethod
    def _budget_checked(cls, v: Any) -> Any:
        if isinstance(v, _Mismatch):
            raise v.message if isinstance(v.message, Said) else ValueError(v.message)
        if isinstance(v, str):
            parse_money(v)  # raises with the accepted forms; a bare number text parses
            return parse_money(v)[0]
        return v

    _g = field_validator("gpus", mode="before")(gpus_as_text)


class Requirements(Strict):
    # a section's default comes from a factory: an instance written here would build that
    # section's validator when the module is imported, in every process (pydantic's defer_build)
    workload: Workload
    constraints: Constraints = Field(default_factory=Constraints)
    environment: Environment = Field(default_factory=Environment)
