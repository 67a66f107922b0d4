"""A text recommendation imports only the views it uses (issue 26: the audit, estimate and batch
views and the chart geometry were 2.6 M instructions of a ~1,370 M ``recommend`` process): the other
views and the charts come when a report asks for them, and the package still names them all."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAZY = ("gpuwise.render.charts", "gpuwise.render.views.audit", "gpuwise.render.views.batch",
        "gpuwise.render.views.estimate")

SCRIPT = r"""
import json, sys
from gpuwise.decide.recommend import recommend
from gpuwise.render import report
result = recommend("examples/lora-70b.yaml")
text = report.render(result, sys.argv[1])
print(json.dumps([m for m in LAZY if m in sys.modules]))
""".replace("LAZY", repr(LAZY))


def _imported(fmt: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPUWISE_NO_CACHE": "1"}
    got = subprocess.run([sys.executable, "-c", SCRIPT, fmt], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=120)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout.splitlines()[-1])


def test_a_text_recommendation_leaves_the_other_views_and_the_charts_alone():
    assert _imported("text") == []


def test_an_html_recommendation_draws_its_charts():
    assert _imported("html") == ["gpuwise.render.charts"]


def test_every_view_is_still_named():
    from gpuwise.render import views
    from gpuwise.render.views.audit import AuditView
    from gpuwise.render.views.estimate import EstimateView

    assert views.AuditView is AuditView and views.EstimateView is EstimateView
    named = views.VIEWS
    assert named == {"recommend": views.RecommendView, "audit": AuditView, "estimate": EstimateView}
