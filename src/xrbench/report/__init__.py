"""The static HTML report (Jinja2 templates, one stylesheet, PNG charts) and Markdown summaries.

- `render_genxr_job(job_dir)`: one GenXR job folder -> `<job>/report/index.html` (+ a page per
  trial, a chart, summary.md).
- `render_site(run_dir)`: one `xrbench run` directory -> `<run>/report/index.html` (+ a page per
  benchmark and the report of every GenXR job in it).
- `check`: link and browser checks of a rendered report.
"""

from xrbench.report.genxr_job import render_genxr_job
from xrbench.report.site import render_site

__all__ = ["render_genxr_job", "render_site"]
