"""Decisions: facts for the rules (``facts``), the rule files (``rulebook``), the only adapter to
durable-rules (``engine``), the named consequents (``actions``) and the commands built on them
(``recommend``, ``audit``, ``estimate``), plus the used-card inspection (``smi_report`` reads an
nvidia-smi report, ``inspect_card`` computes the numbers the used-card rules judge)."""
