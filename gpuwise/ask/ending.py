"""How a part of ``gpuwise ask`` ends early, the same for the questionnaire and the plan
questions: Ctrl-C or the end of input says what was kept (exit 130); bad input is one line on
stderr (exit 2). One place, so the two flows cannot drift apart."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

EXIT_INTERRUPTED = 130
EXIT_USAGE = 2


def guarded(body: Callable[[], int], *, console: Any, interrupted: Callable[[], str], lang: str = "en",
            also: tuple[type[BaseException], ...] = (),
            on_also: Callable[[BaseException], str] | None = None) -> int:
    """``body()``'s exit status, or how it ended early: on Ctrl-C or end of input the cursor goes
    to a fresh line and ``interrupted()`` (which says whether anything was saved, in the user's
    language) goes to stderr, 130; a :class:`~gpuwise.errors.UserError` is its one line, 2.
    ``also``: further exceptions worded by ``on_also`` (exit 2), such as a file that cannot be
    saved."""
    from ..errors import UserError, one_line

    try:
        return body()
    except (KeyboardInterrupt, EOFError):
        console.print()
        print(interrupted(), file=sys.stderr)
        return EXIT_INTERRUPTED
    except UserError as exc:  # one printable line, as every command's (a file name may carry escapes)
        print(f"gpuwise ask: {one_line(exc.line(lang))}", file=sys.stderr)
        return EXIT_USAGE
    except also as exc:
        assert on_also is not None
        print(one_line(on_also(exc)), file=sys.stderr)
        return EXIT_USAGE


def rerun_options(lang: str, knowledge: str | None) -> str:
    """The options a command shown to run the saved answers again needs to give what this session gave: its
    language (a file keeps its currency, not the report's language) and its knowledge overlay (review59). Both
    flows show such a command: the questionnaire's `gpuwise recommend FILE`, the plan questions' `gpuwise plan FILE`."""
    import shlex

    opts = " --lang zh" if lang == "zh" else ""
    return opts + (f" --knowledge {shlex.quote(knowledge)}" if knowledge else "")
