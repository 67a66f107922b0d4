"""Name matching: how a GPU or model name a person types becomes a catalog id (docs/names.md).

One policy, applied everywhere a name is read (requirements, proposals, plan files, `--gpu`,
`prices --gpu`, the questionnaire):

1. Case, spaces, dashes, a vendor prefix and ``GB``/``G`` do not matter (``a100 80gb`` = ``A100-80G``).
2. A name that does not say the form factor, for a card sold as an SXM (or OAM) module and as a
   PCIe card, means the SXM module: ``H100`` and ``A100-80G`` are the SXM parts, ``H100 PCIe`` is the
   PCIe card. The result records which part was read (an assumption the report shows).
3. A name that still fits several cards (``A100``: 40 or 80 GB) is an error listing them.
4. A name that fits nothing is an error with the closest names ("did you mean H100?").
5. A model name that fits nothing as typed but does once its publisher (``unsloth/``) and the words of a
   quantized or repackaged release are taken off (``-AWQ``, ``-GPTQ-Int4``, ``-GGUF``, ``-FP8-Dynamic``,
   ``-quantized.w8a8``, ``-bnb-4bit``, then ``-Instruct`` / ``-it`` / ``-chat``, then a maker's word before the
   name: ``Meta-``) means that network; the result says how it was read (a precision word in the name is read
   by ``inputs.job``: served at that precision unless the workload gives another).
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from .. import messages
from ..errors import N_, UserError, either, escaped
from ..frozen import frozen, record

_NORM = re.compile(r"[\s_\-/.()]+")
_FORM_WORDS = re.compile(r"sxm|pcie|pci|nvl|oam|hgx|dgx|mezz|superchip|nvl72|nvl16")
_MODULE = ("sxm", "oam", "mezzanine")  # form factors a bare name means (rule 2)
_MEMORY = re.compile(r"(\d+)")
_STATED_FORM = {"sxm": "sxm", "sxm2": "sxm", "sxm3": "sxm", "sxm4": "sxm", "sxm5": "sxm", "sxm6": "sxm", "hgx": "sxm",
                "dgx": "sxm", "oam": "oam", "pcie": "pcie", "pci": "pcie"}
"""A word of a GPU name that says its form factor (rule 1b): HGX boards and DGX systems hold SXM modules."""
_STATED_GB = re.compile(r"(\d+)(?:gb|g|gib)", re.IGNORECASE)
_STATED_MEMORY = re.compile(r"hbm[23]?e?|gddr[5-7]x?|lpddr5x?", re.IGNORECASE)
"""A word of a GPU name that says its memory type, as vendors' quotes write it ('H100 80GB HBM3 SXM5', 'RTX 4090 24GB
GDDR6X'): gpus.yaml ``memory.type``."""
_STATED_GEN = re.compile(r"(?:pcie)?gen([3-6])", re.IGNORECASE)
"""A word of a GPU name that says its PCIe generation ('A100 80GB PCIe Gen4'): gpus.yaml ``link.pcie_gen``."""
_BOARD_COUNT = re.compile(r"(?<![\w.])(\d{1,3})[-\s]?gpus?(?!\w)", re.IGNORECASE)
"""The GPUs of a board or a system written into its name, as quotes write an HGX baseboard ('HGX H100 8-GPU')."""
_WORDS = re.compile(r"[\s_\-/.()]+")
_SEVERAL = re.compile(r"\s*(?:[,;+&]|\band\b)\s*")  # between the names of a list written as text
_PACKAGED = re.compile(
    r"[-_.](?:awq|gptq|gguf|int[48]|[48]bit|bnb|unsloth|dynamic|fp8|fp4|nvfp4|mxfp4|w[48]a(?:8|16)|quantized|qat|"
    r"q[2-8](?:_[0-9a-z]+)*|kv|v\d|mlx|\d+-of-\d+)$", re.IGNORECASE)
"""A last word of a quantized or repackaged release's name (rule 5), taken off one at a time; a split GGUF's part
number ('-00001-of-00002') with them."""
_IN_REPO = re.compile(r"/(?:tree|blob|resolve)/[^/]+(?:/(?P<file>.+))?$")
"""A Hugging Face address past the repository: a revision's page or a file in it ('.../tree/main',
'.../resolve/main/x-Q4_K_M.gguf'); the repository and the file's name each name the network."""
_REVISION = re.compile(r"@[\w.\-]+$|:(?:i?q\d\w*|b?f16|fp16|f32)$", re.IGNORECASE)
"""A revision ('org/repo@main') or ollama's quantization tag ('hf.co/org/repo-GGUF:Q4_K_M') after a repository."""
_TUNED = re.compile(r"[-_.](?:instruct|it|chat)$", re.IGNORECASE)
_MAKER = re.compile(r"^(?:meta|nvidia|amd)[-_]", re.IGNORECASE)
"""A maker's word before a model's own name in a re-publisher's repository ('Meta-Llama-3.1-70B-...')."""


_BOARD = re.compile(r"\b(?:founders\s+edition|fe|oc|asus|tuf|rog|strix|msi|suprim\s*x?|ventus\s*(?:3x)?|gigabyte|aorus|"
                    r"windforce|gaming|zotac|trinity|amp\s+extreme|pny|verto|xlr8|palit|gamerock|gainward|phantom|"
                    r"inno3d|ichill|colorful|igame|galax|evga|ftw3?|xc3?|ultra|hybrid|blower|turbo|edition|"
                    r"graphics\s+card)\b", re.I)
"""A board maker's or a board's words around a GPU's name, as a shop lists a graphics card ('GeForce RTX 4090
Founders Edition', 'ASUS TUF RTX 4090 OC'): left out for the close match of an error's hint only (hostile round 55)."""


def norm(name: str) -> str:
    """Normalise a user-typed name: case, separators, 'GB' vs 'G', vendor prefixes."""
    s = name.lower().strip()
    for prefix in ("nvidia ", "geforce ", "tesla ", "amd ", "intel ", "instinct "):
        if s.startswith(prefix):
            s = s[len(prefix):]
    s = _NORM.sub("", s)
    s = re.sub(r"(\d)gb", r"\1g", s)
    return s


@frozen
class Resolved:
    id: str
    # how an ambiguous-looking name was read (rule 2, a listed default, a model's alias): a message of
    # reports/messages.yaml (name.*) and its values; "" when the name is plain
    note_id: str = ""
    note_values: dict[str, Any] = field(default_factory=dict)

    @property
    def note(self) -> str | None:
        """The reading in English (None when the name is plain)."""
        return messages.text(self.note_id, self.note_values) if self.note_id else None

    def said(self, lang: str = "en") -> str | None:
        """The reading in ``lang``: its message as the report catalog translates it (None when plain)."""
        if not self.note_id or lang == "en":
            return self.note
        from ..errors import _catalog

        return messages.fill(_catalog(lang).gettext(messages.template(self.note_id)), self.note_values)


@record
class _Card:
    """What rule 2 needs about a GPU: its family (the id before the first dash), form factor, memory."""

    family: str
    form: str
    gb: float
    memory: str = ""  # its memory type in lower case ('hbm3'), rule 7
    pcie_gen: int = 0
    built_in: bool = False  # gpus.yaml ``built_into``: named by its own names only (rule 9)


@record
class NameIndex:
    kind: str
    exact: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # id -> display name
    cards: dict[str, _Card] = field(default_factory=dict)  # GPUs only
    models: dict[str, Any] = field(default_factory=dict)  # models only: id -> its entry (alias_checkpoints read)
    unlisted: dict[str, str] = field(default_factory=dict)  # GPUs only: a card not in the catalog -> its nearest
    families: dict[str, str] = field(default_factory=dict)  # models only: a family's name in another script -> Latin

    def add(self, ident: str, display: str, names: list[str], defaults: list[str], card: Any = None,
            model: Any = None, unlisted: list[str] = ()) -> None:
        """One catalog entry: its id, display name, aliases and the short names it is the default for;
        ``card`` (a GPU) lets rule 2 see its family, form factor and memory; ``model`` (a model) the aliases
        whose published weights ship in another dtype than the entry's (``alias_checkpoints``)."""
        self.labels[ident] = display
        if model is not None:
            self.models[ident] = model
        for n in [ident, display, *names]:
            self.exact.setdefault(norm(n), ident)
        for n in defaults:
            self.defaults[norm(n)] = ident
        for n in unlisted:  # gpus.yaml ``not_listed``: a card of its own the catalog does not hold, this one nearest
            self.unlisted[norm(n)] = ident
        if card is not None:
            self.cards[ident] = _Card(ident.split("-")[0], card.form_factor, float(card.memory.gb),
                                      str(card.memory.type).lower(), int(card.link.pcie_gen),
                                      getattr(card, "built_into", None) is not None)

    def family(self, key: str) -> list[str]:
        """The ids whose names start with ``key`` (normalised), in order: what a short name ('a100') could mean. A part
        built into named systems alone (rule 9: Leonardo's A100 64GB) is none of them: only its whole names read it.
        Where ``key`` is itself a family's name, a family whose number only starts with it is another part: the H200 is
        no H20 variant, the A100 no A10's, the L40 no L4's (review63: an imported 'H20' of 141 GB was ambiguous with
        both H200 141GB parts, and `prices --gpu H20` offered the H200 as an H20 variant); a letter after it (A10G) is
        a variant still."""
        ids = {i for k, i in self.exact.items() if k.startswith(key) and not self._built_in(i)}
        if any(c.family == key for i, c in self.cards.items() if i in ids):
            ids = {i for i in ids if not (i in self.cards and len(f := self.cards[i].family) > len(key)
                                          and f.startswith(key) and f[len(key)].isdigit())}
        return sorted(ids)

    def _built_in(self, ident: str) -> bool:
        return ident in self.cards and self.cards[ident].built_in

    # ------------------------------------------------------------------------- rule 2
    def _other_forms(self, ident: str, key: str) -> list[str]:
        """PCIe cards of the same family the name could also mean: the name gives no form factor and
        either no memory size or the same one."""
        me = self.cards.get(ident)
        if me is None or me.form not in _MODULE or _FORM_WORDS.search(key):
            return []
        sizes = {int(x) for x in _MEMORY.findall(key.removeprefix(norm(me.family)))}
        return sorted(i for i, c in self.cards.items()
                      if c.family == me.family and c.form not in _MODULE and (not sizes or int(c.gb) in sizes))

    def _module_note(self, name: str, ident: str, others: list[str]) -> Resolved:
        return Resolved(ident, "name.module", {"name": name, "label": self.labels[ident], "id": ident,
                                               "other": self.labels[others[0]]})

    # ------------------------------------------------------------------------ resolve
    def resolve(self, name: str, *, where: str | None = None) -> Resolved:
        key = norm(str(name))
        if not key:
            raise UserError(N_("empty model name") if self.kind == "model" else N_("empty gpu name"), where=where,
                            values={})
        ident = self.exact.get(key) or self.defaults.get(key)
        if ident is not None:
            others = self._other_forms(ident, key)
            if others:
                return self._module_note(str(name), ident, others)
            if key in self.defaults and key not in self.exact:
                return Resolved(ident, "name.default", {"name": str(name), "label": self.labels[ident], "id": ident})
            if self.kind == "model" and key not in (norm(ident), norm(self.labels[ident])):
                # a listed alias (GLM-5.1 -> glm-5, Kimi K2.6 -> kimi-k2): priced as the entry, said so; one whose
                # published weights ship in another dtype (Kimi K2.6's INT4 experts) says which it assumed
                said = {"name": str(name), "label": self.labels[ident], "id": ident}
                model = self.models.get(ident)
                if (release := _alias_release(model, key)) is not None:
                    return Resolved(ident, "name.alias_checkpoint", {**said, "checkpoint": release,
                                                                     "entry": model.checkpoint_precision or "bf16"})
                return Resolved(ident, "name.alias", said)
            return Resolved(ident)
        if self.kind == "model" and (base := self._unpackaged(str(name))) is not None:
            return Resolved(base, "name.packaged", {"name": str(name), "label": self.labels[base], "id": base})
        if self.kind == "gpu" and (stated := self._stated(str(name), where)) is not None:
            return stated
        if self.kind == "gpu" and (near := self.unlisted.get(key) or self.unlisted.get(_bare(str(name)).key)):
            # the Tesla V100S, a PCIe card of its own (NVIDIA's V100S datasheet: 1,134 GB/s, 16.4 TFLOPS FP32), was
            # 'ambiguous: v100-16gb-sxm2, v100-32gb-sxm2', the prefix rule reading its S as the start of SXM2
            raise UserError(N_("'%(name)s' is not in the catalog: a card of its own, not the %(label)s"),
                            where=where, values={"name": visible(str(name)), "label": self.labels[near]},
                            hint=N_("did you mean %(id)s, the nearest part the catalog holds?"),
                            hint_values={"id": near})
        # A prefix is never taken for a name: 'llama-3.1-7' is not llama-3.1-70b, 'b2' is not b200.
        # A name that starts several entries lists them (unless rule 2 picks one); one that starts
        # one names it.
        family = self.family(key)
        modules = [i for i in family if i in self.cards and self.cards[i].form in _MODULE]
        if len(family) > 1 and len(modules) == 1 and self._other_forms(modules[0], key):
            return self._module_note(str(name), modules[0], self._other_forms(modules[0], key))
        if len(family) > 1:
            # the SXM reading (rule 2) is said only where it could apply: a module and a PCIe card of its family
            # among them ('A100', 'H1'); not for 'RTX 40' or 'RTX PRO 6000 Blackwel' (no module), 'MI3', 'B',
            # 'ascend' (modules only) or 'V100 SX' (two modules the memory size tells apart)
            cards = [self.cards[i] for i in family if i in self.cards]
            rule2 = self.kind == "gpu" and any(
                m.form in _MODULE and any(c.family == m.family and c.form not in _MODULE for c in cards) for m in cards)
            raise UserError(N_("'%(name)s' is ambiguous: it could be %(names)s"), where=where,
                            values={"name": visible(str(name)), "names": ", ".join(family)},
                            hint=N_("give the variant; a name without the form factor means the SXM or OAM module, "
                                    "as docs/names.md says") if rule2 else N_("give the variant, e.g. %(example)s"),
                            hint_values={} if rule2 else {"example": family[0]})
        unknown = N_("unknown model '%(name)s'") if self.kind == "model" else N_("unknown gpu '%(name)s'")
        if family:
            raise UserError(unknown, where=where, values={"name": visible(str(name))},
                            hint=N_("give the whole name: did you mean %(names)s?"), hint_values={"names": family[0]})
        self._several(str(name), where)
        self._counted(str(name), where)
        self._listed(str(name), where)
        ids = self._by_family(str(name)) or self.close(str(name))
        sizes = _sizes(str(name)) if self.kind == "model" and not ids else set()
        hint, hint_values = (N_("did you mean %(names)s?"), {"names": either(ids)}) if ids else (
            # a quantized release of a model the catalog lacks ('Yi-1.5-34B-Chat-GPTQ'): the size its name states
            (N_("give params_b for a model not in the catalog: %(size)s, as its name says"),
             {"size": f"{next(iter(sizes)):g}"}) if len(sizes) == 1
            else (N_("give params_b for a model not in the catalog"), {}) if self.kind == "model"
            else (N_("see `gpuwise %(kind)ss` for the list"), {"kind": self.kind}))
        raise UserError(unknown, where=where, values={"name": visible(str(name))}, hint=hint, hint_values=hint_values)

    def _by_family(self, name: str) -> list[str]:
        """The entries a model named by its family's name in another script means ('通义千问3-32B': qwen3-32b), read
        with the family's Latin name (models.yaml ``family_names``): for the hint only, the name stays unknown."""
        for written, latin in self.families.items():
            if written in name:
                read = name.replace(written, "" if latin in name.lower() else latin).strip(" -_")
                ident = self.exact.get(norm(read))
                return [ident] if ident else self.close(read)
        return []

    def _counted(self, name: str, where: str | None) -> None:
        """A GPU name with its count written in ('8x H100', '8 x H100', '2× RTX 4090', as quotes and invoices write a
        server): refused naming the GPU and the count, each for its own field -- difflib offered h100-80gb-sxm, the
        H100 NVL and a V100 (hostile round 50); the count after the name ('H100x8', 'H100 x 8', 'RTX 4090 ×2', round
        51) too."""
        if self.kind != "gpu":
            return
        got = re.fullmatch(r"\s*(\d{1,6})\s*[x×*]\s*(.+)", name, flags=re.IGNORECASE)
        after = re.fullmatch(r"\s*(.+?)\s*[x×*]\s*(\d{1,6})\s*", name, flags=re.IGNORECASE)
        board = _BOARD_COUNT.search(name)  # 'HGX H100 8-GPU' (round 52): the board's GPUs, the rest its part
        count_text, gpu_text = (got.group(1), got.group(2)) if got else (after.group(2), after.group(1)) if after else (
            (board.group(1), f"{name[:board.start()]} {name[board.end():]}") if board else ("0", ""))
        if int(count_text) < 1:
            return
        try:
            ident = self.resolve(gpu_text).id
        except UserError:
            return
        count = int(count_text)
        flag = bool(where) and str(where).rstrip().endswith("--gpu")
        raise UserError(N_("unknown gpu '%(name)s'"), where=where, values={"name": visible(name)},
                        hint=N_("a count is not part of the GPU's name: give --gpu %(gpu)s --gpus %(count)s") if flag
                        else N_("a count is not part of the GPU's name: give gpu %(gpu)s and count %(count)s"),
                        hint_values={"gpu": ident, "count": count})

    def _listed(self, name: str, where: str | None) -> None:
        """Two GPUs where one goes ('h100,a100', 'H100 / A100' in ``--gpu`` or ``hardware.gpu``): difflib offered the
        first alone (hostile round 50). Refused naming both; a list of candidates is ``constraints.gpus``'s."""
        parts = [p.strip() for p in re.split(r"[,;/|]| or ", name) if p.strip()] if self.kind == "gpu" else []
        if len(parts) < 2:
            return
        ids = []
        for part in parts:
            try:
                ids.append(self.resolve(part).id)
            except UserError as exc:  # an ambiguous family ('A100') is a GPU named too, as written
                if "ambiguous" not in str(exc.template):
                    return
                ids.append(part)
        entry = bool(where) and re.search(r"gpus\[\d+\]$", str(where).rstrip()) is not None  # a list's entry
        raise UserError(N_("'%(name)s' names %(n)s GPUs, and this takes one"), where=where,
                        values={"name": visible(name), "n": len(ids)},
                        hint=N_("give each its own entry: [%(list)s]") if entry else N_(
                            "give one of %(names)s; constraints.gpus lists the GPUs a recommendation may choose from"),
                        hint_values={"names": either(ids), "list": ", ".join(ids)})

    def _stated(self, name: str, where: str | None = None) -> Resolved | None:
        """Rule 7 of docs/names.md: a GPU name that fits no entry as typed, but does once the words that say its form
        factor or its memory size are taken off, where the card read has that form factor and that memory ('MI300X
        OAM', 'AMD Instinct MI325X OAM', 'L40S PCIe', 'H20 SXM', 'RTX 6000 Ada 48GB', 'DGX H100' -- hostile round 47:
        each was an unknown GPU). A word the card does not have keeps the name unknown ('H800 PCIe': the catalog's
        H800 is the SXM module; 'L40S SXM'; 'H100 NVL 188GB', the pair's memory). Rule 2's note is not said (the name
        gave the form); a listed default's is ('H20 SXM': the 96 GB part). A name that is no entry once they are off
        but a family whose parts of that form and memory are several is ambiguous between those ('DGX A100': the
        system shipped with 40 GB and with 80 GB A100 SXM4 modules, NVIDIA's DGX A100 datasheet), and one such part
        is it ('DGX A100 80GB')."""
        said = _bare(name)
        forms, sizes, key = said.forms, said.sizes, said.key
        if not (forms or sizes or said.memories or said.gens) or not key:
            return None
        ident = self.exact.get(key) or self.defaults.get(key)
        card = self.cards.get(ident or "")
        if card is not None and not said.fits(card) and (said.memories or said.gens):
            # a memory type or PCIe generation the part read does not have, another of its family has: 'H100 80GB
            # HBM2e' is the PCIe card (round 52); one such part is it, else the name stays unknown
            kin = [i for i, c in self.cards.items() if c.family == card.family and said.fits(c) and said.may_mean(c)]
            return Resolved(kin[0]) if len(kin) == 1 else None
        if ident is None:
            kin = sorted(i for i, c in self.cards.items() if c.family == key and said.fits(c) and said.may_mean(c))
            if len(kin) == 1:
                return Resolved(kin[0])
            if kin:
                gbs = sorted({round(self.cards[i].gb) for i in kin})
                raise UserError(N_("'%(name)s' is ambiguous: it came with each of %(names)s"), where=where,
                                values={"name": visible(name), "names": ", ".join(kin)},
                                hint=N_("give the memory size, e.g. '%(example)s'") if len(gbs) == len(kin)
                                else N_("give the variant, e.g. %(example)s"),
                                hint_values={"example": f"{name.strip()} {gbs[-1]}GB" if len(gbs) == len(kin)
                                             else kin[0]})
        if ident is None or card is None or not said.fits(card):
            return None
        if key in self.defaults and key not in self.exact:
            return Resolved(ident, "name.default", {"name": name, "label": self.labels[ident], "id": ident})
        return Resolved(ident)

    def _several(self, name: str, where: str | None) -> None:
        """A field of one name given a list of them as text ('h100, mi300x' to estimate's --gpu): said so, where the
        closest single name was offered ('did you mean mi300x?', hostile round 43); nothing where a part is no
        name."""
        parts = [p for p in _SEVERAL.split(name) if p.strip()]
        if len(parts) < 2 or any((self.exact.get(norm(p)) or self.defaults.get(norm(p))) is None for p in parts):
            return
        gpu = self.kind == "gpu"
        raise UserError(N_("'%(name)s' names %(count)s GPUs, and one is asked for here") if gpu
                        else N_("'%(name)s' names %(count)s models, and one is asked for here"),
                        where=where, values={"name": visible(name), "count": len(parts)},
                        hint=N_("give one; recommend compares several GPUs, listed in constraints.gpus") if gpu
                        else N_("give one; a plan takes a workload for each model"))

    def _unpackaged(self, name: str) -> str | None:
        """Rule 5: the catalog id of the network a release's name stands for, or None. The publisher and the
        release words come off from the end one at a time ('Qwen3-32B-AWQ' -> qwen3-32b, 'RedHatAI/Llama-3.3-70B-
        Instruct-quantized.w8a8' -> llama-3.1-70b through its alias llama-3.3-70b-instruct); a name is only taken
        when what is left is a catalog name as it stands, never a prefix of one."""
        heads = [name.strip()]
        if (m := _IN_REPO.search(heads[0])) is not None:  # a page or a file in a repository: the repository, the file
            heads = [heads[0][:m.start()], *([m.group("file")] if m.group("file") else [])]
        stages: list[str] = []
        for full in (_REVISION.sub("", h) or h for h in heads):
            base = re.split(r"[/\\]", full)[-1]  # a Windows path's file too ('C:\\models\\x.gguf')
            stages += [base] if base == full else [full, base]  # 'meta-llama/...' aliases keep the publisher
        for b in list(stages):
            while (m := _PACKAGED.search(b)) is not None and m.start() > 0:
                b = b[:m.start()]
                stages.append(b)
        for b in list(stages):
            if (m := _TUNED.search(b)) is not None and m.start() > 0:
                stages.append(b[:m.start()])
        stages += [_MAKER.sub("", b) for b in stages if _MAKER.match(b)]
        for b in stages:  # the least taken off first: 'DeepSeek-V3-FP8' is deepseek-v3, never 'DeepSeek'
            if (ident := self.exact.get(norm(b))) is not None:
                return ident
        return None

    def meant(self, name: str) -> str | None:
        """The id a name that is no id stands for, as :meth:`resolve` reads it (``h200`` -> its SXM part), else the
        one whose names start with it, else the closest (a knowledge file's hint: ids only are taken there)."""
        key = norm(name)
        family = self.family(key) if key else []
        return self.exact.get(key) or self.defaults.get(key) or next(iter(family), None) or next(
            iter(self.close(name, 1)), None)

    def close(self, name: str, n: int = 3) -> list[str]:
        """The ids whose names are closest to ``name`` (ids, display names, aliases and the short
        names a variant is the default for: ``H10O`` -> h100-80gb-sxm). A look-alike letter or digit (Cyrillic
        ``Н100``, fullwidth ``Ｈ100``, ``h１００``) is read as the Latin one it looks like (:func:`folded`): here
        only, for the hint; :meth:`resolve` never takes it for the name."""
        pool = {**self.exact, **{k: v for k, v in self.defaults.items() if k not in self.exact}}
        typed = norm(name)
        key = norm(folded(name))
        # a letter typed for a digit beside digits ("H10O", "A1OO"): the digit's name first
        fixed = re.sub(r"(?<=\d)[oO]|[oO](?=\d)", "0", key)
        fixed = re.sub(r"(?<=\d)[oO]|[oO](?=\d)", "0", fixed)
        first = [fixed] if fixed != typed and fixed in pool else []
        if fixed != typed and not first:
            # read as it looks, a short name several variants share ('А１００' is 'a100': the 40 and 80 GB, PCIe and
            # SXM parts) names them, not the nearest spellings (a10, v100-16gb-sxm2; hostile round 39)
            family = self.family(fixed)
            first = family if len(family) <= 4 else []  # a letter alone ('Ｈ') starts too many to be a hint
        if self.kind == "gpu" and not first and (board := norm(_BOARD.sub(" ", folded(name)))) in pool:
            return [pool[board]]  # 'GeForce RTX 4090 Founders Edition' was offered rtx-4000-ada (hostile round 55)
        import difflib  # a close match for an error's hint: not on the way of a good answer
        close = first + difflib.get_close_matches(key, list(pool), n=n * 3, cutoff=0.6)
        ids = list(dict.fromkeys(pool.get(c, c) for c in close))
        if self.kind == "model" and (sizes := _sizes(folded(name))):
            # a model of another size is no close match, however alike the names: 'ernie-4.5-0.3b' was offered
            # ernie-4.5-300b-a47b, 'olmo-2-1b' olmo-2-13b (hostile round 27); a digit mistyped ('llama-3.1-9b')
            # keeps its match within half as much again, and an id that states no size stays
            ids = [i for i in ids if not _sizes(i) or any(max(a, b) <= 1.5 * min(a, b)
                                                          for a in _sizes(i) for b in sizes if min(a, b) > 0)]
        return ids[:max(n, len(first))]


@record
class _Said:
    """What a GPU name says of its part besides the part's own name (rule 7): form factors, memory sizes in GB,
    memory types, PCIe generations; ``key``: the rest, normalised."""

    forms: set[str]
    sizes: set[int]
    memories: set[str]
    gens: set[int]
    key: str
    system: bool = False  # a DGX or HGX word: NVIDIA's own systems and boards

    def may_mean(self, card: _Card) -> bool:
        """Whether the name can stand for ``card`` by its family and words (rule 7): a part built into named systems
        (rule 9) only where the name states its memory size and names no DGX or HGX, which never held it."""
        return not card.built_in or (round(card.gb) in self.sizes and not self.system)

    def fits(self, card: _Card) -> bool:
        """Whether ``card`` has every one of them."""
        return not (self.forms - {card.form} or self.sizes - {round(card.gb)} or self.memories - {card.memory}
                    or self.gens - {card.pcie_gen})


def _bare(name: str) -> _Said:
    """A GPU name's form-factor words (as the form they say), its memory sizes in GB, memory types and PCIe
    generations, and the rest normalised (rule 7): 'DGX A100 80GB' -> ({'sxm'}, {80}, set(), set(), 'a100'), 'A100 80GB
    PCIe Gen4' -> ({'pcie'}, {80}, set(), {4}, 'a100')."""
    forms: set[str] = set()
    sizes: set[int] = set()
    memories: set[str] = set()
    gens: set[int] = set()
    rest: list[str] = []
    system = False
    for word in (w for w in _WORDS.split(name.strip()) if w):
        if (form := _STATED_FORM.get(word.lower())) is not None:
            forms.add(form)
            system = system or word.lower() in ("dgx", "hgx")
        elif (gb := _STATED_GB.fullmatch(word)) is not None:
            sizes.add(int(gb.group(1)))
        elif _STATED_MEMORY.fullmatch(word):
            memories.add(word.lower())
        elif (gen := _STATED_GEN.fullmatch(word)) is not None:
            gens.add(int(gen.group(1)))
        else:
            rest.append(word)
    return _Said(forms, sizes, memories, gens, norm(" ".join(rest)) if rest else "", system)


def published(model: Any, name: Any) -> str | None:
    """The dtype the weights a model name stands for ship in: the ``alias_checkpoints`` group's where the name is
    one of its aliases (Kimi K2.6 -> int4), else the catalog entry's ``checkpoint_precision``."""
    if model is None:
        return None
    release = _alias_release(model, norm(str(name)) if name else "")
    return release if release is not None else getattr(model, "checkpoint_precision", None)


def kept_name(model: Any, ident: str, name: str, states_precision: bool = False) -> str:
    """What a questionnaire saves for a model name it read: the catalog id, unless the name is an alias of a release
    whose weights ship in another dtype than the entry's (``alias_checkpoints``: 'Kimi K2 Thinking', INT4 where Kimi
    K2 ships FP8) or ``states_precision`` (the caller read a precision word in it: 'Qwen/Qwen3-4B-FP8'), which is
    kept as typed so that its release's precision goes with it."""
    return name.strip() if states_precision or _alias_release(model, norm(name)) is not None else ident


def published_card(model: Any, name: Any) -> str | None:
    """The model card that states the dtype ``published`` gives: the ``alias_checkpoints`` group's ``card`` (its
    source where an overlay's group names none), else the entry's ``checkpoint_card``."""
    if model is None:
        return None
    group = _alias_group(model, norm(str(name)) if name else "")
    if group is not None:
        return str(group.card or group.source)
    return getattr(model, "checkpoint_card", None)


def release_of(model: Any, name: Any) -> str | None:
    """The dtype of the release ``name`` stands for where the entry lists it under ``alias_checkpoints``
    (Qwen/Qwen3-235B-A22B-FP8 -> fp8, Kimi K2.6 -> int4); None for any other name."""
    return _alias_release(model, norm(str(name)) if name else "") if model is not None else None


def release_method(model: Any, name: Any) -> str | None:
    """The quantization method of the release ``name`` stands for where the entry lists it under
    ``alias_checkpoints`` with one (Qwen/Qwen3.5-27B-GPTQ-Int4 -> gptq, mistralai/...-NVFP4 -> nvfp4); None for
    any other name."""
    group = _alias_group(model, norm(str(name)) if name else "") if model is not None else None
    return str(group.method) if group is not None and group.method is not None else None


def _alias_release(model: Any, key: str) -> str | None:
    """The dtype of the release an alias (``key``, normalised) names where the entry lists it under
    ``alias_checkpoints`` (Kimi K2.6 -> int4); None for any other name."""
    group = _alias_group(model, key)
    return str(group.precision) if group is not None else None


def _alias_group(model: Any, key: str) -> Any:
    """The ``alias_checkpoints`` group that names the alias ``key`` (normalised); None where none does."""
    for group in getattr(model, "alias_checkpoints", None) or ():
        if key and key in {norm(a) for a in group.aliases}:
            return group
    return None


_SIZE = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s*b(?![a-z0-9])")


def _sizes(name: str) -> set[float]:
    """The parameter counts a model name states in billions ('0.3b', '80B', 'a3b' is an active count and not read):
    the figures before a 'b' that ends a word."""
    return {float(x) for x in _SIZE.findall(re.sub(r"[\s_/]+", "-", name.lower()))}


_LATIN_LOOKALIKES = str.maketrans(
    "АВСЕНІЈКМОРЅТХУаеіјосрѕхуһӏнкмт"  # Cyrillic (н к м т: small capitals of H K M T)
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαιοκνρχ",  # Greek
    "ABCEHIJKMOPSTXYaeijocpsxyhlhkmt"
    "ABEZHIKMNOPTYXaiokvpx")
"""The Cyrillic and Greek letters drawn as the Latin letters GPU and model names are written in (Н100 is no H100
to a computer, and a difflib match of 'н100' named v100-16gb-sxm2 before h100-80gb-sxm): each to the Latin letter
it is drawn as. NFKC first takes fullwidth and mathematical forms to theirs (Ｈ100, h１００)."""


def folded(name: str) -> str:
    """``name`` with its look-alike characters as the Latin letters and digits they are drawn as (NFKC, then
    :data:`_LATIN_LOOKALIKES`): for a 'did you mean' hint only, never to accept a name."""
    if name.isascii():
        return name
    import unicodedata
    return unicodedata.normalize("NFKC", name).translate(_LATIN_LOOKALIKES)


_LOOKALIKE_SCRIPTS = ("GREEK", "CYRILLIC", "FULLWIDTH", "ARMENIAN", "CHEROKEE", "MATHEMATICAL", "LETTERLIKE")


LONG_NAME = 200
"""The longest name an error quotes whole: a model name's own bound (workload.model, 200 characters)."""


def visible(name: str) -> str:
    """``name`` as an error shows it: a character that looks like a Latin letter or digit in a
    Latin name (Greek ``Η`` in ``Η100``, Cyrillic ``а``, fullwidth ``１``) or that cannot be seen (a
    zero-width space, a line separator, a combining mark) written as ``\\uXXXX``. 'unknown gpu
    'Η100-80G'' looked exactly like the name it was not; a Chinese or other name is kept as written. A name past
    ``LONG_NAME`` characters (a 100,000-character ``--gpu``) is cut to its start and its length (hostile round 53)."""
    if len(name) > LONG_NAME:
        return f"{visible(name[:40])}... ({len(name):,} characters)"
    if name.isascii():
        return name
    import unicodedata

    def drawn_as_latin(c: str) -> bool:  # a compatibility form of a Latin letter or digit: fullwidth 'Ｈ', 'Ⅼ', 'ℍ'
        plain = unicodedata.normalize("NFKC", c)
        return plain != c and plain.isascii() and plain.isalnum()

    # a Latin name: one with an ASCII letter or digit, or written wholly in forms drawn as them ('ｍｉ３００')
    latin = any(c.isascii() and c.isalnum() for c in name) or folded(name).isascii()

    def seen(c: str) -> bool:
        return c.isascii() or not (unicodedata.category(c)[0] in "CZM" or (latin and (
            unicodedata.name(c, "").startswith(_LOOKALIKE_SCRIPTS) or drawn_as_latin(c))))

    return escaped(name, seen)
