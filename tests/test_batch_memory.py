"""A batch audit's memory does not grow with its members' whole results (gpuwise/batch.py): each
member's result becomes what the output shows of it and is dropped, and that text waits in a spool
file. Before, every AuditResult (~0.2 MB of Python objects each) was held until the summary was
written: 2,000 copies of one proposal peaked at 369 MB (benchmarks/batch_memory.py).

The report's sections kept in a spool file are the report kept in memory, byte for byte, in every
format and language and with files in two currencies; before, a second path built the report from
all the results at once, and these tests held the two to the same bytes."""

from __future__ import annotations

import argparse
import gc
import io
import random
import re
import shutil
import tracemalloc
from pathlib import Path

import pytest
import yaml

from gpuwise.batch import audit_many
from gpuwise.decide.audit import audit, sharing
from gpuwise.render import output, report
from gpuwise.render.textfit import fit_text
from gpuwise.render.words import times

ROOT = Path(__file__).parent.parent
PROPOSAL = ROOT / "examples" / "proposal-good-lora-8xh100.yaml"


def _args(output: Path, fmt: str) -> argparse.Namespace:
    return argparse.Namespace(output=str(output), format=fmt, lang="en", currency=None, fx_rate=None,
                              knowledge=None, rules=None, detail="brief")


def _peak(folder: Path, n: int, fmt: str, out: Path, monkeypatch: pytest.MonkeyPatch, traced: bool = True) -> int:
    """The Python heap's peak (bytes, tracemalloc) while ``audit_many`` over ``n`` copies of one
    proposal writes its output: what it kept of every member, and what writing it takes. (Over
    the whole run, the first audit's search, ~30 MB, hides a growth of a few MB.)"""
    folder.mkdir()
    for i in range(n):
        shutil.copyfile(PROPOSAL, folder / f"p{i:04d}.yaml")
    paths = sorted(str(p) for p in folder.iterdir())
    emit, peaks = output.emit, []

    def measured(*a, **kw):
        tracemalloc.reset_peak()
        done = emit(*a, **kw)
        peaks.append(tracemalloc.get_traced_memory()[1])
        return done

    if not traced:  # a warm-up: the caches and templates, at full speed
        assert audit_many(paths, _args(out, fmt)) == 0
        return 0
    monkeypatch.setattr(output, "emit", measured)
    gc.collect()
    tracemalloc.start()
    try:
        status = audit_many(paths, _args(out, fmt))
    finally:
        tracemalloc.stop()
    assert status == 0 and out.stat().st_size > 0 and len(peaks) == 1
    return peaks[0]


@pytest.mark.parametrize("fmt", ["html", "json"])
def test_memory_at_the_output_grows_little_with_members(tmp_path, fmt, monkeypatch):
    """5 then 20 members: each member past the 5th adds under 8 KB to the Python heap's peak while
    the output is written (a summary row and a place in the spool; an HTML section is ~44 KB, a
    JSON line ~42 KB of this proposal's). Holding every result, as before, each added ~190 KB:
    the same measure on the tree before this change."""
    with sharing():  # the warm-up's search for the alternative serves the measured runs (as in one batch)
        _peak(tmp_path / "warm", 3, fmt, tmp_path / f"warm.{fmt}", monkeypatch, traced=False)  # caches, templates
        small = _peak(tmp_path / "small", 5, fmt, tmp_path / f"small.{fmt}", monkeypatch)
        large = _peak(tmp_path / "large", 20, fmt, tmp_path / f"large.{fmt}", monkeypatch)
    per_member = (large - small) / 15  # the peak varies by ~60 KB run to run: 15 members keep that under 4 KB
    assert per_member < 8 * 1024, f"{per_member / 1024:.1f} KB a member"


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """Results of four files and an input error: one in yuan (so the sections keep their own
    currencies), two in dollars, one rejected."""
    d = Path(tmp_path_factory.mktemp("mem"))
    doc = yaml.safe_load(PROPOSAL.read_text())
    doc = {**doc, "acquisition": {**doc["acquisition"], "hourly_usd": 12.0}}
    cny = {**doc, "title": "In yuan", "constraints": {**doc["constraints"], "currency": "CNY"},
           "acquisition": {**doc["acquisition"], "hourly_usd": 86.0}}
    (d / "usd.yaml").write_text(yaml.safe_dump(doc))
    (d / "cny.yaml").write_text(yaml.safe_dump(cny))
    files = [str(d / "cny.yaml"), str(ROOT / "examples" / "proposal-16x4090-70b-full.yaml"), str(d / "usd.yaml"),
             str(ROOT / "examples" / "proposal-used-3090-mining.yaml")]
    out = [(f, audit(f), "") for f in files]
    out.insert(2, (str(d / "bad.yaml"), None, "bad.yaml: nonsense: unknown key"))
    return out


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
@pytest.mark.parametrize("lang,currency,detail", [("en", None, "brief"), ("zh", None, "full"),
                                                  ("en", "CNY", "full")])
def test_spooled_as_in_memory(batch, fmt, lang, currency, detail):
    kw = {"lang": lang, "currency": currency, "detail": detail, "width": 72}
    whole = report.render_audit_summary(batch, fmt, **kw)
    spool = io.BytesIO()
    summary = report.AuditSummary(fmt, spool, **kw)
    for path, res, err in batch:
        summary.add(path, res, err)
    assert summary.text() == whole
    assert len(spool.getvalue()) > len(whole) / 3  # the sections were in the spool, not in memory
    if currency is None:  # the yuan file's section in yuan, the dollar files' in dollars
        assert "¥" in whole and "$" in whole


def _reference(text: str, fmt: str, cols: int) -> str:
    """report._place's last steps over a whole text (blank-line runs, code marks, ×, width)."""
    out = re.sub(r"\n{3,}", "\n\n", text).lstrip("\n")
    return fit_text(times(re.sub(r"`([^`\n]+)`", r"\1", out)), cols) if fmt == "text" else times(out)


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_tidy_in_pieces_as_whole(fmt):
    """Cut anywhere -- inside a run of line breaks, inside a line, inside `code` or "8 x H100" --
    the pieces tidied one after another give the whole text tidied."""
    rng = random.Random(7)
    words = ["8 x H100", "`gpuwise audit`", "a", "word " * 30, "", "", "\n", "x", "（4 x A100）"]
    for _ in range(300):
        text = "".join(rng.choice(words) + "\n" * rng.choice([0, 1, 1, 2, 3, 5]) for _ in range(rng.randint(0, 12)))
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(0, 6))))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        tidy = report._Tidy(fmt, 40)
        got = "".join(tidy.feed(p) for p in pieces) + tidy.end()
        assert got == _reference(text, fmt, 40), (text, pieces)


@pytest.mark.parametrize("currency", [None, "CNY"])
def test_results_without_a_currency_block_are_not_all_kept(batch, currency, monkeypatch):
    """A knowledge without an exchange rate gives results without a currency block: after
    BatchSummary.PENDING of them the summary's currency is settled and none is kept whole any
    more; the report is the one in the currency asked for, else in dollars, as if it had been
    settled from the first (the same rows given one more at a time than PENDING)."""
    from gpuwise.render.views.batch import BatchSummary

    plain = [(p, r.model_copy(update={"currency": None}) if r is not None else None, e) for p, r, e in batch]
    plain = (plain * 3)[:BatchSummary.PENDING + 4]
    kw = {"lang": "en", "currency": currency, "fx_rate": 7.1 if currency else None, "width": 72}
    whole = report.render_audit_summary(plain[:BatchSummary.PENDING - 1], "md", **kw)
    summary = report.AuditSummary("md", io.BytesIO(), **kw)
    held = []
    for path, res, err in plain:
        summary.add(path, res, err)
        held.append(len(summary.summary.pending))
    assert max(held) == BatchSummary.PENDING - 1 and held[-1] == 0
    text = summary.text()
    assert ("¥" in text) == (currency == "CNY") and ("$" in text) == (currency is None)
    assert f"{len(plain)} proposals" in text
    # the first PENDING - 1 sections, settled at the end of a shorter batch, read the same
    first = whole[whole.index('<a id="proposal-1">'):whole.index(f'<a id="proposal-{BatchSummary.PENDING - 1}">')]
    assert first.count("## ") >= BatchSummary.PENDING - 2 and first in text
