"""Hostile round 18 (issue 26 item 5): what round 18 of benchmarks/hostile_corpus.py and the probes
around it found, each fix with a test that fails without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.decide import smi_report

from .conftest import examples

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


# ------------------------------------------------------------- a seller's very long value in a text table
def _narrowed_one_at_a_time(natural: list[int], floor: list[int], room: int) -> list[int]:
    """The rule as fit_table applied it before: the widest column above its floor (the first of
    equally wide ones) loses one column, until the table fits."""
    widths = list(natural)
    while sum(widths) > room:
        i = max((k for k in range(len(widths)) if widths[k] > floor[k]), key=lambda k: widths[k])
        widths[i] -= 1
    return widths


def test_columns_are_narrowed_a_level_at_a_time_to_the_same_widths() -> None:
    """The same widths as one column at a time (2,000 random tables; 20,000 with GPUWISE_THOROUGH=1),
    and a 3.8-million-column cell (a seller's VBIOS version of 3.8 MB) narrowed at once: one column a
    step was 3.8 million steps, most of the 14 CPU-s a text audit of that report took."""
    import random
    import time

    from gpuwise.render.textfit import _narrowed

    rnd = random.Random(18)
    for _ in range(examples(2_000, 20_000)):
        cols = rnd.randint(1, 7)
        natural = [rnd.randint(1, 60) for _ in range(cols)]
        floor = [min(n, rnd.randint(1, 20)) for n in natural]
        room = rnd.randint(sum(floor), sum(natural) + 3)
        assert _narrowed(natural, floor, room) == _narrowed_one_at_a_time(natural, floor, room)
    start = time.process_time()
    assert _narrowed([12, BIG, 9], [12, 14, 9], 78) == [12, 57, 9]
    assert time.process_time() - start < 0.5  # one column a step: about 2 CPU-s


def test_a_text_audit_of_a_report_with_a_3_8_mb_vbios_version_takes_a_second(tmp_path: Path) -> None:
    """A seller's report whose VBIOS version is 3.8 MB of digits (under the 4 MB cap): the text
    audit narrowed its table one column a step and cut the word character by character from a
    copy of what was left, 10-14 CPU-s; now about 1 CPU-s here. The report says the same."""
    import time

    from tests.clirun import gpuwise
    from tests.test_hostile_seventeenth import USED
    from tests.test_hostile_twelfth import write

    report = HOT_3090.replace("<vbios_version>", "<vbios_version>" + "9" * BIG, 1)
    write(tmp_path, {"p.yaml": USED % "X", "r.xml": report})
    start = time.process_time()
    r = gpuwise("audit", "p.yaml", "--format", "text", cwd=tmp_path)
    assert time.process_time() - start < 5.0
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr
    assert "USED-MEMORY-JUNCTION-HOT" in gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path).stdout
