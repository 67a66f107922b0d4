"""Branch productleft60 (session 45): four product leftovers of session 44's note, each test failing before its fix.

1. Knowledge strings had no length limit: a 300,000-character ``source``, ``name`` or ``notes`` in a --knowledge
   overlay loaded and printed whole in every report that cited it. Now a source, note, rationale, reason or
   description holds at most 20,000 characters (the bundled files' longest, a runtime.yaml source, 9,383) and any
   other string at most 500 (the longest, a prices.yaml export rule, 199), refused with the file, entry and field.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .clirun import gpuwise as cli


def _overlay(tmp_path: Path, name: str, body: str) -> str:
    kb = tmp_path / "kb"
    kb.mkdir(exist_ok=True)
    (kb / name).write_text(body, encoding="utf-8")
    return str(kb)


# ----------------------------------------------------------------------------- 1. knowledge strings' lengths
@pytest.mark.parametrize(("name", "body", "said"), [
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    name: '%s'\n" % ("x" * 300_000),
     "gpus.yaml: gpus[0] (id rtx-4090).name: must have at most 500 characters (300,000 given)"),
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    notes: '%s'\n" % ("x" * 300_000),
     "gpus.yaml: gpus[0] (id rtx-4090).notes: must have at most 20000 characters (300,000 given)"),
    ("models.yaml", "models:\n  - id: llama-3.1-8b\n    source: '%s'\n" % ("x" * 300_000),
     "models.yaml: models[0] (id llama-3.1-8b).source: must have at most 20000 characters (300,000 given)"),
    ("gpus.yaml", "gpus:\n  - id: rtx-4090\n    aliases: ['%s']\n" % ("x" * 600),
     "gpus.yaml: gpus[0] (id rtx-4090).aliases[0]: must have at most 500 characters (600 given)"),
])
def test_an_over_long_knowledge_string_is_refused_naming_its_field(tmp_path, name, body, said):
    """Before: the overlay loaded, exit 0, and the 300,000 characters were the GPU's name in `gpuwise gpus`."""
    r = cli("gpus", "--knowledge", _overlay(tmp_path, name, body), cwd=tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 2, out[:500]
    assert said in out and len(out) < 1_000, out[:500]


def test_every_bundled_knowledge_string_is_within_its_limit():
    """The limits leave room: every string of the bundled files is within them (the load validates each)."""
    import yaml

    from gpuwise.knowledge import load
    from gpuwise.knowledge.schema.base import PROSE_MAX, TEXT_MAX

    assert load() is not None
    longest: list[int] = []

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                longest.append(len(str(k)))
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
        elif isinstance(o, str):
            longest.append(len(o))

    for f in (Path(__file__).parents[1] / "knowledge").glob("*.yaml"):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    assert max(longest) <= PROSE_MAX and TEXT_MAX >= 199
