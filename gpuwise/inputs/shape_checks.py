"""The checks of a workload against its model's shape, before any estimate (split from job.py, which holds the job's
resolution): a pin or a count the model cannot hold, a size that names another model, a draft model no smaller than
its model. Each is a one-line input error naming the field, never a silent fall-back."""

from __future__ import annotations

from typing import Any

from ..errors import N_, UserError
from .schema import Workload
from .shape import Shape


def field_at(where: str, field: str) -> str:
    """Where a one-line error puts a workload's field: 'r.yaml: workload.model' in a requirements file, and in a
    plan, whose workload is at 'plan.yaml: workloads[0].workload', 'plan.yaml: workloads[0].workload.model' (it
    read 'workloads[0].workload: workload.model', hostile round 27), as the plan file's own checks name it."""
    if where.endswith(".workload") and field.startswith("workload."):
        return where + field.removeprefix("workload")
    return f"{where}: {field}"


def _check_every_nth(w: Workload, layers: int, where: str) -> None:
    """Every N-th layer recomputed with N past the model's layers recomputes none (a stage of L layers recomputes
    floor(L / N), estimators/planner.py every_nth_share): it was estimated as no recomputation, nothing said (hostile
    round 49). Refused, the model's layers said."""
    n = w.checkpoint_every_n_layers if w.task != "inference" else None
    if n is not None and layers and n > layers:
        raise UserError(N_("a checkpoint every %(n)s layers is past the model's %(layers)s layers: no layer would be "
                           "recomputed"),
                        values={"n": n, "layers": layers}, where=field_at(where, "workload.checkpoint_every_n_layers"),
                        hint=N_("give %(layers)s or fewer (1 is every layer), or gradient_checkpointing false for "
                                "none"),
                        hint_values={"layers": layers})


def _check_size(w: Workload, catalog: Any, where: str) -> None:
    """A catalog model beside a ``params_b`` of another size (llama-3.1-8b with 70, a template's leftover; Mixtral
    with its 12.9B active) was sized silently as the catalog's shape at the given count, the report titled with the
    model named (hostile round 50). A size within half again of the catalog's either way is still an override (the
    name's rounding: llama-2-7b's 6.74 given as 7); past it the two name different models and it is refused."""
    if catalog is None or w.params_b is None or w.architecture is not None or not catalog.params_b:
        return
    ratio = w.params_b / catalog.params_b
    if 1 / 1.5 <= ratio <= 1.5:
        return
    raise UserError(N_("%(given)s billion parameters is not the size of %(model)s (%(size)s billion)"),
                    values={"given": f"{w.params_b:g}", "model": catalog.id, "size": f"{catalog.params_b:.3g}"},
                    where=field_at(where, "workload.params_b"),
                    hint=N_("give the model alone, or params_b alone for a model of another size"))


def _check_draft(w: Workload, shape: Shape, where: str) -> None:
    """A draft model no smaller than the model it drafts for was priced as drafting for it (hostile round 54). Its
    cost ratio c (a drafted token's time over the model's) is then at least 1, and the expected speed-up
    (1 - a^(k+1)) / ((1 - a)(k c + 1)) (Leviathan et al. 2023, arXiv:2211.17192, section 3.4) is at most 1 for any
    acceptance a and k drafted tokens: refused, both sizes said."""
    spec = getattr(w, "speculative", None) if w.task == "inference" else None
    if spec is None or spec.draft_params_b is None or spec.draft_params_b * 1e9 < shape.params:
        return
    raise UserError(N_("a draft model of %(draft)s billion parameters is no smaller than %(model)s (%(size)s "
                       "billion): drafting with it cannot be faster than decoding without it"),
                    values={"draft": f"{spec.draft_params_b:g}", "model": shape.name,
                            "size": f"{shape.params / 1e9:.3g}"},
                    where=field_at(where, "workload.speculative.draft_params_b"),
                    hint=N_("give the draft model's own size, a small fraction of the model's"))


def _check_sac_op(w: Workload, shape: Shape, where: str) -> None:
    """Per-op selective checkpointing (``gradient_checkpointing: selective_op``) is costed from the order of a dense
    block's matmuls (estimators/compute.py sac_op_recomputed_params): a model whose layers run another mixer,
    routed experts or MLA is an input error, never a guess."""
    if w.task == "inference" or w.gradient_checkpointing != "selective_op":
        return
    from ..estimators.compute import sac_op_supported
    if not sac_op_supported(shape):
        raise UserError(N_("per-op selective checkpointing is costed for dense models with separate q, k, v and "
                           "output projections; %(model)s is not one"), values={"model": shape.name},
                        where=field_at(where, "workload.gradient_checkpointing"),
                        hint=N_("set gradient_checkpointing to true, false or auto"))


def _check_etp(w: Workload, shape: Shape, where: str) -> None:
    """``parallelism.etp`` splits each routed expert's matrices over GPUs (Megatron-Core's
    expert_tensor_parallel_size): on a model with no routed experts it names nothing, and was dropped unsaid
    (the pins kept it for MoE models alone), so a user who stated it believed it ran. An input error; so is
    ``parallelism.ep`` above 1 there (expert parallelism, dropped the same way), and on an MoE model an ``ep`` that
    does not divide its routed experts. A service's ``ep`` above 1 on a dense model likewise (docs/formats.md's
    parallelism row; it was said 'cannot be kept on this GPU count' as if another count would keep it: hostile
    round 41); a service's ep that does not divide the experts stays a pin a count may not keep, said where not
    kept (MEM-PIN-NOT-KEPT), as before: the training check above reads Megatron-Core's assertion, no engine's."""
    par = w.parallelism
    if par is None:
        return
    if par.ep is not None and par.ep > 1 and not shape.moe:  # ep 1 (no expert parallelism) is true of a dense model
        raise UserError(N_("expert parallelism places routed experts on GPUs, and %(model)s has none (a dense model)"),
                        values={"model": shape.name}, where=field_at(where, "workload.parallelism.ep"),
                        hint=N_("leave parallelism.ep out, or use tp for the same GPUs") if w.task == "inference"
                        else N_("leave parallelism.ep out, or use dp for the same GPUs"))
    if w.task == "inference":
        return
    if par.etp is not None and not shape.moe:
        raise UserError(N_("expert tensor parallelism splits routed experts, and %(model)s has none (a dense model)"),
                        values={"model": shape.name}, where=field_at(where, "workload.parallelism.etp"),
                        hint=N_("leave parallelism.etp out"))
    # each expert-parallel rank holds experts / ep whole experts: Megatron-Core's MoE layer asserts num_moe_experts %
    # expert_model_parallel_size == 0 (megatron/core/transformer/moe/moe_layer.py), so no count runs ep 3 of 128
    # experts, nor ep 16 of Mixtral's 8; it was taken as kept, its memory a fraction of an expert a GPU (hostile
    # round 39)
    experts = int(getattr(shape, "experts", 0) or 0)
    if par.ep is not None and shape.moe and experts and experts % par.ep:
        raise UserError(N_("expert parallelism gives each of its %(ep)s GPUs the same number of whole experts, and "
                           "%(model)s's %(experts)s routed experts do not divide by %(ep)s"),
                        values={"model": shape.name, "experts": experts, "ep": par.ep},
                        where=field_at(where, "workload.parallelism.ep"),
                        hint=N_("give an ep that divides the model's routed experts, or leave it out"))


def _check_schedule(w: Workload, layers: int, where: str, slots: int = 0) -> None:
    """A pinned interleaved schedule (``parallelism.vpp`` > 1) the model's layers cannot fill is an input
    error, never a silent fall-back to the plain schedule: each of the pp ranks holds vpp stages of at least
    one layer (pp not pinned: at least 2 ranks), or of the embedding or the loss on a named stack that places them
    as layers (``slots``: runtime.yaml training_stacks pipeline_split_slots)."""
    par = w.parallelism
    if w.task == "inference" or par is None or not par.vpp or par.vpp == 1:
        return
    field = field_at(where, "workload.parallelism.vpp")
    if par.pp == 1:
        raise UserError(N_("an interleaved schedule of %(vpp)s virtual stages needs a pipeline, and pp is 1"),
                        values={"vpp": par.vpp}, where=field, hint=N_("set pp to 2 or more, or vpp to 1"))
    pp = par.pp or 2
    if layers + slots < pp * par.vpp:
        raise UserError(N_("%(vpp)s virtual stages on each of %(pp)s pipeline ranks need %(need)s layers; the model "
                           "has %(layers)s"), values={"vpp": par.vpp, "pp": pp, "need": pp * par.vpp - slots,
                                                      "layers": layers},
                        where=field, hint=N_("use vpp %(most)s or less"),
                        hint_values={"most": max(1, (layers + slots) // pp)})
