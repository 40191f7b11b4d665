"""Guidance evaluation: does agent guidance (an app contract, a task skill and canonical references
in the system prompt) make a model write better XR Blocks apps?

- `task`: the FIXED task format (`prompt.md` + `spec.json`), discovery and resolution;
- `arms`, `baseline`: the with-skill / without-skill / with-baseline system prompts;
- `runner`: generation, extraction, workspaces, result cells, repeats;
- `score`: the FIXED static score (one file or a batch in one Node process);
- `judge`, `smoke`, `runtime`: the model judge, the browser smoke test, the task's XR tests;
- `ablate`: drop one skill section at a time;
- `results`, `summarize`, `plots`: reading cells back, Markdown tables, charts;
- `check`: validate a task suite offline (no model).
"""
