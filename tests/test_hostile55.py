"""Hostile round 55's fixed failures (benchmarks/hostile_round55.py: what a team lead pastes from a spreadsheet or a
vendor's quote), each failing before its fix (56 of the 58 on ae05131a; the two guards pass there too):

* a GPU count as a quote prints it ('8 × H100', 'x8', '8卡', '16 (2 × 8)') was 'must be a whole number': the count
  offered; a total that is not its product ('16 (2 × 4)') names both; servers given as the count ('2 nodes') name
  the field they go in (nodes, an owned entry's servers); nodes as '2台' offered 2;
* a server's price an hour ('$19.92/node/hr') offered over the GPUs a node, the sign after the number ('2.49$'), a
  Chinese price list's card-hour ('17.5 元/卡/小时') named CNY, a month's price ('$1,793/mo') offered an hour;
* a pricing plan or a Chinese word in acquisition.mode ('on-demand', 'spot', '租用', '购买') offered rent or buy;
* a graphics card as a shop lists it ('GeForce RTX 4090 Founders Edition') offered its GPU, not the RTX 4000 Ada;
* Excel's mmm-yy month ('Jan-27', 'Mar-24'), a half year ('H2 2027'), a fiscal period ('FY27 Q1') and a purchase
  in a quarter ('2024 Q1') said as such;
* a line indented by no-break spaces and a key and its value separated by a tab said at their line;
* a price CSV's GPU-hour price on a row of 8 offered the row's price (it was offered as if it were the row's), a
  count '8 × H100' its number, the count in the GPU's name said apart, a sheet's own header words and a title row
  above the header said.

The guards beside them (passing before too) say what must not change.
"""

from __future__ import annotations

import pytest

from .clirun import gpuwise as cli
from .test_hostile52 import _one_line, _write  # test_hostile52's helpers, not written twice
from .test_hostile53 import IMPORT, LORA8
from .test_hostile54 import PLAN

H100X8 = {"gpu": "H100 SXM", "count": 8, "nodes": 1}


def _audit(tmp_path, hardware=None, acquisition=None):
    doc = {"title": "t", "workload": LORA8, "hardware": {**H100X8, **(hardware or {})},
           "acquisition": {"mode": "rent", "provider": "lambda", "hourly_usd": 2.49, **(acquisition or {})}}
    _write(tmp_path, "p.yaml", doc)
    return cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)


# ---------------------------------------------------------------- GPU counts as quotes print them
@pytest.mark.parametrize("given, meant", [("8 × H100", "8"), ("8x H100 SXM", "8"), ("8*A100", "8"), ("x8", "8"),
                                          ("8卡", "8"), ("8张", "8"), ("8块", "8"), ("16 (2 × 8)", "16")])
def test_a_count_as_a_quote_prints_it_is_offered(tmp_path, given, meant):
    err = _one_line(_audit(tmp_path, {"count": given, "nodes": 2 if meant == "16" else 1}))
    assert f"hardware.count: '{given}'" in err and f"write {meant}" in err, err


def test_a_total_that_is_not_its_product_names_both(tmp_path):
    err = _one_line(_audit(tmp_path, {"count": "16 (2 × 4)", "nodes": 2}))
    assert "'16 (2 × 4)': 16 is not 2 x 4 (8)" in err


def test_servers_given_as_the_gpu_count_name_their_field(tmp_path):
    err = _one_line(_audit(tmp_path, {"count": "2 nodes"}))
    assert "hardware.count: '2 nodes' counts servers" in err and "put 2 in nodes" in err
    _write(tmp_path, "plan.yaml", PLAN.format(count="2 servers"))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "owned[0].count: '2 servers' counts servers" in err and "put 2 in servers" in err


def test_nodes_counted_in_chinese_are_offered(tmp_path):
    err = _one_line(_audit(tmp_path, {"count": 16, "nodes": "2台"}))
    assert "hardware.nodes: '2台'" in err and err.rstrip().endswith("write 2")


def test_a_count_with_its_noun_and_a_plain_count_are_as_before(tmp_path):
    """Guards: '8x' and '8 GPUs' were offered 8 already; '2x8' 16; a plain 8 is audited."""
    assert _one_line(_audit(tmp_path, {"count": "8x"})).rstrip().endswith("write 8")
    assert "write 16 (2 x 8)" in _one_line(_audit(tmp_path, {"count": "2x8", "nodes": 2}))
    assert _audit(tmp_path).returncode in (0, 1)


# ---------------------------------------------------------------- a rental's price as a quote writes it
@pytest.mark.parametrize("given, hw, meant", [
    # 19.92 / 8 = 2.49; 39.84 / (16 / 2) = 4.98; 19.92 / (12 / 2) = 3.32
    ("$19.92/node/hr", {}, "write 2.49 (19.92 / 8 GPUs a server"), ("19.92/hr/node", {}, "write 2.49 (19.92 / 8"),
    ("$39.84 per server hour", {"count": 16, "nodes": 2}, "write 4.98 (39.84 / 8"),
    ("$19.92/node/hr", {"count": 12, "nodes": 2}, "write 3.32 (19.92 / 6")])
def test_a_servers_price_an_hour_is_offered_over_its_gpus(tmp_path, given, hw, meant):
    err = _one_line(_audit(tmp_path, hw, {"hourly_usd": given}))
    assert f"acquisition.hourly_usd: '{given}' is a server's price" in err and meant in err, err


def test_a_servers_price_in_another_currency_names_it(tmp_path):
    err = _one_line(_audit(tmp_path, acquisition={"hourly_usd": "¥100/node/hr"}))
    assert "'¥100/node/hr' is in CNY but constraints.currency is USD" in err


def test_a_servers_price_in_a_requirements_free_field_says_what_to_write():
    """Without the hardware beside it (the field's own check) the server's price is said, no number guessed."""
    from gpuwise.inputs.notation import Meant
    from gpuwise.inputs.units import raise_unit_written
    with pytest.raises(Meant) as said:
        raise_unit_written("$19.92/node/hr", "hourly_usd")
    assert "is a server's price" in str(said.value) and "write the server's price over its GPUs" in str(said.value)
    raise_unit_written("abc/node/hr", "hourly_usd")  # no price in it: left to the field's own words


@pytest.mark.parametrize("given, words", [
    ("2.49$", "write 2.49"),  # the sign after the number
    ("17.5 元/卡/小时", "is in CNY but constraints.currency is USD"), ("¥17.5/GPU·h", "is in CNY"),
    # 1,793 / 730 hours (gpuwise/ledger.py HOURS_PER_MONTH) = 2.456
    ("$1,793/mo", "is a price a month, and hourly_usd is the price an hour: write 2.456 (1793 / 730 hours)")])
def test_an_hours_price_as_a_price_list_writes_it(tmp_path, given, words):
    err = _one_line(_audit(tmp_path, acquisition={"hourly_usd": given}))
    assert f"acquisition.hourly_usd: '{given}'" in err and words in err, err


def test_the_inputs_month_is_the_ledgers():
    from gpuwise.inputs.units import HOURS_PER_MONTH
    from gpuwise.ledger import HOURS_PER_MONTH as LEDGER
    assert HOURS_PER_MONTH == LEDGER == 8760 / 12


# ---------------------------------------------------------------- the pricing plan in the mode field
@pytest.mark.parametrize("given, meant", [("on-demand", "rent"), ("On Demand", "rent"), ("reserved", "rent"),
                                          ("spot", "rent"), ("租用", "rent"), ("购买", "buy")])
def test_a_pricing_plan_or_a_chinese_word_in_the_mode_is_offered(tmp_path, given, meant):
    _write(tmp_path, "p.yaml", {"title": "t", "workload": LORA8, "hardware": H100X8,
                                "acquisition": {"mode": given, "provider": "lambda"}})
    err = _one_line(cli("audit", "p.yaml", cwd=tmp_path))
    assert f"acquisition.mode: '{given}' is not one of 'buy' or 'rent' (did you mean {meant}?)" in err, err


# ---------------------------------------------------------------- a graphics card as a shop lists it
@pytest.mark.parametrize("given, meant", [("GeForce RTX 4090 Founders Edition", "rtx-4090"),
                                          ("NVIDIA GeForce RTX 4090 FE", "rtx-4090"),
                                          ("MSI RTX 4090 SUPRIM X", "rtx-4090"),
                                          ("EVGA RTX 3090 FTW3 Ultra", "rtx-3090")])
def test_a_board_makers_words_leave_the_gpus_own_name_offered(tmp_path, given, meant):
    """'Founders Edition' (NVIDIA's own board) was offered the RTX 4000 Ada; the board's words are left out for
    the hint, and the name is still refused (a board is no catalog entry)."""
    _write(tmp_path, "plan.yaml", PLAN.format(count=8).replace("gpu: RTX 4090", f"gpu: {given}"))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert f"owned[0].gpu: unknown gpu '{given}' (did you mean {meant}?)" in err, err


# ---------------------------------------------------------------- a plan's months as a spreadsheet shows them
def _plan_month(year: int, month: int) -> int:
    """The plan's month of a calendar month: month 1 is the current one (inputs/dates.this_month)."""
    import datetime as dt
    today = dt.date.today()
    return (year * 12 + month) - (today.year * 12 + today.month) + 1


def _at_month_refused(tmp_path, value: str) -> str:
    plan = PLAN.format(count=8).replace("cadence: {per_month: 2}", f"cadence: {{at_month: '{value}'}}")
    _write(tmp_path, "plan.yaml", plan)
    return _one_line(cli("plan", "plan.yaml", cwd=tmp_path))


def test_excels_mmm_yy_month_is_offered(tmp_path):
    import datetime as dt
    year = dt.date.today().year + 1
    err = _at_month_refused(tmp_path, f"Jan-{year % 100:02d}")
    assert f"is at_month: {_plan_month(year, 1)}" in err, err
    _write(tmp_path, "plan.yaml", PLAN.format(count=8).replace("bought: 2024-03", "bought: Mar-24"))
    assert "owned[0].bought: 'Mar-24' is not written YYYY-MM: write 2024-03" in _one_line(
        cli("plan", "plan.yaml", cwd=tmp_path))


def test_a_half_year_is_its_six_months(tmp_path):
    import datetime as dt
    year = dt.date.today().year + 1
    err = _at_month_refused(tmp_path, f"H2 {year}")
    n = _plan_month(year, 7)
    assert f"'H2 {year}', a half year, is months {n} to {n + 5} of the plan: at_month: {n} for its first" in err, err


@pytest.mark.parametrize("given", ["FY27 Q1", "Q1 FY2027", "FY27"])
def test_a_fiscal_period_is_said_to_be_undated(tmp_path, given):
    err = _at_month_refused(tmp_path, given)
    assert f"'{given}' is a fiscal period" in err and "must be a whole number" not in err, err


@pytest.mark.parametrize("given, first, last", [("2024 Q1", "2024-01", "2024-03"), ("H2 2024", "2024-07", "2024-12"),
                                                ("2024年上半年", "2024-01", "2024-06")])
def test_a_purchase_in_a_quarter_or_half_says_its_months(tmp_path, given, first, last):
    _write(tmp_path, "plan.yaml", PLAN.format(count=8).replace("bought: 2024-03", f"bought: '{given}'"))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert f"owned[0].bought: '{given}' spans the months {first} to {last}: write the one month" in err, err


def test_months_read_before_are_as_before():
    """Guards: a quarter, a month's name and a day-first date keep their readings; 'Jan 27' (a space: January
    27th as well) is not read as a month."""
    from gpuwise.inputs.dates import iso_month
    assert iso_month("March 2024") == "2024-03" and iso_month("03/2024") == "2024-03"
    assert iso_month("Jan-27") == "2027-01" and iso_month("Jan 27") is None and iso_month("27-Jan") is None


# ---------------------------------------------------------------- files pasted from a web page or a sheet
def _estimate_text(tmp_path, text: str):
    (tmp_path / "r.yaml").write_text(text, encoding="utf-8")
    return cli("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)


@pytest.mark.parametrize("space, name", [("\u00a0", "a no-break space (U+00A0)"),
                                         ("\u3000", "an ideographic space (U+3000)")])
def test_a_line_indented_by_a_wide_space_is_named(tmp_path, space, name):
    """It was 'task: unknown key (valid keys: workload, ...)': YAML read the line as a key of the top level."""
    pad = space * 2
    err = _one_line(_estimate_text(tmp_path, f"workload:\n{pad}task: inference\n{pad}model: llama-3.1-8b\n"))
    assert f"r.yaml: invalid YAML at line 2: the line is indented by {name}" in err and "valid keys" not in err, err


def test_a_tab_between_a_key_and_its_value_offers_the_colon(tmp_path):
    """It was 'workload: must be a section of keys (got ...)' with every valid key listed."""
    err = _one_line(_estimate_text(tmp_path, "workload:\n  task\tinference\n  model\tllama-3.1-8b\n"))
    assert "invalid YAML at line 2: a tab separates 'task' from its value" in err and "(write task: inference)" in err
    err = _one_line(_estimate_text(tmp_path, "workload:\n  task: inference\n  model\tllama-3.1-8b\n"))
    assert "line 3: a tab separates 'model'" in err and "(write model: llama-3.1-8b)" in err


def test_a_blocks_text_and_a_value_keep_their_spaces_and_tabs(tmp_path):
    """Guards: a tab after a colon, a no-break space inside a value and a block's text (``notes: |``) holding a
    tab-separated pair and a no-break space are no pasted spacing."""
    from pathlib import Path

    from gpuwise.yamlio import _pasted_spacing
    _pasted_spacing("a:\n  notes: |\n    task\tinference\n    \u00a0x\nb: 1\n", Path("x.yaml"))
    ok = _estimate_text(tmp_path, "workload:\n  task:\tinference\n  model: llama-3.1-8b\u00a0\n")
    assert ok.returncode == 0, ok.stderr


# ---------------------------------------------------------------- price CSVs saved from a quote
def _import(tmp_path, text: str):
    (tmp_path / "c.csv").write_text(text, encoding="utf-8")
    return cli(*IMPORT, cwd=tmp_path)


def test_a_gpus_price_on_a_row_of_eight_offers_the_rows_price(tmp_path):
    """'$2.49/GPU/hr' on an 8-GPU row was offered 'write 2.49': the price column is the row's GPUs' together (the
    per-GPU-hour figure is it over the count), so 2.49 would have been priced 0.31 a GPU-hour; 2.49 x 8 = 19.92."""
    r = _import(tmp_path, "gpu,gpus,price\nH100 80GB SXM,8,$2.49/GPU/hr\n")
    assert "price '$2.49/GPU/hr' is one GPU's, and price is the row's 8 GPUs' together an hour: write 19.92 " \
           "(2.49 x 8)" in r.stdout + r.stderr and "write 2.49\n" not in r.stdout + r.stderr
    r = _import(tmp_path, "gpu,gpus,price,currency\nH100 80GB SXM,8,¥17.5/卡时,CNY\n")
    assert "write 140 (17.5 x 8)" in r.stdout + r.stderr  # 17.5 x 8


def test_a_gpus_price_on_a_row_of_one_is_offered_its_number(tmp_path):
    for cell in ("$2.49/GPU/hr", "2.49 / GPU / hr"):
        r = _import(tmp_path, f"gpu,gpus,price\nH100 80GB SXM,1,{cell}\n")
        assert f"price '{cell}' is not a number: write 2.49" in r.stdout + r.stderr, r.stdout + r.stderr


def test_a_gpu_count_as_a_quote_prints_it_is_offered(tmp_path):
    r = _import(tmp_path, "gpu,gpus,price\nH100 80GB SXM,8 × H100,20\n")
    assert "gpu count '8 × H100' is not a number: write 8" in r.stdout + r.stderr, r.stdout + r.stderr


def test_the_count_in_the_gpus_name_is_said_apart(tmp_path):
    for name, gpu in (("8x H100 SXM", "H100 SXM"), ("H100 80GB x8", "H100 80GB")):
        r = _import(tmp_path, f"gpu,gpus,price\n{name},,20\n")
        said = r.stdout + r.stderr
        assert f"the GPU count is empty, and the GPU '{name}' holds one: write gpus 8 and gpu {gpu}" in said, said


@pytest.mark.parametrize("header, renamed", [
    ("GPU Model,Qty,Price/hr (USD)", "'GPU Model' as gpu, 'Qty' as gpus, 'Price/hr (USD)' as price"),
    ("GPU Type,# GPUs,$/hr", "'GPU Type' as gpu, '# GPUs' as gpus, '$/hr' as price"),
    ("显卡,卡数,价格", "'显卡' as gpu, '卡数' as gpus, '价格' as price")])
def test_a_sheets_own_header_words_are_offered_as_the_columns(tmp_path, header, renamed):
    err = _one_line(_import(tmp_path, f"{header}\nH100 80GB SXM,8,20\n"))
    assert "the header lacks gpu, gpus, price (read as the gpuwise layout)" in err and f"rename {renamed}" in err, err


def test_a_title_above_the_header_names_the_headers_line(tmp_path):
    text = "Acme GPU Cloud price list,,\nDecember 2026\n\ngpu,gpus,price\nH100 80GB SXM,8,20\n"
    err = _one_line(_import(tmp_path, text))
    assert "c.csv: the header is at line 4, below a title or notes (delete the line(s) above it)" in err, err


def test_a_header_of_no_layout_and_no_sheet_words_is_as_before(tmp_path):
    """Guard: a header naming nothing gpuwise reads keeps the layouts' list."""
    err = _one_line(_import(tmp_path, "a,b,c\n1,2,3\n"))
    assert "give a gpuhunt or SkyPilot catalog CSV, or gpuwise's own columns gpu, gpus, price" in err, err


@pytest.mark.parametrize("given, gpus, servers", [("16 (2 nodes)", "16", "2"), ("16 GPUs (on 2 servers)", "16", "2"),
                                                  ("8 (1 node)", "8", "1")])
def test_gpus_and_their_servers_in_one_cell_are_said_apart(tmp_path, given, gpus, servers):
    err = _one_line(_audit(tmp_path, {"count": given, "nodes": int(servers)}))
    assert f"hardware.count: '{given}': count is the number of GPUs alone: write {gpus}, and put {servers} in the " \
           "field for servers" in err, err
