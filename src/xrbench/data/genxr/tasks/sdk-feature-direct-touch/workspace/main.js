// Touch Keys: two keys side by side that light up while a fingertip presses them, and a block
// that can be picked up by touching it and pinching. Objects carry semantic tags
// (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function handOf(event) {
  return event?.source?.handedness ?? 'none';
}

/**
 * A 10 cm key: lit while touched; counts touches, touch ends, the frames it was held down and
 * the hands that touched it.
 */
class TouchKey extends xb.Script {
  constructor(name, x, color) {
    super();
    this.keyName = name;
    this.keyX = x;
    this.color = color;
  }

  init() {
    this.key = new THREE.Mesh(
      new THREE.BoxGeometry(0.1, 0.1, 0.1),
      new THREE.MeshStandardMaterial({color: 0x555555}));
    this.key.name = this.keyName;
    this.key.position.set(this.keyX, 1.25, -0.55);
    this.state = tag(this.key, this.keyName, {touching: false, touches: 0, ends: 0, held: 0, hands: []});
    this.add(this.key);
  }

  onObjectTouchStart(event) {
    this.state.touching = true;
    this.state.touches += 1;
    this.state.hands.push(handOf(event));
    this.key.material.color.setHex(this.color);
  }

  onObjectTouching() {
    this.state.held += 1;
  }

  onObjectTouchEnd() {
    this.state.touching = false;
    this.state.ends += 1;
    this.key.material.color.setHex(0x555555);
  }
}

/** A block that follows the hand while it is grabbed (touched and pinched). */
class Block extends xb.Script {
  init() {
    this.block = new THREE.Mesh(
      new THREE.BoxGeometry(0.12, 0.12, 0.12),
      new THREE.MeshStandardMaterial({color: 0x3388ff}));
    this.block.name = 'block';
    this.block.position.set(-0.25, 1.15, -0.75);
    this.state = tag(this.block, 'block', {grabbed: false, grabs: 0, hand: null, selects: 0});
    this.add(this.block);
    this.offset = new THREE.Vector3();
  }

  onObjectSelectStart() {
    this.state.selects += 1;
  }

  onObjectGrabStart(event) {
    this.state.grabbed = true;
    this.state.grabs += 1;
    this.state.hand = handOf(event);
    this.offset.copy(this.block.position).sub(event.touchPosition);
  }

  onObjectGrabbing(event) {
    this.block.position.copy(event.touchPosition).add(this.offset);
  }

  onObjectGrabEnd() {
    this.state.grabbed = false;
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new TouchKey('key-a', 0.15, 0xff8800));
  xb.add(new TouchKey('key-b', 0.25, 0x00cc88));
  xb.add(new Block());
  xb.init(new xb.Options());
});
