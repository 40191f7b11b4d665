"""xrbench: benchmarks for XR development and XR interfaces."""

__version__ = "0.1.0"
