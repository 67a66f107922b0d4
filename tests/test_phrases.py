"""Values an estimator words (a link description) travel as message ids with values: the English
text is filled from reports/messages.yaml, and a report in another language translates each part
through the catalog, from the result object or from its JSON. No English is parsed back."""

from __future__ import annotations

import json

import pytest

import gpuwise
from gpuwise import messages
from gpuwise.estimators import interconnect as I
from gpuwise.render import words
from gpuwise.render.fmt import Fmt
from gpuwise.results import RecommendResult

from .conftest import ROOT


@pytest.mark.parametrize("gpu, count, english", [
    ("h100-80gb-sxm", 1, "single GPU"),
    # NVLink 4 through NVSwitch: 900 GB/s per GPU, both directions (H100 SXM datasheet)
    ("h100-80gb-sxm", 8, "nvswitch 900 GB/s per GPU (both directions)"),
    ("h100-80gb-sxm", 16, "nvswitch 900 GB/s per GPU (both directions); 2 nodes over infiniband-400"),
    # GeForce: PCIe 4.0 x16 (31.5 GB/s per direction), peer-to-peer disabled by the driver
    ("rtx-4090", 4, "PCIe gen4 x16 31.5 GB/s per direction, no peer-to-peer (via host)"),
])
def test_a_link_is_described_from_message_ids(kb, gpu, count, english):
    topo = I.topology(kb.gpus[gpu], count, kb.runtime, network="infiniband-400" if count > 8 else None)
    assert topo.description == english
    assert messages.phrase_text(topo.phrases) == english
    assert all(mid in messages.catalog() for _sep, mid, _values in topo.phrases)


def test_a_link_is_worded_in_chinese_from_its_parts_not_its_english():
    zh = Fmt("zh")
    parts = [["", "link.pcie", {"gen": "4", "bw": 31.5}], [", ", "link.no_p2p", {}],
             ["; ", "link.nodes", {"n": 2, "network": "ethernet-25"}]]
    worded = words.value("link", "anything: the English is not read", {"link_phrases": parts}, zh)
    assert worded == "PCIe 第 4 代 x16，每方向 31.5 GB/s，无点对点通信（经主机中转）；2 个节点之间为 ethernet-25"
    # without parts (a value no estimator worded) the text is shown as it came
    assert words.value("link", "as written", {}, zh) == "as written"


def test_a_finding_keeps_the_parts_through_json():
    """The parts ride in the finding's values beside the English, so a report re-rendered from the
    saved JSON words the link in Chinese too."""
    r = gpuwise.recommend(str(ROOT / "tests" / "rules" / "NET-NO-P2P" / "input.yaml"))
    f = next(f for f in r.findings if f.rule == "NET-NO-P2P")
    assert f.values["link"] == "PCIe gen4 x16 31.5 GB/s per direction, no peer-to-peer (via host)"
    assert [p[1] for p in f.values["link_phrases"]] == ["link.pcie", "link.no_p2p"]
    again = RecommendResult.model_validate(json.loads(r.model_dump_json()))
    g = next(f for f in again.findings if f.rule == "NET-NO-P2P")
    zh = Fmt("zh").sentence(g.template, g.values)
    assert "每方向 31.5 GB/s，无点对点通信（经主机中转）" in zh and "per direction" not in zh


def test_no_link_pattern_is_left_in_the_wording_module():
    text = (ROOT / "gpuwise" / "render" / "words.py").read_text()
    assert "_LINK_FORMS" not in text and "per GPU \\(both directions\\)" not in text
