"""The fact types the rules match, and their fields.

Rule files may only name these fields (in conditions and in message placeholders); the
rule loader checks it, so a typo in a rule is an error at load time rather than a rule
that silently never fires. Units are in the names: ``_gb`` decimal gigabytes, ``_days``,
``_usd``, ``_pct``; ``-1`` means "not known / not given" for numbers.
"""

from __future__ import annotations

CANDIDATE = {
    "tag", "gpu", "gpu_name", "count", "nodes", "per_node", "task", "method", "training", "precision",
    "vendor", "segment", "architecture", "cc", "cuda_device", "tensor_cores", "bf16_hw", "fp8_hw",
    "wants_bf16", "wants_fp8", "wants_flash", "ecc",
    "need_gb", "need_best_gb", "usable_gb", "capacity_gb", "fits", "fits_requested",
    "strategy", "strategy_changed", "strategy_changes", "strategy_cost", "offload", "zero",
    "host_ram_needed_gb", "host_ram_gb",
    "wall_days", "gpu_hours", "deadline_days", "has_deadline",
    "efficiency", "efficiency_pct", "link_kind", "link", "p2p", "intra_gb_s", "network", "network_gb_s",
    "multi_node", "multi_gpu", "tp", "tp_domain", "tp_outside_domain", "tp_across_nodes",
    "decode_tps", "aggregate_tps", "target_tps", "has_target",
    "rent_usd", "buy_usd", "cost_usd", "rent_known", "buy_known", "acquisition", "acquisition_wanted",
    "budget_usd", "has_budget", "break_even_month", "project_months", "usd_per_gpu_hour", "provider",
    "tdp_w", "launch_year", "detail",
    # market / units / hosting / network / spot (engine/estimators/candidate.py _cost_step, rules/market.yaml)
    "market", "currency", "sold_in_china", "sold_in_china_known", "china_part", "china_rule",
    "buy_unit_ok", "buy_unavailable_reason", "buy_sold_as", "buy_units", "hosting", "hosting_assumed",
    "it_kw", "office_circuit_kw", "network_assumed", "network_name", "spot", "spot_wall_days", "rent_provider",
}

JOB = {
    "task", "method", "model", "params_b", "precision", "mixed_precision", "optimizer", "zero",
    "full_training", "state_gb", "state_gb_myth", "feasible_candidates", "single_node_feasible",
    "best_single_gpu_need_gb", "largest_usable_gb", "seq_len", "batch_size", "context_len",
    "weights_gb", "int4_weights_gb", "explicit_gpus", "proposed_total_gb",
}

ENVIRONMENT = {
    "gpu", "gpu_name", "vendor", "architecture", "cc", "cuda_device", "launch_year",
    "os", "os_known", "os_driver_branch", "driver", "driver_known", "driver_num", "driver_branch",
    "cuda", "cuda_known", "cuda_num", "cuda_major", "cuda_min_driver", "cuda_min_driver_num",
    "cuda_family_floor", "cuda_family_floor_num", "driver_in_minor_compat",
    "gpu_first_cuda", "gpu_first_cuda_num", "gpu_last_cuda", "gpu_last_cuda_num",
    "gpu_min_driver", "gpu_min_driver_num", "gpu_min_driver_branch",
    "pytorch", "pytorch_known", "torch_release_known", "torch_build_known", "torch_has_kernels", "torch_arch_list",
    "torch_cuda",
    "wants_bf16", "wants_flash", "wants_fp8", "bf16_hw", "fp8_hw", "flash_ok", "tensor_cores",
    # added for issue 14 (non-CUDA stacks, driver ceilings, kernel modules, PyTorch outside the tables);
    # produced by engine/knowledge/compat.py
    "stack", "stack_name", "gpu_last_driver_branch", "kernel_modules", "kernel_modules_known", "gpu_kernel_modules",
    "torch_release", "torch_flavor", "torch_flavor_ok", "gpu_first_pytorch", "torch_too_old_for_gpu",
    "torch_table_known", "torch_oldest_known", "torch_newest_known",
    "gfx", "rocm", "rocm_known", "rocm_given", "rocm_release_known", "rocm_gfx_ok", "rocm_gfx_complete",
    "rocm_gfx_list", "rocm_first_for_gfx", "rocm_oldest_known", "rocm_newest_known", "rocm_torch_list",
    "rocm_driver_list", "amd_driver_listed", "torch_rocm_release_known", "torch_rocm_wheels", "torch_rocm_wheel",
    "torch_rocm_gfx_ok",
    "flash_status", "flash_gfx_ok", "flash_gfx_list", "flash_min_stack", "flash_stack_ok", "flash_alternative",
    "wants_bnb", "bnb_reason", "bitsandbytes", "bnb_known", "bnb_stack_status", "bnb_version_status",
    "bnb_support_note",
    "framework", "framework_explicit", "framework_support", "framework_plugin", "framework_gfx_ok",
    "framework_gfx_list", "framework_min_stack", "framework_stack_ok",
    "gaudi_device", "synapse", "synapse_known", "synapse_release_known", "synapse_pytorch", "synapse_devices",
    "gaudi_device_ok", "gaudi_first_synapse", "gaudi_torch_match",
    "cann", "cann_known", "torch_npu", "torch_npu_known", "torch_npu_release_known", "torch_npu_pytorch",
    "torch_npu_cann", "torch_npu_cann_all", "npu_torch_match", "npu_cann_match",
}

PROPOSAL = {
    "title", "gpu", "gpu_name", "count", "nodes", "per_node", "mode", "condition", "spot", "months",
    "checkpointing", "checkpointing_known", "wall_days", "rent_usd", "provider", "hyperscaler",
    "egress_usd", "cross_region_usd", "storage_usd", "fees_usd", "fees_pct", "storage_kind", "storage_tb",
    "egress_tb", "cross_region_tb",
    "node_kw", "facility_kw", "has_facility", "rack_kw", "air_cooled_limit_kw", "cfm_needed",
    "consumer", "segment", "tdp_w", "datacenter", "license_bundle", "nvaie_usd_per_gpu_year",
    "unit_price_usd", "market_price_usd", "price_ratio", "hourly_usd", "market_hourly_usd", "hourly_ratio",
    "spot_availability", "link", "network", "network_gb_s", "host_ram_gb", "used_cards", "inspected_cards",
    "liquid_only",
}

CARD = {
    "card", "serial", "gpu", "has_dates", "months_to_sale", "fan_cv", "fan_swing", "fan_samples",
    "power_cv", "power_swing", "power_samples", "has_smi", "smi_error", "retired_pages", "remapped_rows",
    "pending", "remap_failure", "uncorrectable_ecc", "correctable_ecc", "width_below_max", "gen_below_max",
    "at_idle", "link_width", "link_width_max", "link_gen", "link_gen_max", "power_limit_changed",
    "power_limit_w", "default_power_limit_w", "clocks_changed", "throttle_reasons", "throttling",
    "hw_slowdown", "vbios", "product_name", "product_matches", "consumer", "mining_era", "manufactured",
    # issue 16: the card on offer picked by serial, every GPU of a report judged, exact model, the
    # report's own temperature limits, PCIe replays, the row-remapper histogram
    "purchase", "primary", "serial_given", "serial_in_report", "gpu_index", "gpus_in_report", "judged_all",
    "report_serial", "remap_banks_exhausted", "pcie_replays", "memory_mib", "claimed_memory_mib", "memory_ratio",
    "gpu_temp_c", "gpu_temp_limit_c", "gpu_slowdown_temp_c", "gpu_shutdown_temp_c", "mem_temp_c", "mem_temp_limit_c",
}

PRICE = {"what", "as_of", "age_days", "source", "used"}

FACT_TYPES: dict[str, set[str]] = {
    "candidate": CANDIDATE,
    "job": JOB,
    "environment": ENVIRONMENT,
    "proposal": PROPOSAL,
    "card": CARD,
    "price": PRICE,
}
