"""One value of an ``nvidia-smi -q -x`` report, read as nvidia-smi writes it.

Every value may be ``N/A``, ``[N/A]``, ``Not Supported``, ``Requested functionality has been
deprecated`` and the like: all of them read as ``None`` (unknown), never as zero. A number in a
form nvidia-smi never writes (``0x10``, ``27,23 W``, ``23.028 MiB``) refuses the report rather than
being guessed; temperatures retyped in Fahrenheit are converted. :mod:`gpuwise.decide.smi_report` reads the sections
with these.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from gpuwise.errors import N_, Said, Term

_UNKNOWN = {
    "n/a",
    "not supported",
    "unknown error",
    "insufficient permissions",
    "requested functionality has been deprecated",
    "not found",
    "",
}


def _text(node: ET.Element | None, path: str) -> str | None:
    """The stripped text at ``path`` under ``node``; ``None`` when absent or an N/A-like marker."""
    if node is None:
        return None
    return _own_text(node.find(path))


def _own_text(found: ET.Element | None) -> str | None:
    """An element's own stripped text; ``None`` when absent or an N/A-like marker."""
    if found is None or found.text is None:
        return None
    text = found.text.strip()
    if text.strip("[]").strip().lower() in _UNKNOWN:
        return None
    return text


def _number(text: str | None, unit: str = "", path: str = "", *, whole: bool = False) -> float | None:
    """``"300.00 W"`` with unit ``W`` -> 300.0; ``None`` for unknowns and for words (nvidia-smi
    writes ``[GPU requires reset]``, ``Unknown Error`` and other markers where a number goes).

    A value that starts as a number but is not one as nvidia-smi writes it -- ``0x10`` (it
    writes counts, clocks and sizes in decimal), ``27,23 W`` (a decimal comma from a spreadsheet),
    ``1e3 MHz``, ``300 mW`` -- refuses the report: read as unknown it would hide the reading
    (a hexadecimal replay count was no finding at all), and no reading is guessed. So does a
    ``whole`` number (sizes, clocks, counts: nvidia-smi writes them without a fraction) grouped by
    thousands, ``23.028 MiB`` from a German locale: read as 23 MiB it made an A10G 'another card'."""
    if text is None:
        return None
    # ASCII digits: nvidia-smi writes no other; fullwidth '１０８ C' (a retyped report) is refused below
    match = re.fullmatch(r"([-+]?[0-9]+(?:\.[0-9]+)?)\s*" + re.escape(unit), text, flags=re.IGNORECASE)
    if not match:
        if re.match(r"[-+]?\.?\d", text):
            raise Said(N_("<%(path)s> reads '%(value)s': not a number as nvidia-smi writes it (%(expected)s)"),
                       path=path, value=text[:40], expected=_EXPECTED.get(unit, unit))
        return None
    if whole and re.fullmatch(r"[-+]?[0-9]{1,3}(\.[0-9]{3})+", match.group(1)):
        raise Said(N_("<%(path)s> reads '%(value)s': not a number as nvidia-smi writes it (%(expected)s)"),
                   path=path, value=text[:40], expected=_EXPECTED.get(unit, unit))
    value = float(match.group(1))
    if not math.isfinite(value) or abs(value) > 1e15:
        raise ValueError(f"reading '{text[:40]}' is not a plausible number")
    return value


_EXPECTED = {"": Term(N_("a decimal number such as 12")), "W": Term(N_("a decimal number of watts such as 250.00 W")),
             "C": Term(N_("whole degrees such as 65 C")), "MHz": Term(N_("a decimal number such as 1395 MHz")),
             "MiB": Term(N_("a decimal number such as 24576 MiB")), "%": Term(N_("a decimal number such as 30 %")),
             "x": Term(N_("a link width such as 16x")), "bank(s)": Term(N_("a decimal number such as 640 bank(s)"))}
"""What a field looks like as nvidia-smi writes it, for the message refusing one that does not."""


def _int(node: ET.Element | None, path: str, unit: str = "") -> int | None:
    value = _number(_text(node, path), unit, path, whole=True)
    return None if value is None else int(value)


def _width(node: ET.Element | None, path: str) -> int | None:
    """A PCIe link width: ``16x`` as nvidia-smi writes it, or ``x16`` as the PCIe specification and
    other tools write it (a retyped ``x1`` was read as unknown, hiding a mining riser)."""
    text = _text(node, path)
    if text is not None:
        text = re.sub(r"^[xX]\s*([0-9]+)$", r"\1x", text)
    value = _number(text, "x", path, whole=True)
    return None if value is None else int(value)


def _count(node: ET.Element | None, path: str, unit: str = "") -> int | None:
    """A counter, a size or a percentage: never negative.  A negative one is not a reading a
    driver writes, so the report is refused rather than read as 'no errors'."""
    return _counted(_int(node, path, unit), path)


def _child_count(child: ET.Element) -> int | None:
    """:func:`_count` of a child already in hand (no search by name: a block of 20,000 children
    is read in one pass, not 20,000 searches)."""
    value = _number(_own_text(child), "", child.tag, whole=True)
    return _counted(None if value is None else int(value), child.tag)


def _counted(value: int | None, path: str) -> int | None:
    if value is not None and value < 0:
        raise ValueError(f"<{path}> is {value}: a count cannot be negative")
    return value


def _percent(node: ET.Element | None, path: str) -> int | None:
    value = _count(node, path, "%")
    if value is not None and value > 100:
        raise ValueError(f"<{path}> is {value} %: a percentage cannot exceed 100")
    return value


_NO_SERIAL = {"redacted", "unknown", "none", "hidden", "removed"}
_NO_NAME = re.compile(r"(nvidia\s+)?(graphics\s+device|unknown(\s+gpu)?|device)", re.IGNORECASE)


def _product_name(gpu: ET.Element) -> str | None:
    """The product name, or ``None`` where the driver gives only a placeholder: a driver that does
    not know the board's device id writes ``Graphics Device`` (telegraf's GTX 1660 Ti report, with a
    driver older than the card; also engineering samples and modified boards), which names no
    product the report could be checked against."""
    text = _text(gpu, "product_name")
    return None if text is not None and _NO_NAME.fullmatch(text.strip()) else text



def _serial(node: ET.Element | None) -> str | None:
    """The board serial, or ``None`` where the report hides it (``N/A``, ``REDACTED``, all zeros:
    cloud instances report 0000000000000)."""
    text = _text(node, "serial")
    if text is None or text.lower() in _NO_SERIAL or set(text) <= {"0"}:
        return None
    return text


def _float(node: ET.Element | None, path: str, unit: str = "") -> float | None:
    return _number(_text(node, path), unit, path)


def _temp(node: ET.Element | None, path: str) -> int | None:
    """A temperature in degrees C: ``85 C`` as nvidia-smi writes it, ``85 °C``/``85 ℃`` as a seller
    may retype it, and ``185 F``/``185 °F``/``185 ℉`` converted (nvidia-smi writes Celsius only; a
    Fahrenheit figure is a retyped report, and its unit says what it means: read as unknown, a
    190 F memory junction -- 88 C -- was no reading at all). One outside -50..200 C is no reading a
    GPU gives (they shut down near 100 C), so the report is refused rather than judged on it
    (99999999999 C was a GPU 'at its limit')."""
    text = _text(node, path)
    fahrenheit = False
    if text is not None:
        text = re.sub(r"\s*(°\s*C|℃)$", " C", text)
        retyped = re.sub(r"(?<=\d)\s*(°\s*F|℉|F)$", " C", text, flags=re.IGNORECASE)
        fahrenheit = retyped != text
        text = retyped
    value = _number(text, "C", path)
    if value is not None and fahrenheit:
        value = round((value - 32) * 5 / 9)
    if value is not None and not -50 <= value <= 200:
        raise Said(N_("<%(path)s> reads %(value)s: not a temperature a GPU reports"), path=path,
                   value=_text(node, path))
    return None if value is None else int(value)


def _memory_limit(temp: ET.Element | None) -> int | None:
    """The memory's max operating temperature (NVML NVML_TEMPERATURE_THRESHOLD_MEM_MAX: the memory
    temperature at which the GPU begins software slowdown), where the report gives it as a
    temperature (``gpu_temp_max_mem_threshold``).

    Ada and later boards on newer drivers give instead ``gpu_temp_max_mem_tlimit_threshold``
    (NVML_FI_DEV_TEMPERATURE_MEM_MAX_TLIMIT: 'T.Limit temperature after which GPU may begin SW
    slowdown due to memory temperature'): a point on the GPU's T.Limit margin, not a memory
    temperature. Read as T.Limit less that margin it gave the GPU's own limit: an H100 SXM on driver
    565 reports 30 C now, a 57 C margin and a memory margin of 0 C (87 C), where the same boards on
    driver 525 report a memory max operating temperature of 95 C and a GPU max operating
    temperature of 87 C. An HBM3 card at 90 C was told it was over its own limit. That form gives
    no memory limit here (the memory type's throttle point in policy is the yardstick, and the
    GPU's T.Limit thresholds judge the margin itself)."""
    _temp(temp, "gpu_temp_max_mem_tlimit_threshold")  # still a temperature as nvidia-smi writes one, or refused
    return _temp(temp, "gpu_temp_max_mem_threshold")


def _watts(section: ET.Element, path: str) -> float | None:
    """A power figure in W; a negative one, or one over 10 kW (a whole GB200 module draws 2.7 kW),
    is no reading and refuses the report (a power limit of -320 W was read as a changed limit)."""
    value = _float(section, path, "W")
    if value is not None and not 0 <= value <= 10_000:
        raise Said(N_("<%(path)s> is %(value)s W: not a power a GPU reports"), path=path, value=f"{value:g}")
    return value


def _flag(node: ET.Element | None, path: str) -> bool | None:
    """``Yes``/``Enabled``/``Active`` -> True, ``No``/``Disabled``/``Not Active`` -> False."""
    return _flag_of(_text(node, path))


def _flag_of(text: str | None) -> bool | None:
    if text is None:
        return None
    return {"yes": True, "enabled": True, "active": True,
            "no": False, "disabled": False, "not active": False}.get(text.lower())


def _largest(*values: int | None) -> int | None:
    known = [v for v in values if v is not None]
    return max(known) if known else None


def _sum(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None
