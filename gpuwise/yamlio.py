"""Reading YAML safely: one document of plain data, bounded in size, depth and alias expansion.

Every failure is a one-line :class:`UserError` naming the file (the CLI prints it and exits 2).
Used for knowledge files, rule files and the user's input files alike.
"""

from __future__ import annotations

import hashlib
import math
import os
import pickle
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import yaml

from .errors import N_, Term, UserError
from .lru import Lru

try:  # the C loader is several times faster; fall back when libyaml is absent
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_YAML_DEPTH = 64
"""Collections nested deeper than this are refused before anything is built (real files nest < 10)."""
MAX_YAML_VALUES = 100_000
"""Values in a document once every alias is expanded: caps alias bombs ("billion laughs") and the
time a huge-but-small-enough file can take (the largest built-in knowledge file has about 4,000)."""

_TAG = "tag:yaml.org,2002:"


def _clip(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _DataLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, stricter still: plain data only (no ``!!binary``, ``!!set``, ``!!omap``,
    ``!!pairs``; no Python objects), a key given twice in one mapping is an error, and a scalar
    that cannot be read (``2020-02-30``, a 5,000-digit integer) is a YAML error with its position."""

    yaml_constructors: ClassVar[dict[Any, Any]] = {
        k: v for k, v in _Loader.yaml_constructors.items()
        if k not in {_TAG + t for t in ("binary", "set", "omap", "pairs")}
    }

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (yaml.YAMLError, RecursionError, MemoryError):
            raise
        except Exception as exc:  # e.g. !!bool maybe (KeyError), !!timestamp nope (AttributeError)
            kind = str(node.tag).removeprefix(_TAG)
            reason = str(exc).split(";")[0] if isinstance(exc, ValueError | OverflowError) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"{_clip(node.value)} is not a valid {kind}" + (f" ({reason})" if reason else ""),
                node.start_mark,
            ) from None

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _value in node.value:
                if key_node.tag == _TAG + "merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in seen:
                        grouped = (node.flow_style and isinstance(key_node.value, str)
                                   and re.fullmatch(r"[0-9]{3}", key_node.value) is not None)
                        raise yaml.constructor.ConstructorError(  # {n: 2,000,000}: keys 000 and 000 (round 44)
                            None, None, f"duplicate key {_clip(key_node.value if grouped else key)!r}" + (
                                ": inside braces { } a comma ends an entry, so a number written 2,000,000 is read "
                                "as 2 and keys 000: write it without commas" if grouped else ""),
                            key_node.start_mark)
                    seen.add(key)
                except TypeError:  # an unhashable key: the base class reports it
                    pass
        return super().construct_mapping(node, deep=deep)


_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+|[-+]0")  # '0123', and a signed zero: '-0' is 0, written -0
_NOT_DECIMAL = re.compile(r"[-+]?0[xXbB]|.*_")


class Written(int):
    """An integer written with leading zeros (``0123``): the number 123, as YAML 1.2 and a reader
    take it, that keeps the text it was written as (``written``) for a field that is text: a board
    serial ``0324020012345`` was the number 324020012345, and no report's serial matched it."""

    written: str


class WrittenFloat(float):
    """A number written past what a float holds: ``1e400`` is read as inf, ``1e-400`` as 0.0; it keeps its text
    (``written``) so a refusal quotes what the user wrote, not '(got inf)' (hostile round 47)."""

    written: str


def _past_float(value: Any, text: str) -> bool:
    """``text``, a number, became a float written otherwise: inf from digits ('1e400') or from YAML's '.inf', 0.0
    from a mantissa not zero ('1e-400')."""
    if not isinstance(value, float):
        return False
    mantissa = re.split(r"[eE]", text, maxsplit=1)[0]
    return ((not math.isfinite(value) and text.strip() != str(value))
            or (value == 0.0 and any(c in "123456789" for c in mantissa)))


yaml.SafeDumper.add_representer(Written, yaml.SafeDumper.represent_int)
yaml.representer.SafeRepresenter.add_representer(Written, yaml.representer.SafeRepresenter.represent_int)
yaml.SafeDumper.add_representer(WrittenFloat, yaml.SafeDumper.represent_float)
yaml.representer.SafeRepresenter.add_representer(WrittenFloat, yaml.representer.SafeRepresenter.represent_float)
"""Written back as the number it is (a price overlay merged by ``prices import``, resumed answers):
YAML's safe dumpers know ``int`` only, and refused the subclass ('cannot represent an object')."""


def _no_base_60(construct: Any) -> Any:
    """YAML 1.1 reads ``1:30`` as the base-60 number 90 (``1:30.5`` as 90.5), ``0x10`` as 16,
    ``0b11`` as 3 and ``1_6`` as 16; YAML 1.2's core schema, JSON and a reader take ``1:30``,
    ``0b11`` and ``1_6`` as text.  Keep them text, so a number field refuses them by name, saying
    what they would have meant (:mod:`gpuwise.inputs.notation`), instead of taking 90 GPUs from
    what looked like a time.  ``010`` is the octal 8 in YAML 1.1 and 10 in YAML 1.2 and to anyone
    reading it: read as 10."""
    def construct_number(loader: Any, node: Any) -> Any:
        if isinstance(node.value, str) and (":" in node.value or _NOT_DECIMAL.match(node.value)):
            return loader.construct_scalar(node)
        if isinstance(node.value, str) and _LEADING_ZERO.fullmatch(node.value):
            number = Written(int(node.value, 10))
            number.written = node.value
            return number
        value = construct(loader, node)
        if isinstance(node.value, str) and _past_float(value, node.value):
            past = WrittenFloat(value)
            past.written = node.value
            return past
        return value
    return construct_number


_DataLoader.add_constructor(_TAG + "int", _no_base_60(_DataLoader.yaml_constructors[_TAG + "int"]))
_DataLoader.add_constructor(_TAG + "float", _no_base_60(_DataLoader.yaml_constructors[_TAG + "float"]))
_DataLoader.add_implicit_resolver(
    _TAG + "float", re.compile(r"^[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)[eE][-+]?[0-9]+$"), list("-+.0123456789"))
"""YAML 1.1 reads a number in exponent form as text unless it has a dot and a signed exponent
(``1.0e+7``): ``1e-7``, ``1.5e3`` and ``2e9`` were strings, refused as 'not a number' in a house rule
or policy value, or taken as text. YAML 1.2 and every other reader take them as numbers; so does
gpuwise."""


class _TooManyEntries(Exception):
    """A top-level list over its file kind's limit made the file reach the 100,000-value limit: said
    as the list's limit (a 5,000-workload plan was 'more than 100000 values', naming neither)."""

    def __init__(self, key: str, cap: int, entries: int) -> None:
        super().__init__(key)
        self.key, self.cap, self.entries = key, cap, entries


def _check_shape(text: str, caps: Mapping[str, int] | None = None) -> None:
    """Walk the event stream (nothing is built) and refuse, with a position, what would be costly
    or dangerous to build: several documents, deep nesting, too many values after alias expansion,
    recursive aliases. A file over the value limit because a top-level list is longer than ``caps``
    allows for its key is refused by that list's limit (a plan of 5,000 workloads was 'more than
    100000 values', naming neither the field nor its limit of 50); one under it is left to the schema."""
    ev = yaml.events
    total = 0
    documents = 0
    open_: list[tuple[str | None, int, bool]] = []  # (anchor, total before, is a sequence) of each open collection
    sizes: dict[str, int] = {}  # anchor -> expanded size
    aliases = False
    top_key: Any = None  # the top-level key whose value is being read
    expect_key = True
    entries = 0  # entries of the top-level sequence being read
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, ev.NodeEvent) and len(open_) == 1 and not open_[0][2]:  # a top-level key or value
            if expect_key:
                top_key = getattr(event, "value", None)
            expect_key, entries = not expect_key, 0
        elif isinstance(event, ev.NodeEvent) and len(open_) == 2 and open_[1][2] and not open_[0][2]:
            entries += 1
        if isinstance(event, ev.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise yaml.MarkedYAMLError(problem="more than one YAML document in the file ('---')",
                                           problem_mark=event.start_mark)
        elif isinstance(event, ev.CollectionStartEvent):
            open_.append((event.anchor, total, isinstance(event, ev.SequenceStartEvent)))
            total += 1
            if len(open_) > MAX_YAML_DEPTH:
                raise yaml.MarkedYAMLError(problem=f"nested more than {MAX_YAML_DEPTH} levels deep",
                                           problem_mark=event.start_mark)
        elif isinstance(event, ev.CollectionEndEvent):
            anchor, before, _seq = open_.pop()
            if anchor is not None:
                sizes[anchor] = total - before
        elif isinstance(event, ev.ScalarEvent):
            total += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, ev.AliasEvent):
            if any(a == event.anchor for a, _, _ in open_):
                raise yaml.MarkedYAMLError(problem=f"recursive alias *{_clip(event.anchor)}",
                                           problem_mark=event.start_mark)
            total += sizes.get(event.anchor, 1)  # an undefined alias is reported by the loader
            aliases = True
        if total > MAX_YAML_VALUES:
            cap = (caps or {}).get(top_key) if isinstance(top_key, str) else None
            if cap is not None and entries > cap and not aliases:  # the list's own limit, not the file's
                raise _TooManyEntries(top_key, cap, entries)
            why = ("once aliases are expanded (an alias bomb?)" if aliases else
                   "(the most one file may hold; a real file holds far fewer)")
            named = entries and isinstance(top_key, str)
            noun = "entry" if entries == 1 else "entries"  # 'f' had 1 entries (hostile round 38)
            where = f" {_clip(top_key)!r} had {entries:,} {noun} so far" if named else ""
            raise yaml.MarkedYAMLError(problem=f"more than {MAX_YAML_VALUES:,} values {why}"
                                       + (f";{where}" if where else ""), problem_mark=event.start_mark)


class _Device(Exception):
    """The path opens a character or block device (``/dev/zero``, a terminal, a disk), not a file."""


def _read_bounded(path: Path) -> bytes:
    """At most ``MAX_FILE_BYTES + 1`` bytes (/dev/zero or a growing file cannot exhaust memory).
    Opened without waiting: a FIFO no program writes to reads as empty (and is refused as such)
    instead of hanging the run -- a batch goes on to its other files; one a program is writing
    to (``<(...)``) is read as it comes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):  # /dev/zero was read to 8 MB before the size refused it
            raise _Device
        if getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)


def read_yaml(path: Path, *, what: str = "file", caps: Mapping[str, int] | None = None) -> Any:
    """Parse one YAML document safely; every failure is a one-line UserError naming the file.

    Refused before anything is built: files over ``MAX_FILE_BYTES``, non-UTF-8 or NUL bytes, more
    than one document, nesting deeper than ``MAX_YAML_DEPTH``, more than ``MAX_YAML_VALUES`` values
    after alias expansion (by the list's own limit in ``caps`` where one such list made it so).  Then
    only plain data is built (see :class:`_DataLoader`).
    """
    return parse_yaml(read_bytes(path, what=what), path, what=what, caps=caps)


def read_bytes(path: Path, *, what: str = "file") -> bytes:
    """The file's bytes, bounded (:func:`read_yaml`'s first half: a loader that keys what it builds
    by the bytes reads them once, with the same one-line errors)."""
    try:
        raw = _read_bounded(path)
    except _Device:
        raise UserError(N_("not a regular file but a device; the %(what)s is read from a regular file only"),
                        where=str(path), values={"what": what},
                        hint=N_("save it to a file and give the file's path")) from None
    except FileNotFoundError:
        if str(path) == "-":  # the contract's inputs are files; standard input is not read
            raise UserError(N_("reading the %(what)s from standard input is not supported"), where="-",
                            values={"what": what},
                            hint=N_("save it to a file and give the file's path")) from None
        raise UserError(N_("no such file"), where=str(path)) from None
    except IsADirectoryError:
        raise UserError(N_("is a directory, not a YAML file"), where=str(path)) from None
    except OSError as exc:
        raise UserError(N_("cannot read: %(why)s"), values={"why": exc.strerror or exc}, where=str(path)) from None
    except ValueError as exc:  # e.g. an embedded NUL byte in the path
        raise UserError(N_("cannot read: %(reason)s"), where=str(path), values={"reason": exc}) from None
    if not raw and _is_fifo(path):  # 'the file is empty' hid that no program was writing to it
        raise UserError(N_("a named pipe (FIFO) that nothing wrote to"), where=str(path),
                        hint=N_("give the file itself, or start the program that writes to the pipe"))
    if len(raw) > MAX_FILE_BYTES:
        raise UserError(N_("%(what)s is larger than the limit of %(max_file_bytes)s bytes"), where=str(path),
                        values={"what": what, "max_file_bytes": MAX_FILE_BYTES})
    return raw


def _is_fifo(path: Path) -> bool:
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
         (b"\xfe\xff", "utf-16-be"))


def decode_text(raw: bytes) -> str:
    """A file's text: UTF-8, or UTF-16/UTF-32 with a byte-order mark, as the YAML specification
    allows (Windows PowerShell 5's ``>`` and ``Out-File`` and Excel's "Unicode text" write UTF-16
    with one; such a file was refused as 'not UTF-8 text (binary file?)'). A UTF-8 mark is dropped.
    Raises ``UnicodeDecodeError``."""
    for bom, codec in _BOMS:
        if raw.startswith(bom) and b"\x00" in raw[len(bom):len(bom) + 256]:
            return raw[len(bom):].decode(codec)
    # no mark, or one followed by no NUL byte: a YAML file's keys are ASCII, which UTF-16 and
    # UTF-32 write with NUL bytes, so two stray bytes before UTF-8 text are not taken for a mark
    return raw.decode("utf-8").removeprefix("\ufeff")


class _Parsed:
    """Documents parsed in this process, by the SHA-256 of their bytes and the limits they were
    checked against, kept pickled (a fresh copy each time: no caller sees another's changes).
    Loading a knowledge overlay parsed the built-in file it lays on again (gpus.yaml: 43 ms to
    parse, 0.6 ms to unpickle), and a program or a test suite reads the same rule files and
    inputs many times. Only what parsed without error is kept, the least recently used dropped
    first beyond ``limit`` bytes."""

    def __init__(self, limit: int = 32 * 2**20) -> None:
        self._kept: Lru[bytes] = Lru(limit, size=len)

    @staticmethod
    def key(raw: bytes) -> tuple[bytes, int, int]:
        return hashlib.sha256(raw).digest(), MAX_YAML_DEPTH, MAX_YAML_VALUES

    def get(self, key: tuple[bytes, int, int]) -> tuple[bool, Any]:
        kept = self._kept.get(key)
        return (False, None) if kept is None else (True, pickle.loads(kept))

    def put(self, key: tuple[bytes, int, int], value: Any) -> None:
        try:
            kept = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
        except Exception:  # nothing plain YAML builds fails to pickle, but a memo is never an error
            return
        self._kept.put(key, kept)


_PARSED = _Parsed()
_REFUSED: Lru[UserError] = Lru(64)
"""The last documents refused, by their bytes' key, the path named in the error and the list limits
checked: ``-o`` reads a proposal for the nvidia-smi reports it names before the audit reads it, and
a file refused was parsed twice to the same one line (test_hostile_inputs: 551 second parses)."""


def parse_yaml(raw: bytes, path: Path, *, what: str = "file", caps: Mapping[str, int] | None = None) -> Any:
    """:func:`read_yaml`'s second half: the document in ``raw`` (the bytes of ``path``)."""
    key = _PARSED.key(raw)
    found, value = _PARSED.get(key)
    if found:
        return value
    refused_key = (key, str(path), tuple(sorted((caps or {}).items())))
    refused = _REFUSED.get(refused_key)
    if refused is not None:
        raise refused.with_traceback(None)
    try:
        value = _parse_yaml(raw, path, caps)  # what parsed is kept whatever the caps: the schema still checks it
    except UserError as exc:
        _REFUSED.put(refused_key, exc)
        raise
    _PARSED.put(key, value)
    return value


def _tab_at(text: str, mark: Any) -> bool:
    """The parser stopped on a tab in a line's indentation: the line starts with blanks up to the mark, a tab
    among them (the C loader's mark falls on the tab; the Python one's on the text after it)."""
    lines = text.splitlines()
    if not 0 <= mark.line < len(lines):
        return False
    line = lines[mark.line]
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    return "\t" in lead and mark.column <= len(lead)


def _char_at(text: str, mark: Any) -> str:
    lines = text.splitlines()
    line = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    return line[mark.column] if 0 <= mark.column < len(line) else ""


def _not_utf8(raw: bytes, exc: UnicodeDecodeError, path: Path) -> UserError:
    """A file that is not UTF-8. Text an editor saved as Latin-1 or Windows-1252 (every byte a character, no control
    character) names the line and column of its first such byte and the character it is there ('réglage' was 'not
    UTF-8 text (binary file?): bad byte at offset 603', hostile round 47); anything else says the offset."""
    import unicodedata

    try:
        legacy = raw.decode("cp1252")
    except UnicodeDecodeError:
        legacy = ""
    if not legacy or any(unicodedata.category(c) == "Cc" and c not in "\t\r\n" for c in legacy):
        return UserError(N_("not UTF-8 text (binary file?): bad byte at offset %(offset)s"),
                         values={"offset": exc.start}, where=str(path))
    start = raw.rfind(b"\n", 0, exc.start) + 1
    return UserError(N_("not UTF-8 text: line %(line)s, column %(column)s holds byte 0x%(byte)s, '%(char)s' in Latin-1 "
                        "or Windows-1252"), where=str(path), hint=N_("save the file as UTF-8"),
                     values={"line": raw.count(b"\n", 0, exc.start) + 1,
                             "column": len(raw[start:exc.start].decode("utf-8", "replace")) + 1,
                             "byte": f"{raw[exc.start]:02X}", "char": legacy[exc.start]})  # one byte a character


_TOML_SECTION = re.compile(r"^\s*\[\[?[\w.\-\"]+\]\]?\s*(#.*)?$", re.MULTILINE)
_TOML_KEY = re.compile(r"^\s*[\w.\-\"]+\s*=\s*\S", re.MULTILINE)


_FULL_WIDTH_COLON = re.compile(r"^[ \t-]*[^\s:#'\"][^:#'\"\n]*?[ \t]*\uff1a", re.M)
"""A key ended by the full-width colon (U+FF1A) a Chinese input method types ('model： llama-3.1-8b')."""
_JSON_COMMENT = re.compile(r"^\s*(?://|/\*)|[,{\[]\s*(?://|/\*)|/\*.*\*/", re.M)
"""A // or /* */ comment at a line's start or after a JSON separator (a JSON file commented as JavaScript is)."""


def _other_text(text: str, mark: Any) -> tuple[str, str, int] | None:
    """The file is YAML copied with a Markdown code fence round it (a README's or a chat's ```yaml), or TOML
    (``[workload]`` and ``task = "inference"``) (hostile round 50), JSON with // or /* */ comments, or YAML whose key
    ends in a full-width colon (round 51): said as such, with the line (1-based) where the parser stopped or the
    text is."""
    lines = text.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    if line.lstrip().startswith(("```", "~~~")):
        return (N_("invalid YAML at line %(line)s: a Markdown code fence (```), as a copy from a README or a chat "
                   "brings"), N_("remove the fence lines; the YAML between them is the file"), mark.line + 1)
    if _TOML_SECTION.search(text) and _TOML_KEY.search(text):
        return (N_("invalid YAML at line %(line)s: this is TOML ([section] and key = value), not YAML"),
                N_("write each section as 'workload:' with its keys indented under it as 'task: inference'"),
                mark.line + 1)
    # where the parser stopped or the line before it (libyaml finds the ':' missing at the next line): a value
    # holding a full-width colon ('- 说明：...') elsewhere in the file is a string, not the fault
    near = [n for c in _FULL_WIDTH_COLON.finditer(text) if (n := text.count("\n", 0, c.start()) + 1) in (
        mark.line, mark.line + 1)]
    if near:
        return (N_("invalid YAML at line %(line)s: a full-width colon (\uff1a, U+FF1A) ends a key, as a Chinese input "
                   "method types it; YAML's is ':'"), N_("type the colon in ASCII, ':' and a space"), near[0])
    if text.lstrip().startswith(("{", "[", "//", "/*")) and (note := _JSON_COMMENT.search(text)) is not None:
        return (N_("invalid YAML at line %(line)s: a // or /* */ comment, which JSON does not have"),
                N_("remove the comment, or write the file as YAML with its comments after a #"),
                text.count("\n", 0, note.start() + note.group().index("/")) + 1)
    return None


_WIDE_SPACE = re.compile(r"[ \t]*(?P<char>[\u00a0\u2007\u202f\u3000])")
"""A line indented by a space YAML does not indent with: a no-break space (a web page's or a word processor's copy),
a figure or narrow no-break space, an ideographic space (a Chinese input method's)."""
_TAB_PAIR = re.compile(r"(?P<indent> *)(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)\t+(?P<value>[^\t:#]*[^\t:#\s])[ \t]*")
"""A key and its value in two cells of a sheet pasted as text ('task<TAB>inference'), no colon between them."""
_KEYED = re.compile(r"\s*(?:- )?[A-Za-z_][\w.-]*:(?:\s|$)")
_BLOCK = re.compile(r"(?P<indent> *)(?:- )?[^#]*:\s*[|>][-+0-9]*\s*(?:#.*)?")
"""A key whose value is a literal or folded block ('notes: |'): the lines below it, further in, are its text."""


def _pasted_spacing(text: str, path: Path) -> None:
    """Refuse a file pasted from a web page or a sheet (hostile round 55): YAML read a line indented by no-break
    spaces as a key of the top level ('task: unknown key'), and 'task<TAB>inference' under a section as the
    section's text ('must be a section of keys'); the line and what to write said instead. A tab-separated pair is
    taken only inside a section (the line above it is a key's), and no line of a block's text (``notes: |``) is."""
    if "\u00a0" not in text and "\t" not in text and "\u3000" not in text and "\u2007" not in text and (
            "\u202f" not in text):
        return
    block: int | None = None
    above = ""
    for number, line in enumerate(text.splitlines(), start=1):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None and (not line.strip() or indent > block):
            continue  # a block's text, as written
        block = None
        if (wide := _WIDE_SPACE.match(line)) is not None:
            char = wide.group("char")
            name = N_("an ideographic space") if char == "\u3000" else N_("a no-break space")
            raise UserError(N_("invalid YAML at line %(line)s: the line is indented by %(name)s (%(code)s), as a copy "
                               "from a web page gives, and YAML indents with spaces only"), where=str(path),
                            hint=N_("replace them by spaces"),
                            values={"line": number, "code": f"U+{ord(char):04X}", "name": Term(name)})
        pair = _TAB_PAIR.fullmatch(line)
        if pair is not None and (_KEYED.match(above) or _TAB_PAIR.fullmatch(above)):
            raise UserError(N_("invalid YAML at line %(line)s: a tab separates %(key)s from its value, as a sheet's "
                               "two cells pasted give, and YAML separates them by a colon"), where=str(path),
                            hint=N_("write %(pair)s"), values={"line": number, "key": repr(pair.group("key"))},
                            hint_values={"pair": f"{pair.group('key')}: {pair.group('value').strip()}"})
        if (opened := _BLOCK.fullmatch(line)) is not None:
            block = len(opened.group("indent"))
        if line.strip() and not line.lstrip().startswith("#"):
            above = line


_COMMA_PAIR = re.compile(r"(?P<indent> *)(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]*,[ \t]*(?P<value>[^,:#\s][^,#]*?)"
                         r"[ \t]*,*[ \t]*")
"""A key and its value in a CSV's two cells ('task,inference', 'workload.task,inference'), trailing empty cells as a
sheet saves them; a line holding a colon is YAML's own and is never one."""
_CSV_HEADER = re.compile(r"\s*(?:key|field|name|parameter|param|setting|option|item)\s*,\s*(?:value|setting|val)"
                         r"\s*,*\s*", re.I)
_OPENER = re.compile(r"(?P<indent> *)(?P<key>[A-Za-z_][\w.-]*):\s*(?:#.*)?")
"""A section's key alone on its line ('workload:'), its keys to follow indented."""


def _pasted_csv(text: str, path: Path) -> None:
    """Refuse a key,value CSV pasted as a YAML file (hostile round 56: 'expected a mapping of sections, got str',
    or under a section 'must be a section of keys' with every key listed): the first pair's line said, with the
    pair as YAML writes it. Taken where every line of the file is such a pair (a 'key,value' header aside), or
    every line under a section's key alone on its line is."""
    if "," not in text:
        return
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        return
    body = lines[1:] if _CSV_HEADER.fullmatch(lines[0][1]) else lines
    if body and all(_pair(line) for _, line in body):
        _comma_said(body[0], None, path)
    for i, (_, line) in enumerate(lines):
        opened = _OPENER.fullmatch(line)
        if opened is None:
            continue
        under: list[tuple[int, str]] = []
        for j in range(i + 1, len(lines)):  # stops at the first line that is no pair: not a copy of the rest a key
            item = lines[j]
            if len(item[1]) - len(item[1].lstrip(" ")) <= len(opened.group("indent")):
                break
            if not _pair(item[1]):
                under = []
                break
            under.append(item)
        if under:
            _comma_said(under[0], opened.group("key"), path)


def _pair(line: str) -> re.Match | None:
    """The key and value of a CSV's pair line; None for any other, and for a line YAML reads as a key (a colon
    before a space or the line's end)."""
    return None if re.search(r":(?:\s|$)", line) else _COMMA_PAIR.fullmatch(line)


def _comma_said(at: tuple[int, str], section: str | None, path: Path) -> None:
    pair = _COMMA_PAIR.fullmatch(at[1])
    assert pair is not None
    key, value = pair.group("key"), pair.group("value").strip()
    if section is None and "." in key.strip(".") and not key.startswith("."):  # 'workload.task,inference'
        section, _, key = key.partition(".")
    hint = (N_("write %(pair)s, indented under %(section)s") if section else
            N_("write %(pair)s, indented under its section (a line such as 'workload:')"))
    raise UserError(N_("invalid YAML at line %(line)s: %(text)s is a key and its value separated by a comma, as a "
                       "CSV file gives, and YAML separates them by a colon"), where=str(path), hint=hint,
                    values={"line": at[0], "text": repr(at[1].strip()[:60])},
                    hint_values={"pair": repr(f"{key}: {value}"), "section": repr(f"{section}:")})


def _parse_yaml(raw: bytes, path: Path, caps: Mapping[str, int] | None = None) -> Any:
    try:
        text = decode_text(raw)
    except UnicodeDecodeError as exc:
        raise _not_utf8(raw, exc, path) from None
    if "\x00" in text:
        if len(raw) > 1 and (raw[0] == 0) != (raw[1] == 0) and raw.count(0) * 2 >= len(raw) - 1:
            raise UserError(N_("UTF-16 text without a byte-order mark: save it as UTF-8"), where=str(path))
        raise UserError(N_("contains NUL bytes (binary file?)"), where=str(path))
    if not text.strip():  # blank lines, a tab among them: no document, as a file of comments is (hostile round 47:
        return None  # 'a tab indents this line' of a file with nothing in it)
    _pasted_spacing(text, path)
    _pasted_csv(text, path)
    try:
        _check_shape(text, caps)
        return yaml.load(text, Loader=_DataLoader)
    except _TooManyEntries as exc:
        raise UserError(N_("must have at most %(max_length)s item(s) (got more than %(given)s)"),
                        where=f"{path}: {exc.key}",
                        values={"max_length": exc.cap, "given": f"{exc.entries:,}"}) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        problem = (exc.problem or str(exc)).strip()
        if mark and _tab_at(text, mark):  # libyaml's words never say it is a tab: "found character that cannot
            # start any token" (hostile round 43)
            raise UserError(N_("invalid YAML at line %(line)s, column %(column)s: a tab indents this line, and YAML "
                               "indents with spaces only"), where=str(path), hint=N_("replace the tab by spaces"),
                            values={"line": mark.line + 1, "column": mark.column + 1}) from None
        if mark and (inner := text.find("\ufeff")) >= 0:  # two files joined: the second's mark is invisible, and
            # libyaml said 'did not find expected key' a column past it (hostile round 43)
            raise UserError(N_("invalid YAML at line %(line)s: a byte-order mark (U+FEFF) inside the file, as where "
                               "two files were joined"), where=str(path),
                            hint=N_("remove it: only the file's first bytes may hold one"),
                            values={"line": text.count("\n", 0, inner) + 1}) from None
        if mark and (kind := _other_text(text, mark)) is not None:  # a README's fence or a TOML file: the parser's
            # words ("found character '`'", "did not find expected <document start>") named neither (round 50)
            raise UserError(kind[0], where=str(path), hint=kind[1], values={"line": kind[2]}) from None
        if mark and problem == "found character that cannot start any token" and (ch := _char_at(text, mark)):
            problem = f"found character {ch!r} that cannot start any token"  # the C loader leaves it out; PyYAML's
            # own scanner names it ('@' and '`' are reserved at a value's start)
        if mark:  # the parser's own words stay as PyYAML writes them
            raise UserError(N_("invalid YAML at line %(line)s, column %(column)s: %(problem)s"), where=str(path),
                            values={"line": mark.line + 1, "column": mark.column + 1, "problem": problem}) from None
        raise UserError(N_("invalid YAML at %(problem)s"), values={"problem": problem}, where=str(path)) from None
    except yaml.YAMLError as exc:
        raise UserError(N_("invalid YAML: %(problem)s"), where=str(path),
                        values={"problem": str(exc).splitlines()[0]}) from None
    except RecursionError:
        raise UserError(N_("YAML nested too deeply"), where=str(path)) from None


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` with the C loader when libyaml is there (the same data, several times
    faster: the questionnaire's own texts took a tenth of a second to read with the pure-Python
    one). For gpuwise's own files and read-back checks; a user's file goes through
    :func:`read_yaml`."""
    return yaml.load(text, Loader=_Loader)


def list_directory(path: Path, option: str, what: str, error: type[UserError] = UserError) -> list[str]:
    """The names in a directory given by ``option`` (``--rules``, ``--knowledge``); a directory that
    cannot be listed (missing, a link loop, unreadable, not a directory, a NUL in the path) is a
    one-line ``error`` naming the option."""
    try:
        return os.listdir(path)
    except NotADirectoryError:
        raise error(N_("%(option)s must be a directory of %(what)s"), where=str(path),
                    values={"option": option, "what": what}) from None
    except FileNotFoundError:
        raise error(N_("%(option)s: no such directory"), where=str(path), values={"option": option}) from None
    except OSError as exc:
        raise error(N_("%(option)s: cannot read the directory: %(strerror)s"), where=str(path),
                    values={"option": option, "strerror": exc.strerror or exc}) from None
    except ValueError as exc:  # an embedded NUL
        raise error(N_("%(option)s: not a usable path: %(reason)s"), where=str(path),
                    values={"option": option, "reason": exc}) from None
