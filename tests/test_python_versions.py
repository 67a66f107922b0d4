"""What differs between the Pythons gpuwise claims (3.10-3.13): durable-rules' build on 3.13 and its
deprecation warning on 3.12+, handled in gpuwise/compat_py.py (see README, Python versions)."""

from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from gpuwise import compat_py
from gpuwise.cli import main
from gpuwise.errors import SetupError

ROOT = Path(__file__).parent.parent

# the message a default build of durable-rules 2.0.28 gives on Python 3.13.0 (seen here)
UNDEFINED = ("/venv/lib/python3.13/site-packages/durable_rules_engine.cpython-313-x86_64-linux-gnu.so: "
             "undefined symbol: PyEval_CallObject")


def test_requires_python_says_what_is_tested():
    text = (ROOT / "pyproject.toml").read_text()
    assert 'requires-python = ">=3.10,<3.14"' in text
    for minor in (10, 11, 12, 13):
        assert f'"Programming Language :: Python :: 3.{minor}"' in text


def test_the_build_hint_names_the_flag():
    hint = compat_py.durable_import_hint(ImportError(UNDEFINED))
    assert hint is not None
    assert "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject" in hint and "--no-cache-dir" in hint
    assert compat_py.durable_import_hint(ModuleNotFoundError("No module named 'durable'", name="durable"))
    assert compat_py.durable_import_hint(ValueError("unrelated")) is None
    assert compat_py.durable_import_hint(ImportError("No module named 'numpy'")) is None


def test_import_durable_turns_a_failed_import_into_a_setup_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "durable_rules_engine", None)  # import now raises ImportError
    with pytest.raises(SetupError, match="CPPFLAGS"):
        compat_py.import_durable()


def test_the_command_prints_the_hint_on_one_line_and_exits_3(monkeypatch, capsys):
    import gpuwise.decide.recommend as rec

    def broken(*args, **kwargs):
        raise ImportError(UNDEFINED)

    monkeypatch.setattr(rec, "recommend", broken)
    code = main(["recommend", str(ROOT / "examples" / "lora-70b.yaml")])
    err = capsys.readouterr().err
    assert code == 3 and len(err.splitlines()) == 1
    assert "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject" in err and "internal error" not in err


def _utc_warnings(caught: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    return [w for w in caught if re.match(compat_py.UTCFROMTIMESTAMP_WARNING, str(w.message))]


def _durable_original_clock() -> float:
    """durable-rules 2.0.28's durable.engine._unix_now, as it is written there."""
    dt = datetime.datetime.now()
    epoch = datetime.datetime.utcfromtimestamp(0)
    return (dt - epoch).total_seconds()


def test_durable_rules_clock_raises_no_deprecation_warning_and_keeps_its_value():
    """durable.engine._unix_now calls datetime.utcfromtimestamp, deprecated in 3.12, once per action:
    gpuwise gives durable the same clock without that call, so not even -W error turns it into a failure."""
    _, durable_engine = compat_py.import_durable()
    assert durable_engine._unix_now is compat_py.durable_unix_now
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        original = _durable_original_clock()
        ours = durable_engine._unix_now()
    assert len(_utc_warnings(caught)) == (1 if sys.version_info >= (3, 12) else 0)  # from the original alone
    assert abs(ours - original) < 1.0  # the same clock: local time from the naive epoch
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        durable_engine._unix_now()  # would raise DeprecationWarning on 3.12+ with durable's own clock
        from gpuwise import recommend

        assert recommend(ROOT / "examples" / "lora-70b.yaml").recommendation is not None


def test_durable_rules_deprecation_warning_is_filtered_where_it_arises():
    """Any other call of durable's into utcfromtimestamp is filtered (module durable.engine), nothing else."""
    from durable import engine as durable_engine

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compat_py.silence_durable_warnings()
        warnings.warn_explicit(  # as durable.engine would raise it (3.12's message)
            "datetime.datetime.utcfromtimestamp() is deprecated and scheduled for removal in a future "
            "version.", DeprecationWarning, filename=durable_engine.__file__, lineno=1, module="durable.engine")
        warnings.warn("another deprecation", DeprecationWarning, stacklevel=1)
    assert _utc_warnings(caught) == []
    assert [str(w.message) for w in caught] == ["another deprecation"]  # nothing else is hidden


def test_a_durable_rules_built_without_the_flag_gives_the_hint_from_the_real_command(tmp_path):
    """Python 3.13 with a default build: the extension module fails to load with the message above
    wherever gpuwise first imports it (the rule-engine adapter raises its own error from None). The
    command says how to rebuild on one line, exit 3, not 'internal error'. Simulated on any Python by
    a finder that refuses the extension module as 3.13's loader does."""
    script = f"""
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name == "durable_rules_engine":
            raise ImportError({UNDEFINED!r})
        return None
sys.meta_path.insert(0, Refuse())
from gpuwise.cli import main
sys.exit(main(sys.argv[1:]))
"""
    for args in (["recommend", str(ROOT / "examples" / "lora-70b.yaml")],
                 ["audit", str(ROOT / "examples" / "proposal-good-lora-8xh100.yaml"),
                  str(ROOT / "examples" / "proposal-spot-h100-pretrain.yaml")]):
        p = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, cwd=tmp_path,
                           timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 3 and p.stdout == "", (p.returncode, p.stderr)
        assert len(p.stderr.splitlines()) == 1 and "internal error" not in p.stderr, p.stderr
        assert "built without the Python 3.13 flag" in p.stderr and compat_py.REINSTALL in p.stderr


def test_the_readme_and_ci_install_with_one_line_on_every_python():
    """Issue 26: one documented install line serves 3.10-3.13; .ci/run uses the same one."""
    import re
    from pathlib import Path

    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0].strip().splitlines()
    flag = "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject pip install --no-cache-dir"
    assert len(quick) == 2 and all(line.startswith(flag) for line in quick), quick
    assert quick[1].endswith("&& python -m pytest")
    ci = (root / ".ci" / "run").read_text()
    assert re.search(r"CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject pip install --quiet --no-cache-dir "
                     r"'\.\[test\]'", ci)
    assert "python -m pytest" in ci and '"3.13"' not in ci  # no per-version branch left
