"""CLI errors: a user error or an unreadable file is one line and exit 2, never a traceback."""

from __future__ import annotations

import io

from rich.console import Console
from typer.testing import CliRunner

from xrbench.cli import common
from xrbench.errors import UserError


def invoke(monkeypatch, error: Exception) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(common, "err_console", Console(file=out, width=200))
    app = common.App()

    @app.command()
    def go() -> None:
        raise error

    @app.command()
    def other() -> None:  # two commands, so that Typer keeps the command names
        pass

    result = CliRunner().invoke(app, ["go"])
    return result.exit_code, out.getvalue() + result.output


def test_a_user_error_is_its_message(monkeypatch):
    code, text = invoke(monkeypatch, UserError("tasks/x/task.toml:3: difficulty: not one of easy, medium, hard"))
    assert code == 2 and text.strip() == "error: tasks/x/task.toml:3: difficulty: not one of easy, medium, hard"


def test_an_unreadable_file_is_named_in_one_line(monkeypatch):
    code, text = invoke(monkeypatch, PermissionError(13, "Permission denied", "/srv/app/index.html"))
    assert code == 2 and text.strip() == "error: /srv/app/index.html: Permission denied"
    assert "Traceback" not in text
