"""Presentation: results to text, Markdown, HTML (``report``, ``charts``), catalog listings
(``listing``) and safe file output (``output``). Nothing here decides or computes a figure."""
