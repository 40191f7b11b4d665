"""Run store: atomic writes, run directories and provenance."""
