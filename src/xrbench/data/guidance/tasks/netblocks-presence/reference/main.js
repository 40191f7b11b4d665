import * as THREE from 'three';
import * as xb from 'xrblocks';
import {
  BroadcastChannelTransport,
  NetObject,
  enableNet,
} from 'xrblocks/addons/netblocks/src/index.js';

const ROOM = 'xr-lobby';

/**
 * A shared room: joins `xr-lobby` over BroadcastChannel (no server, no network), shows who else
 * is there, and shares one cube whose transform netblocks replicates to every peer.
 */
class SharedRoom extends xb.Script {
  async init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const y = xb.user.height - 0.1;

    // The shared cube: a NetObject (a THREE.Group) holding the mesh.
    this.shared = new NetObject({id: 'shared-cube'});
    this.shared.position.set(0, y, -1.2);
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.25, 0.25, 0.25),
      new THREE.MeshPhongMaterial({color: 0x1e88e5}));
    this.shared.add(this.cube);
    this.shared.userData.xrblocksDevtools = {tag: 'shared-cube', state: {netId: 'shared-cube'}};
    this.add(this.shared);

    // Presence: a small card above the cube listing the other people in the room.
    this.presence = {room: ROOM, joined: false, peers: 0, names: []};
    this.label = new xb.UIText({text: 'Joining ' + ROOM + '...', style: {fontSize: 28}});
    this.card = new xb.UICard({
      name: 'presence-card',
      size: {width: 0.5, height: 'auto'},
      style: {padding: 20, flexDirection: 'column', alignItems: 'center'},
    });
    this.card.add(this.label);
    this.card.position.set(0, y + 0.35, -1.3);
    this.card.userData.xrblocksDevtools = {tag: 'presence', state: this.presence};
    this.add(this.card);

    const net = enableNet();
    this.session = await net.joinRoom(ROOM, {
      transport: new BroadcastChannelTransport(),
      displayName: 'Host',
    });
    this.session.addNetObject(this.shared);
    this.session.addEventListener('user-join', () => this.refreshPresence());
    this.session.addEventListener('user-leave', () => this.refreshPresence());
    this.presence.joined = true;
    this.refreshPresence();
  }

  refreshPresence() {
    const users = [...this.session.users.values()];
    this.presence.peers = users.length;
    this.presence.names = users.map((user) => user.displayName || user.peerId);
    const others = users.length === 1 ? '1 other person' : users.length + ' other people';
    this.label.text = ROOM + ': you + ' + others;
  }

  onObjectSelectStart(event) {
    if (!this.session || !xb.objectIsDescendantOf(event.surface, this.shared)) return;
    this.session.claim(this.shared);
    this.shared.position.x += 0.1;
  }

  dispose() {
    xb.core.net?.leaveRoom();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SharedRoom());
  xb.init(new xb.Options());
});
