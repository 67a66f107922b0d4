"""Measuring HTML reports in headless Chromium, as a phone (390 px) and a desktop (1280 px) show
them: the page's horizontal scroll, every visible chart's smallest text in CSS pixels after the
SVG's scaling, text drawn outside its chart, and tables wider than their box.

Each report is put in an ``<iframe srcdoc>`` of the wanted width inside one wrapper page (a headless
window cannot be narrower than 500 px, an iframe can), so one Chromium run measures many reports at
both widths; the wrapper reads the frames (same origin) once they have loaded and writes the
figures into its own DOM, which ``--dump-dom`` prints.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)

MEASURE_JS = r"""
function measure(win, doc) {
  function shown(el) { var r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; }
  var out = {innerWidth: win.innerWidth, scrollWidth: doc.scrollingElement.scrollWidth, charts: [],
             overflowing: []};
  doc.querySelectorAll("figure.chart > svg:not(.defs)").forEach(function (svg) {
    if (!shown(svg)) return;
    var box = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
    var chart = {id: svg.closest("figure").id || "", cls: svg.getAttribute("class") || "",
                 scale: vb && vb.width ? box.width / vb.width : 1, texts: 0, minPx: null, smallest: "",
                 outside: []};
    svg.querySelectorAll("text").forEach(function (t) {
      if (!shown(t) || !t.textContent.trim()) return;
      // the size on screen: the computed font size times the text's scale to CSS pixels (viewBox
      // and any transform), cross-checked against the height of the box the glyphs take
      var m = t.getScreenCTM(), scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      var px = parseFloat(win.getComputedStyle(t).fontSize) * scale;
      chart.texts += 1;
      if (chart.minPx === null || px < chart.minPx) { chart.minPx = px; chart.smallest = t.textContent.trim(); }
      var r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
        chart.outside.push(t.textContent.trim());
    });
    out.charts.push(chart);
  });
  doc.querySelectorAll(".scroll").forEach(function (el) {
    if (shown(el) && el.scrollWidth > el.clientWidth + 1)
      out.overflowing.push((el.querySelector("caption, th") || el).textContent.trim().slice(0, 60));
  });
  return out;
}
"""


def measure(pages: dict[str, str], widths: tuple[int, ...], workdir: Path) -> dict[str, dict[int, dict]]:
    """``{name: {width: figures}}`` for each HTML page at each width (one Chromium run)."""
    return start(pages, widths, workdir)()


def start(pages: dict[str, str], widths: tuple[int, ...], workdir: Path) -> Callable[[], dict[str, dict[int, dict]]]:
    """:func:`measure` begun: Chromium is started and left running; calling what this returns waits
    for it and gives the figures. (Most of Chromium's 5-8 s is waiting, not computing: a test
    process can run other tests meanwhile.)"""
    frames, names = [], []
    for name, text in pages.items():
        for w in widths:
            names.append((name, w))
            frames.append(f'<iframe style="width:{w}px;height:1200px;border:0;display:block" '
                          f'srcdoc="{html.escape(text, quote=True)}"></iframe>')
    wrapper = f"""<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
{''.join(frames)}
<script>{MEASURE_JS}
window.addEventListener("load", function () {{
  var all = [];
  document.querySelectorAll("iframe").forEach(function (f) {{
    all.push(measure(f.contentWindow, f.contentDocument));
  }});
  var pre = document.createElement("pre"); pre.id = "gpuwise-figures"; pre.textContent = JSON.stringify(all);
  document.body.appendChild(pre);
}});
</script></body></html>"""
    page = workdir / "measure.html"
    page.write_text(wrapper, encoding="utf-8")
    cmd = [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--virtual-time-budget=20000", f"--user-data-dir={workdir / 'profile'}", "--window-size=1400,1000",
           "--dump-dom", page.as_uri()]
    run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()

    def figures() -> dict[str, dict[int, dict]]:
        try:
            stdout, stderr = run.communicate(timeout=max(1.0, 240 - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()
            raise
        found = re.search(r'<pre id="gpuwise-figures">(.*?)</pre>', stdout, re.S)
        if not found:
            raise AssertionError(f"Chromium measured nothing (exit {run.returncode}): {stderr[-1500:]}")
        out: dict[str, dict[int, dict]] = {}
        for (name, w), fig in zip(names, json.loads(html.unescape(found.group(1))), strict=True):
            out.setdefault(name, {})[w] = fig
        return out

    figures.process = run  # type: ignore[attr-defined]  (for stopping it if no test asks)
    return figures
