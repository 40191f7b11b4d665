"""Runtime tests of the speaker-on-the-table app, in two rooms with tables of different heights.

They check that the speaker tagged 'speaker' rests on the nearest table (bottom on the detected
table top, centred over it); that its sound is a THREE.PositionalAudio among the speaker's
descendants whose listener rides on the user's camera (not a global, non-positional Audio); and
that selecting the speaker with a hand's ray toggles the playback (the audio's `isPlaying` and
`state.playing`), while a pinch aimed elsewhere does not.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_resting_on, assert_state, assert_visible

SPEAKER = "speaker"

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")

# Every THREE.Audio in the scene and on the camera: positional or not, under the speaker or not,
# playing or not, and where its listener is relative to the camera.
_AUDIO_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const core = h.core;
  const camera = core.camera;
  camera.updateMatrixWorld(true);
  const head = camera.getWorldPosition(new THREE.Vector3());
  const found = new Map();
  const visit = (root) => root && h.guard(root, root.name || root.type).traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.type === 'PositionalAudio' || o.type === 'Audio') found.set(o.uuid, o);
  });
  visit(core.scene);
  visit(camera);
  const underTag = (o) => {
    for (let p = o; p; p = p.parent) {
      const d = p.userData && p.userData.xrblocksDevtools;
      if (d && String(d.tag) === tag) return true;
    }
    return false;
  };
  return [...found.values()].map((a) => {
    let listenerGap = null;
    if (a.listener) {
      a.listener.updateWorldMatrix(true, false);
      listenerGap = a.listener.getWorldPosition(new THREE.Vector3()).distanceTo(head);
    }
    return {
      type: a.type,
      positional: a.type === 'PositionalAudio' || !!a.panner,
      underSpeaker: underTag(a),
      playing: !!a.isPlaying,
      listenerGap,
      position: a.getWorldPosition(new THREE.Vector3()).toArray(),
    };
  });
}
"""


def audios(xr) -> list[dict]:
    return xr.probe(_AUDIO_JS, SPEAKER)


def speaker_audio(xr) -> dict:
    """The positional audio under the speaker (fails if there is none)."""
    found = audios(xr)
    mine = [a for a in found if a["positional"] and a["underSpeaker"]]
    seen = ", ".join(f"{a['type']} ({'under' if a['underSpeaker'] else 'not under'} the speaker)" for a in found)
    assert mine, f"expected a THREE.PositionalAudio among the speaker's descendants; observed {seen or 'no audio'}"
    return mine[0]


def placed(xr):
    """The app a second in: plane detection has reported the room's surfaces."""
    xr.wait(1000)
    return xr


def test_the_speaker_rests_on_the_nearest_table(xr):
    placed(xr)
    assert_visible(xr, SPEAKER)
    assert_resting_on(xr, SPEAKER, "table", tol=0.01)
    size = xr.find_by_tag(SPEAKER).size
    assert size is not None and abs(size[1] - 0.2) < 0.02, f"expected a speaker 0.2 m tall; observed size {size}"
    table = min((p for p in xr.planes("table")), key=lambda p: math.dist(p.position, xr.head.position))
    centre = xr.find(SPEAKER).point
    assert math.hypot(centre[0] - table.position[0], centre[2] - table.position[2]) < 0.05, (
        f"expected the speaker over the centre of the nearest table at ({table.position[0]:.2f}, "
        f"{table.position[2]:.2f}); observed its centre at ({centre[0]:.2f}, {centre[2]:.2f})"
    )
    assert_no_errors(xr)


def test_the_sound_is_positional_and_comes_from_the_speaker(xr):
    placed(xr)
    audio = speaker_audio(xr)
    assert audio["listenerGap"] is not None and audio["listenerGap"] < 0.02, (
        f"expected the positional audio's listener on the user's camera; observed it {audio['listenerGap']} m away"
    )
    box = xr.find(SPEAKER).box
    inside = all(box[0][i] - 0.01 <= audio["position"][i] <= box[1][i] + 0.01 for i in range(3))
    assert inside, f"expected the sound to come from inside the speaker {box}; observed it at {audio['position']}"
    assert not audio["playing"], "expected the speaker to start silent"
    assert_state(xr, SPEAKER, playing=False)
    assert_no_errors(xr)


def test_selecting_the_speaker_toggles_its_sound(xr):
    placed(xr)
    hand = xr.hand("dominant")
    hand.click(SPEAKER)
    assert_state(xr, SPEAKER, playing=True)
    assert speaker_audio(xr)["playing"], "expected the speaker's positional audio to play after selecting it"
    hand.click("floor")  # a pinch aimed elsewhere changes nothing
    assert_state(xr, SPEAKER, playing=True)
    assert speaker_audio(xr)["playing"], "expected the sound to keep playing after a pinch aimed at the floor"
    xr.hand("non_dominant").click(SPEAKER)  # either hand
    assert_state(xr, SPEAKER, playing=False)
    assert not speaker_audio(xr)["playing"], "expected the sound to stop after selecting the speaker again"
    assert_no_errors(xr)
