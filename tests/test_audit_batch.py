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


def test_a_batch_shares_the_planner_and_networks_of_one_bandwidth_keep_their_latency(tmp_path, monkeypatch):
    """Proposals for one training job share the layout planner's training job in a batch
    (training_job.sharing); the GPU rates it keeps are told apart by the network's latency, not only its
    bandwidth: 16 x H100 over two nodes on ethernet-400, roce-400 and infiniband-400 (50 GB/s each;
    10, 5 and 2 us, knowledge/runtime.yaml networks) train at different speeds alone, and each gets
    its own result in the batch. Before the rates' memo key held the latency, the RoCE proposal got
    the Ethernet one's rates in a batch."""
    from gpuwise.estimators import training_job as T

    base = yaml.safe_load((EXAMPLES / "proposal-spot-h100-pretrain.yaml").read_text())
    files = []
    for net in ("ethernet-400", "roce-400", "infiniband-400"):
        doc = {**base, "hardware": {**base["hardware"], "count": 16, "nodes": 2, "network": net},
               "acquisition": {"mode": "buy", "months": 3}}
        files.append(tmp_path / f"{net}.yaml")
        files[-1].write_text(yaml.safe_dump(doc))
    alone = [A.audit(str(f)).model_dump(mode="json") for f in files]
    days = [a["proposed"]["wall_days"] for a in alone]
    assert days[0] > days[1] > days[2]  # a slower network's latency shows in the step time
    built = []
    real = T._build
    monkeypatch.setattr(T, "_build", lambda *a: built.append(1) or real(*a))
    with A.sharing():
        shared = [A.audit(str(f)).model_dump(mode="json") for f in files]
    assert len(built) == 1  # one training job for the three proposals and their alternatives
    for f, one, res in zip(files, alone, shared, strict=True):
        assert res == one, f.name
    assert T._SHARED is None


def test_a_layout_setting_written_at_its_default_is_another_question_in_a_batch(tmp_path):
    """A proposal that writes ``zero_stage: 0``, ``gradient_checkpointing: false`` and ``offload:
    none`` pins the alternatives' layouts to them (training_job.requested_pins); one that leaves them
    out lets the planner choose. Their requirements dump to the same JSON, so the batch's key tells
    them apart by the fields written (audit.given_fields): before it did, the pinned proposal got the
    free one's alternative in a batch (LoRA of the 8 x H100 example: $992,266 there against the
    $1,028,932 it gets alone, for 32 x B200; the same with the 8 x A100 article's full fine-tune)."""
    doc = yaml.safe_load((EXAMPLES / "proposal-good-lora-8xh100.yaml").read_text())
    for key in ("zero_stage", "gradient_checkpointing", "offload"):
        doc["workload"].pop(key, None)
    free, pinned = tmp_path / "free.yaml", tmp_path / "pinned.yaml"
    free.write_text(yaml.safe_dump(doc))
    doc["workload"].update(zero_stage=0, gradient_checkpointing=False, offload="none")
    pinned.write_text(yaml.safe_dump(doc))
    alone = [A.audit(str(f)).model_dump(mode="json") for f in (free, pinned)]
    assert alone[0] != alone[1]  # the two questions differ: the test can tell a shared search
    with A.sharing():
        shared = [A.audit(str(f)).model_dump(mode="json") for f in (free, pinned)]
    assert shared == alone
