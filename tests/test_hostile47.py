"""Hostile round 47's fixed failures (benchmarks/hostile_round47.py), each failing before its fix: names and files as
a user copies them from elsewhere --

* a GPU named with a form factor or memory size its only part has was an unknown GPU ('MI300X OAM': the MI300X is
  sold as an OAM module only, AMD's data sheet; 'L40S PCIe': the L40S is a PCIe card; 'H20 SXM'; 'RTX 6000 Ada 48GB';
  'DGX H100', a system of H100 SXM5 modules): docs/names.md rule 7, a word the part lacks keeping the name unknown;
* a model named by where its weights are -- a Hugging Face page's address, a repository at a revision, ollama's
  ``hf.co/org/repo:Q4_K_M``, a split GGUF's ``-00001-of-00002.gguf`` (llama.cpp's gguf-split names), a Windows path --
  was an unknown model: read as the release it names (rule 6);
* an owned GPU ``bought`` and a used card ``purchased`` in a year before the GPU launched were taken (an RTX 4090,
  launched 2022, bought 2019-06): refused as ``manufactured`` already was;
* ``--currency RMB`` / ``yuan`` / ``¥`` / ``$`` and ``--lang cn`` / ``中文`` / ``english`` were refused with the
  choices alone: the choice is offered;
* an overlay file misnamed (``model.yaml``, ``gpus.yml``, ``GPUS.YAML``) was given the ten names: the one meant;
* a file of blank lines with a tab was 'a tab indents this line': the file is empty; a file saved as Latin-1 was
  'not UTF-8 text (binary file?): bad byte at offset 603': its line, column and character named;
* ``-o reports/`` (a folder's name) was 'cannot tell the report format from the suffix '(none)'': a directory.
"""

from __future__ import annotations

import pytest
import yaml

from gpuwise.errors import UserError

from .clirun import gpuwise as cli

LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
SERVE = "workload: {task: inference, model: %s, precision: %s, prompt_tokens: 1000, output_tokens: 200}\n"


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


# ----------------------------------------------------------------------------- GPU names: rule 7
@pytest.mark.parametrize(("typed", "ident"), [
    ("MI300X OAM", "mi300x"), ("AMD Instinct MI325X OAM", "mi325x"), ("MI355X OAM", "mi355x"), ("L40S PCIe", "l40s"),
    ("RTX 6000 Ada 48GB", "rtx-6000-ada"), ("DGX H100", "h100-80gb-sxm"), ("HGX B200", "b200"),
    ("H20 SXM", "h20-96gb-sxm"),
])
def test_a_form_factor_or_memory_the_part_has_names_it(kb, typed: str, ident: str) -> None:
    assert kb.gpu(typed).id == ident


def test_a_default_variant_named_with_its_form_factor_is_said_as_the_default(kb) -> None:
    # both H20s are HGX modules (96 GB HBM3 and 141 GB HBM3e): 'H20 SXM' is the listed default, as 'H20' is
    r = kb.gpu("H20 SXM")
    assert r.note_id == "name.default" and r.note_values["id"] == "h20-96gb-sxm"


@pytest.mark.parametrize("typed", ["H800 PCIe", "L40S SXM", "H100 NVL 188GB", "MI300X PCIe", "RTX 6000 Ada 96GB"])
def test_a_form_factor_or_memory_the_part_lacks_keeps_it_unknown(kb, typed: str) -> None:
    with pytest.raises(UserError, match="unknown gpu"):
        kb.gpu(typed)


def test_a_price_row_named_mi300x_oam_is_imported(tmp_path) -> None:
    (tmp_path / "c.csv").write_text("gpu,gpus,price\nMI300X OAM,8,20\n", encoding="utf-8")
    r = cli("prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "gpu: mi300x" in (tmp_path / "ov" / "clouds.yaml").read_text()


# ----------------------------------------------------------------------------- model names: where the weights are
@pytest.mark.parametrize(("typed", "ident"), [
    ("https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/tree/main", "llama-3.1-8b"),
    ("https://huggingface.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/resolve/main/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
     "llama-3.1-8b"),
    ("meta-llama/Llama-3.1-8B-Instruct@main", "llama-3.1-8b"),
    ("hf.co/Qwen/Qwen3-32B-GGUF:Q4_K_M", "qwen3-32b"),
    ("Meta-Llama-3.1-70B-Instruct-Q4_K_M-00001-of-00002.gguf", "llama-3.1-70b"),
    ("C:\\models\\Llama-3.1-8B-Instruct-Q8_0.gguf", "llama-3.1-8b"),
])
def test_a_model_named_by_where_its_weights_are_is_its_release(kb, typed: str, ident: str) -> None:
    r = kb.model(typed)
    assert r.id == ident and r.note_id == "name.packaged", r


@pytest.mark.parametrize("typed", ["meta-llama/Llama-3.1-8B-Instruct:latest", "llama-3.1-7b-00001-of-00002.gguf",
                                   "https://huggingface.co/meta-llama/tree/main"])
def test_what_is_left_of_an_address_must_still_be_a_whole_name(kb, typed: str) -> None:
    with pytest.raises(UserError):
        kb.model(typed)


def test_a_split_gguf_served_at_its_file_precision(tmp_path) -> None:
    (tmp_path / "r.yaml").write_text(SERVE % ("Meta-Llama-3.1-70B-Instruct-Q4_K_M-00001-of-00002.gguf", "int4"),
                                     encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h200", cwd=tmp_path)
    assert r.returncode == 0 and "read as Llama 3.1 70B" in r.stdout.replace("\n", " ").replace("  ", " "), r.stderr


# ----------------------------------------------------------------------------- dates before the GPU was sold
def _plan(tmp_path, bought: str) -> None:
    doc = {"horizon_months": 6, "owned": [{"gpu": "RTX 4090", "count": 4, "hosting": "office", "bought": bought}],
           "workloads": [{"name": "ft", "workload": LORA8, "cadence": {"per_month": 1}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")


def test_an_owned_gpu_bought_before_its_launch_is_refused(tmp_path) -> None:
    # gpus.yaml: rtx-4090 launch_year 2022 (NVIDIA's GeForce RTX 4090 launch, October 2022)
    _plan(tmp_path, "2019-06")
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "plan.yaml: owned[0].bought: bought 2019-06, before the NVIDIA GeForce RTX 4090 24GB launched (2022)" in err
    zh = _one_line(cli("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path))
    assert "owned[0].bought: 购买于 2019-06，早于" in zh and "（2022）" in zh


def test_an_owned_gpu_bought_in_its_launch_year_is_planned(tmp_path) -> None:
    _plan(tmp_path, "2022-10")
    r = cli("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "bought" not in r.stderr, r.stderr


def test_a_used_card_purchased_before_its_launch_is_refused(tmp_path) -> None:
    # gpus.yaml: rtx-3090 launch_year 2020
    doc = {"workload": {"task": "inference", "model": "llama-2-7b"}, "hardware": {"gpu": "rtx-3090", "count": 1},
           "acquisition": {"mode": "buy", "condition": "used", "unit_price_usd": 400},
           "used_cards": [{"serial": "1", "purchased": "2015-01"}]}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    err = _one_line(cli("audit", "p.yaml", cwd=tmp_path))
    assert "p.yaml: used_cards[0].purchased: purchased 2015-01, before the" in err and "launched (2020)" in err


# ----------------------------------------------------------------------------- --currency and --lang as people say them
@pytest.mark.parametrize(("option", "value", "offered"), [
    ("--currency", "RMB", "CNY"), ("--currency", "yuan", "CNY"), ("--currency", "¥", "CNY"), ("--currency", "$", "USD"),
    ("--lang", "cn", "zh"), ("--lang", "中文", "zh"), ("--lang", "english", "en"),
])
def test_a_currency_or_language_as_people_say_it_is_offered(tmp_path, option: str, value: str, offered: str) -> None:
    (tmp_path / "r.yaml").write_text(SERVE % ("llama-3.1-8b", "bf16"), encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", option, value, cwd=tmp_path))
    assert f"did you mean {offered}?" in err, err


def test_a_currency_with_no_alias_is_offered_nothing(tmp_path) -> None:
    (tmp_path / "r.yaml").write_text(SERVE % ("llama-3.1-8b", "bf16"), encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", "--currency", "EUR", cwd=tmp_path))
    assert "did you mean" not in err and "'USD', 'CNY'" in err


# ----------------------------------------------------------------------------- overlay files misnamed
@pytest.mark.parametrize(("name", "meant"), [("model.yaml", "models.yaml"), ("gpus.yml", "gpus.yaml"),
                                             ("GPUS.YAML", "gpus.yaml"), ("Clouds.yml", "clouds.yaml")])
def test_a_misnamed_overlay_file_is_offered_its_name(tmp_path, name: str, meant: str) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / name).write_text("{}\n", encoding="utf-8")
    (tmp_path / "r.yaml").write_text(SERVE % ("llama-3.1-8b", "bf16"), encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", "--knowledge", "kb", cwd=tmp_path))
    assert f"kb: unknown knowledge file {name} (did you mean {meant}?)" in err, err


def test_an_overlay_file_named_nothing_like_one_lists_them(tmp_path) -> None:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "notes.yaml").write_text("{}\n", encoding="utf-8")
    (tmp_path / "r.yaml").write_text(SERVE % ("llama-3.1-8b", "bf16"), encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", "--knowledge", "kb", cwd=tmp_path))
    assert "overlay files are named gpus.yaml, models.yaml" in err, err


# ----------------------------------------------------------------------------- files other tools save
def test_a_file_of_blank_lines_and_a_tab_is_empty(tmp_path) -> None:
    (tmp_path / "r.yaml").write_text("\t\n  \n", encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", cwd=tmp_path))
    assert err.strip() == "gpuwise: r.yaml: the file is empty", err


def test_a_latin1_file_names_the_line_column_and_character(tmp_path) -> None:
    (tmp_path / "r.yaml").write_bytes(("# caf\xe9\n" + SERVE % ("llama-3.1-8b", "bf16")).encode("latin-1"))
    err = _one_line(cli("recommend", "r.yaml", cwd=tmp_path))
    assert "r.yaml: not UTF-8 text: line 1, column 6 holds byte 0xE9, 'é' in Latin-1 or Windows-1252" in err, err
    zh = _one_line(cli("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path))
    assert "第 1 行第 6 列是字节 0xE9" in zh, zh


def test_a_binary_file_still_gives_the_offset(tmp_path) -> None:
    (tmp_path / "r.yaml").write_bytes(b"workload: {}\n\x81\x8d\xff\x00")  # no Windows-1252 text (0x81 is unassigned)
    err = _one_line(cli("recommend", "r.yaml", cwd=tmp_path))
    assert "bad byte at offset 13" in err, err


def test_an_output_named_as_a_folder_is_refused_as_one(tmp_path) -> None:
    (tmp_path / "r.yaml").write_text(SERVE % ("llama-3.1-8b", "bf16"), encoding="utf-8")
    err = _one_line(cli("recommend", "r.yaml", "-o", "reports/", cwd=tmp_path))
    assert "reports/: is a directory, not a file" in err and "suffix" not in err, err
    assert not (tmp_path / "reports").exists()
