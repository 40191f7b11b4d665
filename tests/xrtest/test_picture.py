"""`xr.picture`: a rectangle of the scene drawn by the app's renderer, and what the page cannot fake."""

import numpy as np
import pytest

from xrbench.xrtest.errors import TamperingError

# Three squares in front of the user, facing them: red in the middle, green to the right, blue above.
SQUARES = """() => {
  const add = (hex, x, y) => {
    const THREE = window.THREE_FOR_TEST;
    const mesh = new THREE.Mesh(new THREE.PlaneGeometry(0.1, 0.1), new THREE.MeshBasicMaterial({color: hex}));
    mesh.position.set(x, y, -1);
    xb.core.scene.add(mesh);
  };
  add(0xff0000, 0, 1.5);
  add(0x00ff00, 0.15, 1.5);
  add(0x0000ff, 0, 1.65);
  return true;
}"""

CENTRE, RIGHT, UP = (0.0, 1.55, -1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)


def squares(s) -> np.ndarray:
    return s.picture(CENTRE, RIGHT, UP, size=(0.4, 0.4), pixels=(40, 40))


def dominant(pixels: np.ndarray) -> str:
    r, g, b = (int(v) for v in pixels.reshape(-1, 3).mean(axis=0))
    return "red" if r > 200 and g < 60 and b < 60 else "green" if g > 200 and r < 60 else "blue" if b > 200 else "?"


@pytest.fixture
def with_squares(open_session):
    def factory():
        s = open_session()
        s.evaluate("async () => { window.THREE_FOR_TEST = await import('three'); }")
        s.evaluate(SQUARES)
        s.step(1)
        return s

    return factory


@pytest.mark.xr
def test_a_picture_shows_the_scene_straight_on_rows_from_the_top(with_squares):
    s = with_squares()
    pic = squares(s)
    assert pic.shape == (40, 40, 3) and pic.dtype == np.uint8
    # 0.01 m per pixel: the red square's centre at (20, 25), green 15 px right of it, blue 15 px above.
    assert dominant(pic[23:28, 18:23]) == "red"
    assert dominant(pic[23:28, 33:38]) == "green"
    assert dominant(pic[8:13, 18:23]) == "blue"
    assert dominant(pic[23:28, 3:8]) == "?"  # nothing left of the red square
    with pytest.raises(ValueError, match="right and up must not be parallel"):
        s.picture(CENTRE, RIGHT, RIGHT, size=(0.4, 0.4))


@pytest.mark.xr
@pytest.mark.parametrize(
    "forgery, message",
    [
        ("xb.core.renderer.render = function () {};", "xb.core.renderer.render was replaced"),
        ("xb.core.renderer.readRenderTargetPixels = function () {};", "readRenderTargetPixels was replaced"),
        ("xb.core.renderer = Object.create(xb.core.renderer);", "xb.core.renderer was replaced"),
        ("xb.core._renderer = Object.create(xb.core.renderer);", "xb.core.renderer was replaced"),
        ("xb.core.camera = xb.core.camera.clone();", "xb.core.camera was replaced"),
        ("WebGL2RenderingContext.prototype.readPixels = function () {};", "readPixels was replaced"),
        ("const gl = xb.core.renderer.getContext(); gl.readPixels = function () {};", "own readPixels"),
    ],
)
def test_a_picture_the_page_tries_to_fake_is_tampering(with_squares, forgery, message):
    s = with_squares()
    s.evaluate(f"() => {{ {forgery} return true; }}")
    with pytest.raises(TamperingError, match=message):
        squares(s)


@pytest.mark.xr
def test_page_globals_the_picture_does_not_use(with_squares):
    # A page that replaces btoa and Uint8Array gets no say in the picture.
    s = with_squares()
    s.evaluate("() => { window.btoa = () => 'AAAA'; window.Uint8Array = Float64Array; return true; }")
    assert dominant(squares(s)[23:28, 18:23]) == "red"
