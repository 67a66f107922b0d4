"""Hostile round 39's fixed failures (benchmarks/hostile_round39.py), each failing before its fix:

* serving.yaml ``serial_shared_expert`` (SGLang's ROCm shared expert): a window whose ``before`` is not after its
  ``first`` held no release and a misspelt vendor ('amdd') matched no GPU, both read silently;
* clouds.yaml providers: a negative storage price wrote a credit on the bill, a negative free egress allowance
  billed more than was sent;
* a look-alike GPU name read as a short name several variants share ('А１００' is 'a100') was offered a10 and
  v100-16gb-sxm2; a compatibility form of a Latin letter ('Ⅼ', 'ℍ') or a name wholly in fullwidth was shown as
  written, looking like the name it is not;
* a stated ``parallelism.etp`` with ``ep`` left to the search was dropped for a faster ep although ep 4 x etp 2
  holds it on 8 GPUs; a pinned ``ep`` that does not divide the model's routed experts was taken as kept.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise as cli

V3 = ("workload: {task: inference, model: deepseek-v3, framework: sglang, precision: fp8, prompt_tokens: 1000, "
      "output_tokens: 1000, concurrent_requests: 8, framework_version: '0.5.7'}\n")
SERIAL = ("frameworks:\n  - id: sglang\n    serial_shared_expert:\n      - vendors: [{vendors}]\n"
          "        first: '{first}'\n        before: '{before}'\n        source: ours\n")


def _mi300x(tmp_path: Path, overlay: str | None):
    (tmp_path / "r.yaml").write_text(V3, encoding="utf-8")
    more = ()
    if overlay is not None:
        (tmp_path / "kb").mkdir(exist_ok=True)
        (tmp_path / "kb" / "serving.yaml").write_text(overlay, encoding="utf-8")
        more = ("--knowledge", "kb")
    return cli("estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json", *more, cwd=tmp_path)


@pytest.mark.parametrize("first, before", [("0.5.9", "0.5.6"), ("0.5.5.post3", "0.5.5.post3")])
def test_a_serial_shared_expert_window_holding_no_release_refused(tmp_path: Path, first, before):
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first=first, before=before))
    assert r.returncode == 2, r.stdout[:200]
    assert r.stderr.strip() == ("gpuwise: kb/serving.yaml: frameworks[0] (id sglang).serial_shared_expert[0]: "
                                f"before {before} is not after first {first}: no release is in the window")


def test_a_misspelt_serial_shared_expert_vendor_refused(tmp_path: Path):
    r = _mi300x(tmp_path, SERIAL.format(vendors="amdd", first="0.4.6", before="0.5.9"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "serial_shared_expert[0].vendors[0]" in r.stderr and "did you mean amd?" in r.stderr


def test_a_window_of_post_releases_holds_them(tmp_path: Path):
    """0.5.5.post1 up to 0.5.5.post3 holds post1 and post2 (records.release_key, as fusion.py reads the window):
    accepted, and a job on 0.5.7 is outside it (the same TPOT as with no overlay); 0.4.6 up to 0.5.9 holds 0.5.7,
    whose shared expert then runs after the routed experts (slower)."""
    base = json.loads(_mi300x(tmp_path, None).stdout)["gpu"]["serving"]["tpot_s"]
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first="0.5.5.post1", before="0.5.5.post3"))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] == base
    r = _mi300x(tmp_path, SERIAL.format(vendors="amd", first="0.4.6", before="0.5.9"))
    assert json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] > base

