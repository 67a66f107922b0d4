"""Which runtime backend a serving job may name (``workload.runtime_backend``): one its framework ships
(knowledge/serving.yaml ``backends``) in the release it states. Kept apart from workload.py, which holds the fields."""

from typing import Any

from ..errors import N_, SaidAt


def check_runtime_backend(w: Any) -> None:
    """Refuse a ``runtime_backend`` the job's framework does not ship, one its stated release came before, and
    TensorRT-LLM's engine path stated with eager prompt steps (``prefill_cuda_graphs: false`` names the PyTorch
    backend's Python-launched forwards, which a built TensorRT engine does not run)."""
    name = w.runtime_backend
    if name is None:
        return
    from ..knowledge import load
    from ..knowledge.records import release_at_least

    kb = load()
    fw = next((f for f in (kb.serving.frameworks if kb.serving is not None else ()) if f.id == w.framework), None)
    shipped = {b.name: b for b in (fw.backends if fw is not None else ())}
    if name not in shipped:
        raise SaidAt(("runtime_backend",), N_("%(framework)s ships no runtime backend named %(name)s (its backends: "
                                              "%(names)s): leave runtime_backend out, or set the framework that "
                                              "ships it"), framework=w.framework, name=name,
                     names=", ".join(shipped) or "none")
    first = shipped[name].first
    if first is not None and w.framework_version and not release_at_least(w.framework_version, first):
        raise SaidAt(("runtime_backend",), N_("%(framework)s %(version)s came before its %(name)s backend (from "
                                              "%(first)s): state %(first)s or a later release, or leave "
                                              "runtime_backend out"), framework=w.framework,
                     version=w.framework_version, name=name, first=first)
    if name == "tensorrt" and w.prefill_cuda_graphs is False:
        raise SaidAt(("prefill_cuda_graphs",), N_("prefill_cuda_graphs: false is the PyTorch backend's eager prompt "
                                                  "steps, and runtime_backend tensorrt runs a built TensorRT engine: "
                                                  "leave one of them out"))
