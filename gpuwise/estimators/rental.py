"""The rental offers a job can take: by market, a cluster network first for training over several
servers, a named provider's own; the offer and term a count is sold on for the expected hours, and
the network between servers each way of acquiring has. Apart from the candidate evaluation, which
prices the offer chosen here."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..inputs.job import Job
from . import cost as K
from . import interconnect as I
from . import offers as O
from . import planner as P
from .training_job import training_job

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu

HOURS_PER_MONTH = K.HOURS_PER_MONTH


def market_of(job: Job) -> str:
    c = job.c
    return c.market or ("china" if c.currency == "CNY" else "global")


def offers_for(job: Job, gpu: Gpu, count: int) -> list[K.Offer]:
    """Rental offers a user in this market can take, cheapest first (memoised per job)."""
    key = ("offers", gpu.id, count)
    if key not in job.memo:
        job.memo[key] = _offers_for(job, gpu, count)
    return job.memo[key]


def _offers_for(job: Job, gpu: Gpu, count: int) -> list[K.Offer]:
    kb = job.kb
    offers = K.rent_offers(kb.clouds, gpu.id, count, kb.tco_value("usd_cny").value)
    if market_of(job) == "china":  # mainland-China clouds first, when they rent this GPU
        offers = [o for o in offers if o.market == "china"] or offers
    else:
        offers = [o for o in offers if o.market != "china"]  # mainland platforms need a mainland account
    if job.training and count > NODE_GPUS:
        offers = _cluster_offers_first(offers, kb.runtime.networks)
    return offers


NODE_GPUS = I.GPUS_PER_NODE  # GPUs in the largest single server an offer rents (HGX / 8-card PCIe)


def _cluster_offers_first(offers: list[K.Offer], networks: dict[str, Any]) -> list[K.Offer]:
    """Training over several servers is rented as a cluster: offers whose provider states a
    per-GPU (rail-optimised RDMA) network come first, cheapest first among them; an offer with a
    per-node or unstated network is taken only where no cluster offer exists. Gradient and
    pipeline traffic between servers decides the scaling efficiency, and the per-node Ethernet
    default would leave most of a large job waiting on the network."""
    def per_gpu(o: K.Offer) -> bool:
        net = networks.get(o.network) if o.network else None
        return net is not None and net.shared_by == "gpu"

    return sorted(offers, key=lambda o: not per_gpu(o))  # stable: price order kept within each group


def named_offers(job: Job, gpu: Gpu, count: int, provider: str) -> list[K.Offer]:
    """The offers of the provider a proposal names, also beyond one rental's size (pods joined by
    the provider's own network), cheapest first."""
    kb = job.kb
    return [o for o in K.rent_offers(kb.clouds, gpu.id, count, kb.tco_value("usd_cny").value, named=provider)
            if o.provider == provider]


def named_network(job: Job, gpu: Gpu, count: int, provider: str | None, instance: str | None = None, *,
                  spot: bool = False) -> str | None:
    """Between the servers of a rental from a named provider: the network that provider states
    for its offer, or the clouds' Ethernet-class default; None when it does not rent this GPU. A named
    instance the provider lists is the offer read (the cost step prices it): 4 x GCP's a3-highgpu-8g
    (400 Gb/s a node) were estimated on the 25 GbE default of the provider's cheaper a3-highgpu-1g, and with no
    provider named, on the catalog's InfiniBand default; such an instance names its provider."""
    offer = named_offer(job, gpu, count, provider, instance, spot=spot)
    return _rent_network(job, gpu, offer) if offer is not None else None


def named_offer(job: Job, gpu: Gpu, count: int, provider: str | None, instance: str | None = None, *,
                spot: bool = False) -> K.Offer | None:
    """The offer :func:`named_network` reads: the named instance's, else the provider's offer as sold for the
    expected hours (the cheapest bill), on spot capacity the one the cost step bills (offers.as_spot); None when
    the provider does not rent this GPU."""
    if not provider and instance:
        provider = next((i.provider for i in job.kb.clouds.instances if i.id == instance), None)
    if not provider:
        return None
    offers = named_offers(job, gpu, count, provider)
    if instance:
        offers = [o for o in offers if o.instance == instance] or offers
    if spot and offers:
        return O.as_spot(offers, job.kb.runtime.networks, job.kb.clouds.spot.fallback_discount)
    return _sold_offer(job, gpu, count, offers) if offers else None


PRICE_MATCH = 0.01  # a proposal's rate a GPU-hour within 1% of a listed one is that offer's (a quote's rounding)


def matching_instance(job: Job, gpu: Gpu, count: int, provider: str, per_node: int | None,
                      usd_per_gpu_hour: float | None) -> tuple[K.Offer | None, str]:
    """The listed instance of ``provider`` a proposal naming no instance is read on, and why: the one whose GPUs
    make the node the proposal gives (``per_node``: its count over its stated nodes; "nodes"), the one at its own
    rate a GPU-hour among those, else the one at that rate ("price"); (None, "") when none matches, or when the
    matches are listed with different networks between instances (nothing tells them apart)."""
    shapes = {i.id: i.gpus for i in job.kb.clouds.instances}  # an instance's own GPUs (an offer's are those paid)
    listed = [o for o in named_offers(job, gpu, count, provider) if o.instance in shapes]
    by_nodes = [o for o in listed if per_node and shapes[o.instance] == per_node]
    if usd_per_gpu_hour:
        priced = [o for o in (by_nodes or listed) if abs(o.per_gpu_hour / usd_per_gpu_hour - 1) <= PRICE_MATCH]
        if priced and len({o.network for o in priced}) == 1:
            return min(priced, key=lambda o: abs(o.per_gpu_hour - usd_per_gpu_hour)), "nodes" if by_nodes else "price"
    if by_nodes and len({o.network for o in by_nodes}) == 1:
        return by_nodes[0], "nodes"
    return None, ""


def expected_rent_hours(job: Job, gpu: Gpu, count: int) -> float:
    """The hours a rental of ``count`` GPUs is expected to run, known before the network is: a
    service's whole project; a training job's wall time at the GPU's full rate with no
    communication (the planner's lower bound) plus start-up. It chooses the offer, and so the
    network, a job is estimated on; the cost step then prices that network's offers for the
    estimated hours."""
    if not job.training:
        return job.c.project_months * HOURS_PER_MONTH
    if job.shape.diffusion:
        return 0.0
    key = ("expected_hours", gpu.id, count)
    got = job.memo.get(key)
    if got is None:
        gpu_hours = P.fewest_gpus_in_time(training_job(job), gpu, 1.0)
        ideal = gpu_hours / count if 0 < gpu_hours < math.inf else 0.0
        got = job.memo[key] = ideal + job.kb.runtime.training.job_setup_hours.value
    return got


def _sold_offer(job: Job, gpu: Gpu, count: int, offers: list[K.Offer]) -> K.Offer:
    """The offer :func:`offers.as_sold` takes for ``count`` GPUs over the expected hours (sizes,
    minimum terms and reservations counted), before the job is estimated."""
    offer, _term = O.as_sold(offers, count, expected_rent_hours(job, gpu, count), job.kb.runtime.networks)
    return offer


def rent_network(kb: Any, gpu: Gpu, offer: K.Offer) -> str:
    """Between rented servers: the network the offer states; where it states none, the system's own scale-out
    port where it has one (gpus.yaml link.system_fabric: a rented DGX Spark keeps its ConnectX-7, as a bought one
    is joined by it), else the clouds' Ethernet-class default. The estimate, the offer priced and
    MARKET-NETWORK-ASSUMED all read this one."""
    if offer.network:
        return offer.network
    fabric = gpu.link.system_fabric
    return fabric if fabric and fabric in kb.runtime.networks else kb.clouds.default_network


def _rent_network(job: Job, gpu: Gpu, offer: K.Offer) -> str:
    return rent_network(job.kb, gpu, offer)


def networks_for(job: Job, gpu: Gpu, count: int) -> dict[str, str | None]:
    """The network between servers each way of acquiring ``count`` GPUs has: that of the rental
    offer the job would be priced on (the size and term it is sold in, for the expected hours;
    the offer's stated network or the clouds' Ethernet-class default), and the fabric a bought
    cluster is priced with. None where that way does not exist."""
    kb = job.kb
    offers = offers_for(job, gpu, count)
    rent = _rent_network(job, gpu, _sold_offer(job, gpu, count, offers)) if offers else None
    plan, _why = K.buy_plan(kb.prices, gpu, count, kb.tco, market=market_of(job), usd_cny=kb.tco_value("usd_cny").value)
    buy = K.bought_fabric(kb.prices, plan, gpu) if plan is not None else None
    return {"rent": rent, "buy": buy}


def instance_split(job: Job, gpu: Gpu, count: int) -> tuple[int, str] | None:
    """Where the only way to rent ``count`` GPUs in servers of the usual size (``count`` up to a server's, else
    servers of :func:`interconnect.gpus_per_server`) is a set of smaller instances (clouds.yaml ``instances``: 8 T4s
    are eight AWS g4dn.xlarge of one GPU each; every offer of the market a listed instance smaller than the server),
    the servers such a rental is: (nodes, the network between them) -- the instances' count for the offer sold for
    the expected hours, and the network its provider states between instances, else the clouds' Ethernet-class
    default (MARKET-NETWORK-ASSUMED says so). Separate instances share no NVLink or PCIe switch and each has only its
    own host RAM. None where an offer holds the server in one rental (a per-GPU offer, or an instance as large), or
    none rents the GPU."""
    offers = offers_for(job, gpu, count)
    per_node = min(count, I.gpus_per_server(gpu))
    kb = job.kb
    if not offers or any(not o.instance or instance_gpus(kb, o.instance) >= per_node for o in offers):
        return None
    offer = _sold_offer(job, gpu, count, offers)
    size = instance_gpus(kb, offer.instance)
    if size <= 0:
        return None
    return math.ceil(count / size), _rent_network(job, gpu, offer)


def shared_host_ram_gb(gpu: Any, per_node: int, held_per_gpu: float) -> float:
    """GB of a system's one memory (gpus.yaml memory.shared_with_host, the GB10 of a DGX Spark) left for what is
    offloaded to the host: the memory less what the GPU side holds there (``held_per_gpu`` bytes: its weights,
    activations, state and context), for the ``per_node`` GPUs of a node; never below 0."""
    return max(gpu.memory.gb - held_per_gpu / 1e9, 0.0) * per_node


def rented_host_ram(kb: Any, gpu: Any, per_node: int, offer: Any,
                    held_per_gpu: float = 0.0, run_gpus: int = 0) -> tuple[float | None, str]:
    """GB of host RAM a rented server of ``per_node`` GPUs comes with, and where the figure comes from: the named
    instance's own (runtime.yaml rented_host_ram.instance_gib), else the offer's as its provider states it, else a
    typical figure per GPU of the GPU's segment; (None, "") when none is known. A GPU whose memory is the system's
    only memory (gpus.yaml memory.shared_with_host) has that memory less what its GPU side holds (``held_per_gpu``
    bytes), and no other. A run on fewer GPUs than the instance holds has the whole instance's RAM (its other GPUs
    idle, still paid for): 2 L4s on a g6.48xlarge have its 768 GiB, not 2/8 of it; likewise a run of ``run_gpus``
    on an offer rented only as a whole node (clouds.yaml min_gpus, "a whole node's 8 where only nodes are rented":
    the offer bills more GPUs than the run has) has that node's RAM: 4 V100s on Lambda's 8x V100 have its 448 GiB.
    Never more than one server's GPUs (interconnect.gpus_per_server): an offer sold by the rack (CoreWeave's GB200
    NVL72, min_gpus 72) bills 72 GPUs, but a run of 8 offloads to the RAM of its own GPUs' hosts, 8 x 240 GB, not
    to the idle rest of the rack's (market62)."""
    if gpu.memory.shared_with_host:
        return shared_host_ram_gb(gpu, per_node, held_per_gpu), "shared"
    per_node = max(per_node, instance_gpus(kb, offer.instance if offer else None))
    if offer is not None and offer.instance is None and 0 < run_gpus < offer.gpus:
        per_node = max(per_node, min(offer.gpus, I.gpus_per_server(gpu)))
    per_gpu, src = instance_ram_per_gpu_gb(kb, offer.instance if offer else None), "instance"
    if not per_gpu and offer is not None and offer.host_ram_gb_per_gpu:
        per_gpu, src = offer.host_ram_gb_per_gpu, "offer"
    if not per_gpu:
        per_gpu, src = kb.runtime.rented_host_ram.per_gpu_gb.get(gpu.segment), "typical"
    return (per_gpu * per_node, src) if per_gpu else (None, "")


def instance_gpus(kb: Any, instance: str | None) -> int:
    """GPUs one named rental instance holds (clouds.yaml), 0 when the offer names none or it is not listed."""
    shape = next((i for i in kb.clouds.instances if i.id == instance), None) if instance else None
    return shape.gpus if shape else 0


def instance_ram_per_gpu_gb(kb: Any, instance: str | None) -> float | None:
    """GB of host RAM per GPU of a named rental instance (runtime.yaml rented_host_ram.instance_gib over
    the instance's GPUs in clouds.yaml), None when the instance or its RAM is not known."""
    gib = kb.runtime.rented_host_ram.instance_gib.get(instance) if instance else None
    shape = next((i for i in kb.clouds.instances if i.id == instance), None) if gib else None
    return gib * 2 ** 30 / 1e9 / shape.gpus if gib and shape else None



def rent_host_ram_ahead(job: Job, gpu: Gpu, count: int, per_node: int, provider: str | None = None,
                        instance: str | None = None, hourly_usd: float | None = None) -> float | None:
    """GB of host RAM a node of a rental of ``count`` x ``gpu`` comes with, known before the training layout is
    chosen, so the planner keeps a layout whose offloaded state that node holds: the offer the cost step prices
    (a named instance, the named provider's offers, else the market's, sold for the expected hours; at a proposal's
    own rate, the provider's listed offer at that rate, else none listed), read as :func:`rented_host_ram` reads it
    (the instance's RAM, the offer's as stated, else a typical rented server of the GPU's segment)."""
    offers = (named_offers(job, gpu, count, provider) if provider else []) or offers_for(job, gpu, count)
    if instance:
        offers = [o for o in offers if o.instance == instance] or offers
    if hourly_usd is not None:  # the proposal's own price (candidate._cost_step: within 5% of a listed offer's)
        listed = next((o for o in offers if provider and o.provider == provider and o.instance == instance
                       and abs(o.per_gpu_hour - hourly_usd) <= 0.05 * hourly_usd), None)
        offer: Any = SimpleNamespace(instance=instance, gpus=count,
                                     host_ram_gb_per_gpu=listed.host_ram_gb_per_gpu if listed else None)
    else:
        offer = _sold_offer(job, gpu, count, offers) if offers else None
    return rented_host_ram(job.kb, gpu, per_node, offer, 0.0, count)[0]
