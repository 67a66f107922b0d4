"""``python -m gpuwise`` and the ``gpuwise`` command (pyproject's entry point is :func:`start`).

Ctrl-C before gpuwise's own handler is in place printed the interpreter's KeyboardInterrupt
traceback from whatever was being imported (the console script imported ``gpuwise.cli`` and ran
its start-up before :func:`gpuwise.cli.run` installed the handler: 30-70 ms here). Importing this
module installs a handler that says one line and exits 130 at once, nothing having been written
yet; :func:`gpuwise.cli.run` replaces it with its own. What is left is the interpreter's own
start (its runtime and ``site``, 10-20 ms here), before any of gpuwise's code runs."""

import os
import signal


def _interrupted(_signum: int, _frame: object) -> None:  # Ctrl-C while starting: nothing to clean up yet
    os.write(2, b"gpuwise: interrupted\n")
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted)


def start() -> None:
    """The ``gpuwise`` command: the handler above is in place before the command is imported."""
    from .cli import run

    run()


if __name__ == "__main__":
    start()
