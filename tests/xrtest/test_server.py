"""The app server answers only from the workspace and node_modules, and refuses every escape attempt.

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


@pytest.mark.parametrize(
    "path",
    [
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
    ],
)
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
