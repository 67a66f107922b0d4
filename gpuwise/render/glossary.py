"""The glossary: the terms and abbreviations reports use, each said in a sentence, in the report's
language (the definitions are catalog messages). The full report ends with it, the brief report
points to it, and docs/glossary.md is written from it (``python -m gpuwise.render.glossary``), so
the three never disagree.
"""

from __future__ import annotations

from typing import Any


def N_(message: str) -> str:
    """Mark a string for translation; it is translated where it is used."""
    return message


TERMS: tuple[tuple[str, str], ...] = (
    ("TCO", N_("Total cost of ownership: everything a configuration costs over the project, rented or "
               "bought (cards, server share, power, hosting, licences, fees), less what the hardware resells for.")),
    ("GPU-hours", N_("GPUs times hours: what a rental bills. 8 GPUs for 3 hours are 24 GPU-hours.")),
    (N_("Wall-clock time"), N_("Elapsed time from start to finish, as a clock on the wall measures it, "
                               "including start-up and restarts.")),
    ("FLOP", N_("One floating-point operation; training a model costs about 6 × parameters × tokens of them.")),
    (N_("Dense peak"), N_("A GPU's datasheet throughput without structured sparsity: the figure every "
                          "estimate here starts from.")),
    ("MFU", N_("Model FLOPs utilisation: the share of the dense peak a training run turns into useful work "
               "(typically 0.35 to 0.6).")),
    (N_("Scaling efficiency"), N_("How much of the extra GPUs' speed survives communication between them: "
                                  "100% means no time is lost waiting for the network.")),
    ("goodput", N_("The share of wall-clock time that advances training, after evaluations, checkpoint "
                    "writes, stalls, failures and restarts.")),
    ("TP", N_("Tensor parallelism: each layer's matrices split across GPUs, which talk on every layer "
              "(needs a fast link such as NVLink).")),
    ("PP", N_("Pipeline parallelism: the layers split into stages on different GPUs, micro-batches passed "
              "from stage to stage.")),
    ("DP", N_("Data parallelism: whole copies of the model, each on its own share of the batch, gradients "
              "averaged every step.")),
    ("EP", N_("Expert parallelism: a mixture-of-experts model's experts spread over GPUs.")),
    ("CP", N_("Context parallelism: one long sequence split across GPUs.")),
    ("ZeRO", N_("DeepSpeed's Zero Redundancy Optimizer: stage 1 shards the optimizer state over the "
                "data-parallel GPUs, stage 2 also the gradients, stage 3 also the weights.")),
    ("FSDP", N_("PyTorch's Fully Sharded Data Parallel, the equivalent of ZeRO stage 3.")),
    (N_("Gradient checkpointing"), N_("Keeping only each layer's input during the forward pass and "
                                      "recomputing the rest in the backward pass: less memory, about a "
                                      "third more compute.")),
    ("ckpt", N_("Short for gradient checkpointing in layout labels.")),
    (N_("Micro-batch"), N_("The sequences one GPU processes in one forward and backward pass.")),
    (N_("Gradient accumulation"), N_("Several micro-batches summed before one optimizer step, to reach the "
                                     "global batch without more memory.")),
    (N_("Optimizer state"), N_("What the optimizer keeps per trainable parameter (AdamW: two moments, "
                               "and with mixed precision an fp32 master copy).")),
    (N_("Activations"), N_("The intermediate results of the forward pass kept for the backward pass.")),
    (N_("Mixed precision"), N_("Computing in bf16 or fp16 while keeping fp32 master weights.")),
    ("PEFT", N_("Parameter-efficient fine-tuning: training a small set of added weights instead of the "
                "whole model (LoRA, QLoRA).")),
    ("LoRA", N_("Low-rank adaptation: small trainable matrices added to a frozen model.")),
    ("QLoRA", N_("LoRA on a base model stored in 4 bits.")),
    (N_("Offload"), N_("Keeping optimizer state or weights in CPU memory or on NVMe instead of the GPU: "
                       "fits larger jobs, runs slower.")),
    ("SDPA", N_("PyTorch's scaled dot-product attention, which uses FlashAttention-style kernels that never "
                "hold the sequence-by-sequence score matrix.")),
    (N_("KV cache"), N_("The keys and values of earlier tokens kept during generation; it grows with "
                        "context length and concurrent requests.")),
    (N_("Prefill"), N_("Reading the prompt: all its tokens at once, limited by compute.")),
    (N_("Decode"), N_("Writing the answer, one token per step for each sequence, limited by memory "
                      "bandwidth.")),
    ("TTFT", N_("Time to first token: how long a request waits before the answer starts.")),
    ("TPOT", N_("Time per output token: the pause between tokens of one answer.")),
    ("NVLink", N_("NVIDIA's direct GPU-to-GPU link, several times faster than PCIe; NVSwitch joins all "
                  "GPUs of a server with it.")),
    ("PCIe", N_("The expansion bus a GPU card plugs into; the slowest path between GPUs of a server.")),
    ("SXM", N_("NVIDIA's socketed module form factor for data-center GPUs, with NVLink; a GPU name "
               "without a form factor means this part.")),
    ("InfiniBand", N_("The low-latency network between servers of a training cluster.")),
    ("all-reduce", N_("The collective operation that sums gradients across GPUs every step.")),
    (N_("Spot"), N_("Spare cloud capacity at a discount, which the provider may take back at short notice.")),
    (N_("Egress"), N_("Data sent out of a cloud, billed per GB.")),
    ("PUE", N_("Power usage effectiveness: a data center's total power over the power its IT equipment draws.")),
    (N_("Break-even"), N_("The first month at which renting around the clock has cost more than owning, counting what "
                          "the hardware would resell for that month. The cost chart's lines cross later: they set "
                          "renting against buying's cash out, before any resale.")),
    ("ECC", N_("Error-correcting memory; a used card's corrected and uncorrected error counts tell its health.")),
)
"""(term, definition): a term that is an English word is itself translated; abbreviations are not."""

_LOCAL = {N_("Wall-clock time"), N_("Dense peak"), N_("Scaling efficiency"), N_("Gradient checkpointing"),
          N_("Micro-batch"), N_("Gradient accumulation"), N_("Optimizer state"), N_("Activations"),
          N_("Mixed precision"), N_("Offload"), N_("KV cache"), N_("Prefill"), N_("Decode"), N_("Spot"),
          N_("Egress"), N_("Break-even")}


def entries(_: Any) -> list[dict[str, str]]:
    """The glossary in the language of ``_`` (a gettext function): term and definition."""
    return [{"term": _(term) if term in _LOCAL else term, "definition": _(definition)}
            for term, definition in TERMS]


def markdown() -> str:
    """docs/glossary.md: every term in English and Simplified Chinese."""
    from .fmt import Fmt

    zh = Fmt("zh")._
    lines = ["# Glossary / 术语表", "",
             "The terms gpuwise reports use. The full report (`--detail full`) ends with this list in its "
             "own language. Generated from `gpuwise/render/glossary.py` "
             "(`python -m gpuwise.render.glossary > docs/glossary.md`).", "",
             "报告中使用的术语。完整报告（`--detail full`）末尾附有本表。", "",
             "| term / 术语 | meaning | 含义 |", "| --- | --- | --- |"]
    for en, cn in zip(entries(lambda s: s), entries(zh), strict=True):
        term = en["term"] if en["term"] == cn["term"] else f"{en['term']} / {cn['term']}"
        lines.append(f"| {term} | {en['definition']} | {cn['definition']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
