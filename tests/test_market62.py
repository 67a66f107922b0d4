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
# runpod.io/pricing: the Secure Cloud and Community Cloud tables
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
def test_runpod_rates_read_back(kb, gpu):
    offers = _offers(kb, "runpod", gpu)
    got = {p.notes.split(".")[0]: p.usd_per_gpu_hour for p in offers}
    assert got == RUNPOD_2025_07_13[gpu]
    for p in offers:  # a pod is one machine of at most 8 GPUs, pods joined by 100 Mbps Global Networking
        assert (p.as_of, p.check, p.max_gpus, p.network) == (dt.date(2025, 7, 13), "S", 8, "ethernet-0.1")
        assert "runpod.io/pricing" in p.source and f"${p.usd_per_gpu_hour:.2f}/hr" in p.source


def test_gb200_is_rented_by_the_nvl72_rack(kb):
    [p] = _offers(kb, "coreweave", "gb200")
    assert p.usd_per_gpu_hour == pytest.approx(42.00 / 4)  # the 4-GPU instance's $42.00 an hour
    assert p.min_gpus == 18 * 4  # "deployed as full racks of 18 Nodes", four GPUs a Node
    assert p.host_ram_gb_per_gpu == pytest.approx(960 / 4)
    assert "$42.00" in p.source and "full racks of 18 Nodes" in p.sold_as_source
    # eight GPUs asked for: the whole rack is paid, 72 x $10.50 = $756 an hour
    [o] = rent_offers(kb.clouds, "gb200", 8)
    assert (o.provider, o.gpus, o.usd_per_hour) == ("coreweave", 72, pytest.approx(72 * 10.50))


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
    out = json.loads(gpuwise("prices", "--gpu", "RTX A5000", "--format", "json").stdout)
    rent = sorted((r["provider"], r["amount"]) for r in out["prices"] if r["kind"] == "rent")
    assert rent == [("runpod", 0.16), ("runpod", 0.26)]
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
    assert "Not rented" not in gpuwise("prices", "--gpu", "rtx-a5000").stdout


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


def test_recommend_rents_an_rtx_a5000_costed_by_hand(tmp_path):
    """Before market62 the same job had no answer: 'No cloud in the knowledge base rents 1 x NVIDIA RTX A5000
    24GB' (TCO-NO-RENTAL) and no recommendation. Now 8 GPUs in one RunPod Community Cloud pod at 8 x $0.16 =
    $1.28 an hour: the bill is $1.28 x the job's hours plus $1.28 x the quarter hour of start-up and wind-down."""
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(A5000_LORA), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    rec = d["recommendation"]
    assert (rec["gpu"], rec["count"], rec["nodes"]) == ("rtx-a5000", 8, 1)
    rent, setup = rec["ledger"]["lines"][:2]
    assert (rent["kind"], setup["kind"]) == ("rent", "setup")
    assert rent["inputs"]["provider"] == "runpod" and rent["inputs"]["as_of"] == "2025-07-13"
    rate = 8 * 0.16
    assert rent["inputs"]["usd_per_hour"] == pytest.approx(rate)
    assert rent["amount"] == pytest.approx(rate * rent["inputs"]["hours"])
    assert setup["amount"] == pytest.approx(rate * 0.25)
    assert rec["ledger"]["total"] == pytest.approx(rate * (rent["inputs"]["hours"] + 0.25))
    # the rate is 2025's: the freshness rule says so
    assert any(f["rule"] == "DATA-STALE-PRICE" and "2025-07-13" in f["message"] for f in d["findings"])
