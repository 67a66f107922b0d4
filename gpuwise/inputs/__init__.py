"""What users write: requirements and proposals (``schema``), resolved into a job with the
model's shape and every default stated as an assumption (``job``, ``shape``)."""
