"""The plan's leftovers from session 42 (planleft58), each checked by hand against the knowledge files it reads.

1. Copies of a service on a committed term share one committed rental where it holds several (an 8-GPU instance
   reserved for a year holds eight one-GPU copies), as on-demand copies already did (planreview57's packs).
2. Owned consumer cards draw the host power of the machine they sit in: a desktop workstation's 250 W (tco.yaml
   workstation_host_w) where one holds them, the server's 410 W a GPU only past it, as a bought one does.
3. A plan over a budget no mix meets exits 1, as the contract's "no feasible option" does, and says so.
4. A service's copies over the owned servers.
5. The copy size on the brief page.
6. ``owned[].network``: an input, documented, and what the JSON and the page name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from tests.clirun import gpuwise, json_of, write_yaml

KB = load()
HOURS = 730.0  # a month's hours as the plan bills them (gpuwise/ledger.py HOURS_PER_MONTH: 8,760 / 12)

LAB = {"horizon_months": 12,
       "owned": [{"gpu": "A100 80GB SXM", "count": 16, "servers": 2, "hosting": "datacenter", "bought": "2024-06"}],
       "workloads": [{"name": "lab-chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                       "prompt_tokens": 1500, "output_tokens": 400},
                      "cadence": {"continuous": True, "hours_per_day": 10},
                      "targets": {"requests_per_s": 0.5, "p95_ttft_ms": 1500}}]}


# ---------------------------------------------------------------------------------------------- 3. over budget
def test_a_plan_over_a_budget_no_mix_meets_exits_1(tmp_path: Path):
    """16 owned A100s in a datacenter cost their hosting and power whatever runs on them (over $2,000 a month), so
    a $1,000 budget for the year cannot be kept by any mix: PLAN-BUDGET-OVER is a blocker, and the command exits 1
    as the contract's exit status says for a decision with no feasible option (it exited 0). The answer says it
    too, and the JSON's answer.why_not."""
    f = write_yaml(tmp_path, {**LAB, "constraints": {"budget_total_usd": 1000}}, "lab.yaml")
    done = gpuwise("plan", f, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "It goes over the budget" in " ".join(done.stdout.split())
    assert "[blocker]" in done.stdout and "PLAN-BUDGET-OVER" in done.stdout
    d = json_of(tmp_path, "plan", f)
    assert d["answer"]["why_not"] == "over_budget"
    assert [x["rule"] for x in d["findings"] if x["severity"] == "blocker"] == ["PLAN-BUDGET-OVER"]
    zh = gpuwise("plan", f, "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 1 and "PLAN-BUDGET-OVER" in zh.stdout
    assert "It goes over the budget" not in zh.stdout


def test_a_plan_within_its_budget_exits_0(tmp_path: Path):
    f = write_yaml(tmp_path, {**LAB, "constraints": {"budget_total_usd": 1_000_000}}, "lab.yaml")
    done = gpuwise("plan", f, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "It goes over the budget" not in done.stdout


# ---------------------------------------------------------------------------------------------- 1. commitments
P3DN = next(i for i in KB.clouds.instances if i.id == "p3dn.24xlarge")  # AWS: 8 x V100 32GB, the only V100 32GB offer


def v100_service(requests_per_s: float) -> object:
    """Llama 3.1 8B in fp16 (the V100 has no bf16) at ``requests_per_s``, rented all year on V100 32GB SXM2s: one
    copy on one GPU (16 GB of weights), so an 8-GPU p3dn.24xlarge holds eight."""
    return plan({"horizon_months": 12,
                 "workloads": [{"name": "chat-8b", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                                "precision": "fp16", "prompt_tokens": 500,
                                                                "output_tokens": 200},
                                "cadence": {"continuous": True, "hours_per_day": 24},
                                "targets": {"requests_per_s": requests_per_s}}],
                 "constraints": {"acquisition": "rent", "gpus": ["v100-32gb-sxm2"]}})


def test_the_catalog_prices_the_commitment_test_reads():
    assert (P3DN.gpus, P3DN.usd_per_hour, P3DN.reserved_per_hour) == (8, 31.212, {"1-year": 19.215})


def test_copies_share_one_committed_rental_of_several():
    """10 requests/s of 200 output tokens is 2,000 tokens/s: three one-GPU copies (each carries under 1,000). The
    only V100 32GB offer is AWS's whole 8-GPU p3dn.24xlarge: on demand $31.212 an hour, for a year $19.215 an hour.
    Each copy committed alone paid a whole instance, 3 x $19.215 x 8,760 h = $504,970.20, so the plan rented the
    instance on demand for the three, $31.212 x 730 h x 12 = $273,417.12; one instance committed for the year holds
    all three: $19.215 x 8,760 h = $168,323.40."""
    r = v100_service(10)
    (opt,) = r.options
    assert opt.count == 1 and [m for m in r.workloads[0].demand] == [2000.0] * 12
    assert 2000 / 3 < opt.capacity < 1000  # three copies carry the load, two do not
    year = P3DN.reserved_per_hour["1-year"] * 12 * HOURS
    assert r.total == pytest.approx(year, rel=1e-9)  # was P3DN.usd_per_hour * HOURS * 12 = $273,417.12
    (c,) = r.answer.commitments
    assert (c.term, c.start, c.count, c.copies, c.instance) == ("1-year", 1, 8, 3, "p3dn.24xlarge")
    assert c.amount == pytest.approx(year) and c.usd_per_hour == pytest.approx(19.215)
    assert all(ln.inputs["rentals"] == 1 and ln.inputs["copies_each"] == 8 for ln in r.lines if ln.kind == "rent")
    assert [(p.count, p.copies, p.term) for m in r.months for p in m.placements] == [(8, 3, "1-year")] * 12
    assert r.answer.why_not == ""


def test_one_copy_on_a_commitment_pays_the_whole_instance():
    """One copy (1 request/s) on the same instance: committed for the year it costs what the instance does, $19.215
    x 8,760 h, below on demand ($31.212 x 8,760 h); the commitment is the instance's, one copy in it."""
    r = v100_service(1)
    (c,) = r.answer.commitments
    assert r.total == pytest.approx(19.215 * 8760, rel=1e-9)
    assert (c.count, c.copies) == (8, 1)


# ---------------------------------------------------------------------------------------------- 2. host power
TDP_4090 = 450.0  # knowledge/gpus.yaml rtx-4090 power.tdp_w (total graphics power)
DESKTOP_W = 250.0  # knowledge/tco.yaml workstation_host_w: a desktop's CPU, board and supply losses, once a box
SERVER_W = 410.0  # knowledge/tco.yaml host_power_w_per_gpu: a GPU server's share a GPU (DGX A100)


def test_the_host_figures_the_tests_read():
    v = KB.tco.values
    assert (KB.gpus["rtx-4090"].power.tdp_w, v["workstation_host_w"].value, v["host_power_w_per_gpu"].value) == (
        TDP_4090, DESKTOP_W, SERVER_W)


def owned_power(owned: int, servers: int | None, hosting: str = "office") -> tuple[float, dict]:
    """The plan's USD a GPU-hour of an owned RTX 4090 and its operands (solve.Fleet), at $0.20 a kWh."""
    from gpuwise.plan.schema import PlanFile
    from gpuwise.plan.servers import owned_server_sizes
    from gpuwise.plan.solve import fleet_for

    pf = PlanFile.model_validate({"horizon_months": 1, "owned": [
        {"gpu": "RTX 4090", "count": owned, "hosting": hosting, **({"servers": servers} if servers else {})}],
        "workloads": [{"name": "w", "workload": {"task": "inference", "model": "llama-3.1-8b"},
                       "cadence": {"continuous": True}}]})
    f = fleet_for(KB, KB.gpus["rtx-4090"], owned, hosting, electricity=0.20, hosting=None, market="global",
                  usd_cny=7.0, machines=owned_server_sizes(pf, KB, "rtx-4090"))
    return f.owned_power_per_gpu_hour, f.owned_power


@pytest.mark.parametrize(("owned", "servers", "host_w_a_gpu"), [
    (1, None, DESKTOP_W),          # one card: one desktop, as one bought (test_planreview57's purchase: 250 W)
    (4, None, DESKTOP_W / 4),      # four in one desktop (prices.yaml rtx-4090 units.max_per_node 4): 62.5 W a card
    (8, 2, DESKTOP_W / 4),         # the bundled example: 8 in 2 machines of 4, two desktops, 2 x 250 W over 8 cards
    (8, 1, SERVER_W),              # 8 in one machine: more than a desktop holds, a GPU server, as 8 bought go in one
    (8, None, SERVER_W),           # 8 with no machines stated: one machine of them all, a server
    (6, 2, DESKTOP_W / 3),         # 3 and 3: two desktops
])
def test_owned_cards_draw_the_host_of_the_machine_they_sit_in(owned, servers, host_w_a_gpu):
    """An owned RTX 4090 drew the server host's 410 W a GPU where the same card bought as a workstation drew 250 W a
    box: one rule now decides both by the machine (gpuwise.estimators.cost.machine_host_w). Office PUE 1.0."""
    rate, operands = owned_power(owned, servers)
    assert operands["host_w"] == pytest.approx(host_w_a_gpu)
    assert rate == pytest.approx((TDP_4090 + host_w_a_gpu) / 1000 * 1.0 * 0.20)


def test_an_owned_card_and_the_same_card_bought_draw_the_same_host():
    """One 4090 owned and one bought, both in the office: the same watts a GPU-hour (450 + 250)."""
    from gpuwise.plan.solve import fleet_for

    f = fleet_for(KB, KB.gpus["rtx-4090"], 1, "office", electricity=0.20, hosting="office", market="global",
                  usd_cny=7.0, machines=[1])
    assert f.owned_power["host_w"] == f.bought_power["host_w"] == DESKTOP_W
    assert f.owned_power_per_gpu_hour == pytest.approx(f.bought_power_per_gpu_hour)


def test_the_bundled_example_s_owned_cards_cost_two_desktops_of_power():
    """examples/plan-team-4090.yaml: 8 owned RTX 4090s in 2 machines in the office at $0.15 a kWh, every GPU busy
    every hour (chat-70b on two copies of four): 8 x 450 W + 2 x 250 W = 4.1 kW, x 730 h x $0.15 = $448.95 a month
    (it was 8 x (450 + 410) W = 6.88 kW, $753.36)."""
    r = plan(str(Path(__file__).parent.parent / "examples" / "plan-team-4090.yaml"))
    assert all(m.utilisation == pytest.approx(1.0) for m in r.months)
    assert [m.opex for m in r.months] == pytest.approx([(8 * TDP_4090 + 2 * DESKTOP_W) / 1000 * HOURS * 0.15] * 12)


# ---------------------------------------------------------------------------------------------- 5. the copy size
EXAMPLE = Path(__file__).parent.parent / "examples" / "plan-team-4090.yaml"


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_the_brief_page_gives_a_service_s_copy_size(fmt):
    """The example serves chat-70b on its 8 owned RTX 4090s in copies of 4 (options[].count; the full page's and the
    JSON's copy_sizes): the brief page said '8 x RTX 4090, owned' and not how they are split. Its 'Where each
    workload runs' now has the GPUs a copy beside them: 4 for the service, a dash for the training runs."""
    from gpuwise.render import plan_view

    r = plan(str(EXAMPLE))
    (chat,) = [o for o in r.options if o.workload == "chat-70b" and o.gpu == "rtx-4090"]
    assert chat.count == 4
    vm = plan_view.view(r, fmt=fmt)
    where = vm["where"]
    assert where["headers"][2] == "A copy"
    rows = {(row["cells"][0], row["cells"][3]): row["cells"] for row in where["rows"]}
    assert rows[("chat-70b", "owned")][1:3] == ["8 x NVIDIA GeForce RTX 4090 24GB", "4"]
    assert rows[("lora-8b", "rented")][2] == "—"
    page = plan_view.render(r, fmt, width=200)
    assert "A copy" in page
    zh = plan_view.render(r, fmt, lang="zh", width=200)
    assert "每副本" in zh and "A copy" not in zh


# ---------------------------------------------------------------------------------------------- 6. owned[].network
def one_a_server(tmp_path: Path, **owned) -> str:
    """The bundled example with its 8 RTX 4090s one to a server: the fine-tune's and the service's 2-GPU runs and
    copies span two servers, over the network between them."""
    import yaml

    doc = yaml.safe_load(EXAMPLE.read_text())
    doc["owned"][0].update({"servers": 8, **owned})
    return write_yaml(tmp_path, doc, "team.yaml")


def test_owned_network_is_an_input_the_plan_runs_over(tmp_path: Path):
    """plansvc57 timed a run over the owned servers on the GPU class's default network and named it in the JSON's
    owned[].network, but the plan file could not state it. Stated, it is the network the runs and copies over the
    servers are estimated on (the LoRA fine-tune's two-GPU run over two servers is faster on InfiniBand 200 than on
    the 25 Gb/s Ethernet default), the JSON and the page name it, and no assumption says it was taken."""
    default = json_of(tmp_path, "plan", one_a_server(tmp_path))
    stated = json_of(tmp_path, "plan", one_a_server(tmp_path, network="infiniband-200"))
    assert (default["owned"][0]["network"], stated["owned"][0]["network"]) == ("ethernet-25", "infiniband-200")

    def lora_hours(d: dict) -> float:
        (o,) = [o for o in d["options"] if o["workload"] == "lora-8b" and o["gpu"] == "rtx-4090"]
        return o["wall_hours"]

    assert lora_hours(stated) < lora_hours(default)
    assert [a for a in default["assumptions"] if a["field"] == "owned[].servers"]
    assert not [a for a in stated["assumptions"] if a["field"] == "owned[].servers"]
    done = gpuwise("plan", one_a_server(tmp_path, network="infiniband-200"), cwd=tmp_path)
    assert "servers on infiniband-200" in " ".join(done.stdout.split())


@pytest.mark.parametrize(("network", "said"), [
    ("infiniband-20", "owned[0].network: unknown network 'infiniband-20' (did you mean infiniband-200?)"),
])
def test_an_unknown_owned_network_is_refused_with_the_close_name(tmp_path: Path, network, said):
    done = gpuwise("plan", one_a_server(tmp_path, network=network), cwd=tmp_path)
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr


def test_two_networks_for_one_owned_type_are_refused(tmp_path: Path):
    f = write_yaml(tmp_path, {**LAB, "owned": [
        {"gpu": "A100 80GB SXM", "count": 8, "servers": 1, "network": "infiniband-200"},
        {"gpu": "A100 80GB SXM", "count": 8, "servers": 1, "network": "ethernet-100"}]}, "two.yaml")
    done = gpuwise("plan", f, cwd=tmp_path)
    assert done.returncode == 2 and "owned[1].network" in done.stderr and "infiniband-200" in done.stderr


# ---------------------------------------------------------------------------------------------- 4. copies over servers
def test_a_copy_over_the_owned_servers_carries_what_it_does_over_their_network(tmp_path: Path):
    """The example's 8 RTX 4090s one to a server: chat-70b's copy of 2 (tensor parallel 2 inside one server, 86.1
    tokens/s) spans two owned servers, where the estimate over them (2 pipeline stages on the ethernet-25 default)
    carries 59.1. The plan counted each owned copy at the one-server figure: its 4 owned copies carried 344 tokens/s
    of month 1's 600 where they carry 236, and it rented too little beside them. Now the owned copies count at the
    estimate over the servers (options[].own_capacity) and the rented copies at the one-server rental's."""
    import yaml

    from gpuwise.decide import rulebook
    from gpuwise.estimators.candidate import evaluate
    from gpuwise.inputs.job import resolve
    from gpuwise.plan.schema import PlanFile
    from gpuwise.plan.sizing import _requirements, plan_within

    d = json_of(tmp_path, "plan", one_a_server(tmp_path))
    (o,) = [o for o in d["options"] if o["workload"] == "chat-70b" and o["gpu"] == "rtx-4090"]
    assert o["count"] == 2 and o["layout"] == "tensor parallel 2"
    pf = PlanFile.model_validate(yaml.safe_load(EXAMPLE.read_text()))  # the service's job as the plan sizes it
    book = rulebook.load(None, {k: v.value for k, v in KB.policy.items()})
    job = plan_within(resolve(_requirements(pf.workloads[1], pf, 12), KB), book)
    over = evaluate(job, KB.gpus["rtx-4090"], 2, nodes=2, network="ethernet-25")
    assert over.label() == "2 pipeline stages"
    assert o["own_capacity"] == pytest.approx(over.serving.max_throughput_tokens_per_s, rel=1e-9)
    assert o["own_capacity"] < 0.75 * o["capacity"]
    demand = next(x for x in d["workloads"] if x["name"] == "chat-70b")["demand"]
    caps = {x["gpu"]: x["capacity"] for x in d["options"] if x["workload"] == "chat-70b"}
    for m, month in enumerate(d["months"]):
        carried = sum(p["copies"] * (o["own_capacity"] if p["acquisition"] == "owned" else caps[p["gpu"]])
                      for p in month["placements"] if p["workload"] == "chat-70b")
        assert carried >= demand[m] - 1e-6
