"""A bought proposal's price a GPU beside the street price (TCO-UNIT-PRICE-ABOVE-MARKET) and read as a whole
machine's quote (TCO-UNIT-PRICE-SERVER): the proposal fact's price fields, kept apart from audit.py, which holds the
proposal's other facts. Both prices are compared on one basis, which the fact says (product64)."""

from __future__ import annotations

from typing import Any

from ..estimators import cost as K
from ..messages import phrase_json, phrase_text


def unit_price_facts(acq: Any, gpu: Any, kb: Any, bought: Any, per_node: int) -> dict[str, Any]:
    """The price fields of a proposal fact. The street price is a GPU's without its host, the basis of
    ``unit_price_usd``, beside which the audit costs the host share of the proposal's own buy plan (``bought``; the
    tco.yaml share of the GPU's kind where there is none): a whole server's price point holds the host, so its share a
    GPU less that share is the GPU's (cost.street_price_alone)."""
    usd_cny = kb.tco_value("usd_cny").value
    plan = bought.plan if bought is not None else None
    host = plan.host_usd / plan.count if plan is not None and plan.count else \
        kb.tco.values[K.server_share_key(gpu)].value
    street = K.street_price_alone(kb.prices, gpu, kb.tco, host, condition=acq.condition, usd_cny=usd_cny)
    market, basis = street if street is not None else (None, ())
    server = K.server_reading(kb.prices, gpu, kb.tco, acq.unit_price_usd or -1.0, per_node, bought,
                              condition=acq.condition, usd_cny=usd_cny)
    return {
        "unit_price_usd": acq.unit_price_usd or -1.0, "market_price_usd": market or -1.0,
        "market_price_basis": phrase_text(basis), "market_price_basis_phrases": phrase_json(basis),
        "price_ratio": (acq.unit_price_usd / market) if (acq.unit_price_usd and market) else -1.0,
        **dict(zip(("server_gpus", "server_price_usd", "server_as_of", "server_unit_usd", "server_host_usd"),
                   server or (-1, -1.0, "", -1.0, -1.0), strict=True)),
    }
