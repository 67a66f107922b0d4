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
"""

from __future__ import annotations

from typing import Literal

from ..results import STAGES, Stage  # noqa: F401 - the stages are part of the vocabulary
from .fact_base import FactModel, _f
from .fact_card import CardFact
from .fact_price import ComparisonFact, PriceFact


class CandidateFact(FactModel):
    """One way to get the job done: a GPU type x count, rented or bought (recommend's options, and
    the configuration an audit checks, tagged ``proposed``)."""

    stage: Stage = _f("the step the candidate is at")
    tag: str = _f("'proposed' for the configuration an audit checks, else ''")
    gpu: str = _f("GPU id (knowledge/gpus.yaml)")
    gpu_name: str = _f("GPU display name")
    vendor: Literal["nvidia", "amd", "intel", "huawei"] = _f("GPU vendor")
    segment: Literal["datacenter", "workstation", "consumer", "cloud-only"] = _f("market segment")
    form_factor: Literal["sxm", "pcie", "oam", "mezzanine"] = _f("module form factor")
    architecture: str = _f("architecture name (hopper, ampere, cdna3...)")
    cc: float = _f("CUDA compute capability as a number (0 for non-CUDA devices)")
    cuda_device: bool = _f("runs CUDA (an NVIDIA GPU)")
    tensor_cores: bool = _f("has tensor (matrix) cores")
    bf16_hw: bool = _f("has BF16 tensor math")
    fp8_hw: bool = _f("has FP8 tensor math")
    fp4_hw: bool = _f("has FP4 tensor math")
    ecc: bool = _f("memory has ECC")
    launch_year: int = _f("year the GPU launched")
    tdp_w: float = _f("board power, W")
    count: int = _f("GPUs in the candidate")
    nodes: int = _f("servers the GPUs sit in")
    per_node: int = _f("GPUs per server")
    max_systems: int = _f("a whole desktop system: the most of its systems its maker's tools join into one cluster "
                          "(gpus.yaml link.max_systems; -1 no such limit)")
    training_stack_name: str = _f("training: the named training stack ('none' serving; runtime.yaml training_stacks)")
    training_stack_devices: str = _f("the accelerators that training stack runs on, by maker (NVIDIA, AMD Instinct "
                                     "or Radeon, Intel Gaudi, Huawei Ascend), joined ('any': no limit)")
    training_stack_runs_here: bool = _f("the training stack runs on this GPU's software stack (cuda, rocm, gaudi, "
                                        "cann); true when it names no limit or the job is not training")
    attention_kernel: str = _f("training: the attention backend the job states (workload.attention_kernel; 'none')")
    attention_kernel_devices: str = _f("the accelerators that attention backend's kernels are built for, by maker "
                                       "and NVIDIA compute capability ('any': no limit)")
    attention_kernel_runs_here: bool = _f("the stated training attention backend has kernels for this GPU "
                                          "(runtime.yaml training.attention_kernels devices and min_cc); true when "
                                          "none is stated or the job is not training")
    joined_systems: int = _f("the systems (servers) one job joins over the network: a training run's every server; "
                             "one serving copy's (copies that each fit in one server join none: 1)")
    multi_gpu: bool = _f("more than one GPU")
    multi_node: bool = _f("more than one server")
    traffic_between_gpus: bool = _f("the job sends traffic between its GPUs: training on more than one GPU, or a "
                                    "serving copy of more than one (copies of one GPU each send none)")
    traffic_between_nodes: bool = _f("the job sends traffic over the network between servers: training on more GPUs "
                                     "than one server's (or an NVL72 rack's NVLink domain) holds, or a serving copy "
                                     "spread past it (copies that each fit send none)")
    task: Literal["pretrain", "finetune", "inference"] = _f("the job's task")
    method: Literal["full", "lora", "qlora"] = _f("fine-tuning method")
    training: bool = _f("a training task (pretrain or finetune)")
    diffusion: bool = _f("the model is an image-diffusion model (no token decoding; its speed is not estimated)")
    precision: str = _f("weights / compute precision asked for")
    wants_bf16: bool = _f("precision is bf16")
    wants_fp8: bool = _f("precision is fp8")
    wants_fp4: bool = _f("precision is fp4")
    wants_flash: bool = _f("attention: flash (FlashAttention-2) asked for")
    wants_mxfp8: bool = _f("training: fp8_recipe mxfp8 (Transformer Engine's MXFP8 block scaling) asked for")
    disaggregated: bool = _f("inference: disaggregated serving asked for (prefill and decode on separate copies)")
    rocm_settings: str = _f("inference: the ROCm-only settings asked for true (rocm_aiter, rocm_fp4_asm_gemm), or ''")
    fp8_params_held: bool = _f("training: the LoRA base is credited FP8 storage, a byte a weight (fp8_params with "
                               "precision fp8 on a Transformer Engine stack)")
    flash_min_cc: float = _f("compute capability FlashAttention-2 needs (knowledge/software.yaml; -1 unknown)")
    mxfp8_hw: bool = _f("the GPU runs MXFP8 GEMMs: its compute capability is one knowledge/software.yaml's mxfp8 "
                        "feature lists (Transformer Engine's support matrix)")
    need_gb: float = _f("memory per GPU with the layout gpuwise would use (the most frugal one if none fits), GB")
    need_requested_gb: float = _f("memory per GPU exactly as the user asked, GB (absent where a serving pin "
                                  "cannot be kept on this count, or a training pin is one the stack cannot run: "
                                  "no layout of it is as asked)")
    pin_kept: bool = _f("every parallelism pin the user gave is kept by the layout (true without pins)")
    pin_on_stack: bool = _f("training: every parallelism pin the user gave is one the training stack runs (false: "
                            "MEM-PIN-NOT-ON-STACK set one aside, so no layout is as asked; true without pins)")
    pin_gpus: int = _f("the GPUs one copy of the pinned layout spans (tensor x pipeline, x context parallel in "
                       "training; 1 without pins)")
    pin_not_kept: str = _f("the pins not kept and the degree served instead ('none' when all are kept)")
    pin_not_kept_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                    "report words in its own language")
    capacity_gb: float = _f("memory of one GPU, GB")
    usable_gb: float = _f("what a layout may fill: the memory rules' limit in force, GB (for messages: rules "
                            "compare the need with the capacity)")
    fits: bool = _f("the job fits in memory (with what gpuwise would change)", set_by="compute")
    fits_as_requested: bool = _f("the job fits exactly as the user asked", set_by="compute")
    fast_enough: bool = _f("the compute step passed it: in time for the deadline, or fast enough to serve",
                           set_by="interconnect")
    scales: bool = _f("the interconnect step passed it: its GPUs work together well enough", set_by="tco")
    strategy: str = _f("the layout / memory strategy in short notation (e.g. 'TP8 PP2 DP4 ZeRO-1')")
    strategy_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                "report words in its language")
    strategy_changed: bool = _f("gpuwise changed something the user left open or asked for")
    strategy_changes: str = _f("what gpuwise would change, in short notation ('none' if nothing)")
    offload: Literal["none", "cpu", "nvme"] = _f("optimizer/parameter offload in the chosen layout")
    zero: int = _f("ZeRO stage in the chosen layout")
    tp: int = _f("tensor-parallel degree (inference: GPUs per model copy)")
    tp_domain: int = _f("GPUs that share the fast intra-node link")
    host_ram_needed_gb: float = _f("host RAM per server the offload needs, GB")
    host_ram_gb: float = _f("host RAM per server as given (-1 unknown), GB")
    rent_host_ram_gb: float = _f("host RAM per server a rental of the same GPUs comes with, whichever way this "
                                 "candidate is had (the proposal's or a shared memory's where stated; -1 unknown), "
                                 "GB: whether renting instead could hold the offloaded state")
    typical_host_ram_gb: float = _f("host RAM of the typical machine holding per_node of them that a bought host "
                                    "share (tco.yaml) prices: a desktop build's tco.yaml desktop_host_ram_gb_per_gpu, "
                                    "else a server of the GPU's segment (runtime.yaml rented_host_ram.per_gpu_gb), x "
                                    "per_node (-1 unknown), GB")
    offloaded_state_gb: float = _f("state offloaded off the GPUs per server (host RAM for cpu offload, NVMe for "
                                   "nvme), GB, before the usable share host_ram_needed_gb allows for")
    host_ram_from: str = _f("where host_ram_gb comes from, worded: the proposal, the named rental instance, the "
                            "offer's provider, or a typical rented server of the segment ('' unknown)")
    host_ram_from_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                     "report words in its language")
    wall_days: float = _f("wall-clock days of the training run (-1 for inference)")
    wall_clock_days: float = _f("wall-clock days as the report's tables show them: the timeline's, on spot capacity "
                                "with the work redone after reclaims and the waits for capacity (-1 for inference)")
    wall_clock_with: str = _f("what wall_clock_days holds, in words: the start-up, and on spot capacity the redone "
                              "work and the waits")
    wall_clock_with_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    gpu_hours: float = _f("GPU-hours of the training run (-1 for inference)")
    deadline_days: float = _f("deadline in days (-1 none)")
    has_deadline: bool = _f("a deadline applies")
    efficiency: float = _f("scaling efficiency, fraction of ideal speed-up")
    efficiency_pct: float = _f("scaling efficiency in percent")
    link_kind: str = _f("slowest intra-node link kind (nvswitch, nvlink, pcie...)")
    link: str = _f("the links, described")
    link_phrases: list = _f("the same description as message ids and values ([separator, id, values] parts), "
                            "which a report words in its language")
    p2p: bool = _f("peer-to-peer works between the GPUs")
    intra_gb_s: float = _f("intra-node bandwidth per GPU, one direction, GB/s (-1 single GPU)")
    network: str = _f("network between servers ('none' for one server)")
    network_gb_s: float = _f("network bandwidth per server, one direction, GB/s (-1 none)")
    network_gb_s_per_gpu: float = _f("that bandwidth's share per GPU of the server, GB/s (-1 none)")
    exposed_comm_share: float = _f("share of a training step spent in communication that compute does not hide")
    moe_host_wait_share: float = _f("training an MoE model: share of a step its MoE layers wait for the host to "
                                    "launch their experts one by one (0 otherwise)")
    micro_batch: int = _f("training: the micro-batch the workload states (workload.batch_size) where its layout "
                          "takes a measure the user left open to fit (micro_batch_measure) and a smaller one fits "
                          "without it (micro_batch_alt); 0 otherwise")
    micro_batch_measure: Literal["none", "offload", "recompute"] = _f(
        "training: what the stated micro-batch's layout takes to fit that the user did not pin: CPU offload, or "
        "recomputation of activations ('none': nothing, the micro-batch was not stated, or no smaller one fits "
        "without the measure)")
    micro_batch_step_s: float = _f("training: seconds of an optimizer step at the stated micro-batch, the measure "
                                   "included (-1 where micro_batch_measure is 'none')")
    micro_batch_need_gb: float = _f("training: memory per GPU at the stated micro-batch, the measure included, GB "
                                    "(-1 where micro_batch_measure is 'none')")
    micro_batch_plain_need_gb: float = _f("training: memory per GPU the same layout needs without the measure, GB "
                                          "(-1 where micro_batch_measure is 'none')")
    micro_batch_alt: int = _f("training: the largest smaller micro-batch of the same tokens a step whose layout fits "
                              "without the measure, on the same GPUs (0: none)")
    micro_batch_alt_accum: int = _f("training: the accumulation steps at micro_batch_alt (0: none)")
    micro_batch_alt_step_s: float = _f("training: seconds of an optimizer step at micro_batch_alt (-1: none)")
    micro_batch_alt_need_gb: float = _f("training: memory per GPU at micro_batch_alt, GB (-1: none)")
    micro_batch_alt_layout: str = _f("training: the layout at micro_batch_alt in short notation ('none': none)")
    step_tokens: int = _f("training: tokens an optimizer step holds at the stated micro-batch (0 where "
                          "micro_batch_measure is 'none')")
    framework: str = _f("the serving framework (vllm, sglang, tensorrt-llm, llama.cpp, exllama, mlc, transformers)")
    framework_vendor_listed: bool = _f("the serving framework runs on this GPU's vendor (knowledge/serving.yaml "
                                       "vendors; true for training)")
    framework_min_cc: float = _f("the compute capability the serving framework's CUDA build needs (0: no floor "
                                 "applies, not a CUDA device or training)")
    precision_listed: bool = _f("the serving framework loads the weights' precision on this vendor")
    precision_min_cc: float = _f("the compute capability the framework's kernels for the precision need (0: none)")
    precision_units: bool = _f("the GPU has the matrix units the precision's kernels (or their fallback) use")
    framework_spans_servers: bool = _f("the serving framework can spread one model copy over several servers "
                                       "(knowledge/serving.yaml multi_node)")
    copy_gpus: int = _f("inference: the GPUs one model copy spans (1 for training)")
    copy_nodes: int = _f("inference: the servers one model copy spans, copy GPUs / GPUs per server rounded up (a "
                         "tensor-parallel 2 copy on 3 one-GPU DGX Sparks spans 2; the count's servers for training)")
    serving_copies: int = _f("inference: the model copies the count holds (1 for training)")
    idle_gpus: int = _f("inference: the GPUs of the count that hold no model copy, count - copies x GPUs a copy "
                        "(a tensor-parallel 2 copy on 3 GPUs leaves one; 0 for training)")
    cross_node_tp_ms: float = _f("inference: milliseconds of a single sequence's decode step spent in tensor-parallel "
                                 "all-reduces over the network between servers (0: the copy's tensor parallel stays "
                                 "in a node; -1 training)")
    cross_node_allreduce_us: float = _f("inference: microseconds of the fixed part of each such all-reduce (nccl-tests "
                                        "on two 8-GPU servers, knowledge/runtime.yaml; 0 none, -1 training)")
    framework_reason: str = _f("why the framework cannot, described ('none')")
    framework_reason_phrases: list = _f("the same reason as message ids and values ([separator, id, values] "
                                        "parts), which a report words in its language")
    attention_backend: str = _f("inference: the attention backend the job states (workload.attention_backend; 'none')")
    attention_backend_devices: str = _f("the accelerators that backend's kernels run on, by maker ('any': no limit)")
    attention_backend_runs_here: bool = _f("the stated attention backend runs on this GPU's vendor and generation, "
                                           "for this model's kind of attention (serving.yaml "
                                           "attention_backend_vendors; true when none is stated, or for training)")
    attention_backend_reason: str = _f("why the stated attention backend does not start here, worded ('none': it "
                                       "does)")
    attention_backend_reason_phrases: list = _f("the same as message ids and values ([separator, id, values] "
                                                "parts), which a report words in its language")
    max_concurrent_sequences: float = _f("sequences the KV cache holds at once (-1 training)")
    load_sequences: float = _f("inference: requests in flight at the load, all copies (-1 training)")
    serving_weights_gb: float = _f("serving: a model copy's weights per GPU of its layout, GB (-1 training)")
    kv_free_gb: float = _f("serving: memory per GPU left for the KV cache beside the weights and working set, "
                           "GB (-1 training)")
    sequence_gb: float = _f("serving: what one sequence's KV cache takes per GPU at admission, GB (-1 training)")
    kv_pool_tokens: int = _f("serving: the KV-cache pool of one copy the job states, tokens (workload.kv_cache_tokens; "
                             "0 none)")
    kv_pool_gb: float = _f("serving: that stated pool per GPU of the layout, its tokens x KV bytes a token per GPU, GB "
                           "(-1 none stated, or training)")
    kv_pool_room_gb: float = _f("serving: what a stated pool may take per GPU: the GPU's memory less the weights, "
                                "working set and CUDA context, GB (-1 none stated, or training)")
    max_ttft_ms: float = _f("time-to-first-token target, ms (-1 none)")
    has_ttft_target: bool = _f("a time-to-first-token target applies")
    max_tpot_ms: float = _f("time-per-output-token target, ms (-1 none)")
    has_tpot_target: bool = _f("a time-per-output-token target applies")
    ttft_ms: float = _f("time to first token at the load, ms (-1 training)")
    tpot_ms: float = _f("time per output token at the load, ms (-1 training)")
    decode_tps: float = _f("one sequence's decode speed, tokens/s (-1 training)")
    aggregate_tps: float = _f("output tokens/s of the whole system at the asked concurrency (-1 training)")
    target_tps: float = _f("throughput target, tokens/s (0 none)")
    has_target: bool = _f("a throughput target applies")
    acquisition: Literal["rent", "buy"] = _f("how this candidate is acquired")
    acquisition_wanted: Literal["rent", "buy", "either"] = _f("what the user allows")
    cost_usd: float = _f("total cost of this candidate over the job or project, USD (-1 unknown)")
    price_known: bool = _f("a dated price exists for this candidate")
    rent_usd: float = _f("cost if rented, USD (-1 unknown)")
    buy_usd: float = _f("cost if bought, net of resale, USD (-1 unknown)")
    rent_fees_usd: float = _f("the transfer and storage fees in rent_usd (a proposal's cloud section), USD (0 none)")
    rent_gpus_usd: float = _f("rent_usd without those fees: the GPUs' rental, USD (-1 unknown)")
    cash_out_usd: float = _f("paid before any resale comes back (the ledger's cash out), USD (-1 unknown)")
    buy_cash_out_usd: float = _f("what buying this GPU and count pays before its resale, USD (-1 unknown)")
    rent_known: bool = _f("a rental offer exists for this GPU and count")
    buy_known: bool = _f("a purchase price exists for this GPU and count")
    budget_usd: float = _f("the budget, USD (-1 none)")
    has_budget: bool = _f("a budget applies")
    break_even_month: float = _f("month from which owning beats renting around the clock (-1 never/unknown)")
    project_months: float = _f("project length, months")
    owned_months: float = _f("months a purchase is owned and resold after: the project's, or a longer run's")
    rent_span: str = _f("what the rental is priced over, in words: the run's billed hours, the committed term or "
                        "the project's months")
    rent_span_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    usd_per_gpu_hour: float = _f("rental price per GPU-hour, USD (-1 none)")
    gpus_paid: int = _f("rented: the GPUs the offer bills, the fewest it rents them in (-1 bought or unpriced)")
    provider: str = _f("rental provider ('none' when bought)")
    rent_instance_gpus: int = _f("rented on a listed instance (knowledge/clouds.yaml instances): the GPUs one instance "
                                 "holds, each instance a server of its own (-1 bought, unpriced or not an instance)")
    rent_provider: str = _f("the provider of the cheapest rental offer for this GPU and count ('none')")
    rent_in_china: bool = _f("the rental offer priced is a mainland-China cloud's (clouds.yaml market china)")
    spot: bool = _f("spot / preemptible capacity")
    spot_wall_days: float = _f("wall days on spot capacity (availability and restarts included; -1 none)")
    market: Literal["global", "china"] = _f("where the hardware is bought or rented")
    currency: Literal["USD", "CNY"] = _f("the currency the user wrote amounts in")
    requests_per_s: float = _f("inference: the request rate asked for, requests/s (-1 none)")
    has_rate_target: bool = _f("inference: a request rate is asked for")
    max_requests_per_s: float = _f("inference: the highest request rate served within the p95 targets (-1 none)")
    rate_max_tps: float = _f("inference at a request rate: output tokens/s at max_requests_per_s, that rate x the "
                             "output tokens of a request (-1 none: no rate within the limits, or training)")
    rate_max_decode_tps: float = _f("inference at a request rate: one sequence's decode speed at max_requests_per_s, "
                                    "1 / its mean time per output token, tokens/s (-1 none)")
    copies_for_rate: int = _f("inference at a request rate, colocated: the fewest of the count's model copies that "
                              "serve it within the p95 targets, the arrivals shared evenly over them, ceil(rate x "
                              "copies / max_requests_per_s) (-1 none: no rate, none served, or disaggregated)")
    copies_needed: str = _f("inference at a request rate: copies_for_rate worded ('one of the copies', '3 of the "
                            "copies'; '' none)")
    copies_needed_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                     "report words in its own language")
    copies_spare: str = _f("inference at a request rate: the count's other copies, worded ('the other copy', 'the "
                           "other 3'; '' none)")
    copies_spare_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which a "
                                    "report words in its own language")
    load_requests_per_s: float = _f("inference with no request rate asked: the request rate the load in flight "
                                    "amounts to (Little's law: output tokens/s at the load / output tokens a "
                                    "request; -1 a rate is asked, or nothing is served)")
    max_p95_ttft_s: float = _f("inference: the 95th-percentile time-to-first-token target at a request rate, s "
                               "(-1 none)")
    has_p95_ttft_target: bool = _f("inference: a p95 time-to-first-token target applies")
    max_p95_tpot_s: float = _f("inference: the 95th-percentile time-per-output-token target at a request rate, "
                               "s (-1 none)")
    has_p95_tpot_target: bool = _f("inference: a p95 time-per-output-token target applies")
    p95_ttft_s: float = _f("inference: the 95th-percentile time to first token at the highest request rate "
                           "served within the p95 limits in force, or at a trickle of requests when no rate is "
                           "(-1 not computed)")
    p95_tpot_s: float = _f("inference: the 95th-percentile time per output token at the same point (-1 not "
                           "computed)")
    sold_in_china: bool = _f("the GPU may be sold into mainland China under the export rules in force")
    sold_in_china_known: bool = _f("gpuwise knows the GPU's export status")
    china_part: bool = _f("a part made for the China market (H20, H800, A800, L20, RTX 4090 D...)")
    china_rule: str = _f("the export rule that applies, described")
    export_licence: str = _f("US export licence policy for China: not-required, required, case-by-case, "
                             "presumption-of-denial, unknown")
    export_since: str = _f("date the licence policy took effect (YYYY-MM-DD, none)")
    export_surcharge_pct: float = _f("share of a licensed sale to China taken by the US government, percent")
    sold_globally: bool = _f("the part is sold outside mainland China")
    domestic_part: bool = _f("a Chinese design (Huawei Ascend...)")
    china_import: str = _f("China's import guidance: allowed, discouraged, blocked, unknown")
    china_import_note: str = _f("what the import guidance says")
    china_import_as_of: str = _f("date of the import guidance (YYYY-MM-DD, none)")
    procurement: str = _f("constraints.procurement: any, or domestic (Chinese parts only)")
    rent_reserved_only: bool = _f("the rented size is sold only reserved (a multi-node cluster with a minimum term)")
    rent_term: str = _f("the term the rental is priced on: on-demand, reserved, 1-month, 1-year, 3-year, spot")
    rent_min_term_days: float = _f("the shortest term the rental is billed for, days (0: none)")
    rent_term_why: str = _f("why that term, in words")
    rent_term_why_phrases: list = _f("the same reason as message ids and values ([separator, id, values] parts), "
                                     "which a report words in its own language")
    buy_in_servers: bool = _f("the GPU is sold only mounted in whole servers (baseboards; knowledge/prices.yaml units)")
    buy_size_listed: bool = _f("the count is one of the server sizes the GPU is sold in")
    buy_past_whole_servers: int = _f("GPUs left over past whole servers of the largest size sold (0 when not sold in "
                                     "servers)")
    buy_unavailable_reason: str = _f("why this count cannot be bought ('none')")
    buy_unavailable_reason_phrases: list = _f("the same reason as message ids and values ([separator, id, "
                                              "values] parts), which a report words in its language")
    buy_sold_as: str = _f("how the GPU is sold: baseboard, card, workstation ('none' unknown)")
    buy_condition: str = _f("the condition the purchase price is for: new, used ('none': no price)")
    buy_condition_asked: str = _f("the condition asked for: new (recommend), or the proposal's")
    buy_units: int = _f("units (servers, baseboards, workstations) bought for this count")
    hosting: str = _f("where bought hardware runs: office, colocation, datacenter ('none')")
    hosting_assumed: bool = _f("the hosting was not given and gpuwise chose it")
    it_kw: float = _f("IT power of the bought hardware at full load, kW (-1 unknown)")
    office_circuit_kw: float = _f("what one office circuit supplies, kW (-1 unknown)")
    office_max_kw: float = _f("the IT load an office takes at all, kW (tco.yaml hosting.office max_kw; 1e9: none "
                              "stated)")
    network_assumed: bool = _f("the offer states no network and gpuwise assumed an Ethernet-class one")
    network_name: str = _f("the network the candidate uses between servers ('none')")


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
    market_price_usd: float = _f("known street price per GPU, USD (-1 unknown)")
    price_ratio: float = _f("proposed / known price (-1 unknown)")
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
        "rent_span_phrases": _parts("rent_span"),
        "project_months": "the project's length, shown beside the cost; the TCO rules judge owned_months",
        "wall_clock_with_phrases": _parts("wall_clock_with"), "host_ram_from_phrases": _parts("host_ram_from"),
        "framework_reason_phrases": "the reason's parts, for the report's language (framework_reason is what "
                                    "rules show)",
        "buy_unavailable_reason_phrases": "the reason's parts, for the report's language "
                                          "(buy_unavailable_reason is what rules show)",
        "rent_term_why_phrases": _parts("rent_term_why"), "copies_needed_phrases": _parts("copies_needed"),
        "copies_spare_phrases": _parts("copies_spare"), "strategy_phrases": _parts("strategy"),
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
