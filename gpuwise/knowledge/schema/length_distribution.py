"""``serving.yaml`` ``length_distributions``: a benchmark dataset's request lengths as its client samples them."""

from pydantic import Field

from .base import Check, Prose, Strict


class LengthDistribution(Strict):
    """The request lengths of a benchmark dataset as a benchmark client samples it: output tokens at quantile
    levels of the sampled requests (linear between levels), and the mean prompt of the requests whose outputs lie
    between two levels (prompt and answer lengths are not independent). Its shape (levels rising from 0 to 1, one
    output length a level, one prompt length a band) is checked by tests/test_serving_length_distribution.py."""

    levels: list[float] = Field(min_length=2, description="quantile levels, from 0 to 1, increasing")
    output_tokens: list[float] = Field(min_length=2, description="output tokens at each level")
    prompt_tokens: list[float] = Field(min_length=1, description="mean prompt tokens of each band between levels")
    requests: int = Field(ge=1, description="how many sampled requests the quantiles were read from")
    source: Prose = Field(min_length=3)
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the dataset was read")
    check: Check = "S"
