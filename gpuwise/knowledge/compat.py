"""Software-compatibility facts: the user's OS / driver / CUDA / ROCm / Gaudi / CANN / PyTorch
against each GPU, read from ``knowledge/software.yaml``. Versions become comparable numbers
and table look-ups become booleans here, once; the compatibility rules only compare them.

A version the tables do not know is reported as unknown (``*_known`` false), never guessed:
the rules then say "cannot check" instead of passing or refusing silently.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from .schema import Gpu, SoftwareFile
    from .schema.software import GaudiRelease, LibrarySupport, RocmRelease, TorchNpuRelease


STACK_NAMES = {"cuda": "CUDA", "rocm": "ROCm", "gaudi": "Intel Gaudi software", "cann": "Ascend CANN"}


@lru_cache(maxsize=4096)
def version_num(v: str | None) -> float:
    """'535.104.05' -> 535.104005; '12.1' -> 12.001; comparable as floats (-1 when unknown)."""
    if not v:
        return -1.0
    parts = [int(p) for p in re.findall(r"\d+", v)[:3]]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] + parts[1] / 1000 + parts[2] / 1_000_000


@lru_cache(maxsize=4096)
def cuda_num(v: str | None) -> float:
    """CUDA versions have small minors: '12.1' -> 12.01, '12.10' would be 12.10."""
    if not v:
        return -1.0
    parts = [int(p) for p in re.findall(r"\d+", v)[:3]]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] + parts[1] / 100 + parts[2] / 10_000


@lru_cache(maxsize=4096)
def vtuple(v: str | None) -> tuple[int, ...]:
    """'6.4.1' -> (6, 4, 1); '2.10' -> (2, 10, 0): release order without float rounding; () when unknown."""
    if not v:
        return ()
    parts = [int(p) for p in re.findall(r"\d+", v.split("+")[0])[:3]]
    while parts and len(parts) < 3:
        parts.append(0)
    return tuple(parts)


@lru_cache(maxsize=4096)
def _major_minor(v: str) -> str:
    p = re.findall(r"\d+", v)
    return ".".join(p[:2]) if len(p) >= 2 else (p[0] if p else v)


@lru_cache(maxsize=4096)
def _base(v: str) -> str:
    """'2.5.1+rocm6.2' -> '2.5.1'; '2.1.0.post10' -> '2.1.0'."""
    return ".".join(re.findall(r"\d+", v.split("+")[0])[:3])


def stack_of(g: Gpu) -> str:
    """The vendor software stack a GPU needs: cuda, rocm, gaudi or cann ('' when none is known)."""
    if g.vendor == "nvidia":
        return "cuda"
    if g.vendor == "amd":
        return "rocm"
    tag = " ".join((g.vendor, g.isa or "", g.architecture, g.id)).lower()
    if "gaudi" in tag:
        return "gaudi"
    if "ascend" in tag or g.vendor == "huawei":
        return "cann"
    return ""


def torch_flavor(pytorch: str | None) -> tuple[str, str]:
    """The wheel flavour in a local version: '+cu121' -> ('cuda', '12.1'), '+rocm6.2.4' -> ('rocm', '6.2.4')."""
    if not pytorch or "+" not in pytorch:
        return "", ""
    local = pytorch.split("+", 1)[1].lower()
    if m := re.fullmatch(r"cu(\d+)(\d)", local):
        return "cuda", f"{m.group(1)}.{m.group(2)}"
    if m := re.fullmatch(r"rocm(\d+(?:\.\d+){0,2})", local):
        return "rocm", m.group(1)
    if local == "cpu":
        return "cpu", ""
    return "", ""


# ----------------------------------------------------------------------------- NVIDIA tables
def cuda_min_driver(sw: SoftwareFile, cuda: str) -> str | None:
    rows = _driver_rows(sw)
    if cuda in rows:
        return rows[cuda]
    return rows.get(_major_minor(cuda))


_DRIVER_ROWS: dict[int, tuple[Any, dict[str, str]]] = {}


def _driver_rows(sw: SoftwareFile) -> dict[str, str]:
    """The CUDA toolkit -> least Linux driver table of ``sw``, made once per table (an environment
    fact asks it for every GPU type; the rows are read-only once loaded). Keyed by the list's
    identity, kept alive beside it so the id is never reused."""
    table = sw.cuda_drivers
    got = _DRIVER_ROWS.get(id(table))
    if got is None or got[0] is not table:
        if len(_DRIVER_ROWS) >= 64:
            _DRIVER_ROWS.clear()
        got = _DRIVER_ROWS[id(table)] = (table, {r.cuda: r.min_driver_linux for r in table})
    return got[1]


def arch_entry(sw: SoftwareFile, cc: str) -> Any:
    for a in sw.architectures:
        if a.compute_capability == cc:
            return a
    return None


def gpu_min_driver(sw: SoftwareFile, gpu: Gpu) -> str | None:
    if gpu.min_driver:
        return gpu.min_driver
    if not gpu.compute_capability:
        return None
    a = arch_entry(sw, gpu.compute_capability)
    return cuda_min_driver(sw, a.first_cuda) if a else None


def last_driver_branch(sw: SoftwareFile, cc: str | None) -> int:
    """The last NVIDIA driver branch that drives this architecture (-1: still supported)."""
    for c in sw.driver_ceilings:
        if cc and cc in c.compute_capabilities:
            return c.last_branch
    return -1


def kernel_modules_needed(sw: SoftwareFile, gpu: Gpu) -> str:
    """'open', 'proprietary' or 'either': platforms by catalog id first, then the architecture."""
    for k in sw.kernel_modules:
        if any(gpu.id == p or gpu.id.startswith(p + "-") for p in k.gpus):
            return k.requires
    for k in sw.kernel_modules:
        if gpu.compute_capability and gpu.compute_capability in k.compute_capabilities:
            return k.requires
    return "either"


def torch_floor(sw: SoftwareFile, cc: str | None) -> str:
    for f in sw.torch_floors:
        if f.compute_capability == cc:
            return f.first_pytorch
    return ""


def _sm_runs(sm_list: list[str], ptx: bool, cc: str) -> bool:
    """A cubin built for X.y runs on X.z with z >= y, never across majors; PTX JIT-compiles forward."""
    major, minor = (int(x) for x in cc.split("."))
    for s in sm_list:
        smaj, smin = (int(x) for x in s.split("."))
        if smaj == major and smin <= minor:
            return True
    if ptx and sm_list:
        top = max(sm_list, key=lambda s: tuple(int(x) for x in s.split(".")))
        if tuple(int(x) for x in top.split(".")) <= (major, minor):
            return True
    return False


def torch_support(sw: SoftwareFile, pytorch: str, cuda: str | None, cc: str) -> tuple[bool, bool, str, str]:
    """(build known, has kernels for cc, which CUDA build, arch list) for a PyTorch release."""
    release = _major_minor(pytorch)
    builds = [b for b in sw.torch_builds if b.pytorch == release]
    if cuda:
        exact = [b for b in builds if b.cuda == _major_minor(cuda)]
        if exact:
            b = exact[0]
            return True, _sm_runs(b.sm, b.ptx, cc), b.cuda, ", ".join(b.sm)
        if builds:
            return False, any(_sm_runs(b.sm, b.ptx, cc) for b in builds), "", ""
        return False, True, "", ""
    if not builds:
        return False, True, "", ""
    for b in builds:
        if _sm_runs(b.sm, b.ptx, cc):
            return True, True, b.cuda, ", ".join(b.sm)
    b = builds[-1]
    return True, False, "any", "; ".join(f"cu{x.cuda}: {', '.join(x.sm)}" for x in builds)


def os_branch(sw: SoftwareFile, os_name: str | None) -> int:
    if not os_name:
        return -1
    key = os_name.lower().replace(" ", "-").replace("_", "-")
    for o in sw.os_drivers:
        if o.os == key:
            m = re.match(r"\d+", o.default_driver_branch)
            return int(m.group()) if m else -1
    return -1


# ----------------------------------------------------------------------------- ROCm tables
def rocm_row(sw: SoftwareFile, rocm: str | None) -> RocmRelease | None:
    """The matrix column for a ROCm release: exact, else the same minor ('6.4' means its newest patch,
    '6.4.4' the newest listed patch not above it)."""
    if not rocm:
        return None
    want = vtuple(rocm)
    patch_given = len(re.findall(r"\d+", rocm)) >= 3
    for r in sw.rocm_releases:
        if patch_given and any(vtuple(v) == want for v in r.rocm):
            return r
    same = [r for r in sw.rocm_releases if any(vtuple(v)[:2] == want[:2] for v in r.rocm)]
    if not same:
        return None
    newest = sorted(same, key=lambda r: max(vtuple(v) for v in r.rocm))
    if not patch_given:
        return newest[-1]
    below = [r for r in newest if max(vtuple(v) for v in r.rocm) <= want]
    return below[-1] if below else newest[0]


def rocm_first_with(sw: SoftwareFile, gfx: str) -> str:
    """The oldest ROCm release in the matrix that lists a GPU target ('' when none does)."""
    found = [v for r in sw.rocm_releases if gfx in r.gfx for v in r.rocm]
    return min(found, key=vtuple) if found else ""


def _rocm_range(sw: SoftwareFile) -> tuple[str, str]:
    allv = [v for r in sw.rocm_releases for v in r.rocm]
    return (min(allv, key=vtuple), max(allv, key=vtuple)) if allv else ("", "")


def _driver_listed(driver: str, listed: list[str]) -> bool:
    """'30.10.1' is listed by '30.10.1' or by a shorter prefix entry such as '6.4' (meaning 6.4.x)."""
    d = re.findall(r"\d+", driver)
    return any(d[: len(p)] == p for p in (re.findall(r"\d+", x) for x in listed))


def torch_rocm_wheel_columns(sw: SoftwareFile, release: str, gfx: str) -> tuple[int, int]:
    """The ROCm wheels of a PyTorch release looked up in the ROCm matrix: (wheels whose ROCm column
    lists ``gfx``, wheels whose column gpuwise cannot check: not in the matrix or not listing every
    target). The rules judge the counts (CPT-ROCM-TORCH-NO-GFX)."""
    builds = next((b for b in sw.torch_rocm_builds if b.pytorch == release), None)
    if builds is None or not gfx:
        return 0, 0
    rows = [rocm_row(sw, rocm) for rocm in builds.rocm]
    listed = sum(1 for r in rows if r is not None and gfx in r.gfx)
    unchecked = sum(1 for r in rows if r is None or not r.gfx_complete)
    return listed, unchecked


# ----------------------------------------------------------------------------- libraries, Gaudi, Ascend
def library_row(sw: SoftwareFile, library: str, stack: str) -> LibrarySupport | None:
    for r in sw.library_support:
        if r.library == library and r.stack == stack:
            return r
    return None


def gaudi_row(sw: SoftwareFile, synapse: str | None) -> GaudiRelease | None:
    if not synapse:
        return None
    key = _major_minor(synapse.split("-")[0])
    return next((r for r in sw.gaudi_releases if r.synapse == key), None)


def torch_npu_row(sw: SoftwareFile, torch_npu: str | None) -> TorchNpuRelease | None:
    if not torch_npu:
        return None
    key = torch_npu.lower().replace("-", ".")
    return next((r for r in sw.torch_npu_releases if r.torch_npu.lower() == key), None)


def _as_given(pinned: str, user: str) -> float:
    """``pinned`` as a number to as many parts as ``user`` gave ('2.5' against 2.5.1 is 2.5, which
    equals the user's 2.5; '2.5.0' against 2.5.1 is 2.5.1, which does not): -1 when unknown."""
    n = len(re.findall(r"\d+", user.split("+")[0])[:3])
    parts = re.findall(r"\d+", pinned)[:n]
    return version_num(".".join(parts)) if parts else -1.0


def _support_floors(row: LibrarySupport | None) -> tuple[float, float]:
    """(the first release with any backend on the stack, the first with official support) as
    numbers: 0 every release (no floor in the table), -1 none (no backend, or no row). The rules
    compare the user's version with them (CPT-BNB-VERSION-NO-BACKEND, CPT-BNB-EXPERIMENTAL)."""
    if row is None or row.status == "none":
        return -1.0, -1.0
    floors = [version_num(v) for v in (row.from_, row.experimental_from) if v]
    first = min(floors) if floors else 0.0
    if row.status != "official":
        return first, -1.0
    official = version_num(row.from_) if row.from_ else (-1.0 if row.experimental_from else 0.0)
    return first, official


def _support_note(row: LibrarySupport | None) -> str:
    if row is None:
        return "no data"
    if row.status == "none":
        return "no backend"
    bits = []
    if row.from_:
        bits.append(f"{row.status} from {row.from_}")
    if row.experimental_from:
        bits.append(f"experimental from {row.experimental_from}")
    return ", ".join(bits) or row.status


# ----------------------------------------------------------------------------- the facts
def _env_given(env: Any) -> bool:
    return any(getattr(env, f) is not None for f in type(env).model_fields)


def _software_side(sw: SoftwareFile, env: Any, w: Any) -> dict[str, Any]:
    """What an environment fact holds whatever the GPU: the user's software and workload against
    the tables (worked out once per consultation, not once per GPU type)."""
    flavor, flavor_version = torch_flavor(env.pytorch)
    cmin = cuda_min_driver(sw, env.cuda) if env.cuda else None
    major = _major_minor(env.cuda).split(".")[0] if env.cuda else ""
    floor = sw.cuda_family_floor.get(major) if env.cuda else None
    dnum = version_num(env.driver)
    release = _major_minor(env.pytorch) if env.pytorch else ""
    cuda_releases = sorted({b.pytorch for b in sw.torch_builds}, key=vtuple)
    return {
        "flavor": flavor, "flavor_version": flavor_version, "release": release, "cuda_releases": cuda_releases,
        "cuda_for_torch": env.cuda or (flavor_version if flavor == "cuda" else None),
        "torch_release_known": bool(env.pytorch) and release in cuda_releases,
        "fact": {
            "os": env.os or "", "os_known": env.os is not None, "os_driver_branch": os_branch(sw, env.os),
            "driver": env.driver or "", "driver_known": env.driver is not None, "driver_num": dnum,
            "driver_branch": int(dnum) if dnum > 0 else -1,
            "cuda": env.cuda or "", "cuda_known": env.cuda is not None, "cuda_num": cuda_num(env.cuda),
            "cuda_major": int(major) if major else -1,
            "cuda_min_driver": cmin or "", "cuda_min_driver_num": version_num(cmin),
            "cuda_family_floor": floor or "", "cuda_family_floor_num": version_num(floor),
            "kernel_modules": env.kernel_modules or "", "kernel_modules_known": env.kernel_modules is not None,
            "pytorch": env.pytorch or "", "pytorch_known": env.pytorch is not None, "torch_release": release,
            "torch_release_num": version_num(release),
            "torch_release_known": bool(env.pytorch) and release in cuda_releases,
            "torch_flavor": flavor,
            "wants_bf16": w.precision == "bf16", "wants_flash": w.attention == "flash",
            "wants_fp8": w.precision == "fp8",
        },
    }


def environment_fact(sw: SoftwareFile, g: Gpu, env: Any, w: Any, side: dict[str, Any] | None = None,
                     shared: dict[tuple[str, ...], dict[str, Any]] | None = None) -> dict[str, Any]:
    """One environment fact: the user's software (``env``) and workload (``w``) against one GPU.
    ``side``: :func:`_software_side` of the same ``sw``, ``env`` and ``w``, when already worked out.
    ``shared``: the stack's tables read for another GPU of the same ``sw``, ``env``, ``w`` and
    ``side`` (:func:`environment_facts`), by what they depend on of the GPU (its stack, its ISA)."""
    side = side or _software_side(sw, env, w)
    stack = stack_of(g)
    cc = g.compute_capability or "0.0"
    a = arch_entry(sw, cc) if g.compute_capability else None
    gmin = gpu_min_driver(sw, g)
    built, kernels, tcuda, archs = (False, True, "", "")
    if env.pytorch and g.compute_capability:
        built, kernels, tcuda, archs = torch_support(sw, env.pytorch, side["cuda_for_torch"], cc)
    release, flavor = side["release"], side["flavor"]
    first_torch = torch_floor(sw, g.compute_capability) if stack == "cuda" else ""

    fact: dict[str, Any] = {
        "gpu": g.id, "gpu_name": g.name, "vendor": g.vendor, "architecture": g.architecture,
        "cc": float(cc), "cuda_device": g.vendor == "nvidia", "launch_year": g.launch_year,
        "stack": stack, "stack_name": STACK_NAMES.get(stack, "no known software stack"),
        **side["fact"],
        "gpu_first_cuda": a.first_cuda if a else "", "gpu_first_cuda_num": cuda_num(a.first_cuda) if a else -1,
        "gpu_last_cuda": (a.last_cuda or "") if a else "",
        "gpu_last_cuda_num": cuda_num(a.last_cuda) if a and a.last_cuda else 999.0,
        "gpu_min_driver": gmin or "", "gpu_min_driver_num": version_num(gmin),
        "gpu_min_driver_branch": int(version_num(gmin)) if gmin else -1,
        "gpu_last_driver_branch": last_driver_branch(sw, g.compute_capability) if stack == "cuda" else -1,
        "gpu_kernel_modules": kernel_modules_needed(sw, g) if stack == "cuda" else "either",
        "torch_build_known": built, "torch_has_kernels": kernels, "torch_arch_list": archs,
        "torch_cuda": tcuda,
        "gpu_first_pytorch": first_torch, "gpu_first_pytorch_num": version_num(first_torch),
        "bf16_hw": bool(g.peaks.bf16), "fp8_hw": bool(g.peaks.fp8),
        "flash_min_cc": flash_min_cc(sw), "tensor_cores": g.tensor_cores,
    }
    isa = g.isa or ""
    parts = (
        (("torch", stack), lambda: _torch_table(sw, stack, release, side["cuda_releases"])),
        (("rocm", stack, isa if stack == "rocm" else ""),
         lambda: _rocm_facts(sw, g, env, stack, release, flavor, side["flavor_version"])),
        (("library", stack, isa), lambda: _library_facts(sw, g, env, w, stack)),
        (("gaudi", stack, isa if stack == "gaudi" else ""), lambda: _gaudi_facts(sw, g, env, stack)),
        (("ascend", stack), lambda: _ascend_facts(sw, env, stack)),
    )
    for key, make in parts:  # each depends on the GPU only through the parts of its key
        got = shared.get(key) if shared is not None else None
        if got is None:
            got = make()
            if shared is not None:
                shared[key] = got
        fact.update(got)
    return fact


def _torch_table(sw: SoftwareFile, stack: str, release: str, cuda_releases: list[str]) -> dict[str, Any]:
    """Whether gpuwise's table for this GPU's stack knows the PyTorch release, and the table's range."""
    table = {
        "cuda": cuda_releases,
        "rocm": [b.pytorch for b in sw.torch_rocm_builds],
        "gaudi": [_major_minor(r.pytorch) for r in sw.gaudi_releases],
        "cann": [_major_minor(r.pytorch) for r in sw.torch_npu_releases],
    }.get(stack, [])
    table = sorted(set(table), key=vtuple)
    return {"torch_table_known": bool(release) and release in table,
            "torch_oldest_known": table[0] if table else "", "torch_newest_known": table[-1] if table else ""}


def _rocm_facts(sw: SoftwareFile, g: Gpu, env: Any, stack: str, release: str, flavor: str,
                flavor_version: str) -> dict[str, Any]:
    gfx = (g.isa or "") if stack == "rocm" else ""
    rocm = env.rocm or (flavor_version if flavor == "rocm" else "")
    row = rocm_row(sw, rocm) if stack == "rocm" else None
    oldest, newest = _rocm_range(sw)
    builds = next((b for b in sw.torch_rocm_builds if b.pytorch == release), None)
    gfx_wheels = torch_rocm_wheel_columns(sw, release, gfx) if release else (0, 0)
    return {
        "gfx": gfx, "rocm": rocm, "rocm_num": version_num(rocm), "rocm_known": bool(rocm),
        "rocm_given": env.rocm is not None, "rocm_release_known": row is not None,
        "rocm_gfx_listed": row is not None and gfx in row.gfx, "rocm_gfx_complete": bool(row and row.gfx_complete),
        "rocm_gfx_list": ", ".join(row.gfx) if row else "",
        "rocm_first_for_gfx": (rocm_first_with(sw, gfx) or "none in gpuwise's table") if gfx else "",
        "rocm_oldest_known": oldest, "rocm_newest_known": newest,
        "rocm_torch_list": ", ".join(row.pytorch) if row else "",
        "rocm_driver_list": ", ".join(row.amdgpu_driver) if row else "",
        "amd_driver_in_list": bool(row and env.driver and _driver_listed(env.driver, row.amdgpu_driver)),
        "torch_rocm_release_known": builds is not None,
        "torch_rocm_wheels": ", ".join(builds.rocm) if builds else "",
        "rocm_in_torch_wheels": bool(builds and rocm and _major_minor(rocm) in {_major_minor(r) for r in builds.rocm}),
        "torch_rocm_wheels_with_gfx": gfx_wheels[0], "torch_rocm_wheels_unchecked": gfx_wheels[1],
    }


def _library_facts(sw: SoftwareFile, g: Gpu, env: Any, w: Any, stack: str) -> dict[str, Any]:
    """flash-attn, bitsandbytes and the inference framework on this GPU's stack."""
    gfx = g.isa or ""
    fa = library_row(sw, "flash-attn", stack)
    bnb = library_row(sw, "bitsandbytes", stack)
    reasons = [r for r, on in (("QLoRA (4-bit NF4 base)", w.method == "qlora"),
                               ("8-bit AdamW", w.optimizer == "adamw-8bit")) if on]
    fw = next((r for r in sw.framework_support if r.framework == w.framework and r.stack == stack), None)
    floors = _support_floors(bnb)
    return {
        "flash_status": fa.status if fa else "unknown",
        "flash_gfx_listed": bool(fa and gfx in fa.gfx),
        "flash_gfx_list": ", ".join(fa.gfx) if fa else "",
        "flash_min_stack": (fa.min_stack or "") if fa else "",
        "flash_min_stack_num": version_num(fa.min_stack if fa else None),
        "flash_alternative": fa.alternative if fa else "",
        "wants_bnb": bool(reasons), "bnb_reason": " and ".join(reasons),
        "bitsandbytes": env.bitsandbytes or "", "bnb_known": env.bitsandbytes is not None,
        "bnb_stack_status": bnb.status if bnb else "unknown",
        "bnb_num": version_num(env.bitsandbytes),
        "bnb_first_num": floors[0], "bnb_official_num": floors[1],
        "bnb_support_note": _support_note(bnb),
        "framework": w.framework, "framework_explicit": "framework" in w.model_fields_set,
        "framework_support": fw.support if fw else "unknown", "framework_plugin": fw.plugin if fw else "",
        "framework_gfx_listed": bool(fw and gfx in fw.gfx),
        "framework_gfx_list": ", ".join(fw.gfx) if fw else "",
        "framework_min_stack": (fw.min_stack or "") if fw else "",
        "framework_min_stack_num": version_num(fw.min_stack if fw else None),
    }


def _gaudi_facts(sw: SoftwareFile, g: Gpu, env: Any, stack: str) -> dict[str, Any]:
    row = gaudi_row(sw, env.synapse) if stack == "gaudi" else None
    device = (g.isa or "") if stack == "gaudi" else ""
    first = [r.synapse for r in sw.gaudi_releases if device in r.devices]
    return {
        "gaudi_device": device, "synapse": env.synapse or "", "synapse_known": env.synapse is not None,
        "synapse_release_known": row is not None, "synapse_pytorch": row.pytorch if row else "",
        "synapse_devices": ", ".join(row.devices) if row else "",
        "gaudi_device_listed": row is not None and device in row.devices,
        "gaudi_first_synapse": min(first, key=vtuple) if first else "",
        "synapse_torch_release": _major_minor(row.pytorch) if row else "",
    }


def _ascend_facts(sw: SoftwareFile, env: Any, stack: str) -> dict[str, Any]:
    row = torch_npu_row(sw, env.torch_npu) if stack == "cann" else None
    pinned = row.pytorch if row else (_base(env.torch_npu) if env.torch_npu else "")
    cann_for_build = sorted({r.cann for r in sw.torch_npu_releases if env.torch_npu and
                             r.pytorch == pinned}, key=lambda c: c.upper())
    return {
        "cann": env.cann or "", "cann_known": env.cann is not None,
        "torch_npu": env.torch_npu or "", "torch_npu_known": env.torch_npu is not None,
        "torch_npu_release_known": row is not None, "torch_npu_pytorch": pinned,
        "torch_npu_cann": row.cann if row else "",
        "torch_npu_cann_all": ", ".join(cann_for_build),
        "pytorch_num": version_num(env.pytorch.split("+")[0]) if env.pytorch else -1.0,
        "torch_npu_pytorch_num": _as_given(pinned, env.pytorch) if env.pytorch else -1.0,
        "cann_key": (env.cann or "").upper(), "torch_npu_cann_key": row.cann.upper() if row else "",
    }


def feature_floor(sw: SoftwareFile, feature: str) -> float:
    """The compute capability ``feature`` needs (knowledge/software.yaml feature floors; -1 when the table has
    none): the one place a floor of that table is read."""
    floor = next((f.min_compute_capability for f in sw.feature_floors if f.feature == feature), None)
    return float(floor) if floor is not None else -1.0


def flash_min_cc(sw: SoftwareFile) -> float:
    """The compute capability FlashAttention-2 needs (:func:`feature_floor`; -1 when the table has none)."""
    return feature_floor(sw, "flash_attention_2")


def feature_runs(sw: SoftwareFile, feature: str, cc: str | None) -> bool:
    """Whether a GPU of compute capability ``cc`` runs ``feature`` (knowledge/software.yaml feature floors: its
    listed compute capabilities where the matrix names them, else the floor and up); a feature the table lacks runs
    everywhere, a GPU with no compute capability (not CUDA) nowhere."""
    f = next((f for f in sw.feature_floors if f.feature == feature), None)
    if f is None:
        return True
    if not cc:
        return False
    return cc in f.compute_capabilities if f.compute_capabilities else float(cc) >= feature_floor(sw, feature)


def environment_facts(job: Any, gpu_ids: list[str]) -> list[dict[str, Any]]:
    """One fact per GPU type when the requirements name any part of the software environment, or,
    for non-CUDA GPUs, when the workload asks for a library or framework whose support depends on
    the stack (flash-attn, bitsandbytes, an explicitly chosen inference framework)."""
    env = job.req.environment
    kb = job.kb
    w = job.w
    stack_sensitive = (w.attention == "flash" or w.method == "qlora" or w.optimizer == "adamw-8bit"
                       or "framework" in w.model_fields_set)
    given = _env_given(env)
    out = []
    side = None
    shared: dict[tuple[str, ...], dict[str, Any]] = {}
    for gid in gpu_ids:
        g = kb.gpus[gid]
        if given or (stack_sensitive and stack_of(g) not in ("cuda", "")):
            side = side or _software_side(kb.software, env, w)
            out.append(environment_fact(kb.software, g, env, w, side, shared))
    return out
