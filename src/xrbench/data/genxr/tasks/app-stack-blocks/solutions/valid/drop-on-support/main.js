import * as THREE from 'three';
import * as xb from 'xrblocks';

const SIZE = 0.08;
const SPACING = 0.15;
const GRAVITY = 9.8;
const COLORS = {A: 0xe53935, B: 0x43a047, C: 0x1e88e5};

/** One block: grabbed by touch + pinch, and dropped onto whatever is below when released. */
class Block extends xb.Script {
  constructor(id, game) {
    super();
    this.blockId = id;
    this.game = game;
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(SIZE, SIZE, SIZE),
      new THREE.MeshStandardMaterial({color: COLORS[this.blockId], roughness: 0.6}));
    this.state = {id: this.blockId, restingOn: null, held: false};
    this.mesh.userData.xrblocksDevtools = {tag: 'block', state: this.state};
    this.mesh.visible = false;  // until placed on the table
    this.add(this.mesh);
    this.holder = null;
    this.offset = new THREE.Vector3();
    this.velocity = 0;
    this.falling = false;
  }

  /** Centre of the block in world coordinates. */
  get centre() {
    return this.mesh.getWorldPosition(new THREE.Vector3());
  }

  setCentre(world) {
    this.mesh.position.copy(this.mesh.parent.worldToLocal(world.clone()));
  }

  onObjectGrabStart(event) {
    if (this.holder) return;
    this.holder = event.source.controller;
    this.offset.copy(this.centre).sub(event.touchPosition);
    this.state.held = true;
    this.state.restingOn = null;
    this.falling = false;
  }

  onObjectGrabbing(event) {
    if (event.source.controller !== this.holder) return;
    this.setCentre(event.touchPosition.clone().add(this.offset));
  }

  onObjectGrabEnd(event) {
    if (event.source.controller !== this.holder) return;
    this.holder = null;
    this.state.held = false;
    this.velocity = 0;
    this.falling = true;
  }

  update() {
    if (this.game.tableTop === null || this.state.held) return;
    const support = this.game.supportBelow(this);
    if (!support) return;
    const restY = support.top + SIZE / 2;
    const centre = this.centre;
    if (!this.falling) {
      // Whatever held it up may have been taken away: fall again.
      if (centre.y - restY > 0.001) {
        this.falling = true;
        this.velocity = 0;
        this.state.restingOn = null;
      }
      return;
    }
    this.velocity += GRAVITY * xb.getDeltaTime();
    centre.y = Math.max(restY, centre.y - this.velocity * xb.getDeltaTime());
    this.setCentre(centre);
    if (centre.y <= restY) {
      this.falling = false;
      this.state.restingOn = support.name;
    }
  }
}

/** Finds the table, sets the blocks on it and answers what supports a block. */
class StackGame extends xb.Script {
  constructor() {
    super();
    this.tableTop = null;
    this.blocks = ['A', 'B', 'C'].map((id) => new Block(id, this));
  }

  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }

  update() {
    if (this.tableTop !== null) return;
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    const tables = (xb.world?.planes?.get() ?? [])
      .filter((p) => p.label === 'table')
      .map((p) => p.getWorldPosition(new THREE.Vector3()))
      .sort((a, b) => a.distanceTo(head) - b.distanceTo(head));
    if (!tables.length) return;  // planes arrive asynchronously
    const centre = tables[0];
    this.tableTop = centre.y;
    this.blocks.forEach((block, i) => {
      block.setCentre(new THREE.Vector3(centre.x + (i - 1) * SPACING, centre.y + SIZE / 2, centre.z));
      block.state.restingOn = 'table';
      block.mesh.visible = true;
    });
  }

  /** The highest surface under `block`: another block whose footprint overlaps it, or the table. */
  supportBelow(block) {
    if (this.tableTop === null) return null;
    const c = block.centre;
    const bottom = c.y - SIZE / 2;
    let best = {name: 'table', top: this.tableTop};
    for (const other of this.blocks) {
      if (other === block || other.state.held) continue;
      const o = other.centre;
      const top = o.y + SIZE / 2;
      const overlaps = Math.abs(o.x - c.x) < SIZE && Math.abs(o.z - c.z) < SIZE;
      if (overlaps && top <= bottom + 0.002 && top > best.top) best = {name: other.blockId, top};
    }
    return best;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const game = new StackGame();
  xb.add(game, ...game.blocks);
  const options = new xb.Options();
  options.enablePlaneDetection();
  options.enableHands();
  xb.init(options);
});
