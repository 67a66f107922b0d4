"""Rows SI01-SI18 (serveblind45): serving at a stated concurrency from pages no serving row had cited, scored blind.

The SGLang cookbook's speed runs at 16-100 clients (sgl-project/sgl-cookbook; sglang.bench_serving random 1k/1k,
1k/8k and 8k/1k, 5 x clients prompts each): GLM-4.6 BF16 on 8 x B200 at TP 8 (SGLang 0.5.6.post1), GLM-4.7-Flash BF16
on one B200 launched with --attention-backend triton (0.5.7) and Qwen3-Coder-Next BF16 on 2 x B200 at TP 2 ('0.5.8+').
The figures below are copied from the printouts; the checks redo their arithmetic and hold the harness's estimates to
the band the blind reading set (validation README, 'Rows SI01-SI18').
"""

from __future__ import annotations

import csv

import pytest

from .validation_rows import DATA, rows_in, serving_ratios

COOKBOOK = "https://github.com/sgl-project/sgl-cookbook/blob/"
PAGES = {
    "glm": (COOKBOOK + "ec650cf19166a1cd5adf5bb7ca5015e8c10518dc/docs/autoregressive/GLM/GLM-4.6.md",
            ("glm-4.5", "bf16", "b200", "8", "sglang", "0.5.6.post1", "8", "")),
    "flash": (COOKBOOK + "dea204d2ecd45fd685e19bdce7118d8f1d273310/docs/autoregressive/GLM/GLM-4.7-Flash.md",
              ("glm-4.7-flash", "bf16", "b200", "1", "sglang", "0.5.7", "1", "attention_backend=triton")),
    "next": (COOKBOOK + "60f2595db911f8738d9e4ec0cfe33c84d35d3692/docs/autoregressive/Qwen/Qwen3-Coder-Next.md",
             ("qwen3-next-80b-a3b", "bf16", "b200", "2", "sglang", "0.5.8", "2", "")),
}
# row -> (page, clients, prompts, total input, total generated, duration s, the printout's Concurrency, mean E2E ms,
#         output tok/s, mean TTFT ms, mean TPOT ms)
RUNS = {
    "SI01": ("glm", 16, 80, 39668, 40725, 72.06, 13.71, 12348.93, 565.14, 196.08, 24.24),
    "SI02": ("glm", 100, 500, 249831, 252162, 138.50, 90.91, 25183.97, 1820.61, 337.77, 49.97),
    "SI03": ("glm", 16, 80, 39668, 318226, 503.30, 13.88, 87349.22, 632.28, 228.54, 21.97),
    "SI04": ("glm", 64, 320, 158939, 1300705, 772.28, 56.17, 135563.36, 1684.24, 232.45, 33.47),
    "SI05": ("glm", 16, 80, 300020, 41589, 76.43, 13.95, 13329.63, 544.15, 339.88, 25.37),
    "SI06": ("glm", 64, 320, 1273893, 169680, 136.24, 58.46, 24889.40, 1245.44, 355.82, 46.62),
    "SI07": ("flash", 16, 80, 39668, 40805, 52.73, 13.98, 9217.90, 773.83, 299.02, 18.03),
    "SI08": ("flash", 100, 500, 249831, 252662, 91.48, 90.54, 16566.04, 2761.82, 433.94, 32.26),
    "SI09": ("flash", 16, 80, 39668, 318306, 473.92, 13.80, 81746.73, 671.65, 117.50, 20.36),
    "SI10": ("flash", 64, 320, 158939, 1301025, 714.72, 55.68, 124364.58, 1820.33, 149.40, 30.51),
    "SI11": ("flash", 16, 80, 300020, 41669, 89.59, 14.39, 16120.74, 465.10, 1943.94, 27.87),
    "SI12": ("flash", 64, 320, 1273893, 170000, 167.01, 59.68, 31147.52, 1017.93, 428.87, 58.06),
    "SI13": ("next", 16, 80, 39668, 40805, 39.06, 14.16, 6910.97, 1044.73, 183.48, 13.61),
    "SI14": ("next", 100, 500, 249831, 252662, 102.81, 94.28, 19385.20, 2457.53, 270.62, 38.57),
    "SI15": ("next", 16, 80, 39668, 318306, 237.77, 13.88, 41266.21, 1338.72, 140.73, 10.32),
    "SI16": ("next", 64, 320, 158939, 1301025, 384.82, 56.42, 67847.54, 3380.83, 212.24, 16.76),
    "SI17": ("next", 16, 80, 300020, 41669, 41.62, 14.27, 7421.29, 1001.19, 248.49, 14.13),
    "SI18": ("next", 64, 320, 1273893, 170000, 85.74, 59.75, 16008.12, 1982.80, 476.99, 29.81),
}
# est / published output tok/s as the rows stand (README): 1.048 (SI16) to 1.714 (SI11). Blind as first entered
# (GLM-4.7-Flash without its launch's --attention-backend triton): SI07-SI12 1.268 to 2.385; with the backend stated,
# 1.252 (SI08) to 2.114 (SI12: the Triton MLA decode at 64 sequences of ~4.2K tokens, TPOT 29.5 ms against 58.1);
# since sgltriton66 (the kernel's resident programs and longest-sequence split, README section sgltriton66) SI07-SI12
# 1.068 (SI08) to 1.714 (SI11), SI12 1.427
BAND = (1.04, 1.72)


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SI", 1, 20)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rows()) == sorted(RUNS)


@pytest.mark.parametrize("row_id", sorted(RUNS))
def test_a_row_is_its_printout(row_id):
    page, c, n, tin, tout, secs, in_flight, e2e, tps, ttft, tpot = RUNS[row_id]
    source, conditions = PAGES[page]
    r = _rows()[row_id]
    assert r["source"] == source
    assert (r["model"], r["precision"], r["gpu"], r["count"], r["framework"], r["framework_version"], r["tp"],
            r["workload_options"]) == conditions
    # the lengths are the run's means (random lengths drawn up to the stated ones): SI01 39,668 / 80 = 496
    assert (int(r["concurrency"]), int(r["prompts"]), int(r["prompt_tokens"]), int(r["output_tokens"])) == (
        c, n, round(tin / n), round(tout / n))
    assert n == 5 * c  # the page's 'Recommended: num_prompts = concurrency x 5'
    assert (float(r["output_tokens_per_s"]), float(r["ttft_ms"]), float(r["tpot_ms"])) == (tps, ttft, tpot)
    # the printout's own arithmetic: output over the run's duration; Little's law gives its 'Concurrency:' line
    # (SI01: 80 requests x 12.35 s / 72.06 s = 13.71); the clients' cap holds it, and the run's drain keeps it near
    # c k / (k + 1/2) for k = 5 prompts a client (14.5 of 16, README 'A run's drain')
    assert tout / secs == pytest.approx(tps, rel=1e-3)
    assert n * e2e / 1e3 / secs == pytest.approx(in_flight, rel=0.01)
    assert 0.85 * c < in_flight < c
    # a request's time is its first token and the rest at the mean TPOT, within 3%
    assert ttft + (tout / n - 1) * tpot == pytest.approx(e2e, rel=0.03)


def test_no_other_serving_row_cites_the_pages():
    pages = {source for source, _ in PAGES.values()}
    for name in ("serving_independent.csv", "serving_rate.csv"):
        with (DATA / name).open(newline="") as fh:
            assert not [r["id"] for r in csv.DictReader(fh) if r["source"] in pages and r["id"] not in RUNS]


def test_the_rows_are_estimated_within_their_band(tmp_path):
    from gpuwise import knowledge

    ratios = serving_ratios(knowledge.load(), tmp_path, set(_rows()))
    assert sorted(ratios) == sorted(RUNS)
    for row_id, ratio in ratios.items():
        assert BAND[0] <= ratio <= BAND[1], (row_id, ratio)
