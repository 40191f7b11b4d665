"""Runtime tests of `lipsync-talking-head`: the generated app, driven through the xrtest `xr` fixture.

The head is found by its semantic tag; its `StylizedFace` (the object below the head that has
`setVisemes` and `visemes`) is read through the harness's probe, never through page globals. The
voice is real Web Audio running in real time, so the mouth is sampled over many frames rather
than at one. Each test runs for a right- and a left-dominant user.
"""

from xrbench.xrtest.assertions import assert_no_errors, assert_position

# The StylizedFace below (or on) the object tagged 'talking-head': its viseme weights, lip metrics
# and where its decal is, next to the head's centre.
READ_FACE = """(h) => {
  let head = null;
  h.core.scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!head && d && d.tag === 'talking-head') head = o;
  });
  if (!head) return null;
  let face = null;
  head.traverse((o) => { if (!face && o.visemes && typeof o.setVisemes === 'function') face = o; });
  if (!face) return {face: false};
  const V = h.THREE.Vector3;
  const mesh = face.mesh || face;
  return {
    face: true,
    jawOpen: Number(face.visemes.jawOpen) || 0,
    openHeight: Number(face.metrics && face.metrics.openHeight) || 0,
    decal: mesh.getWorldPosition(new V()).toArray(),
    head: head.getWorldPosition(new V()).toArray(),
  };
}"""


def face(xr):
    state = xr.probe(READ_FACE)
    assert state is not None, "no object tagged 'talking-head'"
    assert state["face"], "the head carries no StylizedFace"
    return state


def mouth_open(xr):
    state = face(xr)
    return max(state["jawOpen"], state["openHeight"])


def test_head_with_a_face_towards_the_user(xr):
    xr.settle()
    xr.step(5)
    head = xr.find_by_tag("talking-head")
    size = head.size
    assert size is not None and all(0.12 <= s <= 0.35 for s in size), f"head size {size}, expected about 0.2 m"
    eye = xr.camera_pose().position
    assert_position(xr, "talking-head", (eye[0], eye[1], eye[2] - 1.2), tol=0.35)
    state = face(xr)
    to_user = [e - c for e, c in zip(eye, state["head"], strict=True)]
    to_face = [f - c for f, c in zip(state["decal"], state["head"], strict=True)]
    assert sum(a * b for a, b in zip(to_user, to_face, strict=True)) > 0, (
        f"the face (decal at {state['decal']}) is on the far side of the head ({state['head']}) from the user"
    )
    assert head.state.get("talking") is False, f"the head talks before anyone selected it: {head.state}"
    assert mouth_open(xr) < 0.05, "the mouth is open before the head talks"
    assert_no_errors(xr)


def test_selecting_toggles_the_voice_and_the_mouth(xr):
    xr.settle()
    xr.step(5)
    hand = xr.hand("dominant")
    sounds_before = len(xr.audio())
    hand.click("talking-head")
    assert xr.find_by_tag("talking-head").state.get("talking") is True, "selecting the silent head did not start it"
    oscillators = [s for s in xr.audio()[sounds_before:] if s["kind"] == "oscillator"]
    assert oscillators, f"no oscillator started when the head began to talk: {xr.audio()}"
    opened = 0.0
    for _ in range(60):
        xr.step(1)
        opened = max(opened, mouth_open(xr))
    assert opened > 0.1, f"the mouth did not move while the head talked (widest {opened:.3f})"

    hand.click("talking-head")
    assert xr.find_by_tag("talking-head").state.get("talking") is False, "selecting the talking head did not stop it"
    xr.step(30)  # lipsync holds a mouth shape briefly through silence
    closed = 0.0
    for _ in range(10):
        xr.step(1)
        closed = max(closed, mouth_open(xr))
    assert closed < 0.05, f"the mouth is still open ({closed:.3f}) after the head stopped talking"
    assert xr.find_by_tag("talking-head").state.get("talking") is False

    hand.click("talking-head")  # and it can talk again
    assert xr.find_by_tag("talking-head").state.get("talking") is True
    assert_no_errors(xr)
