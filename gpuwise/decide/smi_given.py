"""What a file given as an ``nvidia-smi -q -x`` report is when it is not one, said in one line.

A seller sends what they have: the text report (``nvidia-smi -q``), the summary table, query CSV,
a compressed file, a screenshot, the XML HTML-escaped or after a shell prompt, UTF-16 from Windows
PowerShell, or a copy cut short. :mod:`gpuwise.decide.smi_report` asks here before and while it
parses, so each is refused by name rather than with the XML parser's words.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from gpuwise.errors import N_, Term, UserError

_MAGIC = {b"\x1f\x8b": "gzip", b"PK\x03\x04": "zip", b"\xfd7zXZ": "xz", b"BZh": "bzip2",
          b"\x28\xb5\x2f\xfd": "zstd", b"%PDF": "PDF", b"\x89PNG": "PNG", b"\xff\xd8\xff": "JPEG"}
_QUERY_FIELDS = re.compile(r"^\s*(index|name|uuid|pci\.bus_id|serial|temperature\.\w+|power\.\w+|"
                           r"driver_version|memory\.\w+|fan\.speed|clocks\S*|utilization\.\w+|timestamp)"
                           r"(\s*\[[^]]*\])?\s*[,;\t]", re.IGNORECASE)

MAX_XML_DEPTH = 32
"""Elements nested deeper than this are refused as they are met (nvidia-smi's reports nest 7 deep):
a report of 5,000 nested elements was refused with Python's 'RecursionError' as its reason."""
MAX_XML_ELEMENTS = 100_000
MAX_GPU_ELEMENTS = 10_000
"""Elements in the whole report and in one of its sections (a ``<gpu>``): real reports have 150-1,100
per GPU (tests/data/nvidia_smi). 3.6 MB of 190,000 unknown elements took ~7 s to read; each limit is
met within a second."""


def _counted_start(depth: int, counts: list[int], where: str) -> None:
    """Count an element as the parser starts it (``counts``: in the report, in its section) and
    refuse the report once it is nested too deep or holds too many."""
    counts[0] += 1
    counts[1] = counts[1] + 1 if depth > 2 else 1
    if depth > MAX_XML_DEPTH or counts[0] > MAX_XML_ELEMENTS or counts[1] > MAX_GPU_ELEMENTS:
        raise _too_big(depth, counts[0], where)


def _too_big(depth: int, elements: int, where: str) -> UserError:
    """The one line for a report nested too deep or of too many elements."""
    hint = N_("give the report exactly as `nvidia-smi -q -x` wrote it")
    if depth > MAX_XML_DEPTH:
        return UserError(N_("not valid nvidia-smi XML: nested too deep (more than %(max)s levels; nvidia-smi's "
                            "reports nest 7)"), where=where, values={"max": MAX_XML_DEPTH}, hint=hint)
    many, part = ((MAX_XML_ELEMENTS, Term(N_("the report"))) if elements > MAX_XML_ELEMENTS
                  else (MAX_GPU_ELEMENTS, Term(N_("one section"))))
    return UserError(N_("not valid nvidia-smi XML: more than %(max)s elements in %(part)s (a real report has "
                        "150-1,100 per GPU)"), where=where, values={"max": f"{many:,}", "part": part}, hint=hint)


def _as_text(data: bytes, errors: str = "replace") -> str:
    """The report's text as the parser will see it (a byte-order mark, or UTF-16 without one as
    Windows PowerShell's ``>`` writes it, decoded), for saying what a file that is not the XML is."""
    # UTF-32 before UTF-16: its mark starts as UTF-16's (PowerShell's Out-File -Encoding utf32)
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe\x00\x00", "utf-32-le"),
                       (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors)
    if data[1:2] == b"\0" and data[:1] != b"\0":
        return data.decode("utf-16-le", errors)
    if data[:1] == b"\0" and data[1:2] != b"\0":
        return data.decode("utf-16-be", errors)
    return data.decode("utf-8", errors)


def _as_utf8(data: bytes) -> bytes:
    """The report as UTF-8 for the parser. A report saved as UTF-16 (Windows PowerShell 5's ``>``)
    or with a byte-order mark keeps the ``encoding="UTF-8"`` its XML declaration had (driver 535
    and later write one): the parser refused such a copy as 'encoding specified in XML declaration
    is incorrect'. Decoded here, the declaration's encoding is dropped, as it no longer applies."""
    utf16 = data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\x00\x00\xfe\xff" or (
        len(data) > 1 and (data[0] == 0) != (data[1] == 0))  # (or UTF-32 with its mark: PowerShell's -Encoding utf32)
    if not utf16 and not data.startswith(b"\xef\xbb\xbf"):
        # single bytes that say they are UTF-16 (a declaration kept when the file was saved again as
        # UTF-8): the bytes decide, as the parser refused it as 'encoding ... is incorrect'
        data = re.sub(rb"\A(\s*<\?xml[^>]*?)\s+encoding\s*=\s*[\"']utf-?16[^\"']*[\"']", rb"\1", data,
                      flags=re.IGNORECASE)
        return _ansi_as_utf8(data)
    return _without_encoding(_as_text(data, errors="strict").encode())


_DROP_ENCODING = re.compile(rb"\A(\s*<\?xml[^>]*?)\s+encoding\s*=\s*[\"'][^\"']*[\"']")


def _without_encoding(data: bytes) -> bytes:
    """UTF-8 bytes of a report without its XML declaration's encoding, which no longer applies once
    the report is decoded here (UTF-8 is the parser's default)."""
    return _DROP_ENCODING.sub(rb"\1", data, count=1)


_DECLARED = re.compile(rb"\A\s*<\?xml[^>]*?\sencoding\s*=\s*[\"']([^\"']*)[\"']", re.IGNORECASE)


def _ansi_as_utf8(data: bytes) -> bytes:
    """The report as UTF-8 when it is in another byte encoding. nvidia-smi writes UTF-8; a copy
    saved again in Windows' ANSI code page (Notepad's "ANSI": cp1252, or GBK on a Chinese system)
    with a process path such as ``C:\\Users\\José\\...`` in it, declaring no encoding, was
    refused as 'not well-formed (invalid token): line 30, column 13', a reason no seller can act
    on; the readings are ASCII, so such a copy is read as cp1252 (an undefined byte as U+FFFD). A
    copy that declares its encoding (``GBK``, ``Shift_JIS``: 'multi-byte encodings are not
    supported' by the parser) is decoded by that declaration. An encoding Python does not know is
    left to the parser, which names it."""
    import codecs

    declared = _DECLARED.match(data[:512])
    codec = "utf-8"
    if declared is not None:
        try:
            codec = codecs.lookup(declared.group(1).decode("ascii", "replace").strip()).name
        except LookupError:
            return data
    if codec == "utf-8":
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            codec = "cp1252"
        else:  # a spelling the parser does not take for UTF-8 (utf8) is dropped: UTF-8 is its default
            return data if declared is None else _without_encoding(data)
    try:
        text = data.decode(codec, errors="replace")
    except (LookupError, ValueError, TypeError):  # a codec that is no text encoding (base64, rot13)
        return data
    return _without_encoding(text.encode())


def _not_xml(data: bytes, where: str) -> UserError | None:
    """A one-line refusal saying what the file is, when it plainly is not ``nvidia-smi -q -x``
    output: the text report (``nvidia-smi -q``), the summary table (``nvidia-smi``), query CSV
    (``--query-gpu``), a compressed file or an image, HTML-escaped XML or XML after other text (a
    pasted shell prompt, a Markdown fence). ``None`` when it starts as XML does."""
    hint = N_("save the output of `nvidia-smi -q -x` to a file (`nvidia-smi -q -x > report.xml`)")
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            return UserError(N_("not valid nvidia-smi XML: a %(kind)s file"), where=where, values={"kind": kind},
                             hint=N_("unpack it, or give the report as text"))
    text = _as_text(data[:8192]).lstrip("\ufeff \t\r\n\0")
    if not text:
        return UserError(N_("not valid nvidia-smi XML: the file is empty"), where=where, hint=hint)
    if text.startswith("<"):
        return None
    first = text.splitlines()[0].strip()
    if re.match(r"No devices were found|NVIDIA-SMI has failed|Failed to initialize NVML", text):
        return UserError(N_("not valid nvidia-smi XML: nvidia-smi wrote an error, not a report: '%(text)s'"),
                         where=where, values={"text": first[:80]},
                         hint=N_("run it where the card is installed and its driver loaded"))
    if "NVSMI LOG" in text[:400] or re.search(r"^\s*(Driver Version|Attached GPUs|Product Name)\s+: ", text, re.M):
        said = N_("not valid nvidia-smi XML: this is the text report of `nvidia-smi -q`")
    elif re.search(r"NVIDIA-SMI\s+\S+\s+Driver Version", text[:2000]):
        said = N_("not valid nvidia-smi XML: this is the summary table `nvidia-smi` prints")
    elif _QUERY_FIELDS.match(first):
        said = N_("not valid nvidia-smi XML: this is CSV from `nvidia-smi --query-gpu`")
    elif text.startswith(("&lt;", "&amp;lt;")):
        said = N_("not valid nvidia-smi XML: the XML is HTML-escaped (&lt; where < belongs)")
    else:
        line = next((n for n, row in enumerate(_as_text(data).splitlines(), 1) if row.strip()), 1)
        return UserError(N_("not valid nvidia-smi XML: line %(line)s starts with '%(text)s', not with XML"),
                         where=where, values={"line": line, "text": first[:40]},
                         hint=N_("keep only what `nvidia-smi -q -x` printed (no prompt, heading or quote marks)"))
    return UserError(said, where=where, hint=hint)


def _broken(data: bytes, exc: ET.ParseError, where: str) -> UserError:
    """The XML parser's complaint said as what happened to the file: cut short, two reports in one
    file, or something after the report's end; any other is the parser's own words."""
    text = _as_text(data)
    line = exc.position[0] if getattr(exc, "position", None) else 0
    end = text.find("</nvidia_smi_log>")
    end_line = text.count("\n", 0, end) + 1 if end >= 0 else None
    if end_line is None and str(exc).startswith(("no element found", "unclosed token")):
        return UserError(N_("not valid nvidia-smi XML: the file ends at line %(line)s, before the report does "
                            "(no </nvidia_smi_log>)"), where=where, values={"line": line},
                         hint=N_("the copy was cut short: save the whole output of `nvidia-smi -q -x` again"))
    if end_line is not None and line >= end_line:
        if text.find("<nvidia_smi_log", end) >= 0:
            return UserError(N_("not valid nvidia-smi XML: a second report starts after the first ends "
                                "(line %(line)s)"), where=where, values={"line": line},
                             hint=N_("give each host's report in its own file"))
        return UserError(N_("not valid nvidia-smi XML: line %(line)s: something follows the report's end"),
                         where=where, values={"line": line},
                         hint=N_("keep only what `nvidia-smi -q -x` printed"))
    return UserError(N_("not valid nvidia-smi XML: %(reason)s"), where=where, values={"reason": exc})


_LOST = re.compile(r"\s*Unable to determine the device handle for\s+(?:GPU\s*)?(?:(?P<bus>[0-9a-f]{4,8}:[0-9a-f]{2}:"
                   r"[0-9a-f]{2}\.[0-7])|(?P<idx>\d+)\s*:\s*(?P<bus2>[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])?)"
                   r"\s*:?\s*(?P<why>[^\r\n]*)", re.IGNORECASE)


def _lost_gpus(data: bytes) -> tuple[list[tuple[str, str]], bytes]:
    """The GPUs nvidia-smi could not reach, from the lines it writes above a report (its standard
    error, saved with ``2>&1``): ``Unable to determine the device handle for GPU3: 0000:5F:00.0:
    Unknown Error`` is a GPU that fell off the bus (Xid 79). Returns ((bus id or ``GPU <index>``,
    the reason), ...) and the data after those lines; nothing when the data does not start so."""
    head = _as_text(data[:512]).lstrip("\ufeff \t\r\n\0").lower()  # UTF-16 too (PowerShell's 2>&1)
    if not head.startswith("unable to determine the device handle"):
        return [], data
    text = _as_text(data)
    lost: list[tuple[str, str]] = []
    pos = 0
    while (m := _LOST.match(text, pos)) is not None and len(lost) < 64:
        bus = m.group("bus") or m.group("bus2")
        lost.append((bus or f"GPU {m.group('idx')}", m.group("why").strip()[:80] or "no reason given"))
        pos = m.end()
    return lost, text[pos:].lstrip().encode()


_PROCESS_NAME = re.compile(rb"(<process_name>)([^\n]*?)(</process_name>)")
_BARE_AMP = re.compile(r"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)")
_NOT_XML_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _process_names_escaped(data: bytes) -> bytes:
    """The report with each ``<process_name>`` made well-formed XML. nvidia-smi writes the running
    processes' names as they are, unescaped: a process called ``train&eval`` or ``a<b``, or a name
    read while the process changed (arbitrary bytes: cwltool #1910 met ``\\xff...`` there), makes
    the whole report ill-formed, and a real report was refused for a name gpuwise never reads.
    Only those elements' text is touched (invalid UTF-8 replaced, ``&`` and ``<`` escaped)."""
    if b"<process_name>" not in data:
        return data

    def fix(m: re.Match[bytes]) -> bytes:
        text = _NOT_XML_CHARS.sub("\ufffd", m.group(2).decode("utf-8", "replace"))
        text = _BARE_AMP.sub("&amp;", text).replace("<", "&lt;")
        return m.group(1) + text.encode() + m.group(3)

    return _PROCESS_NAME.sub(fix, data)
