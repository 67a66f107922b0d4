"""The docs as a new user reads them (docs57): docs/formats.md names every field the input schemas take and no field
they do not, its defaults (and the README's defaults table) are the schemas' own, every option of every command is in
it, and the links of README.md and docs/ point to files and headings that exist, none outside the repository."""

from __future__ import annotations

import argparse
import re
import typing
from pathlib import Path

import pydantic
import yaml
from pydantic_core import PydanticUndefined

from gpuwise.cli import build_parser
from gpuwise.inputs.proposal import Proposal
from gpuwise.inputs.schema import CURRENCY_FIELDS, Constraints, Environment, Requirements, Workload
from gpuwise.plan.schema import PlanFile

ROOT = Path(__file__).resolve().parents[1]
FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# a file's section of formats.md, and the models it documents (a shared section, documented once, left out)
SECTIONS = [("## Requirements file", Requirements, ()),
            ("## Proposal file", Proposal, (Workload, Constraints, Environment)),
            ("## Plan file", PlanFile, (Workload,))]


def _section(title: str) -> str:
    start = FORMATS.index(title)
    end = FORMATS.find("\n## ", start + len(title))
    return FORMATS[start:end]


def _models(annotation: object) -> list[type[pydantic.BaseModel]]:
    found = []
    for a in (annotation, *typing.get_args(annotation)):
        for b in (a, *typing.get_args(a)):
            if isinstance(b, type) and issubclass(b, pydantic.BaseModel):
                found.append(b)
    return list(dict.fromkeys(found))


def _fields(model: type[pydantic.BaseModel], skip: tuple = (), prefix: str = ""):
    """(dotted path, name, field) of every field, nested sections included, those of a skipped model left out."""
    for name, f in model.model_fields.items():
        subs = _models(f.annotation)
        if any(s in skip for s in subs):
            continue
        yield prefix + name, name, f
        for sub in subs:
            yield from _fields(sub, skip, prefix + name + ".")


def _rows(text: str):
    """The cells of each table row that documents fields (a first cell in backquotes)."""
    for line in text.splitlines():
        if line.startswith("| `"):
            yield [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]


def test_every_input_field_is_documented_in_its_section():
    missing = []
    for title, model, skip in SECTIONS:
        text = _section(title)
        for path, name, _ in _fields(model, skip):
            if not any(form in text for form in (f"`{path}", f"`{name}", f".{name}`", f"{name}`", f"{{{name}:")):
                missing.append(path)
    assert missing == []


def test_every_documented_field_is_in_the_schema():
    names = {n for _, model, _ in SECTIONS for _, n, _ in _fields(model)}
    names |= {v.format(cur="cny") for v in CURRENCY_FIELDS.values()}  # budget_cny: the yuan-named amounts
    start, end = FORMATS.index("## Requirements file"), FORMATS.index("## JSON output")
    unknown = [tok for cells in _rows(FORMATS[start:end]) for tok in re.findall(r"`([^`]+)`", cells[0])
               if not all(part.removesuffix("[]") in names for part in tok.split("."))]
    assert unknown == []


NONE = object()


def _literal(cell: str):
    """A default cell that is one literal (`bf16`, 16, `false`, `[]`), as the schema would hold it; else None."""
    m = re.fullmatch(r"`?([^`\s;,(]+)`?", cell)
    if not m:
        return None
    word = m.group(1)
    if word in ("—", "none", "unknown") and not cell.startswith("`"):  # no value: the schema holds None
        return NONE
    for kind in (int, float):
        try:
            return kind(word)
        except ValueError:
            pass
    return {"true": True, "false": False, "[]": []}.get(word, word)


def test_a_stated_literal_default_is_the_schemas():
    wrong, checked = [], 0
    for title, model, skip in SECTIONS:
        fields = {}
        for path, name, f in _fields(model, skip):
            fields.setdefault(path, f)
            fields.setdefault(name, f)
        for cells in _rows(_section(title)):
            if len(cells) != 4 or (value := _literal(cells[2])) is None or value == "required":
                continue
            for tok in re.findall(r"`([^`]+)`", cells[0]):
                f = fields.get(tok.removeprefix("owned[].").removeprefix("workloads[].")) \
                    or fields.get(tok.split(".")[-1])
                if f is None or f.default is PydanticUndefined:
                    continue
                checked += 1
                if f.default != (None if value is NONE else value):
                    wrong.append((tok, cells[2], f.default))
    assert wrong == [] and checked >= 70  # 71 cells on 2026-12-06


def test_the_readme_defaults_table_is_the_schemas():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| field | default | why |"):text.index("GPU and model names are matched leniently")]
    model = {"workload": Workload, "constraints": Constraints}
    checked = 0
    for cells in _rows(table):
        fields = re.findall(r"`([^`]+)`", cells[0])
        values = [_literal(v.strip()) for v in cells[1].split(",")]
        if len(fields) != len(values) or None in values:
            continue
        section = fields[0].split(".")[0]
        for tok, value in zip(fields, values, strict=True):
            name = tok.split(".")[-1]
            if section not in model or (isinstance(value, str) and value.startswith("[")):
                continue
            checked += 1
            assert model[section].model_fields[name].default == (None if value is NONE else value), (tok, value)
    assert checked >= 14


def _subcommands(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def test_every_command_option_is_in_formats_md():
    missing = []
    for name, sub in _subcommands(build_parser()):
        parsers = [(name, sub), *((f"{name} {n}", p) for n, p in _subcommands(sub))]
        for label, p in parsers:
            missing += [(label, o) for a in p._actions for o in a.option_strings
                        if o.startswith("--") and o != "--help" and o not in FORMATS]
        assert f"`gpuwise {name}" in FORMATS, name
    assert missing == []


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_of_the_docs_resolves_inside_the_repository():
    bad = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "/tmp/" not in text, doc.name
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists() or ROOT not in file.parents:
                bad.append((doc.name, target))
                continue
            if anchor:
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), re.M)
                if anchor not in {_anchor(h) for h in headings}:
                    bad.append((doc.name, target))
    assert bad == []


def test_the_docs_yaml_examples_are_read_as_written(tmp_path: Path):
    """formats.md's plan file validates; each knowledge.md overlay example (`# DIR/<file>.yaml`) loads over the built-in
    knowledge base (the policy one sets the value it gives)."""
    from gpuwise import knowledge

    blocks = re.findall(r"```ya?ml\n(.*?)```", FORMATS, re.S)
    plans = [yaml.safe_load(b) for b in blocks if "horizon_months:" in b]
    assert plans and all(PlanFile.model_validate(p) for p in plans)
    text = (ROOT / "docs" / "knowledge.md").read_text(encoding="utf-8")
    overlays = [(m.group(1), b) for b in re.findall(r"```ya?ml\n(.*?)```", text, re.S)
                if (m := re.match(r"# DIR/(\w+\.yaml)", b))]
    assert len(overlays) >= 5
    for i, (name, body) in enumerate(overlays):
        folder = tmp_path / f"overlay{i}"
        folder.mkdir()
        (folder / name).write_text(body, encoding="utf-8")
        kb = knowledge.load(folder)
        if name == "policy.yaml":
            assert kb.policy["value_of_a_day_usd"].value == yaml.safe_load(body)["value_of_a_day_usd"]
