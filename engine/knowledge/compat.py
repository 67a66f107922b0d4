"""Software-compatibility facts: the user's OS / driver / CUDA / PyTorch against each GPU,
read from ``knowledge/software.yaml``. Versions become comparable numbers here, once;
the compatibility rules compare them.
"""

from __future__ import annotations

import re
from typing import Any

from .schema import Gpu, SoftwareFile


def version_num(v: str | None) -> float:
    """'535.104.05' -> 535.104005; '12.1' -> 12.01; comparable as floats (-1 when unknown)."""
    if not v:
        return -1.0
    parts = [int(p) for p in re.findall(r"\d+", v)[:3]]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] + parts[1] / 1000 + parts[2] / 1_000_000


def cuda_num(v: str | None) -> float:
    """CUDA versions have small minors: '12.1' -> 12.01, '12.10' would be 12.10."""
    if not v:
        return -1.0
    parts = [int(p) for p in re.findall(r"\d+", v)[:3]]
    while len(parts) < 3:
        parts.append(0)
    return parts[0] + parts[1] / 100 + parts[2] / 10_000


def _major_minor(v: str) -> str:
    p = re.findall(r"\d+", v)
    return ".".join(p[:2]) if len(p) >= 2 else (p[0] if p else v)


def cuda_min_driver(sw: SoftwareFile, cuda: str) -> str | None:
    rows = {r.cuda: r.min_driver_linux for r in sw.cuda_drivers}
    if cuda in rows:
        return rows[cuda]
    return rows.get(_major_minor(cuda))


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


def environment_facts(job: Any, gpu_ids: list[str]) -> list[dict[str, Any]]:
    """One fact per GPU type when the requirements name any part of the software environment."""
    env = job.req.environment
    if not any((env.os, env.driver, env.cuda, env.pytorch)):
        return []
    kb = job.kb
    sw = kb.software
    w = job.w
    out = []
    for gid in gpu_ids:
        g = kb.gpus[gid]
        cc = g.compute_capability or "0.0"
        a = arch_entry(sw, cc) if g.compute_capability else None
        cmin = cuda_min_driver(sw, env.cuda) if env.cuda else None
        major = _major_minor(env.cuda).split(".")[0] if env.cuda else ""
        floor = sw.cuda_family_floor.get(major) if env.cuda else None
        gmin = gpu_min_driver(sw, g)
        built, kernels, tcuda, archs = (False, True, "", "")
        if env.pytorch and g.compute_capability:
            built, kernels, tcuda, archs = torch_support(sw, env.pytorch, env.cuda, cc)
        dnum = version_num(env.driver)
        out.append({
            "gpu": g.id, "gpu_name": g.name, "vendor": g.vendor, "architecture": g.architecture,
            "cc": float(cc), "cuda_device": g.vendor == "nvidia", "launch_year": g.launch_year,
            "os": env.os or "", "os_known": env.os is not None, "os_driver_branch": os_branch(sw, env.os),
            "driver": env.driver or "", "driver_known": env.driver is not None, "driver_num": dnum,
            "driver_branch": int(dnum) if dnum > 0 else -1,
            "cuda": env.cuda or "", "cuda_known": env.cuda is not None, "cuda_num": cuda_num(env.cuda),
            "cuda_major": int(major) if major else -1,
            "cuda_min_driver": cmin or "", "cuda_min_driver_num": version_num(cmin),
            "cuda_family_floor": floor or "", "cuda_family_floor_num": version_num(floor),
            "driver_in_minor_compat": bool(floor and cmin and version_num(floor) <= dnum < version_num(cmin)),
            "gpu_first_cuda": a.first_cuda if a else "", "gpu_first_cuda_num": cuda_num(a.first_cuda) if a else -1,
            "gpu_last_cuda": (a.last_cuda or "") if a else "",
            "gpu_last_cuda_num": cuda_num(a.last_cuda) if a and a.last_cuda else 999.0,
            "gpu_min_driver": gmin or "", "gpu_min_driver_num": version_num(gmin),
            "gpu_min_driver_branch": int(version_num(gmin)) if gmin else -1,
            "pytorch": env.pytorch or "", "pytorch_known": env.pytorch is not None,
            "torch_release_known": bool(env.pytorch) and any(
                b.pytorch == _major_minor(env.pytorch) for b in sw.torch_builds),
            "torch_build_known": built, "torch_has_kernels": kernels, "torch_arch_list": archs,
            "torch_cuda": tcuda,
            "wants_bf16": w.precision == "bf16", "wants_flash": w.attention == "flash",
            "wants_fp8": w.precision == "fp8", "bf16_hw": bool(g.peaks.bf16), "fp8_hw": bool(g.peaks.fp8),
            "flash_ok": float(cc) >= 8.0, "tensor_cores": g.tensor_cores,
        })
    return out
