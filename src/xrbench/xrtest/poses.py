"""Simulated hand poses between XR Blocks' named ones.

XR Blocks' simulator sets a hand's pose from per-joint rotations (degrees here: x flexes towards
the palm, y spreads, z rolls; `SIMULATOR_HAND_POSE_ROTATIONS` in XR Blocks 0.21.1, in radians
there). Gesture tests need poses part-way between two named ones (a hand that has not quite
closed, a thumb not quite up): `blend(RELAXED, THUMBS_UP, 0.6)`, given to
`xr.hand(role).set_joint_rotations(...)`. The tables are kept here rather than read from the page,
since an SDK task's candidate changes the SDK the page runs.
"""

from __future__ import annotations

Rotations = dict[str, tuple[float, float, float]]

RELAXED: Rotations = {
    "wrist": (3.81, 11.43, 23.28),
    "thumb-metacarpal": (16.56, -24.15, 32.43),
    "thumb-phalanx-proximal": (18.00, 0.00, 0.00),
    "thumb-phalanx-distal": (0.00, 0.00, 0.00),
    "index-finger-metacarpal": (0.00, 0.00, 0.00),
    "index-finger-phalanx-proximal": (25.00, 0.00, 0.00),
    "index-finger-phalanx-intermediate": (33.00, 0.00, 0.00),
    "index-finger-phalanx-distal": (13.00, 0.00, 0.00),
    "middle-finger-metacarpal": (0.00, 0.00, 0.00),
    "middle-finger-phalanx-proximal": (9.00, 0.00, 0.00),
    "middle-finger-phalanx-intermediate": (35.00, 0.00, 0.00),
    "middle-finger-phalanx-distal": (15.00, 0.00, 0.00),
    "ring-finger-metacarpal": (0.00, 0.00, 0.00),
    "ring-finger-phalanx-proximal": (0.00, 0.00, 0.00),
    "ring-finger-phalanx-intermediate": (35.00, 0.00, 0.00),
    "ring-finger-phalanx-distal": (15.00, 0.00, 0.00),
    "pinky-finger-metacarpal": (0.00, 0.00, 0.00),
    "pinky-finger-phalanx-proximal": (0.00, 0.00, 0.00),
    "pinky-finger-phalanx-intermediate": (29.00, 0.00, 0.00),
    "pinky-finger-phalanx-distal": (15.00, 0.00, 0.00),
}
THUMBS_UP: Rotations = {
    "wrist": (40.38, -11.54, 102.63),
    "thumb-metacarpal": (7.68, -11.08, 43.52),
    "thumb-phalanx-proximal": (-7.20, -1.70, 20.49),
    "thumb-phalanx-distal": (-4.69, 0.61, -21.20),
    "index-finger-metacarpal": (8.99, 0.76, 5.94),
    "index-finger-phalanx-proximal": (79.80, -7.34, 9.40),
    "index-finger-phalanx-intermediate": (90.79, -0.07, 0.02),
    "index-finger-phalanx-distal": (30.71, -0.03, -0.02),
    "middle-finger-metacarpal": (3.16, 0.64, 5.84),
    "middle-finger-phalanx-proximal": (76.03, -7.94, 7.27),
    "middle-finger-phalanx-intermediate": (88.32, -0.07, 0.01),
    "middle-finger-phalanx-distal": (40.54, -0.04, -0.00),
    "ring-finger-metacarpal": (1.28, -0.88, 7.88),
    "ring-finger-phalanx-proximal": (73.69, 12.89, 10.14),
    "ring-finger-phalanx-intermediate": (89.51, 0.06, -0.01),
    "ring-finger-phalanx-distal": (35.67, 0.02, 0.01),
    "pinky-finger-metacarpal": (-0.45, -1.32, 11.12),
    "pinky-finger-phalanx-proximal": (69.95, 15.30, 6.38),
    "pinky-finger-phalanx-intermediate": (102.61, 0.01, -0.04),
    "pinky-finger-phalanx-distal": (34.48, 0.02, 0.02),
}
FIST: Rotations = {
    "wrist": (41.19, -24.10, 29.01),
    "thumb-metacarpal": (28.73, -16.90, 31.59),
    "thumb-phalanx-proximal": (26.20, -10.16, 17.17),
    "thumb-phalanx-distal": (2.87, 3.52, -20.92),
    "index-finger-metacarpal": (9.66, 0.27, 0.00),
    "index-finger-phalanx-proximal": (84.00, 0.00, 0.00),
    "index-finger-phalanx-intermediate": (81.00, -0.06, 0.01),
    "index-finger-phalanx-distal": (72.00, -0.02, 0.00),
    "middle-finger-metacarpal": (3.48, 0.42, 0.00),
    "middle-finger-phalanx-proximal": (68.00, 0.00, 0.00),
    "middle-finger-phalanx-intermediate": (78.83, -0.07, 0.00),
    "middle-finger-phalanx-distal": (67.00, -0.04, -0.01),
    "ring-finger-metacarpal": (0.00, 0.00, 0.00),
    "ring-finger-phalanx-proximal": (67.00, 0.00, 0.00),
    "ring-finger-phalanx-intermediate": (76.26, 0.06, -0.02),
    "ring-finger-phalanx-distal": (77.00, 0.01, -0.01),
    "pinky-finger-metacarpal": (-0.13, 0.00, 0.00),
    "pinky-finger-phalanx-proximal": (72.00, 0.00, 0.00),
    "pinky-finger-phalanx-intermediate": (79.60, 0.01, -0.03),
    "pinky-finger-phalanx-distal": (74.00, 0.02, 0.00),
}


def blend(a: dict, b: dict, t: float) -> dict:
    """The pose a fraction `t` of the way from `a` to `b`."""
    return {k: tuple((1 - t) * x + t * y for x, y in zip(a[k], b[k], strict=True)) for k in a}
