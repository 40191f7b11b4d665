"""XR Blocks' estimated lighting: `Lighting.update()` (sdk/src/lighting/Lighting.ts).

Everything is read from the live scene graph: the directional light and the light probe that the
lighting module added to the scene (found by traversing the scene, with their world positions), the
lighting module's `ambientLight` vector, the main light's shadow radius and the depth mesh's shadow
material. A headset's light estimate is played by writing into the lighting module's
`XREstimatedLight` (`xrLight.directionalLight`, `xrLight.lightProbe`) what WebXR writes there on a
device, with `simulatorRunning` false; the desktop simulator's stand-in is what the module shows
while `simulatorRunning` is true (as the Core sets it).

The tests check that
- in the simulator the lights take the stand-in (position, target, white, 3.8, the 27 ambient
  numbers, intensity 1) whatever the estimate holds, and keep it frame after frame, with the soft
  shadow radius and opacity that follow from it;
- on a headset the main light and the ambient probe take the estimate (direction x 20, target at the
  origin, colour, intensity; the nine coefficients, intensity; ambientLight = coefficient 0) on the
  next frame, for several estimates in a row, and back to the stand-in when the simulator runs again;
- the shadow radius (30 k, between 1 and 10) and the depth mesh's opacity (0.7 (10 - 30 k), between
  0.3 and 0.7) follow the ratio k of ambient to main brightness for ratios on both sides of each
  limit and with coloured lights (the brightness weights matter);
- turning soft shadows off (the app's button, pressed with either hand, or the shadow option)
  keeps the last radius and opacity while the lights still follow the estimate, and turning them
  back on makes the shadows follow again from the next frame.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

SIMULATOR_AMBIENT_SH = [
    0.22636516392230988, 0.2994415760040283, 0.2827182114124298,
    0.03430574759840965, 0.029604531824588776, -0.002050594426691532,
    0.016114741563796997, 0.004344218410551548, 0.07621686905622482,
    0.024204734712839127, -0.02397896535694599, -0.07645703107118607,
    0.15790101885795593, 0.16706973314285278, 0.18418270349502563,
    -0.13088643550872803, -0.1461198776960373, -0.1411236822605133,
    0.04788218438625336, 0.08909443765878677, 0.10185115039348602,
    0.020251473411917686, -0.002100071171298623, -0.06455840915441513,
    -0.12393051385879517, -0.05158703774213791, -0.00532124936580658,
]  # fmt: skip
TOL = 1e-4

# --- reading the lights ---------------------------------------------------------------------------

LIGHTS = """(h) => {
  const core = h.core, L = core.lighting;
  if (!L) return {error: 'xb.core.lighting is missing (the app enables lighting)'};
  core.scene.updateMatrixWorld(true);
  const directional = [], probes = [];
  core.scene.traverse((o) => {
    if (o.isDirectionalLight) directional.push(o);
    if (o.isLightProbe) probes.push(o);
  });
  if (directional.length !== 1 || probes.length !== 1)
    return {error: 'expected one directional light and one light probe in the scene; found ' +
      `${directional.length} and ${probes.length}`};
  const d = directional[0], p = probes[0];
  d.target.updateMatrixWorld(true);
  const mesh = core.depth && core.depth.depthMesh;
  return {
    position: d.getWorldPosition(new h.THREE.Vector3()).toArray(),
    target: d.target.getWorldPosition(new h.THREE.Vector3()).toArray(),
    color: [d.color.r, d.color.g, d.color.b],
    intensity: d.intensity,
    radius: d.shadow.radius,
    sh: p.sh.coefficients.flatMap((c) => c.toArray()),
    probeIntensity: p.intensity,
    ambient: L.ambientLight.toArray(),
    shadowMaterial: Boolean(mesh && mesh.material && mesh.material.isShadowMaterial),
    opacity: mesh && mesh.material ? mesh.material.opacity : null,
    soft: L.options ? L.options.useDynamicSoftShadow : null,
  };
}"""

# Plays a headset's light estimate: what WebXR writes into three.js' XREstimatedLight.
SET_ESTIMATE = """(h, e) => {
  const L = h.core.lighting;
  L.simulatorRunning = e.simulator;
  const x = L.xrLight;
  if (!x) return 'no xrLight';
  const d = x.directionalLight;
  d.position.fromArray(e.direction);
  d.color.r = e.color[0]; d.color.g = e.color[1]; d.color.b = e.color[2];
  d.intensity = e.intensity;
  x.lightProbe.sh.fromArray(e.sh);
  x.lightProbe.intensity = e.probeIntensity;
  return 'ok';
}"""

SET_OPTION = """(h, a) => { h.core.lighting.options[a.name] = a.value; return h.core.lighting.options[a.name]; }"""


def lights(xr) -> dict:
    got = xr.probe(LIGHTS)
    assert "error" not in got, got["error"]
    return got


def estimate(direction, color, intensity, sh, probe_intensity, *, simulator=False) -> dict:
    return {
        "direction": list(direction),
        "color": list(color),
        "intensity": intensity,
        "sh": list(sh),
        "probeIntensity": probe_intensity,
        "simulator": simulator,
    }


def set_estimate(xr, e: dict) -> None:
    assert xr.probe(SET_ESTIMATE, e) == "ok", "the lighting module has no XREstimatedLight (xrLight)"


def unit(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v]


def sh_from(first: tuple[float, float, float], seed: int) -> list[float]:
    """Nine RGB coefficients: `first` then eight made-up ones (deterministic)."""
    out = list(first)
    for i in range(1, 9):
        out += [round(0.05 * math.sin(seed + i * 1.7 + c), 6) for c in range(3)]
    return out


def mono(rgb) -> float:
    return 0.21 * rgb[0] + 0.72 * rgb[1] + 0.07 * rgb[2]


def soft(ambient_rgb, color, intensity) -> tuple[float, float]:
    k = mono(ambient_rgb) / mono([c * intensity for c in color])
    return min(max(1.0, 30 * k), 10.0), max(min((10.0 - 30 * k) * 0.7, 0.7), 0.3)


def close(a, b, tol=TOL) -> bool:
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return a is not None and b is not None and abs(a - b) <= tol
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def fmt(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:.4f}"
    return "(" + ", ".join(f"{x:.4f}" for x in v) + ")"


def assert_lights(got: dict, want: dict, when: str) -> None:
    """Every key of `want` (position, target, color, intensity, sh, probeIntensity, ambient, radius,
    opacity) matches the lights read from the scene."""
    __tracebackhide__ = True
    names = {
        "position": "the main light's world position",
        "target": "the main light's target (world position)",
        "color": "the main light's colour",
        "intensity": "the main light's intensity",
        "sh": "the ambient probe's nine coefficients",
        "probeIntensity": "the ambient probe's intensity",
        "ambient": "lighting.ambientLight",
        "radius": "the main light's shadow radius",
        "opacity": "the depth mesh's shadow-material opacity",
    }
    wrong = [
        f"{names[k]}: expected {fmt(v)}, observed {fmt(got[k]) if got[k] is not None else None}"
        for k, v in want.items()
        if not close(got[k], v)
    ]
    assert not wrong, f"{when}:\n  " + "\n  ".join(wrong)


STAND_IN = {
    "position": [-10.0, 10.0, -2.0],
    "target": [0.0, 0.0, -0.5],
    "color": [1.0, 1.0, 1.0],
    "intensity": 3.8,
    "sh": SIMULATOR_AMBIENT_SH,
    "probeIntensity": 1.0,
    "ambient": SIMULATOR_AMBIENT_SH[:3],
}
STAND_IN_RADIUS, STAND_IN_OPACITY = soft(SIMULATOR_AMBIENT_SH[:3], (1.0, 1.0, 1.0), 3.8)


def from_estimate(e: dict) -> dict:
    return {
        "position": [20 * c for c in e["direction"]],
        "target": [0.0, 0.0, 0.0],
        "color": e["color"],
        "intensity": e["intensity"],
        "sh": e["sh"],
        "probeIntensity": e["probeIntensity"],
        "ambient": e["sh"][:3],
    }


@pytest.fixture
def app(xr):
    xr.settle()
    got = lights(xr)
    assert got["shadowMaterial"], (
        "expected the app's depth mesh to catch shadows with a THREE.ShadowMaterial (depth sensing with "
        f"renderShadow); observed {got}"
    )
    return xr


# --- the simulator's stand-in ---------------------------------------------------------------------


@pytest.mark.fail_to_pass
def test_the_simulator_lights_the_still_life_with_its_stand_in(app):
    xr = app
    want = dict(STAND_IN, radius=STAND_IN_RADIUS, opacity=STAND_IN_OPACITY)
    assert_lights(lights(xr), want, "in the simulator, after the app's start")
    xr.step(20)
    assert_lights(lights(xr), want, "in the simulator, 20 frames later")
    # Whatever the estimate holds, the simulator's stand-in wins.
    e = estimate(unit((0.4, 0.7, 0.3)), (0.9, 0.6, 0.3), 1.7, sh_from((0.5, 0.4, 0.2), 3), 0.6, simulator=True)
    set_estimate(xr, e)
    xr.step(1)
    assert_lights(lights(xr), want, "in the simulator, the frame after the estimate held other values")
    xr.step(5)
    assert_lights(lights(xr), want, "in the simulator, 5 frames after that")
    assert_no_errors(xr)


# --- a headset's estimate -------------------------------------------------------------------------

HEADSET_ESTIMATES = [
    estimate(unit((0.3, 0.8, -0.5)), (1.0, 0.9, 0.75), 2.5, sh_from((0.3, 0.28, 0.25), 1), 0.8),
    estimate(unit((-0.6, 0.5, 0.62)), (0.55, 0.7, 1.0), 1.2, sh_from((0.12, 0.15, 0.22), 2), 1.3),
    estimate(unit((0.05, 0.99, 0.1)), (1.0, 0.5, 0.2), 4.0, sh_from((0.6, 0.3, 0.1), 5), 0.45),
]


@pytest.mark.fail_to_pass
def test_on_a_headset_the_lights_take_the_estimate_on_the_next_frame(app):
    xr = app
    for i, e in enumerate(HEADSET_ESTIMATES):
        set_estimate(xr, e)
        xr.step(1)
        radius, opacity = soft(e["sh"][:3], e["color"], e["intensity"])
        want = dict(from_estimate(e), radius=radius, opacity=opacity)
        assert_lights(lights(xr), want, f"on a headset, the frame after estimate {i + 1} arrived")
        xr.step(3)
        assert_lights(lights(xr), want, f"on a headset, 3 frames after estimate {i + 1}")
    # The simulator starts again: its stand-in comes back on the next frame.
    set_estimate(xr, dict(HEADSET_ESTIMATES[0], simulator=True))
    xr.step(1)
    assert_lights(
        lights(xr),
        dict(STAND_IN, radius=STAND_IN_RADIUS, opacity=STAND_IN_OPACITY),
        "the frame after simulatorRunning became true again",
    )
    assert_no_errors(xr)


# --- soft shadows ---------------------------------------------------------------------------------

WHITE = (1.0, 1.0, 1.0)
ORANGE = (1.0, 0.5, 0.2)


def ratio_estimate(k: float, color, intensity: float, ambient_tint, seed: int) -> dict:
    """An estimate whose ambient-to-main brightness ratio is k."""
    m = mono([c * intensity for c in color])
    scale = k * m / mono(ambient_tint)
    first = tuple(round(c * scale, 9) for c in ambient_tint)
    return estimate(unit((0.2 * seed, 1.0, -0.3)), color, intensity, sh_from(first, seed), 1.0)


SOFT_CASES = [
    # (k, main colour, intensity, ambient tint): the radius and opacity follow from k.
    (0.01, WHITE, 3.0, (1.0, 1.0, 1.0)),  # radius 1 (kept up), opacity 0.7
    (0.2, ORANGE, 2.0, (0.3, 0.9, 0.5)),  # radius 6, opacity 0.7
    (0.31, WHITE, 1.5, (1.0, 0.8, 0.6)),  # radius 9.3, opacity 0.49
    (0.316, (0.4, 0.8, 1.0), 2.2, (0.9, 0.7, 1.0)),  # radius 9.48, opacity 0.364
    (0.5, ORANGE, 1.0, (1.0, 0.4, 0.2)),  # radius 10 (kept down), opacity 0.3
    (0.1, (0.2, 1.0, 0.3), 5.0, (1.0, 0.2, 0.9)),  # radius 3, opacity 0.7
]


@pytest.mark.fail_to_pass
def test_the_shadow_softness_follows_the_ratio_of_ambient_to_main_light(app):
    xr = app
    for i, (k, color, intensity, tint) in enumerate(SOFT_CASES):
        e = ratio_estimate(k, color, intensity, tint, i + 1)
        set_estimate(xr, e)
        xr.step(1)
        radius, opacity = soft(e["sh"][:3], e["color"], e["intensity"])
        assert close(radius, min(max(1.0, 30 * k), 10.0), 1e-3)
        got = lights(xr)
        assert_lights(
            got,
            {"radius": radius, "opacity": opacity, "ambient": e["sh"][:3], "intensity": intensity},
            f"on a headset, the frame after an estimate with ambient-to-main brightness ratio k = {k} "
            f"(ambient {fmt(e['sh'][:3])}, main colour {fmt(color)} x {intensity})",
        )
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_turning_soft_shadows_off_keeps_the_last_shadows_and_on_again_follows(app):
    xr = app
    first = ratio_estimate(0.15, ORANGE, 2.0, (0.8, 0.9, 1.0), 1)  # radius 4.5, opacity 0.7
    second = ratio_estimate(0.315, WHITE, 1.8, (1.0, 0.9, 0.7), 2)  # radius 9.45, opacity 0.385
    third = ratio_estimate(0.05, (0.6, 0.8, 1.0), 3.0, (1.0, 1.0, 1.0), 3)  # radius 1.5, opacity 0.7
    set_estimate(xr, second)
    xr.step(1)
    r2, o2 = soft(second["sh"][:3], second["color"], second["intensity"])
    assert_lights(lights(xr), {"radius": r2, "opacity": o2}, "on a headset, before any press")

    button = xr.find_by_tag("soft-shadow-button")
    presses = button.state["presses"]
    xr.hand("dominant").click("soft-shadow-button")
    state = xr.find_by_tag("soft-shadow-button").state
    assert state["presses"] == presses + 1 and lights(xr)["soft"] is False, (
        "expected a ray click of the dominant hand on the soft-shadow button to turn useDynamicSoftShadow off; "
        f"observed presses {state['presses']} (before {presses}), option {lights(xr)['soft']}"
    )
    # Off: new estimates move the lights but not the shadow radius or opacity.
    for e in (first, third):
        set_estimate(xr, e)
        xr.step(2)
        want = dict(from_estimate(e), radius=r2, opacity=o2)
        assert_lights(lights(xr), want, "soft shadows off (dominant hand's press), 2 frames after a new estimate")

    xr.hand("non_dominant").click("soft-shadow-button")
    state = xr.find_by_tag("soft-shadow-button").state
    assert state["presses"] == presses + 2 and lights(xr)["soft"] is True, (
        "expected a ray click of the non-dominant hand on the soft-shadow button to turn useDynamicSoftShadow on "
        f"again; observed presses {state['presses']} (before {presses}), option {lights(xr)['soft']}"
    )
    set_estimate(xr, first)
    xr.step(1)
    r1, o1 = soft(first["sh"][:3], first["color"], first["intensity"])
    assert_lights(lights(xr), {"radius": r1, "opacity": o1}, "the frame after a new estimate, soft shadows on again")
    set_estimate(xr, second)
    xr.step(1)
    assert_lights(lights(xr), {"radius": r2, "opacity": o2}, "the frame after the next estimate, soft shadows on")

    # The shadow option off stops the adjustment too; on again, it follows from the next frame.
    assert xr.probe(SET_OPTION, {"name": "castDirectionalLightShadow", "value": False}) is False
    set_estimate(xr, third)
    xr.step(2)
    assert_lights(
        lights(xr),
        dict(from_estimate(third), radius=r2, opacity=o2),
        "castDirectionalLightShadow off, 2 frames after a new estimate",
    )
    assert xr.probe(SET_OPTION, {"name": "castDirectionalLightShadow", "value": True}) is True
    xr.step(1)
    r3, o3 = soft(third["sh"][:3], third["color"], third["intensity"])
    assert_lights(lights(xr), {"radius": r3, "opacity": o3}, "the frame after castDirectionalLightShadow is on again")
    assert_no_errors(xr)
