# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-six of the hostile corpus: what round 45 saw and left in pydantic's words, and their neighbours -- a
yes/no field given a word (``weight_only_gemm: marlin``, ``prefix_cache: enabled``, ``rocm_aiter: disabled``,
``liger_kernel: liger``, a plan's ``continuous: always``), a network given as its speed (``400 Gbps``, ``200Gb/s``,
``100 Mbps``, ``800 Gbps``), an enum given a unit (``kv_precision: 8 bit``), a name past its length (5,000
characters, in English and Chinese) and a price CSV's cells written with their units (``$2.50/h``,
``$1.10 per hour``, ``80GB``, ``2 TB``, ``8x``). Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 6c7ec1a1 (before this branch's fixes): 22 cases, 3 clean (the 800 Gbps network, which lists every
network; ``precision: 8-bit``, refused with the choices, none offered, as it should be; the '¥15/h' price in a USD
row, not offered as dollars); on this branch 22 of 22. Fixed (each with its test in tests/test_hostile46.py):

* a yes/no field given a word was pydantic's 'Input should be a valid boolean, unable to interpret input': the
  field is said as a yes/no (``weight_only_gemm`` as whether the server forces vLLM's weight-only GEMM kernels,
  Marlin), true offered where the word names what the field switches on (``marlin``, ``W8A16``; a word of the
  field's name, ``liger``) or says on (``enabled``, ``always``), false where it says off (inputs/yes_no.py);
* a network given as its speed listed all eleven: the networks of that line rate are offered, read from
  runtime.yaml's ``gb_s`` (x 8), or none that fast said with each network's rate (inputs/units.py link_gbps);
* a string past its length was 'String should have at most 100 characters (got 'xxx...')': the limit and the
  length given, '(5,000 given)';
* a price CSV cell written with its unit was 'not a number', nothing offered: the number is offered as the input
  files' fields offer it (units.py: ``price`` / ``spot_price`` as ``hourly_usd``, in the row's currency only;
  ``gpu_memory`` and ``host_ram_gb`` in GB; the GPU count);
* ``kv_precision: 8 bit`` was refused with the choices, none offered: its one 8-bit choice, fp8, is
  (error_words.py); ``precision: 8-bit`` still offers none (fp8 and int8 are both 8 bits).

A host RAM cell's note, '...: host RAM not read', reads '... (host RAM not read)', so that the number offered is not
followed by a second colon. Seen and left: a SkyPilot ``MemoryGiB`` cell with a unit is offered nothing (no input
field is in GiB); a price in another currency than its row's ('¥15/h' in a USD row) is 'not a number' with the row's
currency not named.
"""
from __future__ import annotations

from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round28 import doc_cases

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
FP8 = {**SERVE8, "precision": "fp8"}
FT8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 1.0e8}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
OFF13 = {"task": "finetune", "method": "full", "model": "llama-2-13b", "seq_len": 2048, "train_tokens": 1.0e8, "offload": "cpu", "zero_stage": 3}
IMPORT = ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"]


def _plan(workloads: list[dict], **more: Any) -> dict:
    return {"horizon_months": 3, "workloads": workloads, **more}


def _lora(name: str = "ft") -> dict:
    return {"name": name, "workload": LORA8, "cadence": {"per_month": 1}}


def _prop(hardware: dict) -> dict:
    return {"title": "t", "workload": OFF13, "hardware": {"gpu": "h100", "count": 16, "nodes": 2, **hardware}, "acquisition": {"mode": "rent"}}


def _house(*words: str, absent: tuple[str, ...] = ()):
    """Refused in one line holding ``words``, none of pydantic's own wording nor ``absent``."""
    pyd = ("Input should be", "String should have", "valid boolean")
    return lambda r: _refused(*words)(r) and not any(w in r.stderr for w in (*pyd, *absent))


def _row(*words: str, absent: tuple[str, ...] = (), rc: int = 2):
    """A price CSV whose only row is left out (``rc`` 2), or kept with a cell not read (0): the reason holding
    ``words``, no traceback."""
    def check(r) -> bool:
        out = r.stdout + r.stderr
        return r.returncode == rc and "Traceback" not in out and all(w in out for w in words) and not any(w in out for w in absent)
    return check


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ a yes/no field given a word
    rcase("yesno46: weight_only_gemm 'marlin': refused, the field said, true offered", {"workload": {**FP8, "weight_only_gemm": "marlin"}},
          _house("r.yaml", "workload.weight_only_gemm", "yes/no", "write true"))
    rcase("yesno46: weight_only_gemm 'Marlin W8A16', --lang zh: refused, true offered", {"workload": {**FP8, "weight_only_gemm": "Marlin W8A16"}},
          _house("r.yaml", "workload.weight_only_gemm", "true", absent=("必须是 true 或 false（",)), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    rcase("yesno46: weight_only_gemm 'cutlass' (no weight-only kernel): refused, the field said, nothing offered", {"workload": {**FP8, "weight_only_gemm": "cutlass"}},
          _house("r.yaml", "workload.weight_only_gemm", "yes/no", absent=("write true",)))
    rcase("yesno46: prefix_cache 'enabled': refused, true offered", {"workload": {**SERVE8, "prefix_cache": "enabled"}},
          _house("r.yaml", "workload.prefix_cache", "write true"))
    rcase("yesno46: liger_kernel 'liger': refused, true offered", {"workload": {**FT8, "liger_kernel": "liger"}},
          _house("r.yaml", "workload.liger_kernel", "write true"))
    rcase("yesno46: rocm_aiter 'disabled': refused, false offered", {"workload": {**SERVE8, "rocm_aiter": "disabled"}},
          _house("r.yaml", "workload.rocm_aiter", "write false"))
    pcase("yesno46: a plan's cadence.continuous 'always': refused, true offered", _plan([{**_lora(), "cadence": {"continuous": "always"}}]),
          _house("plan.yaml", "workloads[0].cadence.continuous", "write true"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ a network given as its speed; an enum given a unit
    acase("net46: hardware.network '400 Gbps': refused, the three at 400 Gb/s offered", _prop({"network": "400 Gbps"}),
          _house("p.yaml", "hardware.network", "infiniband-400", "roce-400", "ethernet-400", absent=("ethernet-10,", "slingshot-200")), argv=("audit", "p.yaml"))
    rcase("net46: constraints.network '200Gb/s': refused, the 200 Gb/s networks offered", {"workload": OFF13, "constraints": {"network": "200Gb/s"}},
          _house("r.yaml", "constraints.network", "infiniband-200", "roce-200", "slingshot-200", absent=("infiniband-400",)), argv=("recommend", "r.yaml"))
    acase("net46: hardware.network '100 Mbps', --lang zh: refused, ethernet-0.1 offered", _prop({"network": "100 Mbps"}),
          _house("p.yaml", "hardware.network", "ethernet-0.1", absent=("infiniband-400",)), argv=("audit", "p.yaml", "--lang", "zh"))
    # 1600 Gb/s, not 800: runtime.yaml lists infiniband-800 since e5cc355b (DGX B300's ConnectX-8)
    acase("net46: hardware.network '1600 Gbps' (none that fast): refused in one line, the speeds named", _prop({"network": "1600 Gbps"}),
          _house("p.yaml", "hardware.network", "1600", "infiniband-800"), argv=("audit", "p.yaml"))
    rcase("enum46: kv_precision '8 bit': refused, fp8 offered (its one 8-bit choice)", {"workload": {**SERVE8, "kv_precision": "8 bit"}},
          _house("r.yaml", "workload.kv_precision", "did you mean fp8?"))
    rcase("enum46: precision '8-bit': refused, none offered (fp8 and int8 are both 8 bits)", {"workload": {**SERVE8, "precision": "8-bit"}},
          _house("r.yaml", "workload.precision", absent=("did you mean",)))

    # ------------------------------------------------------------ a name past its length
    pcase("long46: a workload named with 5,000 characters: the field, its limit and the length given", _plan([_lora("x" * 5000)]),
          _house("plan.yaml", "workloads[0].name", "100", "5,000"), argv=("plan", "plan.yaml"))
    pcase("long46: the same, --lang zh: the limit and the length given", _plan([_lora("名" * 5000)]),
          _house("plan.yaml", "workloads[0].name", "100", "5,000"), argv=("plan", "plan.yaml", "--lang", "zh"))
    acase("long46: a proposal's hardware.network of 300 characters: the field, its limit and the length", _prop({"network": "n" * 300}),
          _house("p.yaml", "hardware.network", "50", "300"), argv=("audit", "p.yaml"))

    # ------------------------------------------------------------ a price CSV's cells written with their units
    case("csv46: a price '$2.50/h': the row left out, 2.5 offered", {"c.csv": "gpu,gpus,price\nH100,8,$2.50/h\n"}, IMPORT, expect="any",
         check=_row("price", "write 2.5"))
    case("csv46: a spot_price '$1.10 per hour', --lang zh: the row left out, 1.1 offered", {"c.csv": "gpu,gpus,price,spot_price\nH100,8,2.5,$1.10 per hour\n"},
         [*IMPORT, "--lang", "zh"], expect="any", check=_row("spot_price", "写作 1.1"))
    case("csv46: a gpu_memory '80GB': the row left out, 80 offered", {"c.csv": "gpu,gpus,price,gpu_memory\nH100,8,2.5,80GB\n"}, IMPORT, expect="any",
         check=_row("gpu_memory", "write 80"))
    case("csv46: a host_ram_gb '2 TB': the offer kept, its host RAM not read, 2000 offered", {"c.csv": "gpu,gpus,price,host_ram_gb\nH100,8,2.5,2 TB\n"}, IMPORT,
         expect="any", check=_row("host_ram_gb", "write 2000", rc=0))
    case("csv46: gpus '8x': the row left out, 8 offered", {"c.csv": "gpu,gpus,price\nH100,8x,2.5\n"}, IMPORT, expect="any",
         check=_row("write 8"))
    case("csv46: a price '¥15/h' in a USD row: not offered as 15 dollars", {"c.csv": "gpu,gpus,price\nH100,8,¥15/h\n"}, IMPORT, expect="any",
         check=_row("price", absent=("write 15",)))
