"""What build.py, build_real.py and build_more.py share: the real reports they start from (the
folder above) and one checked way to edit them."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

BASES = Path(__file__).parent.parent


def read(name: str) -> str:
    return (BASES / name).read_text(encoding="utf-8")


def sub(text: str, *edits: tuple[str, str], count: int = 1) -> str:
    """Each (regex, replacement) must change the text, so an edit never silently misses."""
    for pattern, repl in edits:
        changed = re.sub(pattern, repl, text, count=count)
        if changed == text:
            raise SystemExit(f"edit did not apply: {pattern!r}")
        text = changed
    return text


def gpu_block(text: str) -> tuple[str, str, str]:
    """(before the first <gpu> line, the <gpu> block, after it)."""
    start = text.index("<gpu id=")
    start = text.rindex("\n", 0, start) + 1
    end = text.index("</gpu>", start) + len("</gpu>\n")
    return text[:start], text[start:end], text[end:]


def gpus(text: str, n: int, edit: Callable[[int, str], str]) -> str:
    """The report's one GPU repeated ``n`` times on buses 0x11.. (each its own bus id, UUID and minor
    number, as nvidia-smi lists the GPUs of one host), the i-th block edited by ``edit(i, block)``."""
    head, block, tail = gpu_block(text)
    blocks = []
    for i in range(1, n + 1):
        b = re.sub(r'id="00000000:[0-9A-F]{2}:[0-9A-F]{2}\.0"', f'id="00000000:{0x10 + i:02X}:00.0"', block, count=1)
        b = re.sub(r"<pci_bus_id>[^<]*", f"<pci_bus_id>00000000:{0x10 + i:02X}:00.0", b, count=1)
        b = re.sub(r"<pci_bus>[^<]*", f"<pci_bus>{0x10 + i:02X}", b, count=1)
        b = re.sub(r"<uuid>GPU-([0-9a-f-]+)[0-9a-f]{2}<", rf"<uuid>GPU-\g<1>{i:02x}<", b, count=1)
        b = re.sub(r"<minor_number>\d+", f"<minor_number>{i - 1}", b, count=1)
        blocks.append(edit(i, b))
    head = re.sub(r"<attached_gpus>\d+", f"<attached_gpus>{n}", head, count=1)
    return head + "".join(blocks) + tail
