"""Runtime tests of `netblocks-presence`: the generated app, driven through the xrtest `xr` fixture.

The browser has no network, so a second participant is played by the test itself: a probe opens
a `BroadcastChannel` on the room's channel (`xrblocks-netblocks::xr-lobby`, the one netblocks'
`BroadcastChannelTransport` uses) and speaks netblocks' wire protocol on it, as a second tab of
the app would. The app's own netblocks state (`xb.core.net`) is read through the harness's probe,
never through page globals. Each test runs for a right- and a left-dominant user.
"""

import math

from xrbench.xrtest.assertions import assert_no_errors, assert_position

ROOM = "xr-lobby"
TESTER = "peer-tester"

# The app's netblocks session as the harness sees it (`h.core` is the XR Blocks core the harness
# captured before the app ran; `enableNet()` puts the NetCore on it as `core.net`).
READ_NET = """(h) => {
  const net = h.core.net;
  const session = net && net.session;
  if (!session) return {net: Boolean(net), session: false};
  const transport = session.transport;
  const obj = session.netObjects.get('shared-cube');
  let inScene = false;
  let tagged = false;
  if (obj) {
    for (let o = obj; o; o = o.parent) if (o === h.core.scene) inScene = true;
    obj.traverse((o) => {
      const d = o.userData && o.userData.xrblocksDevtools;
      if (d && d.tag === 'shared-cube') tagged = true;
    });
    for (let o = obj.parent; o && !tagged; o = o.parent) {
      const d = o.userData && o.userData.xrblocksDevtools;
      if (d && d.tag === 'shared-cube') tagged = true;
    }
  }
  return {
    net: true,
    session: true,
    open: session.isOpen,
    transport: transport && transport.name,
    channel: transport && transport._channel ? transport._channel.name : null,
    localPeerId: session.localPeerId,
    users: [...session.users.values()].map((u) => ({peerId: u.peerId, displayName: u.displayName})),
    object: obj ? {netId: obj.netId, ownerId: obj.ownerId, inScene, tagged,
                   position: obj.getWorldPosition(new h.THREE.Vector3()).toArray()} : null,
  };
}"""

# Act as another participant: post netblocks envelopes on the room's channel. `messages` are
# netblocks messages (sent as `data` envelopes) or {"envelope": "hello" | "bye"}. With `collect`,
# wait (real time, at most 3 s) for the app's replies and return them decoded.
PEER = """async (h, arg) => {
  const channel = new BroadcastChannel('xrblocks-netblocks::' + arg.room);
  const received = [];
  const decode = (d) => JSON.parse(new TextDecoder().decode(
      Uint8Array.from(atob(d), (c) => c.charCodeAt(0))));
  const done = new Promise((resolve) => {
    if (!arg.collect) return resolve();
    const timeout = AbortSignal.timeout(3000);
    timeout.addEventListener('abort', () => resolve());
    channel.onmessage = (ev) => {
      const env = ev.data;
      if (!env || env.v !== 1 || env.from === arg.peer) return;
      if (env.to && env.to !== arg.peer) return;
      received.push(env.kind === 'data' && env.d ? {from: env.from, message: decode(env.d)}
                                                 : {from: env.from, envelope: env.kind});
      if (received.some((r) => r.message && r.message.type === arg.collect)) resolve();
    };
  });
  for (const m of arg.messages) {
    if (m.envelope) {
      channel.postMessage({v: 1, from: arg.peer, kind: m.envelope});
    } else {
      const bytes = new TextEncoder().encode(JSON.stringify({...m, from: arg.peer}));
      channel.postMessage({v: 1, from: arg.peer, kind: 'data', d: btoa(String.fromCharCode(...bytes))});
    }
  }
  await done;
  channel.close();
  return received;
}"""

HELLO = {
    "type": "hello",
    "protocol": 1,
    "displayName": "Tester",
    "role": "user",
    "capabilities": {"pose": False, "voice": False, "netobject": True},
}


def peer(xr, messages, collect=None):
    return xr.probe(PEER, {"room": ROOM, "peer": TESTER, "messages": messages, "collect": collect})


def net(xr):
    return xr.probe(READ_NET)


def step_until(xr, condition, frames=60):
    """Step up to `frames` frames until `condition()` holds (messages arrive between frames)."""
    for _ in range(frames):
        if condition():
            return True
        xr.step(1)
    return condition()


def joined(xr):
    xr.settle()
    assert step_until(xr, lambda: net(xr).get("open") is True), f"the app never joined a room: {net(xr)}"
    xr.step(10)  # a few netblocks ticks: the owner starts broadcasting the cube
    return net(xr)


def test_joins_the_room_and_shares_the_cube(xr):
    state = joined(xr)
    assert state["transport"] == "BroadcastChannel", f"transport {state['transport']!r}, expected BroadcastChannel"
    assert state["channel"] == f"xrblocks-netblocks::{ROOM}", (
        f"room channel {state['channel']!r}, expected room {ROOM!r}"
    )
    obj = state["object"]
    assert obj is not None, "no NetObject with id 'shared-cube' is registered with the session"
    assert obj["inScene"], "the 'shared-cube' NetObject is registered but not in the scene"
    assert obj["tagged"], (
        "the 'shared-cube' NetObject does not hold (and is not inside) the object tagged 'shared-cube'"
    )
    assert obj["ownerId"] == state["localPeerId"], f"the cube's owner is {obj['ownerId']!r}, not this user"
    cube = xr.find_by_tag("shared-cube")
    size = cube.size
    assert size is not None and all(0.15 <= s <= 0.4 for s in size), f"cube size {size}, expected about 0.25 m"
    head = xr.camera_pose().position
    assert_position(xr, "shared-cube", (head[0], head[1], head[2] - 1.2), tol=0.35)
    presence = xr.find_by_tag("presence").state
    assert presence.get("room") == ROOM and presence.get("joined") is True, f"presence state {presence}"
    assert presence.get("peers") == 0, f"presence state {presence}: nobody else is in the room yet"
    assert_no_errors(xr)


def test_a_second_participant_sees_the_room(xr):
    state = joined(xr)
    cube_position = state["object"]["position"]
    replies = peer(xr, [{"envelope": "hello"}, HELLO], collect="netobject.snapshot")
    messages = [r["message"] for r in replies if "message" in r]
    assert any(m["type"] == "hello" for m in messages), f"the app did not greet a new participant: {replies}"
    snapshots = [m for m in messages if m["type"] == "netobject.snapshot"]
    assert snapshots, f"the app sent no netobject snapshot to a new participant: {[m['type'] for m in messages]}"
    entries = {e["id"]: e for e in snapshots[0]["objects"]}
    assert "shared-cube" in entries, f"the snapshot does not carry 'shared-cube': {sorted(entries)}"
    sent = entries["shared-cube"]["xform"][:3]
    assert math.dist(sent, cube_position) < 0.05, f"the cube was sent at {sent}, it is at {cube_position}"

    assert step_until(xr, lambda: xr.find_by_tag("presence").state.get("peers") == 1, frames=30), (
        f"presence did not count the new participant: {xr.find_by_tag('presence').state}"
    )
    assert "Tester" in xr.find_by_tag("presence").state.get("names", []), xr.find_by_tag("presence").state
    assert [u["displayName"] for u in net(xr)["users"]] == ["Tester"]

    peer(xr, [{"type": "bye"}, {"envelope": "bye"}])
    assert step_until(xr, lambda: xr.find_by_tag("presence").state.get("peers") == 0, frames=30), (
        f"presence did not drop the participant who left: {xr.find_by_tag('presence').state}"
    )
    assert_no_errors(xr)


def test_remote_moves_and_local_selection(xr):
    joined(xr)
    start = xr.find_by_tag("shared-cube").position
    target = [start[0] + 0.3, start[1] + 0.2, start[2]]
    xform = [*target, 0, 0, 0, 1, 1, 1, 1]
    peer(
        xr,
        [
            {"envelope": "hello"},
            HELLO,
            {"type": "netobject.claim", "id": "shared-cube"},
            {"type": "netobject", "id": "shared-cube", "xform": xform},
        ],
    )
    assert step_until(xr, lambda: net(xr)["object"]["ownerId"] == TESTER, frames=30), (
        f"the other participant's claim was not applied: {net(xr)['object']}"
    )
    xr.step(90)  # netblocks interpolates towards the owner's transform
    assert_position(xr, "shared-cube", target, tol=0.03)  # the remote move shows up locally

    before = xr.find_by_tag("shared-cube").position
    xr.hand("dominant").click("shared-cube")
    xr.step(2)
    state = net(xr)
    assert state["object"]["ownerId"] == state["localPeerId"], (
        f"selecting the cube did not claim it: owner {state['object']['ownerId']!r}"
    )
    after = xr.find_by_tag("shared-cube").position
    assert abs((after[0] - before[0]) - 0.1) < 0.03 and abs(after[1] - before[1]) < 0.03, (
        f"the cube moved from {before} to {after}, expected 0.1 m to the right"
    )
    assert_no_errors(xr)
