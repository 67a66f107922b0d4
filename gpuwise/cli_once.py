"""``Once``: an argparse action for an option that may be given once (kept out of
:mod:`gpuwise.cli_words`, whose gettext import every start-up would pay)."""

from __future__ import annotations

import argparse
from typing import Any

from .errors import N_


class Once(argparse.Action):
    """An option read once: given twice with different values (``--rules team --rules site``) it is
    refused, where argparse kept the last and silently dropped the first directory's house rules.
    Worded through argparse's ``_``, which :func:`argparse_in` points at the catalog."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        seen = f"_given_{self.dest}"
        first = getattr(namespace, seen, None)
        if first is not None and first != values:
            raise argparse.ArgumentError(self, argparse._(  # type: ignore[attr-defined]
                N_("given twice, as %(first)s and %(second)s: only one is used")) % {
                    "first": repr(first)[:80], "second": repr(values)[:80]})
        setattr(namespace, seen, values)
        setattr(namespace, self.dest, values)
