"""Hostile round 18 (issue 26 item 5): what round 18 of benchmarks/hostile_corpus.py and the probes
around it found, each fix with a test that fails without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.decide import smi_report

ROOT = Path(__file__).resolve().parent.parent
HOT_3090 = (ROOT / "tests" / "data" / "nvidia_smi" / "derived_rtx-3080-v13_as-3090-hot-gddr6x.xml").read_text()
BIG = 3 * 2**20 + 800_000
"""A token of 3.8 MB: the report stays under the 4 MB cap (smi_report.MAX_XML_BYTES)."""


@pytest.mark.parametrize("where, padded", [
    ("a comment", lambda n: HOT_3090.replace("<timestamp>", "<!--" + "x" * n + "--><timestamp>", 1)),
    ("a processing instruction", lambda n: HOT_3090.replace("<timestamp>", "<?pi " + "x" * n + "?><timestamp>", 1)),
    ("an attribute", lambda n: HOT_3090.replace("<gpu id=", '<gpu x="' + "a" * n + '" id=', 1)),
])
def test_one_long_token_is_not_scanned_again_on_every_read(monkeypatch: pytest.MonkeyPatch, where: str,
                                                            padded) -> None:
    """expat 2.5 scans a token that spans reads again from its start on every read. ElementTree's
    iterparse reads 16 KB at a time, so a seller's report holding one 3.8 MB comment, processing
    instruction or attribute was fed in 240 pieces and cost 0.5-0.6 CPU-s (20 s for a batch of forty
    such cards). Fed a megabyte at a time it takes at most five reads; the report still parses."""
    data = padded(BIG).encode()
    assert len(data) <= smi_report.MAX_XML_BYTES
    reads = []
    real = smi_report.SafeET.iterparse

    class Counted:
        def __init__(self, source) -> None:
            self.source = source

        def read(self, size: int = -1) -> bytes:
            chunk = self.source.read(size)
            reads.append(len(chunk))
            return chunk

    monkeypatch.setattr(smi_report.SafeET, "iterparse", lambda source, *a, **k: real(Counted(source), *a, **k))
    log = smi_report._parse(data, "r.xml")
    assert len(reads) <= 5, (where, len(reads))  # 4 MB / 1 MB, and the empty read that ends it
    assert [g.product_name for g in log.gpus] == ["NVIDIA GeForce RTX 3090"]
