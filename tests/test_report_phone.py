"""Every HTML report kind on a 390 px phone, a 768 px tablet and a 1280 px desktop, measured in
headless Chromium (tests/browser.py): no horizontal scroll, every chart's text at least 11 CSS px after the SVG's
scaling and inside its chart, no table that needs scrolling sideways, and on the phone the phone's
drawing of each chart.  Skipped where no Chromium is installed (CI); the layout they check is
also held by the geometry tests at the end, which need no browser.

11 px is the smallest text the report allows: WCAG has no minimum size, but 11-12 px is the usual
floor for captions on phones (Apple's Human Interface Guidelines list 11 pt as the smallest
text style); the issue asked for at least 11.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuwise.render import charts as C

from .browser import CHROMIUM, start

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"
PHONE, TABLET, DESKTOP = 390, 768, 1280
MIN_PX = 11.0


def pages() -> dict[str, str]:
    """The HTML reports measured: every kind, and a control."""
    from gpuwise.render import plan_view, report

    from .conftest import answer_of  # each answer once per test process

    def recommend(path: str):
        return answer_of("recommend", path)

    pages = {}
    for name in ("finetune-full-13b", "inference-70b", "qlora-70b-4090"):
        pages[f"recommend {name}"] = report.render(recommend(str(EX / f"{name}.yaml")), "html")
    full = recommend(str(EX / "pretrain-7b.yaml"))
    pages["recommend full"] = report.render(full, "html", detail="full")
    pages["recommend zh CNY"] = report.render(recommend(str(EX / "lora-70b.yaml")), "html", lang="zh", currency="CNY")
    used = answer_of("audit", EX / "proposal-used-3090-mining.yaml")
    pages["audit"] = report.render(used, "html")
    pages["audit full zh"] = report.render(used, "html", detail="full", lang="zh")
    batch = [str(EX / n) for n in ("proposal-16x4090-70b-full.yaml", "proposal-h100-old-driver.yaml",
                                   "proposal-used-3090-mining.yaml")]
    pages["batch audit"] = report.render_audit_summary(
        [(p, used if p.endswith("mining.yaml") else answer_of("audit", p), "") for p in batch], "html")
    pages["plan"] = plan_view.render(answer_of("plan", EX / "plan-team-4090.yaml"), "html")
    # the control: the audit as it was before phones had drawings of their own
    pages["audit, wide drawings only"] = re.sub(r'<svg class="narrow".*?</svg>', "",
                                                pages["audit"].replace('<svg class="wide"', "<svg"), flags=re.S)
    return pages


WIDTHS = (PHONE, TABLET, DESKTOP)


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    """The pages and Chromium's figures of them: begun early by this test process where it runs
    this module with the others that check the shipped answers (conftest.begin_measuring_early),
    else here."""
    if CHROMIUM is None:
        pytest.skip("no headless Chromium installed (apt-get install chromium); the phone layout is "
                    "measured in a browser")
    from . import conftest

    begun = conftest.MEASURING.pop("phone", None)
    if begun is None:
        shown = pages()
        begun = shown, start(shown, WIDTHS, tmp_path_factory.mktemp("chromium"))
    shown, figures_of = begun
    return shown, figures_of()


KINDS = ["recommend finetune-full-13b", "recommend inference-70b", "recommend qlora-70b-4090", "recommend full",
         "recommend zh CNY", "audit", "audit full zh", "batch audit", "plan"]


@pytest.mark.parametrize("name", KINDS)
@pytest.mark.parametrize("width", [PHONE, TABLET, DESKTOP])
def test_no_horizontal_scroll_and_readable_charts(figures, name, width):
    pages, measured = figures
    m = measured[name][width]
    assert m["innerWidth"] == width
    assert m["scrollWidth"] <= m["innerWidth"], f"the page scrolls sideways: {m['scrollWidth']} px"
    if width == PHONE:  # (a wide table of long ids may scroll in its own box on a desktop)
        assert m["overflowing"] == [], f"tables that scroll sideways: {m['overflowing']}"
    figures_in_page = pages[name].count('<figure class="chart"')
    assert figures_in_page >= (3 if name != "batch audit" else 6)
    assert len(m["charts"]) == figures_in_page  # each chart shows one drawing, the one for this screen
    for chart in m["charts"]:
        assert chart["texts"] >= 5, chart["id"]
        assert chart["minPx"] >= MIN_PX, (f"{chart['id']}: '{chart['smallest']}' is {chart['minPx']:.1f} px "
                                          f"(drawn at {chart['scale']:.2f} px per unit)")
        assert chart["outside"] == [], f"{chart['id']}: text outside the chart: {chart['outside']}"
        assert chart["cls"] == ("wide" if width == DESKTOP else "narrow"), chart["id"]


def test_the_measure_catches_wide_drawings_on_a_phone(figures):
    """The control: the same audit with only the wide drawings (as before phones had their own)
    measures 4-6 px at 390 px -- 11-12 px text in a 760-780 unit drawing scaled into about 350 px
    -- and passes on the desktop. The phone's drawings are shown at about their own size."""
    _, measured = figures
    control = measured["audit, wide drawings only"]
    assert len(control[PHONE]["charts"]) == 3
    for c in control[PHONE]["charts"]:
        assert 0.4 < c["scale"] < 0.5 and 4.0 < c["minPx"] < 6.5, c
    assert all(c["minPx"] >= MIN_PX for c in control[DESKTOP]["charts"])
    for c in measured["audit"][PHONE]["charts"]:
        assert 0.95 <= c["scale"] <= 1.1, c


# ----------------------------------------------------------------- geometry, without a browser
def _texts(geo: dict) -> list[tuple[float, float, str, str]]:
    """(x, y, anchor, text) of the labels a chart's geometry places (ticks shown, names, totals)."""
    out = []
    for t in geo.get("ticks", []) + geo.get("xticks", []):
        if t.get("show", True):
            out.append((t["x"], 0.0, t.get("anchor", "middle"), t["label"]))
    for r in geo.get("rows", []):
        out += [(line["x"], line["y"], "start", line["text"]) for line in r["label_lines"]]
    for p in geo.get("points", []):
        if p["show_label"]:
            out.append((p["lx"], p["ly"], p["anchor"], p["text"]))
    return out


def _inside(geo: dict, px: float) -> list[str]:
    bad = []
    for x, _, anchor, text in _texts(geo):
        w = C.text_width(text, px)
        lo = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        if lo < 0 or lo + w > geo["width"]:
            bad.append(text)
    return bad


def test_narrow_memory_bars_wrap_long_names_inside_the_chart():
    long = "32 × NVIDIA B200 (HGX B200) 180GB (the alternative)"
    series = [{"label": long, "capacity": 180e9, "usable": 171e9, "parts": {"weights": 26e9, "activations": 40e9}},
              {"label": "8 × 英伟达 GeForce RTX 4090 24GB（提议的方案，买入后使用十二个月）", "capacity": 24e9,
               "parts": {"weights": 20e9, "optimizer": 9e9}}]
    g = C.memory_bars(series, fmt=lambda v: f"{v / 1e9:g} GB", **C.narrow("memory"))
    assert g["width"] == C.NARROW == 340
    first, second = g["rows"]
    assert [line["text"] for line in first["label_lines"]] == ["32 × NVIDIA B200 (HGX B200) 180GB (the",
                                                               "alternative)"]
    assert len(second["label_lines"]) == 2  # Chinese wraps between characters
    for row in g["rows"]:  # each line fits: 13 px bold, 0.64 em a Latin letter, 1 em a Chinese one
        for line in row["label_lines"]:
            assert C.text_width(line["text"], C.NARROW_PX, bold=True) <= C.NARROW - 4
        assert row["side_x"] == g["x0"] and row["side_y"] > row["y"] + row["h"]  # the total under its bar
    assert second["y"] > first["side_y"]  # rows do not overlap
    assert _inside(g, C.NARROW_PX) == []
    wide = C.memory_bars(series, fmt=lambda v: f"{v / 1e9:g} GB")
    assert [len(r["label_lines"]) for r in wide["rows"]] == [1, 1]  # the wide chart keeps one line


def test_narrow_axes_drop_labels_that_would_touch_and_keep_edges_inside():
    ticks = [{"x": x, "label": label} for x, label in ((5, "$0"), (60, "$20k"), (90, "$40k"), (335, "$100k"))]
    out = C.thin(ticks, 12, 340)
    assert [t["show"] for t in out] == [True, True, False, True]  # "$40k" would touch "$20k"
    assert out[0]["anchor"] == "start" and out[-1]["anchor"] == "end" and out[1]["anchor"] == "middle"
    # 12 px: "$20k" is 4 × 0.6 × 12 = 28.8 px wide, centred on 60: 45.6 to 74.4; "$40k" would start at 75.6
    assert C.text_width("$20k", 12) == pytest.approx(28.8)


def test_narrow_scatter_labels_stay_inside_or_go_to_the_table():
    pts = [{"label": f"{n} × NVIDIA H100 SXM5 80GB", "wall_days": d, "cost_usd": c, "feasible": True,
            "chosen": n == 8} for n, d, c in ((8, 10, 30000), (16, 5.2, 31000), (32, 2.7, 33000), (64, 1.4, 36000))]
    g = C.time_cost(pts, chosen_suffix=" (the answer)", **C.narrow("time_cost"))
    assert g["width"] == 340
    assert _inside(g, C.NARROW_PX) == []
    assert all(p["number"] is None for p in g["points"])  # names or nothing: no numbers on a phone
    wide = C.time_cost(pts, chosen_suffix=" (the answer)")
    assert all(p["show_label"] for p in wide["points"])  # 760 units hold every name


def test_narrow_cost_curve_leaves_the_break_even_label_to_the_legend():
    curve = {"months": [0, 6, 12], "rent": [0, 50, 100], "buy": [60, 70, 80], "break_even_month": 7.5}
    wide, narrow = C.cost_curve(curve), C.cost_curve(curve, **C.narrow("cost"))
    assert wide["break_even"]["show_label"] and not narrow["break_even"]["show_label"]
    assert narrow["width"] == 340 and narrow["break_even"]["x"] < 340 - 62


def test_wrap_breaks_chinese_between_characters_but_keeps_a_short_aside_whole():
    # 13 px bold: the name is 32 × 0.64 × 13 = 266 px; with "（推荐方案）" (6 × 13 = 78 px) it is 344
    assert C.wrap("4 × NVIDIA GeForce RTX 3090 24GB（推荐方案）", 13, 332, True) == [
        "4 × NVIDIA GeForce RTX 3090 24GB", "（推荐方案）"]
    # 7 × 13 = 91 px fits in 100, 8 × 13 = 104 does not
    assert C.wrap("每块显卡的显存构成与容量对比", 13, 100) == ["每块显卡的显存", "构成与容量对比"]
    assert C.wrap("no、comma，first", 13, 60) == ["no、", "comma，", "first"]  # no line starts with "，"
    assert C.wrap("short", 13, 300) == ["short"]
