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
    """A proposal, its copy and the same question asked for other hardware; another proposal and
    its question for other hardware; a third question (past a bound of two searches kept)."""
    shutil.copytree(EXAMPLES / "nvidia-smi", tmp_path / "nvidia-smi")
    lora, driver, spot = "proposal-good-lora-8xh100.yaml", "proposal-h100-old-driver.yaml", \
        "proposal-spot-h100-pretrain.yaml"
    files = []
    for name, prefix, hardware in ((lora, "", None), (lora, "copy-", None), (lora, "other-", {"gpu": "A100-80G"}),
                                   (driver, "", None), (driver, "other-", {"gpu": "L40S"}), (spot, "", None)):
        doc = yaml.safe_load((EXAMPLES / name).read_text())
        doc["hardware"].update(hardware or {})
        files.append(tmp_path / f"{prefix}{name}")
        files[-1].write_text(yaml.safe_dump(doc))
    return files


def test_shared_and_unshared_audits_give_the_same_results(tmp_path, monkeypatch):
    files = _batch(tmp_path)
    alone = [A.audit(str(f)).model_dump(mode="json") for f in files]
    searches = []
    real = A.estimates
    monkeypatch.setattr(A, "estimates", lambda *a, **k: searches.append(1) or real(*a, **k))
    ranked = []  # the alternatives judged and ranked (build_result) once per search too
    real_build = A.build_result
    monkeypatch.setattr(A, "build_result", lambda *a, **k: ranked.append(1) or real_build(*a, **k))
    monkeypatch.setattr(A, "SHARED_QUESTIONS", 2)
    with A.sharing():
        shared = [A.audit(str(f)) for f in files]
        assert A._SHARED is not None and len(A._SHARED) == 2  # the oldest question was let go
    assert len(searches) == 3  # the copy and the two other-hardware proposals shared a search
    assert len(ranked) == 3  # ... and the alternatives as the rules judged them
    for f, one, res in zip(files, alone, shared, strict=True):  # compared once all are done: none changed another
        assert res.model_dump(mode="json") == one, f.name
    assert A._SHARED is None  # the batch is over: a later audit searches afresh
