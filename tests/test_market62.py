"""market62: rental offers for the cards catalog61 added, GB200 NVL72 by the rack, and the GPUs no listed cloud rents.

Each figure is read back against the transcription it was copied from (the document named beside it), and the
derived ones are worked by hand: CoreWeave's GB200 NVL72 instance, $42.00 an hour for 4 GPUs, 144 vCPUs and 960 GB
of RAM (coreweave.com/pricing as transcribed 2026-09-20, api-evangelist/coreweave plans file), is $10.50 a GPU-hour
and 240 GB a GPU, and it is rented only as whole racks of 18 such nodes (docs.coreweave.com/docs/platform/instances/
gb200), 72 GPUs.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
import yaml

from gpuwise.errors import KnowledgeError
from gpuwise.estimators.offers import rent_offers
from tests.clirun import gpuwise

# gpu: {tier: $/GPU-hour} from carsonpo/gpus costs/runpod.md (commit d1e3f75, 2025-07-13), its transcription of
# runpod.io/pricing: the Secure Cloud and Community Cloud tables. The only dated rental rates found for these cards;
# 512 days old on 2026-12-07, past policy's price_max_age_days (365), so not offers: not_rented entries that quote them
RUNPOD_2025_07_13 = {
    "rtx-a5000": {"Community Cloud": 0.16, "Secure Cloud": 0.26},
    "rtx-a4000": {"Community Cloud": 0.17, "Secure Cloud": 0.29},
    "rtx-4000-ada": {"Community Cloud": 0.20, "Secure Cloud": 0.34},
    "rtx-3090-ti": {"Community Cloud": 0.27},
    "rtx-3080": {"Community Cloud": 0.17},
}


def _offers(kb, provider: str, gpu: str) -> list:
    return [p for p in kb.clouds.gpu_hour_prices if p.provider == provider and p.gpu == gpu]


@pytest.mark.parametrize("gpu", sorted(RUNPOD_2025_07_13))
def test_runpod_2025_rates_are_not_offers_but_not_rented_reasons(kb, gpu):
    assert not [p for p in kb.clouds.gpu_hour_prices if p.gpu == gpu]
    assert not [i for i in kb.clouds.instances if i.gpu == gpu]
    [entry] = [e for e in kb.clouds.not_rented if e.id == gpu]
    assert (dt.date(2026, 12, 7) - dt.date(2025, 7, 13)).days == 512 > kb.policy_value("price_max_age_days")
    reason = " ".join(entry.reason.split())
    assert "2025-07-13" in reason and "runpod.io/pricing" in reason and "price_max_age_days (365)" in reason
    for tier, rate in RUNPOD_2025_07_13[gpu].items():
        assert f"${rate:.2f} ({tier})" in reason or f"{tier} pod at ${rate:.2f}" in reason
    assert "carsonpo/gpus costs/runpod.md" in entry.source and "skypilot-catalog" in entry.source


def test_gb200_is_rented_by_the_nvl72_rack(kb):
    [p] = _offers(kb, "coreweave", "gb200")
    assert p.usd_per_gpu_hour == pytest.approx(42.00 / 4)  # the 4-GPU instance's $42.00 an hour
    assert p.min_gpus == 18 * 4  # "deployed as full racks of 18 Nodes", four GPUs a Node
    assert p.host_ram_gb_per_gpu == pytest.approx(960 / 4)
    assert "$42.00" in p.source and "full racks of 18 Nodes" in p.sold_as_source
    # eight GPUs asked for: the whole rack is paid, 72 x $10.50 = $756 an hour
    [o] = rent_offers(kb.clouds, "gb200", 8)
    assert (o.provider, o.gpus, o.usd_per_hour) == ("coreweave", 72, pytest.approx(72 * 10.50))


def test_a_run_on_part_of_a_gb200_rack_offloads_to_its_own_hosts_ram(kb):
    """The rack bills 72 GPUs, but a run of 8 offloads to its own GPUs' hosts: 8 x 240 GB = 1,920 GB, not the
    72 x 240 = 17,280 GB of the whole rack (which let a 405B full fine-tune on 8 GB200s keep 8,117 GB there)."""
    from gpuwise.estimators.rental import rented_host_ram

    [o] = rent_offers(kb.clouds, "gb200", 8)
    ram, src = rented_host_ram(kb, kb.gpus["gb200"], 8, o, 0.0, 8)
    assert (ram, src) == (pytest.approx(8 * 960 / 4), "offer")


def test_not_rented_entries_name_gpus_without_an_offer(kb):
    rented = {p.gpu for p in kb.clouds.gpu_hour_prices} | {i.gpu for i in kb.clouds.instances}
    listed = {e.id for e in kb.clouds.not_rented}
    assert listed and not listed & rented and listed <= set(kb.gpus)
    # the MI355X is priced neither way: no rental and no purchase price (prices.yaml excluded)
    assert "mi355x" in listed and "mi355x" in {e.id for e in kb.prices.excluded}
    [mi355x] = [e for e in kb.clouds.not_rented if e.id == "mi355x"]
    assert "pricing not known yet" in mi355x.reason and "crusoe.py" in mi355x.reason
    # the GB200 now rents (CoreWeave) but still has no public purchase price
    assert "gb200" not in listed and "gb200" in {e.id for e in kb.prices.excluded}


def test_prices_lists_the_new_rentals():
    out = json.loads(gpuwise("prices", "--gpu", "gb200", "--format", "json").stdout)
    [row] = [r for r in out["prices"] if r["kind"] == "rent"]
    assert (row["provider"], row["amount"], row["as_of"]) == ("coreweave", 10.5, "2026-09-20")
    assert "from 72 GPUs" in row["item"]


def test_prices_says_why_a_gpu_has_no_rental():
    text = gpuwise("prices", "--gpu", "mi355x").stdout
    assert "No prices match --gpu mi355x." in text
    assert "Not rented by any cloud listed: mi355x: No public per-GPU-hour rate found." in " ".join(text.split())
    zh = gpuwise("prices", "--gpu", "mi355x", "--lang", "zh").stdout
    assert "所列云服务商均不出租：mi355x：" in zh
    # a GPU that rents says nothing of the kind
    assert "Not rented" not in gpuwise("prices", "--gpu", "gb200").stdout


def test_overlay_not_rented_is_checked(tmp_path):
    from gpuwise import knowledge

    (tmp_path / "clouds.yaml").write_text(yaml.safe_dump({"not_rented": [
        {"id": "rtx-9999", "reason": "a card that does not exist", "as_of": "2026-12-01", "source": "none"}]}))
    with pytest.raises(KnowledgeError, match="unknown gpu 'rtx-9999'"):
        knowledge.load(tmp_path)
    (tmp_path / "clouds.yaml").write_text(yaml.safe_dump({"not_rented": [
        {"id": "mi210", "reason": "looked again on our side", "as_of": "2026-12-01", "source": "ours"}] * 2}))
    with pytest.raises(KnowledgeError, match="mi210"):
        knowledge.load(tmp_path)


A5000_LORA = {"workload": {"task": "finetune", "method": "lora", "model": "qwen2.5-7b", "train_tokens": 1.0e8},
              "constraints": {"gpus": ["RTX A5000"], "acquisition": "rent"}}


def test_an_rtx_a5000_lora_to_rent_has_no_rental_and_the_listing_says_why(tmp_path):
    """RunPod's 2025-07-13 A5000 rates are past the price-age limit, so no cloud rents the card: the same answer as
    before market62 (TCO-NO-RENTAL on every count, no recommendation), and 'prices --gpu' gives the not_rented
    reason that quotes the old rate and says why it is not an offer."""
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(A5000_LORA), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    assert d["recommendation"] is None
    a5000 = [c for c in d["candidates"] if c["gpu"] == "rtx-a5000"]
    assert a5000 and all([s["id"] for s in c["reason_sentences"]] == ["TCO-NO-RENTAL"] for c in a5000)
    assert "No cloud in the knowledge base rents 1 x NVIDIA RTX A5000 24GB" in [f["message"] for f in d["findings"]]
    text = " ".join(gpuwise("prices", "--gpu", "RTX A5000").stdout.split())
    assert ("Not rented by any cloud listed: rtx-a5000: The only dated rental rate found is RunPod's pod at "
            "$0.16") in text
    assert "beyond policy's price_max_age_days (365)" in text
