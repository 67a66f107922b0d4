"""``python -m gpuwise`` is the ``gpuwise`` command."""

import sys

from .cli import main

sys.exit(main())
