"""The files a run reads: what ``-o`` must never replace, for one report (gpuwise.cli) and for a
batch of audits (gpuwise.batch) alike; its own module so the two need not import each other."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import Any


def read_by_run(args: Any, files: list[str], *, cards: bool = True) -> list[str]:
    """Every file the run may read, which ``-o`` must never replace: the input files, the
    nvidia-smi reports their used cards name, the knowledge files (built-in and ``--knowledge``)
    and the rule files (built-in and ``--rules``), and gpuwise's own files (:func:`own_files`).
    Whatever cannot be listed here is left to the loaders, which say what is wrong with it.
    ``cards=False``: the input files cannot name nvidia-smi reports (a requirements or plan file
    has no ``used_cards``), so they are not parsed here only to look for them."""
    from .knowledge import FILES
    from .paths import knowledge_dir, rules_dir
    from .yamlio import read_yaml

    out = list(files)
    if cards and files:  # proposals: read as the audit reads them (inputs.schema.load_file), which reuses the parse
        from .inputs.proposal import Proposal
        from .inputs.schema import list_caps

        caps = list_caps(Proposal)
    for path in files if cards else []:
        with contextlib.suppress(Exception):  # a bad proposal is refused by the audit, not here
            if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO is read once, by the audit
                continue
            doc = read_yaml(Path(path), what="input file", caps=caps)  # or its refusal (yamlio._REFUSED)
            for card in doc.get("used_cards") or []:
                smi = card.get("nvidia_smi") if isinstance(card, dict) else None
                if isinstance(smi, str) and smi:
                    out.append(os.path.join(os.path.dirname(path) or ".", smi))
    out += own_files()
    dirs = [(knowledge_dir(), tuple(FILES)), (rules_dir(), None)]
    if getattr(args, "knowledge", None):
        dirs.append((Path(args.knowledge), tuple(FILES)))
    if getattr(args, "rules", None):
        dirs.append((Path(args.rules), None))
    for directory, names in dirs:
        with contextlib.suppress(OSError, ValueError):
            listed = names or [n for n in os.listdir(directory) if n.endswith((".yaml", ".yml"))]
            out += [os.path.join(directory, n) for n in listed]
    return out


_OWN: list[str] = []


def own_files() -> list[str]:
    """Every file of gpuwise's installation the run may read besides the knowledge and rules: its
    modules, its message catalogs (``--lang zh`` reads ``gpuwise.mo``) and the report templates
    (``reports/templates``, beside the package in a checkout). ``-o`` onto a template or the
    catalog replaced it, exit 0, and every later report was that report. Listed once a process."""
    if not _OWN:
        from .paths import templates_dir

        roots = [Path(__file__).resolve().parent]
        with contextlib.suppress(OSError):
            roots.append(templates_dir())
        seen: set[str] = set()
        for root in roots:
            for folder, _dirs, names in os.walk(root):
                for n in names:
                    path = os.path.join(folder, n)
                    if path not in seen:
                        seen.add(path)
                        _OWN.append(path)
    return _OWN
