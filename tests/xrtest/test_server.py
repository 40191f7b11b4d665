"""The app server answers only from its roots (the session's files, the app, node_modules) and refuses
every escape attempt.

Its policy (`AppServer.respond`) is a plain function of method and path, so it is tested without a
browser; the red-team suite (tests/redteam/test_network.py) drives it through real routing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from xrbench.xrtest.server import APP_ORIGIN, AppServer, Refused, mime_type, resolve_request_path

SECRET = "TOP-SECRET-CONTENT"


@pytest.fixture
def roots(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A workspace and a node_modules next to an outside directory holding a secret."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET)
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    (ws / "index.html").write_text("<!doctype html><p>hello</p>")
    (ws / "main.js").write_text("export {};")
    (ws / "lib.mjs").write_text("export {};")
    (ws / "model.glb").write_bytes(b"glTF....")
    (ws / "mod.wasm").write_bytes(b"\0asm\1\0\0\0")
    (ws / "data.json").write_text("{}")
    (ws / "sub" / "note.txt").write_text("note")
    os.symlink(outside / "secret.txt", ws / "escape.txt")
    os.symlink(outside, ws / "escape_dir")
    os.symlink(ws / "main.js", ws / "alias.js")  # a link that stays inside is fine
    nm = tmp_path / "node_modules"
    (nm / "pkg").mkdir(parents=True)
    (nm / "pkg" / "index.js").write_text("export const x = 1;")
    return ws, nm, outside


@pytest.fixture
def server(roots) -> AppServer:
    ws, nm, _ = roots
    return AppServer(ws, nm, once=["/once.js"])


def raw_request(server: AppServer, path: str, method: str = "GET") -> tuple[int, bytes, dict[str, str]]:
    """Answer `path` exactly as given: status, the body the browser would get, headers."""
    r = server.respond(method, path)
    body = b"" if method == "HEAD" else (r.file.read_bytes() if r.file else r.body)
    return r.status, body, r.headers


def test_origin_is_loopback_and_fixed(roots):
    ws, nm, _ = roots
    assert AppServer(ws, nm).base_url == AppServer(ws, nm).base_url == APP_ORIGIN
    assert APP_ORIGIN.startswith("http://127.0.0.1:")  # a secure context, as WebXR needs


def test_once_paths_are_answered_a_single_time(server, roots):
    (roots[0] / "once.js").write_text("export {};")
    assert raw_request(server, "/once.js")[0] == 200
    assert raw_request(server, "/once.js?again")[0] == 404


@pytest.mark.parametrize(
    ("path", "ctype"),
    [
        ("/main.js", "text/javascript"),
        ("/lib.mjs", "text/javascript"),
        ("/model.glb", "model/gltf-binary"),
        ("/mod.wasm", "application/wasm"),
        ("/data.json", "application/json"),
        ("/index.html", "text/html"),
        ("/node_modules/pkg/index.js", "text/javascript"),
    ],
)
def test_serves_files_with_mime_types(server, path, ctype):
    status, body, headers = raw_request(server, path)
    assert status == 200
    assert headers["content-type"].startswith(ctype)
    assert headers["x-content-type-options"] == "nosniff"
    assert len(body) > 0


def test_root_serves_index_and_head_has_no_body(server):
    assert raw_request(server, "/")[0] == 200
    status, body, headers = raw_request(server, "/main.js", "HEAD")
    assert status == 200 and body == b"" and headers["content-type"].startswith("text/javascript")


ESCAPES = [
    "/../outside/secret.txt",
    "/sub/../../outside/secret.txt",
    "/node_modules/../../outside/secret.txt",
    "/%2e%2e/outside/secret.txt",
    "/%2E%2E/outside/secret.txt",
    "/sub/%2e%2e/%2e%2e/outside/secret.txt",
    "/node_modules/%2e%2e/%2e%2e/outside/secret.txt",
    "/%252e%252e/outside/secret.txt",
    "/..%2foutside%2fsecret.txt",
    "/..%5coutside%5csecret.txt",
    "//etc/passwd",
    "/%2Fetc%2Fpasswd",
    "/etc/passwd",
    "/escape.txt",
    "/escape_dir/secret.txt",
    "/sub\\..\\..\\outside\\secret.txt",
    "/main.js%00.txt",
]


@pytest.mark.parametrize("path", ESCAPES)
def test_refuses_traversal_and_escapes(server, path):
    status, body, _ = raw_request(server, path)
    assert status in (400, 403, 404), (path, status)
    assert SECRET.encode() not in body


def test_symlink_inside_the_root_is_served(server):
    assert raw_request(server, "/alias.js")[0] == 200


@pytest.mark.parametrize("path", ["/sub/", "/sub", "/node_modules/", "/node_modules", "/node_modules/pkg/"])
def test_no_directory_listings(server, path):
    status, body, _ = raw_request(server, path)
    assert status == 404
    assert b"note.txt" not in body and b"index.js" not in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(server, roots, method):
    status, _, headers = raw_request(server, "/node_modules/pkg/index.js", method)
    assert status == 405
    assert headers["allow"] == "GET, HEAD"
    assert (roots[1] / "pkg" / "index.js").read_text() == "export const x = 1;"


def test_requests_are_recorded(server):
    raw_request(server, "/main.js")
    raw_request(server, "/%2e%2e/x")
    got = [(r.path, r.status) for r in server.requests]
    assert ("/main.js", 200) in got and ("/%2e%2e/x", 403) in got


def test_resolve_request_path_unit(roots):
    ws, nm, _ = roots
    assert resolve_request_path("/main.js?x=1#y", ws, nm) == (ws / "main.js").resolve()
    assert resolve_request_path("/node_modules/pkg/index.js", ws, nm) == (nm / "pkg" / "index.js").resolve()
    with pytest.raises(Refused):
        resolve_request_path("relative.js", ws, nm)
    # Without a node_modules root, /node_modules/ is just a (missing) workspace folder.
    with pytest.raises(Refused):
        resolve_request_path("/node_modules/pkg/index.js", ws, None)


def test_mime_type_defaults():
    assert mime_type("a.JS").startswith("text/javascript")
    assert mime_type("a.unknown") == "application/octet-stream"


@pytest.fixture
def layered(roots, tmp_path: Path) -> AppServer:
    """A session's own folder (rewritten entry page, harness files) in front of the app folder `ws`."""
    app, nm, _ = roots
    (app / "__xrtest__").mkdir()
    (app / "__xrtest__" / "planted.js").write_text(SECRET)
    (app / "lib" / "node_modules").mkdir(parents=True)
    (app / "lib" / "node_modules" / "x.js").write_text(SECRET)
    (app / ".git").mkdir()
    (app / ".git" / "config").write_text(SECRET)
    os.symlink(app / ".git", app / "gitlink")
    session = tmp_path / "session"
    (session / "__xrtest__").mkdir(parents=True)
    (session / "index.html").write_text("<!doctype html><p>rewritten</p>")
    (session / "__xrtest__" / "harness.js").write_text("export {};")
    return AppServer(session, nm, app=app)


def test_the_session_files_come_first_and_the_app_is_read_in_place(layered, roots):
    assert raw_request(layered, "/")[1] == b"<!doctype html><p>rewritten</p>"
    assert raw_request(layered, "/index.html")[1] == b"<!doctype html><p>rewritten</p>"
    assert raw_request(layered, "/__xrtest__/harness.js")[0] == 200
    assert raw_request(layered, "/main.js")[1] == b"export {};"
    assert raw_request(layered, "/sub/note.txt")[1] == b"note"
    assert raw_request(layered, "/alias.js")[0] == 200
    assert raw_request(layered, "/node_modules/pkg/index.js")[1] == b"export const x = 1;"


@pytest.mark.parametrize(
    "path", ["/__xrtest__/planted.js", "/lib/node_modules/x.js", "/.git/config", "/gitlink/config", "/sub/"]
)
def test_the_apps_own_harness_packages_and_git_folders_are_not_served(layered, path):
    status, body, _ = raw_request(layered, path)
    assert status == 404 and SECRET.encode() not in body


@pytest.mark.parametrize("path", ESCAPES)
def test_the_app_behind_the_session_refuses_escapes_too(layered, path):
    status, body, _ = raw_request(layered, path)
    assert status in (400, 403, 404), (path, status)
    assert SECRET.encode() not in body
