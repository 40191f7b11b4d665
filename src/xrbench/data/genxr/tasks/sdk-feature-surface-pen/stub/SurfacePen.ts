import * as THREE from 'three';

import {Script} from '../core/Script';
import type {SelectEndEvent, SelectEvent} from '../core/Script';
import {Handedness} from '../input/Hands';
import {Input} from '../input/Input';

import {Depth} from './Depth';

/**
 * Options of a {@link SurfacePen}.
 */
export interface SurfacePenOptions {
  /** Colour of the strokes' lines. Default: 0xffffff. */
  color?: THREE.ColorRepresentation;
  /**
   * The most strokes the pen keeps at once, finished ones and those being
   * drawn. Default: 10.
   */
  maxStrokes?: number;
  /**
   * The least distance, in metres, between two consecutive vertices of a
   * stroke. Default: 0.01.
   */
  minSpacing?: number;
}

/**
 * Events a {@link SurfacePen} dispatches on itself.
 */
export interface SurfacePenEventMap extends THREE.Object3DEventMap {
  /** A hand started a stroke (the frame of its select start). */
  strokestart: {stroke: THREE.Line; handedness: Handedness};
  /** A hand's stroke ended (the frame of its select end). */
  strokeend: {stroke: THREE.Line; handedness: Handedness};
}

/**
 * SurfacePen lets the user draw on the real room: while a hand pinches
 * (selects), its ray is cast into the room as depth sensing sees it, and a
 * line is drawn through the points where the ray meets the real surfaces.
 * Needs depth sensing (`options.enableDepth()`) and tracked hands.
 *
 * ```js
 * const pen = new xb.SurfacePen({color: 0xff3d00});
 * pen.addEventListener('strokestart', ({stroke, handedness}) => {...});
 * xb.add(pen);
 * ```
 *
 * - Each hand draws its own stroke, from the frame its select starts to the
 *   frame its select ends; both hands may draw at once.
 * - Each frame of a stroke, the hand's ray (from its controller, along the
 *   controller's -Z axis) is cast against the latest depth data: the first
 *   point between {@link SurfacePen.NEAR} and {@link SurfacePen.FAR} metres
 *   from the hand that lies at or behind the real surface becomes the
 *   stroke's next vertex, when it is at least `minSpacing` from the last one.
 * - A stroke is a THREE.Line (a line strip) in the pen's colour, added under
 *   the pen when it starts. A stroke with fewer than 2 vertices when it ends
 *   is discarded. Finished strokes stay where they were drawn.
 * - At most `maxStrokes` strokes are kept: starting one more removes the
 *   oldest.
 */
export class SurfacePen extends Script<SurfacePenEventMap> {
  static dependencies = {depth: Depth, input: Input};

  /** Metres of the ray, from the hand, that are skipped (the hands show in depth). */
  static readonly NEAR = 0.3;
  /** Metres from the hand beyond which the ray meets nothing. */
  static readonly FAR = 5.0;

  readonly color: THREE.Color;
  readonly maxStrokes: number;
  readonly minSpacing: number;

  /**
   * The strokes the pen holds, oldest first: the finished ones it keeps and
   * those being drawn.
   */
  readonly strokes: THREE.Line[] = [];

  constructor(options: SurfacePenOptions = {}) {
    super();
    this.color = new THREE.Color(options.color ?? 0xffffff);
    this.maxStrokes = options.maxStrokes ?? 10;
    this.minSpacing = options.minSpacing ?? 0.01;
  }

  init(_deps: {depth: Depth; input: Input}) {
    // TODO: not implemented yet.
  }

  update() {
    // TODO: not implemented yet.
  }

  onSelectStart(_event: SelectEvent) {
    // TODO: not implemented yet.
  }

  onSelectEnd(_event: SelectEndEvent) {
    // TODO: not implemented yet.
  }
}
