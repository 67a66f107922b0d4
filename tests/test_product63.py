"""product63: where what the buyer sees did not match what gpuwise assumed; each test fails before its fix.

1. Spot rentals. A provider that publishes no spot price was priced at its on-demand price less the assumed 55%
   (knowledge/clouds.yaml spot.fallback_discount), and that guess could win the spot ranking: 8 H100 on spot with no
   provider named took RunPod at 8 x $2.69 x 0.45 = $9.684 an hour beside Google Cloud's published spot price for
   its a3-highgpu-8g, $35.3957 an hour (clouds.yaml, Cloud Billing Catalog 2025-03-06). A published spot price now
   ranks before every guess (offers.as_spot); a rental billed at a guess (RunPod named) says so
   (FEE-SPOT-PRICE-ASSUMED), and a proposal's own spot price is billed as quoted, not discounted again.

4. GB200. CoreWeave rents GB200 NVL72 only as full racks of 18 four-GPU nodes, a node pool a multiple of 18
   (docs.coreweave.com/docs/platform/instances/gb200), but only `min_gpus: 72` said so: 100 GPUs were priced as 100.
   A per-GPU-hour offer's `step_gpus` (clouds.yaml) rounds a count up to whole steps: 100 are 144 (two racks), said
   by FEE-RENT-STEP. A GB200 server is one compute tray of 4 GPUs (NVIDIA DGX GB Rack Scale Systems User Guide,
   Hardware: 18 1RU compute trays, each with 2 Grace CPUs and 4 Blackwell GPUs), not an 8-GPU server: 8 rented GB200
   are 2 nodes of 4 on the rack's NVLink, each node with CoreWeave's 960 GB of host RAM (4 x 240).

2. A bought card's host RAM. MEM-HOST-RAM-BUY judged every bought machine against a rented server of the card's
   segment (runtime.yaml rented_host_ram: 125 GB a workstation card, 62 a GeForce card), whatever host the price
   bought. A desktop build (the tco.yaml consumer host share: a GeForce card, or a workstation card in a desktop)
   now holds tco.yaml desktop_host_ram_gb_per_gpu, 48 GB a card: tinygrad's tinybox green v2 blackwell, 4 x RTX PRO
   6000 Blackwell with 192 GB of RAM (tinygrad/tinyxxx index.html @ b6c5a89, 2026-04-10). A server keeps its
   segment's figure.

3. A stated facility. examples/proposal-16x4090-70b-full.yaml states an 8 kW facility and no hosting: it was priced in
   colocation (13.76 kW x $250 a kW-month x 12 months = $41,280 of rent, PUE 1.58) while PWR-OVER-FACILITY judged
   the 8 kW as the site's, and nothing said the two were one site. PWR-FACILITY-SITE-ASSUMED (warning) now says
   which site the facility is taken to be, its rent and PUE (knowledge/tco.yaml hosting), and how to state another.
"""
from __future__ import annotations

import json

import pytest

from tests.clirun import ROOT, gpuwise, json_of, text_of

DATA = ROOT / "tests/data/product63"
SPOT = DATA / "audit-spot-8-h100.yaml"
SPOT_RUNPOD = DATA / "audit-spot-8-h100-runpod.yaml"


def _rent(data: dict) -> dict:
    (rent,) = [ln for ln in data["proposed"]["ledger"]["lines"] if ln["kind"] == "rent"]
    return rent


def _rules(data: dict) -> set[str]:
    return {f["rule"] for f in data["findings"]}


def test_a_published_spot_price_ranks_before_an_assumed_one(tmp_path):
    data = json_of(tmp_path, "audit", str(SPOT))
    i = _rent(data)["inputs"]
    # clouds.yaml gcp a3-highgpu-8g (8 H100): spot_usd_per_hour 35.3957. RunPod's H100 SXM at $2.69 a GPU-hour
    # (runpod.io/pricing, 2026-09-25) publishes no spot price: its guess, 8 x 2.69 x (1 - 0.55) = $9.684 an hour,
    # is lower but is no price anyone quoted
    assert pytest.approx(9.684) == 8 * 2.69 * (1 - 0.55)
    assert (i["provider"], i["instance"], i["usd_per_hour"], i["spot_price_known"]) == (
        "gcp", "a3-highgpu-8g", 35.3957, True)
    assert "FEE-SPOT-PRICE-ASSUMED" not in _rules(data)


def test_a_rental_billed_at_an_assumed_spot_price_says_so(tmp_path):
    data = json_of(tmp_path, "audit", str(SPOT_RUNPOD))
    i = _rent(data)["inputs"]
    # RunPod named: its only H100 SXM offers are on demand; the cheaper, $2.69 a GPU-hour, less 55% is $1.2105
    assert (i["provider"], i["spot_price_known"]) == ("runpod", False)
    assert i["usd_per_hour"] == pytest.approx(8 * 2.69 * 0.45)
    (f,) = [f for f in data["findings"] if f["rule"] == "FEE-SPOT-PRICE-ASSUMED"]
    assert f["severity"] == "warning" and data["verdict"] == "revise"
    assert f["message"] == ("runpod publishes no spot price gpuwise knows for NVIDIA H100 SXM5 80GB: the spot rate "
                            "billed, $1.21 a GPU-hour, is its on-demand $2.69 less an assumed 55%, not a quoted price")
    zh = "".join(text_of(tmp_path, "audit", str(SPOT_RUNPOD), "--lang", "zh").split())
    assert "是其按需价格$2.69减去假设的55%折扣，并非报价" in zh


def test_a_proposals_own_spot_price_is_billed_as_quoted(tmp_path):
    path = tmp_path / "own.yaml"
    path.write_text(SPOT_RUNPOD.read_text().replace("  provider: runpod", "  provider: runpod\n  hourly_usd: 4.0"))
    data = json_of(tmp_path, "audit", str(path))
    rent = _rent(data)
    # $4.00 a GPU-hour on spot for 8 GPUs is $32.00 an hour, billed for the run's hours x (1 + 0.08 restart
    # overhead); it was billed at 32 x 0.45 = $14.40, the assumed discount taken off a price already spot
    assert rent["inputs"]["usd_per_hour"] == pytest.approx(32.0)
    assert rent["inputs"]["spot_price_known"] is True
    assert rent["amount"] == pytest.approx(32.0 * rent["inputs"]["hours"] * 1.08, rel=1e-9)
    assert "FEE-SPOT-PRICE-ASSUMED" not in _rules(data)


GB200 = DATA / "audit-gb200-100.yaml"


def test_gb200_racks_are_rented_in_whole_steps_of_72(kb):
    from gpuwise.estimators.offers import rent_offers

    # $10.50 a GPU-hour (coreweave.com/pricing, $42.00 for the 4-GPU instance); ceil(n / 72) x 72 GPUs are billed
    for asked, paid in ((8, 72), (72, 72), (73, 144), (100, 144), (145, 216)):
        [o] = rent_offers(kb.clouds, "gb200", asked)
        assert (o.provider, o.gpus, o.step_gpus) == ("coreweave", paid, 72)
        assert o.usd_per_hour == pytest.approx(paid * 10.50)


def test_a_gb200_proposal_of_100_is_billed_for_two_racks(tmp_path):
    data = json_of(tmp_path, "audit", str(GB200))
    rent = _rent(data)
    assert rent["inputs"]["gpus_paid"] == 144 and rent["inputs"]["usd_per_hour"] == pytest.approx(144 * 10.50)
    assert rent["amount"] == pytest.approx(1512.0 * rent["inputs"]["hours"])
    (f,) = [f for f in data["findings"] if f["rule"] == "FEE-RENT-STEP"]
    assert f["message"] == ("100 x NVIDIA GB200 (per Blackwell GPU, NVL72) rented from coreweave: it rents them only "
                            "in whole steps of 72, so 144 GPUs are billed and the job uses 100")
    assert "FEE-NODE-WHOLE" not in _rules(data)
    # the 100 GPUs sit in 25 compute trays of 4, not 13 servers of 8
    assert data["proposed"]["nodes"] == 25


def test_the_prices_listing_says_the_step():
    listing = json.loads(gpuwise("prices", "--gpu", "gb200", "--format", "json").stdout)
    row = next(r for r in listing["prices"] if r["kind"] == "rent")
    assert "from 72 GPUs, in steps of 72" in row["item"]
    zh = "".join(gpuwise("prices", "--gpu", "gb200", "--lang", "zh").stdout.split())
    assert "72块GPU起，以72块为一档" in zh


def test_a_gb200_server_is_a_tray_of_four(kb):
    from gpuwise.estimators.interconnect import gpus_per_server, topology
    from gpuwise.estimators.offers import rent_offers
    from gpuwise.estimators.rental import rented_host_ram

    gpu = kb.gpus["gb200"]
    assert gpus_per_server(gpu) == 4
    topo = topology(gpu, 8, kb.runtime)
    # two trays, joined by the rack's NVLink switch trays (a fabric of 8 GPUs), not by the network
    assert (topo.nodes, topo.per_node, topo.fabric) == (2, 4, 8)
    [o] = rent_offers(kb.clouds, "gb200", 8)
    # a rented node is CoreWeave's gb200-4x instance: 960 GB of RAM (coreweave.com/pricing), 4 x 240
    ram, src = rented_host_ram(kb, gpu, topo.per_node, o, 0.0, 8)
    assert (ram, src) == (pytest.approx(960.0), "offer")


def test_a_step_the_largest_rental_cannot_hold_is_refused():
    from pydantic import ValidationError

    from gpuwise.knowledge.schema.clouds import GpuHourPrice

    base = {"provider": "x", "gpu": "gb200", "usd_per_gpu_hour": 10.5, "as_of": "2026-09-20", "source": "a page"}
    assert GpuHourPrice(**base, step_gpus=72, max_gpus=144).step_gpus == 72
    with pytest.raises(ValidationError, match="not a whole multiple of step_gpus 72"):
        GpuHourPrice(**base, step_gpus=72, max_gpus=100)


PRO6000 = DATA / "audit-buy-4-rtx-pro-6000.yaml"


def _host_ram_buy(data: dict) -> dict:
    (f,) = [f for f in data["findings"] if f["rule"] == "MEM-HOST-RAM-BUY"]
    return f


def test_a_bought_desktop_of_four_rtx_pro_6000_holds_a_tinybox_s_ram(tmp_path):
    data = json_of(tmp_path, "audit", str(PRO6000))
    f = _host_ram_buy(data)
    # Qwen2.5-32B, ZeRO-3 with CPU offload: 32.76e9 x 16 B / 0.8 = 655 GB a node; the host the price buys is a desktop
    # build (its $800 a card share), 4 x 48 = 192 GB (the tinybox green v2's), not 4 x 125 = 500 GB
    assert f["evidence"]["typical_host_ram_gb"] == pytest.approx(4 * 192 / 4)
    assert f["evidence"]["host_ram_needed_gb"] == pytest.approx(32.76e9 * 16 / 0.8 / 1e9, rel=0.01)
    assert "a typical machine of 4 of them (the host the price buys) holds about 192 GB" in f["message"]
    host = [ln for ln in data["proposed"]["ledger"]["lines"] if ln["kind"] == "server"]
    assert host and host[0]["amount"] == pytest.approx(4 * 800)  # tco.yaml server_share_usd_per_gpu_consumer


def test_a_bought_desktop_with_one_rtx_4090(tmp_path):
    doc = PRO6000.read_text().replace("rtx-pro-6000", "rtx-4090").replace("count: 4", "count: 1").replace(
        "qwen2.5-32b", "qwen2.5-7b")
    path = tmp_path / "one-4090.yaml"
    path.write_text(doc)
    f = _host_ram_buy(json_of(tmp_path, "audit", str(path)))
    # one card in a desktop: 48 GB (192 / 4), where a rented GeForce server's 62 GB was taken
    assert f["evidence"]["typical_host_ram_gb"] == pytest.approx(48.0)


def test_a_stated_rack_site_keeps_the_server_figure(tmp_path):
    # the same four cards stated in colocation go in a PCIe server (cost.server_share_key): the workstation
    # segment's server, 4 x 125 = 500 GB (runtime.yaml rented_host_ram.per_gpu_gb)
    path = tmp_path / "colo.yaml"
    path.write_text(PRO6000.read_text() + "constraints:\n  hosting: colocation\n")
    f = _host_ram_buy(json_of(tmp_path, "audit", str(path)))
    assert f["evidence"]["typical_host_ram_gb"] == pytest.approx(4 * 125)


FACILITY = ROOT / "examples/proposal-16x4090-70b-full.yaml"


def test_a_stated_facility_says_which_site_it_is_priced_as(tmp_path):
    data = json_of(tmp_path, "audit", str(FACILITY))
    (f,) = [f for f in data["findings"] if f["rule"] == "PWR-FACILITY-SITE-ASSUMED"]
    assert f["severity"] == "warning"
    assert f["message"] == ("The 8.0 kW facility the proposal states is taken to be the colocation site the purchase "
                            "is priced in ($250 a kW-month of IT load, PUE 1.58); its power is judged there. A site "
                            "of your own is priced as an office only up to 3 kW")
    (hosting,) = [ln for ln in data["proposed"]["ledger"]["lines"] if ln["kind"] == "hosting"]
    # 16 x 450 W + 2 machines' host: 13.76 kW (the ledger's), billed at $250 a kW-month for the 12 months
    assert hosting["amount"] == pytest.approx(hosting["inputs"]["it_kw"] * 250 * 12)
    assert "PWR-OVER-FACILITY" in _rules(data)


def test_a_facility_with_its_hosting_stated_is_not_said_again(tmp_path):
    path = tmp_path / "colo.yaml"
    path.write_text(FACILITY.read_text().replace("constraints:\n", "constraints:\n  hosting: colocation\n"))
    data = json_of(tmp_path, "audit", str(path))
    assert "PWR-FACILITY-SITE-ASSUMED" not in _rules(data) and "PWR-OVER-FACILITY" in _rules(data)


def test_gb200_trays_in_one_rack_send_nothing_over_the_network(tmp_path):
    # 64 GB200 (16 trays) are one NVL72 rack's NVLink domain: the estimate keeps their collectives on it
    # (interconnect.Topology.fabric = 64), so NET-SLOW-NETWORK's 'the estimate counts the traffic between nodes at
    # that speed' was untrue; 100 (two racks) do send between racks over the assumed ethernet-25
    req = tmp_path / "gb200.yaml"
    req.write_text("workload: {task: finetune, method: full, model: llama-3.1-70b, seq_len: 4096, "
                   "train_tokens: 1.0e9}\nconstraints: {gpus: [gb200], max_gpus: 128, acquisition: rent}\n")
    data = json_of(tmp_path, "recommend", str(req))
    rec = data["recommendation"]
    # product64: the 64 are billed a rack of 72, so the 72 that use it whole are judged beside them and win
    assert (rec["gpu"], rec["count"]) == ("gb200", 72)
    slow = {f["candidate"] for f in data["findings"] if f["rule"] == "NET-SLOW-NETWORK"}
    # 128 are two racks, joined by CoreWeave's InfiniBand NDR 400 Gb/s a GPU (product64: clouds.yaml network_source)
    assert not slow
    # 72 GPUs billed (one rack) at $10.50: the rent and start-up lines are $756 an hour
    assert rec["ledger"]["lines"][0]["inputs"]["usd_per_hour"] == pytest.approx(72 * 10.50)
    # over ethernet-25 stated, 100 (two racks) send between the racks at that speed
    assert "NET-SLOW-NETWORK" in _rules(json_of(tmp_path, "audit", str(DATA.parent / "product64" /
                                                                     "audit-gb200-100-ethernet.yaml")))
    assert "NET-SLOW-NETWORK" not in _rules(json_of(tmp_path, "audit", str(GB200)))
