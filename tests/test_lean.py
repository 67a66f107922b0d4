"""gpuwise.lean: a ``recommend`` process writing a report makes its results as lean records, not
pydantic classes (issue 26: building those classes was ~83 M instructions of the process). The
records must hold what pydantic's would (the fields, their order, defaults, aliases and the
conversions of ``made``), the report must be byte for byte the one pydantic's records give, and
anything lean records do not do must send the process round again with pydantic's."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RESULT_MODULES = ("gpuwise.ledger", "gpuwise.chart_series", "gpuwise.results_serving", "gpuwise.results_training",
                  "gpuwise.results", "gpuwise.results_audit")

SHAPES = r"""
import json, sys
LEAN = sys.argv[1] == "lean"
if LEAN:
    from gpuwise import lean
    assert lean.enable()
import importlib
out = {}
for name in RESULT_MODULES:
    module = importlib.import_module(name)
    for cls_name, cls in sorted(vars(module).items()):
        if isinstance(cls, type) and cls.__module__ == name and hasattr(cls, "__pydantic_fields__"):
            fields = cls.__pydantic_fields__
            if not isinstance(fields, dict):
                continue
            out[f"{name}.{cls_name}"] = [
                [n, repr(f.annotation), f.is_required(),
                 None if f.is_required() else repr(f.get_default(call_default_factory=True)), f.alias,
                 repr(getattr(f.validation_alias, "choices", f.validation_alias)), bool(f.metadata)]
                for n, f in fields.items()] + [sorted((k, repr(v)) for k, v in cls.model_config.items())]
print(json.dumps(out))
""".replace("RESULT_MODULES", repr(RESULT_MODULES))


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    env.pop("GPUWISE_LEAN", None)
    env.update(extra)
    return env


def _shapes(kind: str) -> dict:
    got = subprocess.run([sys.executable, "-c", SHAPES, kind], capture_output=True, text=True, env=_env(),
                         cwd=ROOT, timeout=120)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


def test_lean_records_have_pydantic_fields_order_defaults_and_aliases():
    """Every result class: the same fields in the same order, annotation, required or default (as
    ``model_construct`` fills it in), alias, validation aliases, whether it has constraints, and
    the merged ``model_config``, as pydantic's class of the same statement has them."""
    lean, pydantic = _shapes("lean"), _shapes("pydantic")
    assert len(pydantic) > 50  # the result classes, audit's included
    assert lean.keys() == pydantic.keys()
    for name in pydantic:
        assert lean[name] == pydantic[name], name


RECORDS = r"""
import sys
from gpuwise import lean
assert lean.enable()
from gpuwise.results import Finding, Recommendation, RecommendResult, Charts
from gpuwise.results_training import SuggestedChange
from gpuwise.checked import made
from gpuwise.ledger import line
f = made(Finding, dict(rule="r", severity="warning", topic="memory", message="m"))
assert type(f) is Finding and f.evidence == {} and f.step == "pitfalls"
assert f.model_fields_set == {"rule", "severity", "topic", "message"}
g = f.model_copy(update={"message": "n"})
assert g.message == "n" and f.message == "m" and "message" in g.model_fields_set and g != f and g == g.model_copy()
from gpuwise.ledger import period
assert hash(period("job", 2)) == hash(period("job", 2.0))
c = SuggestedChange.model_construct(field="x", before=1, to=2)  # a validation alias, as pydantic's model_construct
assert (c.before, c.after) == (1, 2)
ln = line("rent", "r", 3)  # an int amount of a float field: made a float, as pydantic's lax mode
assert ln.amount.__class__ is float
assert Charts.model_construct().memory is None
assert RecommendResult.__pydantic_fields__["charts"].get_default() == Charts.model_construct()
from gpuwise.results import StalePrice, Sentence
s = StalePrice(what="h100", as_of="2024-01-01", age_days=400)  # validated as made() would: the types kept
assert (s.what, s.age_days, s.model_fields_set) == ("h100", 400, {"what", "as_of", "age_days"})
assert Sentence(id="a", text="b", template="c").values == {}
for attempt in (lambda: StalePrice(what=1, as_of="", age_days=0), lambda: Sentence(id="a", text="b"),
                lambda: Finding(rule="r"), lambda: f.model_dump(), lambda: Finding.model_validate({}),
                lambda: setattr(f, "rule", "x"), lambda: __import__("pickle").dumps(f)):
    try:
        attempt()
    except lean.Unsupported:
        continue
    raise AssertionError("lean records leave validation errors, JSON, changes and pickles to pydantic")
print("ok")
"""


def test_lean_records_construct_copy_and_refuse_the_rest():
    got = subprocess.run([sys.executable, "-c", RECORDS], capture_output=True, text=True, env=_env(), cwd=ROOT,
                         timeout=120)
    assert (got.returncode, got.stdout.strip()) == (0, "ok"), got.stderr


def _process(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, env=_env(GPUWISE_NO_CACHE="1", **env),
                          cwd=ROOT, timeout=180)


ARGV = ("-m", "gpuwise", "recommend", "examples/inference-70b.yaml", "--detail", "full")


@pytest.fixture(scope="module")
def pydantic_report() -> subprocess.CompletedProcess:
    return _process(*ARGV, GPUWISE_LEAN="0")


def test_a_lean_report_is_pydantic_records_report(pydantic_report):
    """The real process, lean (the default) and with pydantic's records (``GPUWISE_LEAN=0``): the
    same full report, byte for byte, and the same exit status."""
    lean = _process(*ARGV)
    assert lean.returncode == pydantic_report.returncode == 0, lean.stderr
    assert lean.stdout == pydantic_report.stdout and lean.stderr == pydantic_report.stderr
    assert b"## Answer" in lean.stdout or b"Answer" in lean.stdout


RERUN = r"""
import os, sys
from gpuwise import lean
enable = lean.enable
def enable_then_patch():  # the report asks the records for JSON: lean records cannot give it
    on = enable()
    import gpuwise.render.report as R
    render = R.render
    def render_twice(result, *a, **k):
        print("lean" if lean.ENABLED else "pydantic", file=sys.stderr)
        result.model_dump(mode="json")
        return render(result, *a, **k)
    R.render = render_twice
    return on
lean.enable = enable_then_patch
sys.argv = ["gpuwise", *ARGS]
from gpuwise import cli
cli.run()
""".replace("ARGS", repr(ARGV[2:]))


def test_what_lean_records_cannot_do_runs_the_command_again_with_pydantic(pydantic_report):
    """A path that needs pydantic's records (here a report that asks for JSON) is not an error:
    the process starts the command again with them, and the report is the one they give."""
    got = _process("-c", RERUN)
    assert got.returncode == 0, got.stderr
    assert got.stderr.decode().split() == ["lean", "pydantic"]
    assert got.stdout == pydantic_report.stdout


def test_the_api_keeps_pydantic_records():
    """A program (or a test) calling ``main`` in-process never enables lean records: only the
    ``gpuwise`` process does (cli.run), for a report that is not JSON."""
    from gpuwise import cli, lean

    cli.main(["recommend", "examples/lora-70b.yaml", "--format", "md", "-o", os.devnull])
    assert not lean.ALLOWED and not lean.ENABLED
