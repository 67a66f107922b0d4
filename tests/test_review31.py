"""What review31 found reading four buyers' reports as an approver would (a 13B pretraining run rented or
bought in yuan, a 72B LoRA on workstation cards, 8 x B200 rented on a one- and a three-year term to serve
gpt-oss-120b and Llama 3.1 70B, Qwen3-Next-80B-A3B served on H200 or MI300X)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuwise import knowledge

from .clirun import gpuwise

RATE = knowledge.load().tco_value("usd_cny").value  # the dated CNY per USD a CNY file is converted at

YUAN = ("workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 1.0e7}\n"
        "constraints: {gpus: [RTX 4090], max_gpus: 1, acquisition: buy, currency: CNY, budget_usd: 50000,"
        " electricity_usd_per_kwh: 0.8, value_of_a_day_usd: 2000}\n")


def _run(tmp_path: Path, command: str, text: str, *args: str, name: str = "q.yaml") -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    r = gpuwise(command, name, *args, cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_question_shows_a_yuan_files_amounts_as_written(tmp_path: Path) -> None:
    """The question as understood holds the amounts converted to USD at load (inputs/money.py), and the report
    divided them by the rate once more: a budget of 50,000 yuan read 'constraints.budget_usd: CN¥7,390' and
    0.8 yuan a kWh 'CN¥0.12/kWh' in the yuan report, while its answer said 'of CN¥50,000'. The day's value, an
    amount too, was printed as a bare 1,000 in the yuan report's assumptions."""
    out = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full"))
    assert "constraints.budget_usd: CN¥50,000 " in out
    assert "constraints.electricity_usd_per_kwh: CN¥0.80/kWh " in out
    assert "constraints.value_of_a_day_usd: CN¥2,000 " in out
    usd = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full", "--currency", "USD"))
    budget = f"${50000 / RATE:,.0f}"  # 50,000 / 6.7661 = $7,390 at the 2026-07-21 rate
    assert f"constraints.budget_usd: 50,000 yuan as the file writes it ({budget})" in usd
    assert f"constraints.electricity_usd_per_kwh: 0.8 yuan as the file writes it (${0.8 / RATE:.2f}/kWh)" in usd
    zh = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full", "--currency", "USD", "--lang", "zh"))
    assert f"constraints.budget_usd: 50,000 元（输入文件所写，合 {budget}）" in zh


def test_the_default_value_of_a_day_is_an_amount_in_the_reports_currency(tmp_path: Path) -> None:
    """A training question without value_of_a_day_usd takes the policy's $1,000 a day; the yuan report's
    assumptions said 'constraints.value_of_a_day_usd = 1,000' beside a reason worth CN¥6,766."""
    text = YUAN.replace(", value_of_a_day_usd: 2000", "")
    day = f"CN¥{1000 * RATE:,.0f}"
    out = _flat(_run(tmp_path, "recommend", text))
    assert f"constraints.value_of_a_day_usd = {day};" in out
    assert "value_of_a_day_usd = 1,000" not in out
    assert "constraints.value_of_a_day_usd = $1,000;" in _flat(_run(tmp_path, "recommend", text, "--currency", "USD"))


PRETRAIN = ("workload: {task: pretrain, model: llama-3.1-8b, seq_len: 4096, train_tokens: 1.0e11}\n"
            "constraints: {gpus: [H100], max_gpus: 64, deadline_days: 30}\n")


def test_a_pretraining_run_assumes_no_fine_tuning_method(tmp_path: Path) -> None:
    """A pretraining question listed 'workload.method = full -- full fine-tuning unless lora/qlora is asked
    for' among its defaults, and its question as understood 'workload.method: full [default: ...]': the field
    applies to fine-tuning only (a pretraining file that writes lora is refused)."""
    out = _run(tmp_path, "recommend", PRETRAIN, "--detail", "full")
    assert "workload.method" not in out
    assert "full fine-tuning" not in out
    assert "workload.optimizer = adamw" in out  # the defaults a pretraining run does take are still listed
    tune = _run(tmp_path, "recommend", PRETRAIN.replace("pretrain", "finetune"), "--detail", "full")
    assert "workload.method = full — full fine-tuning unless lora/qlora is asked for" in _flat(tune)


NEXT = ("workload: {task: inference, model: qwen3-next-80b-a3b, precision: bf16, prompt_tokens: 8000,"
        " output_tokens: 1000, concurrent_requests: 64}\n")


def test_the_recurrent_state_formula_reproduces_the_kv_line(tmp_path: Path) -> None:
    """Qwen3-Next-80B-A3B on 2 H200 (TP 2, 64 sequences of 8,000 + 1,000 tokens): the KV line's formula printed
    '(524288 state x 2 B + 24576 convolution x 2 B) a sequence x 64 sequences / 2 GPUs' for the 36 gated
    DeltaNet layers, 35 MB, where the value holds 36 times that. Its card (Qwen/Qwen3-Next-80B-A3B-Instruct
    config.json): 48 layers, every fourth full attention (12 with 2 KV heads of 256), 36 linear-attention
    layers of 32 value heads x 128 x 128 state and a 4-wide convolution over 2 x 16 x 128 + 32 x 128 channels
    (3 x 8,192 kept). The KV cache a GPU holds: 2 x 12 x 2 x 256 x 2 B x 544,000 tokens (64 x (8,000 + 500))
    / 2 + 36 x (524,288 x 2 B + 24,576 x 2 B) x 64 / 2 = 6,684,672,000 + 1,264,582,656 B."""
    (tmp_path / "q.yaml").write_text(NEXT, encoding="utf-8")
    out = _flat(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", cwd=tmp_path).stdout)
    assert ("with numbers: 2 × 12 × 2 × 256 × 2 × 544,000 / 2 GPUs; + the recurrent state of 36 layers without"
            " attention, whatever the length: 36 layers × (524,288 state × 2 B + 24,576 convolution × 2 B) a sequence"
            " × 64 sequences / 2 GPUs") in out
    zh = _flat(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", "--lang", "zh", cwd=tmp_path).stdout)
    assert "36 层 × 每层每个序列 (524,288 个状态元素 × 2 B + 24,576 个卷积元素 × 2 B) × 64 个序列 / 2 块 GPU" in zh
    js = json.loads(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", "--format", "json",
                            cwd=tmp_path).stdout)
    by_hand = 2 * 12 * 2 * 256 * 2 * 544_000 / 2 + 36 * (524_288 * 2 + 24_576 * 2) * 64 / 2
    assert by_hand == 7_949_254_656 == js["memory"]["breakdown"]["kv_cache"]


TWICE = ("workload: {task: pretrain, model: llama-2-13b, seq_len: 4096, train_tokens: 1.5e12}\n"
         "constraints: {gpus: [A100 PCIe 80GB, H100], max_gpus: 256, deadline_days: 60, acquisition: either,"
         " project_months: 12}\n")


def test_why_not_says_which_of_a_count_rented_and_bought_each_line_is(tmp_path: Path) -> None:
    """'Why not the others' listed '256 x NVIDIA A100 PCIe 80GB: ... needs 60.6 days' and, next, the same title
    with 'needs 107.8 days': the count bought (the network gpuwise assumes) and rented (the cloud's), with
    nothing to tell them apart. A count tried both ways for different reasons now says which is which; a count
    tried once keeps its plain title."""
    a100 = "256 × NVIDIA A100 PCIe 80GB"
    for lang, buy, rent in (("en", f"{a100}, buy: ", a100 + r", rent(, from \S+)?: "),
                            ("zh", f"{a100}（购买）：", a100 + r"（租用(，来自 \S+)?）：")):
        out = _run(tmp_path, "recommend", TWICE, "--detail", "full", "--lang", lang)
        part = _flat(out[out.index("=== Why not" if lang == "en" else "=== 为何不选"):])
        assert buy in part and re.search(rent, part), part[:600]
        assert "- 8 × NVIDIA A100 PCIe 80GB: " in part if lang == "en" else "- 8 × NVIDIA A100 PCIe 80GB：" in part


COMMITTED = ("title: b200 for llama\n"
             "workload: {task: inference, model: llama-3.1-70b, precision: fp8, prompt_tokens: 1500,"
             " output_tokens: 300, requests_per_s: 5}\n"
             "hardware: {gpu: B200, count: 8, nodes: 1}\n"
             "acquisition: {mode: rent, provider: nebius, hourly_usd: 3.10, months: %s}\n")


@pytest.mark.parametrize("months,en,zh", [(36, "3-year commitment", "3 年承诺使用"),
                                          (24, "the term the proposal commits to", "提案承诺的租期")])
def test_a_proposals_own_price_on_a_committed_term_is_not_called_on_demand(tmp_path: Path, months: int, en: str,
                                                                           zh: str) -> None:
    """8 x B200 rented for 36 months at the proposal's $3.10 a GPU-hour: 'The prices this answer rests on' said
    'rent NVIDIA B200 ... on nebius, on demand: $3.10 per GPU-hour (the proposal's own price)', of a price the
    proposal pays for a three-year term, billed 8 x 3.10 x 26,280 h = $651,744 whatever is used."""
    out = _flat(_run(tmp_path, "audit", COMMITTED % months, "--detail", "full"))
    assert f"rent NVIDIA B200 (HGX B200) 180GB on nebius, {en}: $3.10 per GPU-hour (the proposal's own price)" in out
    assert f"${8 * 3.10 * 730 * months:,.0f}" in out  # the committed term, billed whole
    js = json.loads(_run(tmp_path, "audit", COMMITTED % months, "--format", "json"))
    assert js["prices_used"][0]["term"] == {36: "3-year", 24: "commitment"}[months]
    assert f"（{zh}）：每 GPU 小时 $3.10（提案自报的价格）" in _flat(_run(
        tmp_path, "audit", COMMITTED % months, "--detail", "full", "--lang", "zh", "--currency", "USD"))


def test_an_audits_project_is_the_committed_months_and_says_so(tmp_path: Path) -> None:
    """A rental committed for 12 months with no project_months is costed over 12 months (its alternatives too:
    '$... over 12 months'), while 'The proposal as understood' printed 'constraints.project_months: 6', the
    model's default, and no assumption named the length. It now echoes 12, and the assumptions say where it
    comes from; a proposal stating neither takes the six-month default, listed."""
    text = COMMITTED.replace("hourly_usd: 3.10, ", "") % 12
    out = _flat(_run(tmp_path, "audit", text, "--detail", "full"))
    assert "constraints.project_months: 12 [default: the project runs the 12 months of the proposal's" \
           " acquisition.months]" in out
    assert ("constraints.project_months = 12 — the project runs the 12 months of the proposal's"
            " acquisition.months") in out
    assert "constraints.project_months: 6" not in out
    js = json.loads(_run(tmp_path, "audit", text, "--format", "json"))
    assert js["proposal"]["constraints"]["project_months"] == 12
    assert js["alternative"]["ledger"]["period"]["months"] == 12 == js["proposed"]["ledger"]["period"]["months"]
    neither = _flat(_run(tmp_path, "audit", text.replace(", months: 12", "")))
    assert "constraints.project_months = 6 — a six-month project" in neither
    assert "项目周期为提案 acquisition.months 所写的 12 个月" in _flat(_run(tmp_path, "audit", text, "--lang", "zh"))


def test_storage_charged_at_another_kinds_rate_says_so(tmp_path: Path) -> None:
    """2 TB of premium SSD beside 8 B200 rented 12 months at Nebius, whose fee table lists object storage only
    (clouds.yaml: $0.0147 a GiB-month, its object storage pricing page): the proposal's ledger read 'storage
    $353' (2,000 GB x $0.0147 x 12), the object rate, with nothing saying the premium SSD asked for was not
    priced as such (cost.storage_rate_for charges the dearest kind a provider lists)."""
    text = COMMITTED.replace("hourly_usd: 3.10, ", "") % 12 + "cloud: {storage: {kind: premium-ssd, tb: 2}}\n"
    rate = next(p for p in knowledge.load().clouds.providers if p.id == "nebius").storage_usd_per_gb_month
    assert set(rate) == {"object"}
    fee = 2000 * rate["object"] * 12 / 1.073741824  # the rate is per GiB (clouds.yaml storage_unit)
    out = _flat(_run(tmp_path, "audit", text, "--detail", "full"))
    assert f"cloud fees storage (premium-ssd at the object rate) ${fee:,.0f}" in out
    js = json.loads(_run(tmp_path, "audit", text, "--format", "json"))
    line = next(x for x in js["proposed"]["ledger"]["lines"] if x["item"] == "storage")
    assert line["amount"] == pytest.approx(fee)
    assert line["item_phrases"] == [["", "item.fee.storage_as", {"kind": "premium-ssd", "priced": "object"}]]
    assert f"存储（premium-ssd，按 object 的单价计） ${fee:,.0f}" in _flat(
        _run(tmp_path, "audit", text, "--detail", "full", "--lang", "zh", "--currency", "USD"))


def test_fx_rate_converts_a_yuan_files_amounts_at_the_rate_the_report_prints(tmp_path: Path) -> None:
    """--fx-rate 7 on a file in yuan: the file's 50,000-yuan budget was converted at the dated 6.7661
    ($7,390) and printed back at 7 ('of CN¥51,728'), the assumptions said 'converted at 6.7661 CNY per USD',
    and DATA-STALE-FX warned that the rate is 137 days old, its fix 'Give today's rate with --fx-rate': the
    rate just given. The given rate is now the one the amounts convert at, the result carries, and the
    freshness rule leaves alone."""
    out = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full", "--fx-rate", "7"))
    assert "constraints.budget_usd: CN¥50,000 " in out and "CN¥51,728" not in out
    assert ("converted at 7 CNY per USD (the rate given with --fx-rate): budget 50,000 CNY = 7,143 USD; a day 2,000"
            " CNY = 286 USD; electricity 0.8 CNY/kWh = 0.114 USD/kWh") in out
    assert "DATA-STALE-FX" not in out
    sold = YUAN.replace("RTX 4090]", "RTX 4090D]").replace("budget_usd: 50000", "budget_usd: 500000")  # an answer
    assert "exchange rate: 7.0000 CNY per USD (the rate given with --fx-rate)" in _flat(
        _run(tmp_path, "recommend", sold, "--detail", "full", "--fx-rate", "7"))
    js = json.loads(_run(tmp_path, "recommend", YUAN, "--format", "json", "--fx-rate", "7"))
    assert js["question"]["constraints"]["budget_usd"] == pytest.approx(50000 / 7)
    assert js["currency"]["usd_cny"] == 7 and js["currency"]["source"] == "the rate given with --fx-rate"
    zh = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full", "--fx-rate", "7", "--lang", "zh"))
    assert "按 1 美元兑 7 元换算（--fx-rate 给出的汇率）：预算 50,000 元 = 7,143 美元" in zh
    dated = _flat(_run(tmp_path, "recommend", YUAN, "--detail", "full"))  # without it: the dated rate, judged
    assert f"converted at {RATE:g} CNY per USD (" in dated and "DATA-STALE-FX" in dated
    est = json.loads(_run(tmp_path, "estimate", YUAN, "--gpu", "RTX 4090", "--format", "json", "--fx-rate", "7"))
    assert "converted at 7 CNY per USD (the rate given with --fx-rate)" in " ".join(
        a["reason"] for a in est["assumptions"])


def test_the_full_report_names_each_prices_source(tmp_path: Path) -> None:
    """'The prices this answer rests on' gave each price its date and age but not where it came from: an
    approver could not tell that the alternative's H200 board price ($236,000 for 8) is an estimate, or
    which page the B200 rental rate was read from. The full report now quotes each dated price's source
    (the brief keeps one line; the proposal's own figures and the exchange rate, whose source the currency
    line gives, are left as they were)."""
    js = json.loads(_run(tmp_path, "audit", COMMITTED % 36, "--format", "json"))
    bought = next(e for e in js["prices_used"] if e.get("alternative") and e["kind"] == "buy")
    out = _flat(_run(tmp_path, "audit", COMMITTED % 36, "--detail", "full"))
    start = out.index(f"- alternative: buy {bought['gpu']}, new: ")
    line = out[start:out.index(" - ", start + 2)]
    assert line.endswith(f"({bought['as_of']}, {bought['age_days']:,} days old); source: {bought['source']}"), line
    assert "on nebius, 3-year commitment: $3.10 per GPU-hour (the proposal's own price) -" in out
    brief = _flat(_run(tmp_path, "audit", COMMITTED % 36))
    assert "; source:" not in brief
    zh = _flat(_run(tmp_path, "audit", COMMITTED % 36, "--detail", "full", "--lang", "zh", "--currency", "USD"))
    assert f"；来源：“{bought['source']}”" in zh


def test_the_rent_formula_reproduces_its_value_from_the_hours_it_prints(tmp_path: Path) -> None:
    """The rent term printed '$/h x hours' with the hours to four digits: 13B on 128 B200 for 343.03 hours read
    'CN¥6,192.33/h x 343 h = CN¥2,124,148', CN¥179 away from 6,192.33 x 343, and 8B on 64 H100 for 2T tokens
    (1,144.38 hours) '$246.40/h x 1144 h = $281,974', $94 away. Hours of a hundred or more now print to the
    hundredth, and the product of the printed numbers is the printed value to within the cent rounding of
    the rate and the hundredth of an hour."""
    text = PRETRAIN.replace("1.0e11", "2.0e12").replace("deadline_days: 30", "deadline_days: 60")
    out = _flat(_run(tmp_path, "recommend", text, "--detail", "full"))
    m = re.search(r"Rent = \$([\d,]+) formula: \$/h × hours × \(1 - long-rental discount\) with numbers: "
                  r"\$([\d,.]+)/h × ([\d,.]+) h × \(1 - 0%\)", out)
    assert m, out[:3000]
    value, rate, hours = (float(g.replace(",", "")) for g in m.groups())
    assert hours > 1000 and not hours.is_integer()
    assert abs(rate * hours - value) < 0.005 * hours + 0.005 * rate + 1


@pytest.mark.parametrize("lang,reading,refusal", [
    ("en", "'RTX PRO 6000' read as NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB (rtx-pro-6000-blackwell),"
           " the default variant", "unknown gpu 'RTX 9999'"),
    ("zh", "“RTX PRO 6000”按 NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB（rtx-pro-6000-blackwell）理解，"
           "即默认型号", "未知 GPU“RTX 9999”")])
def test_a_chinese_questionnaire_says_how_it_read_a_gpu_name_in_chinese(tmp_path: Path, lang: str, reading: str,
                                                                        refusal: str) -> None:
    """`gpuwise ask --lang zh` resuming answers that list 'RTX PRO 6000' printed the reading in English between
    Chinese questions ("'RTX PRO 6000' read as ... the default variant"), and a name it could not read was
    refused in English too: both are catalog messages, now said in the session's language."""
    from gpuwise.ask.questionnaire import _Session, load_questions

    s = _Session(load_questions(), knowledge.load(), tmp_path / "answers.yaml", lang=lang, currency="USD")
    notes = s.load({"workload": {"task": "finetune", "method": "lora", "model": "qwen2.5-72b"},
                    "constraints": {"gpus": ["RTX PRO 6000", "RTX 5090"], "max_gpus": 8}})
    assert reading in notes
    notes = s.load({"workload": {"task": "finetune", "method": "lora", "model": "qwen2.5-72b"},
                    "constraints": {"gpus": ["RTX 9999"]}})
    assert any(refusal in n for n in notes), notes


def test_a_model_without_mla_is_not_said_to_hold_mla_down_projections(tmp_path: Path) -> None:
    """Qwen3-Next-80B-A3B at TP 2 (gated DeltaNet and gated attention, no MLA): the weights line said its
    replicated 100,663,296 B were 'MLA down-projections and the gate'; they are its router alone, 48 layers x
    512 experts x 2,048 hidden x 2 B (config.json: num_experts 512, hidden_size 2048). The words now say
    the gate, and MLA's down-projections where a model has them."""
    (tmp_path / "q.yaml").write_text(NEXT, encoding="utf-8")
    js = json.loads(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", "--format", "json",
                            cwd=tmp_path).stdout)
    weights = next(t for t in js["memory"]["terms"] if t["name"] == "weights")
    assert weights["inputs"]["replicated_bytes"] == 48 * 512 * 2048 * 2 == 100_663_296
    out = _flat(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", cwd=tmp_path).stdout)
    assert ("(tp - 1) × replicated_bytes B (the gate, and MLA's down-projections where the model has them, whole"
            " on every tensor-parallel GPU)") in out
    assert "MLA down-projections and the gate" not in out
    zh = _flat(gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "2", "--lang", "zh", cwd=tmp_path).stdout)
    assert "门控，以及模型采用 MLA 时的降维投影，在每块张量并行 GPU 上完整保存" in zh
