"""A framework release as ``serving.yaml`` writes it (a release number, then at most an rcN or a .postN) and a window
of releases, from one up to, not including, another: what the serving entries that hold for some releases only are
built from. Moved out of ``serving`` (it held 815 lines) so the entries kept in modules of their own can use them.
"""

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import version_key
from .base import Strict

RELEASE_VERSION = r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$"


class ReleaseWindow(Strict):
    """Releases from ``first`` up to, not including, ``before``, which must come after it (else no release is in it)."""

    first: str = Field(pattern=RELEASE_VERSION)
    before: str = Field(pattern=RELEASE_VERSION)

    @model_validator(mode="after")
    def _holds_one(self) -> "ReleaseWindow":  # 'from 0.12.0 before 0.11.1' was read as no release, silently
        if version_key(self.before) <= version_key(self.first):
            raise Said(N_("before %(before)s is not after first %(first)s: no release is in the window"),
                       before=self.before, first=self.first)
        return self
