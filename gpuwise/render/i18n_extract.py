"""Babel extractors for the sentences that live in YAML: rule titles, messages and fixes
(``rules/*.yaml``), the decision's sentences (``reports/messages.yaml``) and the knowledge base's display
names a report says in a sentence (:data:`KNOWLEDGE_NAMES`). Their English text is the msgid; a report
translates a result's templates, and a value that is one of those names, through the same catalog.

Used from ``gpuwise/render/locale/babel.cfg`` (``[gpuwise.render.i18n_extract:extract_yaml: ...]``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's where there is one: the same nodes and data


def _lines(text: str) -> dict[str, int]:
    """First line on which each string value appears (for the catalog's references)."""
    out: dict[str, int] = {}
    for node in yaml.compose_all(text, Loader=_Loader):
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, yaml.ScalarNode):
                out.setdefault(str(n.value), n.start_mark.line + 1)
            elif isinstance(n, yaml.SequenceNode):
                stack += n.value
            elif isinstance(n, yaml.MappingNode):
                stack += [v for pair in n.value for v in pair]
    return out


KNOWLEDGE_NAMES = (("speculative_methods", "name"), ("quantization_methods", "name"), ("frameworks", "name"),
                   ("training_stacks", "name"), ("quantization", "example"))
"""The knowledge sections whose entries' display names a report puts in a sentence (knowledge/serving.yaml: the
speculative and quantization methods, the serving frameworks; knowledge/runtime.yaml: the training stacks, and
the quantized formats' descriptions a weights formula names as its ``format``), worded in the report's language
(gpuwise/render/words.py ``VALUE_WORDS`` 'knowledge', ``input_value``): cents59, a zh report read 'multi-token
prediction (the model's own MTP module)'."""


def extract_yaml(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    text = fileobj.read().decode("utf-8")
    data = yaml.load(text, Loader=_Loader) or {}
    lines = _lines(text)
    found: list[str] = []
    if isinstance(data.get("messages"), dict):  # reports/messages.yaml
        found += [str(v) for v in data["messages"].values()]
    for rule in data.get("rules", []) or []:  # a rule file
        then = rule.get("then", {}) or {}
        found += [s for s in (rule.get("title"), then.get("message"), then.get("fix")) if s]
    for section, field in KNOWLEDGE_NAMES:  # a knowledge file
        entries = data.get(section)
        entries = entries.values() if isinstance(entries, dict) else entries if isinstance(entries, list) else []
        found += [str(e[field]) for e in entries if isinstance(e, dict) and e.get(field)]
    for s in found:
        yield lines.get(s, 0), "gettext", s, []
