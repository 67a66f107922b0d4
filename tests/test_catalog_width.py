"""The catalog listings fit the terminal: at COLUMNS=80 no line of `gpus`, `rules`, `rules --facts`,
`explain` or `prices` is wider than 80 columns (a table that cannot fit stacks each row as
label: value lines), in English and Chinese; at 200 columns the GPU table is one row a line."""

from __future__ import annotations

import pytest

from gpuwise.render.fmt import display_width
from tests.clirun import gpuwise

COMMANDS = [("gpus",), ("rules",), ("rules", "--facts"), ("explain", "MEM-FITS"), ("prices",)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_listing_fits_80_columns(monkeypatch, args, lang):
    monkeypatch.setenv("COLUMNS", "80")
    r = gpuwise(*args, "--lang", lang)
    assert r.returncode == 0, r.stderr
    wide = [line for line in r.stdout.splitlines() if display_width(line) > 80]
    assert wide == []


def test_gpu_table_uses_a_wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    lines = gpuwise("gpus").stdout.splitlines()
    row = next(line for line in lines if line.startswith("p100-16gb-pcie "))
    assert row.split()[-2:] == ["$390", "(2025-07)"]  # the whole row on one line, price last
    monkeypatch.setenv("COLUMNS", "80")
    lines = gpuwise("gpus").stdout.splitlines()
    at = lines.index("p100-16gb-pcie")  # stacked: the id alone, then label: value lines
    assert lines[at + 1].startswith("    arch: pascal; cc: 6.0; SMs: 56; memory: 16 GB HBM2; BW: 732")


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a) for a in COMMANDS])
def test_listing_text_has_no_markdown_code_marks(args):
    """Plain text shows no Markdown: the templates' `gpuwise explain RULE_ID` is written bare."""
    for lang in ("en", "zh"):
        assert "`" not in gpuwise(*args, "--lang", lang).stdout
