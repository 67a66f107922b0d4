"""``python -m gpuwise`` is the ``gpuwise`` command."""

import os
import signal


def _interrupted(_signum: int, _frame: object) -> None:  # Ctrl-C while starting: nothing to clean up yet
    os.write(2, b"gpuwise: interrupted\n")
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted)

from .cli import run  # noqa: E402

run()
