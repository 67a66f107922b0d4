"""``apis.yaml``: hosted APIs that serve the catalog's open models, priced per million input and
output tokens, each price dated and sourced from the provider's price page. A plan compares each
service it self-hosts with these (``gpuwise plan``: the hosted-API alternative and its break-even
volume).
"""

import datetime as dt
from typing import Literal

from pydantic import Field

from .base import Check, Prose, Strict


class ApiPrice(Strict):
    model: str = Field(min_length=1, description="catalog model id (knowledge/models.yaml)")
    offered_as: str = Field(min_length=1, description="the provider's own name for the model")
    input_per_million: float = Field(ge=0, le=10_000, description="price per million input tokens")
    output_per_million: float = Field(ge=0, le=10_000, description="price per million output tokens")
    note: Prose = ""
    as_of: dt.date
    source: Prose = Field(min_length=3)
    check: Check = "S"


class ApiProvider(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    market: Literal["global", "china"] = "global"
    currency: Literal["USD", "CNY"] = "USD"
    prices: list[ApiPrice] = Field(min_length=1)


class ApisFile(Strict):
    schema_version: int
    providers: list[ApiProvider]
