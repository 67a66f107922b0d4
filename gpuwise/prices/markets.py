"""A candidate's jurisdiction facts for the market rules (rules/market.yaml): the US export
licence policy for China with its date and surcharge, China's import guidance, whether the part
is sold outside China, and whether it is a Chinese design (``constraints.procurement``); the entry's
own ``as_of`` and ``source``, which the findings cite."""

from __future__ import annotations

import datetime as dt
from typing import Any


def jurisdiction_fields(kb: Any, gpu_id: str, constraints: Any) -> dict[str, Any]:
    mk = None
    if kb.prices is not None:
        mk = next((m for m in kb.prices.markets if m.id == gpu_id), None)
    procurement = getattr(constraints, "procurement", "any") or "any"
    if mk is None:
        return {"export_licence": "unknown", "export_since": "none", "export_surcharge_pct": 0.0,
                "sold_globally": True, "domestic_part": False, "china_import": "unknown",
                "china_import_note": "", "china_import_as_of": "none", "procurement": procurement,
                "china_rule_as_of": "none", "china_rule_source": "", "china_rule_age_days": -1}
    return {
        "export_licence": mk.licence_policy,
        "export_since": mk.licence_since.isoformat() if mk.licence_since else "none",
        "export_surcharge_pct": float(mk.surcharge_pct),
        "sold_globally": mk.sold_globally, "domestic_part": mk.domestic,
        "china_import": mk.china_import, "china_import_note": mk.china_import_note,
        "china_import_as_of": mk.china_import_as_of.isoformat() if mk.china_import_as_of else "none",
        "procurement": procurement,
        # the export rule's own date and document, which the market rules' findings cite (review63: a blocker on
        # an H100 bought in China named neither, only "knowledge/prices.yaml markets")
        "china_rule_as_of": mk.as_of.isoformat(), "china_rule_source": mk.source,
        "china_rule_age_days": (dt.date.today() - mk.as_of).days,  # DATA-STALE-MARKET judges it
    }
