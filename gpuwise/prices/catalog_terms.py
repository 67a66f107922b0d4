"""How a gpuhunt or SkyPilot catalog row is sold, so that a spot or reserved price is never read as on demand.

Neither layout has a term column (review63: only gpuwise's own layout's ``term`` said a commitment). Read in their
current sources:

* gpuhunt (dstackai/gpuhunt, src/gpuhunt/_internal/storage.py ``CATALOG_V2_FIELDS``): ``spot`` True or False, and
  since PR #184 ('Add CatalogItem.provider_data + reserved GCP A4', Oct 2025) GCP's rows priced in Dynamic Workload
  Scheduler calendar mode carry ``provider_data`` ``{"is_dws_calendar_mode": true}`` and the flag
  ``gcp-dws-calendar-mode`` (src/gpuhunt/providers/gcp.py ``_set_flags``), with ``spot`` False: a future reservation
  of 1 to 90 days whose price differs from on demand (Compute Engine API, Reservation.ReservationMode CALENDAR: 'The
  price for this reservation is different from on-demand'). gpuwise puts it on the instance's on-demand offer as
  its shortest term, ``1-month`` (a month is within the 1-90 days one may book; a shorter booking is billed no more
  than the month gpuwise bills), never as an offer of its own.
* SkyPilot (skypilot-org/skypilot-catalog ``catalogs/v7/<cloud>/vms.csv``): ``Price`` on demand and ``SpotPrice``,
  no reservation column; but the Mithril catalog's fetcher writes the spot market's minimum price into both
  (skypilot-org/skypilot sky/catalog/data_fetchers/fetch_mithril.py: ``price, price`` from /v2/pricing/current),
  so its ``Price`` is read as spot.
"""

from __future__ import annotations

import json

from ..errors import N_, Said

DWS_FLAG = "gcp-dws-calendar-mode"
"""gpuhunt's flag on a GCP row priced in DWS calendar mode (a reservation, not on demand)."""

DWS_TERM = "1-month"
"""The term such a row's price is put on: the shortest gpuwise bills, within the 1-90 days calendar mode books."""

SPOT_PRICE_CATALOGS = {"mithril"}
"""Providers whose SkyPilot catalog writes the spot price in ``Price`` as well as ``SpotPrice``."""


def dws_calendar(row: dict[str, str]) -> bool:
    """Whether a gpuhunt row is priced in GCP's DWS calendar mode: its flag, or its provider_data's key."""
    if DWS_FLAG in (row.get("flags") or "").split():
        return True
    data = row.get("provider_data") or ""
    if "is_dws_calendar_mode" not in data:
        return False
    try:
        return bool(json.loads(data).get("is_dws_calendar_mode"))
    except (ValueError, AttributeError):  # not a JSON object: no mode stated
        return False


def price_is_spot(provider: str) -> bool:
    """Whether a SkyPilot catalog of ``provider`` writes its spot price in the ``Price`` column too."""
    return provider in SPOT_PRICE_CATALOGS


def read_as_notes(dws: int, spot_price: int, provider: str) -> list[Said]:
    """Why rows were read on a term other than the column's name says, for the import's summary."""
    out = []
    if dws:
        out.append(Said(N_("rows priced in GCP's DWS calendar mode (gpuhunt's flag gcp-dws-calendar-mode): %(n)s, "
                           "each a reservation of 1-90 days, not on demand: put on the instance's on-demand offer as "
                           "its 1-month term"), n=dws))
    if spot_price:
        out.append(Said(N_("rows of %(provider)s read as spot: %(n)s (SkyPilot's catalog writes its spot market's "
                           "price in Price as in SpotPrice)"), n=spot_price, provider=provider))
    return out
