"""gpuwise.later: in a ``recommend`` process writing a report from lean records, a candidate
record is made when the report first reads more of it than the fields it starts with. What the
report reads must be the record ``candidate_out`` makes (every field, its order, equality, copies),
the brief report must be byte for byte the one made from pydantic's records, and a brief report of
the whole catalog must make only the few candidates it shows."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GPUWISE_LEAN", None)
    env.update(extra)
    return env


def _process(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, env=_env(GPUWISE_NO_CACHE="1", **env),
                          cwd=ROOT, timeout=180)

RECORD = r"""
from gpuwise import lean
assert lean.enable()
import copy
from gpuwise.later import later
from gpuwise.ledger import Period, built
from gpuwise.results import Candidate

def whole():
    made.append(1)
    return built(Candidate, dict(gpu="h100-80gb-sxm", gpu_name="H100 SXM", count=8, nodes=1, feasible=True, rank=2,
                                 memory_per_gpu_bytes=1, capacity_per_gpu_bytes=2, usable_per_gpu_bytes=2,
                                 acquisition="rent", reasons=["a"], stage="decided", wall_days=3.5,
                                 total_cost_usd=1e5))

made = []
eager = {"gpu": "h100-80gb-sxm", "count": 8, "acquisition": "rent", "feasible": True, "rank": 2}
c = later(Candidate, eager, whole)
assert isinstance(c, Candidate) and type(c).__name__ == "Candidate"
assert (c.gpu, c.count, c.acquisition, c.feasible, c.rank) == ("h100-80gb-sxm", 8, "rent", True, 2) and made == []
assert c.gpu_name == "H100 SXM" and made == [1]  # a field it does not start with: the record is made, once
ref = whole()
assert list(c) == list(ref) and c.model_fields_set == ref.model_fields_set and c.reasons == ["a"]
assert c.memory_breakdown == ref.memory_breakdown  # a default the record filled
try:
    c.no_such_field
except AttributeError:
    pass
else:
    raise AssertionError("a name that is no field is still missing")
for read in (lambda x: list(x), repr, lambda x: copy.copy(x).__dict__, lambda x: copy.deepcopy(x).__dict__,
             lambda x: x.model_copy(update={"rank": 3}).rank, lambda x: x.model_fields_set):
    made.clear()
    d = later(Candidate, eager, whole)
    assert read(d) == read(ref) and made == [1], read
made.clear()
assert later(Candidate, eager, whole) == ref and made == [1]
made.clear()
try:  # a record with lists in it is no key, made or not (as the record it stands for)
    hash(later(Candidate, eager, whole))
except TypeError:
    assert made == [1]
else:
    raise AssertionError("hashed")
print("ok")
"""

LINE = r"""
from gpuwise import lean
assert lean.enable()
from gpuwise import ledger as L
from gpuwise.estimators import cost as K
from gpuwise.later import _get
from gpuwise.messages import formula

inputs = {"usd_per_hour": 2.5, "hours": 10.0}
args = ("rent", K._item("item.rent", gpus=8, provider="lambda"), 25.0 * 8, formula("formula.rent"), inputs)
ln, now = L.line(*args), L._line(*args, ())
inputs["hours"] = 99.0  # the caller's dict changed after: the line keeps what it was given
assert type(ln) is not type(now) and isinstance(ln, L.LedgerLine)
led = L.ledger(L.period("job", 10.0), [ln, L.line("setup", K._item("item.setup"), 0.0, formula("formula.setup"))])
assert (led.total, led.cash_out, [x.kind for x in led.lines]) == (200.0, 200.0, ["rent"])
assert _get(ln, "__pydantic_private__") is not None  # totals read kind and amount only: not worded yet
assert ln.formula == now.formula and list(ln) == list(now) and ln == now and ln.inputs["hours"] == 10.0
print("ok")
"""


def test_a_later_ledger_line_is_worded_when_read():
    """A ledger line of a report's lean records: the totals read its kind and amount, its words are
    made when read, from the values it was given, and equal the line made at once."""
    got = subprocess.run([sys.executable, "-c", LINE], capture_output=True, text=True, env=_env(), cwd=ROOT,
                         timeout=120)
    assert (got.returncode, got.stdout.strip()) == (0, "ok"), got.stderr


def test_a_later_record_reads_as_the_record_it_stands_for():
    got = subprocess.run([sys.executable, "-c", RECORD], capture_output=True, text=True, env=_env(), cwd=ROOT,
                         timeout=120)
    assert (got.returncode, got.stdout.strip()) == (0, "ok"), got.stderr


def test_the_api_makes_every_candidate_at_once():
    """Without lean records (JSON, the Python API, tests) ``later`` is the maker itself."""
    from gpuwise.later import later
    from gpuwise.results import Candidate

    sentinel = object()
    assert later(Candidate, {"gpu": "x"}, lambda: sentinel) is sentinel


COUNTED = r"""
import sys
from gpuwise import cli, lean
made = []
enable = lean.enable
def enable_then_count():  # the result modules are imported after lean records are enabled
    on = enable()
    from gpuwise.decide import result
    import gpuwise.render.report as report
    out, render = result.candidate_out, report.render
    def counted(*a, **k):
        made.append(1)
        return out(*a, **k)
    def rendered(r, *a, **k):
        got = render(r, *a, **k)
        print("lean", lean.ENABLED, "candidates", len(r.candidates), "made", len(made), file=sys.stderr)
        return got
    result.candidate_out, report.render = counted, rendered
    return on
lean.enable = enable_then_count
sys.argv = ["gpuwise", "recommend", "examples/inference-70b.yaml"]
cli.run()
"""


def test_a_brief_report_makes_only_the_candidates_it_shows():
    """inference-70b over the whole catalog, brief text report: the same bytes as from pydantic's
    records (where every candidate is made), with only the answer, the runner-up and the
    alternatives' records made of the ~150 candidates judged."""
    pydantic = _process("-m", "gpuwise", "recommend", "examples/inference-70b.yaml", GPUWISE_LEAN="0")
    got = _process("-c", COUNTED)
    assert got.returncode == pydantic.returncode == 0, got.stderr
    assert got.stdout == pydantic.stdout
    said = got.stderr.decode().split()
    assert said[:2] == ["lean", "True"], said
    total, made = int(said[said.index("candidates") + 1]), int(said[said.index("made") + 1])
    assert total > 100 and 0 < made <= 12, said
