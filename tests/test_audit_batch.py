"""A batch shares the search for the alternative between proposals that ask the same question
(gpuwise.decide.audit.sharing): every result is the one its proposal gets audited alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from gpuwise.decide import audit as A

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"


def _batch(tmp_path: Path) -> list[Path]:
    """The example proposals, a copy of two, and the same questions asked for other hardware."""
    shutil.copytree(EXAMPLES / "nvidia-smi", tmp_path / "nvidia-smi")
    files = []
    for p in sorted(EXAMPLES.glob("proposal-*.yaml")):
        files.append(tmp_path / p.name)
        shutil.copyfile(p, files[-1])
    for name in ("proposal-good-lora-8xh100.yaml", "proposal-h100-old-driver.yaml"):
        files.append(tmp_path / f"copy-{name}")
        shutil.copyfile(EXAMPLES / name, files[-1])
    for name, hardware in (("proposal-good-lora-8xh100.yaml", {"gpu": "A100-80G", "count": 8}),
                           ("proposal-h100-old-driver.yaml", {"gpu": "L40S", "count": 2})):
        doc = yaml.safe_load((EXAMPLES / name).read_text())
        doc["hardware"].update(hardware)
        files.append(tmp_path / f"other-{name}")
        files[-1].write_text(yaml.safe_dump(doc))
    return files


def test_shared_and_unshared_audits_give_the_same_results(tmp_path, monkeypatch):
    files = _batch(tmp_path)
    alone = [A.audit(str(f)).model_dump(mode="json") for f in files]
    searches = []
    real = A.estimates
    monkeypatch.setattr(A, "estimates", lambda *a, **k: searches.append(1) or real(*a, **k))
    with A.sharing():
        shared = [A.audit(str(f)) for f in files]
    assert len(searches) == len(files) - 4  # the two copies and the two other-hardware proposals shared
    for f, one, res in zip(files, alone, shared, strict=True):  # compared once all are done: none changed another
        assert res.model_dump(mode="json") == one, f.name
    assert A._SHARED is None  # the batch is over: a later audit searches afresh


def test_sharing_keeps_a_bounded_number_of_searches(tmp_path, monkeypatch):
    monkeypatch.setattr(A, "SHARED_QUESTIONS", 2)
    files = _batch(tmp_path)[:4]
    with A.sharing():
        for f in files:
            A.audit(str(f))
        assert A._SHARED is not None and len(A._SHARED) == 2
