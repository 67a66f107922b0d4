"""The fact vocabulary: one typed definition per fact type the rules match.

Rule files may only name these fields (in conditions, ``set`` values and message placeholders);
the rule loader checks every rule against them, so a typo in a rule (built-in or house) is an
error at load time rather than a rule that silently never fires. ``gpuwise rules --facts`` prints
this vocabulary.

Units are in the names: ``_gb`` decimal gigabytes, ``_days``, ``_usd``, ``_pct``, ``_w``; ``-1``
means "not known / not given" for numbers, ``""`` for text.

Candidates flow through the four steps as a chain (see :mod:`gpuwise.decide.rulebook`): a
candidate fact is asserted at the ``memory`` stage; each step's ``pass`` rule asserts it again at
the next stage (``compute``, ``interconnect``, ``tco``) and finally ``decided``, adding the
verdict fields it ``set``s. Fields marked ``set_by`` exist from that stage on; a rule that reads
one earlier is refused at load time.

The candidate, card and price facts are defined in :mod:`.fact_candidate`, :mod:`.fact_card` and
:mod:`.fact_price`; the plan's in :mod:`gpuwise.plan.facts`. This module gathers them into one vocabulary.
"""

from __future__ import annotations

from typing import Literal

from ..results import STAGES, Stage  # noqa: F401 - the stages are part of the vocabulary
from .fact_base import FactModel, _f
from .fact_candidate import CandidateFact
from .fact_card import CardFact
from .fact_price import ComparisonFact, PriceFact


class JobFact(FactModel):
    """The job itself, once per consultation."""

    task: Literal["pretrain", "finetune", "inference"] = _f("the task")
    method: Literal["full", "lora", "qlora"] = _f("fine-tuning method")
    model: str = _f("model name")
    params_b: float = _f("parameters, billions")
    precision: str = _f("precision asked for")
    mixed_precision: bool = _f("fp32 master weights with 16-bit compute")
    optimizer: str = _f("optimizer")
    zero: int = _f("ZeRO stage asked for (-1 auto)")
    offload: Literal["none", "cpu", "nvme"] = _f("where the job asks for its optimizer state to be kept: 'none' on "
                                                 "the GPUs, 'cpu' host RAM, 'nvme' the drives")
    full_training: bool = _f("training all weights (pretrain or full fine-tune)")
    state_gb: float = _f("weights + gradients + optimizer state of full mixed-precision training, GB")
    state_gb_myth: float = _f("the articles' params x 8 B x 1.2, GB")
    server_gpu: str = _f("the GPU type of the server the job fact describes: the first whose server the memory "
                         "limit lets through, else the one closest to holding the job (least need as a share "
                         "of capacity); 'none' when no GPU was judged")
    server_gpus: int = _f("that server's GPUs: the most the count ladder puts in one server (up to 8; 0 none)")
    server_need_gb: float = _f("the least memory any way of running the job on that server needs on its busiest "
                               "GPU, GB (-1 none)")
    server_capacity_gb: float = _f("the memory of one of that server's GPUs, GB (-1 none)")
    host_server_gpu: str = _f("the GPU type of the one-server estimate the host-RAM rule judges: of those whose "
                              "need is under the memory rules' limit, the one that comes closest to keeping its "
                              "offloaded state in host RAM ('none': no such estimate)")
    host_server_gpus: int = _f("that server's GPUs (0 none)")
    host_server_ram_gb: float = _f("that server's host RAM, as proposed or as the rented server comes, GB (-1 not "
                                   "known or none)")
    host_server_ram_needed_gb: float = _f("the host RAM that server's offloaded state needs, GB (0 nothing "
                                          "offloaded, -1 none)")
    largest_usable_gb: float = _f("the largest usable memory of any candidate GPU, GB")
    seq_len: int = _f("training sequence length")
    batch_size: int = _f("micro-batch per GPU")
    context_len: int = _f("inference context length")
    model_max_context: int = _f("the catalog model's context window, tokens (knowledge/models.yaml max_context; 0 "
                                "not known)")
    context_given: bool = _f("inference: the workload states its lengths (context_len, prompt_tokens or "
                             "output_tokens), not the default context")
    weights_gb: float = _f("16-bit weights, GB")
    int4_weights_gb: float = _f("4-bit weights, GB")
    explicit_gpus: bool = _f("the user gave a short list of GPUs")
    stack_name: str = _f("training: the training stack's name (runtime.yaml training_stacks)")
    pin_off_stack: str = _f("training: the layout pins the stack cannot run, set aside ('none' when every pin "
                            "runs on it)")
    pin_off_stack_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                     "report words in its own language")
    proposed_total_gb: float = _f("memory of the proposed hardware in total, GB (-1 not an audit)")
    proposal_pure_state: bool = _f("an audit of one GPU for a full fine-tune planned with every state in bf16 "
                                   "there (runtime.yaml training.one_gpu_full_finetune)")
    framework_name: str = _f("inference: the serving framework's name")
    speculative_method: str = _f("inference: the speculative decoding method asked for ('none')")
    speculative_supported: bool = _f("inference: the framework runs that method (true when none is asked)")
    speculative_frameworks: str = _f("inference: the frameworks that run that method, listed")
    model_mtp_layers: int = _f("the multi-token-prediction layers the catalog model's checkpoint ships (0 none, -1 "
                               "not a catalog model)")
    quantization_method: str = _f("inference: the weight quantization method asked for ('none')")
    quantization_supported: bool = _f("inference: the framework loads that method (true when none is asked)")
    quantization_frameworks: str = _f("inference: the frameworks that load that method, listed")
    prefix_cache_hit_rate: float = _f("inference: the share of each prompt the workload says the prefix cache holds "
                                      "(workload.prefix_cache_hit_rate; 0 for training)")
    prefix_cache_kept: bool = _f("inference: the framework can keep prompt prefixes across requests at all "
                                 "(serving.yaml prefix_cache kept; true where not read)")
    prefix_cache_applied: bool = _f("inference: the hit rate is applied: the framework, in the stated release and "
                                    "with the stated prefix_cache, keeps prompt prefixes (options.prefix_cached)")
    prefix_cache_default_first: str = _f("inference: the framework's first release that keeps prompt prefixes by "
                                         "default ('' none named)")
    framework_version: str = _f("inference: the framework release the job states ('' none)")
    requests_per_s: float = _f("inference: the request rate asked for, requests/s (-1 none)")
    has_rate_target: bool = _f("inference: a request rate is asked for")
    best_requests_per_s: float = _f("inference: the highest rate any candidate serves within the p95 targets (-1 "
                                    "none computed)")
    max_p95_ttft_s: float = _f("inference: the workload's p95 time-to-first-token target, s (-1 none)")
    has_p95_ttft_target: bool = _f("inference: the workload states a p95 time-to-first-token target")
    p95_ttft_target_ms: float = _f("inference: the same target in milliseconds, for the {x:ms} format (-1 none)")
    p95_ttft_as_ms_s: float = _f("inference: the target read as milliseconds, in seconds: what p95_ttft_s holds "
                                 "if the figure was written in ms (-1 none)")
    max_p95_tpot_s: float = _f("inference: the workload's p95 time-per-output-token target, s (-1 none)")
    has_p95_tpot_target: bool = _f("inference: the workload states a p95 time-per-output-token target")
    p95_tpot_target_ms: float = _f("inference: the same target in milliseconds (-1 none)")
    p95_tpot_as_ms_s: float = _f("inference: the target read as milliseconds, in seconds (-1 none)")


class EnvironmentFact(FactModel):
    """The user's software environment against one GPU type (when an environment is given).
    A ``reject`` on it excludes every candidate of that GPU."""

    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    vendor: str = _f("GPU vendor")
    architecture: str = _f("architecture")
    cc: float = _f("compute capability (0 non-CUDA)")
    cuda_device: bool = _f("an NVIDIA GPU")
    launch_year: int = _f("launch year")
    os: str = _f("operating system as given")
    os_known: bool = _f("an OS was given")
    os_driver_branch: int = _f("the OS's default driver branch (-1 unknown)")
    driver: str = _f("driver version as given")
    driver_known: bool = _f("a driver was given")
    driver_num: float = _f("driver version as a number")
    driver_branch: int = _f("driver branch (major)")
    cuda: str = _f("CUDA version as given")
    cuda_known: bool = _f("a CUDA version was given")
    cuda_num: float = _f("CUDA version as a number")
    cuda_major: int = _f("CUDA major version")
    cuda_min_driver: str = _f("driver the CUDA toolkit needs")
    cuda_min_driver_num: float = _f("that driver as a number")
    cuda_family_floor: str = _f("minimum driver under minor-version compatibility")
    cuda_family_floor_num: float = _f("that driver as a number")
    gpu_first_cuda: str = _f("first CUDA toolkit that supports the GPU")
    gpu_first_cuda_num: float = _f("as a number")
    gpu_last_cuda: str = _f("last CUDA toolkit that supports the GPU")
    gpu_last_cuda_num: float = _f("as a number (999 none)")
    gpu_min_driver: str = _f("minimum driver for the GPU")
    gpu_min_driver_num: float = _f("as a number")
    gpu_min_driver_branch: int = _f("its branch")
    pytorch: str = _f("PyTorch version as given")
    pytorch_known: bool = _f("a PyTorch version was given")
    torch_release_known: bool = _f("the release is in gpuwise's table")
    torch_build_known: bool = _f("a wheel for that PyTorch and CUDA exists")
    torch_has_kernels: bool = _f("the wheel has kernels for the GPU's architecture")
    torch_arch_list: str = _f("architectures the wheel ships")
    torch_cuda: str = _f("the wheel's CUDA version")
    wants_bf16: bool = _f("bf16 asked for")
    wants_flash: bool = _f("FlashAttention asked for")
    wants_fp8: bool = _f("fp8 asked for")
    bf16_hw: bool = _f("has BF16 math")
    fp8_hw: bool = _f("has FP8 math")
    flash_min_cc: float = _f("the compute capability FlashAttention-2 needs (knowledge/software.yaml; -1 none "
                             "listed)")
    tensor_cores: bool = _f("has tensor cores")
    stack: str = _f("software stack the GPU runs: cuda, rocm, gaudi or cann")
    stack_name: str = _f("the stack's name as written in messages")
    gpu_last_driver_branch: int = _f("last NVIDIA driver branch that supports the GPU (-1 none)")
    kernel_modules: str = _f("kernel modules as given: open or proprietary ('' unknown)")
    kernel_modules_known: bool = _f("the kernel modules were given")
    gpu_kernel_modules: str = _f("kernel modules the GPU needs: open, either ('' unknown)")
    torch_release: str = _f("PyTorch release (major.minor) as given")
    torch_flavor: str = _f("the wheel's flavour: cuda, rocm, cpu... ('' unknown)")
    gpu_first_pytorch: str = _f("first PyTorch release with kernels for the GPU ('' unknown)")
    torch_release_num: float = _f("the PyTorch release as a number (-1 not given)")
    gpu_first_pytorch_num: float = _f("the first PyTorch release for the GPU as a number (-1 unknown)")
    torch_table_known: bool = _f("the PyTorch release is in gpuwise's tables")
    torch_oldest_known: str = _f("oldest PyTorch release in gpuwise's tables")
    torch_newest_known: str = _f("newest PyTorch release in gpuwise's tables")
    gfx: str = _f("AMD gfx target of the GPU ('' not AMD)")
    rocm: str = _f("ROCm version as given")
    rocm_num: float = _f("the ROCm version as a number (-1 unknown)")
    rocm_known: bool = _f("a ROCm version is known")
    rocm_given: bool = _f("a ROCm version was given")
    rocm_release_known: bool = _f("the ROCm release is in gpuwise's table")
    rocm_gfx_listed: bool = _f("the ROCm release's table lists the GPU's gfx target (false: release unknown)")
    rocm_gfx_complete: bool = _f("the table lists every gfx target of that release")
    rocm_gfx_list: str = _f("gfx targets the ROCm release supports")
    rocm_first_for_gfx: str = _f("first ROCm release that supports the gfx target")
    rocm_oldest_known: str = _f("oldest ROCm release in the table")
    rocm_newest_known: str = _f("newest ROCm release in the table")
    rocm_torch_list: str = _f("PyTorch releases with wheels for the ROCm version")
    rocm_driver_list: str = _f("amdgpu drivers listed for the ROCm release")
    amd_driver_in_list: bool = _f("the driver is one the ROCm release's table lists (a lookup: false when the "
                                  "release, the driver or the list is unknown)")
    torch_rocm_release_known: bool = _f("the PyTorch release has ROCm wheels in the table")
    torch_rocm_wheels: str = _f("ROCm versions the PyTorch release ships wheels for")
    rocm_in_torch_wheels: bool = _f("the ROCm version (major.minor) is one the PyTorch release ships wheels for "
                                    "(a lookup: false when either is unknown)")
    torch_rocm_wheels_with_gfx: int = _f("the PyTorch release's ROCm wheels whose ROCm release lists the gfx target")
    torch_rocm_wheels_unchecked: int = _f("the PyTorch release's ROCm wheels whose ROCm release gpuwise cannot check "
                                          "(not in the matrix, or the matrix does not list every target)")
    flash_status: str = _f("FlashAttention support on the GPU's stack: supported, partial, none, unknown")
    flash_gfx_listed: bool = _f("FlashAttention's table lists the gfx target")
    flash_gfx_list: str = _f("gfx targets FlashAttention supports")
    flash_min_stack: str = _f("oldest stack version FlashAttention needs")
    flash_min_stack_num: float = _f("that version as a number (-1 none)")
    flash_alternative: str = _f("what to use instead of FlashAttention there")
    wants_bnb: bool = _f("the job needs bitsandbytes (QLoRA, 8-bit optimizer or int8 weights)")
    bnb_reason: str = _f("why bitsandbytes is needed")
    bitsandbytes: str = _f("bitsandbytes version as given")
    bnb_known: bool = _f("a bitsandbytes version was given")
    bnb_stack_status: str = _f("bitsandbytes support on the GPU's stack")
    bnb_num: float = _f("the bitsandbytes version as a number (-1 not given)")
    bnb_first_num: float = _f("the first bitsandbytes release with a backend (experimental or official) on the "
                              "stack, as a number (0 every release, -1 none or not in the table)")
    bnb_official_num: float = _f("the first bitsandbytes release with official support on the stack, as a number "
                                 "(0 every release, -1 none or not in the table)")
    bnb_support_note: str = _f("what the support table says, described")
    framework: str = _f("the serving framework")
    framework_explicit: bool = _f("the framework was given")
    framework_support: str = _f("the framework's support on the GPU's stack")
    framework_plugin: str = _f("plugin or fork the framework needs on this stack")
    framework_gfx_listed: bool = _f("the framework's table lists the gfx target")
    framework_gfx_list: str = _f("gfx targets the framework supports")
    framework_min_stack: str = _f("oldest stack version the framework needs")
    framework_min_stack_num: float = _f("that version as a number (-1 none)")
    gaudi_device: str = _f("Gaudi generation ('' not Gaudi)")
    synapse: str = _f("Intel Gaudi software version as given")
    synapse_known: bool = _f("a Gaudi software version was given")
    synapse_release_known: bool = _f("the Gaudi software release is in the table")
    synapse_pytorch: str = _f("the PyTorch release that Gaudi software release pins")
    synapse_devices: str = _f("Gaudi devices the release supports")
    gaudi_device_listed: bool = _f("the release's table lists the Gaudi device (false: release unknown)")
    gaudi_first_synapse: str = _f("first Gaudi software release for the device")
    synapse_torch_release: str = _f("the PyTorch release (major.minor) the Gaudi software release pins ('')")
    cann: str = _f("Ascend CANN version as given")
    cann_known: bool = _f("a CANN version was given")
    torch_npu: str = _f("torch_npu version as given")
    torch_npu_known: bool = _f("a torch_npu version was given")
    torch_npu_release_known: bool = _f("the torch_npu release is in the table")
    torch_npu_pytorch: str = _f("the PyTorch release that torch_npu release pins")
    torch_npu_cann: str = _f("the CANN version that torch_npu release needs")
    torch_npu_cann_all: str = _f("CANN versions the torch_npu release supports")
    pytorch_num: float = _f("the PyTorch version as given, as a number (-1 not given)")
    torch_npu_pytorch_num: float = _f("the PyTorch release torch_npu is built for, as a number to as many parts as "
                                      "the given PyTorch version has (2.5 against 2.5.1 is 2.5; -1 unknown)")
    cann_key: str = _f("the CANN version as given, upper-cased for comparison ('' none)")
    torch_npu_cann_key: str = _f("the CANN version the torch_npu release needs, upper-cased ('' unknown)")


class ProposalFact(FactModel):
    """The proposal an audit checks (cloud fees, power and cooling, licensing, prices)."""

    title: str = _f("proposal title")
    gpu: str = _f("GPU id")
    gpu_name: str = _f("GPU display name")
    vendor: str = _f("GPU vendor")
    count: int = _f("GPUs")
    nodes: int = _f("servers")
    per_node: int = _f("GPUs per server")
    mode: Literal["buy", "rent"] = _f("buy or rent")
    condition: Literal["new", "used", "refurbished"] = _f("condition of the hardware")
    spot: bool = _f("spot / preemptible capacity")
    months: float = _f("months of use")
    checkpointing: bool = _f("the job checkpoints and restarts automatically")
    checkpointing_known: bool = _f("the proposal says whether it checkpoints")
    wall_days: float = _f("training wall days on the proposed hardware (-1 inference)")
    rent_usd: float = _f("rental bill, USD (0 when bought)")
    provider: str = _f("rental provider ('none')")
    hyperscaler: bool = _f("the provider is AWS, GCP or Azure")
    egress_usd: float = _f("internet egress fees over the project, USD")
    cross_region_usd: float = _f("cross-region transfer fees, USD")
    storage_usd: float = _f("storage fees, USD")
    fees_usd: float = _f("all transfer and storage fees, USD")
    fees_pct: float = _f("fees as a percentage of the rental bill (-1 not rented)")
    fees_months: float = _f("rented: the months the fees are billed over, the rental's (a job's billed hours / 730, "
                            "a committed term, a service's project); months of use where not rented")
    commitment: bool = _f("the rental states a term, billed in full whatever the job uses of it")
    commitment_hours: float = _f("hours billed: the committed term, else the hours used (-1 unknown)")
    gpus_paid: int = _f("rented: the GPUs billed, a listed instance's whole GPUs (a p4de.24xlarge's 8 for 2 used); "
                        "-1 bought")
    rental_max_gpus: int = _f("rented: the most GPUs one rental of the offer holds, one machine (an AutoDL host's or a "
                              "RunPod pod's 8; clouds.yaml max_gpus; a listed instance's own, an AWS g4dn.xlarge's "
                              "one); -1 any count, or bought")
    rental_step_gpus: int = _f("rented: the offer's GPUs come in whole multiples of this (clouds.yaml step_gpus: "
                               "CoreWeave's GB200 NVL72 racks of 72); 1 otherwise")
    instance: str = _f("the rented instance named ('none')")
    rental_provider: str = _f("rented: the provider of the offer the proposal is priced on, the one named or, naming "
                              "none, the offer chosen for it ('none' bought or unpriced)")
    job_hours: float = _f("wall-clock hours the training job needs (-1 a service)")
    idle_fraction: float = _f("share of the billed hours the job leaves idle (0 none)")
    owned_hours: float = _f("bought: hours the hardware is owned, the project's or a longer run's months x 730 "
                            "(-1 rented)")
    owned_months: float = _f("bought: months the hardware is owned, the project's or a longer run's (-1 rented)")
    owned_idle_fraction: float = _f("bought, training: share of the owned hours the job leaves idle (0 otherwise)")
    storage_kind: str = _f("storage kind")
    storage_priced_as: str = _f("storage kind the fee is priced at: the kind asked for, the provider's dearest"
                                " listed kind where it lists not that one, '' where it lists none")
    storage_tb: float = _f("storage, TB")
    egress_tb: float = _f("egress per month, TB")
    cross_region_tb: float = _f("cross-region transfer per month, TB")
    cloud_stated: bool = _f("the cloud section states an amount (egress, cross-region or storage TB), 0 included")
    node_kw: float = _f("power of one server at full load, kW")
    facility_kw: float = _f("power available, kW (-1 unknown)")
    has_facility: bool = _f("facility power was given")
    priced_hosting: str = _f("bought: where the purchase is priced as hosted (office, colocation, datacenter); 'none' "
                             "rented")
    priced_hosting_assumed: bool = _f("bought: that hosting was assumed, the proposal stating none")
    hosting_usd_per_kw_month: float = _f("bought: that hosting's rent a kW of IT load a month, USD (-1 none)")
    hosting_pue: float = _f("bought: that hosting's PUE (-1 none)")
    office_max_kw: float = _f("the most IT load an office takes, kW (tco.yaml hosting.office max_kw; -1 none)")
    rack_kw: float = _f("power of all servers, kW")
    air_cooled_limit_kw: float = _f("what air cooling removes per rack, kW (for messages)")
    cfm_needed: float = _f("airflow needed, CFM")
    consumer: bool = _f("consumer (GeForce) cards")
    segment: str = _f("market segment")
    tdp_w: float = _f("board power per GPU, W")
    hosting: str = _f("where bought hardware runs: office, colocation, datacenter or unknown")
    site: str = _f("bought: where the machines run, the hosting stated (office, colocation, datacenter), else what "
                   "the cards are bought in: workstations (desktop systems, prices.yaml units.sold_as), servers; "
                   "'none' rented")
    license_bundle: bool = _f("the card ships with a software licence bundle")
    nvaie_usd_per_gpu_year: float = _f("NVIDIA AI Enterprise list price per GPU-year, USD")
    unit_price_usd: float = _f("proposed price per GPU, USD (-1 none)")
    market_price_usd: float = _f("known street price per GPU on unit_price_usd's basis, USD (-1 unknown): a GPU "
                                 "without its host (a whole server's price a GPU less the host share the audit adds), "
                                 "or a one-GPU system's whole price")
    market_price_basis: str = _f("which basis, in words: how market_price_usd was taken ('' unknown)")
    market_price_basis_phrases: list = _f("the same as message ids and values (price.basis.*)", default=[])
    price_ratio: float = _f("proposed / known price (-1 unknown)")
    server_gpus: int = _f("GPUs of one of the proposal's machines (or a smaller server size sold) whose whole "
                          "machine's price the price a GPU is nearest (-1 none)")
    server_price_usd: float = _f("that machine's dated price with its host share, USD (-1 none)")
    server_as_of: str = _f("that price's date (ISO; '' none)")
    server_unit_usd: float = _f("the price a GPU read as that machine's quote: its share a GPU less server_host_usd "
                                "(-1 none)")
    server_host_usd: float = _f("the host share a GPU the audit costs beside the proposal's price a GPU, USD (-1 "
                                "none)")
    hourly_usd: float = _f("proposed price per GPU-hour, USD (-1 none)")
    market_hourly_usd: float = _f("listed offer the hourly price is compared with, per GPU-hour, USD (-1 unknown): "
                                  "the named instance or provider's, else the cheapest of the job's kind")
    market_hourly_offer: str = _f("that offer: provider name and instance ('' none)")
    market_hourly_basis: str = _f("why that offer: named (the proposal's provider or instance), cheapest, or none")
    market_hourly_as_of: str = _f("that offer's price date (ISO; '' none)")
    hourly_ratio: float = _f("proposed / that offer's hourly price (-1 unknown)")
    dearest_hourly_usd: float = _f("the highest listed rate a GPU-hour known for the GPU, any market, USD (-1 none)")
    dearest_hourly_offer: str = _f("that offer: provider name and instance ('' none)")
    instance_gpus: int = _f("GPUs of one instance or server whose price the hourly price is nearest (-1 none)")
    instance_hourly_usd: float = _f("the hourly price over instance_gpus: a GPU-hour's, read so (-1 none)")
    spot_availability: float = _f("fraction of time spot capacity is there")
    spot_price_known: bool = _f("rented on spot: the spot rate billed is a published spot price or the proposal's "
                                "own; false where it is an on-demand price less spot_fallback_discount (true "
                                "otherwise)")
    spot_usd_per_gpu_hour: float = _f("rented on spot: the spot rate billed a GPU-hour, USD (-1 otherwise)")
    on_demand_usd_per_gpu_hour: float = _f("rented on spot: that offer's on-demand rate a GPU-hour, USD (-1 otherwise)")
    spot_fallback_discount: float = _f("the discount off on-demand assumed where no spot price is published "
                                       "(clouds.yaml spot.fallback_discount)")
    link: str = _f("intra-node link, described")
    network: str = _f("network between servers as proposed ('none')")
    network_gb_s: float = _f("network bandwidth per server, GB/s (-1 none)")
    host_ram_gb: float = _f("host RAM per server, GB (-1 unknown)")
    used_cards: int = _f("used cards described")
    inspected_cards: int = _f("used cards with an nvidia-smi report")


FACT_MODELS: dict[str, type[FactModel]] = {
    "candidate": CandidateFact,
    "job": JobFact,
    "environment": EnvironmentFact,
    "proposal": ProposalFact,
    "card": CardFact,
    "price": PriceFact,
    "comparison": ComparisonFact,
}


def _fields(model: type[FactModel]) -> set[str]:
    return set(model.model_fields)


CANDIDATE = _fields(CandidateFact)
JOB = _fields(JobFact)
ENVIRONMENT = _fields(EnvironmentFact)
PROPOSAL = _fields(ProposalFact)
CARD = _fields(CardFact)
PRICE = _fields(PriceFact)
COMPARISON = _fields(ComparisonFact)

FACT_TYPES: dict[str, set[str]] = {
    "candidate": CANDIDATE,
    "job": JOB,
    "environment": ENVIRONMENT,
    "proposal": PROPOSAL,
    "card": CARD,
    "price": PRICE,
    "comparison": COMPARISON,
}


def set_by(fact: str, field: str) -> str | None:
    """The stage from which a candidate field exists (None: from the start)."""
    model = FACT_MODELS.get(fact)
    if model is None or field not in model.model_fields:
        return None
    extra = model.model_fields[field].json_schema_extra
    return extra.get("set_by") if isinstance(extra, dict) else None  # type: ignore[return-value]


def vocabulary() -> dict[str, dict[str, dict[str, str]]]:
    """fact type -> field -> {type, description, set_by}: what ``gpuwise rules --facts`` prints."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name, model in FACT_MODELS.items():
        fields: dict[str, dict[str, str]] = {}
        for fname, f in model.model_fields.items():
            ann = f.annotation
            args = getattr(ann, "__args__", ())
            type_name = ("text: " + "|".join(str(a) for a in args)) if str(ann).startswith("typing.Literal") else (
                {"str": "text", "bool": "yes/no", "int": "integer", "float": "number"}.get(
                    getattr(ann, "__name__", ""), str(ann)))
            fields[fname] = {"type": type_name, "description": f.description or "",
                             "set_by": set_by(name, fname) or ""}
        out[name] = fields
    return out


# ------------------------------------------------------------------------------ read by no rule
_HOUSE = "offered to house rules (a team's own policy may read it); no built-in rule needs it"
_parts = "its parts, for the report's language ({} is what rules show)".format
_KEY = "names the subject: its key in a consultation and the subject of its findings"
OUTPUT_ONLY: dict[str, dict[str, str]] = {
    "candidate": {
        "stage": "the chain's position: the compiler adds the match on it to every candidate rule",
        "gpu": _KEY,
        "vendor": _HOUSE + " (cuda_device is the built-in rules' test)",
        "form_factor": _HOUSE, "architecture": _HOUSE, "launch_year": _HOUSE, "tdp_w": _HOUSE,
        "method": _HOUSE + " (the job fact's full_training carries it for the built-in rules)",
        "fits_as_requested": "what the memory step's pass rule set: evidence for the report and house rules",
        "strategy_changed": _HOUSE + " (strategy_changes is what the messages show)",
        "zero": _HOUSE,
        "efficiency_pct": _HOUSE + " (efficiency, a fraction, is what the rules compare)",
        "link_kind": _HOUSE, "intra_gb_s": _HOUSE, "exposed_comm_share": _HOUSE,
        "pin_not_kept_phrases": _parts("pin_not_kept"), "link_phrases": _parts("link"),
        "rent_span_phrases": _parts("rent_span"), "rent_rate_said_phrases": _parts("rent_rate_said"),
        "buy_ram_said_phrases": _parts("buy_ram_said"), "step_filled_said_phrases": _parts("step_filled_said"),
        "network_span_phrases": _parts("network_span"), "network_keep_phrases": _parts("network_keep"),
        "network_between_phrases": _parts("network_between"),
        "project_months": "the project's length, shown beside the cost; the TCO rules judge owned_months",
        "wall_clock_with_phrases": _parts("wall_clock_with"), "host_ram_from_phrases": _parts("host_ram_from"),
        "framework_reason_phrases": "the reason's parts, for the report's language (framework_reason is what "
                                    "rules show)",
        "buy_unavailable_reason_phrases": "the reason's parts, for the report's language "
                                          "(buy_unavailable_reason is what rules show)",
        "rent_term_why_phrases": _parts("rent_term_why"), "copies_needed_phrases": _parts("copies_needed"),
        "copies_spare_phrases": _parts("copies_spare"), "strategy_phrases": _parts("strategy"),
        "strategy_changes_phrases": _parts("strategy_changes"),
        "gpus_wait_phrases": _parts("gpus_wait"), "kv_sequences_phrases": _parts("kv_sequences"),
        "tight_room_phrases": _parts("tight_room"),
        "tp_gpus_phrases": _parts("tp_gpus"),
        "attention_backend_reason_phrases": "the reason's parts, for the report's language "
                                            "(attention_backend_reason is what rules show)",
        "attention_backend_devices": _HOUSE + " (the backend's makers and generations; the built-in rule shows "
                                     "attention_backend_reason, which names the model's kind too)",
        "price_known": _HOUSE + " (the built-in rules read rent_known and buy_known per way)",
        "currency": _HOUSE + " (market decides the export rules)",
        "buy_sold_as": _HOUSE + " (buy_in_servers is the built-in test)", "buy_units": _HOUSE,
        "rent_term": _HOUSE + " (added with the market's rental terms; no built-in rule reads it yet)",
    },
    "job": {
        "method": _HOUSE, "params_b": _HOUSE, "precision": _HOUSE, "mixed_precision": _HOUSE,
        "optimizer": _HOUSE, "zero": _HOUSE, "largest_usable_gb": _HOUSE,
        "server_gpu": _HOUSE + " (the built-in rule compares its need with its capacity)",
        "server_gpus": _HOUSE,
        "host_server_gpu": _HOUSE + " (the built-in rule compares its RAM with what it needs)",
        "host_server_gpus": _HOUSE,
        "seq_len": _HOUSE, "batch_size": _HOUSE, "explicit_gpus": _HOUSE,
        "pin_off_stack_phrases": _parts("pin_off_stack"),
    },
    "environment": {
        "gpu": _KEY, "vendor": _HOUSE + " (stack is the built-in rules' test)", "launch_year": _HOUSE,
        "torch_cuda": _HOUSE, "wants_bf16": _HOUSE + " (the candidate rules judge bf16 per candidate)",
        "wants_fp8": _HOUSE, "bf16_hw": _HOUSE, "fp8_hw": _HOUSE,
        "flash_min_cc": _HOUSE + " (the candidate rule compares cc with it)", "tensor_cores": _HOUSE,
    },
    "proposal": {
        "title": "the proposal's title, for the report", "gpu": _KEY, "vendor": _HOUSE,
        "checkpointing_known": _HOUSE,
        "fees_usd": _HOUSE + " (fees_pct is the built-in test)", "segment": _HOUSE,
        "link": _HOUSE, "network": _HOUSE, "network_gb_s": _HOUSE, "host_ram_gb": _HOUSE,
        "used_cards": _HOUSE + " (each card is judged as its own fact)",
        "months": _HOUSE + " (fees_months and owned_months are what the built-in rules read)",
        "market_price_basis_phrases": _parts("market_price_basis"),
    },
    "card": {
        "card": _KEY, "gpu": _HOUSE, "consumer": _HOUSE + " (segment is the built-in test)",
        "power_cv": _HOUSE + " (power_swing is the built-in test)", "smi_error": "why a report could not be read, "
        "for the report", "throttling": _HOUSE + " (the reason_* fields are the built-in test)", "vbios": _HOUSE,
        "purchase": _HOUSE, "gpu_index": "which GPU of a report the fact is about, for the report",
        "report_serial": "the serial the report gives, for the report",
    },
    "price": {"source": "which knowledge file the price comes from, for the report",
              "what_phrases": "what's parts, for the report's language (what is what rules show)"},
    "plan_fleet": {"gpu": _KEY},
    "plan_workload": {"placed": _HOUSE, "unplaced_months": _HOUSE, "rented_share": _HOUSE,
                      "owned_reason_phrases": "the reason's parts, for the report's language (owned_reason is "
                                              "what rules show)",
                      "outgrows_then_phrases": "its parts, for the report's language (outgrows_then is what rules "
                                               "show)"},
    "plan_budget": {"ratio": _HOUSE + " (the built-in rule compares the amounts)"},
    "plan_owned_run": {"gpu": _KEY},
    "plan_owned_warranty": {"gpu": _KEY},
    "plan_rental": {"gpu": _KEY, "workload": "the finding's subject, for the report"},
}
"""Fact fields no rule reads, each with why it is there (tests/test_rule_fixtures.py checks that
every other field is read by some rule, and that each listed one is not)."""

POLICY_OUTSIDE_RULES: dict[str, str] = {
    "ranking_tie_fraction": "the ranking policy (gpuwise/decide/rank.py) orders what the rules let through",
    "value_of_a_day_usd": "the ranking policy (gpuwise/decide/rank.py): a day's worth in the score",
    "why_not_count": "how many alternatives a result names (gpuwise/decide/rank.py why_not)",
    "plan_delivery_months": "the capacity plan's schedule (gpuwise/plan/build.py): when bought hardware arrives",
    "plan_owned_availability": "the capacity plan's schedule (gpuwise/plan/build.py): owned GPUs' schedulable hours",
    "gddr6x_memory_throttle_c": "the nvidia-smi reader (gpuwise/decide/audit.py): a GDDR6X card's memory limit",
    "hbm2e_memory_throttle_c": "the nvidia-smi reader (gpuwise/decide/audit.py): an HBM2e card's memory limit",
    "hbm3_memory_throttle_c": "the nvidia-smi reader (gpuwise/decide/audit.py): an HBM3 card's memory limit",
    "serving_higher_peak_fraction": "the serving result (gpuwise/estimators/serving/report.py): whether another "
                                    "layout's peak is named beside the chosen one's (a presentation, not a verdict)",
}
"""Policy values read outside the rules, each with where and why."""


# the plan's facts (gpuwise plan): defined beside the plan, checked and listed like the others
from ..plan.facts import PLAN_FACTS  # noqa: E402

FACT_MODELS.update(PLAN_FACTS)  # type: ignore[arg-type]
FACT_TYPES.update({name: set(model.model_fields) for name, model in PLAN_FACTS.items()})
