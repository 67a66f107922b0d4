"""``serving.yaml`` ``vlm_memory_share``: the default memory share an engine scales down for a multimodal
checkpoint by the size of its vision encoder."""

from pydantic import Field

from .base import Check, Prose, Strict


class VlmMemoryShare(Strict):
    """Where the job states no memory setting, the engine's default share of a GPU's memory for the weights and
    the KV pool is multiplied, for a checkpoint that ships a vision encoder (models.yaml ``vision_tower``), by
    ``base`` x clamp(1 - ``sensitivity`` x (layers x hidden^2 / (``baseline_layers`` x ``baseline_hidden``^2) - 1),
    ``floor``, ``ceiling``); the layers are read under ``layers_key`` and taken as ``default_layers`` where the
    config names them otherwise."""

    frameworks: list[str] = Field(min_length=1, description="framework ids that scale their default share so")
    first: str = Field(pattern=r"^[0-9]+(\.[0-9]+){1,3}$", description="the first release that does")
    base: float = Field(gt=0, le=1, description="the factor every multimodal checkpoint gets")
    sensitivity: float = Field(ge=0, le=1, description="the share given up per encoder size of the baseline's")
    baseline_layers: int = Field(ge=1)
    baseline_hidden: int = Field(ge=1)
    floor: float = Field(gt=0, le=1)
    ceiling: float = Field(ge=1, le=2)
    layers_key: str = Field(min_length=1, description="the vision_config key the engine reads the depth under")
    default_layers: int = Field(ge=1, description="the depth taken where the config has no such key")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the launch code was read")
    check: Check = "S"

