"""What differs between the Pythons gpuwise claims (3.10-3.13): durable-rules' build on 3.13 and its
deprecation warning on 3.12+, handled in engine/compat_py.py (see README, Python versions)."""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import pytest

from engine import compat_py
from engine.cli import main
from engine.errors import SetupError

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
    import engine.decide.recommend as rec

    def broken(*args, **kwargs):
        raise ImportError(UNDEFINED)

    monkeypatch.setattr(rec, "recommend", broken)
    code = main(["recommend", str(ROOT / "examples" / "lora-70b.yaml")])
    err = capsys.readouterr().err
    assert code == 3 and len(err.splitlines()) == 1
    assert "CPPFLAGS=-DPyEval_CallObject=PyObject_CallObject" in err and "internal error" not in err


def _utc_warnings(caught: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    return [w for w in caught if re.match(compat_py.UTCFROMTIMESTAMP_WARNING, str(w.message))]


def test_durable_rules_deprecation_warning_is_filtered_where_it_arises():
    """durable.engine._unix_now calls datetime.utcfromtimestamp, deprecated in 3.12."""
    from durable import engine as durable_engine

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        durable_engine._unix_now()
        unfiltered = _utc_warnings(caught)
    assert len(unfiltered) == (1 if sys.version_info >= (3, 12) else 0)  # the warning this test is about
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compat_py.silence_durable_warnings()
        durable_engine._unix_now()
        warnings.warn("another deprecation", DeprecationWarning, stacklevel=1)
    assert _utc_warnings(caught) == []
    assert [str(w.message) for w in caught] == ["another deprecation"]  # nothing else is hidden
