"""A tenth round of hostile inputs (issue 26 item 5).

First the two questions left at round nine: every error names a field in one notation -- keys by
dots, list positions in brackets (``owned[0].count``; pydantic's ``owned.0.count`` was printed
beside the loader's ``gpus[0].prices[0].amount``) -- and a policy value out of range is one
catalog sentence ("between 0 and 0.9" stayed English inside the Chinese line). Then the cases of
round ten that failed, kept here; the whole round is in benchmarks/hostile_corpus.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import gpuwise
from tests.test_hostile_more import one_line

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
LORA = str(EX / "lora-70b.yaml")
CUDA_RULE = (EX / "house-rules" / "cuda-only.yaml").read_text()


# ----------------------------------------------------------------------------- one notation
@pytest.mark.parametrize("files, argv, said", [
    ({"plan.yaml": "horizon_months: 12\nowned:\n  - {gpu: RTX 4090, count: 0, hosting: office}\nworkloads: []\n"},
     ["plan", "plan.yaml"], "plan.yaml: owned[0].count: "),
    ({"hr/r.yaml": CUDA_RULE.replace('      - [cuda_device, "==", false]', "      - 5")},
     ["recommend", LORA, "--rules", "hr"], "hr/r.yaml: rule HOUSE-CUDA-ONLY.when[0]: "),
    ({"kb/prices.yaml": "gpus:\n  - id: rtx-4090\n    prices:\n      - {amount: -5, condition: new, unit: card, "
                        "kind: street, as_of: 2026-02-01, source: a shop}\n"},
     ["recommend", LORA, "--knowledge", "kb"], "kb/prices.yaml: gpus[0] (id rtx-4090).prices[0].amount: "),
])
def test_a_list_position_is_named_in_brackets_in_every_kind_of_file(tmp_path: Path, files: dict, argv: list,
                                                                     said: str) -> None:
    """A plan file, a house rule and a knowledge overlay each name the failing item the same way;
    the plan file said ``owned.0.count`` and the rule ``rule HOUSE-CUDA-ONLY.when.0``."""
    for rel, body in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(body)
    err = one_line(gpuwise(*argv, cwd=tmp_path), said)
    assert ".0." not in err and ".0:" not in err


@pytest.mark.parametrize("policy, en, zh", [
    ("memory_headroom_fraction: 2", "must be between 0 and 0.9", "必须在 0 与 0.9 之间"),
    ("price_max_age_days: 1e300", "must be between", "之间"),
])
def test_a_policy_out_of_range_is_one_sentence_in_chinese(tmp_path: Path, policy: str, en: str, zh: str) -> None:
    """``gpuwise prices --lang zh`` with such an overlay said '超出范围：必须 between 0 and 0.9'; the
    bounds are knowledge/policy.yaml's min and max for memory_headroom_fraction (0 and 0.9)."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "policy.yaml").write_text(policy + "\n")
    one_line(gpuwise("prices", "--knowledge", "kb", cwd=tmp_path), "out of range", en)
    err = one_line(gpuwise("prices", "--knowledge", "kb", "--lang", "zh", cwd=tmp_path), "超出范围", zh)
    assert "between" not in err and " and " not in err
