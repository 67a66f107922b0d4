"""Schemas of the knowledge files under ``knowledge/``, one module per file.

Every figure block carries a ``source``; anything that drifts (prices, exchange rates) carries an
``as_of`` date.  Peaks are *dense* (no 2:4 sparsity) and each precision is kept separate.  Models
are strict: an unknown key is an error, so a typo in a knowledge file never silently drops a number.
"""

from .apis import ApiPrice, ApiProvider, ApisFile  # noqa: F401
from .base import SCHEMA_VERSION, Check, Sourced, Strict  # noqa: F401
from .clouds import CloudFile, DiscountSchedule, GpuHourPrice, Instance, Provider, SpotModel, Tier  # noqa: F401
from .gpus import Gpu, GpuFile, GpuLink, GpuMemory, GpuPeaks, GpuPower, LicenceBundle  # noqa: F401
from .models import Model, ModelFile, MoE, ShapeGuesses  # noqa: F401
from .policy import PolicyFile, PolicyValue  # noqa: F401
from .prices import Excluded, Fabric, GpuPrices, Market, PricePoint, PricesFile, Units  # noqa: F401
from .runtime import Factor, Network, QuantFormat, RuntimeFile  # noqa: F401
from .serving import RELEASE_VERSION, BatchLimit, Framework, FrameworkPrecision, ServingFile  # noqa: F401
from .software import ArchSupport, CudaDriver, FeatureFloor, OsDriver, SoftwareFile, TorchBuild  # noqa: F401
from .tco import Hosting, SourcedValue, TcoFile  # noqa: F401
