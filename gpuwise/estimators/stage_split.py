"""Which parameters the busiest GPU of a training layout holds: its pipeline stage's share of the dense
layers split by tensor parallelism, and of the routed experts split by expert parallelism, which on
Megatron-Core may be folded over the tensor-parallel GPUs too (used by memory.py, the planner's figures
and the step time)."""

from __future__ import annotations

from ..inputs.shape import Shape


def expert_split(tp: int, dp: int, ep: int, etp: int = 0) -> tuple[int, int]:
    """(expert tensor-parallel ranks, expert data-parallel ranks) of a stage's ``tp x dp`` GPUs
    (``dp`` counting the context-parallel ones) whose experts are split ``ep`` ways. ``etp`` > 0: the layout's
    expert tensor-parallel size (workload.parallelism.etp, or the stack's default: runtime.yaml training_stacks
    expert_tensor_parallel), kept where ``ep x etp`` divides the stage's GPUs (Megatron-Core's MoE parallel folding:
    EP x ETP x EDP = TP x CP x DP; Liu et al. 2025, arXiv:2504.14960). ``etp`` 0, or one that does not divide:
    Megatron-LM's argument default, expert parallelism carved out of the data-parallel GPUs keeping the dense
    layers' tensor split (ETP = TP, EDP = dp / ep); wider than them, it spans the tensor-parallel GPUs too, each
    expert whole on its GPU (ETP 1)."""
    if ep > 1 and etp > 0 and (tp * dp) % (ep * etp) == 0:
        return etp, max(1, tp * dp // (ep * etp))
    if ep <= 1 or dp % ep == 0:
        return tp, max(1, dp // max(ep, 1))
    return 1, max(1, tp * dp // ep)


def expert_shards(tp: int, dp: int, ep: int, group: int, etp: int = 0) -> int:
    """Expert data-parallel ranks inside a ZeRO group of ``group`` of a stage's ``dp`` data-parallel GPUs (hybrid
    sharding: the group's GPUs hold the shards of the experts they host, :func:`expert_split`'s EDP scaled to the
    group; ``group`` = ``dp``: all of them; ``etp``: as :func:`expert_split`)."""
    etp, edp = expert_split(tp, dp, ep, etp)
    return edp if group >= dp else max(1, tp * group // (ep * etp))


def stage_params(shape: Shape, tp: int, pp: int, ep: int, dp: int = 0, etp: int = 0) -> tuple[float, float]:
    """(dense, routed-expert) parameters held by the busiest GPU of a layout: its pipeline stage's
    share of the layers split ``tp`` ways (experts ``ep`` x the expert tensor-parallel ways,
    :func:`expert_split` with ``etp``; ``dp`` 0: expert parallelism within the data-parallel GPUs), plus the
    embedding or the output head (both when there is one stage and they are not tied)."""
    experts = shape.routed_expert_params
    emb = float(shape.vocab * shape.hidden)
    dense_layers = max(shape.params - experts - emb - (0.0 if shape.tied else emb), 0.0)
    stage_emb = emb * (1 if (shape.tied or pp > 1) else 2)
    etp = expert_split(tp, dp, ep, etp)[0] if dp else tp
    return (dense_layers / pp + stage_emb) / tp, experts / (pp * ep * etp)
