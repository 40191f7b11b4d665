"""The `drawn` reader: what the app draws, XR Blocks' own systems left out, and pinned against an
app that passes its scene off as those systems."""

from __future__ import annotations

import pytest

from xrbench.xrtest.errors import TamperingError

pytestmark = pytest.mark.xr

# What task tests used to copy into their own probes: the reader must give the same answer.
_PROBE_JS = """
(h) => {
  const scene = h.guard(h.core.scene, 'the scene');
  const systems = h.core.xrSystemsGroup;
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible || p === systems) return false; return true; };
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if ((o.isMesh || o.isLine || o.isPoints || o.isSprite) && shown(o)) out.push([o.name || '', o.type]);
  });
  return out;
}
"""


def test_drawn_lists_shown_objects_of_every_kind_with_their_tags(open_session, test_apps):
    s = open_session(test_apps / "drawn", scene="empty")
    s.step(1)
    drawn = {d.name: d for d in s.drawn()}
    assert set(drawn) == {"box", "stroke", "dots", "label", "bulb", "stand"}  # hidden and systems' left out
    assert [(drawn[n].kind, drawn[n].type) for n in ("box", "stroke", "dots", "label")] == [
        ("mesh", "Mesh"),
        ("line", "Line"),
        ("points", "Points"),
        ("sprite", "Sprite"),
    ]
    assert drawn["box"].geometry == "BoxGeometry" and drawn["stand"].geometry == "CylinderGeometry"
    assert drawn["bulb"].tags == ("lamp-bulb", "lamp") and drawn["stand"].tags == ("lamp",)
    assert drawn["box"].tags == ()
    assert [d.name for d in s.drawn(kinds=("line", "sprite"))] == ["stroke", "label"]
    assert sorted((d.name, d.type) for d in s.drawn()) == sorted(tuple(x) for x in s.probe(_PROBE_JS))
    with pytest.raises(ValueError, match="unknown kinds"):
        s.drawn(kinds=("meshes",))


def test_an_app_cannot_pass_its_scene_off_as_xr_blocks_systems(open_session, test_apps):
    s = open_session(test_apps / "drawn", scene="empty", url_params={"hostile": "1"})
    s.step(1)
    assert len(s.drawn()) == 6
    with pytest.raises(TamperingError, match="xrSystemsGroup"):
        s.step(2)
        s.drawn()
