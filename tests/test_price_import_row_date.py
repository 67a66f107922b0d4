"""docs/knowledge.md (gpuwise prices import, the gpuwise layout): "a row's own `as_of` and `source` win". The row's
date did win, but the offer's source went on saying the date was the file's: the bundled example of the docs, two rows
dated 2026-10-15, was cited '(as_of: the file's modification date, not a date the file states)'. A row that states its
own date now says so; a row without one keeps the file's date and its words (docs57)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from gpuwise.prices import read_catalog


def test_a_row_dated_in_the_file_is_cited_as_dated_by_itself(kb, tmp_path: Path) -> None:
    own = tmp_path / "examplecloud.csv"  # docs/knowledge.md's example, and one row with no date of its own
    own.write_text("gpu,gpus,price,currency,region,as_of,source\n"
                   "H200,8,20.0,USD,eu-west,2026-10-15,https://example-cloud.com/pricing\n"
                   "RTX 4090 D,1,2.5,CNY,cn-east,2026-10-15,https://example-cloud.cn/price\n"
                   "L40S,4,4.0,USD,eu-west,,https://example-cloud.com/l40s\n")
    for as_of, words in ((None, "the file's modification date, not a date the file states"), ("2026-11-01", "--as-of")):
        rep = read_catalog(own, kb, as_of=as_of)
        by = {o.gpu: o for o in rep.offers}
        for gpu in ("h200-141gb-sxm", "rtx-4090d"):
            assert by[gpu].as_of == dt.date(2026, 10, 15)
            assert "(as_of: the row's own)" in by[gpu].source and words not in by[gpu].source
        assert by["l40s"].as_of == rep.as_of and f"(as_of: {words})" in by["l40s"].source
        assert by["l40s"].source.startswith("https://example-cloud.com/l40s (via gpuwise catalog CSV")
