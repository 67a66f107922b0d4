"""One definition each: the node size, the count ladder, usable memory, the memory total and
the FlashAttention floor are defined once (in data or one function); a second copy fails here.
The planner's quick fit check (what the count search asks before estimating) agrees with the
full estimate on generated jobs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuwise.estimators import held_plan as H
from gpuwise.estimators import interconnect as I
from gpuwise.estimators.candidate import capacity_bytes, evaluate, requested_pins, training_job, usable_bytes
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from . import sources
from .conftest import ROOT

PACKAGE = ROOT / "gpuwise"


def _modules() -> list[Path]:
    return sources.modules(PACKAGE)


def test_the_node_size_is_defined_once():
    """Only the interconnect model says how many GPUs a server holds; the rest import it."""
    found = []
    for path in _modules():
        for node in sources.walk(sources.tree(path)):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value == 8:
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any("NODE" in n for n in names):
                    found.append(f"{path.relative_to(ROOT)}: {names}")
    assert found == ["gpuwise/estimators/interconnect.py: ['GPUS_PER_NODE']"], found


def _ladders(tree: ast.AST) -> list[int]:
    """Lines of literal tuples or lists that start 1, 2, 4: a hand-written ladder of GPU counts."""
    out = []
    for node in sources.walk(tree):
        if isinstance(node, ast.Tuple | ast.List) and len(node.elts) >= 3:
            head = [e.value if isinstance(e, ast.Constant) else None for e in node.elts[:3]]
            if head == [1, 2, 4]:
                out.append(node.lineno)
    return out


def test_the_count_ladder_is_defined_once():
    """The GPU counts recommend, audit, estimate and plan judge, and the splits of a server (tensor-
    parallel widths), come from interconnect.count_ladder / powers_of_two: no module writes its own
    1, 2, 4, 8 or doubles from a server up."""
    found = []
    for path in _modules():
        text = sources.text(path)
        rel = path.relative_to(ROOT).as_posix()
        found += [f"{rel}:{line}" for line in _ladders(sources.tree(path))]
        if "counts[-1] * 2" in text or ("n = 16" in text and "n *= 2" in text):
            found.append(rel)
    assert found == [], found


@pytest.mark.parametrize(("max_gpus", "ladder"), [
    (1, [1]), (6, [1, 2, 4]), (8, [1, 2, 4, 8]), (24, [1, 2, 4, 8, 16, 24]), (64, [1, 2, 4, 8, 16, 32, 64]),
    (100, [1, 2, 4, 8, 16, 32, 64]),  # 100 is not whole 8-GPU servers
])
def test_every_command_climbs_the_same_ladder(max_gpus, ladder):
    from gpuwise.decide.subjects import counts_for
    from gpuwise.plan.sizing import counts

    assert I.count_ladder(max_gpus) == counts_for(max_gpus) == counts(max_gpus) == ladder


def test_a_servers_splits_follow_the_node_size():
    assert I.powers_of_two(I.GPUS_PER_NODE) == [1, 2, 4, 8]
    assert I.powers_of_two(0) == [] and I.powers_of_two(5) == [1, 2, 4]


def test_usable_memory_is_computed_in_one_function():
    """The headroom policy is read once in Python (gpuwise/estimators usable_fraction: the built-in
    rules' limit for a job no rule book is bound to); the planner, the serving model and the
    candidates plan to the memory rules' limit in force (usable_share), which the built-in rules
    put at the same share (tests/test_verdicts.py)."""
    found = [path.relative_to(ROOT).as_posix() for path in _modules()
             if 'policy_value("memory_headroom_fraction")' in sources.text(path)]
    assert found == ["gpuwise/estimators/__init__.py"], found


def test_the_flash_attention_floor_is_read_from_data_once(kb):
    """The floor lives in knowledge/software.yaml; compat.flash_min_cc is the only reader; the
    environment fact and the candidate rule both follow a changed floor."""
    from gpuwise.decide import rulebook
    from gpuwise.decide.bounds import Judgement
    from gpuwise.knowledge import compat

    # a line that names the feature beside its floor reads it (an alias a user may type, 'flash_attention_2' for
    # attention_kernel fa2 in inputs/error_words.py, names the kernel, not the floor)
    readers = [p.relative_to(ROOT).as_posix() for p in _modules()
               if any("flash_attention_2" in line and ("feature" in line or "floor" in line)
                      for line in sources.text(p).splitlines())]
    assert readers == ["gpuwise/knowledge/compat.py"], readers
    assert compat.flash_min_cc(kb.software) == 8.0  # FlashAttention-2 README: Ampere (sm_80) and newer
    floors = [f.model_copy(update={"min_compute_capability": "9.0"}) if f.feature == "flash_attention_2" else f
              for f in kb.software.feature_floors]
    sw = kb.software.model_copy(update={"feature_floors": floors})
    assert compat.flash_min_cc(sw) == 9.0
    # the environment fact carries the raw floor beside the GPU's compute capability (no yes/no)
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    job = resolve(Requirements.model_validate({"workload": {"task": "finetune", "model": "llama-3.1-8b",
                                                            "attention": "flash"},
                                               "environment": {"pytorch": "2.5.1"}}), kb)
    env = compat.environment_fact(sw, kb.gpus["a100-80gb-sxm"], job.req.environment, job.w)
    assert (env["cc"], env["flash_min_cc"]) == (8.0, 9.0) and "flash_ok" not in env
    # the rule compares the raw floor with the GPU's compute capability
    book = rulebook.load()
    fact = {"wants_flash": True, "cuda_device": True, "training": True}
    assert Judgement(book, {**fact, "cc": 8.0, "flash_min_cc": 9.0}).verdict() is False
    assert Judgement(book, {**fact, "cc": 9.0, "flash_min_cc": 9.0}).verdict() is None


MODELS = ["llama-3.1-8b", "llama-2-13b", "qwen2.5-14b", "llama-3.1-70b"]
GPUS = ["rtx-4090", "a100-40gb-pcie", "a100-80gb-sxm", "h100-80gb-sxm", "mi300x"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.sampled_from(MODELS), method=st.sampled_from(["full", "lora", "qlora"]),
       batch=st.sampled_from([1, 2, 4, 8]), seq=st.sampled_from([1024, 2048, 4096, 8192]),
       zero=st.sampled_from([0, 1, 2, 3, "auto"]), gpu=st.sampled_from(GPUS), n=st.sampled_from([1, 2, 4, 8, 16]))
def test_the_planners_quick_fit_check_is_the_full_estimates(kb, model, method, batch, seq, zero, gpu, n):
    """A memory term the quick check left out would show here: the count search trusts
    P.fits_at_all to skip counts; the memory rules judge the full estimate's need."""
    q = {"workload": {"task": "finetune", "model": model, "method": method, "batch_size": batch, "seq_len": seq,
                      "zero_stage": zero, "train_tokens": 1e8}}
    if method == "qlora" and zero != 0:
        q["workload"]["zero_stage"] = 0
    try:
        job = resolve(Requirements.model_validate(q), kb)
    except Exception:  # a combination the schema refuses is not a job
        return
    g = kb.gpus[gpu]
    quick = H.fits_at_all(training_job(job), n, I.topology(g, n, kb.runtime), usable_bytes(job, g),
                          requested_pins(job), gpu=g, stated=True)  # the file states batch_size
    ev = evaluate(job, g, n, defer=True)
    assert quick == (ev.memory.per_gpu <= usable_bytes(job, g))  # the need the memory rules judge, against usable
    assert usable_bytes(job, g) < capacity_bytes(g)


def _multiplies_allocator_fraction(fn: ast.AST) -> bool:
    def names(node: ast.AST) -> list[str]:
        return [n.id if isinstance(n, ast.Name) else n.attr for n in sources.walk(node)
                if isinstance(n, ast.Name | ast.Attribute)]
    return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
               and any("alloc" in x for x in names(n.left) + names(n.right)) for n in sources.walk(fn))


def test_the_memory_total_is_defined_once():
    """The allowance the allocator adds on top of the tensors (the one term a quick fit check
    could leave out) is multiplied in one function, memory_terms.overhead_bytes; the breakdowns, the
    planner's quick check and the serving model's KV budget call it."""
    found = []
    for path in _modules():
        tree = sources.tree(path)
        for fn in sources.walk(tree):
            if isinstance(fn, ast.FunctionDef) and _multiplies_allocator_fraction(fn):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{fn.name}")
    assert found == ["gpuwise/estimators/memory_terms.py:overhead_bytes"], found


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(model=st.sampled_from(MODELS), method=st.sampled_from(["full", "lora", "qlora"]),
       batch=st.sampled_from([1, 4]), seq=st.sampled_from([2048, 8192]), zero=st.sampled_from([0, 1, 3, "auto"]),
       n=st.sampled_from([2, 8, 16]))
def test_every_layouts_quick_memory_is_its_breakdowns_total(kb, model, method, batch, seq, zero, n):
    """The planner's fast figure for a layout (what the search compares with usable memory) is the
    total of the breakdown the report shows for the same layout, for every layout it tries."""
    from gpuwise.estimators.planner import Pins, _search

    q = {"workload": {"task": "finetune", "model": model, "method": method, "batch_size": batch, "seq_len": seq,
                      "zero_stage": 0 if method == "qlora" else zero, "train_tokens": 1e8}}
    try:
        job = resolve(Requirements.model_validate(q), kb)
    except Exception:  # a combination the schema refuses is not a job
        return
    tj = training_job(job)
    search = _search(tj, n, 8, 8, Pins())
    statics = [s for g in (*search.groups, *search.offload) for s in g.statics]
    assert statics
    for s in statics:
        assert s.per_gpu == pytest.approx(tj.memory(s.layout).per_gpu, rel=1e-9), s.layout


def test_each_compute_capability_floor_is_read_in_one_function():
    """The serving table's floors (a framework's CUDA build, a precision's kernels) are read by
    serving.support_figures, which the rules compare and the estimator's support() reads; the
    software.yaml feature floors (FlashAttention's, MXFP8's) by compat.feature_floor. A second reader of a floor
    fails here."""
    found = []
    for path in _modules():
        tree = sources.tree(path)
        for fn in sources.walk(tree):
            if isinstance(fn, ast.FunctionDef) and any(
                    isinstance(n, ast.Attribute) and n.attr == "min_compute_capability" for n in sources.walk(fn)):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{fn.name}")
    assert sorted(found) == ["gpuwise/estimators/serving/support.py:support_figures",
                             "gpuwise/knowledge/compat.py:feature_floor"], found


def _bytes_per_parameter(tree: ast.AST) -> list[int]:
    """Lines multiplying a parameter count (a name or attribute with ``params`` in it) by a number
    written in the code: a bytes-per-parameter figure (16 B of training state, 2 B of weights)."""
    def mentions_params(node: ast.AST) -> bool:
        return any((isinstance(n, ast.Attribute) and "params" in n.attr)
                   or (isinstance(n, ast.Name) and "params" in n.id) for n in sources.walk(node))

    def number(node: ast.AST) -> bool:
        value = node.value if isinstance(node, ast.Constant) else None
        return isinstance(value, int | float) and not isinstance(value, bool)

    return [n.lineno for n in sources.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
            and ((mentions_params(n.left) and number(n.right)) or (number(n.left) and mentions_params(n.right)))]


def test_training_state_bytes_are_defined_once_in_memory():
    """The job fact's training state (MEM-MYTH-8-BYTES, MEM-ALT-LORA), its 16-bit weights and the
    articles' 8 B x 1.2 come from gpuwise/estimators/memory.py; the modules that build facts and
    decide (gpuwise/decide, gpuwise/plan) multiply no parameter count by a figure of their own."""
    found = []
    for folder in ("decide", "plan"):
        for path in sources.modules(PACKAGE / folder):
            rel = path.relative_to(ROOT).as_posix()
            found += [f"{rel}:{line}" for line in _bytes_per_parameter(sources.tree(path))]
    assert found == [], found
    # the check finds such a copy
    assert _bytes_per_parameter(ast.parse("state = shape.params * 16 / GB")) == [1]


@pytest.mark.parametrize(("precision", "mixed", "per_param"), [
    ("bf16", True, 16), ("fp16", True, 16), ("fp8", True, 16), ("fp32", False, 16), ("fp32", True, 16),
    ("bf16", False, 8), ("int4", False, 8), ("int4", True, 16),
])
def test_the_job_facts_training_state_is_memorys(kb, precision, mixed, per_param):
    """Mixed-precision AdamW keeps 2 B weights + 2 B gradients + 4 B master + 8 B moments = 16 B per
    parameter (ZeRO paper, arXiv:1910.02054, section 3.1); fp32 4 + 4 + 8 = 16 B; pure 16-bit
    2 + 2 + 4 = 8 B. The job fact's state_gb is memory.full_state_bytes of the job."""
    from gpuwise.decide.subjects import job_fact
    from gpuwise.estimators import memory as M

    job = resolve(Requirements.model_validate({"workload": {
        "task": "finetune", "method": "full", "model": "llama-3.1-8b", "precision": precision,
        "mixed_precision": mixed}}), kb)
    params = job.shape.params  # 8,030,261,248 (meta-llama/Llama-3.1-8B safetensors total)
    assert params == pytest.approx(8.03e9, rel=1e-3)
    fact = job_fact(job, [], -1.0, None)
    assert fact["state_gb"] * 1e9 == pytest.approx(params * per_param, rel=1e-12)
    assert fact["state_gb"] * 1e9 == M.full_state_bytes(job.shape, precision, mixed)
    assert fact["weights_gb"] * 1e9 == pytest.approx(params * 2, rel=1e-12)
    assert fact["state_gb_myth"] * 1e9 == pytest.approx(params * 8 * 1.2, rel=1e-12)


def _asks_offload_kind(fn: ast.AST) -> bool:
    """A function that tests a stack's GPU-side update (an ``offload_on_gpu`` / ``offload_state_only`` name) beside
    the ``"cpu"`` target itself: a second copy of compute.updates_on_gpu."""
    names = {n.attr for n in sources.walk(fn) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in sources.walk(fn) if isinstance(n, ast.Name)}
    cpu = any(isinstance(n, ast.Compare) and any(isinstance(c, ast.Constant) and c.value == "cpu"
                                                 for c in n.comparators) for n in sources.walk(fn))
    return cpu and any("offload_on_gpu" in n or n == "offload_state_only" or n == "stack_on_gpu" for n in names)


def test_the_offloads_update_place_is_decided_once():
    """Whether an offloaded optimizer updates on the GPU (a JAX stack's memory kinds) or on the host (DeepSpeed's
    CPU Adam) is answered by compute.updates_on_gpu alone: the planner's step, its report, the memory and the
    estimate without a plan (candidate._compute_step) call it, and its round trip is compute.state_round_trip_seconds
    (tests/test_leftovers66.py works the path without a plan by hand)."""
    found = []
    for path in _modules():
        for fn in sources.walk(sources.tree(path)):
            if isinstance(fn, ast.FunctionDef) and _asks_offload_kind(fn):
                found.append(f"{path.relative_to(ROOT).as_posix()}:{fn.name}")
    assert found == ["gpuwise/estimators/compute.py:updates_on_gpu"], found
    # the check finds such a copy
    copy = ast.parse("def f(g, lay):\n    return g.offload_on_gpu and lay.offload == 'cpu'\n")
    assert _asks_offload_kind(copy.body[0])
    # and every reader of the stack's field goes through it
    readers = [p.relative_to(ROOT).as_posix() for p in _modules() if "updates_on_gpu(" in sources.text(p)]
    assert sorted(readers) == ["gpuwise/estimators/candidate.py", "gpuwise/estimators/compute.py",
                               "gpuwise/estimators/memory.py", "gpuwise/estimators/planner.py",
                               "gpuwise/estimators/step_time.py"], readers
