"""The gpuwise command does not make pydantic search the installed packages for plugins
(gpuwise/cli.py: _no_plugin_search): importing importlib.metadata for that search was about 15 ms
of every process. pydantic's own switch, PYDANTIC_DISABLE_PLUGINS, decides: set to anything
other than __all__/1/true (an empty value included), plugins are looked for as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

PROBE = """
import sys
from gpuwise.cli import _no_plugin_search
_no_plugin_search()
from gpuwise.inputs.schema import Requirements, coerce
req = coerce(Requirements, "examples/lora-70b.yaml")  # builds the input models' validators
from pydantic.plugin import _loader
print(req.workload.model, "importlib.metadata" in sys.modules, list(_loader.get_plugins()) == [],
      hasattr(_loader, "PYDANTIC_ENTRY_POINT_GROUP"))
"""


def _probe(**env: str) -> list[str]:
    base = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**base, "PYTHONPATH": str(ROOT), **env},
                         capture_output=True, text=True, timeout=300, check=True)
    return out.stdout.split()


def test_no_plugin_search_by_default_and_the_same_input():
    model, searched, none, other_names = _probe()
    assert searched == "False" and none == "True"
    assert other_names == "True"  # a name the stand-in lacks comes from pydantic's real loader
    assert model == "llama-3.1-70b" == _probe(PYDANTIC_DISABLE_PLUGINS="")[0]


def test_an_empty_setting_keeps_pydantic_looking_for_plugins():
    _model, searched, none, _other = _probe(PYDANTIC_DISABLE_PLUGINS="")
    assert searched == "True" and none == "True"  # looked for them; none is installed here
