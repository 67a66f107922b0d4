"""The candidate fact of the vocabulary (:mod:`gpuwise.decide.facts`): one way to get the job done, a GPU type x
count rented or bought, as it flows through the four steps. Kept in its own module because it is the fact that
grows with every new check; the stage chain and the ``set_by`` marks are described in :mod:`gpuwise.decide.facts`."""

from __future__ import annotations

from typing import Literal

from ..results import Stage
from .fact_base import FactModel, _f


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
    strategy_changes: str = _f("what gpuwise would change, in short notation ('none' if nothing); a micro-batch "
                               "planned smaller in the input's field with its accumulation steps")
    strategy_changes_phrases: list = _f("the same as message ids and values ([separator, id, values] parts), which "
                                        "a report words in its language")
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
    network_span: str = _f("the systems the network joins, in words: servers, or a rack-scale part's racks (its "
                           "NVLink domain, gpus.yaml link.domain_gpus) with their servers")
    network_span_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    network_between: str = _f("what the network's traffic is between, in words: nodes, or a rack-scale part's racks")
    network_between_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    network_keep: str = _f("how to keep the job off the network, in words: on one server, or within one rack")
    network_keep_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    exposed_comm_share: float = _f("share of a training step spent in communication that compute does not hide")
    moe_host_wait_share: float = _f("training an MoE model: share of a step its MoE layers wait for the host to "
                                    "launch their experts one by one (0 otherwise)")
    layer_host_wait_share: float = _f("training a dense model on a stack whose layers launch their kernels from "
                                      "Python (runtime.yaml training.dense_layer_host): share of a step its layers "
                                      "wait for those launches (0 otherwise)")
    gpus_wait: str = _f("'the GPU waits' of one GPU, 'the GPUs wait' of several, in words (CMP-*-HOST-WAIT)")
    gpus_wait_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    tp_gpus: str = _f("a model copy's tensor-parallel GPUs with their noun, '1 GPU' or '4 GPUs', in words")
    tp_gpus_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    kv_sequences: str = _f("max_concurrent_sequences with its noun, '1 sequence' or '12 sequences', in words ('0 "
                           "sequences' training)")
    kv_sequences_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    tight_room: str = _f("how room is made on this candidate, worded for MEM-TIGHT's fix: a smaller micro-batch "
                         "with accumulation (training, micro-batch above one), recomputation or more sharding "
                         "(training at one sequence), fewer sequences or a smaller KV cache (serving)")
    tight_room_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
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
    micro_batch_stated: int = _f("training: the micro-batch the workload states (workload.batch_size) where no "
                                 "layout of the file's settings holds it and a smaller one is planned "
                                 "(micro_batch_held); 0 otherwise")
    micro_batch_held: int = _f("training: the largest smaller micro-batch of the same tokens a step that a layout of "
                               "the file's settings holds, planned in place of micro_batch_stated (0: none)")
    micro_batch_held_accum: int = _f("training: the accumulation steps at micro_batch_held (0: none)")
    micro_batch_held_tokens: int = _f("training: tokens an optimizer step holds at micro_batch_held, as at the "
                                      "stated one (0: none)")
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
    max_gpus: int = _f("the most GPUs the user allows (constraints.max_gpus, 64 when not given)")
    owned_months: float = _f("months a purchase is owned and resold after: the project's, or a longer run's")
    rent_span: str = _f("what the rental is priced over, in words: the run's billed hours, the committed term or "
                        "the project's months")
    rent_span_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    rent_rate_said: str = _f("where the rental's rate is not a quoted price, what it is, in words (an assumed spot "
                             "rate: on-demand less spot.fallback_discount); '' a quoted price")
    rent_rate_said_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    buy_ram_said: str = _f("bought with CPU offload, no RAM stated and the typical host the price buys short of what a "
                           "node needs (MEM-HOST-RAM-BUY): that the rest of the RAM is not in the price, in words; ''"
                           " otherwise")
    buy_ram_said_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
    usd_per_gpu_hour: float = _f("rental price per GPU-hour, USD (-1 none)")
    gpus_paid: int = _f("rented: the GPUs the offer bills, the fewest it rents them in (-1 bought or unpriced)")
    rental_step_gpus: int = _f("rented: the offer's GPUs come in whole multiples of this (clouds.yaml step_gpus: "
                               "CoreWeave's GB200 NVL72 racks of 72); 1 any count, or bought")
    step_filled_from: int = _f("rented: the count below that the offer bills as this one, whole steps, where the "
                               "count search judged this one for it (64 for 72 GB200 at CoreWeave); -1 otherwise")
    step_filled_said: str = _f("both counts' days and rent, in words, where step_filled_from is set ('' otherwise)")
    step_filled_said_phrases: list = _f("the same as message ids and values ([separator, id, values] parts)")
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
    china_rule_as_of: str = _f("date of the GPU's market entry the export rule is read from (YYYY-MM-DD, none)")
    china_rule_source: str = _f("the document the GPU's market entry cites for the export rule")
    china_rule_age_days: int = _f("days since the GPU's market entry was dated (-1: no entry)")
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
