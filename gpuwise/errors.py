"""The exceptions that cross the CLI boundary.

A ``UserError`` is bad input: it becomes one line on stderr and exit status 2.
Anything else reaching the CLI is a bug in gpuwise.
"""

from __future__ import annotations


class GpuwiseError(Exception):
    """Base of every error gpuwise raises on purpose."""


class UserError(GpuwiseError):
    """Bad input or usage: names the file, the field and what is wrong.

    ``where`` is the file (and field) the problem is in; ``hint`` says how to fix it.
    """

    def __init__(self, message: str, *, where: str | None = None, hint: str | None = None):
        self.message = message
        self.where = where
        self.hint = hint
        super().__init__(self.line())

    def line(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.hint:
            text += f" ({self.hint})"
        return " ".join(text.split())


class KnowledgeError(UserError):
    """A knowledge file (built-in or overlay) is malformed."""


class RuleError(UserError):
    """A rule file is malformed."""


class SetupError(GpuwiseError):
    """gpuwise or a dependency is installed in a way that cannot work (durable-rules built without
    the Python 3.13 flag, say): one line with the fix, exit status 3, not reported as a bug."""


class EngineError(GpuwiseError):
    """The rule engine failed inside an action: a bug, surfaced rather than lost."""
