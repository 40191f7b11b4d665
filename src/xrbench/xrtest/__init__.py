"""xrtest: run XR apps headless in Chromium, offline, act as the user and assert behaviour, in virtual time.

`XRSession` runs an XR Blocks app on its desktop simulator; `IWERSession` runs any WebXR app on
Meta's IWER emulator. Both give actors (`head`, `hand(role)`, `controller(role)`, ...), readers
(scene graph, tags, joints, camera, events, errors) and work with `xrbench.xrtest.assertions`.
The pytest plugin (`pytest_plugin`) provides the `xr` fixture; `vlm` adds model-judged checks.
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
from xrbench.xrtest.iwer import IWERSession
from xrbench.xrtest.routing import FailedRequest, RemoteRequest, SessionLog
from xrbench.xrtest.scenes import Scene, get_scene, list_scenes
from xrbench.xrtest.server import AppServer
from xrbench.xrtest.session import Joint, Pose, SceneNode, UIRect, XRSession
from xrbench.xrtest.vlm import adaptive_act, assert_vlm, vlm_check
from xrbench.xrtest.webdeps import WebDeps, find_web_deps
from xrbench.xrtest.workspace import Workspace, create_workspace

__all__ = [
    "AppInitError",
    "AppServer",
    "BrowserHandle",
    "BrowserLaunchError",
    "FailedRequest",
    "IWERSession",
    "Joint",
    "Pose",
    "RemoteRequest",
    "Scene",
    "SceneError",
    "SceneNode",
    "SessionClosedError",
    "SessionLog",
    "TagNotFoundError",
    "UIRect",
    "WebDeps",
    "WebDepsError",
    "Workspace",
    "XRSession",
    "XRTestError",
    "adaptive_act",
    "assert_vlm",
    "close_shared_browser",
    "create_workspace",
    "find_chromium",
    "find_web_deps",
    "get_scene",
    "launch_browser",
    "list_scenes",
    "shared_browser",
    "vlm_check",
]
