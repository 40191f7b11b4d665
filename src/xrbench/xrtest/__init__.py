"""xrtest: run XR Blocks apps headless in Chromium, offline, and inspect them in virtual time.

Milestone 1 (runtime core): web dependencies, browser, static server, workspace/import-map
rewriting, network routing, bundled simulator scenes, `XRSession` with frame stepping and the
first readers (scene-graph snapshot, tags, camera pose, hand joints, WebGL health, logs).
"""

from xrbench.xrtest.browser import BrowserHandle, close_shared_browser, find_chromium, launch_browser, shared_browser
from xrbench.xrtest.errors import (
    AppInitError,
    BrowserLaunchError,
    SceneError,
    SessionClosedError,
    TagNotFoundError,
    WebDepsError,
    XRTestError,
)
from xrbench.xrtest.routing import FailedRequest, RemoteRequest, SessionLog
from xrbench.xrtest.scenes import Scene, get_scene, list_scenes
from xrbench.xrtest.server import StaticServer
from xrbench.xrtest.session import Joint, Pose, SceneNode, XRSession
from xrbench.xrtest.webdeps import WebDeps, find_web_deps
from xrbench.xrtest.workspace import Workspace, create_workspace

__all__ = [
    "AppInitError",
    "BrowserHandle",
    "BrowserLaunchError",
    "FailedRequest",
    "Joint",
    "Pose",
    "RemoteRequest",
    "Scene",
    "SceneError",
    "SceneNode",
    "SessionClosedError",
    "SessionLog",
    "StaticServer",
    "TagNotFoundError",
    "WebDeps",
    "WebDepsError",
    "Workspace",
    "XRSession",
    "XRTestError",
    "close_shared_browser",
    "create_workspace",
    "find_chromium",
    "find_web_deps",
    "get_scene",
    "launch_browser",
    "list_scenes",
    "shared_browser",
]
